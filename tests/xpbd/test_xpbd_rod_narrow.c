/* test_xpbd_rod_narrow.c — the narrow phase of rod elements (docs/xpbd.md,
 * "Contact", "Rods") against brute force, on random curved elements of
 * order 1, 2 and 3 (nodes on a line of length 0.5–1.5 m, each moved up to
 * 0.15 m):
 *   sdf       collide_sdf of every shape type equals the distance to its
 *             closest point found by clamping (outside), or minus the
 *             distance to the nearest face (inside), within 1e-12 m, and
 *             its normal is the closest point's direction;
 *   rod–shape the deepest separation of xpbd_collide_rod_shape equals
 *             min over dense samples of ξ of φ(x(ξ)) − r within 1e-6 m, for
 *             200 random poses per shape type and order;
 *   rod–rod   xpbd_collide_rod_rod equals min over a dense grid of (ξ1, ξ2)
 *             of |x1 − x2| − r1 − r2 within 1e-6 m, for 300 random pairs
 *             of each pair of orders; its points lie on both surfaces. */
#include "expect.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static double uniform(double a, double b)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return a + (b - a) * (double)(rng >> 11) / 9007199254740992.0;
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void random_rotation(double R[9])
{
    double q[4], n = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = uniform(-1, 1);
        n += q[k] * q[k];
    }
    n = sqrt(n);
    for (int k = 0; k < 4; k++) q[k] /= n;
    quat_to_rot(q, R);
}

/* Order + 1 nodes about centre c: a line of random direction and length,
 * each node moved up to 0.15 m. */
static void random_element(int order, const double c[3], double *p)
{
    double dir[3] = { uniform(-1, 1), uniform(-1, 1), uniform(-1, 1) }, L = uniform(0.5, 1.5);
    double n = sqrt(dot(dir, dir));
    for (int a = 0; a <= order; a++)
        for (int k = 0; k < 3; k++)
            p[3 * a + k] = c[k] + L * ((double)a / order - 0.5) * dir[k] / n + uniform(-0.15, 0.15);
}

static void random_shape(collide_kind type, collide_placed *s)
{
    s->kind = type;
    random_rotation(s->R);
    for (int k = 0; k < 3; k++) {
        s->c[k] = uniform(-0.1, 0.1);
        s->size[k] = uniform(0.1, 0.4);
    }
}

/* Reference signed distance by the closest point in the shape frame:
 * clamping to the core (point, segment, box, section rectangle); inside a
 * box or cylinder, minus the distance to the nearest face. */
static double reference_sdf(const collide_placed *s, const double x[3])
{
    double r[3] = { x[0] - s->c[0], x[1] - s->c[1], x[2] - s->c[2] }, l[3];
    for (int i = 0; i < 3; i++) l[i] = s->R[i] * r[0] + s->R[3 + i] * r[1] + s->R[6 + i] * r[2];
    const double *h = s->size;
    switch (s->kind) {
    case COLLIDE_SPHERE: return sqrt(dot(l, l)) - h[0];
    case COLLIDE_CAPSULE: {
        double z = fmax(-h[1], fmin(h[1], l[2])), q[3] = { l[0], l[1], l[2] - z };
        return sqrt(dot(q, q)) - h[0];
    }
    case COLLIDE_BOX: {
        double q[3], inside = INFINITY;
        for (int k = 0; k < 3; k++) {
            q[k] = l[k] - fmax(-h[k], fmin(h[k], l[k]));
            inside = fmin(inside, h[k] - fabs(l[k]));
        }
        return inside > 0 ? -inside : sqrt(dot(q, q));
    }
    case COLLIDE_CYLINDER: {
        double rho = hypot(l[0], l[1]), a = rho - fmin(rho, h[0]), b = l[2] - fmax(-h[1], fmin(h[1], l[2]));
        double inside = fmin(h[0] - rho, h[1] - fabs(l[2]));
        return inside > 0 ? -inside : hypot(a, b);
    }
    default: return l[2];
    }
}

