/* xpbd.c — the XPBD engine in the runtime module: any tree or loop .mech
 * text run as maximal-coordinate bodies (core/xpbd/xpbd_from_model.h) behind
 * the same handle as the Featherstone runtime (sim.h).
 *
 * step() is one XPBD step of dt with the file's substeps, iterations and
 * solve mode; tau and fext (bodies with `fext 1`) are applied as body
 * wrenches, gravity is read on every step.  q and qd are then read back
 * from the bodies (xpbd_mech_joint_state); poses() are the XPBD bodies'
 * own.  forward() and energy() stay Featherstone's, at the read-back q, qd. */
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
    xpbd_data_reset(&e->d, &e->x.m);
    e->d.record_residuals = 1;
    e->residuals[0] = e->residuals[1] = 0;
}

static void xp_free(void *state)
{
    mw_xpbd *e = state;
    xpbd_data_free(&e->d);
    xpbd_mech_free(&e->x);
    free(e);
}

static const mw_stepper xpbd_stepper = { xp_step, xp_poses, xp_reset, xp_free };

/* A handle running `len` bytes of .mech text on XPBD, or NULL with the error
 * set: a parse error (file:line:col), or what XPBD cannot run. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open_text_xpbd(const char *text, size_t len, const char *name)
{
    mech_error err;
    char why[256];
    mech_model *m = mech_parse(text, len, name, &err);
    if (!m) {
        mw_fail_parse(&err);
        return NULL;
    }
    mw_xpbd *x = calloc(1, sizeof *x);
    if (!x || xpbd_from_model(m, &x->x, why, sizeof why)) {
        if (x) mw_fail("%s: XPBD: %s", name, why);
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
