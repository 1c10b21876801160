/* narrow_round.c — pairs of round shapes: a sphere is a ball about a
 * point, a capsule a ball swept along a segment, so each pair is the
 * closest points of two point sets (point, segment) and then two balls:
 * n = (x_a − x_b)/|x_a − x_b|, pa = x_a − r_a n, pb = x_b + r_b n. */
#include "collide/collide.h"

#include <math.h>

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Ericson, Real-Time Collision Detection §5.1.9, clamped to both segments. */
void collide_segment_closest(const double p1[3], const double d1[3], const double p2[3], const double d2[3], double *s,
                             double *t)
{
    double r[3] = { p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2] };
    double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r), c = dot(d1, r), b = dot(d1, d2);
    double den = a * e - b * b;
    double ss = den > 1e-14 * a * e ? (b * f - c * e) / den : 0.0;
    ss = ss < 0 ? 0 : ss > 1 ? 1 : ss;
    double tt = (b * ss + f) / e;
    if (tt < 0) {
        tt = 0;
        ss = -c / a;
    } else if (tt > 1) {
        tt = 1;
        ss = (b - c) / a;
    }
    *s = ss < 0 ? 0 : ss > 1 ? 1 : ss;
    *t = tt;
}

/* Two balls (x_a, r_a), (x_b, r_b) with a fallback normal for coincident centres. */
static void balls(collide_manifold *o, const double xa[3], double ra, const double xb[3], double rb,
                  const double fallback[3], double margin)
{
    double d[3] = { xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2] }, L = sqrt(dot(d, d));
    for (int k = 0; k < 3; k++) o->n[k] = L > 0 ? d[k] / L : fallback[k];
    double pa[3], pb[3];
    for (int k = 0; k < 3; k++) {
        pa[k] = xa[k] - ra * o->n[k];
        pb[k] = xb[k] + rb * o->n[k];
    }
    collide_manifold_add(o, pa, pb, margin);
}

static const double ez[3] = { 0, 0, 1 };

/* The straight part of a capsule: start p, direction d (full length). */
static void segment(const collide_placed *c, double p[3], double d[3])
{
    for (int k = 0; k < 3; k++) {
        d[k] = 2.0 * c->size[1] * c->R[3 * k + 2];
        p[k] = c->c[k] - 0.5 * d[k];
    }
}

int collide_sphere_sphere(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    balls(o, a->c, a->size[0], b->c, b->size[0], ez, margin);
    return o->n_points;
}

int collide_sphere_capsule(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    double p[3], d[3], x[3], r[3];
    segment(b, p, d);
    for (int k = 0; k < 3; k++) r[k] = a->c[k] - p[k];
    double t = dot(r, d) / dot(d, d);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    for (int k = 0; k < 3; k++) x[k] = p[k] + t * d[k];
    o->n_points = 0;
    double fb[3] = { b->R[0], b->R[3], b->R[6] }; /* centre on the axis: push along the capsule's x */
    balls(o, a->c, a->size[0], x, b->size[0], fb, margin);
    return o->n_points;
}

/* Closest points of the two segments; nearly parallel segments that
 * overlap along their common direction also give the two ends of the
 * overlap, so a capsule lying on another rests on a line, not a point. */
int collide_capsule_capsule(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    double pa0[3], da[3], pb0[3], db[3], s, t, xa[3], xb[3];
    segment(a, pa0, da);
    segment(b, pb0, db);
    collide_segment_closest(pa0, da, pb0, db, &s, &t);
    for (int k = 0; k < 3; k++) {
        xa[k] = pa0[k] + s * da[k];
        xb[k] = pb0[k] + t * db[k];
    }
    double cr[3] = { da[1] * db[2] - da[2] * db[1], da[2] * db[0] - da[0] * db[2], da[0] * db[1] - da[1] * db[0] };
    double fb[3] = { cr[0], cr[1], cr[2] }, lc = sqrt(dot(cr, cr));
    if (lc > 0)
        for (int k = 0; k < 3; k++) fb[k] /= lc;
    else
        for (int k = 0; k < 3; k++) fb[k] = a->R[3 * k];
    o->n_points = 0;
    balls(o, xa, a->size[0], xb, b->size[0], fb, margin);
    double la = sqrt(dot(da, da)), lb = sqrt(dot(db, db));
    if (o->n_points == 0 || lc > 1e-3 * la * lb) return o->n_points;
    /* Parallel: the overlap of b's ends projected on a, and a's ends on b. */
    double n[3] = { o->n[0], o->n[1], o->n[2] };
    for (int end = 0; end < 4; end++) {
        const double *q0 = end < 2 ? pb0 : pa0, *qd = end < 2 ? db : da, *p0 = end < 2 ? pa0 : pb0;
        const double *pd = end < 2 ? da : db;
        double q[3], r[3], u, x[3];
        for (int k = 0; k < 3; k++) q[k] = q0[k] + (end & 1) * qd[k];
        for (int k = 0; k < 3; k++) r[k] = q[k] - p0[k];
        u = dot(r, pd) / dot(pd, pd);
        if (u <= 0 || u >= 1) continue;
        for (int k = 0; k < 3; k++) x[k] = p0[k] + u * pd[k];
        double pa[3], pb[3];
        const double *cA = end < 2 ? x : q, *cB = end < 2 ? q : x;
        for (int k = 0; k < 3; k++) {
            pa[k] = cA[k] - a->size[0] * n[k];
            pb[k] = cB[k] + b->size[0] * n[k];
        }
        collide_manifold_add(o, pa, pb, margin);
    }
    return o->n_points;
}
