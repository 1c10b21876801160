/* test_xpbd_rod_contact.c — rod contact in the XPBD world (docs/xpbd.md,
 * "Contact", "Rods"), on scenes in the .mech language (dt 0.01 s, 20
 * substeps, 1 iteration):
 *   fall       a rod dropped at 10 m/s across a rod clamped at both ends,
 *              and onto a static box, never sinks in by 10 % of its
 *              diameter (the deepest penetration over the run, measured by
 *              the narrow phase on every element pair at every step);
 *   resting    a rod lying on the static plane stays at its rest height
 *              (the radius) within 1e-4 m for 3 s;
 *   impact     a frictionless rod moving along its axis into a free sphere
 *              conserves linear momentum within 1e-9 relative;
 *   self       a helix of 3 turns compressed past its solid length keeps
 *              its coils apart (penetration below 10 % of the diameter),
 *              where the same helix without contact (`visual`) overlaps;
 *   plectoneme models/xpbd/plectoneme.mech (the directory is the argument):
 *              the rod twisted 8 turns touches itself and its non-adjacent
 *              elements stay apart (penetration below 10 % of d) over 27 s. */
#include "xpbd_scene_test.h"
#include "xpbd/xpbd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SETTINGS "xpbd\n dt 0.01\n substeps 20\n iterations 1\nend\n"

/* Element e of a rod as a narrow-phase curve. */
static xpbd_rod_curve curve(const xpbd_rod *rod, int e)
{
    int m = rod->order ? rod->order : 1;
    return (xpbd_rod_curve){ m, rod->p + 3 * e * m, 0.5 * rod->desc.diameter };
}

/* The least separation between two rods' swept circles (a == b: a rod
 * with itself, without the element pairs that share a node or lie closer
 * than the diameter along it). */
static double rod_rod_separation(const xpbd_rod *a, const xpbd_rod *b)
{
    double s = INFINITY;
    for (int i = 0; i < a->nel; i++)
        for (int j = a == b ? i + 2 : 0; j < b->nel; j++) {
            if (a == b && (j - i - 1) * a->l < a->desc.diameter) continue;
            xpbd_rod_curve ci = curve(a, i), cj = curve(b, j);
            xpbd_rod_hit h;
            xpbd_collide_rod_rod(&ci, &cj, INFINITY, &h);
            s = fmin(s, h.s);
        }
    return s;
}

static double rod_shape_separation(const xpbd_rod *a, const collide_placed *shape)
{
    double s = INFINITY;
    for (int i = 0; i < a->nel; i++) {
        xpbd_rod_curve ci = curve(a, i);
        xpbd_rod_hit h[3];
        int n = xpbd_collide_rod_shape(&ci, shape, INFINITY, h);
        for (int k = 0; k < n; k++) s = fmin(s, h[k].s);
    }
    return s;
}

static void set_velocity(xpbd_rod *rod, const double v[3])
{
    for (int j = 0; j < rod->nnode; j++) memcpy(rod->v + 3 * j, v, 3 * sizeof(double));
}

#define FALLING \
    "rod falling\n disc quadratic\n elements 8\n length 1\n diameter 0.02\n E 1e7\n rho 1000\n damping 1e4\n" \
    " origin -0.5 0.1 0.1\n dir x\nend\n"

/* ---- fall ---- */

