/* bench_contact.c — ns per call of the contact stage's parts, native, one table.
 *
 *   bench_contact <model.mech>...
 *
 * Per model with a band or a ground: the lean world kinematics
 * (mech_world_kinematics_joints, as the stage runs it), every band's pin
 * and face laws on that kinematics, the ground law at every pad corner, the
 * whole stage (contact_forces: kinematics + both laws), the generated
 * fwd_dyn with that fext, and the contact step (stage + fwd_dyn), which is
 * what a contact model pays per force evaluation.  States: a pool of 64 near the design
 * pose (q0 nudged by a few mm / mrad, rollers at any angle, everything
 * moving), so the laws see loaded pairs.  A repetition is a batch of at least
 * 5 ms of thread CPU time; the figure is the fastest of 100, parts taking
 * turns batch by batch.  Not a test: timings depend on the machine and on
 * what else it runs.
 *
 *   bench_contact --calls N <model.mech>...
 *
 * runs each part N times untimed instead, for an instruction count that does
 * not depend on the load (valgrind --tool=callgrind, the parts' functions
 * inclusive: divide by N). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contact/contact.h"
#include "contact/ground_contact.h"
#include "contact/track_contact.h"
#include "mech/featherstone.h"
#include "mech/sim.h"
#include "rbda/kinematics.h"
#include "rbda/sample.h"
#include "sim/generated.h" /* mech_generated_find only with MECH_HAVE_GENERATED */

#define POOL 64
#define MIN_BATCH_SECONDS 0.005
#define REPETITIONS 100

enum { KIN, TRACK, GROUND, STAGE, FWD, STEP, NPART };
static const char *part_names[NPART] = { "kinematics", "track laws", "ground law", "stage", "fwd_dyn", "step" };

typedef struct {
    const mech_model *m;
    double *q, *qd, *tau, *fext, *qdd;
    mech_kin_joint *joints;
    mech_body_kin *kin, *kin0;
    contact_state *cs;
    track_band *bands;
    ground_stage gs;
    ground_anchor *anchors;
    mech_fwd_dyn_own_fn gen;
} bench;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const double *qs(const bench *b, long i) { return b->q + (size_t)b->m->nq * (size_t)(i % POOL); }
static const double *vs(const bench *b, long i) { return b->qd + (size_t)b->m->nv * (size_t)(i % POOL); }

static double run(bench *b, int part, long n)
{
    const mech_model *m = b->m;
    double check = 0, react[3];
    for (long i = 0; i < n; i++) {
        const double *q = qs(b, i), *qd = vs(b, i);
        switch (part) {
        case KIN:
            mech_world_kinematics_joints(m, b->joints, q, qd, b->kin);
            check += b->kin[m->nb - 1].pd[0];
            break;
        case TRACK:
            memset(b->fext, 0, 6 * (size_t)m->nb * sizeof *b->fext);
            for (int t = 0; t < m->ntrack; t++)
                track_band_forces(&b->bands[t], b->kin0 + (size_t)m->nb * (size_t)(i % POOL), 1e-4, b->fext);
            check += b->fext[6 * m->tracks[0].shoe0 + 5];
            break;
        case GROUND:
            memset(b->fext, 0, 6 * (size_t)m->nb * sizeof *b->fext);
            react[0] = react[1] = react[2] = 0;
            ground_stage_forces(&b->gs, b->kin0 + (size_t)m->nb * (size_t)(i % POOL), 1e-4, b->anchors, b->fext, react,
                                NULL);
            check += react[2];
            break;
        case STAGE:
        case STEP:
            memset(b->fext, 0, 6 * (size_t)m->nb * sizeof *b->fext);
            contact_forces(b->cs, m, q, qd, 1e-4, b->fext);
            check += b->fext[6 * m->tracks[0].shoe0 + 5];
            if (part == STEP) { /* the dynamics on the stage's fext */
                b->gen(q, qd, b->tau, b->fext, NULL, b->qdd);
                check += b->qdd[0];
            }
            break;
        case FWD:
            b->gen(q, qd, b->tau, b->fext, NULL, b->qdd);
            check += b->qdd[0];
            break;
        }
    }
    return check;
}

/* Near the design pose, as the contact tests draw them. */
static void pool(bench *b)
{
    const mech_model *m = b->m;
    mech_rng r;
    mech_rng_seed(&r, 42);
    for (int s = 0; s < POOL; s++) {
        double *q = b->q + (size_t)m->nq * s, *qd = b->qd + (size_t)m->nv * s;
        for (int i = 0; i < m->nb; i++) {
            const mech_body *bd = &m->bodies[i];
            memcpy(q + bd->qidx, bd->q0, (size_t)bd->nq * sizeof *q);
            if (bd->joint == MECH_JOINT_FLOATING)
                for (int c = 4; c < 7; c++) q[bd->qidx + c] += mech_rng_uniform(&r, -0.003, 0.003);
            else if (bd->nq == 1) q[bd->qidx] += mech_rng_uniform(&r, -0.002, 0.002);
            for (int c = 0; c < bd->nv; c++) qd[bd->vidx + c] = mech_rng_uniform(&r, -0.5, 0.5);
        }
        mech_world_kinematics(m, q, qd, b->kin0 + (size_t)m->nb * s);
    }
}

static int part_runs(const bench *b, int p)
{
    if ((p == FWD || p == STEP) && !b->gen) return 0;
    return p != GROUND || b->m->ground.type != MECH_GROUND_NONE;
}

/* The table's row: the fastest of REPETITIONS batches of each part, the
 * parts taking turns batch by batch. */
