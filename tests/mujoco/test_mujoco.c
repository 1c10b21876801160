/* test_mujoco.c — forward dynamics against MuJoCo, an engine that shares no
 * code and no conventions with this project.
 *
 *   test_mujoco <model.mech>   200 random states: MuJoCo's qacc (mj_forward)
 *                              against dense_fd and the generated fwd_dyn, and
 *                              the benchmark's minimal MuJoCo pipeline against
 *                              mj_forward.  A model with actuators is checked
 *                              with actuation on: random ctrl over each
 *                              ctrlrange and beyond it (MuJoCo clamps), rsdas
 *                              as joint springs and dampers, tendons as
 *                              fixed tendons; equality constraints on both
 *                              sides (the constraint solve on ours).
 *   test_mujoco <model.mech> --dense-only   the same without the generated
 *                              code (a test fixture has no module)
 *   test_mujoco --closed-form  MuJoCo and dense_fd against textbook formulas
 *                              (a pendulum about a skew axis carrying a welded
 *                              body, a free body under fext), so MuJoCo itself
 *                              is not taken on trust.
 *
 * The state mapping, floating bodies included, is in mjcf.h and
 * docs/mujoco-mapping.md.  Gate: mech_scaled_error <= 1e-9.  Exit 0 = PASS,
 * 1 = FAIL, 77 = SKIP (loop joints, tsdas or element inputs, which the
 * converter does not map; the reason is printed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/constraint.h"
#include "mjcf.h"
#include "rbda/dense.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "spatial/spatial.h"
#ifdef MECH_HAVE_GENERATED
#include "sim/generated.h"
#include "mech/featherstone.h"
#endif

#define TRIALS 200
#define TOL 1e-9

typedef struct {
    double *q, *qd, *tau, *fext, *want, *got, *act;
} state_buf;

static int state_alloc(state_buf *s, const mech_model *m)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nf = 6 * (size_t)m->nb;
    double *p = calloc(nq + 4 * nv + nf + (size_t)m->nact + 2, sizeof(double));
    if (!p) return 0;
    s->q = p;
    s->qd = s->q + nq;
    s->tau = s->qd + nv;
    s->want = s->tau + nv;
    s->got = s->want + nv;
    s->fext = s->got + nv;
    s->act = s->fext + nf; /* the actuators' ctrl (and h: 0, the explicit dynamics) */
    return 1;
}

/* MuJoCo's qacc for the state in s, in our coordinates, into s->got. */
static void mujoco_qdd(mjcf_sim *sim, state_buf *s)
{
    mjcf_set_state(sim, s->q, s->qd, s->tau, s->fext);
    if (sim->m->nu) mjcf_set_ctrl(sim, s->act + sim->mech->nact - sim->mech->nu);
    mj_forward(sim->m, sim->d);
    mjcf_get_qdd(sim, s->q, s->qd, s->got);
}

/* Random ctrl: over each ctrlrange widened by a fifth on either side, so
 * that both clamps are exercised; +-5 where unlimited. */
static void sample_ctrl(const mech_model *m, mech_rng *rng, double *act)
{
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        double lo = -5, hi = 5;
        if (a->ctrllimited) {
            double w = a->ctrlrange[1] - a->ctrlrange[0];
            lo = a->ctrlrange[0] - 0.2 * w;
            hi = a->ctrlrange[1] + 0.2 * w;
        }
        act[a->act] = mech_rng_uniform(rng, lo, hi);
    }
}

/* ---- closed-form checks ---- */

static void set_body(mech_body *b, mech_joint_type joint, const double inertia[9])
{
    static const double tilt[3] = { 0.6, 0.0, 0.8 };
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "closed_form");
    b->parent = -1;
    b->joint = joint;
    b->pos[0] = 0.1;
    b->pos[1] = -0.2;
    b->pos[2] = 0.3;
    rot_axis_angle(tilt, 0.7, b->rot);
    memcpy(b->inertia, inertia, 9 * sizeof(double));
    b->nq = joint == MECH_JOINT_FLOATING ? 7 : joint == MECH_JOINT_FIXED ? 0 : 1;
    b->nv = joint == MECH_JOINT_FLOATING ? 6 : joint == MECH_JOINT_FIXED ? 0 : 1;
}

