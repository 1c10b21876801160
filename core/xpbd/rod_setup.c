/* rod_setup.c — from an xpbd_rod_desc to a discretized rod: rest shapes
 * (straight, helix, points), node frames with d3 along the tangent, row-sum
 * lumped masses and inertias (§6.2, §6.3.6), Gauss points, rest strains
 * (intrinsic shear and curvature, §6.1) and compliances from
 * K^v = diag(κGA, κGA, EA), K^u = diag(EI, EI, GJ) (§6.1, §6.3.4). */
#include "xpbd/rod_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

void xpbd_rod_desc_default(xpbd_rod_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    desc->disc = XPBD_ROD_LINEAR;
    desc->elements = 1;
    desc->length = 1;
    desc->diameter = 0.01;
    desc->E = 1e6;
    desc->nu = 0.5;
    desc->rho = 1000;
    m3_identity(desc->frame);
    desc->dt = 0.01;
    desc->substeps = 1;
    desc->iterations = 1;
    desc->solver = XPBD_ROD_BANDED;
    desc->mu_s = 0.5;
    desc->mu_d = 0.4;
}

static int fail(char *err, int errlen, const char *msg)
{
    snprintf(err, (size_t)errlen, "rod: %s", msg);
    return -1;
}

static int validate(const xpbd_rod_desc *d, char *err, int errlen)
{
    if (d->disc < XPBD_ROD_RIGID || d->disc > XPBD_ROD_CUBIC) return fail(err, errlen, "unknown discretization");
    if (d->elements < 1) return fail(err, errlen, "elements must be >= 1");
    if (!(d->diameter > 0) || !(d->E > 0) || !(d->rho > 0) || !(d->damping >= 0))
        return fail(err, errlen, "diameter, E and rho must be > 0, damping >= 0");
    if (!(d->nu > -1 && d->nu <= 0.5)) return fail(err, errlen, "nu must lie in (-1, 0.5]");
    if (!(d->mu_d >= 0 && d->mu_d <= d->mu_s) || !(d->e >= 0 && d->e <= 1))
        return fail(err, errlen, "friction needs 0 <= mu_d <= mu_s, restitution 0 <= e <= 1");
    if (!(d->dt > 0) || d->substeps < 1 || d->iterations < 1)
        return fail(err, errlen, "dt must be > 0, substeps and iterations >= 1");
    if (d->shape == XPBD_ROD_STRAIGHT && !(d->length > 0)) return fail(err, errlen, "length must be > 0");
    if (d->shape == XPBD_ROD_HELIX && !(d->coil_radius > 0 && d->turns > 0 && d->pitch >= 0))
        return fail(err, errlen, "helix needs coil radius > 0, turns > 0, pitch >= 0");
    if (d->shape == XPBD_ROD_POINTS && (d->npoints < 2 || !d->points))
        return fail(err, errlen, "points needs at least two points");
    if (d->full_integration && d->disc == XPBD_ROD_RIGID)
        return fail(err, errlen, "the rigid chain has no Gauss points to add");
    for (int e = 0; e < 2; e++) {
        if (d->end[e].hold < 0 || d->end[e].hold > XPBD_ROD_PIN)
            return fail(err, errlen, "an end is 0 (free), XPBD_ROD_CLAMP or XPBD_ROD_PIN");
        if (d->end[e].hold == XPBD_ROD_PIN && d->end[e].twist != 0)
            return fail(err, errlen, "a pinned end has no twist: its orientation is free");
    }
    return 0;
}

/* Polyline length, cumulative per point (cum may be NULL). */
static double polyline_length(const xpbd_rod_desc *d, double *cum)
{
    double s = 0;
    if (cum) cum[0] = 0;
    for (int i = 1; i < d->npoints; i++) {
        double e[3];
        for (int k = 0; k < 3; k++) e[k] = d->points[3 * i + k] - d->points[3 * (i - 1) + k];
        s += v3_norm(e);
        if (cum) cum[i] = s;
    }
    return s;
}

static double rest_length(const xpbd_rod_desc *d)
{
    switch (d->shape) {
    case XPBD_ROD_HELIX: return d->turns * hypot(2 * PI * d->coil_radius, d->pitch);
    case XPBD_ROD_POINTS: return polyline_length(d, NULL);
    default: return d->length;
    }
}

/* Helix of radius a and pitch 2πc about e3, φ = s/√(a² + c²): Frenet frame
 * d1 = −(cos φ, sin φ, 0) (towards the axis), d3 = tangent, d2 = d3 × d1. */
