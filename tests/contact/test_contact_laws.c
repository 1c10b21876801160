/* test_contact_laws.c — the contact stage's point laws, no model (core/contact/laws.h, terrain.h; docs/contact.md):
 * the tooth law, F = -grad U against independently written potentials (pin, face, ground), the face partition
 * of unity, terrain gradients and the grid's C1 continuity, passivity and the friction cone at dt = 0 and 1e-4,
 * sweeps free of jumps, the implicit-friction impulse bound, the anchored law on a point mass.  Fixed seeds.
 * Exit 0 on pass, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/ground_contact.h"
#include "contact/laws.h"
#include "contact/terrain.h"
#include "model/model.h"
#include "rbda/sample.h"
#include "spatial/spatial.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "contact_gates.h"

/* ---- independently written potentials (plain formulas, own helpers) ---- */

static double step3(double t) { return t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t); }

/* The pin's stored energy in Cartesian form: one-sided radial spring, and
 * the gated lateral guide plus tooth potential. */
static double pin_U_indep(const pin_params *P, const double d[3])
{
    double rho = sqrt(d[0] * d[0] + d[2] * d[2]), pen = P->R - rho;
    double U = pen > 0 ? 0.5 * P->kn * pen * pen : 0;
    double gate = step3(pen / CONTACT_GATE_FADE + 1.0);
    double tooth = 0;
    if (P->drive) tooth = P->fskip * P->R / P->teeth * (1 - cos(P->teeth * (atan2(d[2], d[0]) - P->theta0)));
    return U + gate * (0.5 * P->kg * d[1] * d[1] + tooth);
}

static double face_U_indep(const face_params *P, const double a[3])
{
    double pen = P->radius + P->zf - a[2];
    if (pen <= 0) return 0;
    double rise = step3((a[0] + P->fade) / (2 * P->fade));
    double fall = 1 - step3((a[0] - (P->link - P->fade)) / (2 * P->fade));
    return 0.5 * rise * fall * P->kn * pen * pen;
}

static double ground_U_indep(const mech_ground *g, double kn, const double p[3])
{
    double h, hx, hy;
    if (g->type == MECH_GROUND_PLANE) h = g->z0 + g->sx * p[0] + g->sy * p[1];
    else terrain_eval(g, p[0], p[1], &h, &hx, &hy);
    double pen = h - p[2];
    return pen > 0 ? 0.5 * kn * pen * pen : 0;
}

/* max |f + grad U| / max(|f|, floor) by central differences, step h. */
typedef double (*potential_fn)(const void *P, const double x[3]);
static double grad_error(potential_fn U, const void *P, const double x[3], const double f[3], double h, double floor)
{
    double err = 0, fm = floor;
    for (int c = 0; c < 3; c++) fm = fmax(fm, fabs(f[c]));
    for (int c = 0; c < 3; c++) {
        double xp[3] = { x[0], x[1], x[2] }, xm[3] = { x[0], x[1], x[2] };
        xp[c] += h;
        xm[c] -= h;
        double g = (U(P, xp) - U(P, xm)) / (2 * h);
        err = fmax(err, fabs(f[c] + g) / fm);
    }
    return err;
}

static double pin_U_cb(const void *P, const double x[3]) { return pin_U_indep(P, x); }
static double face_U_cb(const void *P, const double x[3]) { return face_U_indep(P, x); }
typedef struct {
    const mech_ground *g;
    double kn;
} ground_cb_ctx;
static double ground_U_cb(const void *P, const double x[3])
{
    const ground_cb_ctx *c = P;
    return ground_U_indep(c->g, c->kn, x);
}

/* ---- law fixtures ---- */

static pin_params pin_fixture(int drive)
{
    pin_params P = { 0 };
    P.R = 0.25;
    P.kn = P.kg = 2e5;
    P.c = P.cg = 2 * 0.2 * sqrt(2e5 * 18.0);
    P.mu = 0.8;
    P.veps = 0.01;
    P.m_pair = 12.0;
    P.drive = drive;
    P.teeth = drive ? 10 : 0;
    P.theta0 = 0.3;
    P.fskip = drive ? P.kn * P.R / P.teeth : 0;
    return P;
}

