/* narrow_plane.c — shapes against a static plane (B): the plane's
 * normal N = R e3 is the manifold normal, and every candidate point x of A
 * (a feature that can be deepest) gives the pair (x, x − s N), s = N·(x − c). */
#include "collide/collide.h"

#include <math.h>

static void plane_point(collide_manifold *o, const collide_placed *plane, const double x[3], double margin)
{
    const double *c = plane->c;
    double s = o->n[0] * (x[0] - c[0]) + o->n[1] * (x[1] - c[1]) + o->n[2] * (x[2] - c[2]);
    double pb[3] = { x[0] - s * o->n[0], x[1] - s * o->n[1], x[2] - s * o->n[2] };
    collide_manifold_add(o, x, pb, margin);
}

static void plane_begin(collide_manifold *o, const collide_placed *plane)
{
    o->n_points = 0;
    for (int k = 0; k < 3; k++) o->n[k] = plane->R[3 * k + 2];
}

/* A ball of radius r at x: its deepest point x − r N. */
static void ball_point(collide_manifold *o, const collide_placed *plane, const double x[3], double r, double margin)
{
    double p[3] = { x[0] - r * o->n[0], x[1] - r * o->n[1], x[2] - r * o->n[2] };
    plane_point(o, plane, p, margin);
}

int collide_sphere_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    plane_begin(o, b);
    ball_point(o, b, a->c, a->size[0], margin);
    return o->n_points;
}

/* The end balls of the straight part whose lowest point is on the capsule's
 * surface (the end does not point up, N·(±z) ≤ 0): the lower one, both when
 * the capsule lies flat. */
int collide_capsule_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    plane_begin(o, b);
    double nz = o->n[0] * a->R[2] + o->n[1] * a->R[5] + o->n[2] * a->R[8];
    for (int e = -1; e <= 1; e += 2) {
        if (e * nz > 0) continue;
        double x[3];
        for (int k = 0; k < 3; k++) x[k] = a->c[k] + e * a->size[1] * a->R[3 * k + 2];
        ball_point(o, b, x, a->size[0], margin);
    }
    return o->n_points;
}

/* The eight corners. */
int collide_box_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    plane_begin(o, b);
    for (int v = 0; v < 8; v++) {
        double x[3];
        for (int k = 0; k < 3; k++)
            x[k] = a->c[k] + (v & 1 ? 1 : -1) * a->size[0] * a->R[3 * k] +
                   (v & 2 ? 1 : -1) * a->size[1] * a->R[3 * k + 1] + (v & 4 ? 1 : -1) * a->size[2] * a->R[3 * k + 2];
        plane_point(o, b, x, margin);
    }
    return o->n_points;
}

/* Per end cap, four rim points a quarter turn apart, starting at the deepest
 * one (along −N projected on the cap; the cap's x axis when the cap lies
 * flat), so a cylinder standing on its cap rests on four points and one
 * lying on its side on two. */
int collide_cylinder_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o)
{
    plane_begin(o, b);
    const double *N = o->n, r = a->size[0], hl = a->size[1];
    double z[3] = { a->R[2], a->R[5], a->R[8] }, u[3], w[3];
    double nz = N[0] * z[0] + N[1] * z[1] + N[2] * z[2];
    for (int k = 0; k < 3; k++) u[k] = -(N[k] - nz * z[k]);
    double lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (lu < 1e-9)
        for (int k = 0; k < 3; k++) u[k] = a->R[3 * k];
    else
        for (int k = 0; k < 3; k++) u[k] /= lu;
    w[0] = z[1] * u[2] - z[2] * u[1];
    w[1] = z[2] * u[0] - z[0] * u[2];
    w[2] = z[0] * u[1] - z[1] * u[0];
    static const double cs[4][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
    for (int e = -1; e <= 1; e += 2)
        for (int q = 0; q < 4; q++) {
            double x[3];
            for (int k = 0; k < 3; k++) x[k] = a->c[k] + e * hl * z[k] + r * (cs[q][0] * u[k] + cs[q][1] * w[k]);
            plane_point(o, b, x, margin);
        }
    return o->n_points;
}