static void helix_node(const xpbd_rod_desc *d, double s, double p[3], double R[9])
{
    double a = d->coil_radius, c = d->pitch / (2 * PI), k = hypot(a, c), ph = s / k;
    double d1[3] = { -cos(ph), -sin(ph), 0 }, d3[3] = { -a * sin(ph) / k, a * cos(ph) / k, c / k }, d2[3];
    v3_cross(d3, d1, d2);
    p[0] = a * cos(ph);
    p[1] = a * sin(ph);
    p[2] = c * ph;
    for (int r = 0; r < 3; r++) {
        R[3 * r] = d1[r];
        R[3 * r + 1] = d2[r];
        R[3 * r + 2] = d3[r];
    }
}

/* Polyline resampled at the node arc lengths; d3 along the central
 * difference of the nodes, frames carried by parallel transport. */
static int points_nodes(const xpbd_rod *rod, const xpbd_rod_desc *d, const double *s, double *p, double *R)
{
    int n = rod->nnode, seg = 1;
    double *cum = malloc((size_t)d->npoints * sizeof *cum);
    if (!cum) return -1;
    polyline_length(d, cum);
    for (int j = 0; j < n; j++) {
        while (seg < d->npoints - 1 && cum[seg] < s[j]) seg++;
        double f = cum[seg] > cum[seg - 1] ? (s[j] - cum[seg - 1]) / (cum[seg] - cum[seg - 1]) : 0;
        for (int k = 0; k < 3; k++) p[3 * j + k] = (1 - f) * d->points[3 * (seg - 1) + k] + f * d->points[3 * seg + k];
    }
    free(cum);
    double tprev[3] = { 0 };
    for (int j = 0; j < n; j++) {
        int a = j > 0 ? j - 1 : 0, b = j < n - 1 ? j + 1 : n - 1;
        double t[3];
        for (int k = 0; k < 3; k++) t[k] = p[3 * b + k] - p[3 * a + k];
        double tn = v3_norm(t);
        if (!(tn > 0)) return -1;
        for (int k = 0; k < 3; k++) t[k] /= tn;
        if (j == 0) {
            double e[3] = { fabs(t[0]) < 0.9 ? 1 : 0, fabs(t[0]) < 0.9 ? 0 : 1, 0 }, d1[3], d2[3];
            v3_cross(e, t, d2);
            double n2 = v3_norm(d2);
            for (int k = 0; k < 3; k++) d2[k] /= n2;
            v3_cross(d2, t, d1);
            for (int r = 0; r < 3; r++) {
                R[3 * r] = d1[r];
                R[3 * r + 1] = d2[r];
                R[3 * r + 2] = t[r];
            }
        } else {
            double ax[3], Q[9];
            v3_cross(tprev, t, ax);
            double sn = v3_norm(ax), ang = atan2(sn, v3_dot(tprev, t));
            if (sn > 0) {
                for (int k = 0; k < 3; k++) ax[k] /= sn;
                rot_axis_angle(ax, ang, Q);
                m3_mul(Q, R + 9 * (j - 1), R + 9 * j);
            } else memcpy(R + 9 * j, R + 9 * (j - 1), 9 * sizeof(double));
        }
        memcpy(tprev, t, sizeof t);
    }
    return 0;
}

static int rest_shape(xpbd_rod *rod, const xpbd_rod_desc *d)
{
    int n = rod->nnode, per = rod->order ? rod->order : 1;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return -1;
    for (int j = 0; j < n; j++) s[j] = rod->l * j / per;
    int rc = 0;
    for (int j = 0; j < n && d->shape != XPBD_ROD_POINTS; j++) {
        double *p = rod->p0 + 3 * j, *R = rod->R0 + 9 * j;
        if (d->shape == XPBD_ROD_HELIX) helix_node(d, s[j], p, R);
        else {
            p[0] = p[1] = 0;
            p[2] = s[j];
            m3_identity(R);
        }
    }
    if (d->shape == XPBD_ROD_POINTS) rc = points_nodes(rod, d, s, rod->p0, rod->R0);
    free(s);
    for (int j = 0; j < n; j++) { /* local → world */
        double x[3], R[9];
        m3_mulv(d->frame, rod->p0 + 3 * j, x);
        for (int k = 0; k < 3; k++) rod->p0[3 * j + k] = d->origin[k] + x[k];
        m3_mul(d->frame, rod->R0 + 9 * j, R);
        memcpy(rod->R0 + 9 * j, R, sizeof R);
    }
    return rc;
}

