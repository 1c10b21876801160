/* observe.c — sim.observe() and sim.find(): the model's observation values
 * (every POI's world position and velocity, each tsda's length and rate,
 * each rsda's q and qd; core/rbda/loops.h has the layout) and name lookup,
 * in both kinds of module.
 *
 * A per-model module defines mw_model_observe (wasm/model.c: the generated
 * observe function); the runtime module does not, and computes the values
 * with mech_observe on the parsed model. */
#include <emscripten.h>
#include <stdlib.h>

#include "rbda/loops.h"
#include "sim.h"

/* The generated observe of a per-model module; undefined (NULL) elsewhere. */
__attribute__((weak)) void mw_model_observe(const double *q, const double *qd, double *out);

EMSCRIPTEN_KEEPALIVE int mw_observe_len(const mw_sim *s) { return mech_observe_len(s->model); }

/* The offset in observe's values ("poi", "tsda", "rsda") or the act[] slot
 * ("act") of the element called `name`; -1 when there is none. */
EMSCRIPTEN_KEEPALIVE int mw_find(const mw_sim *s, const char *kind, const char *name)
{
    return mech_find(s->model, kind, name);
}

/* The observation values at the handle's q, qd, in a buffer shared by every
 * handle of this module and overwritten by the next call (index.mjs copies
 * it out at once); NULL with the error set when out of memory, or when the
 * model has nothing to observe (index.mjs does not ask then). */
EMSCRIPTEN_KEEPALIVE const double *mw_observe(mw_sim *s)
{
    static double *buf;
    static int cap;
    const mech_model *m = s->model;
    int n = mech_observe_len(m);
    if (n > cap) {
        double *grown = realloc(buf, sizeof(double) * (size_t)n);
        if (!grown) {
            mw_fail("observe: out of memory");
            return NULL;
        }
        buf = grown;
        cap = n;
    }
    if (n == 0) return NULL;
    if (mw_model_observe) {
        mw_model_observe(s->q, s->qd, buf);
        return buf;
    }
    dense_ws *ws = mw_dense_ws(s);
    if (!ws) return NULL;
    mech_observe(m, ws, s->q, s->qd, buf);
    return buf;
}
