/* xpbd_rod_contact.c — rod elements as contact sides (Tobin & Rucker §7,
 * docs/xpbd.md "Contact", "Rods"): every element of a rod that is not
 * visual enters the broad phase after the colliders, as the box of its
 * centreline grown by the radius, the curve's bulge and the step's motion;
 * a contact side on an element at ξ has the point x(ξ) + a, x(ξ) = Σ N_j p_j,
 * so along a world direction u its generalized inverse mass is Σ N_j²/m_j,
 * a multiplier Δλ moves node j by (N_j/m_j) u Δλ and an impulse P changes
 * its velocity by (N_j/m_j) u P (the swept circle has no rotation gradient). */
#include "xpbd/rod_internal.h"
#include "xpbd/xpbd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lebesgue constants max_ξ Σ_a |N_a(ξ)| of the equispaced Lagrange bases of
 * order 1–3 (rounded up): |x(ξ) − m| ≤ Λ max_a |p_a − m| per axis, so an
 * element's curve stays within its nodes' box grown by (Λ − 1) of its half
 * widths. */
static const double lebesgue[4] = { 1.0, 1.0, 1.25, 1.632 };

static int order_of(const xpbd_rod *rod) { return rod->order ? rod->order : 1; }

int xpbd_rod_contact_any(const xpbd_data *d)
{
    for (int r = 0; r < d->nrod; r++)
        if (!d->rods[r]->desc.visual) return 1;
    return 0;
}

static int grow(void **a, int *cap, int need, size_t size)
{
    if (need <= *cap) return 0;
    int c = *cap > 0 ? *cap : 16;
    while (c < need) c *= 2;
    void *g = realloc(*a, (size_t)c * size);
    if (!g) return -1;
    *a = g;
    *cap = c;
    return 0;
}

/* The element list, and room for n0 colliders and the elements in the
 * broad phase's arrays. */
static int list_elements(xpbd_data *d, int n0)
{
    d->nelem = 0;
    for (int r = 0; r < d->nrod; r++)
        if (!d->rods[r]->desc.visual) d->nelem += d->rods[r]->nel;
    int n = n0 + d->nelem, cap = d->cap_placed;
    if (grow((void **)&d->elem, &d->cap_elem, 2 * d->nelem, sizeof *d->elem)) return -1;
    if (n > cap) {
        int c1 = cap, c2 = cap;
        if (grow((void **)&d->placed, &cap, n, sizeof *d->placed) ||
            grow((void **)&d->collider_static, &c1, n, sizeof *d->collider_static) ||
            grow((void **)&d->collider_grow, &c2, n, sizeof *d->collider_grow))
            return -1;
        d->cap_placed = cap;
    }
    int k = 0;
    for (int r = 0; r < d->nrod; r++)
        for (int e = 0; !d->rods[r]->desc.visual && e < d->rods[r]->nel; e++) {
            d->elem[2 * k] = r;
            d->elem[2 * k + 1] = e;
            k++;
        }
    return 0;
}

void xpbd_rod_element_curve(const xpbd_data *d, int k, xpbd_rod_curve *c, int *node0)
{
    const xpbd_rod *rod = d->rods[d->elem[2 * k]];
    c->order = order_of(rod);
    *node0 = d->elem[2 * k + 1] * c->order;
    c->p = rod->p + 3 * *node0;
    c->r = 0.5 * rod->desc.diameter;
}

