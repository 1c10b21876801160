/* xpbd_from_model.h — one mechanism, two engines: a parsed .mech model as an
 * XPBD scene of maximal-coordinate bodies (docs/xpbd.md, "From a .mech model").
 *
 * XPBD body i is mech body i: its pose from the model's initial state q0
 * (p = world CoM, R = body-to-world of the body frame), its inertia about
 * the CoM in the body frame, its velocities from qd0.  Joints, in the
 * order Gauss–Seidel visits them: per body in body order, its tree joint
 * (to its parent or the ground; none if floating) and then the loops
 * (revolute, prismatic, spherical) whose later body — the larger index of
 * pred and succ — it is; then the `servo` blocks.  Rods (`rod` blocks) are
 * xpbd_rods stepped inside the world's substeps (rod.h, xpbd_rod_attach).  Limits, drives and compliance come from the XPBD keys of the
 * file (mech_xjoint), step settings from its `xpbd` block.
 *
 * Signs: the file's coordinates are ours (docs/conventions.md); the paper's
 * θ_rev = [R̄1 ⊟ R̄2]₃ and rotation targets are their negatives, which is
 * applied here and nowhere else. */
#ifndef MECH_XPBD_FROM_MODEL_H
#define MECH_XPBD_FROM_MODEL_H

#include "model/model.h"
#include "xpbd/rod.h"
#include "xpbd/xpbd.h"

/* One time-varying target row: target[6 j + row] = sign · s(t). */
typedef struct {
    int joint, row;
    double sign;
    mech_signal s;
} xpbd_signal_row;

typedef struct {
    xpbd_model m;
    xpbd_mode mode;  /* from the file's `xpbd` block               */
    int *body_joint; /* per mech body: its tree joint, −1 if floating */
    int nsignal;
    xpbd_signal_row *signals; /* in joint order                            */
    /* Cosserat rods (`rod` blocks), in file order.  A rod holds its own
     * state, so an xpbd_mech with rods serves one run at a time:
     * xpbd_mech_data lists them in the run and attaches their body clamps. */
    int nrod;
    xpbd_rod *rods;
    xpbd_rod **rod_list; /* &rods[i], for xpbd_data.rods              */
} xpbd_mech;

/* Build the scene of `mm`.  Returns 0, or −1 with *err set for what XPBD
 * cannot run: force elements, cylindrical / point-on-line / distance loops,
 * limits with compliance, a rod xpbd_rod_init refuses — at the offending
 * element's line and the column of its name (of the first XPBD key for
 * compliance with limits); line 0 for out of memory.  err->file is left as
 * it is (the parse that made mm set it); when empty it becomes mm->name.
 * Over-constrained loops are accepted: each joint is solved on its own, so
 * rows that repeat another joint's constraint are consistent corrections,
 * not a singular system (docs/xpbd.md). */
int xpbd_from_model(const mech_model *mm, xpbd_mech *x, mech_error *err);
void xpbd_mech_free(xpbd_mech *x);

/* Allocate a run of x in `mode` (usually x->mode) with the time-varying
 * targets wired in.  0 or −1. */
int xpbd_mech_data(const xpbd_mech *x, xpbd_mode mode, xpbd_data *d);

/* Back to the initial state: xpbd_data_reset, every rod's rest shape, and
 * the ramps following the initial targets (xpbd_mech_ramps_follow). */
void xpbd_mech_reset(xpbd_mech *x, xpbd_data *d);

/* A `ramp` target's rate is an input of the run: xpbd_mech_ramp finds the
 * ramp of body b's tree-joint drive (NULL: none); xpbd_mech_ramp_rate sets
 * its rate (per second, the joint's units), its offset moved so that the
 * target at d->t stays where it is — the motor changes speed, it does not
 * jump.  xpbd_mech_ramps_follow, after a state is restored or reset, moves
 * the offset of every ramp that disagrees with its restored target at d->t
 * to agree (a ramp that agrees — the rate never changed — is left bit for
 * bit as it is). */
xpbd_signal_row *xpbd_mech_ramp(xpbd_mech *x, const mech_model *mm, int b);
void xpbd_mech_ramp_rate(xpbd_signal_row *s, const xpbd_data *d, double rate);
void xpbd_mech_ramps_follow(xpbd_mech *x, const xpbd_data *d);

/* The rod description of a `rod` block (step settings and gravity from the
 * model's `xpbd` block and gravity).  Body indices are the model's, which
 * are the XPBD bodies'. */
void xpbd_rod_desc_from_model(const mech_model *mm, const mech_rod *r, xpbd_rod_desc *d);

/* Per body x y z qw qx qy qz (7·nb): the world position of the body-frame
 * origin and its attitude — the layout of mech_body_poses. */
void xpbd_mech_poses(const mech_model *mm, const xpbd_data *d, double *out);

/* The model's coordinates of an XPBD state (xpbd_mech_state.c): q (nq) and
 * qd (nv) of every tree joint from the bodies' relative poses and
 * velocities — exact when the joints hold, a projection when they are
 * violated.  Revolute angles come back in (−π, π]. */
void xpbd_mech_joint_state(const mech_model *mm, const xpbd_data *d, double *q, double *qd);

/* The model's inputs as XPBD body wrenches into out (6·nb, the layout of
 * xpbd_data.fext): fext (6·nb, base coordinates, moment about the base
 * origin; every body's) and the joint forces tau (nv) of
 * revolute / prismatic joints, applied to the body and, reversed, to its
 * parent.  Either may be NULL. */
void xpbd_mech_forces(const mech_model *mm, const xpbd_data *d, const double *tau, const double *fext, double *out);

/* The rsda, tendon and actuator forces of the model (mech_joint_forces, the
 * Featherstone engines' law) at the bodies' joint coordinates, as body
 * wrenches into out (6·nb, as xpbd_mech_forces), less the velocity damping
 * D qd that d->damping (6 per joint, set here on each tree joint's own row)
 * then takes implicitly over the substep (§4.4): each rsda's c and, of an
 * actuator whose force is not at its forcerange clamp, −gear² bias[2] (the
 * term mech_model_joint_damping counts; a clamped one has none; a tendon's
 * damping and its actuators' stay explicit).  act: the
 * run's inputs (m->nact); q, qd and tau: room for nq, nv and nv values. */
void xpbd_mech_joint_forces(const mech_model *mm, const xpbd_mech *x, xpbd_data *d, const double *act, double *q,
                            double *qd, double *tau, double *out);

/* s(t) of a signal. */
double xpbd_signal_eval(const mech_signal *s, double t);

#endif
