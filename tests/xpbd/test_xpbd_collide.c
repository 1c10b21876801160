/* test_xpbd_collide.c — the collision library (core/collide) against brute force:
 *   narrow phase: for every pair type, on deterministic pseudo-random poses
 *   near touching, the deepest reported separation equals the signed
 *   distance max_u [−h_A(−u) − h_B(u)] (support functions h written here,
 *   maximized by sampling the unit sphere and refining), within 1e-6 m, and
 *   every reported point lies on its shape's surface within 1e-6 m;
 *   every point's depth is −(pa − pb)·n;
 *   broad phase: the spatial hash reports exactly the overlapping pairs of
 *   an all-pairs test, each once;
 *   placing: a shape at a quaternion pose (p, q) has its centre at
 *   p + q pos q* and its axes at q a q*. */
#include "random_shapes.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd_collide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 12345;
static double uniform(void) { return test_uniform(&rng); }
static void random_rotation(double R[9]) { test_random_rotation(&rng, R); }

static void col(const double R[9], int k, double o[3]) { o[0] = R[k], o[1] = R[3 + k], o[2] = R[6 + k]; }

/* Support function h(u) = max over the shape of u·x. */
static double support(const collide_placed *s, const double u[3])
{
    double ax[3], h = dot(u, s->c);
    switch (s->kind) {
    case COLLIDE_SPHERE: return h + s->size[0] * sqrt(dot(u, u));
    case COLLIDE_BOX:
        for (int k = 0; k < 3; k++) col(s->R, k, ax), h += s->size[k] * fabs(dot(u, ax));
        return h;
    case COLLIDE_CAPSULE: col(s->R, 2, ax); return h + s->size[1] * fabs(dot(u, ax)) + s->size[0] * sqrt(dot(u, u));
    case COLLIDE_CYLINDER: {
        col(s->R, 2, ax);
        double uz = dot(u, ax), perp = sqrt(fmax(0.0, dot(u, u) - uz * uz));
        return h + s->size[1] * fabs(uz) + s->size[0] * perp;
    }
    default: return INFINITY;
    }
}

/* Signed distance to the shape's surface (planes: height above). */
static double sdf(const collide_placed *s, const double x[3])
{
    double r[3] = { x[0] - s->c[0], x[1] - s->c[1], x[2] - s->c[2] }, q[3], ax[3];
    for (int k = 0; k < 3; k++) col(s->R, k, ax), q[k] = dot(r, ax);
    switch (s->kind) {
    case COLLIDE_SPHERE: return sqrt(dot(q, q)) - s->size[0];
    case COLLIDE_CAPSULE: {
        double z = fmax(-s->size[1], fmin(s->size[1], q[2])), d[3] = { q[0], q[1], q[2] - z };
        return sqrt(dot(d, d)) - s->size[0];
    }
    case COLLIDE_BOX: {
        double o[3], out = 0, in = -INFINITY;
        for (int k = 0; k < 3; k++) {
            o[k] = fabs(q[k]) - s->size[k];
            out += fmax(o[k], 0) * fmax(o[k], 0);
            in = fmax(in, o[k]);
        }
        return out > 0 ? sqrt(out) : in;
    }
    case COLLIDE_CYLINDER: {
        double dr = sqrt(q[0] * q[0] + q[1] * q[1]) - s->size[0], dz = fabs(q[2]) - s->size[1];
        double a = fmax(dr, 0), b = fmax(dz, 0);
        return fmin(fmax(dr, dz), 0.0) + sqrt(a * a + b * b);
    }
    default: return q[2];
    }
}

/* s(u) = −h_A(−u) − h_B(u): A's gap above B along u. */
static double gap(const collide_placed *a, const collide_placed *b, const double u[3])
{
    double m[3] = { -u[0], -u[1], -u[2] };
    return -support(a, m) - support(b, u);
}

/* max over unit u of gap: Fibonacci sampling, then a shrinking pattern
 * search in the tangent plane of the best direction. */
