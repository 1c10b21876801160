/* mesh_hull.c — the convex hulls that mesh shapes collide with
 * (docs/mech-format.md, "Meshes"): the text names a mesh's file only, so the
 * caller reads it and hands the hull's points here; they are checked to
 * span a volume, so the narrow phase (core/collide, gjk.c) never meets a
 * flat or repeated point set. */
#include "model/model.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
hull_fail(const mech_model *m, const mech_mesh *x, mech_error *err, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", m->name);
    err->line = x ? x->line : 0;
    snprintf(err->message, sizeof err->message, "mesh hull%s%s%s: %s", x ? " '" : "", x ? x->name : "", x ? "'" : "",
             why);
    return -1;
}

static double dist2(const double *a, const double *b)
{
    double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return v3_dot(d, d);
}

/* The index of the point farthest from p[i0] (along the line i0 i1 when
 * i1 >= 0: farthest from it; from the plane i0 i1 i2 when i2 >= 0), and
 * that distance. */
static int farthest(const double *p, int n, int i0, int i1, int i2, double *dist)
{
    int best = i0;
    *dist = 0;
    for (int i = 0; i < n; i++) {
        double r[3], e[3], f[3], c[3], d;
        for (int k = 0; k < 3; k++) r[k] = p[3 * i + k] - p[3 * i0 + k];
        if (i1 < 0) d = v3_norm(r);
        else {
            for (int k = 0; k < 3; k++) e[k] = p[3 * i1 + k] - p[3 * i0 + k];
            if (i2 < 0) {
                v3_cross(r, e, c);
                d = v3_norm(c) / v3_norm(e);
            } else {
                for (int k = 0; k < 3; k++) f[k] = p[3 * i2 + k] - p[3 * i0 + k];
                v3_cross(e, f, c);
                d = fabs(v3_dot(r, c)) / v3_norm(c);
            }
        }
        if (d > *dist) *dist = d, best = i;
    }
    return best;
}

/* The points are distinct and span a volume: far from a line and a plane
 * through the farthest ones, relative to their spread. */
static int check_volume(const mech_model *m, const mech_mesh *x, const double *points, int n, mech_error *err)
{
    double size, a, b;
    int i1 = farthest(points, n, 0, -1, -1, &size);
    int i2 = farthest(points, n, i1, -1, -1, &size); /* the far end of a long chord */
    double tol = 1e-9 * size;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (dist2(points + 3 * i, points + 3 * j) <= tol * tol)
                return hull_fail(m, x, err, "points %d and %d coincide", i, j);
    int i3 = farthest(points, n, i1, i2, -1, &a);
    if (!(a > tol)) return hull_fail(m, x, err, "all points on one line: no volume");
    farthest(points, n, i1, i2, i3, &b);
    if (!(b > tol)) return hull_fail(m, x, err, "all points on one plane: no volume");
    return 0;
}

int mech_model_set_mesh_hull(mech_model *m, int mesh, const double *points, int n, mech_error *err)
{
    if (mesh < 0 || mesh >= m->nmesh) return hull_fail(m, NULL, err, "mesh %d out of range [0, %d)", mesh, m->nmesh);
    mech_mesh *x = &m->meshes[mesh];
    if (n < 4) return hull_fail(m, x, err, "%d points: a hull needs at least 4 that span a volume", n);
    if (n > MECH_MESH_HULL_MAX)
        return hull_fail(m, x, err, "%d points: at most %d (simplify the hull first)", n, MECH_MESH_HULL_MAX);
    for (int i = 0; i < 3 * n; i++)
        if (!isfinite(points[i])) return hull_fail(m, x, err, "point %d is not finite", i / 3);
    double *h = malloc((size_t)n * 3 * sizeof *h), R[9];
    if (!h) return hull_fail(m, x, err, "out of memory");
    quat_to_rot(x->refquat, R);
    for (int i = 0; i < n; i++) { /* scale ⊙ R(refquat)ᵀ (v − refpos) */
        double r[3], l[3];
        for (int k = 0; k < 3; k++) r[k] = points[3 * i + k] - x->refpos[k];
        m3_tmulv(R, r, l);
        for (int k = 0; k < 3; k++) h[3 * i + k] = x->scale[k] * l[k];
    }
    if (check_volume(m, x, h, n, err)) {
        free(h);
        return -1;
    }
    free(x->hull);
    x->hull = h;
    x->nhull = n;
    return 0;
}

int mech_shape_collides(const mech_model *m, const mech_shape *s)
{
    return !s->visual && (s->type != MECH_SHAPE_MESH || m->meshes[s->mesh].nhull > 0);
}

int mech_model_mesh_collides(const mech_model *m, int mesh)
{
    for (int i = 0; i < m->nshape; i++)
        if (m->shapes[i].type == MECH_SHAPE_MESH && !m->shapes[i].visual && m->shapes[i].mesh == mesh) return 1;
    return 0;
}

int mech_model_mesh_hull_missing(const mech_model *m)
{
    for (int i = 0; i < m->nshape; i++) {
        const mech_shape *s = &m->shapes[i];
        if (s->type == MECH_SHAPE_MESH && !s->visual && m->meshes[s->mesh].nhull == 0) return s->mesh;
    }
    return -1;
}

int mech_model_mesh_count(const mech_model *m) { return m->nmesh; }

const char *mech_model_mesh_name(const mech_model *m, int i)
{
    return i >= 0 && i < m->nmesh ? m->meshes[i].name : NULL;
}

const char *mech_model_mesh_file(const mech_model *m, int i)
{
    return i >= 0 && i < m->nmesh ? m->meshes[i].file : NULL;
}
