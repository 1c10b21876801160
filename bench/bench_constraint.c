/* bench_constraint.c — the constraint solve natively (docs/benchmarks.md, "The constraint solve"): a legged robot
 * standing on the floor under a PD law to a keyframe, one step of the runtime ABA engine with the solve applying
 * H⁻¹ through the sparse factors (the default) and by one dynamics call per row (constraint_per_row), and with the
 * floor off (no solve) for the solve's share.  Not a test: it prints a table.
 *
 *   bench_constraint MODEL.mech KEYFRAME BASE_Z     (scripts/bench.sh: the imported Unitree Go2, 'home', 0.27)
 *
 * The PD law is bench/contact_solve.mjs's: ctrl = kp (q* − q) − kd qd on each actuator's joint, dt 0.002 s;
 * SETTLE steps, then the fastest of ROUNDS runs of STEPS steps from the settled state, thread CPU time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mech/mech.h"
#include "sim/data.h"

#define KP 100.0
#define KD 2.0
#define DT 0.002
#define SETTLE 500
#define STEPS 2000
#define ROUNDS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void steps(mech_data *d, const double *qstar, int n)
{
    const mech_model *m = mech_data_model(d);
    double *ctrl = mech_data_ctrl(d);
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < m->nu; i++) {
            const mech_body *b = &m->bodies[m->actuators[i].body];
            ctrl[i] = KP * (qstar[b->qidx] - d->q[b->qidx]) - KD * d->qd[b->vidx];
        }
        if (mech_data_step(d, DT, 1)) {
            fprintf(stderr, "bench_constraint: %s\n", mech_data_error(d)->message);
            exit(1);
        }
    }
}

/* µs per step from the state `from`: the fastest of ROUNDS. */
static double us_per_step(mech_data *d, const double *qstar, const double *from)
{
    const mech_model *m = mech_data_model(d);
    double best = 1e300;
    for (int r = 0; r < ROUNDS; r++) {
        memcpy(d->q, from, (size_t)m->nq * sizeof *d->q);
        memcpy(d->qd, from + m->nq, (size_t)m->nv * sizeof *d->qd);
        double t0 = now();
        steps(d, qstar, STEPS);
        double us = 1e6 * (now() - t0) / STEPS;
        best = us < best ? us : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench_constraint MODEL.mech KEYFRAME BASE_Z\n");
        return 2;
    }
    mech_error err;
    mech_model *m = mech_model_load(argv[1], &err);
    mech_data *d = m ? mech_data_new_aba(m, &err) : NULL;
    if (!d) {
        fprintf(stderr, "bench_constraint: %s\n", err.message);
        return 1;
    }
    int key = -1;
    for (int k = 0; k < m->nkey; k++)
        if (!strcmp(m->keys[k].name, argv[2])) key = k;
    if (key < 0 || mech_data_reset_keyframe(d, key) || mech_data_set_floor(d, 1, 0.0)) {
        fprintf(stderr, "bench_constraint: no keyframe '%s' or no floor\n", argv[2]);
        return 1;
    }
    d->q[6] = atof(argv[3]); /* the base height of a floating first body (qw qx qy qz x y z) */
    double *qstar = malloc((size_t)m->nq * sizeof *qstar), *from = malloc((size_t)(m->nq + m->nv) * sizeof *from);
    memcpy(qstar, d->q, (size_t)m->nq * sizeof *qstar);
    steps(d, qstar, SETTLE);
    memcpy(from, d->q, (size_t)m->nq * sizeof *from);
    memcpy(from + m->nq, d->qd, (size_t)m->nv * sizeof *from);
    double st[3];
    mech_data_solver_stats(d, st);
    double factors = us_per_step(d, qstar, from);
    constraint_per_row(d->cs, 1);
    double per_row = us_per_step(d, qstar, from);
    constraint_per_row(d->cs, 0);
    mech_data_set_floor(d, 0, 0.0);
    double none = us_per_step(d, qstar, from);
    printf("constraint solve, %s standing on the floor (kp %g, kd %g, dt %g s, %g rows, %g sweeps), runtime ABA "
           "engine, native\n",
           m->name, KP, KD, DT, st[0], st[1]);
    printf("  H^-1 through the factors H = L^T D L   %8.2f us/step (the solve %.0f %% of it)\n", factors,
           100 * (1 - none / factors));
    printf("  H^-1 by one dynamics call per row      %8.2f us/step (%.1fx the factors' step)\n", per_row,
           per_row / factors);
    printf("  floor off (no solve)                   %8.2f us/step\n", none);
    free(qstar);
    free(from);
    mech_data_free(d);
    mech_model_free(m);
    return 0;
}