static void model_of(mech_model *m, mech_body *bodies, int nb, const char *name)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->gravity[0] = 0.3;
    m->gravity[1] = -0.2;
    m->gravity[2] = -9.81;
    m->nb = nb;
    m->bodies = bodies;
    for (int i = 0; i < nb; i++) {
        bodies[i].qidx = m->nq;
        bodies[i].vidx = m->nv;
        m->nq += bodies[i].nq;
        m->nv += bodies[i].nv;
    }
}

/* First moment h = m c and rotational inertia about the origin of body 0's
 * frame, in that frame, of body 0 itself (welded = 0) or of a body welded to
 * it by a fixed joint (welded = 1: its pos/rot are relative to body 0). */
static void pendulum_part(const mech_body *b, int welded, double h[3], double Io[9])
{
    double R[9], Rt[9], RI[9], c[3];
    if (welded) memcpy(R, b->rot, sizeof R);
    else m3_identity(R);
    m3_mulv(R, b->com, c);
    for (int k = 0; k < 3; k++) c[k] += welded ? b->pos[k] : 0.0;
    m3_mul(R, b->inertia, RI);
    m3_transpose(R, Rt);
    m3_mul(RI, Rt, Io);
    double cc = v3_dot(c, c);
    for (int r = 0; r < 3; r++) {
        h[r] = b->mass * c[r];
        for (int k = 0; k < 3; k++) Io[3 * r + k] += b->mass * ((r == k) * cc - c[r] * c[k]);
    }
}

/* Body 0 on a hinge about the skew unit axis a (fixed base), every other body
 * welded to it.  With h and Io summed over the bodies (pendulum_part) and
 * Rw = R0 R(a, q):  qdd = (tau + (Rw a) . ((Rw h) x g)) / (a' Io a + armature).
 * Velocity does not enter for a single fixed axis. */
static void pendulum_formula(const mech_model *m, const double *q, const double *tau, double *qdd)
{
    const mech_body *b = &m->bodies[0];
    double h[3] = { 0, 0, 0 }, Io[9] = { 0 }, R[9], Rw[9], aw[3], hw[3], hxg[3], Ia[3];
    for (int i = 0; i < m->nb; i++) {
        double hi[3], Ii[9];
        pendulum_part(&m->bodies[i], i > 0, hi, Ii);
        for (int k = 0; k < 9; k++) Io[k] += Ii[k];
        for (int k = 0; k < 3; k++) h[k] += hi[k];
    }
    rot_axis_angle(b->axis, q[0], R);
    m3_mul(b->rot, R, Rw);
    m3_mulv(Rw, b->axis, aw);
    m3_mulv(Rw, h, hw);
    v3_cross(hw, m->gravity, hxg);
    m3_mulv(Io, b->axis, Ia);
    qdd[0] = (tau[0] + v3_dot(aw, hxg)) / (v3_dot(b->axis, Ia) + b->armature);
}

/* x = A^-1 y for a symmetric positive definite 3x3 A (adjugate rows). */
static void solve3(const double A[9], const double y[3], double x[3])
{
    double c0[3], c1[3], c2[3];
    v3_cross(A + 3, A + 6, c0);
    v3_cross(A + 6, A, c1);
    v3_cross(A, A + 3, c2);
    double det = v3_dot(A, c0);
    for (int k = 0; k < 3; k++) x[k] = (c0[k] * y[0] + c1[k] * y[1] + c2[k] * y[2]) / det;
}

/* Free body with its CoM at the body origin, Newton-Euler in the body frame:
 *   wdot = I^-1 (n - w x I w),  vdot = (f / m) + Rw' g - w x v,
 * n, f = tau plus fext moved to the CoM x: n_c = n0 - x x f0, then Rw'. */
