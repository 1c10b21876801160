/* test_xpbd_contact.c — XPBD contact, friction and restitution against
 * closed forms (docs/xpbd.md, "Contact"), on scenes written in the .mech
 * language (colliders, static plane, materials):
 *   resting    a sphere and a box on the ground stay within 1e-4 m of their
 *              rest height for 10 s, and still (no jitter);
 *   incline    a block holds below tan θ = μs and slides above it with
 *              a = g (sin θ − μd cos θ) within 2 %;
 *   bounce     successive bounce heights of a dropped ball follow e² within 3 %;
 *   impact     a frictionless head-on collision conserves momentum within
 *              1e-9 relative;
 *   stack      five boxes stand still 10 s;
 *   determinism two runs of a pile of mixed shapes are bit-identical. */
#include "xpbd_scene_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SETTINGS "xpbd\n dt 0.01\n substeps 20\n iterations 1\nend\n"

/* ---- resting ---- */

static void test_resting(const char *name, const char *shape, double rest_z, double inertia)
{
    char text[1024];
    snprintf(text, sizeof text,
             SETTINGS "static plane\nbody b\n parent base\n joint floating\n mass 1\n inertia %.17g %.17g %.17g\n"
                      " q0 0.3 -0.2 %.17g\n %s\nend\n",
             inertia, inertia, inertia, rest_z, shape);
    scene s;
    if (scene_open(&s, text)) return;
    double dz = 0, speed = 0, drift = 0;
    for (int k = 0; k < 1000 && !step(&s); k++) {
        const double *p = s.d.p, *v = s.d.v, *w = s.d.w;
        dz = fmax(dz, fabs(p[2] - rest_z));
        drift = fmax(drift, hypot(p[0] - 0.3, p[1] + 0.2));
        if (k >= 10)
            speed = fmax(speed, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    }
    char what[160];
    snprintf(what, sizeof what, "resting %s: height within 1e-4 m of rest for 10 s (max |z - z0|, m)", name);
    expect(what, dz < 1e-4, dz);
    snprintf(what, sizeof what, "resting %s: no jitter (max |v|, |w| after 0.1 s below 1e-9)", name);
    expect(what, speed < 1e-9, speed);
    snprintf(what, sizeof what, "resting %s: no horizontal drift (below 1e-6 m)", name);
    expect(what, drift < 1e-6, drift);
    scene_close(&s);
}

/* ---- incline ---- */

/* A 0.2 m cube with μs 0.5, μd 0.3 on a plane tilted θ about y; returns its
 * displacement down the slope over `seconds` and the acceleration measured
 * between t = 0.5 s and t = seconds from the velocity. */
static void incline(double theta_deg, double seconds, double *moved, double *accel)
{
    double th = theta_deg * 3.14159265358979323846 / 180, c = cos(th), sn = sin(th);
    char text[1024];
    /* the cube's centre 0.1 m above the plane along its normal (sin θ, 0, cos θ), turned with it */
    snprintf(text, sizeof text,
             SETTINGS "static plane rot y %.17g friction 0.5 0.3\n"
                      "body b\n parent base\n joint floating\n mass 1\n inertia 0.0066666666666666671 "
                      "0.0066666666666666671 0.0066666666666666671\n q0 %.17g 0 %.17g y %.17g\n"
                      " shape box 0.2 0.2 0.2 friction 0.5 0.3\nend\n",
             theta_deg, 0.1 * sn, 0.1 * c, theta_deg);
    scene s;
    if (scene_open(&s, text)) return;
    const double down[3] = { c, 0, -sn };
    double x0 = s.d.p[0] * down[0] + s.d.p[2] * down[2], v1 = 0;
    int n = (int)lround(seconds / 0.01);
    for (int k = 1; k <= n && !step(&s); k++)
        if (k == 50) v1 = s.d.v[0] * down[0] + s.d.v[2] * down[2];
    double v2 = s.d.v[0] * down[0] + s.d.v[2] * down[2];
    *moved = s.d.p[0] * down[0] + s.d.p[2] * down[2] - x0;
    *accel = (v2 - v1) / (seconds - 0.5);
    scene_close(&s);
}

static void test_incline(void)
{
    double moved, a;
    /* tan θ = 0.45 < μs = 0.5: holds */
    double hold = atan(0.45) * 180 / 3.14159265358979323846;
    incline(hold, 3.0, &moved, &a);
    expect("incline below tan(theta) = mu_s (0.45 < 0.5): the block holds (moved over 3 s below 1e-4 m)",
           fabs(moved) < 1e-4, moved);
    /* 35 degrees: tan θ = 0.70 > μs, slides with g (sin θ − μd cos θ) */
    double th = 35 * 3.14159265358979323846 / 180, want = 9.81 * (sin(th) - 0.3 * cos(th));
    incline(35, 2.0, &moved, &a);
    expect("incline at 35 deg (tan 0.70 > mu_s 0.5): slides, acceleration g(sin - mu_d cos) within 2 % "
           "(relative error)",
           fabs(a / want - 1) < 0.02, a / want - 1);
}

/* ---- bounce ---- */

static void test_bounce(void)
{
    const double r = 0.1, e = 0.8;
    char text[1024];
    snprintf(text, sizeof text,
             SETTINGS "static plane restitution %g\nbody ball\n parent base\n joint floating\n mass 1\n"
                      " inertia 0.004 0.004 0.004\n q0 0 0 %.17g\n shape sphere %g restitution %g\nend\n",
             e, 1.0 + r, r, e);
    scene s;
    if (scene_open(&s, text)) return;
    /* h[0] the drop height, h[1..3] the apexes of the first three bounces */
    double h[4] = { 1.0 }, top = 0, vz_prev = 0;
    int nh = 1;
    for (int k = 0; k < 1000 && nh < 4 && !step(&s); k++) {
        double z = s.d.p[2] - r, vz = s.d.v[2];
        if (vz_prev < 0 && vz > 0) top = z; /* bounced */
        top = fmax(top, z);
        if (vz_prev > 0 && vz <= 0 && k > 0) h[nh++] = top; /* apex */
        vz_prev = vz;
    }
    double worst = 0;
    printf("     bounce heights (m): %.5f", h[0]);
    for (int i = 1; i < nh; i++) {
        printf(", %.5f (ratio %.5f)", h[i], h[i] / h[i - 1]);
        worst = fmax(worst, fabs(h[i] / h[i - 1] / (e * e) - 1));
    }
    printf("\n");
    expect("bounce: successive heights follow e^2 within 3 % (worst relative error of the ratios)",
           nh == 4 && worst < 0.03, worst);
    scene_close(&s);
}

/* ---- head-on impact ---- */

static void test_impact(void)
{
    const char *text = "gravity 0 0 0\n" SETTINGS
                       "body a\n parent base\n joint floating\n mass 1\n inertia 0.004 0.004 0.004\n q0 0 0 0\n"
                       " qd0 0 0 0 1 0 0\n shape sphere 0.1 friction 0 0 restitution 0.5\nend\n"
                       "body b\n parent base\n joint floating\n mass 2\n inertia 0.01 0.01 0.01\n q0 0.5 0.01 0\n"
                       " qd0 0 0 0 -0.25 0 0\n shape sphere 0.12 friction 0 0 restitution 0.5\nend\n";
    scene s;
    if (scene_open(&s, text)) return;
    double p0[3], p1[3], m[2] = { 1, 2 };
    for (int k = 0; k < 3; k++) p0[k] = m[0] * s.d.v[k] + m[1] * s.d.v[3 + k];
    for (int k = 0; k < 100 && !step(&s); k++)
        ;
    for (int k = 0; k < 3; k++) p1[k] = m[0] * s.d.v[k] + m[1] * s.d.v[3 + k];
    double dp =
        sqrt((p1[0] - p0[0]) * (p1[0] - p0[0]) + (p1[1] - p0[1]) * (p1[1] - p0[1]) + (p1[2] - p0[2]) * (p1[2] - p0[2]));
    double rel = dp / sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    expect("head-on frictionless impact: the spheres collide and separate (b moves +x after)", s.d.v[3] > 0, s.d.v[3]);
    expect("head-on frictionless impact: momentum conserved within 1e-9 relative", rel < 1e-9, rel);
    scene_close(&s);
}

/* ---- stack ---- */

static void test_stack(void)
{
    char text[4096];
    int len = snprintf(text, sizeof text, SETTINGS "static plane\n");
    for (int i = 0; i < 5; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "body box%d\n parent base\n joint floating\n mass 1\n inertia 0.0066666666666666671 "
                        "0.0066666666666666671 0.0066666666666666671\n q0 0 0 %.17g\n shape box 0.2 0.2 0.2\nend\n",
                        i, 0.1 + 0.2 * i);
    scene s;
    if (scene_open(&s, text)) return;
    /* Standing still: every box within 1e-3 m of its place and turned by
     * less than 1e-3 rad about the vertical; the offsets are printed. */
    double across = 0, height = 0, turn = 0;
    for (int k = 0; k < 1000 && !step(&s); k++)
        for (int i = 0; i < 5; i++) {
            const double *p = s.d.p + 3 * i, *R = s.d.R + 9 * i;
            across = fmax(across, hypot(p[0], p[1]));
            height = fmax(height, fabs(p[2] - 0.1 - 0.2 * i));
            turn = fmax(turn, fabs(atan2(R[3], R[0])));
        }
    printf("     stack: largest offset across %.2e m, height error %.2e m, turn about z %.2e rad\n", across, height,
           turn);
    expect("stack of five boxes stands still 10 s (every box within 1e-3 m of its place, turned below 1e-3 rad)",
           hypot(across, height) < 1e-3 && turn < 1e-3, hypot(across, height));
    scene_close(&s);
}

/* ---- determinism ---- */

static const char *pile(void)
{
    static char text[16384];
    int len = snprintf(text, sizeof text, SETTINGS "static plane friction 0.6 0.4\nstatic box 0.2 3 1 pos 1 0 0.5\n");
    static const char *const shapes[] = { "sphere 0.1", "box 0.2 0.15 0.1", "capsule 0.06 0.2", "cylinder 0.08 0.1" };
    for (int i = 0; i < 24; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "body p%d\n parent base\n joint floating\n mass 1\n inertia 0.005 0.005 0.005\n"
                        " q0 %.3f %.3f %.3f x %d\n qd0 %d 1 0 0.5 0 0\n shape %s restitution 0.3\nend\n",
                        i, 0.12 * (i % 5), 0.1 * (i % 3), 0.2 + 0.25 * i, 17 * i, i % 4, shapes[i % 4]);
    return text;
}

static void test_determinism(void)
{
    scene s[2];
    if (scene_open(&s[0], pile())) return;
    if (scene_open(&s[1], pile())) return;
    int contacts = 0;
    for (int k = 0; k < 300; k++) {
        step(&s[0]);
        step(&s[1]);
        contacts += s[0].d.ncontact;
    }
    int nb = s[0].x.m.nbody;
    int same = memcmp(s[0].d.p, s[1].d.p, 3 * (size_t)nb * sizeof(double)) == 0 &&
               memcmp(s[0].d.R, s[1].d.R, 9 * (size_t)nb * sizeof(double)) == 0 &&
               memcmp(s[0].d.v, s[1].d.v, 3 * (size_t)nb * sizeof(double)) == 0 &&
               memcmp(s[0].d.w, s[1].d.w, 3 * (size_t)nb * sizeof(double)) == 0;
    expect("determinism: two runs of a 24-body pile (3 s, with contacts) are bit-identical", same && contacts > 0,
           contacts);
    double lowest = INFINITY;
    for (int b = 0; b < nb; b++) lowest = fmin(lowest, s[0].d.p[3 * b + 2]);
    expect("determinism: the pile stays above the ground (lowest centre above 0)", lowest > 0, lowest);
    scene_close(&s[0]);
    scene_close(&s[1]);
}

int main(void)
{
    test_resting("sphere", "shape sphere 0.1", 0.1, 0.004);
    test_resting("box", "shape box 0.2 0.2 0.2", 0.1, 0.0066666666666666671);
    test_incline();
    test_bounce();
    test_impact();
    test_stack();
    test_determinism();
    return failures ? 1 : 0;
}