static face_params face_fixture(void)
{
    face_params P = { 0 };
    P.radius = 0.3;
    P.zf = 0.01;
    P.link = 0.154;
    P.fade = 0.25 * 0.154;
    P.kn = 3.5e6;
    P.c = 2 * 0.2 * sqrt(3.5e6 * 18.0);
    P.mu = 0.8;
    P.veps = 0.01;
    P.m_pair = 15.0;
    return P;
}

static mech_ground plane_fixture(double sx, double sy)
{
    mech_ground g = { 0 };
    g.type = MECH_GROUND_PLANE;
    g.z0 = -0.1;
    g.sx = sx;
    g.sy = sy;
    g.kn = 1e5;
    g.kt = 1e5;
    g.mu = 0.8;
    g.zeta = 0.2;
    g.veps = 0.01;
    return g;
}

static ground_params ground_fixture(const mech_ground *g)
{
    ground_params P = { 0 };
    P.g = g;
    P.kn = g->kn;
    P.kt = g->kt;
    P.mu = g->mu;
    P.veps = g->veps;
    P.c = 2 * g->zeta * sqrt(g->kn * 300.0);
    P.m_eff = 4.5;
    P.ct = 2 * g->zeta * sqrt(g->kt * P.m_eff);
    return P;
}

/* A 7 x 6 grid of seeded random heights. */
static mech_ground grid_fixture(double *h)
{
    mech_ground g = plane_fixture(0, 0);
    g.type = MECH_GROUND_GRID;
    g.nx = 7;
    g.ny = 6;
    g.x0 = -1.0;
    g.y0 = -0.8;
    g.dx = 0.5;
    g.dy = 0.4;
    mech_rng r;
    mech_rng_seed(&r, 77);
    for (int i = 0; i < g.nx * g.ny; i++) h[i] = urand(&r, -0.15, 0.05);
    g.h = h;
    return g;
}

/* Pin force in polar parts at (rho, theta, y) with zero velocity. */
static void pin_at(const pin_params *P, double rho, double th, double y, double f[3], double *ft, double *fr)
{
    double d[3] = { rho * cos(th), y, rho * sin(th) }, u[3] = { 0, 0, 0 };
    pin_force(P, d, u, 0, f);
    if (ft) *ft = -sin(th) * f[0] + cos(th) * f[2];
    if (fr) *fr = cos(th) * f[0] + sin(th) * f[2];
}

/* ---- the tooth law ---- */
static void check_tooth(void)
{
    pin_params P = pin_fixture(1);
    double F = P.fskip, pitch = 2 * M_PI / P.teeth, f[3], ft, ftp, ftm;
    double fix = 0, slope_pocket = -INFINITY, slope_tip = INFINITY, per = 0, amp = 0, h = 1e-6;
    for (int k = -P.teeth; k <= P.teeth; k++) {
        double thp = P.theta0 + k * pitch, tht = thp + 0.5 * pitch;
        pin_at(&P, P.R, thp, 0, f, &ft, NULL);
        fix = fmax(fix, fabs(ft) / F);
        pin_at(&P, P.R, tht, 0, f, &ft, NULL);
        fix = fmax(fix, fabs(ft) / F);
        pin_at(&P, P.R, thp + h, 0, f, &ftp, NULL);
        pin_at(&P, P.R, thp - h, 0, f, &ftm, NULL);
        slope_pocket = fmax(slope_pocket, (ftp - ftm) / (2 * h));
        pin_at(&P, P.R, tht + h, 0, f, &ftp, NULL);
        pin_at(&P, P.R, tht - h, 0, f, &ftm, NULL);
        slope_tip = fmin(slope_tip, (ftp - ftm) / (2 * h));
    }
    for (int i = 0; i < 4000; i++) {
        double th = -M_PI + 2 * M_PI * i / 4000.0, a, b;
        pin_at(&P, P.R, th, 0, f, &a, NULL);
        pin_at(&P, P.R, th + pitch, 0, f, &b, NULL);
        per = fmax(per, fabs(a - b) / F);
    }
    double thpeak = P.theta0 - 0.25 * pitch; /* sin = -1: the restoring peak */
    pin_at(&P, P.R, thpeak, 0, f, &ft, NULL);
    amp = fabs(fabs(ft) - F) / F;
    report("tooth law: force at pockets and tips / F_skip", fix, 1e-12);
    require("tooth law: restoring at pockets (dft/dtheta < 0)", slope_pocket < 0);
    require("tooth law: unstable at tips (dft/dtheta > 0)", slope_tip > 0);
    report("tooth law: peak |ft| on the pitch circle vs F_skip", amp, 1e-12);
    report("tooth law: periodic at 2 pi / N", per, 1e-9);
    /* Branch cut: across theta = +-pi the force moves by no more than its slope allows. */
    double e = 1e-9, a[3], b[3];
    pin_at(&P, P.R - 0.005, M_PI - e, 0.003, a, NULL, NULL);
    pin_at(&P, P.R - 0.005, -M_PI + e, 0.003, b, NULL, NULL);
    double jump = 0;
    for (int c = 0; c < 3; c++) jump = fmax(jump, fabs(a[c] - b[c]));
    report("tooth law: continuous across theta = +-pi (N / F_skip)", jump / F, 1e-6);
}

