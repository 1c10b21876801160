/* xpbd.c — the runtime module's XPBD engine (mech/xpbd.h): any tree or loop
 * .mech text run as maximal-coordinate bodies, with its rods, behind the same
 * handle as the Featherstone engines (sim.h).  mw_xpbd_rod_* hand out the
 * rods' node positions and frames in place and sample the interpolated
 * centreline for drawing. */
#include <emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mech/xpbd.h"
#include "sim.h"

/* [primal, constraint] residuals (eqs. 51, 52) of the last substep, or NULL
 * when the handle does not run XPBD. */
EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_residuals(const mw_sim *s) { return mech_data_xpbd_residuals(s); }

/* Body `body`'s motor rate (mech_data_xpbd_ramp_rate): read (NaN with the
 * error set when it has no ramp drive) and set (0, or -1 with the error). */
EMSCRIPTEN_KEEPALIVE double mw_xpbd_ramp_rate(mw_sim *s, int body)
{
    double rate;
    if (mech_data_xpbd_ramp_rate(s, body, &rate) == 0) return rate;
    mw_fail("%s", mech_data_error(s)->message);
    return NAN;
}

EMSCRIPTEN_KEEPALIVE int mw_xpbd_set_ramp_rate(mw_sim *s, int body, double rate)
{
    if (mech_data_xpbd_set_ramp_rate(s, body, rate) == 0) return 0;
    mw_fail("%s", mech_data_error(s)->message);
    return -1;
}

/* ---- rods ---- */

/* Number of rods (0 when the handle does not run XPBD). */
EMSCRIPTEN_KEEPALIVE int mw_xpbd_nrod(const mw_sim *s) { return s ? mech_data_rod_count(s) : 0; }

static int is_rod(const mw_sim *s, int i) { return s && i >= 0 && i < mech_data_rod_count(s); }

EMSCRIPTEN_KEEPALIVE const char *mw_xpbd_rod_name(const mw_sim *s, int i)
{
    mech_rod_def def;
    return is_rod(s, i) && mech_model_rod(mech_data_model(s), i, &def) == 0 ? def.name : NULL;
}

/* [order (0 = rigid chain), elements, nodes, rest length, diameter, r, g, b,
 * a, Gauss points per element, E, damping, density] of rod i, or NULL; one buffer
 * per module, overwritten by the next call. */
EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_rod_info(const mw_sim *s, int i)
{
    static double info[13];
    mech_rod_info r;
    mech_rod_def def;
    if (!is_rod(s, i) || mech_data_rod_info(s, i, &r) || mech_model_rod(mech_data_model(s), i, &def)) return NULL;
    double v[13] = { r.order,     r.elements,  r.nodes,        r.length, r.diameter, def.rgba[0], def.rgba[1],
                     def.rgba[2], def.rgba[3], r.gauss_points, r.E,      r.damping,  def.density };
    memcpy(info, v, sizeof info);
    return info;
}

/* Node positions (3 per node, world) and frames (9 per node, row-major
 * material frame to world, d3 the rest tangent) of rod i, in place. */
EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_rod_nodes(const mw_sim *s, int i)
{
    return is_rod(s, i) ? mech_data_rod_positions(s, i) : NULL;
}

EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_rod_frames(const mw_sim *s, int i)
{
    return is_rod(s, i) ? mech_data_rod_frames(s, i) : NULL;
}

/* The interpolated centreline of rod i at n + 1 equally spaced arc lengths
 * (s = kL/n, k = 0..n): 3 positions each, then, when frames is nonzero,
 * 9 frame entries each — one buffer per module, overwritten by the next
 * call (it may grow the memory).  NULL when i is not a rod, n is not in
 * [1, 1e6] or out of memory. */
EMSCRIPTEN_KEEPALIVE double *mw_xpbd_rod_sample(const mw_sim *s, int i, int n, int frames)
{
    static double *samples;
    static size_t nsamples;
    mech_rod_info r;
    if (!is_rod(s, i) || mech_data_rod_info(s, i, &r)) {
        mw_fail("rod %d does not exist", i);
        return NULL;
    }
    if (n < 1 || n > 1000000) {
        mw_fail("rod samples: n must be in [1, 1000000], got %d", n);
        return NULL;
    }
    size_t need = (size_t)(n + 1) * (frames ? 12 : 3);
    if (need > nsamples) {
        double *grown = realloc(samples, need * sizeof *grown);
        if (!grown) {
            mw_fail("out of memory");
            return NULL;
        }
        samples = grown;
        nsamples = need;
    }
    double R[9], *pos = samples, *fr = samples + 3 * (size_t)(n + 1);
    for (int k = 0; k <= n; k++)
        mech_data_rod_sample(s, i, r.length * k / n, pos + 3 * k, frames ? fr + 9 * (size_t)k : R);
    return samples;
}
