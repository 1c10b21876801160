/* test_hull_collide.c — the convex hull collider (core/collide/gjk.c,
 * narrow_hull.c) against closed forms and brute force:
 *   a hull of a box's eight corners gives the same contacts as the box
 *   collider: against a plane (every point, 1e-12) and against a box (the
 *   normal and the depths of a face contact, 1e-12; the deepest separation
 *   at random poses, where the box–box test's preference for faces allows);
 *   an icosphere hull on a plane touches at its lowest vertex (closed form);
 *   random convex hulls against each other and against every shape: the
 *   signed distance s is certified — the normal n achieves it (−h_A(−n) −
 *   h_B(n) = s, support functions written here), and apart, the reported
 *   points are s apart — and equals brute force: against a hull or a box,
 *   exactly (1e-12; apart, the least point–triangle or segment–segment
 *   distance over every three and two points; overlapping, the separating
 *   axes of every three points and every two segments), against round
 *   shapes the sampled max over unit u of −h_A(−u) − h_B(u) never exceeds
 *   it (a cylinder's curved support: GJK and EPA to 1e-6 m); every point's
 *   depth is −(pa − pb)·n and the deepest is s;
 *   a box-like hull resting on a face gets four points, not one;
 *   the same call twice gives bitwise the same manifold. */
#include "collide/collide.h"
#include "random_shapes.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 987654321;
static double uniform(void) { return test_uniform(&rng); }
static void random_rotation(double R[9]) { test_random_rotation(&rng, R); }

static collide_placed placed(collide_kind kind, const double c[3], const double R[9], const double size[3])
{
    collide_placed p = { .kind = kind };
    memcpy(p.c, c, sizeof p.c);
    memcpy(p.R, R, sizeof p.R);
    if (size) memcpy(p.size, size, sizeof p.size);
    return p;
}

static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

/* The eight corners of a box of half extents h, in the order of the box–plane test. */
static void box_corners(const double h[3], double *v)
{
    for (int i = 0; i < 8; i++) {
        v[3 * i] = i & 1 ? h[0] : -h[0];
        v[3 * i + 1] = i & 2 ? h[1] : -h[1];
        v[3 * i + 2] = i & 4 ? h[2] : -h[2];
    }
}

/* h(u) = max over the shape of u·x (with its radius). */
static double support(const collide_placed *s, const double u[3])
{
    double l[3], h = dot(u, s->c);
    m3_tmulv(s->R, u, l);
    switch (s->kind) {
    case COLLIDE_SPHERE: return h + s->size[0];
    case COLLIDE_CAPSULE: return h + s->size[1] * fabs(l[2]) + s->size[0];
    case COLLIDE_BOX: return h + s->size[0] * fabs(l[0]) + s->size[1] * fabs(l[1]) + s->size[2] * fabs(l[2]);
    case COLLIDE_CYLINDER: return h + s->size[1] * fabs(l[2]) + s->size[0] * sqrt(fmax(0, 1 - l[2] * l[2]));
    case COLLIDE_HULL: {
        double m = -INFINITY;
        for (int i = 0; i < s->nhull; i++) m = fmax(m, dot(l, s->hull + 3 * i));
        return h + m;
    }
    default: return INFINITY;
    }
}

static double gap(const collide_placed *a, const collide_placed *b, const double u[3])
{
    double m[3] = { -u[0], -u[1], -u[2] };
    return -support(a, m) - support(b, u);
}

static void unit_from(const double base[3], const double t1[3], const double t2[3], double x, double y, double u[3])
{
    for (int k = 0; k < 3; k++) u[k] = base[k] + x * t1[k] + y * t2[k];
    double L = sqrt(dot(u, u));
    for (int k = 0; k < 3; k++) u[k] /= L;
}

/* max over unit u of gap: the sphere sampled, then a shrinking pattern
 * search about the best direction. */
