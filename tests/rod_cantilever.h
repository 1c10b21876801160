/* rod_cantilever.h — the paper's §9.2 cantilever (E = 5 MPa, d = 0.1 m, L = 1 m,
 * rho = 1000, along world x, clamped at x = 0, gravity -z), shared by the rod
 * tests and bench/rod_benchmarks.c so both measure the same rod.  Step size and
 * iterations stay the caller's. */
#ifndef MECH_ROD_CANTILEVER_H
#define MECH_ROD_CANTILEVER_H

#include <string.h>

#include "xpbd/rod.h"

static inline void rod_cantilever(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    static const double along_x[9] = { 0, 0, 1, 0, 1, 0, -1, 0, 0 }; /* local e3 -> world x */
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

#endif
