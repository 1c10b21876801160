/* data.h — inside a mech_data (mech/sim.h): the run's arrays, the engine
 * that advances them, and the interface every engine implements.
 *
 * An engine is a table of functions over one mech_data (mech_engine below),
 * like MuJoCo's stages over mjData: featherstone_engine.c holds the ABA and
 * generated-code engines, core/xpbd/xpbd_engine.c the XPBD one.  data.c owns
 * everything they share: allocation, the input and output checks, the
 * producers stage of a step and the work cap.  An engine never sees another
 * engine's state. */
#ifndef MECH_SIM_DATA_H
#define MECH_SIM_DATA_H

#include <float.h>
#include <stdint.h>

#include "contact/constraint.h"
#include "contact/contact.h"
#include "mech/contact.h"
#include "mech/sim.h"
#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/kinematics.h"
#include "sim/integrate.h"

typedef struct mech_engine {
    const char *name;
    /* Forward dynamics as a mech_fd_fn (sim/integrate.h) with ctx the run
     * (tau at the call's, act and gravity the run's); NULL when the engine
     * has no accelerations. */
    mech_fd_fn fd;
    /* NULL, or fd at the model's own gravity, the gravity input unread
     * (mech_data_fd picks it). */
    mech_fd_fn fd_own_gravity;
    /* One step of dt; writes q, qd (and qdd when it has them).  It takes
     * the step's external force from mech_data_step_forces where its scheme
     * evaluates forces.  0, or -1 when that failed (the error is set). */
    int (*step)(mech_data *d, double dt);
    void (*poses)(mech_data *d, double *out);
    /* 0, or -1 with the error set (out of memory for a workspace). */
    int (*observe)(mech_data *d, double *out);
    int (*energy)(mech_data *d, double e[2]);
    void (*reset)(mech_data *d);
    /* 0 when every value of the engine's own state is finite, else -1 with
     * the error naming it (NULL: its state is q and qd alone). */
    int (*check)(mech_data *d, const char *what);
    /* Per body world velocity, origin then angular (mech_data_velocities);
     * 0, or -1 with the error set. */
    int (*velocities)(mech_data *d, double *out);
    /* The engine's own state beyond the run's (mech_data_state_save): its
     * size in doubles, copied into buf (save) or out of it (restore); buf
     * NULL only counts.  NULL: the engine keeps none. */
    int (*state_copy)(mech_data *d, double *buf, int save);
    /* The last `reports` values of that state are reports of the last step
     * (XPBD's residuals) that no step reads: restored as saved, unchecked,
     * so that whatever a save holds (an infinite residual of a huge model)
     * restores. */
    int reports;
    /* The work of one step (mech_data_step_work). */
    double (*step_work)(const mech_data *d);
    void (*free)(mech_data *d);
    /* NULL, or n steps of dt as mech_data_run_steps runs them over step,
     * for an engine that can call its step directly (wasm/model.c): the
     * loop and its checks are mech_data_run_steps's, compiled where the
     * step is known. */
    int (*steps)(mech_data *d, double dt, int n);
} mech_engine;

struct mech_data {
    /* The sizes and the live arrays (mech_data_arrays_get hands them to a
     * binding, mech/sim.h). */
    int32_t nq, nv, nb, nact;
    double *q, *qd, *tau, *act, *fext, *qdd, *poses;
    double *energy;  /* [kinetic, potential] of the last mech_data_energy */
    double *gravity; /* = eval.gravity */