/* F = -grad U by central differences against the independent potentials. */
static void check_gradients(void)
{
    mech_rng r;
    mech_rng_seed(&r, 11);
    double u0[3] = { 0, 0, 0 }, worst[2] = { 0, 0 };
    for (int drive = 0; drive < 2; drive++) {
        pin_params P = pin_fixture(drive);
        for (int i = 0; i < 20000; i++) {
            double rho = P.R + urand(&r, -0.01, 0.035), th = urand(&r, -M_PI, M_PI), y = urand(&r, -0.03, 0.03);
            double d[3] = { rho * cos(th), y, rho * sin(th) }, f[3], pen = P.R - rho;
            /* central differences straddling a second-derivative jump (touch, gate ends) err by O(kn h) */
            if (fabs(pen) < 1e-5 || fabs(pen + CONTACT_GATE_FADE) < 1e-5) continue;
            pin_force(&P, d, u0, 0, f);
            worst[drive] = fmax(worst[drive], grad_error(pin_U_cb, &P, d, f, 1e-7, 1.0));
        }
    }
    report("pin law (end roller): F = -grad U, 20000 states", worst[0], 1e-5);
    report("pin law (drive, tooth + g'(delta) U0): F = -grad U", worst[1], 1e-5);
    face_params F = face_fixture();
    double wf = 0;
    for (int i = 0; i < 20000; i++) {
        double a[3] = { urand(&r, -0.05, F.link + 0.05), urand(&r, -0.1, 0.1), F.zf + F.radius + urand(&r, -0.01, 0.002) };
        double fa[3], ff[3], fr[3];
        if (fabs(F.radius + F.zf - a[2]) < 1e-5) continue;
        face_force(&F, a, u0, u0, 0, fa, ff);
        for (int c = 0; c < 3; c++) fr[c] = -fa[c]; /* the force on the roller is conjugate to a */
        wf = fmax(wf, grad_error(face_U_cb, &F, a, fr, 1e-8, 1.0));
    }
    report("face law (with the w' tangential term): F = -grad U", wf, 1e-5);
    double gh[42];
    mech_ground grounds[3] = { plane_fixture(0, 0), plane_fixture(0.2, -0.1), grid_fixture(gh) };
    const char *names[3] = { "ground (flat): F = -grad U", "ground (slope): F = -grad U", "ground (grid): F = -grad U" };
    for (int k = 0; k < 3; k++) {
        ground_params G = ground_fixture(&grounds[k]);
        ground_cb_ctx ctx = { &grounds[k], G.kn };
        double wg = 0;
        for (int i = 0; i < 20000; i++) {
            double p[3] = { urand(&r, -1.5, 2.5), urand(&r, -1.0, 1.5), 0 }, h, hx, hy, F3[3];
            terrain_eval(&grounds[k], p[0], p[1], &h, &hx, &hy);
            p[2] = h - urand(&r, -0.002, 0.02);
            if (fabs(h - p[2]) < 1e-5) continue; /* the touch's second-derivative jump */
            ground_force(&G, p, u0, 0, F3);
            wg = fmax(wg, grad_error(ground_U_cb, &ctx, p, F3, 1e-7, 1.0));
        }
        report(names[k], wg, 1e-5);
    }
}