static double brute_distance(const collide_placed *a, const collide_placed *b)
{
    const int ns = 20000;
    double best = -INFINITY, u[3], bu[3] = { 0, 0, 1 };
    for (int i = 0; i < ns; i++) {
        double z = 1 - (2 * i + 1.0) / ns, r = sqrt(1 - z * z), ph = i * 2.39996322972865332;
        u[0] = r * cos(ph), u[1] = r * sin(ph), u[2] = z;
        double g = gap(a, b, u);
        if (g > best) best = g, memcpy(bu, u, sizeof u);
    }
    for (double step = 0.05; step > 1e-12; step *= 0.5) {
        int improved = 1;
        while (improved) {
            improved = 0;
            double t1[3], t2[3], e[3] = { 0, 0, 0 };
            e[fabs(bu[0]) < 0.6 ? 0 : 1] = 1;
            v3_cross(bu, e, t1);
            double L = sqrt(dot(t1, t1));
            for (int k = 0; k < 3; k++) t1[k] /= L;
            v3_cross(bu, t1, t2);
            static const double dirs[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 },  { 0, -1 },
                                               { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
            for (int d = 0; d < 8; d++) {
                unit_from(bu, t1, t2, step * dirs[d][0], step * dirs[d][1], u);
                double g = gap(a, b, u);
                if (g > best) {
                    best = g, memcpy(bu, u, sizeof u), improved = 1;
                    break;
                }
            }
        }
    }
    return best;
}

/* The deepest separation of a manifold, +INF when empty. */
static double min_sep(const collide_manifold *m)
{
    double s = INFINITY;
    for (int i = 0; i < m->n_points; i++) s = fmin(s, -m->depth[i]);
    return s;
}

/* Greatest difference between two manifolds' normals and their points' depths
 * and positions, matched point by point (each to its nearest in the other). */
static double manifold_diff(const collide_manifold *x, const collide_manifold *y)
{
    if (x->n_points != y->n_points) return INFINITY;
    double e = 0;
    for (int k = 0; k < 3; k++) e = fmax(e, fabs(x->n[k] - y->n[k]));
    for (int i = 0; i < x->n_points; i++) {
        int best = -1;
        double bd = INFINITY;
        for (int j = 0; j < y->n_points; j++) {
            double d = 0;
            for (int k = 0; k < 3; k++)
                d = fmax(d, fmax(fabs(x->pa[i][k] - y->pa[j][k]), fabs(x->pb[i][k] - y->pb[j][k])));
            if (d < bd) bd = d, best = j;
        }
        e = fmax(e, fmax(bd, fabs(x->depth[i] - y->depth[best])));
    }
    return e;
}

static void box_hull_vs_plane(void)
{
    double h[3] = { 0.3, 0.2, 0.1 }, v[24], worst = 0;
    box_corners(h, v);
    for (int t = 0; t < 200; t++) {
        double R[9], c[3] = { uniform() - 0.5, uniform() - 0.5, 0.25 * uniform() - 0.1 }, P[9];
        random_rotation(R);
        random_rotation(P);
        collide_placed box = placed(COLLIDE_BOX, c, R, h), hull = placed(COLLIDE_HULL, c, R, NULL);
        hull.hull = v, hull.nhull = 8;
        collide_placed plane = placed(COLLIDE_PLANE, (double[3]){ 0, 0, 0 }, t % 2 ? P : I3, NULL);
        collide_manifold mb, mh;
        collide_pair(&box, &plane, 0.01, &mb);
        collide_pair(&hull, &plane, 0.01, &mh);
        worst = fmax(worst, mb.n_points || mh.n_points ? manifold_diff(&mb, &mh) : 0);
    }
    expect("box hull on a plane: the box collider's points, normal and depths (1e-12)", worst <= 1e-12, worst);
}

static void box_hull_vs_box(void)
{
    /* face contacts: a box resting on a box, turned about the normal, pressed in 1 mm */
    double ha[3] = { 0.3, 0.2, 0.1 }, hb[3] = { 0.5, 0.4, 0.2 }, v[24], worst = 0;
    box_corners(ha, v);
    for (int t = 0; t < 50; t++) {
        double R[9], c[3] = { 0.4 * uniform() - 0.2, 0.4 * uniform() - 0.2, ha[2] + hb[2] - 1e-3 };
        rot_axis_angle((double[3]){ 0, 0, 1 }, 6.283185307179586 * uniform(), R);
        collide_placed A = placed(COLLIDE_BOX, c, R, ha), H = placed(COLLIDE_HULL, c, R, NULL);
        collide_placed B = placed(COLLIDE_BOX, (double[3]){ 0, 0, 0 }, I3, hb);
        H.hull = v, H.nhull = 8;
        collide_manifold mb, mh;
        collide_pair(&A, &B, 0.01, &mb);
        collide_pair(&H, &B, 0.01, &mh);
        worst = fmax(worst, manifold_diff(&mb, &mh));
    }
    {
        double c[3] = { 0.05, -0.03, ha[2] + hb[2] - 1e-3 };
        collide_placed H = placed(COLLIDE_HULL, c, I3, NULL), B = placed(COLLIDE_BOX, (double[3]){ 0, 0, 0 }, I3, hb);
        H.hull = v, H.nhull = 8;
        collide_manifold m;
        collide_pair(&H, &B, 0.01, &m);
        expect("box hull resting inside a box's top face: its four corners", m.n_points == 4, m.n_points);
    }
    expect("box hull resting on a box: the box–box points, normal and depths (1e-12)", worst <= 1e-12, worst);
    /* random poses: the deepest separation agrees to 1e-12, or differs by at most
     * box–box's preference for face normals (1e-5 of the sizes), where EPA finds the
     * smaller true penetration */
    int exact = 0, n = 0;
    double off = 0;
    for (int t = 0; t < 400; t++) {
        double Ra[9], Rb[9], c[3];
        random_rotation(Ra);
        random_rotation(Rb);
        for (int k = 0; k < 3; k++) c[k] = 0.6 * uniform() - 0.3;
        collide_placed A = placed(COLLIDE_BOX, c, Ra, ha), H = placed(COLLIDE_HULL, c, Ra, NULL);
        collide_placed B = placed(COLLIDE_BOX, (double[3]){ 0, 0, 0 }, Rb, hb);
        H.hull = v, H.nhull = 8;
        collide_manifold mb, mh;
        if (!collide_pair(&A, &B, 0.0, &mb)) continue;
        collide_pair(&H, &B, 0.0, &mh);
        double d = min_sep(&mh) - min_sep(&mb);
        n++;
        if (fabs(d) <= 1e-12) exact++;
        else off = fmax(off, d < 0 ? INFINITY : d);
    }
    printf("     %d of %d random overlapping box pairs agree to 1e-12\n", exact, n);
    expect("box hull vs box at random poses: deepest separation as box–box (1e-12), else within its face preference",
           n > 100 && exact > n / 2 && off <= 1e-5 * 1.7, off);
}

/* An icosahedron subdivided once, on the sphere of radius r: 42 vertices. */
static int icosphere(double r, double *v)
{
    const double t = (1 + sqrt(5.0)) / 2;
    double b[12][3] = { { -1, t, 0 },  { 1, t, 0 },  { -1, -t, 0 }, { 1, -t, 0 }, { 0, -1, t },  { 0, 1, t },
                        { 0, -1, -t }, { 0, 1, -t }, { t, 0, -1 },  { t, 0, 1 },  { -t, 0, -1 }, { -t, 0, 1 } };
    int n = 0;
    for (int i = 0; i < 12; i++) memcpy(v + 3 * n++, b[i], sizeof b[i]);
    double edge = 2.0; /* the icosahedron's edge length for these coordinates */
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++) {
            double d[3] = { b[i][0] - b[j][0], b[i][1] - b[j][1], b[i][2] - b[j][2] };
            if (fabs(sqrt(dot(d, d)) - edge) > 1e-9) continue;
            for (int k = 0; k < 3; k++) v[3 * n + k] = 0.5 * (b[i][k] + b[j][k]);
            n++;
        }
    for (int i = 0; i < n; i++) {
        double L = sqrt(dot(v + 3 * i, v + 3 * i));
        for (int k = 0; k < 3; k++) v[3 * i + k] *= r / L;
    }
    return n;
}

