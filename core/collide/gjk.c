/* gjk.c — closest points of two convex shapes from their support mappings.
 * The distance is Gilbert, Johnson & Keerthi's algorithm ("A fast procedure
 * for computing the distance between complex objects in three-dimensional
 * space", 1988) on the Minkowski difference A − B of the two cores, with
 * the closest point of each simplex found by Voronoi regions (Ericson,
 * Real-Time Collision Detection §5.1.5, §5.1.6).  When the cores overlap,
 * the penetration is van den Bergen's expanding polytope algorithm
 * ("Proximity queries and penetration depth computation on 3D game
 * objects", GDC 2001; Collision Detection in Interactive 3D Environments
 * §4.3.4): the face of A − B nearest the origin.  Both are capped in
 * iterations and vertices. */
#include "collide/collide.h"

#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

#define GJK_ITER 64
#define EPA_ITER 64
#define EPA_VERTS (EPA_ITER + 4)
#define EPA_FACES (2 * EPA_VERTS)

double collide_radius(const collide_placed *s)
{
    return s->kind == COLLIDE_SPHERE || s->kind == COLLIDE_CAPSULE ? s->size[0] : 0.0;
}

static double sgn(double v) { return v < 0 ? -1.0 : 1.0; }

void collide_support(const collide_placed *s, const double d[3], double out[3])
{
    double l[3], x[3] = { 0, 0, 0 };
    m3_tmulv(s->R, d, l);
    switch (s->kind) {
    case COLLIDE_CAPSULE: x[2] = sgn(l[2]) * s->size[1]; break;
    case COLLIDE_BOX:
        for (int k = 0; k < 3; k++) x[k] = sgn(l[k]) * s->size[k];
        break;
    case COLLIDE_CYLINDER: {
        double rho = sqrt(l[0] * l[0] + l[1] * l[1]);
        if (rho > 0) x[0] = s->size[0] * l[0] / rho, x[1] = s->size[0] * l[1] / rho;
        x[2] = sgn(l[2]) * s->size[1];
        break;
    }
    case COLLIDE_HULL: { /* the first vertex of the greatest l·v: deterministic on ties */
        int best = 0;
        double h = -INFINITY;
        for (int i = 0; i < s->nhull; i++) {
            double v = v3_dot(l, s->hull + 3 * i);
            if (v > h) h = v, best = i;
        }
        memcpy(x, s->hull + 3 * best, sizeof x);
        break;
    }
    default: break; /* a sphere's core is its centre */
    }
    m3_mulv(s->R, x, out);
    for (int k = 0; k < 3; k++) out[k] += s->c[k];
}

/* A point of A − B with the points of A and B it is the difference of. */
typedef struct {
    double w[3], a[3], b[3];
} mvert;

static void support_md(const collide_placed *A, const collide_placed *B, const double d[3], mvert *v)
{
    double nd[3] = { -d[0], -d[1], -d[2] };
    collide_support(A, d, v->a);
    collide_support(B, nd, v->b);
    for (int k = 0; k < 3; k++) v->w[k] = v->a[k] - v->b[k];
}

static void sub(const double a[3], const double b[3], double o[3])
{
    for (int k = 0; k < 3; k++) o[k] = a[k] - b[k];
}

/* ---- GJK: the closest point of a simplex to the origin ---- */

/* Keep the simplex's vertices `keep` (indices, in order) with weights lam. */
static int reduce(mvert *s, double *lam, const int *keep, const double *w, int n)
{
    mvert t[4];
    for (int i = 0; i < n; i++) t[i] = s[keep[i]];
    for (int i = 0; i < n; i++) s[i] = t[i], lam[i] = w[i];
    return n;
}

/* Segment s0 s1 (Ericson §5.1.2). */
static int closest_segment(mvert *s, double *lam)
{
    double ab[3];
    sub(s[1].w, s[0].w, ab);
    double t = -v3_dot(s[0].w, ab), L = v3_dot(ab, ab);
    if (t <= 0) return reduce(s, lam, (int[]){ 0 }, (double[]){ 1 }, 1);
    if (t >= L) return reduce(s, lam, (int[]){ 1 }, (double[]){ 1 }, 1);
    t /= L;
    return reduce(s, lam, (int[]){ 0, 1 }, (double[]){ 1 - t, t }, 2);
}