static void test_fall_on_rod(void)
{
    scene s;
    if (scene_open(&s, SETTINGS
                   "gravity 0 0 -9.81\n" FALLING
                   "rod fixed\n disc quadratic\n elements 8\n length 1\n diameter 0.02\n E 1e8\n rho 1000\n damping 1e4\n"
                   " origin 0 -0.5 0\n dir y\n clamp start base\n clamp end base\nend\n"))
        return;
    xpbd_rod *fall = &s.x.rods[0], *fixed = &s.x.rods[1];
    set_velocity(fall, (double[3]){ 0, 0, -10 });
    double least = INFINITY, d = fall->desc.diameter;
    for (int k = 0; k < 50 && !step(&s); k++) least = fmin(least, rod_rod_separation(fall, fixed));
    double mid = fall->p[3 * (fall->nnode / 2) + 2];
    printf("     fall on a rod: least separation %.3e m, falling rod's middle at z = %.4f m after 0.5 s\n", least, mid);
    expect("fall at 10 m/s across a clamped rod: penetration below 10 % of the diameter (penetration / d)",
           -least < 0.1 * d, fmax(-least, 0) / d);
    expect("fall across a clamped rod: the rod stays on its side (middle above the fixed rod's centreline)", mid > 0,
           mid);
    scene_close(&s);
}

static void test_fall_on_box(void)
{
    scene s;
    if (scene_open(&s, SETTINGS "gravity 0 0 -9.81\nstatic box 2 2 0.2 pos 0 0 -0.1\n" FALLING)) return;
    xpbd_rod *fall = &s.x.rods[0];
    set_velocity(fall, (double[3]){ 0, 0, -10 });
    collide_placed box = { COLLIDE_BOX, { 0, 0, -0.1 }, { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 1, 1, 0.1 }, NULL, 0 };
    double least = INFINITY, d = fall->desc.diameter;
    for (int k = 0; k < 50 && !step(&s); k++) least = fmin(least, rod_shape_separation(fall, &box));
    printf("     fall on a box: least separation %.3e m\n", least);
    expect("fall at 10 m/s onto a static box: penetration below 10 % of the diameter (penetration / d)",
           -least < 0.1 * d, fmax(-least, 0) / d);
    scene_close(&s);
}

/* ---- resting ---- */

static void test_resting(void)
{
    scene s;
    if (scene_open(&s, SETTINGS "gravity 0 0 -9.81\nstatic plane\n"
                                "rod lying\n elements 10\n length 1\n diameter 0.02\n E 1e7\n rho 1000\n"
                                " origin -0.5 0.2 0.01\n dir x\nend\n"))
        return;
    xpbd_rod *rod = &s.x.rods[0];
    double r = 0.5 * rod->desc.diameter, dz = 0, drift = 0;
    for (int k = 0; k < 300 && !step(&s); k++)
        for (int j = 0; j < rod->nnode; j++) {
            dz = fmax(dz, fabs(rod->p[3 * j + 2] - r));
            drift = fmax(drift, hypot(rod->p[3 * j] - rod->p0[3 * j], rod->p[3 * j + 1] - rod->p0[3 * j + 1]));
        }
    printf("     resting rod: largest |z - r| %.3e m, horizontal drift %.3e m over 3 s\n", dz, drift);
    expect("rod resting on the plane: every node within 1e-4 m of the rest height r for 3 s (max |z - r|, m)",
           dz < 1e-4, dz);
    expect("rod resting on the plane: no horizontal drift (below 1e-6 m)", drift < 1e-6, drift);
    scene_close(&s);
}

/* ---- impact ---- */

static void momentum(const scene *s, double P[3])
{
    const xpbd_rod *rod = &s->x.rods[0];
    memset(P, 0, 3 * sizeof(double));
    for (int j = 0; j < rod->nnode; j++)
        for (int k = 0; k < 3; k++) P[k] += rod->mass[j] * rod->v[3 * j + k];
    for (int b = 0; b < s->x.m.nbody; b++)
        for (int k = 0; k < 3; k++) P[k] += s->x.m.bodies[b].mass * s->d.v[3 * b + k];
}