/* Row-sum lumping (§6.3.6): node a of an element receives ∫₀¹ φ_a dξ of the
 * element's ρAl and ρJl (½ ½; ⅙ ⅔ ⅙; ⅛ ⅜ ⅜ ⅛).  Rigid chain (§6.2): interior
 * bodies l, end bodies l/2 with their DOF at the outer end, so their
 * transverse inertia gains m (l/4)² by the parallel-axis theorem. */
static void lump_masses(xpbd_rod *rod, double A, double I)
{
    double rho = rod->desc.rho, l = rod->l, J[3] = { I, I, 2 * I };
    if (rod->order == 0) {
        for (int j = 0; j < rod->nnode; j++) {
            int end = j == 0 || j == rod->nnode - 1;
            double lb = end ? 0.5 * l : l, m = rho * A * lb;
            rod->mass[j] = m;
            for (int k = 0; k < 3; k++)
                rod->inertia[3 * j + k] = rho * lb * J[k] + (end && k < 2 ? m * lb * lb / 4 : 0);
        }
        return;
    }
    double xg[4], wg[4], wa[4] = { 0 }, phi[4], dphi[4];
    rod_gauss(4, xg, wg); /* exact for the degree ≤ 3 bases */
    for (int q = 0; q < 4; q++) {
        rod_lagrange(rod->order, xg[q], phi, dphi);
        for (int a = 0; a <= rod->order; a++) wa[a] += wg[q] * phi[a];
    }
    for (int e = 0; e < rod->nel; e++)
        for (int a = 0; a <= rod->order; a++) {
            int j = e * rod->order + a;
            rod->mass[j] += wa[a] * rho * A * l;
            for (int k = 0; k < 3; k++) rod->inertia[3 * j + k] += wa[a] * rho * l * J[k];
        }
}

/* α = (w_g l K)⁻¹ per row: ½∫(ε − ε*)ᵀK(ε − ε*)ds ≈ Σ_g ½ w_g l CᵀKC (§6.3.4).
 * Shear correction κ = 6(1 + ν)/(7 + 6ν) (Cowper 1966, circular section).
 * Damping (§4.4) uses the same weights with β in place of E. */
static void compliances(xpbd_rod *rod, double A, double I)
{
    const xpbd_rod_desc *d = &rod->desc;
    double G = d->E / (2 * (1 + d->nu)), kappa = 6 * (1 + d->nu) / (7 + 6 * d->nu);
    double K[6] = { kappa * G * A, kappa * G * A, d->E * A, d->E * I, d->E * I, G * 2 * I };
    int ng = rod->nel * rod->ngauss;
    for (int g = 0; g < ng; g++) {
        double wl = rod->wq[g % rod->ngauss] * rod->l;
        for (int k = 0; k < 6; k++) {
            rod->alpha[6 * g + k] = 1.0 / (wl * K[k]);
            rod->beta[6 * g + k] = d->damping / d->E * wl * K[k];
        }
    }
}

/* Block bandwidth from the connectivity: the widest span of block indices
 * that share a node (2m − 1 for m Gauss points per element, §8.2). */
static int block_bandwidth(const xpbd_rod *rod)
{
    int bw = 0, *lo = malloc((size_t)rod->nnode * sizeof *lo);
    if (!lo) return -1;
    for (int j = 0; j < rod->nnode; j++) lo[j] = -1;
    for (int c = 0; c < rod->ncon; c++) {
        const rod_block *b = &rod->blocks[c];
        for (int k = 0; k < b->nn; k++) {
            int j = b->node0 + k;
            if (lo[j] < 0) lo[j] = c;
            if (c - lo[j] > bw) bw = c - lo[j];
        }
    }
    free(lo);
    return bw;
}

int rod_kd(const xpbd_rod *rod) { return 6 * (rod->bandwidth + 1) - 1; }