static double brute_distance(const collide_placed *a, const collide_placed *b, double nbest[3])
{
    if (b->kind == COLLIDE_PLANE) {
        double N[3];
        col(b->R, 2, N);
        memcpy(nbest, N, sizeof N);
        double m[3] = { -N[0], -N[1], -N[2] };
        return -support(a, m) - dot(N, b->c);
    }
    const int ns = 60000;
    double best = -INFINITY;
    for (int i = 0; i < ns; i++) {
        double z = 1 - (2 * i + 1.0) / ns, r = sqrt(1 - z * z), ph = i * 2.39996322972865332;
        double u[3] = { r * cos(ph), r * sin(ph), z }, g = gap(a, b, u);
        if (g > best) best = g, memcpy(nbest, u, sizeof u);
    }
    /* Nelder–Mead in the tangent plane of the best direction, restarted
     * from its result with a smaller simplex until nothing improves. */
    for (double size = 0.05; size > 1e-9; size *= 0.1) {
        double t1[3], t2[3], e[3] = { 1, 0, 0 }, base[3];
        memcpy(base, nbest, sizeof base);
        if (fabs(base[0]) > 0.9) e[0] = 0, e[1] = 1;
        t1[0] = base[1] * e[2] - base[2] * e[1];
        t1[1] = base[2] * e[0] - base[0] * e[2];
        t1[2] = base[0] * e[1] - base[1] * e[0];
        double l = sqrt(dot(t1, t1));
        for (int k = 0; k < 3; k++) t1[k] /= l;
        t2[0] = base[1] * t1[2] - base[2] * t1[1];
        t2[1] = base[2] * t1[0] - base[0] * t1[2];
        t2[2] = base[0] * t1[1] - base[1] * t1[0];
#define AT(x, y, out) \
    do { \
        double u_[3]; \
        for (int k = 0; k < 3; k++) u_[k] = base[k] + (x)*t1[k] + (y)*t2[k]; \
        double L_ = sqrt(dot(u_, u_)); \
        for (int k = 0; k < 3; k++) u_[k] /= L_; \
        out = gap(a, b, u_); \
    } while (0)
        double P[3][2] = { { 0, 0 }, { size, 0 }, { 0, size } }, F[3];
        for (int i = 0; i < 3; i++) AT(P[i][0], P[i][1], F[i]);
        for (int it = 0; it < 4000; it++) {
            /* order: F[0] best (largest) .. F[2] worst */
            for (int i = 0; i < 3; i++)
                for (int j = i + 1; j < 3; j++)
                    if (F[j] > F[i]) {
                        double t = F[i];
                        F[i] = F[j];
                        F[j] = t;
                        for (int k = 0; k < 2; k++) t = P[i][k], P[i][k] = P[j][k], P[j][k] = t;
                    }
            double dx =
                fabs(P[1][0] - P[0][0]) + fabs(P[2][0] - P[0][0]) + fabs(P[1][1] - P[0][1]) + fabs(P[2][1] - P[0][1]);
            if (dx < 1e-13) break;
            double c[2] = { 0.5 * (P[0][0] + P[1][0]), 0.5 * (P[0][1] + P[1][1]) }, r[2], fr;
            for (int k = 0; k < 2; k++) r[k] = c[k] + (c[k] - P[2][k]);
            AT(r[0], r[1], fr);
            if (fr > F[0]) {
                double x[2], fx;
                for (int k = 0; k < 2; k++) x[k] = c[k] + 2 * (c[k] - P[2][k]);
                AT(x[0], x[1], fx);
                if (fx > fr) P[2][0] = x[0], P[2][1] = x[1], F[2] = fx;
                else P[2][0] = r[0], P[2][1] = r[1], F[2] = fr;
            } else if (fr > F[1]) {
                P[2][0] = r[0], P[2][1] = r[1], F[2] = fr;
            } else {
                double x[2], fx;
                for (int k = 0; k < 2; k++) x[k] = c[k] + 0.5 * (P[2][k] - c[k]);
                AT(x[0], x[1], fx);
                if (fx > F[2]) P[2][0] = x[0], P[2][1] = x[1], F[2] = fx;
                else
                    for (int i = 1; i < 3; i++) {
                        for (int k = 0; k < 2; k++) P[i][k] = P[0][k] + 0.5 * (P[i][k] - P[0][k]);
                        AT(P[i][0], P[i][1], F[i]);
                    }
            }
        }
#undef AT
        int bi = 0;
        for (int i = 1; i < 3; i++)
            if (F[i] > F[bi]) bi = i;
        if (F[bi] > best) {
            best = F[bi];
            double u[3];
            for (int k = 0; k < 3; k++) u[k] = base[k] + P[bi][0] * t1[k] + P[bi][1] * t2[k];
            double L = sqrt(dot(u, u));
            for (int k = 0; k < 3; k++) nbest[k] = u[k] / L;
            size = 0.5; /* improved: restart at the same scale (×0.1 below) */
        }
    }
    return best;
}

static const char *const names[] = { "sphere", "capsule", "box", "cylinder", "plane" };

static void random_shape(collide_placed *s, collide_kind type)
{
    s->kind = type;
    random_rotation(s->R);
    for (int k = 0; k < 3; k++) s->size[k] = 0.2 + 0.4 * uniform();
    memset(s->c, 0, sizeof s->c);
}

/* One pair type over many poses of A near B, signed distances up to
 * `farthest`: |deepest − brute| and the points' distance from their surfaces. */