/* Face weights: w(x) + w(x - link) = 1 and slopes cancel, across the joint. */
static void check_partition(void)
{
    face_params P = face_fixture();
    double es = 0, ed = 0;
    for (int i = 0; i <= 2000; i++) {
        double x = P.link - 2 * P.fade + 4 * P.fade * i / 2000.0, d0, d1;
        double w0 = face_weight(&P, x, &d0), w1 = face_weight(&P, x - P.link, &d1);
        es = fmax(es, fabs(w0 + w1 - 1));
        ed = fmax(ed, fabs(d0 + d1) * P.fade);
    }
    double dh;
    report("face weights: partition of unity (sum)", es, 1e-14);
    report("face weights: slopes cancel (x fade)", ed, 1e-12);
    require("face weights: exactly 1/2 at the pin",
            face_weight(&P, P.link, &dh) == 0.5 && face_weight(&P, 0, &dh) == 0.5);
}

/* Terrain gradients vs central differences; the grid's C1 continuity. */
static void check_terrain(void)
{
    double gh[42];
    mech_ground g[3] = { plane_fixture(0, 0), plane_fixture(0.3, -0.2), grid_fixture(gh) };
    mech_rng r;
    mech_rng_seed(&r, 5);
    const char *names[3] = { "terrain (flat): gradient vs central differences",
                             "terrain (slope): gradient vs central differences",
                             "terrain (grid): gradient vs central differences" };
    for (int k = 0; k < 3; k++) {
        double worst = 0, e = 1e-6;
        for (int i = 0; i < 5000; i++) {
            double x = urand(&r, -2, 3), y = urand(&r, -1.5, 2), h, hx, hy, a, b, t;
            terrain_eval(&g[k], x, y, &h, &hx, &hy);
            terrain_eval(&g[k], x + e, y, &a, &t, &t);
            terrain_eval(&g[k], x - e, y, &b, &t, &t);
            worst = fmax(worst, fabs((a - b) / (2 * e) - hx));
            terrain_eval(&g[k], x, y + e, &a, &t, &t);
            terrain_eval(&g[k], x, y - e, &b, &t, &t);
            worst = fmax(worst, fabs((a - b) / (2 * e) - hy));
        }
        report(names[k], worst, 1e-6);
    }
    /* C1 across every cell edge (and the grid's own edge, onto the flat). */
    double jh = 0, jg = 0, e = 1e-10;
    for (int i = 0; i < g[2].nx; i++)
        for (int s = 0; s < 50; s++) {
            double x = g[2].x0 + i * g[2].dx, y = urand(&r, -1.2, 1.6), h0, hx0, hy0, h1, hx1, hy1;
            terrain_eval(&g[2], x - e, y, &h0, &hx0, &hy0);
            terrain_eval(&g[2], x + e, y, &h1, &hx1, &hy1);
            jh = fmax(jh, fabs(h1 - h0));
            jg = fmax(jg, fmax(fabs(hx1 - hx0), fabs(hy1 - hy0)));
        }
    for (int j = 0; j < g[2].ny; j++)
        for (int s = 0; s < 50; s++) {
            double y = g[2].y0 + j * g[2].dy, x = urand(&r, -1.4, 2.4), h0, hx0, hy0, h1, hx1, hy1;
            terrain_eval(&g[2], x, y - e, &h0, &hx0, &hy0);
            terrain_eval(&g[2], x, y + e, &h1, &hx1, &hy1);
            jh = fmax(jh, fabs(h1 - h0));
            jg = fmax(jg, fmax(fabs(hx1 - hx0), fabs(hy1 - hy0)));
        }
    report("terrain (grid): height continuous across cell edges", jh, 1e-8);
    report("terrain (grid): gradient continuous across cell edges", jg, 1e-7);
    double h, hx, hy;
    terrain_eval(&g[2], 0.1, 0.1, &h, &hx, &hy);
    report("terrain (grid): interpolates its samples", 0, 0);
    terrain_eval(&g[2], g[2].x0 + 2 * g[2].dx, g[2].y0 + 3 * g[2].dy, &h, &hx, &hy);
    report("terrain (grid): h at a sample = the sample", fabs(h - gh[3 * g[2].nx + 2]), 1e-15);
    /* The ground stage skips a shoe above the grid's bound: nothing may rise past it. */
    double top = terrain_grid_top(&g[2]), over = -INFINITY;
    for (int i = 0; i < 20000; i++) {
        terrain_eval(&g[2], urand(&r, -2, 3), urand(&r, -1.5, 2), &h, &hx, &hy);
        over = fmax(over, h - top);
    }
    printf("terrain (grid): terrain_grid_top is %.3g m above the highest h sampled\n", -over);
    report("terrain (grid): terrain_grid_top bounds h", fmax(over, 0), 0);
}

