/* sim.h — one run of a model, driven the same way whatever engine made it
 * (featherstone.h, xpbd.h): live arrays for state and inputs, and the verbs
 * forward, step, poses, observe, energy, reset, free.
 *
 * Every verb returns 0, or -1 with mech_data_error(d) saying why; after each
 * one a non-finite result (state, poses, energy, observation, an engine's
 * multipliers or rod nodes) is an error naming the entry, on every engine.
 * One call does a bounded amount of work: mech_data_step refuses more than
 * MECH_STEP_WORK_MAX units (docs/architecture.md, "Work per call"). */
#ifndef MECH_SIM_H
#define MECH_SIM_H

#include <stdint.h>

#include "mech/common.h"

/* Live arrays of d, valid until mech_data_free.  Layouts (docs/conventions.md):
 * q nq (floating bodies qw qx qy qz x y z), qd, tau and qdd nv, act nact,
 * fext 6 per body in base coordinates [moment about the base origin; force],
 * gravity 3 (m/s², base frame; starts as the model's).  A body declaring
 * `fext 1` reads its fext in the dynamics (forward and step); on any other
 * body mech_data_step applies it too: as the joint forces J^T f of its
 * chain at the step's start (Featherstone), as a body wrench (XPBD). */
MECH_API double *mech_data_q(mech_data *d);
MECH_API double *mech_data_qd(mech_data *d);
MECH_API double *mech_data_tau(mech_data *d);
MECH_API double *mech_data_act(mech_data *d);
/* The actuators' inputs, nu of them in file order: the last nu entries of
 * act (docs/mech-format.md, "Actuators").  A step or forward() refuses a
 * non-finite one, naming its actuator. */
MECH_API double *mech_data_ctrl(mech_data *d);
MECH_API double *mech_data_fext(mech_data *d);
MECH_API double *mech_data_gravity(mech_data *d);
MECH_API const double *mech_data_qdd(const mech_data *d);
MECH_API const mech_model *mech_data_model(const mech_data *d);
/* Every live array of d at once, for a binding that views them in place
 * (wasm/index.mjs): the sizes, then the pointers (NULL for an empty act);
 * poses (7 nb) and energy (2) are d's own buffers, for mech_data_poses and
 * mech_data_energy to write into. */
typedef struct {
    int32_t nq, nv, nb, nact;
    double *q, *qd, *tau, *act, *fext, *qdd, *poses, *energy, *gravity;
} mech_data_arrays;
MECH_API void mech_data_arrays_get(mech_data *d, mech_data_arrays *out);
/* Hand m to d: it is freed with d (for bindings that parse text per run). */
MECH_API void mech_data_adopt_model(mech_data *d, mech_model *m);
/* "aba", "generated" or "xpbd". */
MECH_API const char *mech_data_engine(const mech_data *d);
/* Simulated time (s) since the last reset. */
MECH_API double mech_data_time(const mech_data *d);
/* The last error of a verb on d. */
MECH_API const mech_error *mech_data_error(const mech_data *d);

/* qdd from (q, qd, tau, act, fext, gravity).  XPBD has no accelerations:
 * it refuses. */
MECH_API int mech_data_forward(mech_data *d);

/* The work one step of d costs, in units of about one body update of the
 * articulated-body algorithm (loops' dense solve, XPBD rods and contact
 * sides weighted by their cost: docs/architecture.md, "Work per call"), and
 * the cap of one mech_data_step call. */
#define MECH_STEP_WORK_MAX 1e8
MECH_API double mech_data_step_work(const mech_data *d);

/* n steps of dt: each runs the producers (contact.h) into the step's
 * external force, then the engine's step.  Stops at the first step whose
 * state is not finite. */
