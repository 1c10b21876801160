/* engine.c — see engine.h. */
#include "engine.h"

#include <stdlib.h>

#include "rbda/loops.h"

mw_engine *mw_engine_new(const mech_model *m)
{
    mw_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->m = m;
    e->aws = aba_ws_new(m);
    if (m->nc || m->ntsda || m->nrsda) e->dws = dense_ws_new(m);
    if (!e->aws || ((m->nc || m->ntsda || m->nrsda) && !e->dws)) {
        mw_engine_free(e);
        return NULL;
    }
    return e;
}

void mw_engine_free(void *engine)
{
    mw_engine *e = engine;
    if (!e) return;
    aba_ws_free(e->aws);
    dense_ws_free(e->dws);
    free(e);
}

void mw_engine_fd(void *ctx, const double *q, const double *qd, const double *tau,
                  const double *fext, double *qdd)
{
    const mw_engine *e = ctx;
    if (e->dws) aba_fd_full(e->m, e->aws, e->dws, q, qd, tau, fext, e->act, qdd);
    else aba_fd(e->m, e->aws, q, qd, tau, fext, qdd);
}
