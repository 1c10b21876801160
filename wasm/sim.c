/* sim.c — see sim.h.  The exports both module kinds share, each one call
 * of mech/sim.h with its error passed on. */
#include "sim.h"

#include <emscripten.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "contact/contact.h"
#include "contact/terrain.h"

_Static_assert(sizeof(void *) == 4, "the JS header layout assumes wasm32");
_Static_assert(offsetof(mech_data, nact) == 12 && offsetof(mech_data, q) == 16 &&
               offsetof(mech_data, gravity) == 48, "keep HEADER in module.mjs in step");

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

mech_model *mw_parse(const char *text, size_t len, const char *name)
{
    mech_error err;
    mech_model *m = mech_model_parse(text, len, name, &err);
    if (!m) mw_fail_parse(&err);
    return m;
}

mw_sim *mw_sim_adopt(mech_data *d, mech_model *m, const mech_error *err)
{
    if (!d) {
        mech_model_free(m);
        if (err->line) mw_fail_parse(err);
        else mw_fail("%s: %s", err->file, err->message);
        return NULL;
    }
    mech_data_adopt_model(d, m);
    return d;
}

/* A verb's status, its error passed on. */
static int passed(mw_sim *s, int status)
{
    if (status) mw_fail("%s", mech_data_error(s)->message);
    return status;
}

EMSCRIPTEN_KEEPALIVE void mw_close(mw_sim *s) { mech_data_free(s); }
EMSCRIPTEN_KEEPALIVE void mw_reset(mw_sim *s) { mech_data_reset(s); }

int mw_sim_forward(mw_sim *s)
{
    if (!s) return -1; /* a disposed Sim (index.mjs names it) */
    return passed(s, mech_data_forward(s));
}

EMSCRIPTEN_KEEPALIVE int mw_step(mw_sim *s, double dt, int n) { return passed(s, mech_data_step(s, dt, n)); }
EMSCRIPTEN_KEEPALIVE int mw_poses(mw_sim *s) { return passed(s, mech_data_poses(s, s->poses)); }
/* Kinetic and potential energy into the header's energy array. */
EMSCRIPTEN_KEEPALIVE int mw_energy(mw_sim *s) { return passed(s, mech_data_energy(s, s->energy)); }

/* Per body world velocity, origin then angular, into out (6 nb). */
EMSCRIPTEN_KEEPALIVE int mw_velocities(mw_sim *s, double *out) { return passed(s, mech_data_velocities(s, out)); }

/* The run's state (mech_data_state_save): its size in doubles, a copy into
 * out, and back from in (n doubles, refused unless a state of this run). */
EMSCRIPTEN_KEEPALIVE int mw_state_size(const mw_sim *s) { return mech_data_state_size(s); }
EMSCRIPTEN_KEEPALIVE void mw_state_save(mw_sim *s, double *out) { mech_data_state_save(s, out); }
EMSCRIPTEN_KEEPALIVE int mw_state_restore(mw_sim *s, const double *in, int n)
{
    return passed(s, mech_data_state_restore(s, in, n));
}

/* The total force the ground applied in the last step (N, base frame), at a
 * static address valid until the next call. */
EMSCRIPTEN_KEEPALIVE const double *mw_ground_reaction(const mw_sim *s)
{
    static double f[3];
    mech_data_ground_reaction(s, f);
    return f;
}

/* The ground's force on each body in the last step (3 per body, N, base
 * frame), in the contact stage's memory; NULL for a model without contact. */
EMSCRIPTEN_KEEPALIVE const double *mw_ground_forces(const mw_sim *s)
{
    return s->contact ? contact_ground_forces(s->contact) : NULL;
}

/* The brake torque of band roller `body` at level 0..1 locked at `lock`
 * (mech_data_brake_torque); NaN when body is not a band's roller. */
EMSCRIPTEN_KEEPALIVE double mw_brake_torque(mw_sim *s, int body, double level, double lock)
{
    return mech_data_brake_torque(s, body, level, lock);
}

/* The terrain's heights h(xs[i], ys[j]) into out[j * nx + i] (terrain.c,
 * what the ground law reads; 0 without a ground), for drawing it. */
EMSCRIPTEN_KEEPALIVE void mw_terrain_heights(const mw_sim *s, const double *xs, int nx, const double *ys, int ny,
                                             double *out)
{
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double hx, hy;
            terrain_eval(&s->model->ground, xs[i], ys[j], &out[(size_t)j * (size_t)nx + (size_t)i], &hx, &hy);
        }
}

EMSCRIPTEN_KEEPALIVE const char *mw_name(const mw_sim *s) { return s->model->name; }
EMSCRIPTEN_KEEPALIVE const char *mw_description(const mw_sim *s) { return s->model->description; }
EMSCRIPTEN_KEEPALIVE const char *mw_body_name(const mw_sim *s, int i) { return mech_model_body_name(s->model, i); }

/* The bench loop of bench.c over this handle's forward dynamics; see bench.h. */
EMSCRIPTEN_KEEPALIVE double mw_bench_forward(mw_sim *s, int calls)
{
    if (!s->engine->fd) {
        mw_fail("bench: engine '%s' has no forward dynamics", s->engine->name);
        return NAN;
    }
    double sum = mech_bench_forward(s->model, mech_data_fd(s), s, calls);
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

/* `calls` evaluations of the forward dynamics at the handle's current
 * state, with none of mw_forward's checks: what forward() costs inside
 * WebAssembly, for splitting the cost of forward() from JS into dynamics and
 * API.  Returns a checksum. */
EMSCRIPTEN_KEEPALIVE double mw_bench_here(mw_sim *s, int calls)
{
    double sum = 0;
    if (!s->engine->fd) return NAN;
    for (int c = 0; c < calls; c++) {
        s->engine->fd(s, s->q, s->qd, s->tau, s->fext, s->qdd);
        sum += s->nv ? s->qdd[c % s->nv] : 0;
    }
    return sum;
}
