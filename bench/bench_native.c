/* bench_native.c — ns per forward-dynamics call, native, one table.
 *
 *   bench_native <model.mech>...
 *
 * Per model: the generated fwd_dyn (mech_generated), the dense reference
 * (dense_fd; dense_fd_full, method 2, for models with loops or force
 * elements), and MuJoCo's minimal smooth pipeline on the same mechanism
 * (mjcf_forward_minimal: mj_kinematics, mj_comPos, mj_crb, mj_factorM,
 * mj_comVel, mj_rne, mj_solveM; test_mujoco checks it equals mj_forward).
 * Every implementation cycles through the same pool of 256 random states
 * (MuJoCo's copy is converted to its coordinates once, up front; a call then
 * copies qpos/qvel/qfrc_applied in) and sums its outputs into a checksum so
 * no call can be dropped.  Models with loops draw their pool near the closure
 * manifold, torn a little, with random act[] (mech_sample_loop_state, as
 * their validation does); MuJoCo is not run on them.  A repetition is a batch of at least 5 ms of
 * thread CPU time; the figure is the fastest of 200, the implementations taking
 * turns batch by batch (many short batches: on a shared machine the fastest
 * of them is a steady estimate of the unloaded speed, where a few long ones
 * each catch some load).  Before timing, each implementation's qdd is
 * compared with dense_fd on the whole pool (the "max err" column).
 * Not a test: timings depend on the machine and on what else it runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbda/dense.h"
#include "rbda/loop_project.h"
#include "rbda/loop_sample.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#ifdef MECH_HAVE_GENERATED
#include "sim/generated.h"
#include "mech/featherstone.h"
#endif
#ifdef MECH_HAVE_MUJOCO
#include "mjcf.h"
#endif

#define POOL 256 /* power of two: k = i & (POOL - 1) */
#define MIN_BATCH_SECONDS 0.005
#define REPETITIONS 200

/* The generated forward dynamics at the model's gravity (mech_fwd_dyn_own_fn). */
typedef void (*fwd_dyn_fn)(const double *q, const double *qd, const double *tau, const double *fext, const double *act,
                           double *qdd);

typedef struct {
    const mech_model *m;
    double *q, *qd, *tau, *fext, *act, *qdd; /* pools: POOL states; qdd: nv */
    int full;                                /* loops or force elements: method 2 */
    dense_ws *ws;
    fwd_dyn_fn gen; /* NULL when not built */
#ifdef MECH_HAVE_MUJOCO
    mjcf_sim *sim;                     /* NULL when it failed to build */
    double *qpos, *qvel, *qfrc, *xfrc; /* the pool in MuJoCo coordinates */
    int has_fext;
#endif
} bench;

typedef double (*batch_fn)(bench *b, long n); /* n calls, returns a checksum */

static double sum(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    return s;
}

/* This thread's CPU time: on a shared machine, time spent descheduled while
 * other jobs run is not charged to the implementation being timed. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the three implementations, one batch each ---- */

static double *state(double *pool, int n, long i) { return pool + (size_t)n * (size_t)(i & (POOL - 1)); }

static void dense_reference(bench *b, long i, double *qdd)
{
    const mech_model *m = b->m;
    if (b->full)
        dense_fd_full(m, b->ws, state(b->q, m->nq, i), state(b->qd, m->nv, i), state(b->tau, m->nv, i),
                      state(b->fext, 6 * m->nb, i), state(b->act, m->nact, i), qdd);
    else
        dense_fd(m, b->ws, state(b->q, m->nq, i), state(b->qd, m->nv, i), state(b->tau, m->nv, i),
                 state(b->fext, 6 * m->nb, i), qdd);
}

static double batch_dense(bench *b, long n)
{
    const mech_model *m = b->m;
    double check = 0;
    for (long i = 0; i < n; i++) {
        dense_reference(b, i, b->qdd);
        check += sum(b->qdd, m->nv);
    }
    return check;
}

static double batch_generated(bench *b, long n)
{
    const mech_model *m = b->m;
    double check = 0;
    for (long i = 0; i < n; i++) {
        b->gen(state(b->q, m->nq, i), state(b->qd, m->nv, i), state(b->tau, m->nv, i), state(b->fext, 6 * m->nb, i),
               state(b->act, m->nact, i), b->qdd);
        check += sum(b->qdd, m->nv);
    }
    return check;
}

