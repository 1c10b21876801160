/* rod_scenes.c — the Table 2 rods (rod_scenes.h). */
#include "rod_scenes.h"

#include <string.h>

#define PI 3.14159265358979323846

const char *const rod_disc_name[4] = { "rigid", "linear", "quadratic", "cubic" };

const rod_timing_case rod_timing_cases[ROD_TIMING_CASES] = {
    { "spring", XPBD_ROD_RIGID, 120, 0.09 },
    { "spring", XPBD_ROD_LINEAR, 120, 0.10 },
    { "spring", XPBD_ROD_LINEAR, 250, 0.22 },
    { "spring", XPBD_ROD_QUADRATIC, 66, 0.22 },
    { "spring", XPBD_ROD_CUBIC, 40, 0.28 },
    { "plectoneme", XPBD_ROD_LINEAR, 30, 0.06 },
    { "plectoneme", XPBD_ROD_LINEAR, 60, 0.11 },
    { "plectoneme", XPBD_ROD_LINEAR, 120, 0.23 },
    { "plectoneme", XPBD_ROD_QUADRATIC, 15, 0.11 },
    { "plectoneme", XPBD_ROD_QUADRATIC, 30, 0.23 },
    { "plectoneme", XPBD_ROD_QUADRATIC, 60, 0.43 },
    { "plectoneme", XPBD_ROD_CUBIC, 10, 0.17 },
    { "plectoneme", XPBD_ROD_CUBIC, 20, 0.35 },
    { "plectoneme", XPBD_ROD_CUBIC, 40, 0.68 },
};

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
    static const double along_x[9] = { 0, 0, 1, 0, 1, 0, -1, 0, 0 }; /* local e3 -> world x */
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

int rod_timing_scene(int i, xpbd_rod *rod, char *err, int errlen)
{
    const rod_timing_case *c = &rod_timing_cases[i];
    xpbd_rod_desc d;
    if (strcmp(c->scene, "spring") == 0) {
        rod_spring_desc(&d, c->disc, c->elements);
        d.end[1].move[2] = -0.4;
        d.end[1].ramp_time = 10;
    } else {
        rod_plectoneme_desc(&d, c->disc, c->elements);
    }
    if (xpbd_rod_init(rod, &d, err, errlen)) return -1;
    xpbd_rod_step(rod);
    return 0;
}
