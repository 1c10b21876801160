/* narrow_box.c — pairs with a box B: sphere–box (the box's closest
 * point, or the nearest face from inside), capsule–box (the segment's
 * signed distance to the box, convex along the segment, minimized by golden
 * section; the separating-axis test of the segment's Minkowski faces once the
 * segment itself enters the box), box–box (separating axes, then the
 * incident face clipped to the reference face, or the closest points of
 * two edges). */
#include "collide/collide.h"

#include <math.h>
#include <string.h>

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
/* Column k of R (the shape's axis k, world). */
static void axis(const double R[9], int k, double o[3])
{
    o[0] = R[k];
    o[1] = R[3 + k];
    o[2] = R[6 + k];
}
/* Box-local ↔ world. */
static void to_local(const collide_placed *b, const double x[3], double q[3])
{
    double r[3] = { x[0] - b->c[0], x[1] - b->c[1], x[2] - b->c[2] };
    for (int k = 0; k < 3; k++) q[k] = b->R[k] * r[0] + b->R[3 + k] * r[1] + b->R[6 + k] * r[2];
}
static void to_world(const collide_placed *b, const double q[3], double x[3])
{
    for (int i = 0; i < 3; i++) x[i] = b->c[i] + b->R[3 * i] * q[0] + b->R[3 * i + 1] * q[1] + b->R[3 * i + 2] * q[2];
}
static void to_world_dir(const collide_placed *b, const double q[3], double x[3])
{
    for (int i = 0; i < 3; i++) x[i] = b->R[3 * i] * q[0] + b->R[3 * i + 1] * q[1] + b->R[3 * i + 2] * q[2];
}

/* Signed distance of the local point q to the box, with the box point k on
 * its surface nearest q and the outward unit normal nl at k (local). */
static double box_sdf(const double h[3], const double q[3], double k[3], double nl[3])
{
    double d[3], L2 = 0;
    for (int i = 0; i < 3; i++) {
        k[i] = q[i] < -h[i] ? -h[i] : q[i] > h[i] ? h[i] : q[i];
        d[i] = q[i] - k[i];
        L2 += d[i] * d[i];
    }
    if (L2 > 0) {
        double L = sqrt(L2);
        for (int i = 0; i < 3; i++) nl[i] = d[i] / L;
        return L;
    }
    int f = 0;
    for (int i = 1; i < 3; i++)
        if (h[i] - fabs(q[i]) < h[f] - fabs(q[f])) f = i;
    double sg = q[f] < 0 ? -1.0 : 1.0;
    nl[0] = nl[1] = nl[2] = 0;
    nl[f] = sg;
    k[f] = sg * h[f];
    return -(h[f] - fabs(q[f]));
}

/* A ball (x, r) against the box: normal from the box's surface point. */
static void ball_box(collide_manifold *o, const collide_placed *b, const double x[3], double r, double margin)
{
    double q[3], k[3], nl[3], pa[3], pb[3];
    to_local(b, x, q);
    box_sdf(b->size, q, k, nl);
    to_world_dir(b, nl, o->n);
    to_world(b, k, pb);
    for (int i = 0; i < 3; i++) pa[i] = x[i] - r * o->n[i];
    collide_manifold_add(o, pa, pb, margin);
}

int collide_sphere_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    ball_box(o, b, a->c, a->size[0], margin);
    return o->n_points;
}

/* ---- capsule–box ---- */

/* min over t in [0, 1] of the convex f(t) = sdf(p + t d), golden section. */
static double segment_min(const double h[3], const double p[3], const double d[3])
{
    const double g = 0.61803398874989484820;
    double lo = 0, hi = 1, k[3], nl[3];
    double t1 = hi - g * (hi - lo), t2 = lo + g * (hi - lo), q[3], f1, f2;
    for (int i = 0; i < 3; i++) q[i] = p[i] + t1 * d[i];
    f1 = box_sdf(h, q, k, nl);
    for (int i = 0; i < 3; i++) q[i] = p[i] + t2 * d[i];
    f2 = box_sdf(h, q, k, nl);
    for (int it = 0; it < 80; it++) {
        if (f1 <= f2) {
            hi = t2, t2 = t1, f2 = f1;
            t1 = hi - g * (hi - lo);
            for (int i = 0; i < 3; i++) q[i] = p[i] + t1 * d[i];
            f1 = box_sdf(h, q, k, nl);
        } else {
            lo = t1, t1 = t2, f1 = f2;
            t2 = lo + g * (hi - lo);
            for (int i = 0; i < 3; i++) q[i] = p[i] + t2 * d[i];
            f2 = box_sdf(h, q, k, nl);
        }
    }
    return 0.5 * (lo + hi);
}

