/* terrain.h — the ground's height field z = h(x, y) and its gradient, the
 * only thing the ground law reads (docs/contact.md "Ground").  A plane is
 * z0 + sx x + sy y; a grid is bicubic Hermite on its samples (C1:
 * Catmull–Rom tangents inside, zero tangents on the edge samples, flat at
 * the nearest edge height outside the grid). */
#ifndef MECH_TERRAIN_H
#define MECH_TERRAIN_H

#include "model/model.h"

/* The grid's h, dh/dx, dh/dy at (x, y). */
void terrain_grid_eval(const mech_ground *g, double x, double y, double *h, double *hx, double *hy);

/* h(x, y) into *h, dh/dx into *hx, dh/dy into *hy.  MECH_GROUND_NONE: 0.
 * Inline: every pad corner near the ground asks, and a plane is three
 * numbers. */
static inline void terrain_eval(const mech_ground *g, double x, double y, double *h, double *hx, double *hy)
{
    switch (g->type) {
    case MECH_GROUND_PLANE:
        *h = g->z0 + g->sx * x + g->sy * y;
        *hx = g->sx;
        *hy = g->sy;
        return;
    case MECH_GROUND_GRID: terrain_grid_eval(g, x, y, h, hx, hy); return;
    case MECH_GROUND_NONE: break;
    }
    *h = *hx = *hy = 0.0;
}
/* A grid's upper bound of h over the whole field (inside and out). */
double terrain_grid_top(const mech_ground *g);

#endif
