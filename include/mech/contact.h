/* contact.h — force producers: caller-side laws (track, terrain, pushes)
 * that read a run's state and add external forces, called by every engine
 * the same way as one stage of mech_data_step (docs/architecture.md), at
 * the state the engine's scheme evaluates its forces at (Störmer–Verlet:
 * the midpoint position).
 * The engines' dynamics never learn about them. */
#ifndef MECH_CONTACT_H
#define MECH_CONTACT_H

#include "mech/common.h"

/* Add this producer's forces at the run's current state into fext: 6 per
 * body, base coordinates, [moment about the base origin; force]
 * (docs/conventions.md), already holding the user's fext and earlier
 * producers' forces.  t is the run's time (s).  Return 0, or -1 to stop the
 * step (then write why into err->message). */
typedef int (*mech_producer_fn)(const mech_model *m, const mech_data *d, double t, double *fext, void *user,
                                mech_error *err);

/* Add a producer to d (at most MECH_MAX_PRODUCERS); producers run in the
 * order added, before every step.  0, or -1 when the list is full. */
#define MECH_MAX_PRODUCERS 8
MECH_API int mech_data_producer_add(mech_data *d, mech_producer_fn fn, void *user);

/* A model with a track band or a ground (its `track` and `ground` blocks,
 * docs/mech-format.md) steps with the built-in contact stage before the
 * producers: band against rollers, shoe pads against the terrain
 * (docs/contact.md).  The total force the ground applied in the last step
 * (N, base frame) into f; zeros without a ground. */
MECH_API void mech_data_ground_reaction(const mech_data *d, double f[3]);
/* The same force per body: the ground's force on each body in the last
 * step (3 per body, N, base frame; a shoe's four pad corners summed) into
 * f; zeros without a ground. */
MECH_API void mech_data_ground_forces(const mech_data *d, double *f);

/* The brake of a band's roller (`mech sim --slope` parks on it, the
 * JavaScript driver's brake levels scale it; docs/contact.md): a torsional
 * spring-damper on the joint of roller body `body`, k = I w^2 and
 * c = 2 sqrt(k I) (critically damped), I the roller's inertia about its
 * axle and w = 2 pi / (two contact periods 2 pi sqrt(m_shoe / kn)); on a
 * tire's wheel k = CSLIP R^2 / sigma_x (the tire's relaxed slip spring at
 * rest, about the axle) and c critical against the wheel's axial inertia.
 * Its gains into k (N m/rad) and c (N m s/rad): 0, or -1 when `body` is
 * neither a band's roller nor a tire's wheel. */
MECH_API int mech_model_brake_gains(const mech_model *m, int body, double *k, double *c);
/* The brake's joint torque at level 0..1, locked at the joint angle `lock`,
 * at the run's current state: level (k (lock - q) - c qd), q and qd the
 * roller joint's.  A torque at the step's start (set into tau before each
 * step, as a motor's is), not a producer's force at the scheme's midpoint.
 * NaN when `body` is neither a band's roller nor a tire's wheel. */
MECH_API double mech_data_brake_torque(mech_data *d, int body, double level, double lock);

#endif