/* Passivity of the velocity-dependent part, and the friction cone. */
static void check_passivity(void)
{
    mech_rng r;
    mech_rng_seed(&r, 23);
    double dts[2] = { 0, 1e-4 };
    for (int k = 0; k < 2; k++) {
        double dt = dts[k], pw_pin = 0, cone_pin = 0, pw_face = 0, cone_face = 0, pw_g = 0, cone_g = 0, perp = 0;
        for (int drive = 0; drive < 2; drive++) {
            pin_params P = pin_fixture(drive);
            for (int i = 0; i < 20000; i++) {
                double rho = P.R + urand(&r, -0.01, 0.035), th = urand(&r, -M_PI, M_PI), y = urand(&r, -0.03, 0.03);
                double d[3] = { rho * cos(th), y, rho * sin(th) }, z[3] = { 0, 0, 0 }, f0[3], f[3];
                double u[3] = { urand(&r, -2, 2), urand(&r, -2, 2), urand(&r, -2, 2) };
                if (i % 3 == 0)
                    for (int c = 0; c < 3; c++) u[c] *= 0.005;
                pin_force(&P, d, z, dt, f0);
                pin_force(&P, d, u, dt, f);
                double pw = 0;
                for (int c = 0; c < 3; c++) pw += (f[c] - f0[c]) * u[c]; /* force on the shoe, u = shoe vs roller */
                pw_pin = fmax(pw_pin, pw);
                if (!drive) {
                    double er[2] = { cos(th), sin(th) }, ft = -er[1] * f[0] + er[0] * f[2];
                    double delta = P.R - rho, ur = u[0] * er[0] + u[2] * er[1];
                    double fc = delta > 0 ? fmax(0, P.kn * delta - P.c * contact_ramp(delta) * ur) : 0;
                    cone_pin = fmax(cone_pin, fabs(ft) - P.mu * fc);
                }
            }
        }
        face_params F = face_fixture();
        for (int i = 0; i < 20000; i++) {
            double a[3] = { urand(&r, -0.05, F.link + 0.05), 0, F.zf + F.radius + urand(&r, -0.01, 0.002) };
            double ua[3] = { urand(&r, -2, 2), 0, urand(&r, -2, 2) }, us[3] = { urand(&r, -2, 2), 0, 0 },
                   z[3] = { 0, 0, 0 };
            if (i % 3 == 0) {
                ua[2] *= 0.005;
                us[0] *= 0.005;
            }
            double fa0[3], ff0[3], fa[3], ff[3];
            (void)ff0;
            face_force(&F, a, z, z, dt, fa0, ff0);
            face_force(&F, a, ua, us, dt, fa, ff);
            double pw = 0; /* on the pair: the shoe's force against (shoe - roller) velocities */
            for (int c = 0; c < 3; c++) pw -= (fa[c] - fa0[c]) * ua[c] + ff[c] * us[c];
            pw_face = fmax(pw_face, pw);
            cone_face = fmax(cone_face, fabs(ff[0]) - F.mu * fabs(fa[2]));
        }
        double gh[42];
        mech_ground gs[2] = { plane_fixture(0.2, -0.1), grid_fixture(gh) };
        for (int gi = 0; gi < 2; gi++) {
            ground_params G = ground_fixture(&gs[gi]);
            for (int i = 0; i < 20000; i++) {
                double p[3] = { urand(&r, -1.5, 2.5), urand(&r, -1.0, 1.5), 0 }, h, hx, hy, z[3] = { 0, 0, 0 }, F0[3],
                       F3[3];
                terrain_eval(&gs[gi], p[0], p[1], &h, &hx, &hy);
                p[2] = h - urand(&r, -0.002, 0.02);
                double u[3] = { urand(&r, -2, 2), urand(&r, -2, 2), urand(&r, -2, 2) };
                if (i % 3 == 0)
                    for (int c = 0; c < 3; c++) u[c] *= 0.005;
                ground_force(&G, p, z, dt, F0);
                ground_force(&G, p, u, dt, F3);
                double pw = 0;
                for (int c = 0; c < 3; c++) pw += (F3[c] - F0[c]) * u[c];
                pw_g = fmax(pw_g, pw);
                double n[3] = { -hx, -hy, 1 }, nn = v3_norm(n);
                for (int c = 0; c < 3; c++) n[c] /= nn;
                double fn = v3_dot(F3, n), ft[3];
                for (int c = 0; c < 3; c++) ft[c] = F3[c] - fn * n[c];
                cone_g = fmax(cone_g, v3_norm(ft) - G.mu * fn);
                /* friction is tangential: the normal component is the frictionless law's */
                ground_params G0 = G;
                double Fn[3];
                G0.mu = 0;
                ground_force(&G0, p, u, dt, Fn);
                perp = fmax(perp, fabs(v3_dot(F3, n) - v3_dot(Fn, n)));
            }
        }
        char buf[96];
        snprintf(buf, sizeof buf, "pin law: velocity-dependent power <= 0 (dt %g), W", dt);
        report(buf, pw_pin, 1e-6);
        snprintf(buf, sizeof buf, "pin law: friction within mu f_n (dt %g), N", dt);
        report(buf, cone_pin, 1e-9);
        snprintf(buf, sizeof buf, "face law: velocity-dependent power <= 0 (dt %g), W", dt);
        report(buf, pw_face, 1e-6);
        snprintf(buf, sizeof buf, "face law: friction within mu f_n (dt %g), N", dt);
        report(buf, cone_face, 1e-9);
        snprintf(buf, sizeof buf, "ground law: velocity-dependent power <= 0 (dt %g), W", dt);
        report(buf, pw_g, 1e-6);
        snprintf(buf, sizeof buf, "ground law: |f_t| <= mu f_n (dt %g), N", dt);
        report(buf, cone_g, 1e-9);
        snprintf(buf, sizeof buf, "ground law: f_t perpendicular to n (dt %g), N", dt);
        report(buf, perp, 1e-9);
    }
}

