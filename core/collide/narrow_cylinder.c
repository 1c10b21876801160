/* narrow_cylinder.c — a sphere against a solid cylinder (axis z of its
 * frame, radius R, half length H).  In the cylinder's frame the sphere's
 * centre l has a closest point q on the solid: the radial part clamped to
 * R and the axial part to ±H.  Outside, n = (l − q)/|l − q|; inside, the
 * nearer of the side and the cap it is under gives n and q on that face.
 * Then pa = c − r n on the sphere, pb = q on the cylinder. */
#include "collide/collide.h"

#include <math.h>

int collide_sphere_cylinder(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    const double *Rb = b->R, R = b->size[0], H = b->size[1];
    double d[3] = { a->c[0] - b->c[0], a->c[1] - b->c[1], a->c[2] - b->c[2] }, l[3], q[3], nl[3];
    for (int k = 0; k < 3; k++) l[k] = Rb[k] * d[0] + Rb[3 + k] * d[1] + Rb[6 + k] * d[2]; /* Rᵀd */
    double rho = sqrt(l[0] * l[0] + l[1] * l[1]);
    double ux = rho > 0 ? l[0] / rho : 1.0, uy = rho > 0 ? l[1] / rho : 0.0; /* radial direction */
    int inside = rho <= R && fabs(l[2]) <= H;
    if (!inside) {
        double rq = rho > R ? R : rho;
        q[0] = rq * ux;
        q[1] = rq * uy;
        q[2] = l[2] > H ? H : l[2] < -H ? -H : l[2];
        double e[3] = { l[0] - q[0], l[1] - q[1], l[2] - q[2] }, L = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        for (int k = 0; k < 3; k++) nl[k] = e[k] / L;
    } else if (R - rho < H - fabs(l[2])) { /* nearer the side */
        q[0] = R * ux, q[1] = R * uy, q[2] = l[2];
        nl[0] = ux, nl[1] = uy, nl[2] = 0;
    } else { /* nearer a cap */
        double s = l[2] >= 0 ? 1.0 : -1.0;
        q[0] = l[0], q[1] = l[1], q[2] = s * H;
        nl[0] = nl[1] = 0, nl[2] = s;
    }
    double pa[3], pb[3];
    for (int k = 0; k < 3; k++) {
        o->n[k] = Rb[3 * k] * nl[0] + Rb[3 * k + 1] * nl[1] + Rb[3 * k + 2] * nl[2];
        pb[k] = b->c[k] + Rb[3 * k] * q[0] + Rb[3 * k + 1] * q[1] + Rb[3 * k + 2] * q[2];
    }
    for (int k = 0; k < 3; k++) pa[k] = a->c[k] - a->size[0] * o->n[k];
    o->n_points = 0;
    collide_manifold_add(o, pa, pb, margin);
    return o->n_points;
}