static void check_pair(collide_kind ta, collide_kind tb, int poses, double farthest)
{
    double worst_depth = 0, worst_surface = 0, worst_sign = 0;
    int empty = 0;
    for (int it = 0; it < poses; it++) {
        collide_placed a, b;
        random_shape(&b, tb);
        random_shape(&a, ta);
        /* A at a random direction, moved in until the brute signed distance is in [−0.1, 0.05] */
        double dir[3] = { uniform() - 0.5, uniform() - 0.5, uniform() - 0.5 }, L = sqrt(dot(dir, dir)), nb[3], sd;
        if (tb == COLLIDE_PLANE) dir[2] = fabs(dir[2]) + 0.2;
        double target = -0.1 + (farthest + 0.1) * uniform(), lo = 0, hi = 3;
        for (int k = 0; k < 60; k++) {
            double mid = 0.5 * (lo + hi);
            for (int j = 0; j < 3; j++) a.c[j] = mid * dir[j] / L;
            sd = tb == COLLIDE_PLANE ? brute_distance(&a, &b, nb)
                                     : -support(&a, (double[3]){ -dir[0] / L, -dir[1] / L, -dir[2] / L }) -
                                           support(&b, (double[3]){ dir[0] / L, dir[1] / L, dir[2] / L });
            if (sd < target) lo = mid;
            else hi = mid;
        }
        sd = brute_distance(&a, &b, nb);
        if (sd > farthest) { /* the bisection's proxy overshot: try another pose */
            it--;
            continue;
        }
        collide_manifold mf;
        int n = collide_pair(&a, &b, 1.0, &mf);
        if (n == 0) {
            empty++;
            continue;
        }
        double best = INFINITY;
        for (int k = 0; k < n; k++) {
            double d[3] = { mf.pa[k][0] - mf.pb[k][0], mf.pa[k][1] - mf.pb[k][1], mf.pa[k][2] - mf.pb[k][2] };
            best = fmin(best, dot(d, mf.n));
            worst_sign = fmax(worst_sign, fabs(mf.depth[k] + dot(d, mf.n)));
            worst_surface = fmax(worst_surface, fmax(fabs(sdf(&a, mf.pa[k])), fabs(sdf(&b, mf.pb[k]))));
        }
        worst_depth = fmax(worst_depth, fabs(best - sd));
    }
    char what[160];
    snprintf(what, sizeof what,
             "%s-%s: deepest separation = brute-force signed distance within 1e-6 m (%d poses, "
             "distance -0.1 to %g m)",
             names[ta], names[tb], poses, farthest);
    expect(what, empty == 0 && worst_depth <= 1e-6, worst_depth);
    snprintf(what, sizeof what, "%s-%s: contact points on both surfaces within 1e-6 m", names[ta], names[tb]);
    expect(what, empty == 0 && worst_surface <= 1e-6, worst_surface);
    snprintf(what, sizeof what, "%s-%s: every depth is -(pa - pb).n", names[ta], names[tb]);
    expect(what, worst_sign == 0, worst_sign);
}

/* ---- placing ---- */

/* v rotated by the unit quaternion q: the vector part of q (0, v) q*. */
static void quat_rotate(const double q[4], const double v[3], double out[3])
{
    double p[4] = { 0, v[0], v[1], v[2] }, qc[4] = { q[0], -q[1], -q[2], -q[3] }, t[4], r[4];
    quat_mul(q, p, t);
    quat_mul(t, qc, r);
    for (int k = 0; k < 3; k++) out[k] = r[k + 1];
}

static void test_place(void)
{
    double worst = 0;
    for (int it = 0; it < 20; it++) {
        collide_shape sh = { .kind = COLLIDE_BOX, .size = { 0.1, 0.2, 0.3 } };
        collide_pose pose;
        double n = 0;
        random_rotation(sh.R);
        for (int k = 0; k < 3; k++) sh.pos[k] = uniform() - 0.5, pose.p[k] = uniform() - 0.5;
        for (int k = 0; k < 4; k++) pose.q[k] = uniform() - 0.5, n += pose.q[k] * pose.q[k];
        for (int k = 0; k < 4; k++) pose.q[k] /= sqrt(n);
        collide_placed pl;
        collide_shape_place_pose(&sh, &pose, &pl);
        double c[3], a[3], b[3];
        quat_rotate(pose.q, sh.pos, c);
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(pl.c[k] - pose.p[k] - c[k]));
        for (int j = 0; j < 3; j++) {
            col(sh.R, j, a);
            quat_rotate(pose.q, a, c);
            col(pl.R, j, b);
            for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(b[k] - c[k]));
        }
        worst = fmax(worst, fabs(pl.size[2] - sh.size[2])) + (pl.kind != sh.kind);
    }
    expect("place: a shape at a quaternion pose is at p + q pos q*, its axes q a q*, within 1e-14", worst <= 1e-14,
           worst);
}