    const mech_model *model;
    /* The model as this run's Featherstone code reads it: a shallow copy of
     * *model (its arrays are the model's, never written) whose gravity is
     * the run's input.  So gravity changes with no write into the model. */
    mech_model eval;
    const mech_engine *engine;
    mech_fd_fn fd;     /* the engine's forward dynamics for this step(dt, n) (mech_data_fd) */
    void *state;       /* the engine's own */
    mech_model *owned; /* freed with the data (mech_data_adopt_model) */
    double time;
    double *fstep;             /* 6 nb: fext plus the contact stage's and the producers' forces */
    contact_state *contact;    /* models with a band or a ground, else NULL */
    constraint_solve *cs;      /* Featherstone runs with contacts, limits or friction loss (or the floor), else NULL */
    int cs_failed;             /* the solve ran out of memory in this step */
    double stage_ms[2];        /* ms in the contact stage and the constraint solve since the run opened (a report) */
    double *cpoints, *cforces; /* mech_data_contacts' and mech_data_contact_forces' buffers */
    double *vmid;              /* Verlet's midpoint velocity (nv) */
    double *tstep;             /* nv: tau plus the fext of bodies that do not read it (mech_data_step_tau) */
    int pushed;                /* such a body has fext in this step(dt, n): found once per call */
    int part_first, part_n;    /* this part's first step and the call's n (mech_data_step_part), for messages */
    mech_body_kin *kin;        /* nb, made on first use */
    dense_ws *dense;           /* dense kinematics for energy and observe, made on first use */
    int nproducer;
    struct {
        mech_producer_fn fn;
        void *user;
    } producer[MECH_MAX_PRODUCERS];
    mech_error error;
};

/* A run of m on `engine` with engine state `state` (freed by engine->free on
 * failure); state at the model's initial state.  NULL with *err filled. */
mech_data *mech_data_new(const mech_model *m, const mech_engine *engine, void *state, mech_error *err);

/* Fill *err (no place, file = the model's name, printf-style message) for a
 * constructor that fails; returns NULL. */
void *mech_error_fail(mech_error *err, const mech_model *m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The external force of a step of dt at (q, qd) into *fext (a
 * mech_forces_fn with ctx = d): the user's fext, plus the contact stage's
 * and the producers' when the run has them.  Producers read d's q and qd,
 * which the schemes update in place, so q and qd are those arrays.  -1 with
 * the error set when a producer fails or a force is not finite. */
int mech_data_step_forces(void *d, const double *q, const double *qd, double dt, const double **fext);

/* mech_data_step_tau when some body pushed (d->pushed): tau plus the J^T f
 * of those pushes in d->tstep; NULL with the error set when out of memory. */
const double *mech_data_step_tau_pushed(mech_data *d);

/* The joint forces of a Featherstone step at (q): tau, plus J^T f for the
 * fext of every body that does not declare `fext 1` (its chain's joints).
 * d->tau itself when there is none: inline, no call on every step. */
static inline const double *mech_data_step_tau(mech_data *d)
{
    return d->pushed ? mech_data_step_tau_pushed(d) : d->tau;
}

/* World kinematics of every body at d's q and the velocity qd (NULL: at
 * rest), into d->kin; NULL with the error set when out of memory. */
const mech_body_kin *mech_data_kinematics(mech_data *d, const double *qd);

/* The contact stage's and the producers' part of it: fext plus their
 * forces in d->fstep, returned; NULL with the error set when a producer
 * failed or a force is not finite. */
const double *mech_data_step_fstep(mech_data *d, const double *q, const double *qd, double dt);

/* mech_data_step_forces inline: without contact and producers the user's
 * fext, taken with no call (and no address of *fext escaping, so a caller
 * compiled with it keeps the pointer in a register). */
static inline int mech_data_step_forces_inline(void *ctx, const double *q, const double *qd, double dt,
                                               const double **fext)
{
    mech_data *d = ctx;
    const double *f = d->fext;
    if ((d->contact || d->nproducer) && !(f = mech_data_step_fstep(d, q, qd, dt))) return -1;
    *fext = f;
    return 0;
}

/* 1 when the run's Featherstone steps go through the constraint solve. */
static inline int mech_data_constrained(const mech_data *d) { return d->cs && constraint_active(d->cs); }

/* The engine's forward dynamics (d->fd) followed by the constraint solve
 * (contact/constraint.h): a mech_fd_fn with ctx the run. */
void mech_data_constrained_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                              double *qdd);

/* The last step's contacts of a Featherstone run (mech_data_contacts,
 * mech_data_contact_forces). */
