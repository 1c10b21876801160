/* observe.c — sim.observe() and sim.find(): the model's observation values
 * (every POI's world position and velocity, each tsda's length and rate,
 * each rsda's q and qd; mech/sim.h has the layout) and name lookup
 * (mech_model_find), in both kinds of module.
 *
 * The engine computes them (mech_data_observe): a per-model module's
 * generated observe, the runtime's dense kinematics, XPBD's own bodies. */
#include <emscripten.h>
#include <stdlib.h>

#include "sim.h"

EMSCRIPTEN_KEEPALIVE int mw_observe_len(const mw_sim *s) { return mech_model_sizes(mech_data_model(s)).observe_len; }

/* The offset in observe's values ("poi", "tsda", "rsda") or the act[] slot
 * ("act") of the element called `name`; -1 when there is none. */
EMSCRIPTEN_KEEPALIVE int mw_find(const mw_sim *s, const char *kind, const char *name)
{
    return mech_model_find(mech_data_model(s), kind, name);
}

/* The observation values at the handle's state, in a buffer shared by every
 * handle of this module and overwritten by the next call (index.mjs copies
 * it out at once); NULL with the error set when the run fails or is out of
 * memory, or when the model has nothing to observe (index.mjs does not ask
 * then). */
EMSCRIPTEN_KEEPALIVE const double *mw_observe(mw_sim *s)
{
    static double *buf;
    static int cap;
    int n = mech_model_sizes(mech_data_model(s)).observe_len;
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
    if (mech_data_observe(s, buf)) {
        mw_fail("%s", mech_data_error(s)->message);
        return NULL;
    }
    return buf;
}
