/* contact.h — the built-in contact stage: track bands against their rollers,
 * shoe pads and tires against the ground (docs/contact.md).  Caller-side and
 * force-only: it reads a state (q, qd), writes external forces into fext,
 * and the dynamics (generated, ABA, dense) never learn about it.
 *
 * core/sim/data.c owns one contact_state per run of a model with a band or
 * a ground and calls contact_forces wherever the engine's integrator
 * evaluates its force (Störmer–Verlet: at the midpoint position, with the
 * step's starting velocity — no predictor).  Everything but the anchored
 * ground friction's anchors is a pure function of (q, qd, dt). */
#ifndef MECH_CONTACT_STAGE_H
#define MECH_CONTACT_STAGE_H

#include "model/model.h"

typedef struct contact_state contact_state;

/* The stage for m (mech_model_has_contact(m)), at rest (no anchors); NULL on
 * out of memory.  m must outlive it. */
contact_state *contact_new(const mech_model *m);
void contact_free(contact_state *c);
/* Forget the anchored friction's anchors (a reset of the run). */
void contact_reset(contact_state *c);

/* The stage's state after a step into buf[at..] (save) or out of it: the
 * anchored friction's anchors (7 doubles each: anchor, normal, on), the
 * tires' relaxed slips (2 each) and the last ground forces; buf NULL only counts.  Returns at plus its size. */
int contact_state_copy(contact_state *c, double *buf, int at, int save);

/* Add every band and ground force at (q, qd) into fext (6 per body, base
 * coordinates, [moment about the base origin; force]).  dt is the step the
 * force is held over, for the implicit friction (0: the explicit law, as the
 * fixed-state checks use); with anchored ground friction a step of dt > 0
 * also moves the anchors. */
void contact_forces(contact_state *c, const mech_model *m, const double *q, const double *qd, double dt, double *fext);

/* The total force the ground applied in the last contact_forces call (N,
 * base frame). */
void contact_ground_reaction(const contact_state *c, double f[3]);
/* The ground's force on each body in the last contact_forces call (3 per
 * body, N, base frame: a shoe's four pad corners summed, a wheel's tire;
 * zero elsewhere). */
const double *contact_ground_forces(const contact_state *c);
/* Each tire's ground point and force in the last contact_forces call (6 per
 * tire, base frame; zero off the ground). */
const double *contact_tire_forces(const contact_state *c);

/* The stored contact energy at q (J): band and ground springs, the
 * anchored friction's tangential springs and the tires' vertical curves. */
double contact_potential(contact_state *c, const mech_model *m, const double *q);

/* The brake of a band's roller (`mech sim --slope` parks on it, the page's
 * brake slider scales it): a torsional spring-damper on the roller's joint,
 * k = I w^2 and c = 2 sqrt(k I) (critically damped), I the roller's inertia
 * about its axle and w = 2 pi / (two contact periods 2 pi sqrt(m_shoe / kn)):
 * as stiff as it can be while staying off the step's critical path. */
void contact_brake_gains(const mech_model *m, const mech_track *t, const mech_roller *r, double *k, double *c);
/* A body's inertia about its joint axis through its origin: a' I a plus the
 * parallel-axis term m |com x a|^2. */
double contact_axial_inertia(const mech_body *b);

#endif
