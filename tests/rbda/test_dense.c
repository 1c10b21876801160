/* test_dense.c — gates for the dense reference, ABA, energy/poses and the
 * integrator.
 *
 *   test_dense spatial             spatial-algebra unit checks
 *   test_dense hand                every model check on a hand-built model that
 *                                  has all four joint types, a branch and fext
 *   test_dense model FILE          every model check on a .mech file
 *   test_dense satellite FILE      free fall of a floating multibody
 *   test_dense kinematics FILE     qd == dq/dt, poses and drift reversibility
 *                                  only: for models/loops/ (loops and force
 *                                  elements do not change the tree kinematics)
 *
 * Model checks: CRBA route vs ABA route (1000 random states incl. fext),
 * RNEA of the forward result vs tau, qd == dq/dt through the poses, poses vs
 * the Plücker composition, exact drift reversibility, Euler energy sanity;
 * aba_mass_matrix against dense_crba (with an implicit step's h D), and
 * the sparse H = Lᵀ D L solve against the dense LU, a unit vector's
 * L⁻ᵀ e_k staying on k's ancestors.
 * Exit 0 on pass, 1 on any failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/energy.h"
#include "rbda/jcalc.h"
#include "rbda/ltdl.h"
#include "rbda/sample.h"
#include "sim/integrate.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

#include "test_support.h"

#define GATE 1e-12
#define TRIALS 1000

static int failures;

static void report(const char *model, const char *what, double err, int worst, double gate)
{
    int ok = err <= gate;
    printf("%s: %-34s %.3e (worst trial %d, gate %.0e) %s\n", model, what, err, worst, gate, ok ? "ok" : "FAIL");
    if (!ok) failures++;
}

static double max_abs_diff(const double *a, const double *b, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++) e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

/* ------------------------------------------------------------------ spatial */

static void random_rotation(mech_rng *rng, double R[9])
{
    double phi[3], Q[4];
    for (int k = 0; k < 3; k++) phi[k] = mech_rng_uniform(rng, -3, 3);
    quat_from_rotvec(phi, Q);
    quat_to_rot(Q, R);
}

static void random_vec(mech_rng *rng, double *v, int n)
{
    for (int k = 0; k < n; k++) v[k] = mech_rng_uniform(rng, -2, 2);
}

static void check_spatial(void)
{
    mech_rng rng;
    double e_inv = 0, e_force = 0, e_crf = 0, e_cross = 0, e_quat = 0, e_rotvec = 0, e_qmul = 0, e_ke = 0, e_jcalc = 0;
    mech_rng_seed(&rng, 1);
    for (int t = 0; t < 1000; t++) {
        double E[9], r[3], X[36], Xi[36], XiX[36], Id[36], Xf[36], XiT[36], v[6], w[6], cv[36], fv[36], cvT[36];
        random_rotation(&rng, E);
        random_vec(&rng, r, 3);
        plux(E, r, X);
        plux_inverse(X, Xi);
        m6_mul(Xi, X, XiX);
        m6_identity(Id);
        e_inv = fmax(e_inv, max_abs_diff(XiX, Id, 36)); /* X^-1 X = 1 */
        plux_force(X, Xf);
        m6_transpose(Xi, XiT);
        e_force = fmax(e_force, max_abs_diff(Xf, XiT, 36)); /* X* = X^-T */
        random_vec(&rng, v, 6);
        random_vec(&rng, w, 6);
        crm(v, cv);
        crf(v, fv);
        m6_transpose(cv, cvT);
        for (int k = 0; k < 36; k++) cvT[k] = -cvT[k];
        e_crf = fmax(e_crf, max_abs_diff(fv, cvT, 36)); /* crf = -crm^T */
        double vw[6], wv[6], cw[36];
        crm(w, cw);
        m6_mulv(cv, w, vw);
        m6_mulv(cw, v, wv);
        for (int k = 0; k < 6; k++) wv[k] = -wv[k];
        e_cross = fmax(e_cross, max_abs_diff(vw, wv, 6)); /* v x w = -w x v */

        double Q[4], R[9], Q2[4], R2[9]; /* quaternion round trips */
        rot_to_quat(E, Q);
        quat_to_rot(Q, R);
        e_quat = fmax(e_quat, max_abs_diff(R, E, 9));
        rot_to_quat(R, Q2);
        e_quat = fmax(e_quat, max_abs_diff(Q2, Q, 4));
        double axis[3], ang = mech_rng_uniform(&rng, -3, 3), phi[3], Qa[4];
        random_vec(&rng, axis, 3);
        double n = v3_norm(axis);
        for (int k = 0; k < 3; k++) {
            axis[k] /= n;
            phi[k] = axis[k] * ang;
        }
        quat_from_rotvec(phi, Qa);
        quat_to_rot(Qa, R);
        rot_axis_angle(axis, ang, R2);
        e_rotvec = fmax(e_rotvec, max_abs_diff(R, R2, 9));
        double QQ[4], RQQ[9], RR[9]; /* R(a b) = R(a) R(b) */
        quat_mul(Q, Qa, QQ);
        quat_to_rot(QQ, RQQ);
        m3_mul(E, R, RR);
        e_qmul = fmax(e_qmul, max_abs_diff(RQQ, RR, 9));

        /* mcI: 1/2 v^T I v = 1/2 m |v + w x c|^2 + 1/2 w^T Ic w (eq. 2.63) */
        double c[3], Ic[9] = { 0 }, I[36], Iv[6], vc[3], Icw[3], m = mech_rng_uniform(&rng, 0.5, 3);
        random_vec(&rng, c, 3);
        for (int k = 0; k < 3; k++) Ic[4 * k] = mech_rng_uniform(&rng, 0.5, 2);
        mcI(m, c, Ic, I);
        m6_mulv(I, v, Iv);
        v3_cross(v, c, vc);
        for (int k = 0; k < 3; k++) vc[k] += v[3 + k];
        m3_mulv(Ic, v, Icw);
        double ke6 = 0;
        for (int k = 0; k < 6; k++) ke6 += 0.5 * v[k] * Iv[k];
        e_ke = fmax(e_ke, fabs(ke6 - (0.5 * m * v3_dot(vc, vc) + 0.5 * v3_dot(v, Icw))) / fmax(1, ke6));

        /* jcalc: dXJ/dq XJ^-1 = -(S x), the sign that ties S to X (RBDA eq. 2.45 / §4.4) */
        for (int j = 0; j < 2; j++) {
            mech_body b;
            memset(&b, 0, sizeof b);
            b.joint = j ? MECH_JOINT_PRISMATIC : MECH_JOINT_REVOLUTE;
            memcpy(b.axis, axis, sizeof axis);
            double q0 = mech_rng_uniform(&rng, -3, 3), h = 1e-6, qp = q0 + h, qm = q0 - h;
            double XJ[36], Xp[36], Xm[36], S[6], dX[36], XJi[36], D[36], Sx[36];
            body_jcalc(&b, &q0, XJ, S);
            body_jcalc(&b, &qp, Xp, S);
            body_jcalc(&b, &qm, Xm, S);
            for (int k = 0; k < 36; k++) dX[k] = (Xp[k] - Xm[k]) / (2 * h);
            plux_inverse(XJ, XJi);
            m6_mul(dX, XJi, D);
            crm(S, Sx);
            for (int k = 0; k < 36; k++) Sx[k] = -Sx[k];
            e_jcalc = fmax(e_jcalc, max_abs_diff(D, Sx, 36));
        }
    }
    report("spatial", "plux_inverse(X) X = 1", e_inv, -1, GATE);
    report("spatial", "plux_force(X) = X^-T", e_force, -1, GATE);
    report("spatial", "crf(v) = -crm(v)^T", e_crf, -1, GATE);
    report("spatial", "crm(v) w = -crm(w) v", e_cross, -1, GATE);
    report("spatial", "rot <-> quat round trips", e_quat, -1, GATE);
    report("spatial", "quat_from_rotvec = rot_axis_angle", e_rotvec, -1, GATE);
    report("spatial", "R(a (x) b) = R(a) R(b)", e_qmul, -1, GATE);
    report("spatial", "mcI kinetic energy", e_ke, -1, GATE);
    report("spatial", "jcalc dX/dq X^-1 = -(S x)", e_jcalc, -1, 1e-8);
}