/* Triangle s0 s1 s2 against the origin p (Ericson §5.1.5, ClosestPtPointTriangle). */
static int closest_triangle(mvert *s, double *lam)
{
    const double *a = s[0].w, *b = s[1].w, *c = s[2].w;
    double ab[3], ac[3], ap[3] = { -a[0], -a[1], -a[2] };
    sub(b, a, ab);
    sub(c, a, ac);
    double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return reduce(s, lam, (int[]){ 0 }, (double[]){ 1 }, 1);
    double bp[3] = { -b[0], -b[1], -b[2] }, d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return reduce(s, lam, (int[]){ 1 }, (double[]){ 1 }, 1);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        return reduce(s, lam, (int[]){ 0, 1 }, (double[]){ 1 - v, v }, 2);
    }
    double cp[3] = { -c[0], -c[1], -c[2] }, d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return reduce(s, lam, (int[]){ 2 }, (double[]){ 1 }, 1);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        return reduce(s, lam, (int[]){ 0, 2 }, (double[]){ 1 - w, w }, 2);
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return reduce(s, lam, (int[]){ 1, 2 }, (double[]){ 1 - w, w }, 2);
    }
    double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
    return reduce(s, lam, (int[]){ 0, 1, 2 }, (double[]){ 1 - v - w, v, w }, 3);
}

/* Whether the origin and point d lie on opposite sides of plane a b c. */
static int outside(const double a[3], const double b[3], const double c[3], const double d[3])
{
    double ab[3], ac[3], n[3], ad[3];
    sub(b, a, ab);
    sub(c, a, ac);
    v3_cross(ab, ac, n);
    sub(d, a, ad);
    double so = -v3_dot(n, a), sd = v3_dot(n, ad);
    return so * sd < 0;
}

/* Tetrahedron (Ericson §5.1.6): the nearest of the faces the origin is
 * outside of; 4 (kept whole) when the origin is inside. */
static int closest_tetra(mvert *s, double *lam)
{
    static const int F[4][4] = { { 0, 1, 2, 3 }, { 0, 2, 3, 1 }, { 0, 3, 1, 2 }, { 1, 3, 2, 0 } };
    double best = INFINITY;
    mvert bs[3];
    double bl[3];
    int bn = -1;
    for (int f = 0; f < 4; f++) {
        if (!outside(s[F[f][0]].w, s[F[f][1]].w, s[F[f][2]].w, s[F[f][3]].w)) continue;
        mvert t[3] = { s[F[f][0]], s[F[f][1]], s[F[f][2]] };
        double l[3], v[3] = { 0, 0, 0 };
        int n = closest_triangle(t, l);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) v[k] += l[i] * t[i].w[k];
        double d = v3_dot(v, v);
        if (d < best) {
            best = d, bn = n;
            memcpy(bs, t, sizeof bs);
            memcpy(bl, l, sizeof bl);
        }
    }
    if (bn < 0) return 4;
    for (int i = 0; i < bn; i++) s[i] = bs[i], lam[i] = bl[i];
    return bn;
}

static int closest(mvert *s, int n, double *lam)
{
    if (n == 1) {
        lam[0] = 1;
        return 1;
    }
    return n == 2 ? closest_segment(s, lam) : n == 3 ? closest_triangle(s, lam) : closest_tetra(s, lam);
}

static void combine(const mvert *s, const double *lam, int n, double v[3], double pa[3], double pb[3])
{
    for (int k = 0; k < 3; k++) v[k] = pa[k] = pb[k] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            v[k] += lam[i] * s[i].w[k];
            pa[k] += lam[i] * s[i].a[k];
            pb[k] += lam[i] * s[i].b[k];
        }
}

/* GJK: 1 when the cores overlap (s[0 .. *n) then holds a simplex containing
 * the origin), else 0 with the closest points in out; -1 at the cap. */
static int gjk(const collide_placed *A, const collide_placed *B, mvert *s, int *ns, collide_gjk *out, double *scale)
{
    double d[3], lam[4] = { 1 };
    sub(A->c, B->c, d);
    if (v3_dot(d, d) == 0) d[0] = 1;
    int n = 1;
    support_md(A, B, d, &s[0]);
    double v[3];
    memcpy(v, s[0].w, sizeof v);
    *scale = v3_dot(v, v);
    int capped = 1;
    for (int it = 0; it < GJK_ITER; it++) {
        double vv = v3_dot(v, v);
        if (vv <= 1e-24 * (*scale + 1e-30)) {
            *ns = n;
            return 1;
        }
        double nd[3] = { -v[0], -v[1], -v[2] };
        mvert w;
        support_md(A, B, nd, &w);
        double ww = v3_dot(w.w, w.w);
        if (ww > *scale) *scale = ww;
        int dup = 0;
        for (int i = 0; i < n; i++) dup |= memcmp(s[i].w, w.w, sizeof w.w) == 0;
        if (dup || vv - v3_dot(v, w.w) <= 1e-12 * vv) { /* no point of A − B nearer along −v */
            capped = 0;
            break;
        }
        s[n++] = w;
        n = closest(s, n, lam);
        if (n == 4) {
            *ns = 4;
            return 1;
        }
        double pa[3], pb[3];
        combine(s, lam, n, v, pa, pb);
        if (v3_dot(v, v) >= vv) { /* no progress: rounding */
            capped = 0;
            break;
        }
    }
    double pa[3], pb[3];
    combine(s, lam, n, v, pa, pb);
    double L = v3_norm(v);
    if (L <= 1e-12 * sqrt(*scale)) {
        *ns = n;
        return 1;
    }
    out->dist = L;
    out->depth = 0;
    for (int k = 0; k < 3; k++) out->n[k] = v[k] / L;
    memcpy(out->pa, pa, sizeof pa);
    memcpy(out->pb, pb, sizeof pb);
    return capped ? -1 : 0;
}

