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

#include <stdlib.h>

_Static_assert(sizeof(void *) == 4, "the JS header layout assumes wasm32");
_Static_assert(offsetof(mech_data_arrays, nact) == 12 && offsetof(mech_data_arrays, q) == 16 &&
                   offsetof(mech_data_arrays, gravity) == 48,
               "keep HEADER in module.mjs in step");

static struct {
    char message[MECH_ERROR_MAX + 160];
    int line, col;
    int parse; /* 1: bad model text (MechError in JS) */
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

/* The handle's arrays (mech_data_arrays, HEADER in module.mjs), at a static
 * address valid until the next call. */
EMSCRIPTEN_KEEPALIVE const mech_data_arrays *mw_arrays(mw_sim *s)
{
    static mech_data_arrays a;
    mech_data_arrays_get(s, &a);
    return &a;
}

EMSCRIPTEN_KEEPALIVE void mw_close(mw_sim *s) { mech_data_free(s); }
EMSCRIPTEN_KEEPALIVE void mw_reset(mw_sim *s) { mech_data_reset(s); }
EMSCRIPTEN_KEEPALIVE int mw_reset_keyframe(mw_sim *s, int k) { return passed(s, mech_data_reset_keyframe(s, k)); }
/* Actuators: their ctrl is the last nu entries of act. */
EMSCRIPTEN_KEEPALIVE int mw_nu(const mw_sim *s) { return mech_model_sizes(mech_data_model(s)).nu; }

int mw_sim_forward(mw_sim *s)
{
    if (!s) return -1; /* a disposed Sim (index.mjs names it) */
    return passed(s, mech_data_forward(s));
}

EMSCRIPTEN_KEEPALIVE int mw_step(mw_sim *s, double dt, int n) { return passed(s, mech_data_step(s, dt, n)); }
/* The work one step costs (mech_data_step_work): units of docs/architecture.md, "Work per call". */
EMSCRIPTEN_KEEPALIVE double mw_step_work(const mw_sim *s) { return mech_data_step_work(s); }
/* Steps first + 1 to first + count of a call of n (mech_data_step_part): index.mjs runs a long call in parts
 * and looks at the clock between them. */
EMSCRIPTEN_KEEPALIVE int mw_step_part(mw_sim *s, double dt, int first, int count, int n)
{
    return passed(s, mech_data_step_part(s, dt, first, count, n));
}
EMSCRIPTEN_KEEPALIVE int mw_poses(mw_sim *s)
{
    mech_data_arrays a;
    mech_data_arrays_get(s, &a);
    return passed(s, mech_data_poses(s, a.poses));
}
/* Kinetic and potential energy into the arrays' energy buffer. */
EMSCRIPTEN_KEEPALIVE int mw_energy(mw_sim *s)
{
    mech_data_arrays a;
    mech_data_arrays_get(s, &a);
    return passed(s, mech_data_energy(s, a.energy));
}

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
 * frame), in a buffer shared by every handle of this module and overwritten
 * by the next call; NULL when out of memory (index.mjs gives zeros then). */
EMSCRIPTEN_KEEPALIVE const double *mw_ground_forces(const mw_sim *s)
{
    static double *buf;
    static size_t cap;
    size_t n = 3 * (size_t)mech_model_sizes(mech_data_model(s)).nb;
    if (n == 0) return NULL;
    if (n > cap) {
        double *grown = realloc(buf, n * sizeof *grown);
        if (!grown) return NULL;
        buf = grown;
        cap = n;
    }
    mech_data_ground_forces(s, buf);
    return buf;
}

/* ---- contacts and the floor (docs/contact.md, "The constraint solve") ---- */

static const double *contact_points, *contact_forces;

/* The last step's contacts (mech_data_contacts, any engine): their count,
 * their 6 values each then at mw_contact_points and (Featherstone) their 4
 * forces each at mw_contact_forces until the next call; -1 when out of
 * memory. */
