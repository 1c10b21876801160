/* collide_sdf.c — signed distance functions of the collider shapes (negative
 * inside; a hull's from gjk.c) and their outward unit normals, for the rigid–rod narrow phase
 * (Tobin & Rucker §7.1.1).  Each is evaluated in the shape's frame, l =
 * Rᵀ(x − c), and its normal turned back to the world. */
#include "collide/collide.h"

#include "spatial/spatial.h"

#include <math.h>

/* Signed distance to the rectangle |a| ≤ ha, |b| ≤ hb from the excesses
 * qa = |a| − ha, qb = |b| − hb, and the normal's components along the two
 * outward directions. */
static double box2(double qa, double qb, double *wa, double *wb)
{
    if (qa > 0 || qb > 0) {
        double oa = fmax(qa, 0), ob = fmax(qb, 0), L = sqrt(oa * oa + ob * ob);
        *wa = oa / L;
        *wb = ob / L;
        return L;
    }
    *wa = qa >= qb;
    *wb = qa < qb;
    return fmax(qa, qb);
}

static double sign(double v) { return v < 0 ? -1.0 : 1.0; }

/* A hull's: GJK's distance from the point, or EPA's depth inside. */
static double hull_sdf(const collide_placed *s, const double x[3], double n[3])
{
    collide_placed p = { .kind = COLLIDE_SPHERE, .c = { x[0], x[1], x[2] }, .R = { 1, 0, 0, 0, 1, 0, 0, 0, 1 } };
    collide_gjk g;
    collide_gjk_epa(&p, s, &g);
    for (int k = 0; k < 3; k++) n[k] = g.n[k];
    return g.dist - g.depth;
}

double collide_sdf(const collide_placed *s, const double x[3], double n[3])
{
    if (s->kind == COLLIDE_HULL) return hull_sdf(s, x, n);
    const double *h = s->size;
    double r[3], l[3], g[3] = { 0, 0, 1 }, phi;
    for (int k = 0; k < 3; k++) r[k] = x[k] - s->c[k];
    m3_tmulv(s->R, r, l);
    switch (s->kind) {
    case COLLIDE_SPHERE:
    case COLLIDE_CAPSULE: { /* a ball about a point, or about the segment |z| ≤ h[1] */
        double q[3] = { l[0], l[1], s->kind == COLLIDE_CAPSULE ? l[2] - fmin(fmax(l[2], -h[1]), h[1]) : l[2] };
        double L = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        if (L > 0)
            for (int k = 0; k < 3; k++) g[k] = q[k] / L;
        phi = L - h[0];
        break;
    }
    case COLLIDE_BOX: {
        double q[3], o[3], L = 0;
        int out = 0, deep = 0;
        for (int k = 0; k < 3; k++) {
            q[k] = fabs(l[k]) - h[k];
            o[k] = fmax(q[k], 0);
            L += o[k] * o[k];
            out |= q[k] > 0;
            if (q[k] > q[deep]) deep = k;
        }
        L = sqrt(L);
        for (int k = 0; k < 3; k++) g[k] = out ? sign(l[k]) * o[k] / L : k == deep ? sign(l[k]) : 0;
        phi = out ? L : q[deep];
        break;
    }
    case COLLIDE_CYLINDER: { /* the rectangle (radial, axial) of the section through the axis */
        double rho = sqrt(l[0] * l[0] + l[1] * l[1]), u[2] = { 1, 0 }, wr, wz;
        if (rho > 0) u[0] = l[0] / rho, u[1] = l[1] / rho;
        phi = box2(rho - h[0], fabs(l[2]) - h[1], &wr, &wz);
        g[0] = wr * u[0];
        g[1] = wr * u[1];
        g[2] = wz * sign(l[2]);
        break;
    }
    default: phi = l[2]; break; /* the plane z = 0, solid below */
    }
    m3_mulv(s->R, g, n);
    return phi;
}