int mech_data_featherstone_contacts(mech_data *d, const double **out, int forces);

/* n doubles between a state buffer and v: v into buf[at..] (save) or back
 * (restore); nothing when buf is NULL.  Returns at + n. */
static inline int mech_state_copy(double *buf, int at, double *v, int n, int save)
{
    if (buf && n) {
        if (save) __builtin_memcpy(buf + at, v, (size_t)n * sizeof *v);
        else __builtin_memcpy(v, buf + at, (size_t)n * sizeof *v);
    }
    return at + n;
}

/* Record an error on d (printf-style); returns -1. */
int mech_data_fail(mech_data *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 0 when v[0..n) is finite, else -1 with "what: name[i] is NaN" on d. */
static inline int mech_data_check_finite(mech_data *d, const char *what, const char *name, const double *v, int n);

/* The engine's forward dynamics at the run's gravity as it is now: its
 * fd_own_gravity when the gravity is the model's, else fd.  Gravity is an
 * input, so a verb picks once for all the calls it makes. */
mech_fd_fn mech_data_fd(const mech_data *d);

/* The dense workspace, made on first use; NULL with the error set. */
dense_ws *mech_data_dense(mech_data *d);

/* Bit 63 set exactly when |x| > max or x is NaN, lim being max's bits: the
 * magnitude's bit pattern orders like the magnitude, and adding
 * 2^63 - 1 - lim carries into bit 63 exactly when it is larger (for
 * max = DBL_MAX: when its exponent bits are all set).  OR it over entries and
 * test once: no comparison or branch per entry, no floating-point chain. */
static inline uint64_t mech_out_of_range(double x, uint64_t lim)
{
    uint64_t bits;
    __builtin_memcpy(&bits, &x, sizeof bits);
    return (bits & 0x7fffffffffffffffu) + (0x7fffffffffffffffu - lim);
}

/* max's bits, for mech_out_of_range. */
static inline uint64_t mech_range_bits(double max)
{
    uint64_t lim;
    __builtin_memcpy(&lim, &max, sizeof lim);
    return lim;
}

/* 1 when every entry of v is finite: one short loop of integer operations
 * (mech_out_of_range), as it runs on every forward() and after every step. */
static inline int mech_all_finite(const double *v, int n)
{
    const uint64_t lim = mech_range_bits(DBL_MAX);
    uint64_t bad = 0;
#if defined(__clang__)
#pragma clang loop unroll(disable)
#endif
    for (int i = 0; i < n; i++) bad |= mech_out_of_range(v[i], lim);
    return !(bad >> 63);
}

/* Names the first non-finite entry of v (there is one) on d; -1.  Out of
 * line, so that the callers' fast paths need no frame for the varargs. */
int mech_data_fail_finite(mech_data *d, const char *what, const char *name, const double *v);

static inline int mech_data_check_finite(mech_data *d, const char *what, const char *name, const double *v, int n)
{
    return mech_all_finite(v, n) ? 0 : mech_data_fail_finite(d, what, name, v);
}

/* The error of a step(dt, n) that stopped after step k + 1 of the part
 * under way (mech_data_step_part) on a non-finite state (the check's
 * message on d, extended, with the step counted in the call's n); -1. */
int mech_data_blew_up(mech_data *d, int k);

/* n steps of dt by step, each followed by the state's checks (q and qd
 * finite, then the engine's check); the first failure stops the run.  The
 * loop of mech_data_step, inline so that an engine's steps (mech_engine)
 * runs it with its own step called directly. */
static inline int mech_data_run_steps(mech_data *d, double dt, int n, int (*step)(mech_data *d, double dt))
{
    int (*const check)(mech_data *, const char *) = d->engine->check;
    for (int k = 0; k < n; k++) {
        if (step(d, dt)) return -1;
        d->time += dt;
        if (mech_data_check_finite(d, "step", "q", d->q, d->nq) ||
            mech_data_check_finite(d, "step", "qd", d->qd, d->nv) || (check && check(d, "step")))
            return mech_data_blew_up(d, k);
    }
    return 0;
}

#endif