static void free_body_formula(const mech_model *m, const double *q, const double *qd, const double *tau,
                              const double *fext, double *qdd)
{
    const mech_body *b = &m->bodies[0];
    const double *w = qd, *v = qd + 3;
    double R[9], Rw[9], x[3], nc[3], n[3], f[3], g[3], Iw[3], wxIw[3], wxv[3];
    quat_to_rot(q, R);
    m3_mul(b->rot, R, Rw);
    m3_mulv(b->rot, q + 4, x);
    for (int k = 0; k < 3; k++) x[k] += b->pos[k];
    v3_cross(x, fext + 3, nc);
    for (int k = 0; k < 3; k++) nc[k] = fext[k] - nc[k];
    m3_tmulv(Rw, nc, n);
    m3_tmulv(Rw, fext + 3, f);
    m3_tmulv(Rw, m->gravity, g);
    m3_mulv(b->inertia, w, Iw);
    v3_cross(w, Iw, wxIw);
    v3_cross(w, v, wxv);
    for (int k = 0; k < 3; k++) {
        n[k] += tau[k] - wxIw[k];
        qdd[3 + k] = (tau[3 + k] + f[k]) / b->mass + g[k] - wxv[k];
    }
    solve3(b->inertia, n, qdd);
}

typedef void (*formula_fn)(const mech_model *m, const double *q, const double *qd, const double *tau,
                           const double *fext, double *qdd);

static void pendulum_adapter(const mech_model *m, const double *q, const double *qd, const double *tau,
                             const double *fext, double *qdd)
{
    (void)qd;
    (void)fext;
    pendulum_formula(m, q, tau, qdd);
}

/* TRIALS random states: MuJoCo and dense_fd against the formula. */
static int closed_form_case(const mech_model *m, formula_fn formula)
{
    char err[1024] = "out of memory";
    state_buf s = { 0 };
    double dense_qdd[6], e_mj = INFINITY, e_dense = INFINITY;
    mjcf_sim *sim = mjcf_sim_new(m, err, sizeof err);
    dense_ws *ws = dense_ws_new(m);
    if (sim && ws && state_alloc(&s, m)) {
        mech_rng rng;
        mech_rng_seed(&rng, 20261129);
        e_mj = e_dense = 0;
        for (int t = 0; t < TRIALS; t++) {
            mech_sample_state(m, &rng, s.q, s.qd, s.tau, s.fext);
            formula(m, s.q, s.qd, s.tau, s.fext, s.want);
            mujoco_qdd(sim, &s);
            dense_fd(m, ws, s.q, s.qd, s.tau, s.fext, dense_qdd);
            e_mj = fmax(e_mj, mech_scaled_error(s.got, s.want, m->nv));
            e_dense = fmax(e_dense, mech_scaled_error(dense_qdd, s.want, m->nv));
        }
        printf("mujoco: closed form %s: %d trials, max scaled |qdd_mujoco - qdd_formula| = %.3e, "
               "|qdd_dense - qdd_formula| = %.3e\n",
               m->name, TRIALS, e_mj, e_dense);
    } else {
        printf("mujoco: closed form %s: cannot build: %s\n", m->name, err);
    }
    free(s.q);
    dense_ws_free(ws);
    mjcf_sim_free(sim);
    return e_mj <= TOL && e_dense <= TOL;
}

static int closed_form(void)
{
    static const double inertia[9] = { 0.05, 0.01, -0.02, 0.01, 0.07, 0.015, -0.02, 0.015, 0.09 };
    static const double skew[3] = { 1.0 / 3, 2.0 / 3, 2.0 / 3 }, turn[3] = { 0, 0.6, -0.8 };
    mech_model m;
    mech_body b[2];
    set_body(&b[0], MECH_JOINT_REVOLUTE, inertia);
    memcpy(b[0].axis, skew, sizeof skew);
    b[0].mass = 1.3;
    b[0].com[0] = 0.2;
    b[0].com[1] = -0.1;
    b[0].com[2] = 0.4;
    b[0].armature = 0.03;
    set_body(&b[1], MECH_JOINT_FIXED, inertia);
    b[1].parent = 0;
    b[1].pos[0] = 0.5;
    rot_axis_angle(turn, -1.1, b[1].rot);
    b[1].mass = 0.7;
    b[1].com[2] = -0.25;
    model_of(&m, b, 2, "pendulum+welded");
    int ok = closed_form_case(&m, pendulum_adapter);

    set_body(&b[0], MECH_JOINT_FLOATING, inertia);
    b[0].mass = 2.1;
    b[0].fext = 1;
    model_of(&m, b, 1, "free_body");
    return closed_form_case(&m, free_body_formula) && ok;
}

