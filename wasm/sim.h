/* sim.h — one simulation handle inside a WebAssembly module.
 *
 * This is the C half of wasm/index.mjs, shared by both kinds of module: the
 * runtime engine (runtime.c: parser + ABA, runs any .mech text) and the
 * per-model modules (model.c: one model's generated dynamics).  A handle owns
 * its parsed model, the state buffers JavaScript views in place, and the
 * workspace of its forward-dynamics backend.  All dynamics come from core/;
 * nothing here computes any.
 *
 * Every exported function reports failure through mw_error_message/line/col
 * and returns normally: no abort, no trap, no stdio, so the module imports
 * nothing but the memory-growth notification and stays usable after errors.
 */
#ifndef MECH_WASM_SIM_H
#define MECH_WASM_SIM_H

#include <stdint.h>
#include <string.h>

#include "generated.h"
#include "model/model.h"
#include "rbda/dense.h"
#include "sim/integrate.h"

typedef struct mw_sim {
    /* The header index.mjs reads as int32 words at the handle's address, in
     * this order (wasm32: pointers are 32-bit).  Keep HEADER in module.mjs in
     * step; sim.c checks the offsets at compile time. */
    int32_t nq, nv, nb, nact;
    double *q, *qd, *tau, *act, *fext, *qdd, *poses;
    double *energy;        /* [kinetic, potential], written by mw_energy         */
    double *gravity;       /* the model's gravity when the backend reads it at   */
                           /* run time (runtime engine), else NULL (generated)   */
    /* Private to sim.c (and the stepper, when there is one). */
    mech_model *model;
    const struct mw_stepper *stepper; /* NULL: Störmer–Verlet over fd        */
    void *stepper_state;
    dense_ws *dense_ws;    /* dense kinematics scratch for energy and observe, */
                           /* made on first use (mw_dense_ws)                    */
    double *vmid;          /* Verlet's midpoint velocity scratch (nv)             */
    mech_fd_fn fd;
    void *ctx;
    void (*ctx_free)(void *ctx);
} mw_sim;

/* An engine that advances the state itself instead of the integrator
 * (XPBD, wasm/xpbd.c): step() moves one step of dt and writes q and qd,
 * poses() fills s->poses, reset() returns to the initial state, free()
 * releases stepper_state.  forward() keeps using fd. */
typedef struct mw_stepper {
    void (*step)(struct mw_sim *s, double dt);
    void (*poses)(struct mw_sim *s);
    void (*reset)(struct mw_sim *s);
    void (*free)(void *state);
} mw_stepper;

/* A handle over `m` (taken over: freed on failure or by mw_close) whose
 * forward dynamics is fd(ctx, ...) (ctx freed by ctx_free, which may be
 * NULL), state set to the model's initial state.  NULL with the error set
 * when out of memory. */
mw_sim *mw_sim_new(mech_model *m, int nact, mech_fd_fn fd, void *ctx, void (*ctx_free)(void *ctx));

/* forward() on any handle: qdd = fd(q, qd, tau, fext, act) when q and qd are
 * finite, then qdd checked; 0, or -1 with the error naming the first bad
 * input.  Each module exports it as mw_forward, a per-model module after its
 * own fast path (model.c). */
int mw_sim_forward(mw_sim *s);

/* Bit 63 set exactly when |x| > max or x is NaN, lim being max's bits: the
 * magnitude's bit pattern orders like the magnitude, and adding
 * 2^63 - 1 - lim carries into bit 63 exactly when it is larger (for
 * max = DBL_MAX: when its exponent bits are all set).  OR it over entries and
 * test once: no comparison or branch per entry, no floating-point chain. */
static inline uint64_t mw_out_of_range(double x, uint64_t lim)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits & 0x7fffffffffffffffu) + (0x7fffffffffffffffu - lim);
}

/* max's bits, for mw_out_of_range. */
static inline uint64_t mw_range_bits(double max)
{
    uint64_t lim;
    memcpy(&lim, &max, sizeof lim);
    return lim;
}

/* The handle's dense workspace (core/rbda/dense.h), made on first use; NULL
 * with the error set when out of memory. */
dense_ws *mw_dense_ws(mw_sim *s);

/* Record an error (printf-style) / a parse error, for mw_error_*. */
void mw_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mw_fail_parse(const mech_error *err);

#endif
