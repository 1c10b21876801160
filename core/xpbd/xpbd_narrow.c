/* xpbd_narrow.c — the narrow phase's dispatch: each pair of shape types to
 * its function (xpbd_narrow_plane.c, _round.c, _box.c, _cylinder.c), with A and B swapped
 * and the manifold flipped when the table has the pair the other way round. */
#include "xpbd/xpbd_collide.h"

#include <math.h>
#include <string.h>

void xpbd_manifold_add(xpbd_manifold *o, const double pa[3], const double pb[3], double margin)
{
    double s = (pa[0] - pb[0]) * o->n[0] + (pa[1] - pb[1]) * o->n[1] + (pa[2] - pb[2]) * o->n[2];
    if (!(s < margin) || o->n_points == XPBD_MAX_MANIFOLD) return;
    memcpy(o->pa[o->n_points], pa, 3 * sizeof(double));
    memcpy(o->pb[o->n_points], pb, 3 * sizeof(double));
    o->n_points++;
}

typedef int (*pair_fn)(const xpbd_placed *, const xpbd_placed *, double, xpbd_manifold *);

/* [A][B] in the order of xpbd_shape_type; NULL: see the transposed entry, or no narrow phase. */
static const pair_fn table[5][5] = {
    [XPBD_SHAPE_SPHERE] = { [XPBD_SHAPE_SPHERE] = xpbd_collide_sphere_sphere,
                            [XPBD_SHAPE_CAPSULE] = xpbd_collide_sphere_capsule,
                            [XPBD_SHAPE_BOX] = xpbd_collide_sphere_box,
                            [XPBD_SHAPE_CYLINDER] = xpbd_collide_sphere_cylinder,
                            [XPBD_SHAPE_PLANE] = xpbd_collide_sphere_plane },
    [XPBD_SHAPE_CAPSULE] = { [XPBD_SHAPE_CAPSULE] = xpbd_collide_capsule_capsule,
                             [XPBD_SHAPE_BOX] = xpbd_collide_capsule_box,
                             [XPBD_SHAPE_PLANE] = xpbd_collide_capsule_plane },
    [XPBD_SHAPE_BOX] = { [XPBD_SHAPE_BOX] = xpbd_collide_box_box, [XPBD_SHAPE_PLANE] = xpbd_collide_box_plane },
    [XPBD_SHAPE_CYLINDER] = { [XPBD_SHAPE_PLANE] = xpbd_collide_cylinder_plane },
};

int xpbd_collide(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *out)
{
    out->n_points = 0;
    if (table[a->type][b->type]) return table[a->type][b->type](a, b, margin, out);
    if (!table[b->type][a->type]) return 0;
    int n = table[b->type][a->type](b, a, margin, out);
    for (int k = 0; k < 3; k++) out->n[k] = -out->n[k];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double t = out->pa[i][k];
            out->pa[i][k] = out->pb[i][k];
            out->pb[i][k] = t;
        }
    return n;
}

/* World AABB: centre ± the support extents Σ_k |R_ik| h_k of the core shape
 * plus its radius. */
void xpbd_placed_aabb(const xpbd_placed *s, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) {
        const double *R = s->R + 3 * i;
        double e;
        switch (s->type) {
        case XPBD_SHAPE_SPHERE: e = s->size[0]; break;
        case XPBD_SHAPE_CAPSULE: e = s->size[0] + s->size[1] * fabs(R[2]); break;
        case XPBD_SHAPE_BOX: e = s->size[0] * fabs(R[0]) + s->size[1] * fabs(R[1]) + s->size[2] * fabs(R[2]); break;
        case XPBD_SHAPE_CYLINDER:
            e = s->size[1] * fabs(R[2]) + s->size[0] * sqrt(fmax(0.0, 1.0 - R[2] * R[2]));
            break;
        default: e = INFINITY; break;
        }
        lo[i] = s->c[i] - e;
        hi[i] = s->c[i] + e;
    }
}
