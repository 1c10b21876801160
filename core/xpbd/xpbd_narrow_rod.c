/* xpbd_narrow_rod.c — the narrow phase of rod elements (Tobin & Rucker §7.1,
 * docs/xpbd.md "Contact", "Rods"): a rod collides as the circle of its
 * radius swept along the centreline x(ξ) of each element.
 *   rigid–rod (§7.1.1)  min over ξ ∈ [0, 1] of the shape's signed distance
 *                       φ(x(ξ)): samples, then golden-section search about
 *                       each sample at least as deep as its neighbours (the
 *                       paper refines the deepest only; a curved element can
 *                       hold two minima of nearly equal depth);
 *   rod–rod (§7.1.2)    min over (ξ1, ξ2) ∈ [0, 1]² of |x1(ξ1) − x2(ξ2)|² by
 *                       Levenberg–Marquardt, (JᵀJ + λI) Δξ = −Jᵀ(x1 − x2),
 *                       J = [x1′, −x2′], clamped to the box, from several
 *                       sample pairs of a grid: its local minima, closest
 *                       first, then its closest other points (two elements
 *                       can meet twice along one valley of the grid).
 *                       JᵀJ is completed by the curvature terms r·x″ (the
 *                       exact Hessian of ½|r|²) where that stays positive
 *                       definite: Gauss–Newton alone converges linearly
 *                       when the closest points are apart, and 100
 *                       iterations left errors of 2.5e-6 m. */
#include "xpbd/rod_internal.h"
#include "xpbd/xpbd_internal.h"

#include "spatial/spatial.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum {
    SAMPLES = 16,      /* intervals of the sample grid on [0, 1] (rigid–rod) */
    PAIR_SAMPLES = 16, /* and of each side's (rod–rod) */
    COARSE = 4,        /* rod–rod: the chords between every COARSE-th sample, for a first test */
    STARTS = 6
}; /* rod–rod: sample pairs refined */

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The Lagrange bases of order m on equispaced nodes as polynomials in ξ:
 * N_a(ξ) = Σ_k basis_poly[m][a][k] ξ^k (§6.3.1; e.g. order 2: N_0 = (2ξ − 1)(ξ − 1),
 * N_1 = 4ξ(1 − ξ), N_2 = ξ(2ξ − 1)). */
static const double basis_poly[4][4][4] = {
    { { 0 } },
    { { 1, -1 }, { 0, 1 } },
    { { 1, -3, 2 }, { 0, 4, -4 }, { 0, -1, 2 } },
    { { 1, -5.5, 9, -4.5 }, { 0, 9, -22.5, 13.5 }, { 0, -4.5, 18, -13.5 }, { 0, 1, -4.5, 4.5 } },
};

/* A centreline in power form about an origin o: x(ξ) − o = Σ_k c_k ξ^k, so
 * that x, x′ and x″ cost one Horner pass each (the narrow phase evaluates
 * them thousands of times per pair). */
typedef struct {
    int order;
    double c[4][3];
    double size; /* Σ_k |c_k|: a bound on |x(ξ) − o| */
} curve_poly;

static void poly_of(const xpbd_rod_curve *cv, const double o[3], curve_poly *q)
{
    int m = cv->order;
    q->order = m;
    q->size = 0;
    for (int k = 0; k <= m; k++) {
        for (int i = 0; i < 3; i++) {
            double s = 0;
            for (int a = 0; a <= m; a++) s += basis_poly[m][a][k] * (cv->p[3 * a + i] - o[i]);
            q->c[k][i] = s;
        }
        q->size += sqrt(dot(q->c[k], q->c[k]));
    }
}

static void poly_x(const curve_poly *q, double xi, double x[3])
{
    for (int i = 0; i < 3; i++) {
        double s = q->c[q->order][i];
        for (int k = q->order - 1; k >= 0; k--) s = s * xi + q->c[k][i];
        x[i] = s;
    }
}

