/* xpbd.h — the maximal-coordinate engine: XPBD with Lie-group rotations
 * (Tobin & Rucker), every body a rigid body, every joint a vector
 * constraint, and the file's Cosserat rods stepped in the same substeps
 * (docs/xpbd.md, docs/rods.md). */
#ifndef MECH_PUBLIC_XPBD_H
#define MECH_PUBLIC_XPBD_H

#include "mech/common.h"

/* A run of `m` on XPBD with the file's substeps, iterations and solve mode.
 * NULL with *err filled (with the line of what XPBD cannot run: force
 * elements, some loop types) or when out of memory. */
MECH_API mech_data *mech_data_new_xpbd(const mech_model *m, mech_error *err);

/* [primal, constraint] residuals (Tobin & Rucker eqs. 51, 52) of the last
 * substep; NULL when d does not run XPBD. */
MECH_API const double *mech_data_xpbd_residuals(const mech_data *d);

/* The rate of body `body`'s motor: its tree joint's drive target when that
 * is a `ramp` signal (rad/s revolute, m/s prismatic; docs/xpbd.md).  A run
 * reads it and sets it as an input: the target keeps its value at the
 * current time and turns on at the new rate, so the motor changes speed
 * without a jump; a restored state or a reset carries the target on from
 * where that state has it.  0, or -1 (d's error set) when d does not run
 * XPBD, the body has no ramp drive, or the rate is not finite. */
MECH_API int mech_data_xpbd_ramp_rate(mech_data *d, int body, double *rate);
MECH_API int mech_data_xpbd_set_ramp_rate(mech_data *d, int body, double rate);

/* Rod i's discretization: order (0 = the rigid chain, else the Lagrange
 * order 1-3), elements, nodes, Gauss points per element, rest length (m),
 * diameter (m), Young's modulus (Pa), damping (Pa s). */
typedef struct {
    int order, elements, nodes, gauss_points;
    double length, diameter, E, damping;
} mech_rod_info;

/* The rods of an XPBD run (0 on other engines); rod i's discretization (0,
 * or -1 when i is not a rod); its nodes, live: 3 world coordinates per node,
 * and 9 per node of its row-major material frame (d3 the rest tangent),
 * NULL when i is not a rod. */
MECH_API int mech_data_rod_count(const mech_data *d);
MECH_API int mech_data_rod_info(const mech_data *d, int i, mech_rod_info *out);
MECH_API const double *mech_data_rod_positions(const mech_data *d, int i);
MECH_API const double *mech_data_rod_frames(const mech_data *d, int i);
/* Rod i's interpolated centreline at arc length s (m, clamped to [0, L]):
 * position p and frame R.  -1 when i is not a rod. */
MECH_API int mech_data_rod_sample(const mech_data *d, int i, double s, double p[3], double R[9]);

/* The contacts of the last substep of an XPBD run that pressed (λ_n > 0;
 * docs/xpbd.md, "Contact"), or of the last step's constraint solve on a
 * Featherstone run (docs/contact.md): their count, and in *out a buffer of
 * 6 per contact, [x y z (the point on the first collider, world; on
 * Featherstone midway between the surfaces); nx ny nz (the unit normal,
 * towards the first collider)], owned by d and rewritten by the next call.
 * 0 (out NULL) without contacts; -1 when out of memory. */
MECH_API int mech_data_contacts(mech_data *d, const double **out);

#endif