#ifdef MECH_HAVE_MUJOCO
static void stage_mujoco(bench *b, long i)
{
    const mjModel *mm = b->sim->m;
    mjData *d = b->sim->d;
    memcpy(d->qpos, state(b->qpos, mm->nq, i), sizeof(double) * (size_t)mm->nq);
    memcpy(d->qvel, state(b->qvel, mm->nv, i), sizeof(double) * (size_t)mm->nv);
    memcpy(d->qfrc_applied, state(b->qfrc, mm->nv, i), sizeof(double) * (size_t)mm->nv);
    if (b->has_fext) memcpy(d->xfrc_applied, state(b->xfrc, 6 * mm->nbody, i), sizeof(double) * 6 * (size_t)mm->nbody);
}

static double batch_mujoco(bench *b, long n)
{
    double check = 0;
    for (long i = 0; i < n; i++) {
        stage_mujoco(b, i);
        mjcf_forward_minimal(b->sim);
        check += sum(b->sim->d->qacc, b->sim->m->nv);
    }
    return check;
}
#endif

/* ---- timing ---- */

static volatile double checksum_sink;

enum { GENERATED, DENSE, MUJOCO, NIMPL };

typedef struct {
    batch_fn batch; /* NULL: implementation not available */
    long n;         /* calls per batch */
    double best;    /* fastest batch so far, s */
} timer;

static double run_batch(bench *b, const timer *t)
{
    double t0 = now();
    checksum_sink += t->batch(b, t->n);
    return now() - t0;
}

/* Double the batch until one takes at least MIN_BATCH_SECONDS. */
static void calibrate(bench *b, timer *t)
{
    t->n = POOL / 2;
    do {
        t->n *= 2;
        t->best = run_batch(b, t);
    } while (t->best < MIN_BATCH_SECONDS);
}

/* ns per call, fastest of REPETITIONS batches.  The implementations take
 * turns batch by batch, so a change in machine load hits all of them alike. */
static void time_all(bench *b, timer t[NIMPL], double ns[NIMPL])
{
    for (int i = 0; i < NIMPL; i++)
        if (t[i].batch) calibrate(b, &t[i]);
    for (int r = 1; r < REPETITIONS; r++)
        for (int i = 0; i < NIMPL; i++)
            if (t[i].batch) t[i].best = fmin(t[i].best, run_batch(b, &t[i]));
    for (int i = 0; i < NIMPL; i++) ns[i] = t[i].batch ? 1e9 * t[i].best / (double)t[i].n : NAN;
}

/* ---- setting up one model ---- */

static int alloc_pool(bench *b)
{
    const mech_model *m = b->m;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nf = 6 * (size_t)m->nb, na = (size_t)m->nact;
    b->q = malloc(sizeof(double) * ((nq + 2 * nv + nf + na) * POOL + nv + nq + 1));
    if (!b->q) return 0;
    b->qd = b->q + nq * POOL;
    b->tau = b->qd + nv * POOL;
    b->fext = b->tau + nv * POOL;
    b->act = b->fext + nf * POOL;
    b->qdd = b->act + na * POOL;
    double *q_walk = b->qdd + nv;
    mech_rng rng;
    mech_rng_seed(&rng, 20261129);
    mech_model_initial_state(m, q_walk, NULL);
    if (m->nc) mech_loop_project(m, b->ws, q_walk);
    for (long i = 0; i < POOL; i++)
        mech_sample_loop_state(m, b->ws, &rng, q_walk, state(b->q, m->nq, i), state(b->qd, m->nv, i),
                               state(b->tau, m->nv, i), state(b->fext, 6 * m->nb, i), state(b->act, m->nact, i));
    return 1;
}

/* The generated code an engine runs per force evaluation at the model's
 * gravity: fwd_dyn_own_gravity (the engine checks the gravity once per
 * step(dt, n), mech_data_fd). */
static fwd_dyn_fn generated_for(const char *name)
{
#ifdef MECH_HAVE_GENERATED
    const mech_generated *g = mech_generated_find(name);
    if (g) return g->fwd_dyn_own_gravity;
#else
    (void)name;
#endif
    return NULL;
}

#ifdef MECH_HAVE_MUJOCO
/* The pool in MuJoCo coordinates.  On failure b->sim stays NULL. */
static void setup_mujoco(bench *b)
{
    char err[1024];
    const mech_model *m = b->m;
    b->sim = mjcf_sim_new(m, err, sizeof err);
    if (!b->sim) {
        fprintf(stderr, "bench: %s: MuJoCo: %s\n", m->name, err);
        return;
    }
    const mjModel *mm = b->sim->m;
    size_t nq = (size_t)mm->nq, nv = (size_t)mm->nv, nx = 6 * (size_t)mm->nbody;
    b->qpos = calloc((nq + 2 * nv + nx) * POOL + 1, sizeof(double));
    if (!b->qpos) {
        mjcf_sim_free(b->sim);
        b->sim = NULL;
        return;
    }
    b->qvel = b->qpos + nq * POOL;
    b->qfrc = b->qvel + nv * POOL;
    b->xfrc = b->qfrc + nv * POOL;
    for (int i = 0; i < m->nb; i++) b->has_fext |= m->bodies[i].fext;
    for (long i = 0; i < POOL; i++)
        mjcf_map_state(b->sim, state(b->q, m->nq, i), state(b->qd, m->nv, i), state(b->tau, m->nv, i),
                       state(b->fext, 6 * m->nb, i), state(b->qpos, mm->nq, i), state(b->qvel, mm->nv, i),
                       state(b->qfrc, mm->nv, i), state(b->xfrc, 6 * mm->nbody, i));
}