/* x and x′ */
static void poly_xd(const curve_poly *q, double xi, double x[3], double dx[3])
{
    for (int i = 0; i < 3; i++) {
        double s = q->c[q->order][i], d = 0;
        for (int k = q->order - 1; k >= 0; k--) {
            d = d * xi + s;
            s = s * xi + q->c[k][i];
        }
        x[i] = s;
        dx[i] = d;
    }
}

/* x″ */
static void poly_d2(const curve_poly *q, double xi, double x2[3])
{
    for (int i = 0; i < 3; i++)
        x2[i] = q->order < 2 ? 0 : q->order == 2 ? 2 * q->c[2][i] : 2 * q->c[2][i] + 6 * q->c[3][i] * xi;
}

void xpbd_rod_curve_eval(const xpbd_rod_curve *c, double xi, double x[3], double dx[3])
{
    double phi[4], dphi[4];
    rod_lagrange(c->order, xi, phi, dphi);
    for (int k = 0; k < 3; k++) {
        x[k] = 0;
        if (dx) dx[k] = 0;
        for (int a = 0; a <= c->order; a++) {
            x[k] += phi[a] * c->p[3 * a + k];
            if (dx) dx[k] += dphi[a] * c->p[3 * a + k];
        }
    }
}

static double depth(const curve_poly *a, const collide_placed *b, double xi)
{
    double x[3], n[3];
    poly_x(a, xi, x);
    return collide_sdf(b, x, n);
}

/* The hit at ξ: n = ∇φ (outward of the shape), pa = x − r n, pb = x − φ n. */
static void shape_hit(const curve_poly *a, double r, const collide_placed *b, double xi, xpbd_rod_hit *h)
{
    double x[3];
    poly_x(a, xi, x);
    double phi = collide_sdf(b, x, h->n);
    h->xi[0] = xi;
    h->xi[1] = 0;
    for (int k = 0; k < 3; k++) {
        h->pa[k] = x[k] - r * h->n[k];
        h->pb[k] = x[k] - phi * h->n[k];
    }
    h->s = phi - r;
}

/* §7.1.1: golden-section search of ψ on [lo, hi] to a width of 1e-10. */
static double golden(const curve_poly *a, const collide_placed *b, double lo, double hi)
{
    const double g = 0.5 * (sqrt(5.0) - 1.0);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = depth(a, b, x1), f2 = depth(a, b, x2);
    while (hi - lo > 1e-10) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = depth(a, b, x1);
        } else {
            lo = x1;
            x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = depth(a, b, x2);
        }
    }
    return f1 <= f2 ? x1 : x2;
}

int xpbd_collide_rod_shape(const xpbd_rod_curve *cv, const collide_placed *b, double margin, xpbd_rod_hit out[3])
{
    static const double o[3] = { 0, 0, 0 };
    curve_poly q, *a = &q;
    poly_of(cv, o, a);
    double f[SAMPLES + 1], xi = 0, best = INFINITY, r = cv->r;
    for (int k = 0; k <= SAMPLES; k++) f[k] = depth(a, b, (double)k / SAMPLES);
    for (int k = 0; k <= SAMPLES; k++) {
        if ((k > 0 && f[k - 1] < f[k]) || (k < SAMPLES && f[k + 1] < f[k])) continue;
        /* An end sample from which ψ rises over the search's own resolution
         * is the minimum of its interval (ψ unimodal there, as the search
         * assumes): the search would close in on it and return it. */
        double x = (double)k / SAMPLES, fx = f[k];
        if ((k == 0 || k == SAMPLES) && depth(a, b, k ? 1 - 1e-10 : 1e-10) > f[k]) {
            if (fx < best) best = fx, xi = x;
            continue;
        }
        x = golden(a, b, (double)(k > 0 ? k - 1 : 0) / SAMPLES, (double)(k < SAMPLES ? k + 1 : SAMPLES) / SAMPLES);
        fx = depth(a, b, x);
        if (fx > f[k]) x = (double)k / SAMPLES, fx = f[k];
        if (fx < best) best = fx, xi = x;
    }
    int n = 0;
    shape_hit(a, r, b, xi, &out[n]);
    n += out[n].s < margin;
    for (int e = 0; e < 2; e++)
        if (fabs(xi - e) > 0.25 && f[e * SAMPLES] - r < margin) shape_hit(a, r, b, e, &out[n++]);
    return n;
}

