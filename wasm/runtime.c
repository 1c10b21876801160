/* runtime.c — the runtime module's Featherstone engine: any .mech text,
 * parsed in the module and run on the articulated-body algorithm (with
 * closed loops and force elements by method 2, mech/featherstone.h).  This
 * is what runs a model that has no pre-generated module, e.g. after a user
 * edits one. */
#include <emscripten.h>

#include "mech/featherstone.h"
#include "sim.h"

/* A handle running `len` bytes of .mech text labelled `name`, or NULL with
 * the parse error (file:line:col) set. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open_text(const char *text, size_t len, const char *name)
{
    mech_model *m = mw_parse(text, len, name);
    if (!m) return NULL;
    mech_error err;
    return mw_sim_adopt(mech_data_new_aba(m, &err), m, &err);
}

/* forward(): the engine has no fast path of its own. */
EMSCRIPTEN_KEEPALIVE int mw_forward(mw_sim *s) { return mw_sim_forward(s); }
