/* xpbd.c — the XPBD engine in the runtime module: any tree or loop .mech
 * text run as maximal-coordinate bodies (core/xpbd/xpbd_from_model.h) behind
 * the same handle as the Featherstone runtime (sim.h).
 *
 * step() is one XPBD step of dt with the file's substeps, iterations and
 * solve mode; tau and fext (bodies with `fext 1`) are applied as body
 * wrenches, gravity is read on every step.  q and qd are then read back
 * from the bodies (xpbd_mech_joint_state); poses() are the XPBD bodies'
 * own.  forward() and energy() stay Featherstone's, at the read-back q, qd.
 *
 * Rods (`rod` blocks) run inside the same XPBD steps; mw_xpbd_rod_* hand
 * out their node positions and frames in place and sample the interpolated
 * centreline (xpbd_rod_sample) for drawing. */
#include <emscripten.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "sim.h"
#include "xpbd/xpbd_from_model.h"

typedef struct {
    xpbd_mech x;
    xpbd_data d;
    double residuals[2];   /* primal, constraint of the last substep */
    double rod_info[12];   /* mw_xpbd_rod_info's answer */
    double *samples;       /* mw_xpbd_rod_sample's answer, grown on demand */
    size_t nsamples;       /* doubles allocated */
} mw_xpbd;

static void xp_step(mw_sim *s, double dt)
{
    mw_xpbd *e = s->stepper_state;
    e->x.m.params.dt = dt;
    memcpy(e->x.m.params.gravity, s->gravity, sizeof e->x.m.params.gravity);
    xpbd_mech_forces(s->model, &e->d, s->tau, s->fext, e->d.fext);
    xpbd_step(&e->x.m, &e->d);
    e->residuals[0] = e->d.primal;
    e->residuals[1] = e->d.constraint;
    xpbd_mech_joint_state(s->model, &e->d, s->q, s->qd);
}

static void xp_poses(mw_sim *s)
{
    mw_xpbd *e = s->stepper_state;
    xpbd_mech_poses(s->model, &e->d, s->poses);
}

static void xp_reset(mw_sim *s)
{
    mw_xpbd *e = s->stepper_state;
    xpbd_mech_reset(&e->x, &e->d);
    e->d.record_residuals = 1;
    e->residuals[0] = e->residuals[1] = 0;
}

static void xp_free(void *state)
{
    mw_xpbd *e = state;
    xpbd_data_free(&e->d);
    xpbd_mech_free(&e->x);
    free(e->samples);
    free(e);
}

static const mw_stepper xpbd_stepper = { xp_step, xp_poses, xp_reset, xp_free };

/* A handle running `len` bytes of .mech text on XPBD, or NULL with the error
 * set: a parse error or what XPBD cannot run, both at file:line:col (a
 * MechError in JS), or out of memory.  Over-constrained loops open: XPBD
 * runs them (xpbd_from_model.h), though forward() at them fails as on the
 * Featherstone runtime. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open_text_xpbd(const char *text, size_t len, const char *name)
{
    mech_error err;
    mech_model *m = mech_parse(text, len, name, &err);
    if (!m) {
        mw_fail_parse(&err);
        return NULL;
    }
    mw_xpbd *x = calloc(1, sizeof *x);
    if (!x || xpbd_from_model(m, &x->x, &err)) {
        if (x && err.line > 0) mw_fail_parse(&err);
        else if (x) mw_fail("%s: XPBD: %s", name, err.message);
        else mw_fail("out of memory");
        free(x);
        mech_model_free(m);
        return NULL;
    }
    mw_engine *e = xpbd_mech_data(&x->x, x->x.mode, &x->d) ? NULL : mw_engine_new(m);
    if (!e) {
        xp_free(x);
        mech_model_free(m);
        mw_fail("out of memory");
        return NULL;
    }
    x->d.record_residuals = 1;
    mw_sim *s = mw_sim_new(m, m->nact, mw_engine_fd, e, mw_engine_free);
    if (!s) {
        xp_free(x);
        return NULL;
    }
    e->act = s->act;
    s->gravity = m->gravity;
    s->stepper = &xpbd_stepper;
    s->stepper_state = x;
    return s;
}

/* [primal, constraint] residuals (eqs. 51, 52) of the last substep, or NULL
 * when the handle does not run XPBD. */
EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_residuals(const mw_sim *s)
{
    return s->stepper == &xpbd_stepper ? ((const mw_xpbd *)s->stepper_state)->residuals : NULL;
}

/* ---- rods ---- */

static mw_xpbd *xpbd_of(const mw_sim *s)
{
    return s && s->stepper == &xpbd_stepper ? s->stepper_state : NULL;
}

static const xpbd_rod *rod_of(const mw_sim *s, int i)
{
    const mw_xpbd *e = xpbd_of(s);
    return e && i >= 0 && i < e->x.nrod ? &e->x.rods[i] : NULL;
}

/* Number of rods (0 when the handle does not run XPBD). */
EMSCRIPTEN_KEEPALIVE int mw_xpbd_nrod(const mw_sim *s)
{
    const mw_xpbd *e = xpbd_of(s);
    return e ? e->x.nrod : 0;
}

EMSCRIPTEN_KEEPALIVE const char *mw_xpbd_rod_name(const mw_sim *s, int i)
{
    return rod_of(s, i) ? s->model->rods[i].name : NULL;
}

/* [order (0 = rigid chain), elements, nodes, rest length, diameter, r, g, b,
 * a, Gauss points per element, E, damping] of rod i, or NULL. */
EMSCRIPTEN_KEEPALIVE const double *mw_xpbd_rod_info(mw_sim *s, int i)
{
    const xpbd_rod *r = rod_of(s, i);
    if (!r) return NULL;
    mw_xpbd *e = s->stepper_state;
    const mech_rod *mr = &s->model->rods[i];
    double info[12] = { r->order, r->nel, r->nnode, r->l * r->nel, r->desc.diameter, mr->rgba[0], mr->rgba[1],
                        mr->rgba[2], mr->rgba[3], r->ngauss, r->desc.E, r->desc.damping };
    memcpy(e->rod_info, info, sizeof info);
    return e->rod_info;
}

/* Node positions (3 per node, world) and frames (9 per node, row-major
 * material frame to world, d3 the rest tangent) of rod i, in place. */
EMSCRIPTEN_KEEPALIVE double *mw_xpbd_rod_nodes(const mw_sim *s, int i)
{
    const xpbd_rod *r = rod_of(s, i);
    return r ? r->p : NULL;
}

EMSCRIPTEN_KEEPALIVE double *mw_xpbd_rod_frames(const mw_sim *s, int i)
{
    const xpbd_rod *r = rod_of(s, i);
    return r ? r->R : NULL;
}

/* The interpolated centreline of rod i at n + 1 equally spaced arc lengths
 * (s = kL/n, k = 0..n): 3 positions each, then, when frames is nonzero,
 * 9 frame entries each — one buffer per handle, overwritten by the next
 * call (it may grow the memory).  NULL when i is not a rod, n is not in
 * [1, 1e6] or out of memory. */
EMSCRIPTEN_KEEPALIVE double *mw_xpbd_rod_sample(mw_sim *s, int i, int n, int frames)
{
    const xpbd_rod *r = rod_of(s, i);
    if (!r) {
        mw_fail("rod %d does not exist", i);
        return NULL;
    }
    if (n < 1 || n > 1000000) {
        mw_fail("rod samples: n must be in [1, 1000000], got %d", n);
        return NULL;
    }
    mw_xpbd *e = s->stepper_state;
    size_t need = (size_t)(n + 1) * (frames ? 12 : 3);
    if (need > e->nsamples) {
        double *grown = realloc(e->samples, need * sizeof *grown);
        if (!grown) {
            mw_fail("out of memory");
            return NULL;
        }
        e->samples = grown;
        e->nsamples = need;
    }
    double L = r->l * r->nel, R[9], *pos = e->samples, *fr = e->samples + 3 * (size_t)(n + 1);
    for (int k = 0; k <= n; k++) {
        xpbd_rod_sample(r, L * k / n, pos + 3 * k, frames ? fr + 9 * (size_t)k : R);
    }
    return e->samples;
}