/* The efficient forms (sxform, sinertia) against the dense 6x6 ones, on
 * transforms iX_lambda = XJ XT of every joint type and rotation structure:
 * revolute about a coordinate axis (either sign) or a general one, prismatic,
 * fixed, floating; tree rotation identity or general. */
static void random_body(mech_rng *rng, mech_body *b)
{
    memset(b, 0, sizeof *b);
    int kind = (int)mech_rng_uniform(rng, 0, 5);
    b->joint = kind < 2  ? MECH_JOINT_REVOLUTE
             : kind == 2 ? MECH_JOINT_PRISMATIC
             : kind == 3 ? MECH_JOINT_FIXED
                         : MECH_JOINT_FLOATING;
    if (mech_rng_uniform(rng, 0, 1) < 0.5) {
        int k = (int)mech_rng_uniform(rng, 0, 3);
        b->axis[k] = mech_rng_uniform(rng, -1, 1) < 0 ? -1.0 : 1.0;
    } else {
        random_vec(rng, b->axis, 3);
        double n = v3_norm(b->axis);
        for (int k = 0; k < 3; k++) b->axis[k] /= n;
    }
    if (mech_rng_uniform(rng, 0, 1) < 0.5) m3_identity(b->rot);
    else random_rotation(rng, b->rot);
    random_vec(rng, b->pos, 3);
}