/* ---- sweeps: a jump shows as a step that does not shrink with the spacing ---- */
typedef void (*sweep_fn)(const void *ctx, double s, double f[3]);

/* Largest |f(s_{i+1}) - f(s_i)| over n steps on [a, b]. */
static double sweep_step(sweep_fn fn, const void *ctx, double a, double b, int n)
{
    double prev[3], f[3], worst = 0;
    fn(ctx, a, prev);
    for (int i = 1; i <= n; i++) {
        fn(ctx, a + (b - a) * i / n, f);
        for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(f[c] - prev[c]));
        memcpy(prev, f, sizeof prev);
    }
    return worst;
}

/* Ratio of the largest step at 4n samples to that at n: about 1/4 for a
 * Lipschitz force, about 1 across a jump. */
static void sweep(const char *what, sweep_fn fn, const void *ctx, double a, double b)
{
    double coarse = sweep_step(fn, ctx, a, b, 2000), fine = sweep_step(fn, ctx, a, b, 8000);
    char buf[96];
    snprintf(buf, sizeof buf, "%s (step %.3g N)", what, fine);
    report(buf, coarse > 0 ? fine / coarse : 0, 0.3);
}

static void pin_radial(const void *P, double s, double f[3])
{
    double th = 1.1, d[3] = { s * cos(th), 0.004, s * sin(th) }, u[3] = { 0.3, -0.1, -0.4 };
    pin_force(P, d, u, 1e-4, f);
}
static void pin_circ(const void *P, double s, double f[3])
{
    const pin_params *p = P;
    double rho = p->R - 0.004, d[3] = { rho * cos(s), 0.002, rho * sin(s) }, u[3] = { 0.2, 0.05, 0.1 };
    pin_force(P, d, u, 1e-4, f);
}
static void face_along(const void *P, double s, double f[3])
{
    const face_params *p = P;
    double a[3] = { s, 0, p->zf + p->radius - 0.003 }, ua[3] = { 0.4, 0, -0.2 }, us[3] = { 0.05, 0, 0 }, fa[3], ff[3];
    double b[3] = { s - p->link, 0, a[2] }, fb[3], gb[3];
    face_force(P, a, ua, us, 1e-4, fa, ff);
    face_force(P, b, ua, us, 1e-4, fb, gb); /* the next shoe across the joint */
    for (int c = 0; c < 3; c++) f[c] = fa[c] + ff[c] + fb[c] + gb[c];
}
static void ground_vertical(const void *P, double s, double f[3])
{
    const ground_params *g = P;
    double h, hx, hy;
    terrain_eval(g->g, 0.3, 0.2, &h, &hx, &hy);
    double p[3] = { 0.3, 0.2, h - s }, u[3] = { 0.2, -0.1, -0.3 };
    ground_force(P, p, u, 1e-4, f);
}
static void ground_horizontal(const void *P, double s, double f[3])
{
    double p[3] = { s, 0.37 * s - 0.1, -0.2 }, u[3] = { 0.2, -0.1, -0.05 };
    ground_force(P, p, u, 1e-4, f);
}

