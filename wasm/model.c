/* model.c — the per-model module: one shipped model's generated forward
 * dynamics (core/codegen) plus its .mech text, which the shared parser turns
 * into the mech_model that the integrator, poses and reset read.
 * scripts/build-wasm.sh compiles it once per model with
 *   -DMW_GEN=mechgen_<model> -DMW_GEN_HEADER="<model>.h"
 * and a <model>_text.c defining mw_model_text. */
#include <emscripten.h>
#include <stddef.h>

#include MW_GEN_HEADER
#include "rbda/loops.h"
#include "sim.h"

#define MW_PASTE(a, b) a##b
#define MW_FWD_DYN(gen) MW_PASTE(gen, _fwd_dyn)

extern const unsigned char mw_model_text[];
extern const size_t mw_model_text_len;

/* The generated code as a mech_fd_fn; ctx is the handle's act buffer. */
static void gen_fd(void *ctx, const double *q, const double *qd, const double *tau,
                   const double *fext, double *qdd)
{
    MW_FWD_DYN(MW_GEN)(q, qd, tau, fext, ctx, qdd);
}

/* wasm/observe.c's hook: this model's generated observe function. */
void mw_model_observe(const double *q, const double *qd, double *out)
{
    if (MW_GEN.observe) MW_GEN.observe(q, qd, out);
}

/* A handle on this module's model, or NULL with the error set. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open(void)
{
    mech_error err;
    mech_model *m = mech_parse((const char *)mw_model_text, mw_model_text_len, MW_GEN.name, &err);
    if (!m) {
        mw_fail_parse(&err);
        return NULL;
    }
    if (m->nq != MW_GEN.nq || m->nv != MW_GEN.nv || m->nb != MW_GEN.nb || m->nc != MW_GEN.nc ||
        m->nact != MW_GEN.nact || mech_observe_len(m) != MW_GEN.observe_len) {
        mw_fail("%s: the generated code (nq %d nv %d nb %d nc %d nact %d) does not match the model text "
                "(nq %d nv %d nb %d nc %d nact %d); rebuild", MW_GEN.name, MW_GEN.nq, MW_GEN.nv, MW_GEN.nb,
                MW_GEN.nc, MW_GEN.nact, m->nq, m->nv, m->nb, m->nc, m->nact);
        mech_model_free(m);
        return NULL;
    }
    mw_sim *s = mw_sim_new(m, MW_GEN.nact, gen_fd, NULL, NULL);
    if (s) {
        s->ctx = s->act;
        s->near = MW_GEN.fwd_dyn_near;
    }
    return s;
}

/* Which generator version produced this module's code. */
EMSCRIPTEN_KEEPALIVE const char *mw_generator(void) { return MW_GEN.generator; }