static void check_efficient_forms(void)
{
    mech_rng rng;
    double e_x = 0, e_mv = 0, e_in = 0;
    int kinds[5] = { 0 };
    mech_rng_seed(&rng, 2);
    for (int t = 0; t < 4000; t++) {
        mech_body b;
        random_body(&rng, &b);
        double q[7], XJ[36], XT[36], X[36], S[36], Xs[36];
        random_vec(&rng, q, 7);
        sxform sJ, sT, sX;
        body_xtree(&b, XT);
        body_jcalc_normalized(&b, q, XJ, S);
        m6_mul(XJ, XT, X);
        sxform_xtree(&b, &sT);
        sxform_jcalc(&b, q, &sJ);
        sxform_compose(&sJ, &sT, &sX);
        kinds[sX.rot + 1]++;
        plux(sX.E, sX.r, Xs);
        e_x = fmax(e_x, max_abs_diff(Xs, X, 36)); /* (E, r) = XJ XT */

        double v[6], o[6], d[6], Xf[36];
        random_vec(&rng, v, 6);
        sxform_motion(&sX, v, o);
        m6_mulv(X, v, d);
        e_mv = fmax(e_mv, max_abs_diff(o, d, 6)); /* X v */
        plux_force(X, Xf);
        sxform_force(&sX, v, o);
        m6_mulv(Xf, v, d);
        e_mv = fmax(e_mv, max_abs_diff(o, d, 6)); /* X* f */
        sxform_tforce(&sX, v, o);
        m6_tmulv(X, v, d);
        e_mv = fmax(e_mv, max_abs_diff(o, d, 6)); /* X^T f */
        double w[6], cm[36];
        random_vec(&rng, w, 6);
        crf(v, cm);
        crf_mulv(v, w, o);
        m6_mulv(cm, w, d);
        e_mv = fmax(e_mv, max_abs_diff(o, d, 6)); /* v x* f */

        /* inertias: a rigid body's (sinertia_mcI), then an articulated one
         * (IA - U D^-1 U^T, U = IA S), through X^T I X into an accumulator */
        double c[3], Ic[9] = { 0 }, I[36], Is[36], m = mech_rng_uniform(&rng, 0.5, 3);
        random_vec(&rng, c, 3);
        for (int k = 0; k < 3; k++) Ic[4 * k] = mech_rng_uniform(&rng, 0.5, 2);
        Ic[1] = Ic[3] = 0.1;
        mcI(m, c, Ic, I);
        sinertia sI, sacc, sU;
        sinertia_mcI(m, c, Ic, &sI);
        sinertia_full(&sI, Is);
        e_in = fmax(e_in, max_abs_diff(Is, I, 36));
        sinertia_rb_mulv(&sI, v, o);
        m6_mulv(I, v, d);
        e_in = fmax(e_in, max_abs_diff(o, d, 6));
        double U[6], Ud[6], s6[6] = { 0 };
        int prismatic = b.joint == MECH_JOINT_PRISMATIC;
        memcpy(s6 + 3 * prismatic, b.axis, sizeof b.axis);
        sinertia_mul_axis(&sI, prismatic, b.axis, U);
        m6_mulv(I, s6, Ud);
        e_in = fmax(e_in, max_abs_diff(U, Ud, 6)); /* U = I S */
        double Dinv = 1.0 / v6_dot(s6, U);
        sinertia_sub_outer(&sI, U, Dinv);
        for (int r = 0; r < 6; r++)
            for (int k = 0; k < 6; k++) I[6 * r + k] -= U[r] * Dinv * U[k];
        sinertia_full(&sI, Is);
        e_in = fmax(e_in, max_abs_diff(Is, I, 36)); /* Ia */
        sinertia_mulv(&sI, v, o);
        m6_mulv(I, v, d);
        e_in = fmax(e_in, max_abs_diff(o, d, 6));
        sinertia_mcI(2.0, c, Ic, &sacc);
        sU = sacc;
        sinertia_tcongruence_add(&sX, &sI, &sacc);
        double IX[36], XtIX[36], A[36];
        m6_mul(I, X, IX);
        mat_tmul(6, 6, 6, X, IX, XtIX);
        sinertia_full(&sU, A);
        for (int k = 0; k < 36; k++) A[k] += XtIX[k];
        sinertia_full(&sacc, Is);
        e_in = fmax(e_in, max_abs_diff(Is, A, 36) / fmax(1, v3_dot(b.pos, b.pos))); /* acc + X^T I X */
    }
    printf("spatial: iX_lambda rotations seen: none %d, x %d, y %d, z %d, general %d\n", kinds[0], kinds[1], kinds[2],
           kinds[3], kinds[4]);
    report("spatial", "sxform = XJ XT (plux)", e_x, -1, GATE);
    report("spatial", "sxform X v, X* f, X^T f; crf_mulv", e_mv, -1, GATE);
    report("spatial", "sinertia I, I v, I S, Ia, X^T I X", e_in, -1, GATE);
}

/* ------------------------------------------------------------ model checks */

/* CRBA route (dense_fd) vs ABA route (aba_fd), and ID of each forward result
 * (dense_id_residual: gated on the force-balance scale, the tau-only scaled
 * figure printed beside it). */
static void check_fd(const mech_model *m, dense_ws *dws, aba_ws *aws)
{
    int nq = m->nq, nv = m->nv;
    double *q = calloc((size_t)nq + 1, sizeof *q), *qd = calloc((size_t)nv + 1, sizeof *qd);
    double *tau = calloc((size_t)nv + 1, sizeof *tau), *fext = calloc(6 * (size_t)m->nb + 1, sizeof *fext);
    double *qdd_d = calloc((size_t)nv + 1, sizeof *qdd_d), *qdd_a = calloc((size_t)nv + 1, sizeof *qdd_a);
    double e_fd = 0, e_id[2] = { 0 }, e_plain[2] = { 0 };
    int w_fd = 0, w_id[2] = { 0 };
    mech_rng rng;
    mech_rng_seed(&rng, 12345);
    for (int t = 0; t < TRIALS; t++) {
        mech_sample_state(m, &rng, q, qd, tau, fext);
        dense_fd(m, dws, q, qd, tau, fext, qdd_d);
        aba_fd(m, aws, q, qd, tau, fext, qdd_a);
        double e = mech_scaled_error(qdd_a, qdd_d, nv);
        if (e > e_fd) {
            e_fd = e;
            w_fd = t;
        }
        for (int k = 0; k < 2; k++) {
            double plain;
            e = dense_id_residual(m, dws, q, qd, k ? qdd_a : qdd_d, fext, tau, &plain);
            if (e > e_id[k]) {
                e_id[k] = e;
                w_id[k] = t;
            }
            e_plain[k] = fmax(e_plain[k], plain);
        }
    }
    report(m->name, "|qdd_aba - qdd_crba| scaled", e_fd, w_fd, GATE);
    for (int k = 0; k < 2; k++) {
        printf("%s: ID(qdd_%s) - tau, scaled by |tau| alone: %.3e\n", m->name, k ? "aba" : "crba", e_plain[k]);
        report(m->name, k ? "|ID(qdd_aba) - tau| / balance" : "|ID(qdd_crba) - tau| / balance", e_id[k], w_id[k], GATE);
    }
    free(q);
    free(qd);
    free(tau);
    free(fext);
    free(qdd_d);
    free(qdd_a);
}