static void check_sweeps(void)
{
    pin_params E = pin_fixture(0), D = pin_fixture(1);
    face_params F = face_fixture();
    double gh[42];
    mech_ground flat = plane_fixture(0.1, 0.05), grid = grid_fixture(gh);
    ground_params Gf = ground_fixture(&flat), Gg = ground_fixture(&grid);
    sweep("sweep: pin radial (end roller)", pin_radial, &E, E.R - 0.02, E.R + 0.04);
    sweep("sweep: pin radial (drive)", pin_radial, &D, D.R - 0.02, D.R + 0.04);
    sweep("sweep: pin circumferential (end roller)", pin_circ, &E, -M_PI, M_PI);
    sweep("sweep: pin circumferential (drive, across +-pi)", pin_circ, &D, -M_PI, M_PI);
    sweep("sweep: face along the band, across the joint", face_along, &F, F.link - 2 * F.fade, F.link + 2 * F.fade);
    sweep("sweep: ground vertical through the surface", ground_vertical, &Gf, -0.01, 0.02);
    sweep("sweep: ground vertical (grid)", ground_vertical, &Gg, -0.01, 0.02);
    sweep("sweep: ground horizontal across the grid", ground_horizontal, &Gg, -1.5, 2.5);
}

/* Implicit friction over (load, slip, v_eps, dt, mass): the impulse never
 * reverses the slip, dt = 0 is the explicit law bit for bit, |f_t| < mu f_n. */
static void check_impulse_bound(void)
{
    const double loads[] = { 1, 1e2, 1e4, 1e6 }, slips[] = { 1e-5, 1e-3, 1e-1, 3, 30 };
    const double veps[] = { 1e-3, 1e-2, 0.1 }, dts[] = { 0, 1e-6, 1e-4, 1e-3, 1e-2 }, masses[] = { 0.05, 4.5, 300 };
    mech_ground flat = plane_fixture(0, 0);
    flat.z0 = 0;
    int n = 0, reversed = 0, explicit_differs = 0, outside = 0;
    double worst_removed = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 3; c++)
                for (int d = 0; d < 5; d++)
                    for (int e = 0; e < 3; e++) {
                        ground_params G = ground_fixture(&flat);
                        G.veps = veps[c];
                        G.m_eff = masses[e];
                        double p[3] = { 0.1, 0.2, -loads[a] / G.kn }, u[3] = { slips[b] * 0.6, -slips[b] * 0.8, 0 }, F[3];
                        ground_force(&G, p, u, dts[d], F);
                        double fn = F[2], ft = hypot(F[0], F[1]);
                        if (!(ft < G.mu * fn)) outside++;
                        if (dts[d] == 0) {
                            double f = G.kn * (-p[2]),
                                   k = G.mu * f * 1.0 / sqrt(u[0] * u[0] + u[1] * u[1] + G.veps * G.veps);
                            if (F[0] != -k * u[0] || F[1] != -k * u[1]) explicit_differs++;
                        } else {
                            double un[2] = { u[0] + F[0] * dts[d] / G.m_eff, u[1] + F[1] * dts[d] / G.m_eff };
                            double along = (un[0] * u[0] + un[1] * u[1]) / (u[0] * u[0] + u[1] * u[1]);
                            if (!(along > 0)) reversed++;
                            worst_removed = fmax(worst_removed, 1 - along);
                        }
                        n++;
                    }
    printf("implicit friction over %d combinations: worst step removes %.10g of the slip\n", n, worst_removed);
    require("implicit friction: never reverses the slip", reversed == 0 && worst_removed < 1);
    require("implicit friction: dt = 0 is the explicit law bit for bit", explicit_differs == 0);
    require("implicit friction: |f_t| < mu f_n strictly", outside == 0);
}

/* ---- the anchored law on a point mass ---- */
typedef struct {
    double x[3], v[3];
    ground_anchor A;
} point_mass;