static void icosphere_on_plane(void)
{
    double v[42 * 3], r = 0.25, worst = 0;
    int n = icosphere(r, v);
    expect("icosphere: 42 vertices", n == 42, n);
    for (int t = 0; t < 100; t++) {
        double R[9], c[3] = { uniform(), uniform(), 0.24 + 0.02 * uniform() };
        random_rotation(R);
        collide_placed H = placed(COLLIDE_HULL, c, R, NULL);
        H.hull = v, H.nhull = n;
        collide_placed plane = placed(COLLIDE_PLANE, (double[3]){ 0, 0, 0 }, I3, NULL);
        double low = INFINITY;
        for (int i = 0; i < n; i++) {
            double x[3];
            m3_mulv(R, v + 3 * i, x);
            low = fmin(low, c[2] + x[2]);
        }
        collide_manifold m;
        collide_pair(&H, &plane, 0.0, &m);
        worst = fmax(worst, low < 0 ? fabs(min_sep(&m) - low) + fabs(m.n[2] - 1) : m.n_points);
        /* and as a hull against a hull: the plane's half space is not one, but a thin
         * wide box below z = 0 is, and its top face gives the same depth */
        double hb[3] = { 10, 10, 0.5 }, vb[24];
        box_corners(hb, vb);
        collide_placed B = placed(COLLIDE_HULL, (double[3]){ 0, 0, -0.5 }, I3, NULL);
        B.hull = vb, B.nhull = 8;
        collide_manifold mh;
        if (low < -1e-9) {
            collide_pair(&H, &B, 0.0, &mh);
            worst = fmax(worst, fabs(min_sep(&mh) - low) + fabs(mh.n[2] - 1));
        }
    }
    expect("icosphere hull on a plane and on a box hull: depth is its lowest vertex's, normal +z (1e-12)",
           worst <= 1e-12, worst);
}