/* 1 when dof a is dof k or one of its ancestors along lambda. */
static int on_chain(const int *lambda, int k, int a)
{
    for (int j = k; j >= 0; j = lambda[j])
        if (j == a) return 1;
    return 0;
}

/* aba_mass_matrix = dense_crba (+ h D, the implicit step's), scaled by
 * max|H|; H x = b by the sparse factors = by LU; L⁻ᵀ e_k on k's chain only. */
static void check_mass_matrix(const mech_model *m, dense_ws *dws, aba_ws *aws)
{
    int nq = m->nq, nv = m->nv;
    size_t n2 = (size_t)nv * (size_t)nv + 1;
    double *q = calloc((size_t)nq + 1, sizeof *q), *qd = calloc((size_t)nv + 1, sizeof *qd);
    double *tau = calloc((size_t)nv + 1, sizeof *tau), *fext = calloc(6 * (size_t)m->nb + 1, sizeof *fext);
    double *Hd = calloc(n2, sizeof *Hd), *Ha = calloc(n2, sizeof *Ha), *x = calloc((size_t)nv + 1, sizeof *x);
    double *y = calloc((size_t)nv + 1, sizeof *y);
    int *lambda = calloc((size_t)nv + 1, sizeof *lambda), *piv = calloc((size_t)nv + 1, sizeof *piv);
    double e_h = 0, e_x = 0, off_chain = 0;
    mech_rng rng;
    mech_rng_seed(&rng, 777);
    ltdl_parents(m, lambda);
    for (int t = 0; t < 100; t++) {
        double h = t % 2 ? 1e-3 : 0.0;
        mech_sample_state(m, &rng, q, qd, tau, fext);
        dense_crba(m, dws, q, Hd);
        for (int j = 0; j < nv; j++) Hd[(size_t)j * nv + j] += h * mech_model_joint_damping(m, j);
        aba_set_implicit_step(aws, h);
        aba_mass_matrix(m, aws, q, Ha);
        double big = 0;
        for (size_t k = 0; k < (size_t)nv * nv; k++) big = fmax(big, fabs(Hd[k]));
        e_h = fmax(e_h, max_abs_diff(Ha, Hd, nv * nv) / fmax(big, 1e-300));
        if (ltdl_factor(nv, lambda, Ha)) e_x = INFINITY;
        for (int j = 0; j < nv; j++) x[j] = y[j] = tau[j];
        ltdl_solve_lt(nv, lambda, Ha, x);
        for (int j = 0; j < nv; j++) x[j] /= Ha[(size_t)j * nv + j];
        ltdl_solve_l(nv, lambda, Ha, x);
        dense_lu(nv, Hd, piv);
        dense_lu_solve(nv, Hd, piv, y);
        e_x = fmax(e_x, mech_scaled_error(x, y, nv));
        for (int k = 0; k < nv; k++) {
            memset(x, 0, (size_t)nv * sizeof *x);
            x[k] = 1;
            ltdl_solve_lt(nv, lambda, Ha, x);
            for (int j = 0; j < nv; j++)
                if (!on_chain(lambda, k, j)) off_chain = fmax(off_chain, fabs(x[j]));
        }
    }
    aba_set_implicit_step(aws, 0);
    report(m->name, "|H_aba - H_crba| / max|H|", e_h, 0, GATE);
    report(m->name, "|x_ltdl - x_lu| scaled", e_x, 0, 1e-10);
    report(m->name, "L^-T e_k off k's chain", off_chain, 0, 0);
    free(q);
    free(qd);
    free(tau);
    free(fext);
    free(Hd);
    free(Ha);
    free(x);
    free(y);
    free(lambda);
    free(piv);
}

/* Body spatial velocities v_i (body frame) and transforms iX0 by the test's
 * own Plücker recursion v_i = iX_lambda v_lambda + S qd (Table 5.1). */
static void plucker_kinematics(const mech_model *m, const double *q, const double *qd, double (*v)[6], double (*X0)[36])
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double XT[36], XJ[36], S[36], X[36], vJ[6], vp[6] = { 0 };
        body_xtree(b, XT);
        body_jcalc_normalized(b, q + b->qidx, XJ, S);
        m6_mul(XJ, XT, X);
        mat_mul(6, b->nv, 1, S, qd + b->vidx, vJ);
        if (b->parent >= 0) {
            m6_mulv(X, v[b->parent], vp);
            m6_mul(X, X0[b->parent], X0[i]);
        } else {
            memcpy(X0[i], X, sizeof X);
        }
        for (int k = 0; k < 6; k++) v[i][k] = vp[k] + vJ[k];
    }
}

