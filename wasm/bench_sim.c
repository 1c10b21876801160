/* bench_sim.c — the timing loops of bench.c over a handle (sim.h): they time
 * the engine's own forward dynamics function, below the verbs of
 * mech/sim.h, so they read the run's engine table (core/sim/data.h). */
#include <math.h>

#include "bench.h"
#include "sim.h"
#include "sim/data.h"

double mw_sim_bench_forward(mw_sim *s, int calls)
{
    if (!s->engine->fd) {
        mw_fail("bench: engine '%s' has no forward dynamics", s->engine->name);
        return NAN;
    }
    double sum = mech_bench_forward(s->model, mech_data_fd(s), s, calls);
    if (isnan(sum)) mw_fail("bench: out of memory");
    return sum;
}

double mw_sim_bench_overhead(mw_sim *s, int calls)
{
    mech_bench_gen_fn null = mech_bench_null_gen;
    double sum = mech_bench_forward(s->model, mech_bench_null_fd, &null, calls);
    if (isnan(sum)) mw_fail("bench: out of memory");
    return sum;
}

/* What forward() costs inside WebAssembly, for splitting the cost of
 * forward() from JS into dynamics and API. */
double mw_sim_bench_here(mw_sim *s, int calls)
{
    double sum = 0;
    if (!s->engine->fd) return NAN;
    for (int c = 0; c < calls; c++) {
        s->engine->fd(s, s->q, s->qd, s->tau, s->fext, s->qdd);
        sum += s->nv ? s->qdd[c % s->nv] : 0;
    }
    return sum;
}