/* n random points on an ellipsoid of semi-axes e, jittered inwards: their hull. */
static void random_cloud(double *v, int n, const double e[3])
{
    for (int i = 0; i < n; i++) {
        double u[3], L;
        do {
            for (int k = 0; k < 3; k++) u[k] = 2 * uniform() - 1;
            L = sqrt(dot(u, u));
        } while (L < 0.1 || L > 1);
        double s = 1 - 0.3 * uniform();
        for (int k = 0; k < 3; k++) v[3 * i + k] = s * e[k] * u[k] / L;
    }
}

/* The points of a polytope shape (a hull's vertices, a box's corners) in the world. */
static int world_points(const collide_placed *s, double *x)
{
    double box[24];
    const double *v = s->hull;
    int n = s->nhull;
    if (s->kind == COLLIDE_BOX) box_corners(s->size, box), v = box, n = 8;
    for (int i = 0; i < n; i++) {
        m3_mulv(s->R, v + 3 * i, x + 3 * i);
        for (int k = 0; k < 3; k++) x[3 * i + k] += s->c[k];
    }
    return n;
}

/* Two polytopes' signed distance by the separating axis theorem: the max of
 * gap over every plane normal of three points of either and every cross
 * product of a segment of each (a superset of the Minkowski difference's
 * face normals, where the max is attained). */