/* qd == dq/dt: central differences of the poses along mech_integrate_q give
 * each body's world angular velocity and origin velocity; in body coordinates
 * they must equal the Plücker velocities the dynamics use.  A sign inversion
 * (E = R instead of R^T) shows as a scaled error of exactly 2.  Also: the
 * poses agree with iX0 = plux(R^T, p). */
static void check_kinematics(const mech_model *m)
{
    int nb = m->nb;
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double *qp = calloc((size_t)m->nq + 1, sizeof *qp), *qm = calloc((size_t)m->nq + 1, sizeof *qm);
    double *pose = calloc(7 * (size_t)nb + 1, sizeof *pose), *posep = calloc(7 * (size_t)nb + 1, sizeof *posep);
    double *posem = calloc(7 * (size_t)nb + 1, sizeof *posem);
    double(*v)[6] = calloc((size_t)nb + 1, sizeof *v), (*X0)[36] = calloc((size_t)nb + 1, sizeof *X0);
    double *vfd = calloc(6 * (size_t)nb + 1, sizeof *vfd);
    const double h = 1e-5;
    double e_vel = 0, e_pose = 0;
    int w_vel = 0, w_pose = 0;
    mech_rng rng;
    mech_rng_seed(&rng, 777);
    for (int t = 0; t < 100; t++) {
        mech_sample_state(m, &rng, q, qd, NULL, NULL);
        memcpy(qp, q, (size_t)m->nq * sizeof *q);
        memcpy(qm, q, (size_t)m->nq * sizeof *q);
        mech_integrate_q(m, qp, qd, h);
        mech_integrate_q(m, qm, qd, -h);
        mech_body_poses(m, q, pose);
        mech_body_poses(m, qp, posep);
        mech_body_poses(m, qm, posem);
        plucker_kinematics(m, q, qd, v, X0);
        double epose = 0;
        for (int i = 0; i < nb; i++) {
            double R[9], Rp[9], Rm[9], dR[9], W[9], pdot[3], Xp[36];
            quat_to_rot(pose + 7 * i + 3, R);
            quat_to_rot(posep + 7 * i + 3, Rp);
            quat_to_rot(posem + 7 * i + 3, Rm);
            for (int k = 0; k < 9; k++) dR[k] = (Rp[k] - Rm[k]) / (2 * h);
            double Rt[9];
            m3_transpose(R, Rt);
            m3_mul(Rt, dR, W); /* R^T dR/dt = (w_body x) */
            vfd[6 * i + 0] = 0.5 * (W[7] - W[5]);
            vfd[6 * i + 1] = 0.5 * (W[2] - W[6]);
            vfd[6 * i + 2] = 0.5 * (W[3] - W[1]);
            for (int k = 0; k < 3; k++) pdot[k] = (posep[7 * i + k] - posem[7 * i + k]) / (2 * h);
            m3_tmulv(R, pdot, vfd + 6 * i + 3);
            plux(Rt, pose + 7 * i, Xp);
            epose = fmax(epose, mech_scaled_error(Xp, X0[i], 36));
        }
        double e = mech_scaled_error(vfd, &v[0][0], 6 * nb);
        if (e > e_vel) {
            e_vel = e;
            w_vel = t;
        }
        if (epose > e_pose) {
            e_pose = epose;
            w_pose = t;
        }
    }
    report(m->name, "qd == dq/dt (pose differences)", e_vel, w_vel, 1e-7);
    report(m->name, "poses == Plucker iX0", e_pose, w_pose, GATE);
    free(q);
    free(qd);
    free(qp);
    free(qm);
    free(pose);
    free(posep);
    free(posem);
    free(v);
    free(X0);
    free(vfd);
}

/* mech_integrate_q by +tau then -tau returns to the start. */
static void check_reversible(const mech_model *m)
{
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *q0 = calloc((size_t)m->nq + 1, sizeof *q0);
    double *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double e_rev = 0;
    int w_rev = 0;
    mech_rng rng;
    mech_rng_seed(&rng, 99);
    for (int t = 0; t < 100; t++) {
        double tau = mech_rng_uniform(&rng, 0.01, 1.0);
        mech_sample_state(m, &rng, q, qd, NULL, NULL);
        memcpy(q0, q, (size_t)m->nq * sizeof *q);
        mech_integrate_q(m, q, qd, tau);
        mech_integrate_q(m, q, qd, -tau);
        double e = mech_scaled_error(q, q0, m->nq);
        if (e > e_rev) {
            e_rev = e;
            w_rev = t;
        }
    }
    report(m->name, "drift +tau -tau returns", e_rev, w_rev, 1e-10);
    free(q);
    free(q0);
    free(qd);
}

/* Semi-implicit Euler from a random state, tau = 0, no fext, both engines:
 * the energy excursion max|E(t) - E(0)| must be small on the scale
 * KE(0) + sum m |g| (1 m), shrink 2x when dt halves (first order), and not
 * depend on the engine. */