static void test_impact(void)
{
    scene s;
    if (scene_open(&s, SETTINGS
                   "gravity 0 0 0\n"
                   "rod r\n disc cubic\n elements 4\n length 1\n diameter 0.05\n E 1e7\n rho 1000\n friction 0 0\n"
                   " origin -1.15 0 0\n dir x\nend\n"
                   "body ball\n parent base\n joint floating\n mass 1\n inertia 0.004 0.004 0.004\n"
                   " shape sphere 0.1 friction 0 0\nend\n"))
        return;
    set_velocity(&s.x.rods[0], (double[3]){ 2, 0, 0 });
    double P0[3], P1[3];
    momentum(&s, P0);
    for (int k = 0; k < 50 && !step(&s); k++)
        ;
    momentum(&s, P1);
    double err = sqrt(pow(P1[0] - P0[0], 2) + pow(P1[1] - P0[1], 2) + pow(P1[2] - P0[2], 2)) / fabs(P0[0]);
    printf("     impact: momentum %.12f -> %.12f kg m/s, ball at %.4f m/s\n", P0[0], P1[0], s.d.v[0]);
    expect("frictionless rod-sphere impact: the ball is struck (moves +x)", s.d.v[0] > 0.1, s.d.v[0]);
    expect("frictionless rod-sphere impact: momentum conserved within 1e-9 relative", err < 1e-9, err);
    scene_close(&s);
}

/* ---- self ---- */

static double coil(int collide)
{
    char text[1024];
    snprintf(text, sizeof text,
             SETTINGS "gravity 0 0 0\n"
                      "rod coil\n disc quadratic\n elements 24\n shape helix 0.1 0.03 3\n diameter 0.02\n E 1e7\n nu 0.3\n"
                      " rho 1000\n damping 1e5\n clamp start base\n clamp end base\n move end 0 0 -0.05\n ramp end 1\n%s"
                      "end\n",
             collide ? "" : " visual\n");
    scene s;
    if (scene_open(&s, text)) return NAN;
    const xpbd_rod *rod = &s.x.rods[0];
    double least = INFINITY;
    for (int k = 0; k < 200 && !step(&s); k++) least = fmin(least, rod_rod_separation(rod, rod));
    scene_close(&s);
    return least;
}

static void test_self(void)
{
    double d = 0.02, with = coil(1), without = coil(0);
    printf("     compressed helix: least separation of its coils %.3e m with self-contact, %.3e m without\n", with,
           without);
    expect("helix pressed past solid length: coils apart, penetration below 10 % of d (penetration / d)",
           -with < 0.1 * d, fmax(-with, 0) / d);
    expect("helix pressed past solid length without contact: the coils overlap by more (penetration / d)",
           -without > 0.1 * d, fmax(-without, 0) / d);
}

/* ---- plectoneme ---- */

static void test_plectoneme(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/plectoneme.mech", dir);
    mech_error err;
    scene s;
    memset(&s, 0, sizeof s);
    s.mm = mech_model_load(path, &err);
    if (!s.mm || xpbd_from_model(s.mm, &s.x, &err) || xpbd_mech_data(&s.x, s.x.mode, &s.d)) {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        printf("FAIL %s\n", buf);
        failures++;
        return;
    }
    const xpbd_rod *rod = &s.x.rods[0];
    double least = INFINITY, d = rod->desc.diameter, touch = -1;
    for (int k = 0; k < 27000 && !step(&s); k++) {
        if (k % 50) continue;
        double sep = rod_rod_separation(rod, rod);
        if (touch < 0 && sep < 0.01 * d) touch = s.d.t;
        least = fmin(least, sep);
    }
    printf("     plectoneme: touches itself at t = %.2f s, least separation %.3e m over 27 s\n", touch, least);
    expect("plectoneme: the twisted rod touches itself (time of first contact, s)", touch > 0, touch);
    expect("plectoneme: non-adjacent elements stay apart, penetration below 10 % of d (penetration / d)",
           -least < 0.1 * d, fmax(-least, 0) / d);
    scene_close(&s);
}

int main(int argc, char **argv)
{
    test_fall_on_rod();
    test_fall_on_box();
    test_resting();
    test_impact();
    test_self();
    if (argc > 1) test_plectoneme(argv[1]);
    if (failures) printf("%d failure(s)\n", failures);
    else printf("all passed\n");
    return failures ? 1 : 0;
}