double xpbd_rod_element_motion(const xpbd_data *d, int k, double t)
{
    const xpbd_rod *rod = d->rods[d->elem[2 * k]];
    int m = order_of(rod), j0 = d->elem[2 * k + 1] * m;
    double vmax = 0;
    for (int j = j0; j <= j0 + m; j++) {
        const double *v = rod->v + 3 * j;
        vmax = fmax(vmax, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    const double *g = d->gravity;
    return vmax * t + sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * t * t;
}

int xpbd_rod_elements_place(xpbd_data *d, int n0)
{
    if (list_elements(d, n0)) return -1;
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    for (int k = 0; k < d->nelem; k++) {
        xpbd_rod_curve c;
        int node0;
        xpbd_rod_element_curve(d, k, &c, &node0);
        double lo[3], hi[3];
        for (int i = 0; i < 3; i++) lo[i] = hi[i] = c.p[i];
        for (int a = 1; a <= c.order; a++)
            for (int i = 0; i < 3; i++) {
                lo[i] = fmin(lo[i], c.p[3 * a + i]);
                hi[i] = fmax(hi[i], c.p[3 * a + i]);
            }
        collide_placed *s = &d->placed[n0 + k]; /* an axis-aligned box: its AABB is itself */
        s->kind = COLLIDE_BOX;
        memcpy(s->R, I3, sizeof I3);
        for (int i = 0; i < 3; i++) {
            s->c[i] = 0.5 * (lo[i] + hi[i]);
            s->size[i] = lebesgue[c.order] * 0.5 * (hi[i] - lo[i]) + c.r;
        }
        d->collider_static[n0 + k] = 0;
        d->collider_grow[n0 + k] = 2.0 * xpbd_rod_element_motion(d, k, d->dt);
    }
    return 0;
}

/* Pairs that never collide: a rod's elements and the body that holds one of
 * its ends; two elements of one rod that share a node, or whose arc-length
 * gap (l times the elements between them) is below the diameter. */
int xpbd_rod_pair_excluded(const xpbd_model *m, const xpbd_data *d, int i, int j)
{
    int n0 = m->ncollider;
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    const xpbd_rod *rod = d->rods[d->elem[2 * (j - n0)]];
    if (i < n0) {
        int b = m->colliders[i].body;
        for (int e = 0; e < 2; e++)
            if (b >= 0 && rod->desc.end[e].hold && rod->desc.end[e].on_body && rod->desc.end[e].body == b) return 1;
        return 0;
    }
    if (d->elem[2 * (i - n0)] != d->elem[2 * (j - n0)]) return 0;
    int apart = abs(d->elem[2 * (i - n0) + 1] - d->elem[2 * (j - n0) + 1]);
    return apart <= 1 || (apart - 1) * rod->l < rod->desc.diameter;
}

void xpbd_rod_side_set(const xpbd_data *d, xpbd_contact *c, int side, int k, double xi)
{
    double dphi[4];
    xpbd_rod_curve curve;
    c->body[side] = -1;
    c->rod[side] = d->elem[2 * k];
    xpbd_rod_element_curve(d, k, &curve, &c->node0[side]);
    c->nn[side] = curve.order + 1;
    rod_lagrange(curve.order, xi, c->N[side], dphi);
}

void xpbd_rod_side_point(const xpbd_data *d, const xpbd_contact *c, int side, int prev, double p[3])
{
    const xpbd_rod *rod = d->rods[c->rod[side]];
    const double *x = (prev ? rod->p_prev : rod->p) + 3 * c->node0[side];
    for (int k = 0; k < 3; k++) {
        p[k] = c->a[side][k];
        for (int a = 0; a < c->nn[side]; a++) p[k] += c->N[side][a] * x[3 * a + k];
    }
}

double xpbd_rod_side_weight(const xpbd_data *d, const xpbd_contact *c, int side)
{
    const xpbd_rod *rod = d->rods[c->rod[side]];
    double w = 0;
    for (int a = 0; a < c->nn[side]; a++) w += c->N[side][a] * c->N[side][a] / rod->mass[c->node0[side] + a];
    return w;
}

/* node j ← node j + s (N_j/m_j) u, s = Δλ for a position or P for a
 * velocity (side 1 takes −s). */
static void side_add(const xpbd_contact *c, int side, const xpbd_rod *rod, double *x, const double u[3], double s)
{
    double sg = side == 0 ? s : -s;
    for (int a = 0; a < c->nn[side]; a++) {
        int j = c->node0[side] + a;
        double f = sg * c->N[side][a] / rod->mass[j];
        for (int k = 0; k < 3; k++) x[3 * j + k] += f * u[k];
    }
}

void xpbd_rod_side_move(xpbd_data *d, const xpbd_contact *c, int side, const double u[3], double dl)
{
    xpbd_rod *rod = d->rods[c->rod[side]];
    side_add(c, side, rod, rod->p, u, dl);
}

void xpbd_rod_side_impulse(xpbd_data *d, const xpbd_contact *c, int side, const double u[3], double P)
{
    xpbd_rod *rod = d->rods[c->rod[side]];
    side_add(c, side, rod, rod->v, u, P);
}

void xpbd_rod_side_velocity(const xpbd_data *d, const xpbd_contact *c, int side, double v[3])
{
    const xpbd_rod *rod = d->rods[c->rod[side]];
    for (int k = 0; k < 3; k++) {
        v[k] = 0;
        for (int a = 0; a < c->nn[side]; a++) v[k] += c->N[side][a] * rod->v[3 * (c->node0[side] + a) + k];
    }
}