static double euler_excursion(const mech_model *m, mech_fd_fn fd, void *ctx, dense_ws *dws, const double *q0,
                              const double *qd0, double T, double dt)
{
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    double *tau = calloc((size_t)m->nv + 1, sizeof *tau), *qdd = calloc((size_t)m->nv + 1, sizeof *qdd);
    memcpy(q, q0, (size_t)m->nq * sizeof *q);
    memcpy(qd, qd0, (size_t)m->nv * sizeof *qd);
    double E0 = mech_energy(m, dws, q, qd, NULL, NULL), exc = 0;
    long steps = lround(T / dt);
    for (long s = 0; s < steps; s++) {
        mech_step_euler(m, fd, ctx, q, qd, tau, NULL, qdd, dt);
        exc = fmax(exc, fabs(mech_energy(m, dws, q, qd, NULL, NULL) - E0));
    }
    free(q);
    free(qd);
    free(tau);
    free(qdd);
    return exc;
}

static void check_energy(const mech_model *m, dense_ws *dws, aba_ws *aws)
{
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    dense_engine de = { m, dws };
    aba_engine ae = { m, aws };
    mech_rng rng;
    double T0, scale = 0, dt = 1e-4;
    mech_rng_seed(&rng, 2024);
    mech_sample_state(m, &rng, q, qd, NULL, NULL);
    for (int k = 0; k < m->nv; k++) qd[k] *= 0.25;
    mech_energy(m, dws, q, qd, &T0, NULL);
    for (int i = 0; i < m->nb; i++) scale += m->bodies[i].mass * v3_norm(m->gravity);
    scale += T0;
    double ea = euler_excursion(m, aba_engine_fd, &ae, dws, q, qd, 0.5, dt);
    double ea2 = euler_excursion(m, aba_engine_fd, &ae, dws, q, qd, 0.5, dt / 2);
    double ed = euler_excursion(m, dense_engine_fd, &de, dws, q, qd, 0.5, dt);
    printf("%s: Euler 0.5 s energy excursion: aba %.3e J (dt %g), %.3e J (dt/2), ratio %.3f; dense %.3e J; scale %.3e J\n",
           m->name, ea, dt, ea2, ea / ea2, ed, scale);
    report(m->name, "Euler energy excursion / scale", ea / scale, -1, 1e-2);
    report(m->name, "Euler order: |ratio - 2| / 2", fabs(ea / ea2 - 2) / 2, -1, 0.1);
    report(m->name, "Euler excursion, aba vs dense", fabs(ea - ed) / fmax(ea, 1e-300), -1, 1e-6);
    /* The engines' O(nb) energy from the bodies' kinematics against 1/2 qd^T H qd with H by CRBA. */
    mech_body_kin *k = calloc((size_t)m->nb + 1, sizeof *k);
    double e_bodies = 0;
    int w_bodies = 0;
    for (int t = 0; t < TRIALS; t++) {
        double Td, Vd, Tb, Vb;
        mech_sample_state(m, &rng, q, qd, NULL, NULL);
        mech_energy(m, dws, q, qd, &Td, &Vd);
        mech_world_kinematics(m, q, qd, k);
        mech_energy_bodies(m, k, qd, &Tb, &Vb);
        double e = fmax(fabs(Tb - Td) / fmax(fabs(Td), 1), fabs(Vb - Vd) / fmax(fabs(Vd), 1));
        if (e > e_bodies) {
            e_bodies = e;
            w_bodies = t;
        }
    }
    report(m->name, "energy from the bodies vs 1/2 qd^T H qd + V, scaled", e_bodies, w_bodies, GATE);
    free(k);
    free(q);
    free(qd);
}

static void check_model(const mech_model *m)
{
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    if (!dws || !aws) {
        fprintf(stderr, "%s: out of memory\n", m->name);
        exit(2);
    }
    printf("%s: nb %d, nq %d, nv %d\n", m->name, m->nb, m->nq, m->nv);
    check_fd(m, dws, aws);
    check_mass_matrix(m, dws, aws);
    check_kinematics(m);
    check_reversible(m);
    check_energy(m, dws, aws);
    dense_ws_free(dws);
    aba_ws_free(aws);
}

/* ------------------------------------------------------------ hand model */

typedef struct {
    const char *name;
    int parent;
    mech_joint_type joint;
    double axis[3], pos[3], rotvec[3], mass, com[3], inertia[3];
    int fext;
} hand_body;

/* Every joint type, a branch, non-trivial tree rotations, off-axis CoMs; a
 * spherical joint below a revolute one and below the floating bus, and a
 * cylindrical joint about a general axis below it. */
