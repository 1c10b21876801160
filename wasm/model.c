/* model.c — the per-model module: one shipped model's generated forward
 * dynamics (core/codegen) plus its .mech text, which the shared parser turns
 * into the mech_model its run (mech_data_new_generated) reads.
 * cmake/wasm_modules.cmake (mech_wasm_module) compiles it once per model with
 *   -DMW_GEN=mechgen_<model> -DMW_GEN_SOURCE="<model>.c"
 * and a <model>_text.c defining mw_model_text. */
#include <emscripten.h>
#include <float.h>
#include <stddef.h>

#include "mech/featherstone.h"
#include "sim.h"
#include "sim/data.h"

/* The generated source itself, not only its header: in this translation unit
 * its descriptor MW_GEN is a constant the compiler reads through, so
 * mw_forward below knows nq, nv and the generated functions at compile time
 * (direct calls, checks unrolled over a fixed count). */
#include MW_GEN_SOURCE

extern const unsigned char mw_model_text[];
extern const size_t mw_model_text_len;

/* The name of the module's model (scene.c names it in its errors). */
const char *mw_model_name(void);
const char *mw_model_name(void) { return MW_GEN.name; }

/* The generated engine's forward dynamics with the descriptor a constant:
 * direct calls the compiler sees through (inlined), where the engine's own
 * fd and fd_own_gravity call through the descriptor. */
static void model_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    const mech_data *d = ctx;
    MW_GEN.fwd_dyn(q, qd, tau, fext, d->act, d->gravity, qdd);
}

static void model_fd_own_gravity(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                                 double *qdd)
{
    const mech_data *d = ctx;
    MW_GEN.fwd_dyn_own_gravity(q, qd, tau, fext, d->act, qdd);
}

/* The generated engine's step (featherstone_engine.c) with its calls
 * direct: Verlet over model_fd_own_gravity or model_fd, whichever
 * mech_data_fd picked for this step(dt, n), and the step's forces by
 * mech_data_step_forces_inline, the joint forces by mech_data_step_tau;
 * the same arithmetic in the same order.
 * Euler and implicit models, and runs through the constraint solve, take the
 * engine's own step. */
static int (*engine_step)(mech_data *d, double dt);

static int model_step(mech_data *d, double dt)
{
    if (d->model->integrator != MECH_INTEGRATOR_VERLET || mech_data_constrained(d)) return engine_step(d, dt);
    const double *tau = mech_data_step_tau(d);
    if (!tau) return -1;
    if (d->fd == model_fd_own_gravity)
        return mech_step_verlet_forced_inline(d->model, model_fd_own_gravity, d, mech_data_step_forces_inline, d, d->q,
                                              d->qd, tau, d->qdd, d->vmid, !d->contact, dt);
    return mech_step_verlet_forced_inline(d->model, model_fd, d, mech_data_step_forces_inline, d, d->q, d->qd, tau,
                                          d->qdd, d->vmid, !d->contact, dt);
}

/* step(dt, n): mech_data_step's loop and checks with model_step called directly. */
static int model_steps(mech_data *d, double dt, int n) { return mech_data_run_steps(d, dt, n, model_step); }

/* The generated engine (mech_data_new_generated) with model_fd,
 * model_fd_own_gravity and model_steps: stepping, forward() and the bench
 * loops all take the direct calls. */
static mech_engine model_engine;

/* A handle on this module's model, or NULL with the error set. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open(void)
{
    mech_model *m = mw_parse((const char *)mw_model_text, mw_model_text_len, MW_GEN.name);
    if (!m) return NULL;
    mech_error err;
    mw_sim *s = mw_sim_adopt(mech_data_new_generated(m, &MW_GEN, &err), m, &err);
    if (s) {
        model_engine = *s->engine;
        model_engine.fd = model_fd;
        model_engine.fd_own_gravity = model_fd_own_gravity;
        engine_step = model_engine.step;
        model_engine.steps = model_steps;
        s->engine = &model_engine;
    }
    return s;
}

/* Bit 63 set when an entry of v[0..n) is beyond +-max or NaN; n is a
 * compile-time constant here, so the loop unrolls into straight-line code (a
 * loop costs a V8 back-edge check and spills around it). */
static inline uint64_t out_of_range(const double *v, int n, double max)
{
    const uint64_t lim = mech_range_bits(max);
    uint64_t bad = 0;
    for (int i = 0; i < n; i++) bad |= mech_out_of_range(v[i], lim);
    return bad;
}

/* Bit 63 set when g is not the model's gravity bit for bit (diff | -diff has
 * it exactly when diff is not 0): ORed into the range test, no branch of its
 * own. */
static inline uint64_t other_gravity(const double *g)
{
    uint64_t diff = 0;
    for (int k = 0; k < 3; k++) diff |= mech_range_bits(g[k]) ^ mech_range_bits(MW_GEN.gravity[k]);
    return diff | (0 - diff);
}

/* forward(): the generated code at the model's gravity called directly when
 * every q and qd is in range (its unchecked copy fwd_dyn_own_gravity_near,
 * when the model has one, for entries within +-MECH_SINCOS_MAX; else
 * fwd_dyn_own_gravity for finite ones) and, unless the caller knows it is
 * (model_gravity), the gravity is the model's; qdd checked after the call;
 * anything else (another gravity, a bad input (q, qd or act), a disposed handle, a
 * non-finite qdd) goes through mw_sim_forward, which runs fwd_dyn or names
 * the bad entry.  Measured: docs/benchmarks.md, "WebAssembly forward dynamics". */
static inline int forward(mw_sim *s, int model_gravity)
{
    const mech_fwd_dyn_own_fn fd =
        MW_GEN.fwd_dyn_own_gravity_near ? MW_GEN.fwd_dyn_own_gravity_near : MW_GEN.fwd_dyn_own_gravity;
    const double range = MW_GEN.fwd_dyn_own_gravity_near ? MECH_SINCOS_MAX : DBL_MAX;
    /* q, qd: one block (mech_data_new); gravity read where s->gravity points, at a fixed offset */
    /* act too, when the model has inputs: a clamped ctrl would hide a NaN, which mw_sim_forward names */
    if (s && !((out_of_range(s->q, MW_GEN.nq + MW_GEN.nv, range) |
                (MW_GEN.nact ? out_of_range(s->act, MW_GEN.nact, DBL_MAX) : 0) |
                (model_gravity ? 0 : other_gravity(s->eval.gravity))) >>
               63)) {
        fd(s->q, s->qd, s->tau, s->fext, s->act, s->qdd);
        if (!(out_of_range(s->qdd, MW_GEN.nv, DBL_MAX) >> 63)) return 0;
    }
    return mw_sim_forward(s);
}

EMSCRIPTEN_KEEPALIVE int mw_forward(mw_sim *s) { return forward(s, 0); }

/* mw_forward for a handle whose gravity nobody can have changed: the shim's
 * Sim until it hands out its gravity view, the one way to write it
 * (restoreState and reset keep it).  Three loads and compares fewer on every
 * call, which is a measurable share of a small model's forward()
 * (docs/benchmarks.md, "Measured reasons in the code"). */
EMSCRIPTEN_KEEPALIVE int mw_forward_model_gravity(mw_sim *s) { return forward(s, 1); }

/* Which generator version produced this module's code. */
EMSCRIPTEN_KEEPALIVE const char *mw_generator(void) { return MW_GEN.generator; }