EMSCRIPTEN_KEEPALIVE int mw_contact_count(mw_sim *s)
{
    contact_points = contact_forces = NULL;
    if (!s) return 0;
    int n = mech_data_contacts(s, &contact_points);
    if (n > 0 && mech_data_contact_forces(s, &contact_forces) < 0) n = -1;
    if (n < 0) mw_fail("out of memory");
    return n;
}
EMSCRIPTEN_KEEPALIVE const double *mw_contact_points(void) { return contact_points; }
EMSCRIPTEN_KEEPALIVE const double *mw_contact_forces(void) { return contact_forces; }

/* The floor on (at height) or off (mech_data_set_floor); its height, NaN when off. */
EMSCRIPTEN_KEEPALIVE int mw_set_floor(mw_sim *s, int on, double height)
{
    return passed(s, mech_data_set_floor(s, on, height));
}
EMSCRIPTEN_KEEPALIVE double mw_floor(const mw_sim *s)
{
    double h;
    return mech_data_floor(s, &h) ? h : __builtin_nan("");
}

/* The ms spent in the contact stage and the constraint solve since the run opened (mech_data_stage_times). */
EMSCRIPTEN_KEEPALIVE const double *mw_stage_times(const mw_sim *s)
{
    static double out[2];
    mech_data_stage_times(s, out);
    return out;
}

/* The last step's constraint solve: rows, sweeps, residual (mech_data_solver_stats). */
EMSCRIPTEN_KEEPALIVE const double *mw_solver_stats(const mw_sim *s)
{
    static double out[3];
    mech_data_solver_stats(s, out);
    return out;
}

/* The brake torque of band roller `body` at level 0..1 locked at `lock`
 * (mech_data_brake_torque); NaN when body is not a band's roller. */
EMSCRIPTEN_KEEPALIVE double mw_brake_torque(mw_sim *s, int body, double level, double lock)
{
    return mech_data_brake_torque(s, body, level, lock);
}

/* The terrain's heights h(xs[i], ys[j]) into out[j * nx + i]
 * (mech_model_ground_height, what the ground law reads; 0 without a
 * ground), for drawing it. */
EMSCRIPTEN_KEEPALIVE void mw_terrain_heights(const mw_sim *s, const double *xs, int nx, const double *ys, int ny,
                                             double *out)
{
    const mech_model *m = mech_data_model(s);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            out[(size_t)j * (size_t)nx + (size_t)i] = mech_model_ground_height(m, xs[i], ys[j]);
}

EMSCRIPTEN_KEEPALIVE const char *mw_name(const mw_sim *s) { return mech_model_name(mech_data_model(s)); }
EMSCRIPTEN_KEEPALIVE const char *mw_description(const mw_sim *s) { return mech_model_description(mech_data_model(s)); }
EMSCRIPTEN_KEEPALIVE const char *mw_body_name(const mw_sim *s, int i)
{
    return mech_model_body_name(mech_data_model(s), i);
}

/* The model as a malloc'd NUL-terminated JSON object (mech_model_describe;
 * free it with free), or NULL with the error set when out of memory. */
EMSCRIPTEN_KEEPALIVE char *mw_describe(const mw_sim *s)
{
    char *json = mech_model_describe(mech_data_model(s));
    if (!json) mw_fail("describe: out of memory");
    return json;
}

/* The timing loops of bench.c (sim.h). */
EMSCRIPTEN_KEEPALIVE double mw_bench_forward(mw_sim *s, int calls) { return mw_sim_bench_forward(s, calls); }
EMSCRIPTEN_KEEPALIVE double mw_bench_overhead(mw_sim *s, int calls) { return mw_sim_bench_overhead(s, calls); }
EMSCRIPTEN_KEEPALIVE double mw_bench_here(mw_sim *s, int calls) { return mw_sim_bench_here(s, calls); }
