/* narrow_hull.c — a convex hull against a plane and against any convex
 * shape.  Against a plane, every vertex closer than the margin.  Against a
 * shape, GJK and EPA (gjk.c) give the normal n and the deepest pair; then
 * each shape's touching feature — the points of its core within a small
 * distance of its support plane across n: a face, an edge or a vertex — and
 * when one is a face and the other at least an edge, the other's feature is
 * clipped to the face's sides (Sutherland & Hodgman, "Reentrant polygon
 * clipping", 1974) and each clipped point paired with its projection on
 * the face's plane, so a box-like hull resting on a face stands on its
 * corners instead of rocking on one point.  More than COLLIDE_MAX_MANIFOLD
 * candidates keep the deepest and then, one by one, the farthest from those
 * kept. */
#include "collide/collide.h"

#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

#define FEATURE_MAX (COLLIDE_HULL_MAX + 8)
#define CLIP_MAX (2 * FEATURE_MAX + 8)
/* A point is on the touching feature within this fraction of its shape's size. */
#define FEATURE_TOL 1e-3

typedef struct {
    double pa[CLIP_MAX][3], pb[CLIP_MAX][3], s[CLIP_MAX];
    int n;
} candidates;

static void candidate(candidates *c, const double pa[3], const double pb[3], const double n[3], double margin)
{
    double s = (pa[0] - pb[0]) * n[0] + (pa[1] - pb[1]) * n[1] + (pa[2] - pb[2]) * n[2];
    if (!(s < margin) || c->n == CLIP_MAX) return;
    memcpy(c->pa[c->n], pa, sizeof c->pa[0]);
    memcpy(c->pb[c->n], pb, sizeof c->pb[0]);
    c->s[c->n++] = s;
}

static double dist2(const double a[3], const double b[3])
{
    double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return v3_dot(d, d);
}

/* The deepest candidate, then repeatedly the one farthest from all kept
 * (the first on ties), into o. */
static int keep_spread(const candidates *c, collide_manifold *o, double margin)
{
    int kept[COLLIDE_MAX_MANIFOLD], nk = 0, taken[CLIP_MAX] = { 0 };
    if (c->n <= COLLIDE_MAX_MANIFOLD)
        for (int i = 0; i < c->n; i++) kept[nk++] = i;
    else {
        int d = 0;
        for (int i = 1; i < c->n; i++)
            if (c->s[i] < c->s[d]) d = i;
        kept[nk++] = d, taken[d] = 1;
        while (nk < COLLIDE_MAX_MANIFOLD) {
            int far = -1;
            double best = -1;
            for (int i = 0; i < c->n; i++) {
                if (taken[i]) continue;
                double m = INFINITY;
                for (int j = 0; j < nk; j++) m = fmin(m, dist2(c->pa[i], c->pa[kept[j]]));
                if (m > best) best = m, far = i;
            }
            kept[nk++] = far, taken[far] = 1;
        }
    }
    for (int i = 0; i < nk; i++) collide_manifold_add(o, c->pa[kept[i]], c->pb[kept[i]], margin);
    return o->n_points;
}

static void hull_vertex(const collide_placed *s, int i, double x[3])
{
    m3_mulv(s->R, s->hull + 3 * i, x);
    for (int k = 0; k < 3; k++) x[k] += s->c[k];
}

int collide_hull_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    for (int k = 0; k < 3; k++) o->n[k] = b->R[3 * k + 2];
    candidates c;
    c.n = 0;
    for (int i = 0; i < a->nhull; i++) {
        double x[3], r[3];
        hull_vertex(a, i, x);
        for (int k = 0; k < 3; k++) r[k] = x[k] - b->c[k];
        double s = v3_dot(o->n, r), pb[3] = { x[0] - s * o->n[0], x[1] - s * o->n[1], x[2] - s * o->n[2] };
        candidate(&c, x, pb, o->n, margin);
    }
    return keep_spread(&c, o, margin);
}

/* ---- touching features ---- */

/* The points of s's core within FEATURE_TOL of its size of the support
 * plane along d: a hull's or box's vertices there, a capsule's axis when it
 * lies across d, a cylinder's cap rim (eight points) or the line of its side. */