/* ---- a model file against MuJoCo ---- */

typedef struct {
    double dense, generated, pipeline;
} errors;

typedef void (*fwd_dyn_fn)(const double *q, const double *qd, const double *tau, const double *fext, const double *act,
                           const double *gravity, double *qdd);

/* The generated forward dynamics of the model called `name`; NULL with the
 * reason in *why, and *required = 1 when its absence is a failure. */
static fwd_dyn_fn generated_for(const char *name, const char **why, int *required)
{
#ifdef MECH_HAVE_GENERATED
    const mech_generated *g = mech_generated_find(name);
    if (g) return g->fwd_dyn;
    *why = "FAIL (mech_generated has no entry for this model)";
    *required = 1;
#else
    (void)name;
    *why = "n/a (mech_generated not built)";
    *required = 0;
#endif
    return NULL;
}

/* Scaled gap between the benchmark's minimal pipeline and mj_forward, whose
 * qacc for state s is in sim->d.  mjData is poisoned (every byte 0xFF, a NaN)
 * before the pipeline runs, so anything it forgets to compute shows. */
static double pipeline_error(mjcf_sim *sim, const state_buf *s, double *scratch)
{
    int nv = sim->m->nv;
    memcpy(scratch, sim->d->qacc, sizeof(double) * (size_t)nv);
    mj_resetDataDebug(sim->m, sim->d, 0xFF);
    mjcf_set_state(sim, s->q, s->qd, s->tau, s->fext);
    mjcf_forward_minimal(sim);
    return mech_scaled_error(sim->d->qacc, scratch, nv);
}

/* The dense reference with the trial's ctrl, as the constraint solve calls it. */
typedef struct {
    const mech_model *m;
    dense_ws *ws;
    const double *act;
} dense_with_act;

static void dense_act_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    const dense_with_act *e = ctx;
    dense_fd_full(e->m, e->ws, q, qd, tau, fext, e->act, qdd);
}

/* A model with equality constraints: qdd += H⁻¹ Jᵀ f, the constraint solve
 * (H⁻¹ through the dense reference) on top of either engine's qdd. */
static void constrain(const mech_model *m, constraint_solve *cs, dense_ws *ws, const state_buf *s, double *qdd)
{
    dense_with_act eng = { m, ws, s->act };
    if (cs) constraint_apply(cs, m, dense_act_fd, &eng, s->q, s->qd, s->tau, s->fext, s->act, qdd);
}

/* TRIALS random states through MuJoCo, dense_fd and (if given) gen; with
 * equality constraints on both sides (MuJoCo's: equality rows only, a
 * linear solve). */
