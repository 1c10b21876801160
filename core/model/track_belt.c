/* track_belt.c — the band's path around its rollers and the equal-link
 * polygon the shoes' design pose is (see track_belt.h). */
#include "model/track_belt.h"

#include <math.h>

#define TWO_PI (2.0 * 3.14159265358979323846)
#define TIE 1e-12 /* turn angles equal within this (rad) */

/* Outward normal of a run with direction a: the right of the walk, the
 * interior being on its left (counter-clockwise). */
static void normal(double a, double n[2])
{
    n[0] = sin(a);
    n[1] = -cos(a);
}

/* Where the run with direction a touches circle c. */
static void touch(const belt_circle *c, double a, double p[2])
{
    double n[2];
    normal(a, n);
    p[0] = c->c[0] + c->r * n[0];
    p[1] = c->c[1] + c->r * n[1];
}

/* Direction of the outer tangent from circle i to circle j, both on its
 * right: n . (cj - ci) = ri - rj gives a = atan2(d) + asin((ri - rj) / |d|).
 * -1 when one circle holds the other (no outer tangent). */
static int tangent(const belt_circle *ci, const belt_circle *cj, double *a, double *len)
{
    double dx = cj->c[0] - ci->c[0], dz = cj->c[1] - ci->c[1], d = hypot(dx, dz), dr = ci->r - cj->r;
    if (!(d > fabs(dr) + 1e-12)) return -1;
    *a = atan2(dz, dx) + asin(dr / d);
    *len = sqrt(d * d - dr * dr);
    return 0;
}

/* (a - from) in [0, 2 pi), a rounding step below 0 counted as 0. */
static double turn(double a, double from)
{
    double t = a - from;
    t -= TWO_PI * floor(t / TWO_PI);
    return t > TWO_PI - TIE ? 0.0 : t;
}

/* Jarvis's march (gift wrapping) on circles: from the lowest circle's
 * bottom, heading +x, always take the outer tangent of least turn. */
int belt_wrap(const belt_circle *c, int n, belt_path *bp)
{
    int start = 0;
    for (int i = 1; i < n; i++) {
        double lo = c[i].c[1] - c[i].r, best = c[start].c[1] - c[start].r;
        if (lo < best - 1e-12 || (fabs(lo - best) <= 1e-12 && c[i].c[0] < c[start].c[0])) start = i;
    }
    bp->circles = c;
    bp->nhull = 0;
    double heading = 0.0, runs[2 * MECH_MAX_ROLLERS];
    int cur = start;
    do {
        int next = -1;
        double best_t = 0.0, best_a = 0.0, best_len = 0.0;
        for (int j = 0; j < n; j++) {
            double a, len;
            if (j == cur || tangent(&c[cur], &c[j], &a, &len)) continue;
            double t = turn(a, heading);
            if (next < 0 || t < best_t - TIE || (t <= best_t + TIE && len > best_len)) {
                next = j;
                best_t = t;
                best_a = a;
                best_len = len;
            }
        }
        if (next < 0 || bp->nhull == 2 * MECH_MAX_ROLLERS) return -1;
        bp->hull[bp->nhull] = cur;
        bp->alpha[bp->nhull] = best_a;
        runs[bp->nhull++] = best_len;
        heading = best_a;
        cur = next;
    } while (cur != start);
    bp->perimeter = 0.0;
    for (int k = 0; k < bp->nhull; k++) {
        double in = bp->alpha[(k + bp->nhull - 1) % bp->nhull];
        bp->piece[2 * k] = c[bp->hull[k]].r * turn(bp->alpha[k], in);
        bp->piece[2 * k + 1] = runs[k];
        bp->perimeter += bp->piece[2 * k] + runs[k];
    }
    return bp->perimeter > 1e-9 ? 0 : -1;
}

void belt_point(const belt_path *bp, double s, double out[2])
{
    s -= bp->perimeter * floor(s / bp->perimeter);
    int np = 2 * bp->nhull, k = 0;
    while (k < np - 1 && s > bp->piece[k]) s -= bp->piece[k++];
    const belt_circle *c = &bp->circles[bp->hull[k / 2]];
    if (k % 2 == 0) { /* arc: from the incoming run's touch point */
        double a = bp->alpha[(k / 2 + bp->nhull - 1) % bp->nhull] + s / c->r;
        touch(c, a, out);
    } else { /* run: from its touch point on circle k/2 */
        double a = bp->alpha[k / 2];
        touch(c, a, out);
        out[0] += s * cos(a);
        out[1] += s * sin(a);
    }
}

double belt_start(const belt_path *bp)
{
    double s = 0.0, best_s = 0.0, best_z = 0.0, best_len = -1.0;
    for (int k = 0; k < bp->nhull; k++) {
        s += bp->piece[2 * k];
        double len = bp->piece[2 * k + 1], p[2];
        belt_point(bp, s + 0.5 * len, p);
        if (len > 0.0 && (best_len < 0.0 || p[1] < best_z - 1e-9 || (p[1] <= best_z + 1e-9 && len > best_len))) {
            best_s = s + 0.5 * len;
            best_z = p[1];
            best_len = len;
        }
        s += len;
    }
    return best_s;
}

static double dist_to(const belt_path *bp, double s, const double p[2])
{
    double q[2];
    belt_point(bp, s, q);
    return hypot(q[0] - p[0], q[1] - p[1]);
}

/* The first arc length past s whose point is `link` from the point at s.
 * It is not before s + link (a chord is no longer than its arc); march
 * from there in steps of link / 16, then bisect the step that crosses (the
 * distance from a point of a convex curve grows along it up to the
 * farthest point). */
static double step(const belt_path *bp, double s, double link)
{
    double p[2], lo = s + link, h = link / 16.0;
    belt_point(bp, s, p);
    for (int i = 0; dist_to(bp, lo + h, p) < link; i++) {
        if (i > 16 * 4 * MECH_MAX_SHOES) return s + bp->perimeter * 2.0;
        lo += h;
    }
    double hi = lo + h;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (dist_to(bp, mid, p) < link) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Arc length consumed by n steps of chord `link`, minus the perimeter:
 * increasing in link, zero when the links close. */
static double overshoot(const belt_path *bp, int n, double s0, double link)
{
    double s = s0;
    for (int i = 0; i < n && s < s0 + 2.0 * bp->perimeter; i++) s = step(bp, s, link);
    return s - s0 - bp->perimeter;
}

int belt_pins(const belt_path *bp, int n, double s0, double *link, double *pins)
{
    double hi = bp->perimeter / n, lo = 0.5 * hi;
    if (overshoot(bp, n, s0, lo) >= 0.0) return -1;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (overshoot(bp, n, s0, mid) < 0.0) lo = mid;
        else hi = mid;
    }
    *link = 0.5 * (lo + hi);
    double s = s0;
    for (int i = 0; i < n; i++) {
        belt_point(bp, s, pins + 2 * i);
        s = step(bp, s, *link);
    }
    pins[2 * n] = pins[0];
    pins[2 * n + 1] = pins[1];
    return 0;
}