static const hand_body HAND[] = {
    { "bus",
      -1,
      MECH_JOINT_FLOATING,
      { 0 },
      { 0.1, -0.2, 0.3 },
      { 0.2, 0.1, -0.3 },
      5.0,
      { 0.1, 0.05, -0.02 },
      { 1.0, 1.3, 0.8 },
      1 },
    { "arm", 0, MECH_JOINT_REVOLUTE, { 0, 0.6, 0.8 }, { 0.5, 0, 0.1 }, { 0.3, 0, 0 }, 1.0, { 0.2, 0, 0 }, { 0.01, 0.05, 0.05 }, 0 },
    { "tool", 1, MECH_JOINT_FIXED, { 0 }, { 0.4, 0.1, 0 }, { 0, 0.4, 0.2 }, 0.5, { 0.05, 0.02, 0 }, { 0.002, 0.003, 0.004 }, 1 },
    { "slide", 2, MECH_JOINT_PRISMATIC, { 1, 0, 0 }, { 0.1, 0, 0 }, { 0, 0, 0.5 }, 0.3, { 0, 0.03, 0 }, { 0.001, 0.002, 0.002 }, 1 },
    { "wing", 0, MECH_JOINT_REVOLUTE, { 1, 0, 0 }, { -0.5, 0, 0 }, { 0, 0, 3.14159 }, 0.8, { 0, 0.3, 0 }, { 0.04, 0.01, 0.04 }, 0 },
    { "pend", -1, MECH_JOINT_REVOLUTE, { 0, 1, 0 }, { 0, 2, 0 }, { 0.1, 0.2, 0 }, 2.0, { 0, 0, -0.5 }, { 0.05, 0.05, 0.01 }, 1 },
    { "bob", 5, MECH_JOINT_FIXED, { 0 }, { 0, 0, -1 }, { 0, 0, 0 }, 1.0, { 0, 0, 0 }, { 0.01, 0.01, 0.01 }, 0 },
    { "pend2", 6, MECH_JOINT_REVOLUTE, { 0, 0, 1 }, { 0, 0.1, 0 }, { 0.5, 0, 0 }, 0.7, { 0.3, 0, 0.1 }, { 0.01, 0.02, 0.02 }, 0 },
    { "ball", 7, MECH_JOINT_SPHERICAL, { 0 }, { 0.2, 0, 0.1 }, { 0.1, -0.3, 0.2 }, 0.6, { 0, 0.1, -0.2 }, { 0.02, 0.01, 0.015 }, 1 },
    { "sleeve",
      8,
      MECH_JOINT_CYLINDRICAL,
      { 0.48, 0.6, 0.64 },
      { 0, 0, -0.3 },
      { 0.2, 0.1, 0 },
      0.4,
      { 0.05, 0, 0.02 },
      { 0.003, 0.002, 0.004 },
      0 },
    { "wrist", 1, MECH_JOINT_SPHERICAL, { 0 }, { 0.3, 0.1, 0 }, { 0, 0, 0.7 }, 0.3, { 0.1, 0, 0 }, { 0.001, 0.003, 0.002 }, 0 },
};

static mech_model *hand_model(void)
{
    int nb = (int)(sizeof HAND / sizeof HAND[0]);
    mech_model *m = calloc(1, sizeof *m);
    m->bodies = calloc((size_t)nb, sizeof *m->bodies);
    snprintf(m->name, sizeof m->name, "hand");
    m->gravity[2] = -9.81;
    m->nb = nb;
    for (int i = 0; i < nb; i++) {
        const hand_body *h = &HAND[i];
        mech_body *b = &m->bodies[i];
        double Q[4], Rc[9], Ic[9] = { 0 };
        snprintf(b->name, sizeof b->name, "%s", h->name);
        b->parent = h->parent;
        b->joint = h->joint;
        memcpy(b->axis, h->axis, sizeof b->axis);
        memcpy(b->pos, h->pos, sizeof b->pos);
        quat_from_rotvec(h->rotvec, Q);
        quat_to_rot(Q, b->rot);
        b->mass = h->mass;
        memcpy(b->com, h->com, sizeof b->com);
        /* a rotated principal inertia Rc diag Rc^T, so off-diagonals are exercised */
        double phi[3] = { 0.3 * i, 0.2, -0.1 * i }, Qc[4], D[9], RD[9], Rct[9];
        quat_from_rotvec(phi, Qc);
        quat_to_rot(Qc, Rc);
        for (int k = 0; k < 3; k++) Ic[4 * k] = h->inertia[k];
        m3_mul(Rc, Ic, RD);
        m3_transpose(Rc, Rct);
        m3_mul(RD, Rct, D);
        memcpy(b->inertia, D, sizeof D);
        b->fext = h->fext;
        static const int nq[] = { [MECH_JOINT_REVOLUTE] = 1, [MECH_JOINT_PRISMATIC] = 1, [MECH_JOINT_FLOATING] = 7,
                                  [MECH_JOINT_FIXED] = 0,    [MECH_JOINT_SPHERICAL] = 4, [MECH_JOINT_CYLINDRICAL] = 2 };
        b->nq = nq[h->joint];
        b->nv = h->joint == MECH_JOINT_FLOATING ? 6 : h->joint == MECH_JOINT_SPHERICAL ? 3 : b->nq;
        b->qidx = m->nq;
        b->vidx = m->nv;
        m->nq += b->nq;
        m->nv += b->nv;
        if (b->joint == MECH_JOINT_FLOATING || b->joint == MECH_JOINT_SPHERICAL) b->q0[0] = 1.0;
    }
    return m;
}

/* ------------------------------------------------------------ satellite */

/* Free fall.  Gravity enters as the base acceleration -[0; g] and the
 * dynamics are affine in it, and a uniform field is a uniformly accelerating
 * frame; so for ANY (q, qd, tau, fext)
 *     qdd(g) - qdd(0) = [0; R^T g] on the floating body, 0 on every joint,
 * ([w_dot; v_dot] is the body-frame derivative of the body-frame velocity, and
 * d/dt(R^T r_dot) gains exactly R^T g).  With qd = 0, tau = 0 this is qdd
 * itself: world linear acceleration R v_dot = g (magnitude 9.81), w_dot = 0. */
