/* loops.c — loop kinematics and method 2 (RBDA §8.5).  See loops.h. */
#include "rbda/loops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/elements.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

/* Body b's world attitude R (columns: body axes) and origin p, from
 * iX0 = [E 0; -E p x, E] with E = R^T (eq. 2.24); base: identity. */
static void body_frame(const dense_ws *ws, int b, double R[9], double p[3])
{
    m3_identity(R);
    p[0] = p[1] = p[2] = 0;
    if (b < 0) return;
    const double *X = ws->X0[b];
    double px[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) R[3 * r + c] = X[6 * c + r];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            px[3 * r + c] = 0;
            for (int k = 0; k < 3; k++) px[3 * r + c] -= R[3 * r + k] * X[6 * (3 + k) + c];
        }
    p[0] = px[7];
    p[1] = px[2];
    p[2] = px[3];
}

/* One side of a loop in base coordinates: frame axes R (columns), origin x,
 * the body's angular velocity w and the velocity xd of the point x. */
typedef struct {
    double R[9], x[3], w[3], xd[3];
} loop_side;

static void side_of(const dense_ws *ws, int b, const double pos[3], const double rot[9], loop_side *s)
{
    double Rb[9], pb[3], d[3], wx[3];
    body_frame(ws, b, Rb, pb);
    m3_mul(Rb, rot, s->R);
    m3_mulv(Rb, pos, d);
    for (int k = 0; k < 3; k++) s->x[k] = pb[k] + d[k];
    static const double zero6[6];
    const double *v = b < 0 ? zero6 : ws->vw[b];
    memcpy(s->w, v, sizeof s->w);
    v3_cross(v, s->x, wx);
    for (int k = 0; k < 3; k++) s->xd[k] = v[3 + k] + wx[k];
}

static void column(const double R[9], int c, double a[3])
{
    a[0] = R[c];
    a[1] = R[3 + c];
    a[2] = R[6 + c];
}

/* Translation along pred-fixed a: e = a . (x_s - x_p), T = [x_s x a; a],
 * T' = [x_s' x a + x_s x a'; a'], a' = w_p x a. */
static double trans_row(const loop_side *P, const loop_side *S, int axis, double T[6], double Td[6])
{
    double a[3], ad[3], t1[3], t2[3], rho[3];
    column(P->R, axis, a);
    v3_cross(P->w, a, ad);
    v3_cross(S->x, a, T);
    memcpy(T + 3, a, sizeof a);
    v3_cross(S->xd, a, t1);
    v3_cross(S->x, ad, t2);
    for (int k = 0; k < 3; k++) {
        Td[k] = t1[k] + t2[k];
        Td[3 + k] = ad[k];
        rho[k] = S->x[k] - P->x[k];
    }
    return v3_dot(a, rho);
}

/* Alignment of pred axis a with succ axis b: e = a . b, T = [b x a; 0],
 * T' = [(w_s x b) x a + b x (w_p x a); 0]. */
static double rot_row(const loop_side *P, const loop_side *S, int pa, int sb, double T[6], double Td[6])
{
    double a[3], b[3], ad[3], bd[3], t1[3], t2[3];
    column(P->R, pa, a);
    column(S->R, sb, b);
    v3_cross(P->w, a, ad);
    v3_cross(S->w, b, bd);
    v3_cross(b, a, T);
    v3_cross(bd, a, t1);
    v3_cross(b, ad, t2);
    for (int k = 0; k < 3; k++) {
        T[3 + k] = 0;
        Td[k] = t1[k] + t2[k];
        Td[3 + k] = 0;
    }
    return v3_dot(a, b);
}

/* Rod of length d: rho = x_s - x_p, e = (rho.rho - d^2)/2, T = [x_s x rho; rho]
 * (= [x_p x rho; rho]), T' = [x_s' x rho + x_s x rho'; rho']. */
static double dist_row(const loop_side *P, const loop_side *S, double d, double T[6], double Td[6])
{
    double rho[3], rhod[3], t1[3], t2[3];
    for (int k = 0; k < 3; k++) {
        rho[k] = S->x[k] - P->x[k];
        rhod[k] = S->xd[k] - P->xd[k];
    }
    v3_cross(S->x, rho, T);
    memcpy(T + 3, rho, sizeof rho);
    v3_cross(S->xd, rho, t1);
    v3_cross(S->x, rhod, t2);
    for (int k = 0; k < 3; k++) {
        Td[k] = t1[k] + t2[k];
        Td[3 + k] = rhod[k];
    }
    return 0.5 * (v3_dot(rho, rho) - d * d);
}