static void test_sdf(void)
{
    double worst = 0, worst_n = 0;
    for (int type = 0; type <= COLLIDE_PLANE; type++)
        for (int t = 0; t < 2000; t++) {
            collide_placed s;
            random_shape(type, &s);
            double x[3] = { uniform(-0.7, 0.7), uniform(-0.7, 0.7), uniform(-0.7, 0.7) }, n[3], y[3];
            double phi = collide_sdf(&s, x, n), ref = reference_sdf(&s, x);
            worst = fmax(worst, fabs(phi - ref));
            /* the normal: φ grows along it at unit rate (one-sided difference) */
            for (int k = 0; k < 3; k++) y[k] = x[k] + 1e-7 * n[k];
            double slope = (reference_sdf(&s, y) - ref) / 1e-7;
            worst_n = fmax(worst_n, fabs(slope - 1) * (fabs(phi) > 1e-6));
        }
    expect("sdf: every shape type equals its closest-point reference within 1e-12 m (worst, m)", worst < 1e-12, worst);
    expect("sdf: the normal is the distance's gradient (|dphi/dn - 1| below 1e-5)", worst_n < 1e-5, worst_n);
}

/* min over ξ of f, by 50001 samples and then 2001 samples about the best. */
static double dense_min(double (*f)(double, const void *), const void *u)
{
    int n = 50000, best = 0;
    double fb = INFINITY;
    for (int i = 0; i <= n; i++) {
        double v = f((double)i / n, u);
        if (v < fb) fb = v, best = i;
    }
    double lo = fmax(0, (best - 1.0) / n), hi = fmin(1, (best + 1.0) / n);
    for (int i = 0; i <= 2000; i++) fb = fmin(fb, f(lo + (hi - lo) * i / 2000, u));
    return fb;
}

typedef struct {
    const xpbd_rod_curve *c;
    const collide_placed *s;
} rod_shape;

static double rod_shape_depth(double xi, const void *u)
{
    const rod_shape *q = u;
    double x[3], n[3];
    xpbd_rod_curve_eval(q->c, xi, x, NULL);
    return collide_sdf(q->s, x, n) - q->c->r;
}

static void test_rod_shape(void)
{
    static const char *names[] = { "sphere", "capsule", "box", "cylinder", "plane" };
    for (int type = 0; type <= COLLIDE_PLANE; type++) {
        double worst = 0, surf = 0;
        int deep = 0;
        for (int order = 1; order <= 3; order++)
            for (int t = 0; t < 200; t++) {
                collide_placed s;
                random_shape(type, &s);
                double p[12], c[3] = { uniform(-0.4, 0.4), uniform(-0.4, 0.4), uniform(-0.4, 0.4) };
                random_element(order, c, p);
                xpbd_rod_curve curve = { order, p, uniform(0.005, 0.05) };
                xpbd_rod_hit hit[3];
                int nh = xpbd_collide_rod_shape(&curve, &s, INFINITY, hit);
                rod_shape q = { &curve, &s };
                double ref = dense_min(rod_shape_depth, &q), best = INFINITY;
                for (int i = 0; i < nh; i++) best = fmin(best, hit[i].s);
                worst = fmax(worst, fabs(best - ref));
                deep += ref < 0;
                surf = fmax(surf, fabs(reference_sdf(&s, hit[0].pb)));
            }
        char what[160];
        snprintf(what, sizeof what,
                 "rod-%s: deepest separation = dense minimum within 1e-6 m, orders 1-3, 600 poses "
                 "(%d penetrating; worst, m)",
                 names[type], deep);
        expect(what, worst < 1e-6, worst);
        snprintf(what, sizeof what, "rod-%s: the shape's point lies on its surface within 1e-9 m", names[type]);
        expect(what, surf < 1e-9, surf);
    }
}

static double pair_distance(const xpbd_rod_curve *a, const xpbd_rod_curve *b, double s, double t)
{
    double x1[3], x2[3], r[3];
    xpbd_rod_curve_eval(a, s, x1, NULL);
    xpbd_rod_curve_eval(b, t, x2, NULL);
    for (int k = 0; k < 3; k++) r[k] = x1[k] - x2[k];
    return sqrt(dot(r, r)) - a->r - b->r;
}