static void check_satellite(const mech_model *m)
{
    int nv = m->nv, bus = -1;
    for (int i = 0; i < m->nb && bus < 0; i++)
        if (m->bodies[i].joint == MECH_JOINT_FLOATING) bus = i;
    if (bus < 0) {
        fprintf(stderr, "%s: no floating body\n", m->name);
        exit(2);
    }
    mech_model m0 = *m; /* gravity-free copy */
    m0.gravity[0] = m0.gravity[1] = m0.gravity[2] = 0;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)nv, sizeof *qd);
    double *tau = calloc((size_t)nv, sizeof *tau), *fext = calloc(6 * (size_t)m->nb, sizeof *fext);
    double *zero = calloc((size_t)nv, sizeof *zero), *qdd = calloc((size_t)nv, sizeof *qdd);
    double *qdd0 = calloc((size_t)nv, sizeof *qdd0), *expect = calloc((size_t)nv, sizeof *expect);
    double *pose = calloc(7 * (size_t)m->nb, sizeof *pose);
    double e_rest[2] = { 0 }, e_mag = 0, e_dir = 0, e_moving[2] = { 0 };
    int w_rest[2] = { 0 }, w_moving[2] = { 0 };
    const mech_body *b = &m->bodies[bus];
    mech_rng rng;
    mech_rng_seed(&rng, 4242);
    printf("%s: nb %d, nq %d, nv %d, floating body '%s'\n", m->name, m->nb, m->nq, nv, b->name);
    for (int t = 0; t < 100; t++) {
        mech_sample_state(m, &rng, q, qd, tau, fext);
        double R[9], Rtg[3];
        mech_body_poses(m, q, pose); /* world attitude, tree rotation included */
        quat_to_rot(pose + 7 * bus + 3, R);
        m3_tmulv(R, m->gravity, Rtg);
        memset(expect, 0, (size_t)nv * sizeof *expect);
        memcpy(expect + b->vidx + 3, Rtg, sizeof Rtg);
        for (int eng = 0; eng < 2; eng++) {
            /* at rest, no forces: qdd = [0; R^T g; 0] */
            if (eng) aba_fd(m, aws, q, zero, zero, NULL, qdd);
            else dense_fd(m, dws, q, zero, zero, NULL, qdd);
            double e = mech_scaled_error(qdd, expect, nv);
            if (e > e_rest[eng]) {
                e_rest[eng] = e;
                w_rest[eng] = t;
            }
            if (eng) {
                double a[3];
                m3_mulv(R, qdd + b->vidx + 3, a);
                e_mag = fmax(e_mag, fabs(v3_norm(a) - v3_norm(m->gravity)) / v3_norm(m->gravity));
                for (int k = 0; k < 3; k++) a[k] -= m->gravity[k];
                e_dir = fmax(e_dir, v3_norm(a) / v3_norm(m->gravity));
            }
            /* moving, driven, pushed: qdd(g) - qdd(0) = [0; R^T g; 0] */
            if (eng) {
                aba_fd(m, aws, q, qd, tau, fext, qdd);
                aba_fd(&m0, aws, q, qd, tau, fext, qdd0);
            } else {
                dense_fd(m, dws, q, qd, tau, fext, qdd);
                dense_fd(&m0, dws, q, qd, tau, fext, qdd0);
            }
            for (int k = 0; k < nv; k++) qdd[k] -= qdd0[k];
            e = mech_scaled_error(qdd, expect, nv);
            if (e > e_moving[eng]) {
                e_moving[eng] = e;
                w_moving[eng] = t;
            }
        }
    }
    report(m->name, "free fall at rest, dense", e_rest[0], w_rest[0], GATE);
    report(m->name, "free fall at rest, aba", e_rest[1], w_rest[1], GATE);
    report(m->name, "| |R v_dot| - |g| | / |g|", e_mag, -1, GATE);
    report(m->name, "|R v_dot - g| / |g|", e_dir, -1, GATE);
    report(m->name, "qdd(g)-qdd(0) moving, dense", e_moving[0], w_moving[0], GATE);
    report(m->name, "qdd(g)-qdd(0) moving, aba", e_moving[1], w_moving[1], GATE);
    free(q);
    free(qd);
    free(tau);
    free(fext);
    free(zero);
    free(qdd);
    free(qdd0);
    free(expect);
    free(pose);
    dense_ws_free(dws);
    aba_ws_free(aws);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "spatial") == 0) {
        check_spatial();
        check_efficient_forms();
    } else if (argc == 2 && strcmp(argv[1], "hand") == 0) {
        mech_model *m = hand_model(), sat = *m;
        check_model(m);
        sat.nb = 5; /* the floating subtree: bus, arm, tool, slide, wing */
        sat.nq = sat.bodies[4].qidx + sat.bodies[4].nq;
        sat.nv = sat.bodies[4].vidx + sat.bodies[4].nv;
        snprintf(sat.name, sizeof sat.name, "hand-floating");
        check_satellite(&sat);
        mech_model_free(m);
    } else if (argc == 3 && (strcmp(argv[1], "model") == 0 || strcmp(argv[1], "satellite") == 0 ||
                             strcmp(argv[1], "kinematics") == 0)) {
        mech_model *m = test_load_model(argv[2]);
        if (argv[1][0] == 'm') check_model(m);
        else if (argv[1][0] == 's') check_satellite(m);
        else {
            printf("%s: nb %d, nq %d, nv %d, nc %d\n", m->name, m->nb, m->nq, m->nv, m->nc);
            check_kinematics(m);
            check_reversible(m);
        }
        mech_model_free(m);
    } else {
        fprintf(stderr, "usage: test_dense spatial | hand | model FILE | satellite FILE | kinematics FILE\n");
        return 2;
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