int xpbd_rod_init(xpbd_rod *rod, const xpbd_rod_desc *desc, char *err, int errlen)
{
    memset(rod, 0, sizeof *rod);
    if (validate(desc, err, errlen)) return -1;
    rod->desc = *desc;
    rod->desc.points = NULL;
    rod->order = (int)desc->disc;
    rod->nel = desc->elements;
    rod->nnode = rod->nel * (rod->order ? rod->order : 1) + 1;
    rod->ngauss = rod->order ? rod->order + (desc->full_integration ? 1 : 0) : 1;
    rod->ncon = rod->nel * rod->ngauss + (desc->end[0].hold ? 1 : 0) + (desc->end[1].hold ? 1 : 0);
    rod->l = rest_length(desc) / rod->nel;
    if (!(rod->l > 0)) return fail(err, errlen, "the rest shape has zero length");
    rod_gauss(rod->ngauss, rod->xi, rod->wq);
    for (int k = 0; k < rod->ngauss && rod->order; k++)
        rod_lagrange(rod->order, rod->xi[k], rod->phi_g[k], rod->dphi_g[k]);
    size_t n = (size_t)rod->nnode, ng = (size_t)(rod->nel * rod->ngauss), nc = (size_t)rod->ncon;
    double **arrays[] = { &rod->mass,   &rod->inertia, &rod->inv_mass, &rod->p0,   &rod->R0, &rod->rest, &rod->alpha,
                          &rod->beta,   &rod->p,       &rod->R,        &rod->v,    &rod->w,  &rod->fext, &rod->lambda,
                          &rod->p_prev, &rod->R_prev,  &rod->rhs,      &rod->diag, &rod->dx };
    size_t sizes[] = { n,     3 * n, 6 * n, 3 * n,  9 * n, 6 * ng, 6 * ng, 6 * ng, 3 * n, 9 * n,
                       3 * n, 3 * n, 6 * n, 6 * nc, 3 * n, 9 * n,  6 * nc, 6 * nc, 6 * n };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!(*arrays[i] = calloc(sizes[i], sizeof(double)))) {
            xpbd_rod_free(rod);
            return fail(err, errlen, "out of memory");
        }
    rod->blocks = calloc(nc, sizeof *rod->blocks);
    if (!rod->blocks || rest_shape(rod, desc)) {
        xpbd_rod_free(rod);
        return fail(err, errlen, "out of memory or a degenerate point list");
    }
    double r = 0.5 * desc->diameter, A = PI * r * r, I = 0.25 * PI * r * r * r * r;
    lump_masses(rod, A, I);
    for (size_t j = 0; j < n; j++)
        for (int k = 0; k < 3; k++) {
            rod->inv_mass[6 * j + k] = 1.0 / rod->mass[j];
            rod->inv_mass[6 * j + 3 + k] = 1.0 / rod->inertia[3 * j + k];
        }
    compliances(rod, A, I);
    for (size_t g = 0; g < ng; g++) {
        rod_block b;
        rod_strain(rod, (int)g, rod->p0, rod->R0, &b);
        memcpy(rod->rest + 6 * g, b.C, sizeof b.C);
    }
    xpbd_rod_reset(rod);
    for (int c = 0; c < rod->ncon; c++) rod_block_eval(rod, c, &rod->blocks[c]);
    rod->bandwidth = block_bandwidth(rod);
    size_t kd = (size_t)rod_kd(rod);
    if (rod->bandwidth < 0 || !(rod->band = malloc(6 * nc * (kd + 1) * sizeof(double)))) {
        xpbd_rod_free(rod);
        return fail(err, errlen, "out of memory");
    }
    /* The interpolation needs |R_a ⊟ R_r| < π within every element. */
    for (int e = 0; e < rod->nel && rod->order > 1; e++)
        for (int a = 0; a <= rod->order; a++) {
            double th[3];
            so3_minus(rod->R0 + 9 * (e * rod->order + a), rod->R0 + 9 * (e * rod->order + rod->order / 2), th);
            if (v3_norm(th) > 0.9 * PI) {
                xpbd_rod_free(rod);
                return fail(err, errlen, "an element turns by more than 0.9 pi; use more elements");
            }
        }
    return 0;
}

void xpbd_rod_reset(xpbd_rod *rod)
{
    size_t n = (size_t)rod->nnode;
    rod->t = 0;
    memcpy(rod->p, rod->p0, 3 * n * sizeof(double));
    memcpy(rod->R, rod->R0, 9 * n * sizeof(double));
    memset(rod->v, 0, 3 * n * sizeof(double));
    memset(rod->w, 0, 3 * n * sizeof(double));
    memset(rod->fext, 0, 6 * n * sizeof(double));
}

void xpbd_rod_free(xpbd_rod *rod)
{
    double *all[] = { rod->mass,   rod->inertia, rod->inv_mass, rod->p0,  rod->R0,   rod->rest, rod->alpha,
                      rod->beta,   rod->p,       rod->R,        rod->v,   rod->w,    rod->fext, rod->lambda,
                      rod->p_prev, rod->R_prev,  rod->band,     rod->rhs, rod->diag, rod->dx };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    free(rod->blocks);
    memset(rod, 0, sizeof *rod);
}