static double sat_distance(const collide_placed *a, const collide_placed *b)
{
    double pa[COLLIDE_HULL_MAX * 3], pb[COLLIDE_HULL_MAX * 3], best = -INFINITY;
    int na = world_points(a, pa), nb = world_points(b, pb);
    const double *P[2] = { pa, pb };
    int N[2] = { na, nb };
#define TRY(u) \
    do { \
        double L_ = sqrt(dot(u, u)); \
        if (L_ > 1e-12) { \
            for (int k_ = 0; k_ < 3; k_++) u[k_] /= L_; \
            best = fmax(best, gap(a, b, u)); \
            double m_[3] = { -u[0], -u[1], -u[2] }; \
            best = fmax(best, gap(a, b, m_)); \
        } \
    } while (0)
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < N[s]; i++)
            for (int j = i + 1; j < N[s]; j++)
                for (int k = j + 1; k < N[s]; k++) {
                    double e[3], f[3], u[3];
                    for (int q = 0; q < 3; q++)
                        e[q] = P[s][3 * j + q] - P[s][3 * i + q], f[q] = P[s][3 * k + q] - P[s][3 * i + q];
                    v3_cross(e, f, u);
                    TRY(u);
                }
    for (int i = 0; i < na; i++)
        for (int j = i + 1; j < na; j++)
            for (int k = 0; k < nb; k++)
                for (int l = k + 1; l < nb; l++) {
                    double e[3], f[3], u[3];
                    for (int q = 0; q < 3; q++)
                        e[q] = pa[3 * j + q] - pa[3 * i + q], f[q] = pb[3 * l + q] - pb[3 * k + q];
                    v3_cross(e, f, u);
                    TRY(u);
                }
#undef TRY
    return best;
}

/* Distance from x to segment p q. */
static double point_segment(const double x[3], const double p[3], const double q[3])
{
    double d[3], r[3];
    for (int k = 0; k < 3; k++) d[k] = q[k] - p[k], r[k] = x[k] - p[k];
    double t = fmin(1, fmax(0, dot(r, d) / dot(d, d)));
    for (int k = 0; k < 3; k++) r[k] -= t * d[k];
    return sqrt(dot(r, r));
}

/* Distance from x to triangle a b c: to its plane when x projects inside, else to its edges. */
static double point_triangle(const double x[3], const double a[3], const double b[3], const double c[3])
{
    double e[3], f[3], n[3], r[3];
    for (int k = 0; k < 3; k++) e[k] = b[k] - a[k], f[k] = c[k] - a[k], r[k] = x[k] - a[k];
    v3_cross(e, f, n);
    double L = sqrt(dot(n, n)), best = fmin(point_segment(x, a, b), fmin(point_segment(x, b, c), point_segment(x, c, a)));
    if (L < 1e-14) return best;
    for (int k = 0; k < 3; k++) n[k] /= L;
    double h = dot(r, n), p[3];
    for (int k = 0; k < 3; k++) p[k] = x[k] - h * n[k];
    const double *V[3] = { a, b, c };
    int inside = 1;
    for (int i = 0; i < 3; i++) {
        double g[3], q[3], m[3];
        for (int k = 0; k < 3; k++) g[k] = V[(i + 1) % 3][k] - V[i][k], q[k] = p[k] - V[i][k];
        v3_cross(g, q, m);
        inside &= dot(m, n) >= 0;
    }
    return inside ? fmin(best, fabs(h)) : best;
}

/* Two polytopes apart: the least distance between a point of one and a
 * triangle of three points of the other, or a segment of each (every face
 * and edge among them). */
static double apart_distance(const collide_placed *a, const collide_placed *b)
{
    double pa[COLLIDE_HULL_MAX * 3], pb[COLLIDE_HULL_MAX * 3], best = INFINITY;
    int na = world_points(a, pa), nb = world_points(b, pb);
    for (int s = 0; s < 2; s++) {
        const double *P = s ? pb : pa, *Q = s ? pa : pb;
        int np = s ? nb : na, nq = s ? na : nb;
        for (int i = 0; i < np; i++)
            for (int j = i + 1; j < np; j++)
                for (int k = j + 1; k < np; k++)
                    for (int q = 0; q < nq; q++)
                        best = fmin(best, point_triangle(Q + 3 * q, P + 3 * i, P + 3 * j, P + 3 * k));
    }
    for (int i = 0; i < na; i++)
        for (int j = i + 1; j < na; j++)
            for (int k = 0; k < nb; k++)
                for (int l = k + 1; l < nb; l++) {
                    double d1[3], d2[3], s, t, x[3];
                    for (int q = 0; q < 3; q++)
                        d1[q] = pa[3 * j + q] - pa[3 * i + q], d2[q] = pb[3 * l + q] - pb[3 * k + q];
                    collide_segment_closest(pa + 3 * i, d1, pb + 3 * k, d2, &s, &t);
                    for (int q = 0; q < 3; q++) x[q] = pa[3 * i + q] + s * d1[q] - pb[3 * k + q] - t * d2[q];
                    best = fmin(best, sqrt(dot(x, x)));
                }
    return best;
}

