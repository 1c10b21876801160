/* terrain.h — the ground's height field z = h(x, y) and its gradient, the
 * only thing the ground law reads (docs/contact.md "Ground").  A plane is
 * z0 + sx x + sy y; a grid is bicubic Hermite on its samples (C1:
 * Catmull–Rom tangents inside, zero tangents on the edge samples, flat at
 * the nearest edge height outside the grid). */
#ifndef MECH_TERRAIN_H
#define MECH_TERRAIN_H

#include "model/model.h"

/* h(x, y) into *h, dh/dx into *hx, dh/dy into *hy.  MECH_GROUND_NONE: 0. */
void terrain_eval(const mech_ground *g, double x, double y, double *h, double *hx, double *hy);

#endif
