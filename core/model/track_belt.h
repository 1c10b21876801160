/* track_belt.h — the band's path and design pose in its plane (internal to
 * core/model): the taut belt around the convex hull of the roller circles,
 * and N equal links inscribed in it.  Points are (x, z) of the root frame. */
#ifndef MECH_TRACK_BELT_H
#define MECH_TRACK_BELT_H

#include "model/model.h"

typedef struct {
    double c[2], r; /* centre (x, z) and radius          */
} belt_circle;

/* The path, walked counter-clockwise in (x, z) (the lower run towards +x):
 * for each hull circle k in turn, an arc on it, then the tangent run to
 * circle k + 1.  It starts where circle 0's arc begins. */
typedef struct {
    int nhull;
    int hull[2 * MECH_MAX_ROLLERS];     /* circle indices in walk order         */
    double alpha[2 * MECH_MAX_ROLLERS]; /* direction of the run leaving hull k (rad) */
    double piece[4 * MECH_MAX_ROLLERS]; /* lengths: arc 0, run 0, arc 1, run 1, ... */
    double perimeter;
    const belt_circle *circles;
} belt_path;

/* Gift-wrap the n circles by outer tangents; ties on turn angle go to the
 * farthest candidate.  0, or -1 when no band wraps them (coincident or
 * nested circles, zero perimeter). */
int belt_wrap(const belt_circle *c, int n, belt_path *bp);
/* The point at arc length s from the path's start (any s: periodic). */
void belt_point(const belt_path *bp, double s, double out[2]);
/* Arc length of the middle of the lowest tangent run (ties: the longest). */
double belt_start(const belt_path *bp);
/* N pins on the path from arc length s0, consecutive pins exactly `link`
 * apart and pin N back on pin 0: link is the root of a bisection (it is at
 * most perimeter / N, the chords being shorter than the arcs they span).
 * pins: 2 (N + 1) values, the last pair pin 0 again.  0, or -1 when N links
 * cannot close around the path. */
int belt_pins(const belt_path *bp, int n, double s0, double *link, double *pins);

#endif