static void random_pairs(void)
{
    static const collide_kind kinds[] = { COLLIDE_HULL, COLLIDE_BOX, COLLIDE_SPHERE, COLLIDE_CAPSULE, COLLIDE_CYLINDER };
    static const char *names[] = { "hull", "box", "sphere", "capsule", "cylinder" };
    for (int kb = 0; kb < 5; kb++) {
        double worst = 0, worst_cert = 0, worst_depth = 0, worst_brute = 0;
        int contacts = 0;
        for (int t = 0; t < 60; t++) {
            double va[12 * 3], vb[16 * 3], Ra[9], Rb[9], ca[3], cb[3] = { 0, 0, 0 };
            random_cloud(va, 12, (double[3]){ 0.3, 0.2, 0.25 });
            random_cloud(vb, 16, (double[3]){ 0.2, 0.35, 0.15 });
            random_rotation(Ra);
            random_rotation(Rb);
            double dir[3], L;
            do {
                for (int k = 0; k < 3; k++) dir[k] = 2 * uniform() - 1;
                L = sqrt(dot(dir, dir));
            } while (L < 0.1 || L > 1);
            double dist = 0.1 + 0.5 * uniform();
            for (int k = 0; k < 3; k++) ca[k] = dist * dir[k] / L;
            collide_placed A = placed(COLLIDE_HULL, ca, Ra, NULL);
            A.hull = va, A.nhull = 12;
            collide_placed B = placed(kinds[kb], cb, Rb, (double[3]){ 0.15, 0.12, 0.1 });
            if (kinds[kb] == COLLIDE_HULL) B.hull = vb, B.nhull = 16;
            collide_gjk g;
            collide_gjk_epa(&A, &B, &g);
            double tol = kinds[kb] == COLLIDE_CYLINDER ? 1e-6 : 1e-12; /* a curved support: GJK and EPA to 1e-6 */
            double ra = collide_radius(&A), rb = collide_radius(&B), got = g.dist - g.depth - ra - rb;
            /* certificates: the direction n achieves got (got <= the max), and when apart the
             * points pa, pb of the cores are got + radii apart (the max <= got) */
            worst_cert = fmax(worst_cert, fabs(gap(&A, &B, g.n) - got));
            if (g.dist > 0) {
                double d[3] = { g.pa[0] - g.pb[0], g.pa[1] - g.pb[1], g.pa[2] - g.pb[2] };
                worst_cert = fmax(worst_cert, fabs(sqrt(dot(d, d)) - ra - rb - got));
            }
            if (kinds[kb] == COLLIDE_HULL || kinds[kb] == COLLIDE_BOX)
                worst = fmax(worst, fabs(got - (got > 0 ? apart_distance(&A, &B) : sat_distance(&A, &B))));
            else { /* sampled: never above got, and close below */ double brute = brute_distance(&A, &B);
                worst_brute = fmax(worst_brute, brute - got > tol ? INFINITY : got - brute);
            }
            collide_manifold m;
            if (collide_pair(&A, &B, 0.05, &m)) {
                contacts++;
                for (int i = 0; i < m.n_points; i++) {
                    double d[3] = { m.pa[i][0] - m.pb[i][0], m.pa[i][1] - m.pb[i][1], m.pa[i][2] - m.pb[i][2] };
                    worst_depth = fmax(worst_depth, fabs(m.depth[i] + dot(d, m.n)));
                }
                worst_cert = fmax(worst_cert, fabs(min_sep(&m) - got)); /* the deepest point is at got */
            }
        }
        char what[200];
        snprintf(
            what, sizeof what,
            "hull vs %s: got = gap(n), = |pa - pb| when apart, = the deepest point (1e-12; cylinder 1e-6); %d with contacts",
            names[kb], contacts);
        expect(what, worst_cert <= (kinds[kb] == COLLIDE_CYLINDER ? 1e-6 : 1e-12) && contacts > 5, worst_cert);
        if (kinds[kb] == COLLIDE_HULL || kinds[kb] == COLLIDE_BOX) {
            snprintf(what, sizeof what, "hull vs %s: signed distance = brute-force separating axes (1e-12)", names[kb]);
            expect(what, worst <= 1e-12, worst);
        } else {
            snprintf(what, sizeof what,
                     "hull vs %s: sampled brute force max_u gap never above (1e-12; cylinder 1e-6), within 1e-3 below",
                     names[kb]);
            expect(what, worst_brute <= 1e-3, worst_brute);
        }
        snprintf(what, sizeof what, "hull vs %s: depth = -(pa - pb).n", names[kb]);
        expect(what, worst_depth <= 1e-12, worst_depth);
    }
}

