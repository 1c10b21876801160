/* bench_actuators.c — what actuators cost the generated forward dynamics:
 * ns per fwd_dyn call of the Panda with its seven joint servos (MuJoCo's
 * affine law, ctrl and force clamped) against the same Panda generated
 * without them (its `actuator` blocks removed when the bench is configured).
 * Both cycle through the same pool of 256 random states, the servos' ctrl
 * random over each ctrlrange; a repetition is a batch of at least 5 ms of
 * thread CPU time, the figure the fastest of 200, the two taking turns.
 * Not a test: timings depend on the machine and on what else it runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbda/sample.h"
#include "sim/generated.h"

#define POOL 256
#define MIN_BATCH_SECONDS 0.005
#define REPETITIONS 200

extern const mech_generated mechgen_panda, mechgen_panda_bare;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    const mech_generated *g;
    double *q, *qd, *tau, *act, qdd[64];
} run;

static double batch(run *r, long n)
{
    double check = 0;
    for (long i = 0; i < n; i++) {
        long k = i & (POOL - 1);
        const mech_generated *g = r->g;
        g->fwd_dyn_own_gravity(r->q + k * g->nq, r->qd + k * g->nv, r->tau + k * g->nv, NULL,
                               r->act + k * (g->nact + 1), r->qdd);
        for (int j = 0; j < g->nv; j++) check += r->qdd[j];
    }
    return check;
}

static void cpu_name(char *out, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    snprintf(out, cap, "unknown CPU");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *s = strchr(line, ':');
            snprintf(out, cap, "%s", s ? s + 2 : line);
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    if (f) fclose(f);
}

int main(void)
{
    const mech_generated *gs[2] = { &mechgen_panda, &mechgen_panda_bare };
    run runs[2];
    mech_rng rng;
    mech_rng_seed(&rng, 20261207);
    static const double range[7][2] = { { -2.8973, 2.8973 },  { -1.7628, 1.7628 }, { -2.8973, 2.8973 },
                                        { -3.0718, -0.0698 }, { -2.8973, 2.8973 }, { -0.0175, 3.7525 },
                                        { -2.8973, 2.8973 } };
    const mech_generated *g = gs[0];
    if (g->nv > 64 || g->nact != 7 || gs[1]->nact != 0 || gs[1]->nv != g->nv) {
        fprintf(stderr, "bench_actuators: the Panda should have 7 actuators and its bare copy none\n");
        return 1;
    }
    for (int r = 0; r < 2; r++) {
        runs[r].g = gs[r];
        runs[r].q = calloc((size_t)POOL * (size_t)g->nq, sizeof(double));
        runs[r].qd = calloc((size_t)POOL * (size_t)g->nv, sizeof(double));
        runs[r].tau = calloc((size_t)POOL * (size_t)g->nv, sizeof(double));
        runs[r].act = calloc((size_t)POOL * 8, sizeof(double));
        if (!runs[r].q || !runs[r].qd || !runs[r].tau || !runs[r].act) return 1;
    }
    for (int k = 0; k < POOL; k++) {
        for (int j = 0; j < g->nq; j++) runs[0].q[k * g->nq + j] = mech_rng_uniform(&rng, -2, 2);
        for (int j = 0; j < g->nv; j++) {
            runs[0].qd[k * g->nv + j] = mech_rng_uniform(&rng, -2, 2);
            runs[0].tau[k * g->nv + j] = mech_rng_uniform(&rng, -5, 5);
        }
        for (int j = 0; j < 7; j++) runs[0].act[k * 8 + j] = mech_rng_uniform(&rng, range[j][0], range[j][1]);
    }
    memcpy(runs[1].q, runs[0].q, (size_t)POOL * (size_t)g->nq * sizeof(double));
    memcpy(runs[1].qd, runs[0].qd, (size_t)POOL * (size_t)g->nv * sizeof(double));
    memcpy(runs[1].tau, runs[0].tau, (size_t)POOL * (size_t)g->nv * sizeof(double));
    long n = 1;
    while (1) { /* a batch of at least MIN_BATCH_SECONDS */
        double t0 = now();
        batch(&runs[0], n);
        if (now() - t0 >= MIN_BATCH_SECONDS) break;
        n *= 2;
    }
    double best[2] = { 1e30, 1e30 }, check = 0;
    for (int rep = 0; rep < REPETITIONS; rep++)
        for (int r = 0; r < 2; r++) {
            double t0 = now();
            check += batch(&runs[r], n);
            double ns = 1e9 * (now() - t0) / (double)n;
            if (ns < best[r]) best[r] = ns;
        }
    char cpu[320];
    cpu_name(cpu, sizeof cpu);
    printf("bench_actuators: %s; generated fwd_dyn of the Panda, fastest of %d batches of %ld calls\n", cpu,
           REPETITIONS, n);
    printf("  with its 7 servos   %8.1f ns\n  without actuators   %8.1f ns\n  actuators cost      %+7.1f %%  "
           "(checksum %.6g)\n",
           best[0], best[1], 100 * (best[0] / best[1] - 1), check);
    for (int r = 0; r < 2; r++) {
        free(runs[r].q);
        free(runs[r].qd);
        free(runs[r].tau);
        free(runs[r].act);
    }
    return 0;
}