/* ---- broad phase ---- */

static int skip_same_third(int i, int j, const void *user)
{
    (void)user;
    return i % 3 == 0 && j % 3 == 0; /* an arbitrary exclusion, so the filter is exercised */
}

static void test_broadphase(void)
{
    enum { N = 400 };
    collide_placed s[N];
    int is_static[N];
    double grow[N];
    for (int i = 0; i < N; i++) {
        collide_kind t = i == 7 ? COLLIDE_PLANE : (collide_kind)(i % 4);
        random_shape(&s[i], t);
        for (int k = 0; k < 3; k++) s[i].c[k] = 8.0 * uniform();
        is_static[i] = t == COLLIDE_PLANE || i % 50 == 1;
        if (i == 51) s[i].size[0] = s[i].size[1] = s[i].size[2] = 40.0; /* a static box larger than the hash */
        grow[i] = 0.05 * uniform();
    }
    collide_broadphase bp = { 0 };
    if (collide_broadphase_run(&bp, N, s, is_static, grow, skip_same_third, NULL)) {
        expect("broad phase runs", 0, 0);
        return;
    }
    static char found[N][N];
    int dup = 0, missing = 0, extra = 0;
    for (int q = 0; q < bp.n; q++) {
        int i = bp.pairs[2 * q], j = bp.pairs[2 * q + 1];
        dup += found[i][j]++ > 0;
    }
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            int want = 0;
            if (!(is_static[i] && is_static[j]) && !skip_same_third(i, j, NULL)) {
                if (s[i].kind == COLLIDE_PLANE || s[j].kind == COLLIDE_PLANE) {
                    const collide_placed *p = s[i].kind == COLLIDE_PLANE ? &s[i] : &s[j], *o = p == &s[i] ? &s[j] : &s[i];
                    double lo[3], hi[3], N3[3], low = 0;
                    int oi = o == &s[i] ? i : j;
                    collide_placed_aabb(o, lo, hi);
                    col(p->R, 2, N3);
                    for (int k = 0; k < 3; k++)
                        low += N3[k] * ((N3[k] > 0 ? lo[k] - grow[oi] : hi[k] + grow[oi]) - p->c[k]);
                    want = low <= 0;
                } else {
                    double li[3], hi_[3], lj[3], hj[3];
                    collide_placed_aabb(&s[i], li, hi_);
                    collide_placed_aabb(&s[j], lj, hj);
                    want = 1;
                    for (int k = 0; k < 3; k++)
                        if (hi_[k] + grow[i] < lj[k] - grow[j] || hj[k] + grow[j] < li[k] - grow[i]) want = 0;
                }
            }
            missing += want && !found[i][j];
            extra += !want && found[i][j];
        }
    char what[160];
    snprintf(what, sizeof what, "broad phase: the %d pairs of the all-pairs test, none missing, none extra, none twice",
             bp.n);
    expect(what, dup == 0 && missing == 0 && extra == 0, missing + extra + dup);
    collide_broadphase_free(&bp);
}

int main(void)
{
    static const collide_kind pairs[][2] = {
        { COLLIDE_SPHERE, COLLIDE_PLANE },    { COLLIDE_BOX, COLLIDE_PLANE },       { COLLIDE_CAPSULE, COLLIDE_PLANE },
        { COLLIDE_CYLINDER, COLLIDE_PLANE },  { COLLIDE_SPHERE, COLLIDE_SPHERE },   { COLLIDE_SPHERE, COLLIDE_BOX },
        { COLLIDE_SPHERE, COLLIDE_CAPSULE },  { COLLIDE_CAPSULE, COLLIDE_CAPSULE }, { COLLIDE_BOX, COLLIDE_BOX },
        { COLLIDE_CAPSULE, COLLIDE_BOX },     { COLLIDE_BOX, COLLIDE_SPHERE },      { COLLIDE_BOX, COLLIDE_CAPSULE },
        { COLLIDE_SPHERE, COLLIDE_CYLINDER }, { COLLIDE_CYLINDER, COLLIDE_SPHERE },
    };
    /* Separated boxes get the clipped faces of their best separating axis,
     * whose separation is the distance only when the nearest features are a
     * face or two edges (not for a corner against a corner or an edge):
     * boxes are checked touching or overlapping, where it is exact. */
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        check_pair(pairs[i][0], pairs[i][1], 40, pairs[i][0] == COLLIDE_BOX && pairs[i][1] == COLLIDE_BOX ? 0.0 : 0.05);
    test_broadphase();
    test_place();
    return failures ? 1 : 0;
}