static void free_mujoco(bench *b)
{
    free(b->qpos);
    mjcf_sim_free(b->sim);
}
#endif

/* ---- agreement with dense_fd over the pool, before any timing ---- */

static double verify(bench *b)
{
    const mech_model *m = b->m;
    double *want = malloc(sizeof(double) * (size_t)(m->nv + 1)), err = 0;
    if (!want) return INFINITY;
    for (long i = 0; i < POOL; i++) {
        const double *q = state(b->q, m->nq, i), *qd = state(b->qd, m->nv, i);
        dense_reference(b, i, want);
        if (b->gen) {
            b->gen(q, qd, state(b->tau, m->nv, i), state(b->fext, 6 * m->nb, i), state(b->act, m->nact, i), b->qdd);
            err = fmax(err, mech_scaled_error(b->qdd, want, m->nv));
        }
#ifdef MECH_HAVE_MUJOCO
        if (b->sim) {
            stage_mujoco(b, i);
            mjcf_forward_minimal(b->sim);
            mjcf_get_qdd(b->sim, q, qd, b->qdd);
            err = fmax(err, mech_scaled_error(b->qdd, want, m->nv));
        }
#endif
    }
    free(want);
    return err;
}

/* ---- the table ---- */

static void print_ns(double ns)
{
    if (isnan(ns)) printf(" %12s", "n/a");
    else printf(" %12.1f", ns);
}

static void print_ratio(double num, double den)
{
    if (isnan(num) || isnan(den)) printf(" %10s", "n/a");
    else printf(" %9.1fx", num / den);
}

static void print_row(const mech_model *m, const double ns[NIMPL], double err)
{
    printf("%-12s %4d", m->name, m->nv);
    for (int i = 0; i < NIMPL; i++) print_ns(ns[i]);
    print_ratio(ns[DENSE], ns[GENERATED]);
    print_ratio(ns[MUJOCO], ns[GENERATED]);
    printf(" %10.1e\n", err);
    fflush(stdout);
}

/* Verify, time and print one model; 0 if it failed to load or disagreed. */
static int bench_model(const char *path)
{
    mech_error perr;
    mech_model *m = mech_model_load(path, &perr);
    if (!m) {
        char msg[512];
        mech_error_format(&perr, msg, sizeof msg);
        fprintf(stderr, "bench: %s\n", msg);
        return 0;
    }
    bench b = {
        .m = m, .ws = dense_ws_new(m), .gen = generated_for(m->name), .full = m->nc > 0 || m->ntsda > 0 || m->nrsda > 0
    };
    int ok = b.ws && alloc_pool(&b);
    if (ok) {
        timer t[NIMPL] = { [GENERATED] = { b.gen ? batch_generated : NULL, 0, 0 }, [DENSE] = { batch_dense, 0, 0 } };
        double ns[NIMPL];
#ifdef MECH_HAVE_MUJOCO
        if (!b.full) setup_mujoco(&b);
        if (b.sim) t[MUJOCO].batch = batch_mujoco;
#endif
        double err = verify(&b);
        time_all(&b, t, ns);
#ifdef MECH_HAVE_MUJOCO
        free_mujoco(&b);
#endif
        print_row(m, ns, err);
        ok = err <= 1e-9;
    }
    free(b.q);
    dense_ws_free(b.ws);
    mech_model_free(m);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_native <model.mech>...\n");
        return 2;
    }
    printf("bench: ns per forward-dynamics call, fastest of %d batches of >= %g ms CPU time, pool of %d states\n",
           REPETITIONS, 1e3 * MIN_BATCH_SECONDS, POOL);
    printf("%-12s %4s %12s %12s %12s %10s %10s %10s\n", "model", "nv", "generated", "dense", "MuJoCo", "dense/gen",
           "MuJoCo/gen", "max err");
    int ok = 1;
    for (int i = 1; i < argc; i++) ok &= bench_model(argv[i]);
    printf("bench: checksum %.6e%s\n", checksum_sink,
           ok ? "" : "  (FAIL: a model did not load or disagreed with dense_fd)");
    return ok ? 0 : 1;
}