/* min over a 201 x 201 grid, then four zooms of 41 x 41 about the best. */
static double dense_pair_min(const xpbd_rod_curve *a, const xpbd_rod_curve *b)
{
    double lo[2] = { 0, 0 }, hi[2] = { 1, 1 }, best = INFINITY, bs = 0, bt = 0;
    int n = 200;
    for (int zoom = 0; zoom < 5; zoom++) {
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= n; j++) {
                double s = lo[0] + (hi[0] - lo[0]) * i / n, t = lo[1] + (hi[1] - lo[1]) * j / n;
                double v = pair_distance(a, b, s, t);
                if (v < best) best = v, bs = s, bt = t;
            }
        double ds = 2 * (hi[0] - lo[0]) / n, dt = 2 * (hi[1] - lo[1]) / n;
        lo[0] = fmax(0, bs - ds), hi[0] = fmin(1, bs + ds), lo[1] = fmax(0, bt - dt), hi[1] = fmin(1, bt + dt);
        n = 40;
    }
    return best;
}

static void test_rod_rod(void)
{
    for (int o1 = 1; o1 <= 3; o1++)
        for (int o2 = o1; o2 <= 3; o2++) {
            double worst = 0, surf = 0;
            int deep = 0, wrong_margin = 0;
            for (int t = 0; t < 300; t++) {
                double p1[12], p2[12], c1[3] = { 0, 0, 0 },
                                       c2[3] = { uniform(-0.3, 0.3), uniform(-0.3, 0.3), uniform(-0.3, 0.3) };
                random_element(o1, c1, p1);
                random_element(o2, c2, p2);
                xpbd_rod_curve a = { o1, p1, uniform(0.005, 0.05) }, b = { o2, p2, uniform(0.005, 0.05) };
                xpbd_rod_hit hit;
                xpbd_collide_rod_rod(&a, &b, INFINITY, &hit);
                double ref = dense_pair_min(&a, &b);
                worst = fmax(worst, fabs(hit.s - ref));
                deep += ref < 0;
                /* the early exit: closer than a margin just above the distance, not closer than one just below */
                xpbd_rod_hit h2;
                wrong_margin += xpbd_collide_rod_rod(&a, &b, ref + 1e-4, &h2) != 1;
                wrong_margin += xpbd_collide_rod_rod(&a, &b, ref - 1e-4, &h2) != 0;
                double x1[3], x2[3], r1[3], r2[3];
                xpbd_rod_curve_eval(&a, hit.xi[0], x1, NULL);
                xpbd_rod_curve_eval(&b, hit.xi[1], x2, NULL);
                for (int k = 0; k < 3; k++) r1[k] = hit.pa[k] - x1[k], r2[k] = hit.pb[k] - x2[k];
                surf = fmax(surf, fmax(fabs(sqrt(dot(r1, r1)) - a.r), fabs(sqrt(dot(r2, r2)) - b.r)));
            }
            char what[160];
            snprintf(what, sizeof what,
                     "rod-rod, orders %d and %d: separation = dense minimum within 1e-6 m, 300 pairs "
                     "(%d penetrating; worst, m)",
                     o1, o2, deep);
            expect(what, worst < 1e-6, worst);
            snprintf(what, sizeof what, "rod-rod, orders %d and %d: points on both swept circles within 1e-12 m", o1, o2);
            expect(what, surf < 1e-12, surf);
            snprintf(what, sizeof what,
                     "rod-rod, orders %d and %d: closer than margin exactly when the dense minimum is "
                     "(margins 0.1 mm either side; wrong answers)",
                     o1, o2);
            expect(what, wrong_margin == 0, wrong_margin);
        }
}

int main(void)
{
    test_sdf();
    test_rod_shape();
    test_rod_rod();
    if (failures) printf("%d failure(s)\n", failures);
    else printf("all passed\n");
    return failures ? 1 : 0;
}