/* The rows of loop l (model.h lists them per type); returns how many. */
static int loop_rows(const mech_loop *l, const loop_side *P, const loop_side *S, double T[][6], double Td[][6], double *e)
{
    int n = 0;
    switch (l->type) {
    case MECH_LOOP_REVOLUTE:
    case MECH_LOOP_SPHERICAL:
        for (int ax = 0; ax < 3; ax++, n++) e[n] = trans_row(P, S, ax, T[n], Td[n]);
        break;
    case MECH_LOOP_PRISMATIC:
    case MECH_LOOP_CYLINDRICAL:
    case MECH_LOOP_POINT_ON_LINE:
        for (int ax = 0; ax < 2; ax++, n++) e[n] = trans_row(P, S, ax, T[n], Td[n]);
        break;
    case MECH_LOOP_DISTANCE: e[n] = dist_row(P, S, l->length, T[n], Td[n]); return 1;
    }
    if (l->type == MECH_LOOP_SPHERICAL || l->type == MECH_LOOP_POINT_ON_LINE) return n;
    for (int ax = 0; ax < 2; ax++, n++) e[n] = rot_row(P, S, ax, 2, T[n], Td[n]);
    if (l->type == MECH_LOOP_PRISMATIC) {
        e[n] = rot_row(P, S, 0, 1, T[n], Td[n]);
        n++;
    }
    return n;
}

/* Krow += sign T^T J_b: the joints on b's path to the root (eq. 8.18). */
static void add_path(const mech_model *m, const dense_ws *ws, int b, const double T[6], double sign, double *Krow)
{
    for (; b >= 0; b = m->bodies[b].parent) {
        const mech_body *bb = &m->bodies[b];
        for (int c = 0; c < bb->nv; c++) {
            double s = 0;
            for (int r = 0; r < 6; r++) s += T[r] * ws->Sw[b][bb->nv * r + c];
            Krow[bb->vidx + c] += sign * s;
        }
    }
}

static double dot6_diff(const double T[6], const double (*x)[6], int s, int p)
{
    double d = 0;
    for (int k = 0; k < 6; k++) d += T[k] * ((s >= 0 ? x[s][k] : 0) - (p >= 0 ? x[p][k] : 0));
    return d;
}

void mech_loop_terms(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *e, double *ed,
                     double *K, double *k)
{
    dense_world_kinematics(m, ws, q, qd);
    if (K) memset(K, 0, (size_t)m->nc * (size_t)m->nv * sizeof *K);
    for (int i = 0; i < m->nloop; i++) {
        const mech_loop *l = &m->loops[i];
        loop_side P, S;
        double T[5][6], Td[5][6], er[5];
        side_of(ws, l->pred, l->ppos, l->prot, &P);
        side_of(ws, l->succ, l->spos, l->srot, &S);
        int n = loop_rows(l, &P, &S, T, Td, er);
        double alpha = 1.0 / l->stab, beta = 1.0 / l->stab;
        for (int r = 0; r < n; r++) {
            int row = l->cidx + r;
            double edr = dot6_diff(T[r], (const double(*)[6])ws->vw, l->succ, l->pred);
            if (e) e[row] = er[r];
            if (ed) ed[row] = edr;
            if (K) {
                add_path(m, ws, l->succ, T[r], 1.0, K + (size_t)row * m->nv);
                add_path(m, ws, l->pred, T[r], -1.0, K + (size_t)row * m->nv);
            }
            if (k)
                k[row] = -dot6_diff(T[r], (const double(*)[6])ws->aw, l->succ, l->pred) -
                         dot6_diff(Td[r], (const double(*)[6])ws->vw, l->succ, l->pred) - 2 * alpha * edr -
                         beta * beta * er[r];
        }
    }
}

