/* runtime.c — the runtime engine module: any .mech text, parsed in the
 * module and run by the engine of engine.h (ABA, with loops and force
 * elements on top when the model has them).  This is what runs a model that
 * has no pre-generated module, e.g. after a user edits one. */
#include <emscripten.h>

#include "engine.h"
#include "rbda/loops.h"
#include "sim.h"

/* A handle running `len` bytes of .mech text labelled `name`, or NULL with
 * the error (file:line:col) set: a parse error or an over-constrained loop,
 * which would make every forward() fail (mech_loops_check). */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open_text(const char *text, size_t len, const char *name)
{
    mech_error err;
    mech_model *m = mech_parse(text, len, name, &err);
    if (m && mech_loops_check(m, &err)) {
        mech_model_free(m);
        m = NULL;
    }
    if (!m) {
        mw_fail_parse(&err);
        return NULL;
    }
    mw_engine *e = mw_engine_new(m);
    if (!e) {
        mech_model_free(m);
        mw_fail("out of memory");
        return NULL;
    }
    mw_sim *s = mw_sim_new(m, m->nact, mw_engine_fd, e, mw_engine_free);
    if (s) {
        e->act = s->act;
        s->gravity = m->gravity;   /* the engine reads it on every call */
    }
    return s;
}

/* forward(): the engine has no fast path of its own. */
EMSCRIPTEN_KEEPALIVE int mw_forward(mw_sim *s) { return mw_sim_forward(s); }
