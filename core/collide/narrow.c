/* narrow.c — a shape placed at its body's pose, and the narrow phase's
 * dispatch: each pair of shape kinds to its function (narrow_plane.c,
 * _round.c, _box.c, _cylinder.c, _hull.c), with A and B swapped and the manifold
 * flipped when the table has the pair the other way round. */
#include "collide/collide.h"

#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

void collide_shape_place(const collide_shape *s, const double p[3], const double R[9], collide_placed *out)
{
    out->kind = s->kind;
    memcpy(out->size, s->size, sizeof out->size);
    out->hull = s->hull;
    out->nhull = s->nhull;
    m3_mulv(R, s->pos, out->c);
    for (int k = 0; k < 3; k++) out->c[k] += p[k];
    m3_mul(R, s->R, out->R);
}

void collide_shape_place_pose(const collide_shape *s, const collide_pose *pose, collide_placed *out)
{
    double R[9];
    quat_to_rot(pose->q, R);
    collide_shape_place(s, pose->p, R, out);
}

void collide_manifold_add(collide_manifold *o, const double pa[3], const double pb[3], double margin)
{
    double s = (pa[0] - pb[0]) * o->n[0] + (pa[1] - pb[1]) * o->n[1] + (pa[2] - pb[2]) * o->n[2];
    if (!(s < margin) || o->n_points == COLLIDE_MAX_MANIFOLD) return;
    memcpy(o->pa[o->n_points], pa, 3 * sizeof(double));
    memcpy(o->pb[o->n_points], pb, 3 * sizeof(double));
    o->depth[o->n_points] = -s;
    o->n_points++;
}

typedef int (*pair_fn)(const collide_placed *, const collide_placed *, double, collide_manifold *);

/* [A][B] in the order of collide_kind; NULL: see the transposed entry, or no narrow phase. */
static const pair_fn table[6][6] = {
    [COLLIDE_SPHERE] = { [COLLIDE_SPHERE] = collide_sphere_sphere,
                         [COLLIDE_CAPSULE] = collide_sphere_capsule,
                         [COLLIDE_BOX] = collide_sphere_box,
                         [COLLIDE_CYLINDER] = collide_sphere_cylinder,
                         [COLLIDE_PLANE] = collide_sphere_plane },
    [COLLIDE_CAPSULE] = { [COLLIDE_CAPSULE] = collide_capsule_capsule, [COLLIDE_BOX] = collide_capsule_box, [COLLIDE_PLANE] = collide_capsule_plane },
    [COLLIDE_BOX] = { [COLLIDE_BOX] = collide_box_box, [COLLIDE_PLANE] = collide_box_plane },
    [COLLIDE_CYLINDER] = { [COLLIDE_PLANE] = collide_cylinder_plane },
    [COLLIDE_HULL] = { [COLLIDE_SPHERE] = collide_hull_convex,
                       [COLLIDE_CAPSULE] = collide_hull_convex,
                       [COLLIDE_BOX] = collide_hull_convex,
                       [COLLIDE_CYLINDER] = collide_hull_convex,
                       [COLLIDE_PLANE] = collide_hull_plane,
                       [COLLIDE_HULL] = collide_hull_convex },
};

int collide_pair(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *out)
{
    out->n_points = 0;
    if (table[a->kind][b->kind]) return table[a->kind][b->kind](a, b, margin, out);
    if (!table[b->kind][a->kind]) return 0;
    int n = table[b->kind][a->kind](b, a, margin, out);
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
 * plus its radius; a hull's, its support points along ± each world axis. */
void collide_placed_aabb(const collide_placed *s, double lo[3], double hi[3])
{
    if (s->kind == COLLIDE_HULL) {
        for (int i = 0; i < 3; i++) {
            double d[3] = { 0, 0, 0 }, x[3];
            d[i] = 1;
            collide_support(s, d, x);
            hi[i] = x[i];
            d[i] = -1;
            collide_support(s, d, x);
            lo[i] = x[i];
        }
        return;
    }
    for (int i = 0; i < 3; i++) {
        const double *R = s->R + 3 * i;
        double e;
        switch (s->kind) {
        case COLLIDE_SPHERE: e = s->size[0]; break;
        case COLLIDE_CAPSULE: e = s->size[0] + s->size[1] * fabs(R[2]); break;
        case COLLIDE_BOX: e = s->size[0] * fabs(R[0]) + s->size[1] * fabs(R[1]) + s->size[2] * fabs(R[2]); break;
        case COLLIDE_CYLINDER: e = s->size[1] * fabs(R[2]) + s->size[0] * sqrt(fmax(0.0, 1.0 - R[2] * R[2])); break;
        default: e = INFINITY; break;
        }
        lo[i] = s->c[i] - e;
        hi[i] = s->c[i] + e;
    }
}
