/* bench.c — see bench.h. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#include "sim/sample.h"

#define POOL 256

double mech_bench_forward(const mech_model *m, mech_fd_fn fd, void *ctx, int calls)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nf = 6 * (size_t)m->nb;
    size_t per = nq + 2 * nv + nf;
    double *pool = malloc(sizeof(double) * (POOL * per + nv + 1));
    if (!pool) return NAN;
    double *qdd = pool + POOL * per;
    mech_rng rng;
    mech_rng_seed(&rng, 1);
    for (int k = 0; k < POOL; k++) {
        double *x = pool + (size_t)k * per;
        mech_sample_state(m, &rng, x, x + nq, x + nq + nv, x + nq + 2 * nv);
    }
    double sum = 0;
    for (int c = 0; c < calls; c++) {
        const double *x = pool + (size_t)(c % POOL) * per;
        fd(ctx, x, x + nq, x + nq + nv, x + nq + 2 * nv, qdd);
        sum += nv ? qdd[c % nv] : 0;
    }
    free(pool);
    return sum;
}
