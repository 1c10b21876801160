/* rod_fixtures.c — the rods of Tobin & Rucker §9 (rod_fixtures.h). */
#include "rod_fixtures.h"

#include <string.h>

#define PI 3.14159265358979323846

/* Local e3 along world x. */
static const double along_x[9] = { 0, 0, 1, 0, 1, 0, -1, 0, 0 };

void rod_cantilever_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    xpbd_rod_desc_default(d);
    d->disc = disc;
    d->elements = nel;
    d->length = 1;
    d->diameter = 0.1;
    d->E = 5e6;
    d->nu = 0.5;
    d->rho = 1000;
    memcpy(d->frame, along_x, sizeof along_x);
    d->gravity[2] = -9.81;
    d->end[0].hold = 1;
}

void rod_spring_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    xpbd_rod_desc_default(d);
    d->disc = disc;
    d->elements = nel;
    d->shape = XPBD_ROD_HELIX;
    d->coil_radius = 0.1;
    d->turns = 15;
    d->pitch = 1.4 / 15;
    d->diameter = 0.01;
    d->E = 60e9;
    d->nu = 0.3;
    d->rho = 7650;
    d->dt = 5e-3;
    d->end[0].hold = d->end[1].hold = 1;
}

void rod_plectoneme_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    xpbd_rod_desc_default(d);
    d->disc = disc;
    d->elements = nel;
    d->length = 10;
    d->diameter = 0.1;
    d->E = 5e7;
    d->nu = 0.4;
    d->rho = 1000;
    d->damping = 1e6;
    d->dt = 1e-3;
    memcpy(d->frame, along_x, sizeof along_x);
    d->origin[0] = -0.5 * d->length;
    d->end[0].hold = d->end[1].hold = 1;
    d->end[0].move[0] = PLECT_SLACK;
    d->end[0].move[2] = PLECT_KICK;
    d->end[0].ramp_time = 1;
    d->end[1].twist = 2 * PI * PLECT_TURNS;
    d->end[1].ramp_time = PLECT_TWIST_TIME;
}