/* ---- EPA ---- */

typedef struct {
    int v[3];
    double n[3], d;
    int live;
} face;

typedef struct {
    mvert v[EPA_VERTS];
    face f[EPA_FACES];
    int nv, nf;
} polytope;

/* Face i j k, wound so that its normal points away from the interior point `in`. */
static void add_face(polytope *P, int i, int j, int k, const double in[3])
{
    face *f = &P->f[P->nf++];
    double ab[3], ac[3];
    sub(P->v[j].w, P->v[i].w, ab);
    sub(P->v[k].w, P->v[i].w, ac);
    v3_cross(ab, ac, f->n);
    double t[3];
    sub(in, P->v[i].w, t);
    if (v3_dot(f->n, t) > 0) {
        int x = j;
        j = k, k = x;
        for (int q = 0; q < 3; q++) f->n[q] = -f->n[q];
    }
    f->v[0] = i, f->v[1] = j, f->v[2] = k;
    double L = v3_norm(f->n);
    for (int q = 0; q < 3; q++) f->n[q] = L > 0 ? f->n[q] / L : 0;
    f->d = L > 0 ? v3_dot(f->n, P->v[i].w) : INFINITY;
    f->live = 1;
}

/* Distance of point p from the affine hull of s[0 .. n). */
static double off_hull(const mvert *s, int n, const double p[3])
{
    double r[3];
    sub(p, s[0].w, r);
    if (n == 1) return v3_norm(r);
    double e[3];
    sub(s[1].w, s[0].w, e);
    if (n == 2) {
        double c[3];
        v3_cross(r, e, c);
        return v3_norm(c) / v3_norm(e);
    }
    double f[3], m[3];
    sub(s[2].w, s[0].w, f);
    v3_cross(e, f, m);
    return fabs(v3_dot(r, m)) / v3_norm(m);
}

/* Grow GJK's simplex containing the origin to a tetrahedron of volume (the
 * origin on a face, edge or vertex of it when the contact only touches):
 * supports along ± the axes and the simplex's normals; 0 when A − B is
 * flat. */