static void time_parts(bench *b)
{
    double best[NPART];
    long calls[NPART];
    for (int p = 0; p < NPART; p++) {
        best[p] = INFINITY;
        calls[p] = 1;
    }
    double sink = 0;
    for (int rep = 0; rep < REPETITIONS; rep++)
        for (int p = 0; p < NPART; p++) {
            if (!part_runs(b, p)) continue;
            double t0 = now();
            sink += run(b, p, calls[p]);
            double dt = now() - t0;
            if (dt < MIN_BATCH_SECONDS) {
                calls[p] *= 2;
                continue;
            }
            best[p] = fmin(best[p], dt / calls[p]);
        }
    printf("%-12s", b->m->name);
    for (int p = 0; p < NPART; p++) {
        if (isinf(best[p])) printf(" %12s", "-");
        else printf(" %9.0f ns", 1e9 * best[p]);
    }
    printf("   (checksum %.3g)\n", sink);
}

/* The whole step through the engine interface, as a run pays it: the
 * generated engine's mech_data_step (contact stage, forward dynamics,
 * Störmer-Verlet, the checks) at the model's accuracy dt, RUN_STEPS steps
 * from the design pose (the band and the ground loaded as the vehicle
 * settles); the fastest of RUN_REPEATS.  bench/contact_wasm.mjs runs the same
 * steps in WebAssembly and reads this line. */
#define RUN_STEPS 2000
#define RUN_REPEATS 7
static void time_run(const bench *b)
{
#ifdef MECH_HAVE_GENERATED
    const mech_generated *g = mech_generated_find(b->m->name);
    mech_error err;
    mech_data *d = g ? mech_data_new_generated(b->m, g, &err) : NULL;
    if (!d) return;
    double dt = mech_model_options(b->m).dt, best = INFINITY;
    for (int r = 0; r < RUN_REPEATS; r++) {
        mech_data_reset(d);
        double t0 = now();
        if (mech_data_step(d, dt, RUN_STEPS)) break;
        best = fmin(best, (now() - t0) / RUN_STEPS);
    }
    printf("run %-12s dt %.6g s: %.0f ns per step, real-time factor %.2f (%d steps from the design pose)\n", b->m->name,
           dt, 1e9 * best, dt / best, RUN_STEPS);
    mech_data_free(d);
#else
    (void)b;
#endif
}

/* Each part n times, untimed (--calls). */
static void count_parts(bench *b, long n)
{
    double sink = 0;
    for (int p = 0; p < NPART; p++)
        if (part_runs(b, p)) sink += run(b, p, n);
    printf("%-12s %ld calls per part   (checksum %.3g)\n", b->m->name, n, sink);
}

static int bench_model(const char *path, long fixed_calls)
{
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    if (!m) {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        return 1;
    }
    if (!m->ntrack) {
        printf("%-12s no band: skipped\n", m->name);
        mech_model_free(m);
        return 0;
    }
    bench b = { .m = m };
#ifdef MECH_HAVE_GENERATED
    const mech_generated *g = mech_generated_find(m->name);
    b.gen = g ? g->fwd_dyn_own_gravity : NULL; /* what the engine runs at the model's gravity */
#endif
    b.q = calloc((size_t)m->nq * POOL, sizeof *b.q);
    b.qd = calloc((size_t)m->nv * POOL, sizeof *b.qd);
    b.tau = calloc((size_t)m->nv, sizeof *b.tau);
    b.qdd = calloc((size_t)m->nv, sizeof *b.qdd);
    b.fext = calloc(6 * (size_t)m->nb, sizeof *b.fext);
    b.joints = calloc((size_t)m->nb, sizeof *b.joints);
    mech_kin_joints(m, b.joints);
    b.kin = calloc((size_t)m->nb, sizeof *b.kin);
    b.kin0 = calloc((size_t)m->nb * POOL, sizeof *b.kin0);
    b.bands = calloc((size_t)m->ntrack, sizeof *b.bands);
    b.cs = contact_new(m);
    double *q0 = calloc((size_t)m->nq, sizeof *q0);
    for (int i = 0; i < m->nb; i++)
        memcpy(q0 + m->bodies[i].qidx, m->bodies[i].q0, (size_t)m->bodies[i].nq * sizeof *q0);
    mech_world_kinematics(m, q0, NULL, b.kin);
    for (int t = 0; t < m->ntrack; t++) track_band_init(&b.bands[t], m, &m->tracks[t], b.kin);
    free(q0);
    if (m->ground.type != MECH_GROUND_NONE) ground_stage_init(&b.gs, m);
    pool(&b);
    if (fixed_calls > 0) count_parts(&b, fixed_calls);
    else {
        time_parts(&b);
        time_run(&b);
    }
    free(b.q);
    free(b.qd);
    free(b.tau);
    free(b.qdd);
    free(b.fext);
    free(b.joints);
    free(b.kin);
    free(b.kin0);
    free(b.bands);
    contact_free(b.cs);
    mech_model_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    long fixed_calls = 0;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--calls") == 0) {
        fixed_calls = strtol(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc || (first == 3 && fixed_calls < 1)) {
        fprintf(stderr, "usage: bench_contact [--calls N] <model.mech>...\n");
        return 2;
    }
    if (!fixed_calls) {
        printf("%-12s", "model");
        for (int p = 0; p < NPART; p++) printf(" %12s", part_names[p]);
        printf("\n");
    }
    int rc = 0;
    for (int i = first; i < argc; i++) rc |= bench_model(argv[i], fixed_calls);
    return rc;
}
