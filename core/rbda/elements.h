/* elements.h — force elements (tsda, rsda) and points of interest in the
 * dense reference: the elements' generalized forces, the observation of
 * everything a model names, and lookup by name.  From one kinematics pass
 * (dense_world_kinematics, rbda/dense.h); layouts and act[] as
 * docs/conventions.md. */
#ifndef MECH_ELEMENTS_H
#define MECH_ELEMENTS_H

#include "model/model.h"
#include "rbda/dense.h"

/* Generalized force of every tsda, rsda, tendon and actuator at (q, qd)
 * into tau_e (nv).  TSDA: equal and opposite base-coordinate spatial forces
 * at the two anchors, mapped through J^T; RSDA: -k (q - q0) - c qd + act on
 * its joint; tendon: f = -stiffness (L - springlength) - damping Ld as
 * coef_j f on each of its joints; actuator: gear times mech_actuator_force
 * on its joint (or, on a tendon, along it as a tendon's f).  act (m->nact
 * doubles) may be NULL: all inputs zero. */
void mech_element_forces(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *act,
                         double *tau_e);

/* The joint-coordinate part of mech_element_forces, added into tau_e: every
 * rsda, tendon and actuator at (q, qd), which need no kinematics (the XPBD engine
 * applies them from its bodies' joint coordinates).  qd and act may be NULL. */
void mech_joint_forces(const mech_model *m, const double *q, const double *qd, const double *act, double *tau_e);

/* An actuator's force (model.h, mech_actuator) at ctrl and its joint's
 * coordinate q and velocity qd (a tendon's length and rate, for an
 * actuator on a tendon): ctrl and force clamped where limited. */
double mech_actuator_force(const mech_actuator *a, double ctrl, double q, double qd);

/* Tendon t's length L = sum_j coef_j q_j and, into *ld, its rate (0 when qd
 * is NULL). */
double mech_tendon_length(const mech_model *m, const mech_tendon *t, const double *q, const double *qd, double *ld);

/* Observation layout: all POIs (world x y z, vx vy vz: 6 each), then all
 * TSDAs (l, ldot), then all RSDAs (q, qd). */
int mech_observe_len(const mech_model *m);
void mech_observe(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *out);

/* Lookup by kind "poi", "tsda", "rsda" (the offset of its first value in
 * mech_observe's out) or "act" (the act[] slot of an element declared
 * input); -1 for an unknown kind or name. */
int mech_find(const mech_model *m, const char *kind, const char *name);

#endif