/* The segment p0 + t d (local) inside the box: the axis of least overlap
 * among the box's faces and d × its edges (the faces of the Minkowski sum);
 * n local, returns the overlap (depth of the capsule, radius included). */
static double segment_sat(const double h[3], const double p0[3], const double d[3], double r, double n[3])
{
    double best = INFINITY;
    for (int a = 0; a < 6; a++) {
        double u[3] = { 0, 0, 0 };
        if (a < 3) u[a] = 1;
        else {
            double e[3] = { 0, 0, 0 };
            e[a - 3] = 1;
            cross(d, e, u);
            double L = sqrt(dot(u, u));
            if (L < 1e-9 * sqrt(dot(d, d))) continue;
            for (int i = 0; i < 3; i++) u[i] /= L;
        }
        double hb = h[0] * fabs(u[0]) + h[1] * fabs(u[1]) + h[2] * fabs(u[2]);
        double s0 = dot(u, p0), s1 = s0 + dot(u, d);
        double up = hb - fmin(s0, s1) + r, down = fmax(s0, s1) + hb + r;
        double o = up <= down ? up : down, sg = up <= down ? 1.0 : -1.0;
        if (o < best) {
            best = o;
            for (int i = 0; i < 3; i++) n[i] = sg * u[i];
        }
    }
    return best;
}

int collide_capsule_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    const double r = a->size[0], *h = b->size;
    double zw[3], p0w[3], p0[3], d[3], q[3], k[3], nl[3];
    axis(a->R, 2, zw);
    for (int i = 0; i < 3; i++) p0w[i] = a->c[i] - a->size[1] * zw[i];
    to_local(b, p0w, p0);
    for (int i = 0; i < 3; i++) d[i] = 2.0 * a->size[1] * (b->R[i] * zw[0] + b->R[3 + i] * zw[1] + b->R[6 + i] * zw[2]);
    double t = segment_min(h, p0, d);
    for (int i = 0; i < 3; i++) q[i] = p0[i] + t * d[i];
    if (box_sdf(h, q, k, nl) > 0) {
        double x[3], pa[3], pb[3];
        to_world(b, q, x);
        to_world(b, k, pb);
        to_world_dir(b, nl, o->n);
        for (int i = 0; i < 3; i++) pa[i] = x[i] - r * o->n[i];
        collide_manifold_add(o, pa, pb, margin);
        /* The ends too, where their own normal is the manifold's and the end
         * does not point along it (so x − r n is on the capsule's surface):
         * a capsule lying on a face rests on its two ends. */
        for (int e = 0; e < 2; e++) {
            double qe[3], ke[3], ne[3];
            for (int i = 0; i < 3; i++) qe[i] = p0[i] + e * d[i];
            if (fabs(t - e) < 1e-12 || box_sdf(h, qe, ke, ne) <= 0 || dot(ne, nl) < 1.0 - 1e-9 ||
                (e ? 1.0 : -1.0) * dot(d, nl) > 0)
                continue;
            to_world(b, qe, x);
            to_world(b, ke, pb);
            for (int i = 0; i < 3; i++) pa[i] = x[i] - r * o->n[i];
            collide_manifold_add(o, pa, pb, margin);
        }
        return o->n_points;
    }
    /* The segment enters the box: least overlap, deepest end(s) along −n. */
    double depth = segment_sat(h, p0, d, r, nl);
    to_world_dir(b, nl, o->n);
    double s0 = dot(nl, p0), s1 = s0 + dot(nl, d);
    for (int e = 0; e < 2; e++) {
        double se = e ? s1 : s0, so = e ? s0 : s1;
        if (se > so + 1e-12 * (1.0 + fabs(so))) continue;
        double qe[3], x[3], pa[3], pb[3];
        for (int i = 0; i < 3; i++) qe[i] = p0[i] + e * d[i];
        to_world(b, qe, x);
        for (int i = 0; i < 3; i++) {
            pa[i] = x[i] - r * o->n[i];
            pb[i] = pa[i] + depth * o->n[i];
        }
        collide_manifold_add(o, pa, pb, margin);
    }
    return o->n_points;
}