static int feature(const collide_placed *s, const double d[3], double (*x)[3])
{
    double l[3], p[FEATURE_MAX][3];
    int n = 0;
    m3_tmulv(s->R, d, l);
    const double *h = s->size;
    switch (s->kind) {
    case COLLIDE_HULL: {
        double top = -INFINITY, size = 0;
        for (int i = 0; i < s->nhull; i++) {
            top = fmax(top, v3_dot(l, s->hull + 3 * i));
            size = fmax(size, v3_norm(s->hull + 3 * i));
        }
        for (int i = 0; i < s->nhull; i++)
            if (v3_dot(l, s->hull + 3 * i) >= top - FEATURE_TOL * size) memcpy(p[n++], s->hull + 3 * i, sizeof p[0]);
        break;
    }
    case COLLIDE_BOX: {
        double top = h[0] * fabs(l[0]) + h[1] * fabs(l[1]) + h[2] * fabs(l[2]), size = v3_norm(h);
        for (int v = 0; v < 8; v++) {
            double q[3] = { v & 1 ? h[0] : -h[0], v & 2 ? h[1] : -h[1], v & 4 ? h[2] : -h[2] };
            if (v3_dot(l, q) >= top - FEATURE_TOL * size) memcpy(p[n++], q, sizeof q);
        }
        break;
    }
    case COLLIDE_CAPSULE:
        for (int e = -1; e <= 1; e += 2)
            if (e * l[2] >= -FEATURE_TOL) p[n][0] = p[n][1] = 0, p[n][2] = e * h[1], n++;
        break;
    case COLLIDE_CYLINDER: {
        double rho = sqrt(l[0] * l[0] + l[1] * l[1]);
        static const double c8[8][2] = { { 1, 0 },  { 0.7071067811865476, 0.7071067811865476 },
                                         { 0, 1 },  { -0.7071067811865476, 0.7071067811865476 },
                                         { -1, 0 }, { -0.7071067811865476, -0.7071067811865476 },
                                         { 0, -1 }, { 0.7071067811865476, -0.7071067811865476 } };
        if (rho <= FEATURE_TOL) /* a cap faces d: eight points of its rim */
            for (int q = 0; q < 8; q++)
                p[n][0] = h[0] * c8[q][0], p[n][1] = h[0] * c8[q][1], p[n][2] = l[2] < 0 ? -h[1] : h[1], n++;
        else if (fabs(l[2]) <= FEATURE_TOL) /* the side lies across d */
            for (int e = -1; e <= 1; e += 2)
                p[n][0] = h[0] * l[0] / rho, p[n][1] = h[0] * l[1] / rho, p[n][2] = e * h[1], n++;
        break;
    }
    default: break; /* a sphere touches at a point */
    }
    for (int i = 0; i < n; i++) {
        m3_mulv(s->R, p[i], x[i]);
        for (int k = 0; k < 3; k++) x[i][k] += s->c[k];
    }
    return n;
}

/* Two unit vectors spanning the plane across unit n. */
static void plane_basis(const double n[3], double t[3], double u[3])
{
    double e[3] = { 0, 0, 0 };
    e[fabs(n[0]) < 0.57 ? 0 : fabs(n[1]) < 0.57 ? 1 : 2] = 1;
    v3_cross(n, e, t);
    double L = v3_norm(t);
    for (int k = 0; k < 3; k++) t[k] /= L;
    v3_cross(n, t, u);
}

/* The points' convex polygon seen along n, counter-clockwise about n
 * (Andrew's monotone chain); returns its vertex count, written to poly. */
static int polygon(double (*x)[3], int n, const double nrm[3], double (*poly)[3])
{
    double t[3], u[3], q[FEATURE_MAX][2];
    int idx[FEATURE_MAX], h[2 * FEATURE_MAX], k = 0;
    plane_basis(nrm, t, u);
    for (int i = 0; i < n; i++) q[i][0] = v3_dot(x[i], t), q[i][1] = v3_dot(x[i], u), idx[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by (t, u): n is small */
        for (int j = i; j > 0; j--) {
            const double *a = q[idx[j - 1]], *b = q[idx[j]];
            if (a[0] < b[0] || (a[0] == b[0] && a[1] <= b[1])) break;
            int s = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = s;
        }
    for (int pass = 0; pass < 2; pass++) {
        int start = k;
        for (int j = 0; j < n; j++) {
            int i = idx[pass ? n - 1 - j : j];
            while (k >= start + 2) {
                const double *o = q[h[k - 2]], *a = q[h[k - 1]], *b = q[i];
                if ((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]) > 0) break;
                k--;
            }
            h[k++] = i;
        }
        k--; /* the last point starts the other chain */
    }
    if (n < 2 || k < 2) k = n < 1 ? 0 : 1;
    for (int i = 0; i < k; i++) memcpy(poly[i], x[h[i]], sizeof poly[0]);
    return k;
}