static void deterministic(void)
{
    double va[20 * 3], vb[20 * 3];
    random_cloud(va, 20, (double[3]){ 0.3, 0.2, 0.25 });
    random_cloud(vb, 20, (double[3]){ 0.3, 0.2, 0.25 });
    collide_placed A = placed(COLLIDE_HULL, (double[3]){ 0.1, 0.2, 0.3 }, I3, NULL);
    collide_placed B = placed(COLLIDE_HULL, (double[3]){ 0, 0.1, 0.1 }, I3, NULL);
    A.hull = va, A.nhull = 20, B.hull = vb, B.nhull = 20;
    collide_manifold x, y;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    int n = collide_pair(&A, &B, 0.01, &x);
    collide_pair(&A, &B, 0.01, &y);
    expect("the same hull pair twice: bitwise the same manifold", n > 0 && memcmp(&x, &y, sizeof x) == 0, n);
}

static void sdf_and_aabb(void)
{
    double h[3] = { 0.3, 0.2, 0.1 }, v[24], R[9], worst = 0;
    box_corners(h, v);
    random_rotation(R);
    double c[3] = { 0.1, -0.2, 0.3 };
    collide_placed box = placed(COLLIDE_BOX, c, R, h), hull = placed(COLLIDE_HULL, c, R, NULL);
    hull.hull = v, hull.nhull = 8;
    for (int t = 0; t < 200; t++) {
        double x[3], n1[3], n2[3];
        for (int k = 0; k < 3; k++) x[k] = c[k] + 0.8 * uniform() - 0.4;
        double a = collide_sdf(&box, x, n1), b = collide_sdf(&hull, x, n2);
        worst = fmax(worst, fabs(a - b));
    }
    expect("box hull: signed distance of points = the box's (1e-12)", worst <= 1e-12, worst);
    double lo1[3], hi1[3], lo2[3], hi2[3], e = 0;
    collide_placed_aabb(&box, lo1, hi1);
    collide_placed_aabb(&hull, lo2, hi2);
    for (int k = 0; k < 3; k++) e = fmax(e, fmax(fabs(lo1[k] - lo2[k]), fabs(hi1[k] - hi2[k])));
    expect("box hull: bounding box = the box's (1e-12)", e <= 1e-12, e);
}

int main(void)
{
    box_hull_vs_plane();
    box_hull_vs_box();
    icosphere_on_plane();
    random_pairs();
    deterministic();
    sdf_and_aabb();
    return failures ? 1 : 0;
}