/* ---- box–box ---- */

/* Keep the part of polygon in (n, c) with (x − c)·u ≤ lim; returns its size.
 * A vertex within rounding of the line (|d| ≤ tol) is on it: kept, and no
 * crossing is made next to it, so aligned faces (a box resting square on
 * another) give their corners and no spurious midpoints. */
static int clip(double (*in)[3], int n, double (*out)[3], const double c[3], const double u[3], double lim)
{
    const double tol = 1e-12 * fabs(lim);
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *p = in[i], *q = in[(i + 1) % n];
        double dp = (p[0] - c[0]) * u[0] + (p[1] - c[1]) * u[1] + (p[2] - c[2]) * u[2] - lim;
        double dq = (q[0] - c[0]) * u[0] + (q[1] - c[1]) * u[1] + (q[2] - c[2]) * u[2] - lim;
        if (dp <= tol) {
            for (int k = 0; k < 3; k++) out[m][k] = p[k];
            m++;
        }
        if ((dp < -tol && dq > tol) || (dp > tol && dq < -tol)) {
            double s = dp / (dp - dq);
            for (int k = 0; k < 3; k++) out[m][k] = p[k] + s * (q[k] - p[k]);
            m++;
        }
    }
    return m;
}

/* Reference box `ref` (face normal m outward, along its axis f), incident
 * box `inc`: the incident face (the one whose outward normal is most
 * against m) clipped to the reference face's sides; each point below the
 * reference plane + margin gives (point on inc, its projection on ref). */
static void face_contact(collide_manifold *o, const collide_placed *ref, const collide_placed *inc, int f,
                         const double m[3], int ref_is_a, double margin)
{
    int fi = 0;
    double best = INFINITY, ax[3];
    for (int k = 0; k < 3; k++) {
        axis(inc->R, k, ax);
        double v = -fabs(dot(ax, m));
        if (v < best - 1e-12) best = v, fi = k;
    }
    axis(inc->R, fi, ax);
    double sg = dot(ax, m) > 0 ? -1.0 : 1.0, u[3], w[3], cf[3];
    int i1 = (fi + 1) % 3, i2 = (fi + 2) % 3;
    axis(inc->R, i1, u);
    axis(inc->R, i2, w);
    for (int k = 0; k < 3; k++) cf[k] = inc->c[k] + sg * inc->size[fi] * ax[k];
    double poly[16][3], tmp[16][3];
    static const double sx[4] = { 1, -1, -1, 1 }, sy[4] = { 1, 1, -1, -1 };
    for (int v = 0; v < 4; v++)
        for (int k = 0; k < 3; k++) poly[v][k] = cf[k] + sx[v] * inc->size[i1] * u[k] + sy[v] * inc->size[i2] * w[k];
    int n = 4;
    for (int s = 1; s <= 2 && n > 0; s++) {
        int j = (f + s) % 3;
        double e[3], me[3];
        axis(ref->R, j, e);
        for (int k = 0; k < 3; k++) me[k] = -e[k];
        n = clip(poly, n, tmp, ref->c, e, ref->size[j]);
        n = clip(tmp, n, poly, ref->c, me, ref->size[j]);
    }
    for (int v = 0; v < n; v++) {
        const double *x = poly[v];
        double s = (x[0] - ref->c[0]) * m[0] + (x[1] - ref->c[1]) * m[1] + (x[2] - ref->c[2]) * m[2] - ref->size[f];
        double proj[3] = { x[0] - s * m[0], x[1] - s * m[1], x[2] - s * m[2] };
        if (ref_is_a) collide_manifold_add(o, proj, x, margin);
        else collide_manifold_add(o, x, proj, margin);
    }
}

