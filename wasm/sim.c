/* sim.c — see sim.h.  The exports both module kinds share. */
#include "sim.h"

#include <emscripten.h>
#include <float.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rbda/energy.h"

_Static_assert(sizeof(void *) == 4, "the JS header layout assumes wasm32");
_Static_assert(offsetof(mw_sim, nact) == 12 && offsetof(mw_sim, q) == 16 &&
               offsetof(mw_sim, gravity) == 48, "keep HEADER in module.mjs in step");

static struct {
    char message[MECH_ERROR_MAX + 160];
    int line, col;
    int parse;             /* 1: bad model text (MechError in JS) */
} last_error;

void mw_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error.message, sizeof last_error.message, fmt, ap);
    va_end(ap);
    last_error.line = last_error.col = last_error.parse = 0;
}

void mw_fail_parse(const mech_error *err)
{
    mech_error_format(err, last_error.message, sizeof last_error.message);
    last_error.line = err->line;
    last_error.col = err->col;
    last_error.parse = 1;
}

EMSCRIPTEN_KEEPALIVE const char *mw_error_message(void) { return last_error.message; }
EMSCRIPTEN_KEEPALIVE int mw_error_line(void) { return last_error.line; }
EMSCRIPTEN_KEEPALIVE int mw_error_col(void) { return last_error.col; }
EMSCRIPTEN_KEEPALIVE int mw_error_is_parse(void) { return last_error.parse; }

/* Bytes currently allocated on the heap: the leak check of the Node suite. */
EMSCRIPTEN_KEEPALIVE size_t mw_heap_in_use(void) { return mallinfo().uordblks; }

EMSCRIPTEN_KEEPALIVE void mw_close(mw_sim *s)
{
    if (!s) return;
    if (s->ctx_free) s->ctx_free(s->ctx);
    if (s->stepper) s->stepper->free(s->stepper_state);
    dense_ws_free(s->dense_ws);
    mech_model_free(s->model);
    free(s->q);
    free(s);
}

EMSCRIPTEN_KEEPALIVE void mw_reset(mw_sim *s)
{
    mech_initial_state(s->model, s->q, s->qd);
    memset(s->tau, 0, sizeof(double) * (size_t)s->nv);
    memset(s->act, 0, sizeof(double) * (size_t)s->nact);
    memset(s->fext, 0, sizeof(double) * 6 * (size_t)s->nb);
    memset(s->qdd, 0, sizeof(double) * (size_t)s->nv);
    if (s->stepper) s->stepper->reset(s);
}

mw_sim *mw_sim_new(mech_model *m, int nact, mech_fd_fn fd, void *ctx, void (*ctx_free)(void *ctx))
{
    mw_sim *s = calloc(1, sizeof *s);
    /* One block for every state buffer: q qd tau act fext qdd poses energy vmid. */
    size_t n = (size_t)m->nq + 4 * (size_t)m->nv + (size_t)nact + 13 * (size_t)m->nb + 2;
    double *buf = s ? calloc(n, sizeof(double)) : NULL;
    if (!buf) {
        free(s);
        if (ctx_free) ctx_free(ctx);
        mech_model_free(m);
        mw_fail("out of memory");
        return NULL;
    }
    *s = (mw_sim){ .nq = m->nq, .nv = m->nv, .nb = m->nb, .nact = nact, .model = m,
                   .fd = fd, .ctx = ctx, .ctx_free = ctx_free };
    s->q = buf;
    s->qd = s->q + m->nq;
    s->tau = s->qd + m->nv;
    s->act = s->tau + m->nv;
    s->fext = s->act + nact;
    s->qdd = s->fext + 6 * m->nb;
    s->poses = s->qdd + m->nv;
    s->energy = s->poses + 7 * m->nb;
    s->vmid = s->energy + 2;
    mw_reset(s);
    return s;
}

/* 1 when every entry of v is finite.  It runs on every forward() call and
 * after every step, so it is one short loop of integer operations
 * (mw_out_of_range): per-entry comparisons cost forward() about twice as much
 * on threelink, a comparison folded into the OR 1.5x (docs/wasm.md,
 * "Benchmark"). */
static int all_finite(const double *v, int n)
{
    const uint64_t lim = mw_range_bits(DBL_MAX);
    uint64_t bad = 0;
#pragma clang loop unroll(disable)
    for (int i = 0; i < n; i++) bad |= mw_out_of_range(v[i], lim);
    return !(bad >> 63);
}

/* Names the first non-finite entry of v (there is one) in the error; -1.
 * Kept out of line so that the callers' fast paths need no stack frame for
 * mw_fail's varargs. */
__attribute__((noinline)) static int fail_finite(const char *what, const char *name, const double *v)
{
    int i = 0;
    while (isfinite(v[i])) i++;
    mw_fail("%s: %s[%d] is %s", what, name, i, isnan(v[i]) ? "NaN" : "infinite");
    return -1;
}

/* 0 when every entry of v is finite, else fails naming the first bad one. */
static inline int check_finite(const char *what, const char *name, const double *v, int n)
{
    return all_finite(v, n) ? 0 : fail_finite(what, name, v);
}

/* 0 when the dynamics can be evaluated at the current inputs, else fails
 * naming the first bad one.  Only the fext slots of bodies that read them
 * (`fext 1`) count. */