MECH_API int mech_data_step(mech_data *d, double dt, int n);
/* Steps first + 1 to first + count of a call of n steps: mech_data_step(d,
 * dt, n) run in parts gives the same state bit for bit (a step reads only
 * the state and the inputs), so a binding can look at a clock between parts
 * and stop (wasm/index.mjs).  Every part checks dt, the inputs and the work
 * cap of all n steps; errors count steps in n. */
MECH_API int mech_data_step_part(mech_data *d, double dt, int first, int count, int n);

/* Per body world x y z, qw qx qy qz (7 nb) into out. */
MECH_API int mech_data_poses(mech_data *d, double *out);
/* The observation values (mech_sizes.observe_len) into out: every point of
 * interest's world x y z, vx vy vz, then each tsda's length and rate, then
 * each rsda's q and qd. */
MECH_API int mech_data_observe(mech_data *d, double *out);
/* [kinetic, potential] (J) into e. */
MECH_API int mech_data_energy(mech_data *d, double e[2]);
/* Per body world velocity (6 nb) into out: the body origin's [vx vy vz],
 * then the angular [wx wy wz]. */
MECH_API int mech_data_velocities(mech_data *d, double *out);

/* The run's state: everything a step reads besides the inputs, so that a
 * restored state steps on bit for bit as it did when saved.  Time, q, qd,
 * qdd, the contact stage's anchors and last forces, the engine's own (XPBD:
 * bodies, multipliers, targets, rods).  mech_data_state_size doubles. */
MECH_API int mech_data_state_size(const mech_data *d);
MECH_API void mech_data_state_save(mech_data *d, double *out);
/* -1 with the error set, d unchanged, when n is not the state size or a
 * value is not finite (or a floating body's quaternion is zero). */
MECH_API int mech_data_state_restore(mech_data *d, const double *in, int n);

/* Back to the model's initial state, time 0; tau, act, fext and qdd zeroed
 * (ctrl: the initial keyframe's when the model names one);
 * gravity and the producers kept. */
MECH_API void mech_data_reset(mech_data *d);
/* mech_data_reset, then the state and ctrl of keyframe k of the model
 * (mech_model_keyframe); -1 with the error set when there is no keyframe k,
 * or on XPBD (whose bodies start from the model's initial state) when k is
 * not the model's `initial` keyframe. */
MECH_API int mech_data_reset_keyframe(mech_data *d, int k);

/* The floor (docs/contact.md, "The floor"): on a Featherstone run, the plane
 * z = height becomes a collider under every body collider (friction 1, the
 * model's `contact` settings), so any model can stand on it.  Off by
 * default.  -1 with the error set on XPBD (give the scene a `static plane`),
 * a model with a `ground`, or a height that is not finite. */
MECH_API int mech_data_set_floor(mech_data *d, int on, double height);
/* 1 when the floor is on (its height in *height, may be NULL), else 0. */
MECH_API int mech_data_floor(const mech_data *d, double *height);
/* The normal and friction forces of the contacts mech_data_contacts lists
 * (Featherstone runs; docs/contact.md): their count, and in *out 4 per
 * contact [fn (N, along the normal); fx fy fz (friction on the first
 * collider, world, N)], owned by d and rewritten by the next call.  0 on
 * XPBD or without contacts; -1 when out of memory. */
MECH_API int mech_data_contact_forces(mech_data *d, const double **out);
/* The last step's constraint solve: out = [rows, Gauss–Seidel sweeps,
 * residual (the largest force change of the last sweep)]; zeros when it
 * did not run. */
MECH_API int mech_data_solver_stats(const mech_data *d, double out[3]);
/* The wall-clock time spent in the contact stages of d's steps since it
 * was made, in ms: out = [the penalty contact stage (bands, grounds), the
 * constraint solve (its collision detection included)]; zeros on XPBD.  A
 * report read from a monotonic clock, which no step result depends on;
 * subtract two readings for the time of the steps between them. */
MECH_API int mech_data_stage_times(const mech_data *d, double out[2]);
/* NULL is fine. */
MECH_API void mech_data_free(mech_data *d);

#endif