/* Keep the part of polygon in (m points; a segment when m = 2) on the
 * inner side of the plane through e0, e1 and along n. */
static int clip_side(double (*in)[3], int m, double (*out)[3], const double e0[3], const double e1[3],
                     const double n[3], const double inner[3])
{
    double e[3], w[3], r[3];
    for (int k = 0; k < 3; k++) e[k] = e1[k] - e0[k];
    v3_cross(e, n, w);
    for (int k = 0; k < 3; k++) r[k] = inner[k] - e0[k];
    if (v3_dot(w, r) > 0)
        for (int k = 0; k < 3; k++) w[k] = -w[k];
    int o = 0, edges = m == 2 ? 1 : m;
    for (int i = 0; i < edges; i++) {
        const double *p = in[i], *q = in[(i + 1) % m];
        double dp = (p[0] - e0[0]) * w[0] + (p[1] - e0[1]) * w[1] + (p[2] - e0[2]) * w[2];
        double dq = (q[0] - e0[0]) * w[0] + (q[1] - e0[1]) * w[1] + (q[2] - e0[2]) * w[2];
        if (dp <= 0) memcpy(out[o++], p, sizeof out[0]);
        if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
            double s = dp / (dp - dq);
            for (int k = 0; k < 3; k++) out[o][k] = p[k] + s * (q[k] - p[k]);
            o++;
        }
        if (m == 2 && dq <= 0) memcpy(out[o++], q, sizeof out[0]);
    }
    return o;
}

/* The incident feature inc (m points) clipped to the sides of the reference
 * face ref (k ≥ 3 points, ordered); returns the count left in inc. */
static int clip_to_face(double (*ref)[3], int k, double (*inc)[3], int m, const double n[3])
{
    double centre[3] = { 0, 0, 0 }, tmp[CLIP_MAX][3];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < 3; j++) centre[j] += ref[i][j] / k;
    for (int i = 0; i < k && m > 0; i++) {
        m = clip_side(inc, m, tmp, ref[i], ref[(i + 1) % k], n, centre);
        memcpy(inc, tmp, (size_t)m * sizeof tmp[0]);
    }
    return m;
}

int collide_hull_convex(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    o->n_points = 0;
    collide_gjk g;
    collide_gjk_epa(a, b, &g);
    double ra = collide_radius(a), rb = collide_radius(b);
    if (!(g.dist - g.depth - ra - rb < margin)) return 0;
    memcpy(o->n, g.n, sizeof o->n);
    const double *n = g.n;
    double fa[FEATURE_MAX][3], fb[FEATURE_MAX][3], na[3] = { -n[0], -n[1], -n[2] }, pa[3], pb[3];
    int ka = feature(a, na, fa), kb = feature(b, n, fb);
    double ref[FEATURE_MAX][3], inc[CLIP_MAX][3];
    int a_ref = ka >= 3 && kb >= 2, b_ref = !a_ref && kb >= 3 && ka >= 2, m = 0, k = 0;
    if (a_ref || b_ref) {
        k = polygon(a_ref ? fa : fb, a_ref ? ka : kb, n, ref);
        m = polygon(a_ref ? fb : fa, a_ref ? kb : ka, n, inc);
        m = k >= 3 && m >= 2 ? clip_to_face(ref, k, inc, m, n) : 0;
    }
    if (m == 0) { /* vertex or edge contact: GJK's or EPA's pair */
        for (int j = 0; j < 3; j++) pa[j] = g.pa[j] - ra * n[j], pb[j] = g.pb[j] + rb * n[j];
        collide_manifold_add(o, pa, pb, margin);
        return o->n_points;
    }
    candidates c;
    c.n = 0;
    /* the reference face's plane: its core's level along n, swollen by its radius */
    double level = a_ref ? v3_dot(g.pa, n) - ra : v3_dot(g.pb, n) + rb;
    for (int i = 0; i < m; i++) {
        double *x = a_ref ? pb : pa, *y = a_ref ? pa : pb;
        for (int j = 0; j < 3; j++) x[j] = inc[i][j] + (a_ref ? rb : -ra) * n[j];
        double s = level - v3_dot(x, n);
        for (int j = 0; j < 3; j++) y[j] = x[j] + s * n[j];
        candidate(&c, pa, pb, n, margin);
    }
    return keep_spread(&c, o, margin);
}
