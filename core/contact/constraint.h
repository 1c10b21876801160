/* constraint.h — the Featherstone engines' one velocity-level constraint
 * solve: contacts of body colliders (with each other, the `static`
 * colliders and the floor), joint limits and joint friction loss
 * (docs/contact.md, "The constraint solve"), tendon ranges and equality
 * constraints (equality.h).
 *
 * It runs beside any engine's forward dynamics: given the unconstrained
 * acceleration qdd at (q, v), it finds the constraint forces f and adds
 * H⁻¹ Jᵀ f to qdd.  On a tree H⁻¹ is applied through the sparse factors
 * H = Lᵀ D L (RBDA §6.5) of the joint-space inertia at q, made once per
 * apply by the composite-rigid-body algorithm (rbda/aba.h, rbda/ltdl.h),
 * whichever engine runs: a contact row on one branch costs that branch.
 * With loops H⁻¹ is the engine's constrained response, applied through its
 * own dynamics, which are affine in tau: H⁻¹ x = FD(q, v, tau + x) −
 * FD(q, v, tau), one call per constraint row.  The forces
 * are MuJoCo's soft constraints (solref, solimp; MuJoCo documentation,
 * "Computation": "Soft constraints") found by projected Gauss–Seidel on the
 * regularized Delassus operator A + R, A = J H⁻¹ Jᵀ (Erleben 2007; Catto
 * 2005), with an elliptic friction cone.  Everything is a pure function of
 * (q, v, tau, fext): no warm start, a fixed order, so runs are bitwise
 * reproducible. */
#ifndef MECH_CONSTRAINT_H
#define MECH_CONSTRAINT_H

#include "model/model.h"
#include "rbda/kinematics.h"

typedef struct constraint_solve constraint_solve;

/* The engine's forward dynamics, the signature of mech_fd_fn (sim/integrate.h). */
typedef void (*constraint_fd_fn)(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                                 double *qdd);

/* row += sign u · (the velocity of the world point x moving with body b per
 * unit joint rate), *bias += its floating bodies' frame term (constraint.c);
 * the rows of other files (equality.c) are built from it. */
void constraint_point_row(const mech_model *m, const mech_body_kin *k, int b, const double x[3], const double u[3],
                          double sign, const double *v, double *row, double *bias);

/* The friction coefficient of the floor (MuJoCo's default geom friction). */
#define MECH_FLOOR_MU 1.0

/* 1 when m has something for the solve without a floor: a `contact` line,
 * a limit or friction loss on a revolute or prismatic tree joint, a
 * tendon's range, an equality constraint. */
int constraint_model_needs(const mech_model *m);

/* The solve for m (must outlive it); NULL on out of memory. */
constraint_solve *constraint_new(const mech_model *m);
void constraint_free(constraint_solve *s);

/* The floor: the plane z = height under every body collider (on), or none. */
void constraint_set_floor(constraint_solve *s, int on, double height);
int constraint_floor(const constraint_solve *s, double *height);
/* on: H⁻¹ by one dynamics call per row on a tree too, as with loops (the
 * yardstick of the tests and of bench/contact_solve.mjs); off: the
 * factors (the default). */
void constraint_per_row(constraint_solve *s, int on);

/* 1 when the solve has anything to do: the floor is on or its model needs it. */
int constraint_active(const constraint_solve *s);

/* qdd (the engine's fd at (q, v, tau, fext, act)) += H⁻¹ Jᵀ f for the
 * constraint forces f at (q, v); act (may be NULL) gives an implicit
 * step's h (mech_model_implicit_step), which H then includes as the engine
 * does.  0, or -1 when out of memory (or H not positive definite).  With no
 * active constraint qdd is left as it is, bit for bit. */
int constraint_apply(constraint_solve *s, const mech_model *m, constraint_fd_fn fd, void *ctx, const double *q,
                     const double *v, const double *tau, const double *fext, const double *act, double *qdd);

/* The last apply's contacts: their count, and per contact 10 doubles
 * [x y z (world point, midway between the surfaces); nx ny nz (unit
 * normal, towards the first collider); fn (normal force, N); fx fy fz
 * (friction force on the first collider, world)]. */
int constraint_contacts(const constraint_solve *s, const double **out);

/* The last apply's rows, sweeps and residual (the largest force change in
 * the last sweep, N or N m). */
void constraint_stats(const constraint_solve *s, double out[3]);

#endif