/* x1(ξ1) − x2(ξ2) and the tangents. */
static double gap(const curve_poly *a, const curve_poly *b, const double xi[2], double r[3], double d1[3], double d2[3])
{
    double x1[3], x2[3];
    poly_xd(a, xi[0], x1, d1);
    poly_xd(b, xi[1], x2, d2);
    for (int k = 0; k < 3; k++) r[k] = x1[k] - x2[k];
    return dot(r, r);
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* §7.1.2, with the bounds as an active set: a parameter at 0 or 1 whose
 * gradient points out of the box is held, and the step solves for the rest.
 * The gradient and Hessian change only when a step is taken; the search
 * ends when no step moves ξ (a larger λ would only shorten it), or when a
 * step fails whose predicted decrease −(g·s + ½sᵀHs) is below the rounding
 * of f itself (2|r| times the rounding of the points): the minimum is
 * found to the precision f can show.  Returns the squared distance at ξ. */
static double levenberg_marquardt(const curve_poly *a, const curve_poly *b, double xi[2])
{
    double r[3], d1[3], d2[3], lam = 1e-3, g[2] = { 0 }, G[3] = { 0 }, H[3] = { 0 };
    double f = gap(a, b, xi, r, d1, d2);
    int free0 = 0, free1 = 0, moved_to = 1;
    for (int it = 0; it < 100 && f > 0; it++) {
        if (moved_to) {
            double c1[3], c2[3];
            poly_d2(a, xi[0], c1);
            poly_d2(b, xi[1], c2);
            g[0] = dot(d1, r), g[1] = -dot(d2, r);
            /* H00, H01, H11 of JᵀJ, then with r·x″ where that is positive definite on the free parameters */
            G[0] = dot(d1, d1), G[1] = -dot(d1, d2), G[2] = dot(d2, d2);
            H[0] = G[0] + dot(r, c1), H[1] = G[1], H[2] = G[2] - dot(r, c2);
            free0 = !((xi[0] <= 0 && g[0] > 0) || (xi[0] >= 1 && g[0] < 0));
            free1 = !((xi[1] <= 0 && g[1] > 0) || (xi[1] >= 1 && g[1] < 0));
            if ((free0 && !(H[0] > 0)) || (free1 && !(H[2] > 0)) || (free0 && free1 && !(H[0] * H[2] > H[1] * H[1])))
                memcpy(H, G, sizeof G);
            moved_to = 0;
        }
        double mu = lam * (G[0] + G[2]), step[2] = { 0, 0 };
        if (!(mu > 0) || !(free0 || free1)) break;
        double A = H[0] + mu, B = H[1], D = H[2] + mu, det = A * D - B * B;
        if (free0 && free1) {
            step[0] = (-g[0] * D + g[1] * B) / det;
            step[1] = (-g[1] * A + g[0] * B) / det;
        } else if (free0) step[0] = -g[0] / A;
        else step[1] = -g[1] / D;
        double cand[2] = { clamp01(xi[0] + step[0]), clamp01(xi[1] + step[1]) }, rc[3], e1[3], e2[3];
        if (cand[0] == xi[0] && cand[1] == xi[1]) break;
        double fc = gap(a, b, cand, rc, e1, e2);
        if (fc < f) {
            double moved = fabs(cand[0] - xi[0]) + fabs(cand[1] - xi[1]);
            memcpy(xi, cand, sizeof cand);
            memcpy(r, rc, sizeof rc);
            memcpy(d1, e1, sizeof e1);
            memcpy(d2, e2, sizeof e2);
            f = fc;
            lam *= 0.3;
            moved_to = 1;
            if (moved < 1e-15) break;
        } else {
            double pred = -(g[0] * step[0] + g[1] * step[1]) -
                          0.5 * (H[0] * step[0] * step[0] + 2 * H[1] * step[0] * step[1] + H[2] * step[1] * step[1]);
            if (pred <= 8 * DBL_EPSILON * sqrt(f) * (a->size + b->size) || (lam *= 10) > 1e12) break;
        }
    }
    return f;
}

/* Half the longest chord between neighbouring samples, with room for the
 * arc: no point of the centreline is farther than this from a sample. */
static double sample_reach(const double (*x)[3], int n)
{
    double c = 0;
    for (int k = 0; k + 1 < n; k++) {
        double d[3] = { x[k + 1][0] - x[k][0], x[k + 1][1] - x[k][1], x[k + 1][2] - x[k][2] };
        c = fmax(c, dot(d, d));
    }
    return 0.75 * sqrt(c);
}

/* Keep list[0..*n) the (at most STARTS) grid points of least f, ascending,
 * the earlier point first among equals, as point k arrives. */
static void rank_insert(int *list, int *n, const double *f, int k)
{
    if (*n == STARTS && !(f[k] < f[list[STARTS - 1]])) return;
    int i = *n < STARTS ? (*n)++ : STARTS - 1;
    for (; i > 0 && f[k] < f[list[i - 1]]; i--) list[i] = list[i - 1];
    list[i] = k;
}

/* How far the centreline strays from the chord of any interval of width w
 * in ξ: per axis |x_i − chord_i| ≤ max |x_i″| w²/8 (the error of linear
 * interpolation), and x″ = 2c₂ + 6c₃ξ is largest in size at ξ = 0 or 1. */
static double chord_reach(const curve_poly *q, double w)
{
    if (q->order < 2) return 0;
    double s = 0;
    for (int i = 0; i < 3; i++) {
        double m0 = fabs(2 * q->c[2][i]), m1 = q->order == 3 ? fabs(2 * q->c[2][i] + 6 * q->c[3][i]) : m0;
        double mi = m0 > m1 ? m0 : m1;
        s += mi * mi;
    }
    return 0.125 * w * w * sqrt(s);
}

/* The squared distance between the segments p1q1 and p2q2 (Ericson,
 * Real-Time Collision Detection §5.1.9): the closest parameters, each
 * clamped to its segment and the other's recomputed from it. */
static double segment_distance2(const double p1[3], const double q1[3], const double p2[3], const double q2[3])
{
    double d1[3], d2[3], r[3], s = 0, t = 0;
    for (int k = 0; k < 3; k++) {
        d1[k] = q1[k] - p1[k];
        d2[k] = q2[k] - p2[k];
        r[k] = p1[k] - p2[k];
    }
    double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    if (a > 0 || e > 0) {
        if (!(a > 0)) t = clamp01(f / e);
        else {
            double c = dot(d1, r);
            if (!(e > 0)) s = clamp01(-c / a);
            else {
                double b = dot(d1, d2), den = a * e - b * b;
                s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
                t = (b * s + f) / e;
                if (t < 0) t = 0, s = clamp01(-c / a);
                else if (t > 1) t = 1, s = clamp01((b - c) / a);
            }
        }
    }
    double g[3];
    for (int k = 0; k < 3; k++) g[k] = (p1[k] + s * d1[k]) - (p2[k] + t * d2[k]);
    return dot(g, g);
}

int xpbd_collide_rod_rod(const xpbd_rod_curve *a, const xpbd_rod_curve *b, double margin, xpbd_rod_hit *out)
{
    enum { S = PAIR_SAMPLES + 1 };
    double xa[S][3], xb[S][3], f[S][S], xi[2] = { 0, 0 }, best = INFINITY;
    curve_poly qa, qb; /* both about a's first node */
    poly_of(a, a->p, &qa);
    poly_of(b, a->p, &qb);
    /* Farther apart than margin everywhere: no search.  First the chords
     * between every COARSE-th sample: the centrelines are no closer than the
     * closest two chords less how far each curve strays from its chords
     * (chord_reach), less a relative 1e-9 of the curves' extent for the
     * rounding of the samples and of the distance. */
    for (int k = 0; k < S; k += COARSE) {
        poly_x(&qa, (double)k / PAIR_SAMPLES, xa[k]);
        poly_x(&qb, (double)k / PAIR_SAMPLES, xb[k]);
    }
    double cmin = INFINITY, w = (double)COARSE / PAIR_SAMPLES;
    for (int i = 0; i + COARSE < S; i += COARSE)
        for (int j = 0; j + COARSE < S; j += COARSE)
            cmin = fmin(cmin, segment_distance2(xa[i], xa[i + COARSE], xb[j], xb[j + COARSE]));
    if (sqrt(cmin) - chord_reach(&qa, w) - chord_reach(&qb, w) - 1e-9 * (qa.size + qb.size) - a->r - b->r >= margin)
        return 0;
    for (int k = 0; k < S; k++)
        if (k % COARSE) {
            poly_x(&qa, (double)k / PAIR_SAMPLES, xa[k]);
            poly_x(&qb, (double)k / PAIR_SAMPLES, xb[k]);
        }
    /* then the grid's closest pair less what lies between samples */
    double ra = sample_reach(xa, S), rb = sample_reach(xb, S);
    double fmin_row[S];
    for (int i = 0; i < S; i++) {
        fmin_row[i] = INFINITY;
        for (int j = 0; j < S; j++) {
            double r[3] = { xa[i][0] - xb[j][0], xa[i][1] - xb[j][1], xa[i][2] - xb[j][2] };
            f[i][j] = dot(r, r);
            fmin_row[i] = fmin_row[i] < f[i][j] ? fmin_row[i] : f[i][j];
        }
    }
    double fmin = INFINITY;
    for (int i = 0; i < S; i++) fmin = fmin < fmin_row[i] ? fmin : fmin_row[i];
    if (sqrt(fmin) - ra - rb - a->r - b->r >= margin) return 0;
    /* the grid points ranked: those that no neighbour undercuts first, then by distance */
    int low[STARTS], other[STARTS], nlow = 0, nother = 0;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            int is_low = 1;
            for (int di = i > 0 ? -1 : 0; is_low && di <= (i < S - 1); di++)
                for (int dj = j > 0 ? -1 : 0; dj <= (j < S - 1); dj++)
                    if (f[i + di][j + dj] < f[i][j]) {
                        is_low = 0;
                        break;
                    }
            rank_insert(is_low ? low : other, is_low ? &nlow : &nother, &f[0][0], S * i + j);
        }
    /* LM from the first STARTS of them */
    for (int q = 0; q < STARTS && q < nlow + nother; q++) {
        int k = q < nlow ? low[q] : other[q - nlow];
        double x[2] = { (double)(k / S) / PAIR_SAMPLES, (double)(k % S) / PAIR_SAMPLES };
        double fx = levenberg_marquardt(&qa, &qb, x);
        if (fx < best) best = fx, xi[0] = x[0], xi[1] = x[1];
    }
    double r[3], d1[3], d2[3], L = sqrt(gap(&qa, &qb, xi, r, d1, d2));
    if (L > 0)
        for (int k = 0; k < 3; k++) out->n[k] = r[k] / L;
    else { /* the centrelines meet: across both tangents */ v3_cross(d1, d2, out->n);
        double m = sqrt(dot(out->n, out->n));
        double e[3] = { 0, 0, 1 };
        for (int k = 0; k < 3; k++) out->n[k] = m > 0 ? out->n[k] / m : e[k];
    }
    memcpy(out->xi, xi, sizeof out->xi);
    double x1[3], x2[3];
    xpbd_rod_curve_eval(a, xi[0], x1, NULL);
    xpbd_rod_curve_eval(b, xi[1], x2, NULL);
    for (int k = 0; k < 3; k++) {
        out->pa[k] = x1[k] - a->r * out->n[k];
        out->pb[k] = x2[k] + b->r * out->n[k];
    }
    out->s = L - a->r - b->r;
    return out->s < margin;
}