static errors run_trials(const mech_model *m, mjcf_sim *sim, dense_ws *ws, fwd_dyn_fn gen, state_buf *s, double *scratch)
{
    /* The equality rows alone, as MuJoCo runs them here (limits, friction loss and contacts off on its side):
     * a copy of the model without the rest. */
    mech_model eqm = *m;
    mech_body *bodies = m->nequality ? malloc((size_t)m->nb * sizeof *bodies) : NULL;
    mech_tendon *tendons = m->nequality && m->ntendon ? malloc((size_t)m->ntendon * sizeof *tendons) : NULL;
    if (bodies) {
        for (int i = 0; i < m->nb; i++) {
            bodies[i] = m->bodies[i];
            bodies[i].xj.has_limit = 0;
            bodies[i].frictionloss = 0;
        }
        eqm.bodies = bodies;
        eqm.solver.line = 0;
    }
    if (tendons) {
        for (int i = 0; i < m->ntendon; i++) {
            tendons[i] = m->tendons[i];
            tendons[i].limited = 0;
        }
        eqm.tendons = tendons;
    }
    constraint_solve *cs = bodies ? constraint_new(&eqm) : NULL;
    errors e = { 0, 0, 0 };
    mech_rng rng;
    mech_rng_seed(&rng, 20261129);
    for (int t = 0; t < TRIALS; t++) {
        mech_sample_state(m, &rng, s->q, s->qd, s->tau, s->fext);
        if (m->nu) sample_ctrl(m, &rng, s->act);
        mujoco_qdd(sim, s);
        /* The minimal pipeline has no passive or actuator forces. */
        if (!m->nrsda && !m->nu && !m->ntendon && !m->nequality)
            e.pipeline = fmax(e.pipeline, pipeline_error(sim, s, scratch));
        dense_fd_full(m, ws, s->q, s->qd, s->tau, s->fext, s->act, s->want);
        constrain(&eqm, cs, ws, s, s->want);
        e.dense = fmax(e.dense, mech_scaled_error(s->got, s->want, m->nv));
        if (!gen) continue;
        gen(s->q, s->qd, s->tau, s->fext, s->act, m->gravity, s->want);
        constrain(&eqm, cs, ws, s, s->want);
        e.generated = fmax(e.generated, mech_scaled_error(s->got, s->want, m->nv));
    }
    constraint_free(cs);
    free(bodies);
    free(tendons);
    return e;
}

static int cross_check(const mech_model *m, int dense_only)
{
    char err[1024] = "out of memory";
    state_buf s = { 0 };
    const char *why = "";
    int required = 0, ok = 0;
    fwd_dyn_fn gen = dense_only ? NULL : generated_for(m->name, &why, &required);
    if (dense_only) why = "n/a (a test fixture: no generated module)";
    mjcf_sim *sim = mjcf_sim_new(m, err, sizeof err);
    dense_ws *ws = dense_ws_new(m);
    double *scratch = sim ? calloc((size_t)sim->m->nv + 1, sizeof(double)) : NULL;
    if (ws && scratch && state_alloc(&s, m)) {
        errors e = run_trials(m, sim, ws, gen, &s, scratch);
        printf("mujoco: %s: %d trials, max scaled |qdd_mujoco - qdd_dense| = %.3e, ", m->name, TRIALS, e.dense);
        if (gen) printf("|qdd_mujoco - qdd_generated| = %.3e\n", e.generated);
        else printf("|qdd_mujoco - qdd_generated| = %s\n", why);
        printf("mujoco: %s: benchmark pipeline vs mj_forward, max scaled |qacc gap| = %.3e\n", m->name, e.pipeline);
        ok = (gen || !required) && e.dense <= TOL && e.generated <= TOL && e.pipeline <= TOL;
    } else {
        printf("mujoco: %s: cannot be rebuilt in MuJoCo: %s\n", m->name, err);
    }
    free(scratch);
    free(s.q);
    dense_ws_free(ws);
    mjcf_sim_free(sim);
    return ok;
}

/* PASS 0, FAIL 1, or SKIP (exit 77, ctest's SKIP_RETURN_CODE) with the reason
 * when the model has parts the converter does not map. */
static int check_file(const char *path, int dense_only)
{
    mech_error err;
    char why[512];
    mech_model *m = mech_model_load(path, &err);
    if (!m) {
        mech_error_format(&err, why, sizeof why);
        printf("mujoco: %s\nmujoco: FAIL\n", why);
        return 1;
    }
    int rc = 77;
    if (mjcf_supported(m, why, sizeof why)) rc = cross_check(m, dense_only) ? 0 : 1;
    else printf("mujoco: %s: not comparable: %s\n", m->name, why);
    printf("mujoco: %s\n", rc == 0 ? "PASS" : rc == 1 ? "FAIL" : "SKIP");
    mech_model_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    int dense_only = argc == 3 && strcmp(argv[2], "--dense-only") == 0;
    if (argc != 2 && !dense_only) {
        fprintf(stderr, "usage: test_mujoco <model.mech> [--dense-only] | --closed-form\n");
        return 2;
    }
    if (strcmp(argv[1], "--closed-form") != 0) return check_file(argv[1], dense_only);
    int ok = closed_form();
    printf("mujoco: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