void dense_fd_full(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *tau,
                   const double *fext, const double *act, double *qdd)
{
    int nv = m->nv, nc = m->nc;
    dense_rnea(m, ws, q, qd, ws->zero, fext, ws->C); /* C = ID(q, qd, 0) */
    dense_crba(m, ws, q, ws->H);
    double h = mech_model_implicit_step(m, act);
    if (h != 0.0) /* an implicit step: H + h D (MuJoCo's implicitfast) */
        for (int j = 0; j < nv; j++) ws->H[nv * j + j] += h * mech_model_joint_damping(m, j);
    mech_element_forces(m, ws, q, qd, act, ws->tau_e);
    for (int j = 0; j < nv; j++) qdd[j] = tau[j] + ws->tau_e[j] - ws->C[j];
    if (dense_lu(nv, ws->H, ws->piv) != 0) goto singular;
    dense_lu_solve(nv, ws->H, ws->piv, qdd); /* qdd0 */
    if (nc == 0) return;
    mech_loop_terms(m, ws, q, qd, NULL, NULL, ws->K, ws->kc);
    for (int r = 0; r < nc; r++) {
        const double *Kr = ws->K + (size_t)r * nv;
        double *Yr = ws->Y + (size_t)r * nv;
        memcpy(Yr, Kr, (size_t)nv * sizeof *Yr);
        dense_lu_solve(nv, ws->H, ws->piv, Yr); /* H^-1 K_r^T */
        ws->lam[r] = ws->kc[r];
        for (int j = 0; j < nv; j++) ws->lam[r] -= Kr[j] * qdd[j]; /* k + kstab - K qdd0 */
    }
    for (int r = 0; r < nc; r++)
        for (int s = 0; s < nc; s++) {
            double a = 0;
            for (int j = 0; j < nv; j++) a += ws->K[(size_t)r * nv + j] * ws->Y[(size_t)s * nv + j];
            ws->A[nc * r + s] = a; /* A = K H^-1 K^T */
        }
    if (dense_lu(nc, ws->A, ws->pivc) != 0) goto singular;
    dense_lu_solve(nc, ws->A, ws->pivc, ws->lam);
    for (int r = 0; r < nc; r++)
        for (int j = 0; j < nv; j++) qdd[j] += ws->Y[(size_t)r * nv + j] * ws->lam[r];
    return;
singular:
    for (int j = 0; j < nv; j++) qdd[j] = NAN;
}

void aba_fd_full(const mech_model *m, aba_ws *aws, dense_ws *dws, const double *q, const double *qd, const double *tau,
                 const double *fext, const double *act, double *qdd)
{
    int nv = m->nv, nc = m->nc;
    static const double no_gravity[3]; /* bias 0 at qd = 0 */
    mech_element_forces(m, dws, q, qd, act, dws->tau_e);
    for (int j = 0; j < nv; j++) dws->tau_e[j] += tau[j];
    aba_set_implicit_step(aws, mech_model_implicit_step(m, act));
    aba_factor(m, aws, q);                                    /* the one factorization */
    aba_solve(m, aws, m->gravity, qd, dws->tau_e, fext, qdd); /* qdd0 */
    if (nc == 0) return;
    mech_loop_terms(m, dws, q, qd, NULL, NULL, dws->K, dws->lam);
    for (int r = 0; r < nc; r++) {
        const double *Kr = dws->K + (size_t)r * nv;
        aba_solve(m, aws, no_gravity, dws->zero, Kr, NULL, dws->Y + (size_t)r * nv); /* H^-1 K_r^T */
        for (int j = 0; j < nv; j++) dws->lam[r] -= Kr[j] * qdd[j];
    }
    for (int r = 0; r < nc; r++)
        for (int s = 0; s < nc; s++) {
            double a = 0;
            for (int j = 0; j < nv; j++) a += dws->K[(size_t)r * nv + j] * dws->Y[(size_t)s * nv + j];
            dws->A[nc * r + s] = a;
        }
    if (dense_lu(nc, dws->A, dws->pivc) != 0) {
        for (int j = 0; j < nv; j++) qdd[j] = NAN;
        return;
    }
    dense_lu_solve(nc, dws->A, dws->pivc, dws->lam);
    for (int r = 0; r < nc; r++)
        for (int j = 0; j < nv; j++) qdd[j] += dws->Y[(size_t)r * nv + j] * dws->lam[r];
}