/* Semi-implicit Euler: v += (F_law + F_applied + m g) dt / m, x += v dt. */
static void point_step(const ground_params *G, point_mass *pm, int anchored, const double Fa[3], double dt)
{
    double F[3];
    if (anchored) ground_force_anchored(G, &pm->A, pm->x, pm->v, dt, F);
    else ground_force(G, pm->x, pm->v, dt, F);
    F[2] -= G->m_eff * 9.81;
    for (int c = 0; c < 3; c++) {
        pm->v[c] += (F[c] + Fa[c]) * dt / G->m_eff;
        pm->x[c] += pm->v[c] * dt;
    }
}

static void check_anchored(void)
{
    mech_ground flat = plane_fixture(0, 0);
    flat.z0 = 0;
    ground_params G = ground_fixture(&flat);
    G.c = 2 * flat.zeta * sqrt(G.kn * G.m_eff);
    double m = G.m_eff, W = m * 9.81, brk = G.mu * W, dt = 1e-4;
    /* hold at 0.9 of breakaway, anchored and regularized */
    double hold_v[2] = { 0, 0 }, hold_x[2] = { 0, 0 }, drift = 0;
    for (int anch = 1; anch >= 0; anch--) {
        point_mass pm = { { 0, 0, -W / G.kn }, { 0, 0, 0 }, { { 0 }, { 0 }, 0 } };
        double Fa[3] = { 0.9 * brk, 0, 0 }, x1 = 0;
        for (int i = 0; i < 30000; i++) {
            point_step(&G, &pm, anch, Fa, dt);
            if (i == 19999) x1 = pm.x[0];
        }
        hold_v[anch] = fabs(pm.v[0]);
        hold_x[anch] = pm.x[0] - (anch ? pm.A.a[0] : 0);
        if (anch) drift = fabs(pm.x[0] - x1);
    }
    double want = 0.9 * brk / G.kt;
    printf("anchored hold at 0.9: deflection %.6g m (F/kt %.6g), speed %.3g m/s; regularized %.3g m/s\n", hold_x[1],
           want, hold_v[1], hold_v[0]);
    report("anchored hold at 0.9 of breakaway: sits at F/kt (relative)", fabs(hold_x[1] - want) / want, 1e-6);
    report("anchored hold at 0.9 of breakaway: drift over 1 s, m", drift, 1e-12);
    require("regularized control at 0.9 visibly slides (> 1 mm/s)", hold_v[0] > 1e-3);
    /* slide at 1.1: acceleration (1.1 - 1) mu g */
    {
        point_mass pm = { { 0, 0, -W / G.kn }, { 0, 0, 0 }, { { 0 }, { 0 }, 0 } };
        double Fa[3] = { 1.1 * brk, 0, 0 }, v1 = 0;
        for (int i = 0; i < 20000; i++) {
            point_step(&G, &pm, 1, Fa, dt);
            if (i == 9999) v1 = pm.v[0];
        }
        double acc = (pm.v[0] - v1) / (10000 * dt), expect = 0.1 * G.mu * 9.81;
        printf("anchored slide at 1.1: %.6g m/s^2 against %.6g\n", acc, expect);
        report("anchored slide at 1.1: acceleration vs (1.1 - 1) mu g", fabs(acc / expect - 1), 1e-3);
    }
    /* +-30 % normal-load vibration at half of breakaway, 2 Hz (well under the
     * normal mode): the anchor must not walk. */
    double walk[2];
    for (int anch = 1; anch >= 0; anch--) {
        point_mass pm = { { 0, 0, -W / G.kn }, { 0, 0, 0 }, { { 0 }, { 0 }, 0 } };
        double xa = 0;
        for (int i = 0; i < 40000; i++) {
            double t = i * dt, Fa[3] = { 0.5 * brk, 0, 0.3 * W * sin(2 * M_PI * 2.0 * t) };
            point_step(&G, &pm, anch, Fa, dt);
            if (i == 19999) xa = pm.x[0];
        }
        walk[anch] = fabs(pm.x[0] - xa);
    }
    printf("vibration at half of breakaway: anchored moves %.3g m over 2 s, regularized %.3g m\n", walk[1], walk[0]);
    report("anchored, +-30% normal vibration at 0.5: no walking, m", walk[1], 1e-9);
    require("regularized control under the vibration visibly slides (> 1 mm)", walk[0] > 1e-3);
}

int main(void)
{
    check_tooth();
    check_gradients();
    check_partition();
    check_terrain();
    check_passivity();
    check_sweeps();
    check_impulse_bound();
    check_anchored();
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
