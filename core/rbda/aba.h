/* aba.h — the articulated-body algorithm (RBDA Table 7.1), a second forward
 * dynamics independent of dense.h (they share only core/spatial).
 *
 * Split as the dynamics README's fd_dense_aba: aba_factor does everything that depends
 * on q alone (transforms, articulated inertias IA, U = IA S, D = S^T U), and
 * aba_solve does the per-right-hand-side work (velocities, bias forces,
 * pass 3) in O(n).  Conventions as dense.h: fext is 6*nb doubles in base
 * coordinates and may be NULL; gravity is the base acceleration -[0; g];
 * floating quaternions are normalized on use.  A fixed joint (nv 0) passes
 * its full articulated inertia and bias force to its parent.  Written in the
 * efficient spatial forms (sxform, sinertia in core/spatial/spatial.h): O(n)
 * with no allocation per call, every per-joint fact set up in aba_ws_new.
 */
#ifndef MECH_ABA_H
#define MECH_ABA_H

#include "model/model.h"

typedef struct aba_ws aba_ws;

/* Workspace for one model, allocated once; NULL on OOM. */
aba_ws *aba_ws_new(const mech_model *m);
void aba_ws_free(aba_ws *ws);

/* The step h of an implicit step: aba_factor then adds h times each joint's
 * damping (mech_model_joint_damping) to D, as the armature; 0 (the
 * default): the explicit dynamics. */
void aba_set_implicit_step(aba_ws *ws, double h);
/* Configuration-only half: transforms, IA, U, D^-1 at q. */
void aba_factor(const mech_model *m, aba_ws *ws, const double *q);
/* Per right-hand side at the q of the last aba_factor, under gravity g
 * (3 doubles: the model's, or zeros for the bias-free columns of method 2). */
void aba_solve(const mech_model *m, aba_ws *ws, const double g[3], const double *qd, const double *tau,
               const double *fext, double *qdd);
/* H (nv x nv, row-major, both triangles) at q by the composite-rigid-body
 * algorithm (RBDA Table 6.2) over the workspace's transforms and
 * inertias: the matrix aba_factor's articulated inertias invert, its rotor
 * terms (armature, an implicit step's h D) included.  Overwrites the
 * transforms of the last aba_factor. */
void aba_mass_matrix(const mech_model *m, aba_ws *ws, const double *q, double *H);
/* aba_factor + aba_solve. */
void aba_fd(const mech_model *m, aba_ws *ws, const double *q, const double *qd, const double *tau, const double *fext,
            double *qdd);

/* ABA as a mech_fd_fn (core/sim/integrate.h): ctx points to an aba_engine. */
typedef struct {
    const mech_model *m;
    aba_ws *ws;
} aba_engine;
void aba_engine_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd);

#endif