static int check_inputs(const mw_sim *s, const char *what)
{
    if (check_finite(what, "q", s->q, s->nq) || check_finite(what, "qd", s->qd, s->nv) ||
        check_finite(what, "tau", s->tau, s->nv) || check_finite(what, "act", s->act, s->nact) ||
        (s->gravity && check_finite(what, "gravity", s->gravity, 3)))
        return -1;
    for (int i = 0; i < s->nb; i++) {
        const mech_body *b = &s->model->bodies[i];
        const double *Q = s->q + b->qidx, *f = s->fext + 6 * i;
        for (int k = 0; b->fext && k < 6; k++)
            if (!isfinite(f[k])) {
                mw_fail("%s: fext[%d] (body '%s') is %s", what, 6 * i + k, b->name,
                        isnan(f[k]) ? "NaN" : "infinite");
                return -1;
            }
        if (b->joint == MECH_JOINT_FLOATING &&
            Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3] < 1e-12) {
            mw_fail("%s: the quaternion q[%d..%d] of body '%s' is zero", what, b->qidx,
                    b->qidx + 3, b->name);
            return -1;
        }
    }
    return 0;
}

/* Why forward() failed, once mw_sim_forward has seen a non-finite state or
 * result: the error names the first bad entry. */
__attribute__((noinline)) static int forward_failed(mw_sim *s)
{
    if (!check_finite("forward", "q", s->q, s->nq) && !check_finite("forward", "qd", s->qd, s->nv) &&
        !check_inputs(s, "forward"))
        mw_fail("forward: the dynamics gave a non-finite qdd from finite inputs");
    return -1;
}

/* The state is checked before, the result after: a bad tau, act, fext (on
 * a body that reads it), gravity or quaternion always shows in qdd, and only
 * then are the inputs scanned to name it.  Inputs the model never reads
 * (fext slots of bodies without `fext 1`) are not errors. */
int mw_sim_forward(mw_sim *s)
{
    if (!s) return -1; /* a disposed Sim (index.mjs names it) */
    if (!all_finite(s->q, s->nq + s->nv)) return forward_failed(s); /* q, qd: one block (mw_sim_new) */
    s->fd(s->ctx, s->q, s->qd, s->tau, s->fext, s->qdd);
    if (all_finite(s->qdd, s->nv)) return 0;
    return forward_failed(s);
}

EMSCRIPTEN_KEEPALIVE int mw_step(mw_sim *s, double dt, int n)
{
    if (!(dt > 0) || !isfinite(dt)) {
        mw_fail("step: dt must be a positive finite number of seconds, got %g", dt);
        return -1;
    }
    if (n < 0) {
        mw_fail("step: n must be a non-negative integer, got %d", n);
        return -1;
    }
    if (check_inputs(s, "step")) return -1;
    for (int k = 0; k < n; k++) {
        if (s->stepper) s->stepper->step(s, dt);
        else mech_step_verlet(s->model, s->fd, s->ctx, s->q, s->qd, s->tau, s->fext, s->qdd, s->vmid, dt);
        if (check_finite("step", "q", s->q, s->nq) || check_finite("step", "qd", s->qd, s->nv)) {
            char why[sizeof last_error.message];
            memcpy(why, last_error.message, sizeof why);
            mw_fail("%s after step %d of %d: the simulation blew up (reset() recovers)",
                    why, k + 1, n);
            return -1;
        }
    }
    return 0;
}

EMSCRIPTEN_KEEPALIVE void mw_poses(mw_sim *s)
{
    if (s->stepper) s->stepper->poses(s);
    else mech_body_poses(s->model, s->q, s->poses);
}

dense_ws *mw_dense_ws(mw_sim *s)
{
    if (!s->dense_ws && !(s->dense_ws = dense_ws_new(s->model))) mw_fail("out of memory");
    return s->dense_ws;
}

/* Kinetic and potential energy of (q, qd) into s->energy; 0, or -1 with the
 * error set. */
EMSCRIPTEN_KEEPALIVE int mw_energy(mw_sim *s)
{
    if (check_finite("energy", "q", s->q, s->nq) || check_finite("energy", "qd", s->qd, s->nv))
        return -1;
    dense_ws *ws = mw_dense_ws(s);
    if (!ws) return -1;
    mech_energy(s->model, ws, s->q, s->qd, &s->energy[0], &s->energy[1]);
    return 0;
}

EMSCRIPTEN_KEEPALIVE const char *mw_name(const mw_sim *s) { return s->model->name; }
EMSCRIPTEN_KEEPALIVE const char *mw_description(const mw_sim *s) { return s->model->description; }
EMSCRIPTEN_KEEPALIVE const char *mw_body_name(const mw_sim *s, int i)
{
    return i >= 0 && i < s->nb ? s->model->bodies[i].name : "";
}

/* The bench loop of bench.c over this handle's backend; see bench.h. */
EMSCRIPTEN_KEEPALIVE double mw_bench_forward(mw_sim *s, int calls)
{
    double sum = mech_bench_forward(s->model, s->fd, s->ctx, calls);
    if (isnan(sum)) mw_fail("bench: out of memory");
    return sum;
}

/* The same loop over the null backend: the call overhead (bench.h). */
EMSCRIPTEN_KEEPALIVE double mw_bench_overhead(mw_sim *s, int calls)
{
    mech_bench_gen_fn null = mech_bench_null_gen;
    double sum = mech_bench_forward(s->model, mech_bench_null_fd, &null, calls);
    if (isnan(sum)) mw_fail("bench: out of memory");
    return sum;
}

/* `calls` evaluations of the backend at the handle's current state, with
 * none of mw_forward's checks: what forward() costs inside WebAssembly, for
 * splitting the cost of forward() from JS into dynamics and API.  Returns a
 * checksum. */
EMSCRIPTEN_KEEPALIVE double mw_bench_here(mw_sim *s, int calls)
{
    double sum = 0;
    for (int c = 0; c < calls; c++) {
        s->fd(s->ctx, s->q, s->qd, s->tau, s->fext, s->qdd);
        sum += s->nv ? s->qdd[c % s->nv] : 0;
    }
    return sum;
}