/* Support edge of box s in direction dir: the edge along axis e, centre out. */
static void support_edge(const collide_placed *s, int e, const double dir[3], double p[3], double d[3])
{
    double ax[3];
    for (int k = 0; k < 3; k++) p[k] = s->c[k];
    for (int j = 0; j < 3; j++) {
        axis(s->R, j, ax);
        if (j == e) {
            for (int k = 0; k < 3; k++) d[k] = 2.0 * s->size[j] * ax[k];
            continue;
        }
        double sg = dot(ax, dir) >= 0 ? 1.0 : -1.0;
        for (int k = 0; k < 3; k++) p[k] += sg * s->size[j] * ax[k];
    }
    for (int k = 0; k < 3; k++) p[k] -= 0.5 * d[k];
}

int collide_box_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    double A[3][3], B[3][3], t[3] = { a->c[0] - b->c[0], a->c[1] - b->c[1], a->c[2] - b->c[2] };
    for (int k = 0; k < 3; k++) {
        axis(a->R, k, A[k]);
        axis(b->R, k, B[k]);
    }
    /* Separation along u (unit), oriented from B to A. */
    double best_face = -INFINITY, best_edge = -INFINITY, nf[3], ne[3];
    int face = -1, edge_i = -1, edge_j = -1;
    for (int c = 0; c < 15; c++) {
        double u[3];
        if (c < 3) memcpy(u, A[c], sizeof u);
        else if (c < 6) memcpy(u, B[c - 3], sizeof u);
        else {
            cross(A[(c - 6) / 3], B[(c - 6) % 3], u);
            double L = sqrt(dot(u, u));
            if (L < 1e-6) continue;
            for (int k = 0; k < 3; k++) u[k] /= L;
        }
        double ra = 0, rb = 0, d = dot(u, t);
        for (int k = 0; k < 3; k++) {
            ra += a->size[k] * fabs(dot(u, A[k]));
            rb += b->size[k] * fabs(dot(u, B[k]));
        }
        double sep = fabs(d) - ra - rb, sg = d >= 0 ? 1.0 : -1.0;
        if (sep > margin) return 0;
        if (c < 6 ? sep > best_face + 1e-12 : sep > best_edge) {
            double *nn = c < 6 ? nf : ne;
            for (int k = 0; k < 3; k++) nn[k] = sg * u[k];
            if (c < 6) best_face = sep, face = c;
            else best_edge = sep, edge_i = (c - 6) / 3, edge_j = (c - 6) % 3;
        }
    }
    /* Faces unless an edge pair separates clearly more (stable resting). */
    double tol = 1e-5 * (a->size[0] + a->size[1] + a->size[2] + b->size[0] + b->size[1] + b->size[2]);
    if (edge_i < 0 || best_edge <= best_face + tol) {
        memcpy(o->n, nf, sizeof nf);
        if (face < 3) {
            double m[3] = { -nf[0], -nf[1], -nf[2] };
            face_contact(o, a, b, face, m, 1, margin);
        } else face_contact(o, b, a, face - 3, nf, 0, margin);
        return o->n_points;
    }
    memcpy(o->n, ne, sizeof ne);
    double mn[3] = { -ne[0], -ne[1], -ne[2] }, pa0[3], da[3], pb0[3], db[3], s, u, pa[3], pb[3];
    support_edge(a, edge_i, mn, pa0, da);
    support_edge(b, edge_j, ne, pb0, db);
    collide_segment_closest(pa0, da, pb0, db, &s, &u);
    for (int k = 0; k < 3; k++) {
        pa[k] = pa0[k] + s * da[k];
        pb[k] = pb0[k] + u * db[k];
    }
    collide_manifold_add(o, pa, pb, margin);
    return o->n_points;
}
