/* bench.c — see bench.h. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#include "rbda/sample.h"

#define POOL 256

double mech_bench_forward(const mech_model *m, mech_fd_fn fd, void *ctx, int calls)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nf = 6 * (size_t)m->nb;
    size_t per = nq + 2 * nv + nf;
    /* calloc: qdd starts at zero, which the null backend leaves it at. */
    double *pool = calloc(POOL * per + nv + 1, sizeof(double));
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

void mech_bench_null_gen(const double *q, const double *qd, const double *tau, const double *fext, const double *act,
                         double *qdd)
{
    (void)q;
    (void)qd;
    (void)tau;
    (void)fext;
    (void)act;
    (void)qdd;
}

void mech_bench_null_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    (*(const mech_bench_gen_fn *)ctx)(q, qd, tau, fext, NULL, qdd);
}