static int fill_tetra(const collide_placed *A, const collide_placed *B, mvert *s, int n, double scale)
{
    double tol = 1e-10 * sqrt(scale);
    if (n == 4 && off_hull(s, 3, s[3].w) <= tol) n = 3; /* a flat tetrahedron: regrow */
    while (n < 4) {
        double dirs[8][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
        int nd = 6;
        if (n == 3) {
            double e[3], f[3];
            sub(s[1].w, s[0].w, e);
            sub(s[2].w, s[0].w, f);
            v3_cross(e, f, dirs[6]);
            for (int k = 0; k < 3; k++) dirs[7][k] = -dirs[6][k];
            nd = 8;
        }
        int grown = 0;
        for (int i = nd - 1; i >= 0 && !grown; i--) {
            mvert w;
            support_md(A, B, dirs[i], &w);
            if (off_hull(s, n, w.w) > tol) s[n++] = w, grown = 1;
        }
        if (!grown) return 0;
    }
    return 1;
}

static void barycentric(const double a[3], const double b[3], const double c[3], const double p[3], double l[3])
{
    double v0[3], v1[3], v2[3];
    sub(b, a, v0);
    sub(c, a, v1);
    sub(p, a, v2);
    double d00 = v3_dot(v0, v0), d01 = v3_dot(v0, v1), d11 = v3_dot(v1, v1);
    double d20 = v3_dot(v2, v0), d21 = v3_dot(v2, v1), den = d00 * d11 - d01 * d01;
    l[1] = den > 0 ? (d11 * d20 - d01 * d21) / den : 0;
    l[2] = den > 0 ? (d00 * d21 - d01 * d20) / den : 0;
    l[0] = 1 - l[1] - l[2];
}

static int nearest_face(const polytope *P)
{
    int best = -1;
    for (int i = 0; i < P->nf; i++)
        if (P->f[i].live && (best < 0 || P->f[i].d < P->f[best].d)) best = i;
    return best;
}

/* Replace the faces that w sees by a fan from w to their horizon. */
static int expand(polytope *P, const mvert *w, const double in[3])
{
    int edges[3 * EPA_FACES][2], ne = 0;
    for (int i = 0; i < P->nf; i++) {
        face *f = &P->f[i];
        double r[3];
        sub(w->w, P->v[f->v[0]].w, r);
        if (!f->live || v3_dot(f->n, r) <= 0) continue;
        f->live = 0;
        for (int e = 0; e < 3; e++) {
            int a = f->v[e], b = f->v[(e + 1) % 3], shared = -1;
            for (int j = 0; j < ne && shared < 0; j++)
                if (edges[j][0] == b && edges[j][1] == a) shared = j;
            if (shared >= 0) edges[shared][0] = edges[--ne][0], edges[shared][1] = edges[ne][1];
            else edges[ne][0] = a, edges[ne][1] = b, ne++;
        }
    }
    if (P->nf + ne > EPA_FACES) return -1;
    int iw = P->nv;
    P->v[P->nv++] = *w;
    for (int j = 0; j < ne; j++) add_face(P, edges[j][0], edges[j][1], iw, in);
    /* compact: drop dead faces so the list stays short */
    int k = 0;
    for (int i = 0; i < P->nf; i++)
        if (P->f[i].live) P->f[k++] = P->f[i];
    P->nf = k;
    return 0;
}

/* The nearest face's normal, distance and corners: EPA's answer so far. */
typedef struct {
    double n[3], d;
    mvert v[3];
} nearest;

static void take(const polytope *P, int f, nearest *r)
{
    memcpy(r->n, P->f[f].n, sizeof r->n);
    r->d = P->f[f].d;
    for (int i = 0; i < 3; i++) r->v[i] = P->v[P->f[f].v[i]];
}

/* EPA from the tetrahedron s; the nearest face's distance never shrinks in
 * exact arithmetic, so when rounding makes it shrink (a curved shape's
 * supports nearly coplanar) the last good face is the answer. */
static int epa(const collide_placed *A, const collide_placed *B, const mvert *s, double scale, collide_gjk *out)
{
    polytope P;
    P.nf = 0;
    for (int i = 0; i < 4; i++) P.v[i] = s[i];
    P.nv = 4;
    double in[3] = { 0, 0, 0 }, tol = 1e-12 * sqrt(scale);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++) in[k] += 0.25 * s[i].w[k];
    static const int F[4][3] = { { 0, 1, 2 }, { 0, 3, 1 }, { 0, 2, 3 }, { 1, 3, 2 } };
    for (int f = 0; f < 4; f++) add_face(&P, F[f][0], F[f][1], F[f][2], in);
    nearest r;
    take(&P, nearest_face(&P), &r);
    int capped = 1;
    for (int it = 0; it < EPA_ITER; it++) {
        mvert w;
        support_md(A, B, r.n, &w);
        if (v3_dot(w.w, r.n) - r.d <= tol) {
            capped = 0;
            break;
        }
        if (P.nv == EPA_VERTS || expand(&P, &w, in)) break;
        int f = nearest_face(&P);
        if (f < 0 || P.f[f].d < r.d - tol) break;
        take(&P, f, &r);
    }
    double p[3] = { r.d * r.n[0], r.d * r.n[1], r.d * r.n[2] }, l[3];
    barycentric(r.v[0].w, r.v[1].w, r.v[2].w, p, l);
    out->dist = 0;
    out->depth = fmax(r.d, 0.0);
    for (int k = 0; k < 3; k++) {
        out->n[k] = -r.n[k];
        out->pa[k] = out->pb[k] = 0;
        for (int i = 0; i < 3; i++) {
            out->pa[k] += l[i] * r.v[i].a[k];
            out->pb[k] += l[i] * r.v[i].b[k];
        }
    }
    return capped ? -1 : 0;
}

int collide_gjk_epa(const collide_placed *a, const collide_placed *b, collide_gjk *out)
{
    mvert s[4];
    int n = 0;
    double scale;
    int r = gjk(a, b, s, &n, out, &scale);
    if (r != 1) return r;
    if (!fill_tetra(a, b, s, n, scale)) { /* A − B flat: touching with no depth */
        double v[3], pa[3], pb[3], lam[4] = { 1, 0, 0, 0 };
        combine(s, lam, 1, v, pa, pb);
        out->dist = out->depth = 0;
        out->n[0] = out->n[1] = 0, out->n[2] = 1;
        memcpy(out->pa, pa, sizeof pa);
        memcpy(out->pb, pb, sizeof pb);
        return -1;
    }
    return epa(a, b, s, scale, out);
}
