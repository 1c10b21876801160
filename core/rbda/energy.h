/* energy.h — observables of a state: mechanical energy and world poses.
 * These are what a viewer or the JS API reads; they do no dynamics. */
#ifndef MECH_ENERGY_H
#define MECH_ENERGY_H

#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/kinematics.h"

/* Total mechanical energy (J) of the state (q, qd): kinetic 1/2 qd^T H qd
 * with H from dense_crba (Table 6.2) plus
 * potential -sum_i m_i g . c_i, c_i the world CoM.  ws is any dense
 * workspace of m.  kinetic and potential may be NULL. */
double mech_energy(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *kinetic,
                   double *potential);

/* The same energy in O(nb) time and no workspace, from the bodies' world kinematics k at (q, qd) (kinematics.h):
 * kinetic sum_i 1/2 (m_i |v_ci|^2 + w_i^T I_ci w_i) + 1/2 armature qd^2 per joint velocity,
 * v_ci the CoM's velocity; potential as mech_energy.  Equal to mech_energy's up to rounding; what an engine
 * reports, so a call costs no dense nv x nv matrix. */
void mech_energy_bodies(const mech_model *m, const mech_body_kin *k, const double *qd, double *kinetic,
                        double *potential);

/* Forward kinematics: per body x y z qw qx qy qz (7*nb doubles), the world
 * position of the body origin and its body-to-world attitude.  Floating
 * quaternions are normalized on use.  Needs no workspace. */
void mech_body_poses(const mech_model *m, const double *q, double *out);

#endif
