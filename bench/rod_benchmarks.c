/* rod_benchmarks.c — the Cosserat-rod experiments of Tobin & Rucker §9.2–9.4
 * and Table 2, printed as the tables of docs/rods.md.  A program, not a
 * test: it asserts nothing.
 *
 *   rod_benchmarks [convergence|locking|fig11|buckling|timing]...   (default: all)
 *
 * Statics are settled quasi-statically (xpbd_rod_settle: velocities zeroed
 * before every step of h = 0.2 s, 4 banded iterations per step, until no
 * node moves more than 1e-14 m in a step); see docs/rods.md. */
#define _POSIX_C_SOURCE 199309L
#include "xpbd/rod.h"

#include "rod_cantilever.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PI 3.14159265358979323846

static const char *disc_name[] = { "rigid", "linear", "quadratic", "cubic" };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void init_or_die(xpbd_rod *rod, const xpbd_rod_desc *d)
{
    char err[160];
    if (xpbd_rod_init(rod, d, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

/* Returns 1 when the rod came to rest within the step budget. */
static int settle(xpbd_rod *rod)
{
    int it = rod->desc.iterations;
    xpbd_rod_solver solver = rod->desc.solver;
    rod->desc.iterations = 4;
    rod->desc.solver = XPBD_ROD_BANDED;
    double moved = xpbd_rod_settle(rod, 0.2, 20000, 1e-14);
    rod->desc.iterations = it;
    rod->desc.solver = solver;
    return moved < 1e-14;
}

/* Milliseconds per xpbd_rod_step: the best of five runs of steps/5 steps
 * (the machine is shared; the minimum is the least disturbed). */
static double ms_per_step(xpbd_rod *rod, int steps)
{
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now_s();
        for (int s = 0; s < steps / 5; s++) xpbd_rod_step(rod);
        best = fmin(best, 1e3 * (now_s() - t0) / (steps / 5));
    }
    return best;
}

/* Least-squares slope of log y against log x. */
static double fit_slope(int n, const double *x, const double *y)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double lx = log(x[i]), ly = log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* ---- §9.2: large-deflection cantilever under gravity, rod along +x ---- */
static void cantilever_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    rod_cantilever(d, disc, nel);
    d->dt = 5e-3;
}

static void cantilever_tip(xpbd_rod_discretization disc, int nel, double tip[3], double *ms)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    cantilever_desc(&d, disc, nel);
    init_or_die(&rod, &d);
    settle(&rod);
    memcpy(tip, rod.p + 3 * (rod.nnode - 1), 3 * sizeof(double));
    if (ms) *ms = ms_per_step(&rod, 200);
    xpbd_rod_free(&rod);
}

static void convergence(void)
{
    static const int nels[4][8] = {
        { 2, 4, 8, 16, 32, 64, 128, 256 },
        { 2, 4, 8, 16, 32, 64, 128, 256 },
        { 1, 2, 3, 4, 6, 8, 12, 16 },
        { 1, 2, 3, 4, 5, 6, 8, 10 },
    };
    double ref[3], t0 = now_s();
    cantilever_tip(XPBD_ROD_CUBIC, 500, ref, NULL);
    printf("## §9.2 large-deflection cantilever under gravity (E = 5 MPa, d = 0.1 m, L = 1 m, rho = 1000)\n\n");
    printf("Reference: 500 cubic elements, tip (%.12f, %.12f) m (%.1f s to settle).\n", ref[0], ref[2],
           now_s() - t0);
    printf("Time/step: dt = 5 ms, one substep, one banded iteration.\n\n");
    printf("| discretization | elements | DOF | tip error (m) | time/step (ms) |\n|---|---|---|---|---|\n");
    for (int disc = 0; disc < 4; disc++) {
        double h[8], err[8];
        int nfit = 0;
        for (int i = 0; i < 8; i++) {
            int nel = nels[disc][i], dof = 6 * (nel * (disc ? disc : 1) + 1);
            double tip[3], ms, e[3];
            cantilever_tip((xpbd_rod_discretization)disc, nel, tip, &ms);
            for (int k = 0; k < 3; k++) e[k] = tip[k] - ref[k];
            double en = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            printf("| %s | %d | %d | %.3e | %.4f |\n", disc_name[disc], nel, dof, en, ms);
            if (en > 1e-10) { /* above the settling floor of ~1e-12 */
                h[nfit] = 1.0 / nel;
                err[nfit++] = en;
            }
        }
        printf("| **%s: fitted order k** (error ∝ h^k) | all %d points | finest 4 | **%.2f** / **%.2f** | |\n",
               disc_name[disc], nfit, fit_slope(nfit, h, err), fit_slope(4, h + nfit - 4, err + nfit - 4));
    }
    printf("\n");
}

/* ---- §9.3: shear locking, small-deflection cantilever with a tip force ---- */
static double locking_error(xpbd_rod_discretization disc, int nel, int full, double slender, int *settled)
{
    const double r = 0.01, P = 1.0, nu = 0.3, L = slender * r;
    double A = PI * r * r, I = 0.25 * PI * r * r * r * r, kappa = 6 * (1 + nu) / (7 + 6 * nu);
    /* d = PL³/3EI + PL/κGA = 0.02 L, G = E/2(1+ν), solved for E. */
    double E = P / (0.02 * L) * (L * L * L / (3 * I) + 2 * (1 + nu) * L / (kappa * A));
    xpbd_rod_desc d;
    xpbd_rod rod;
    cantilever_desc(&d, disc, nel);
    d.gravity[2] = 0;
    d.length = L;
    d.diameter = 2 * r;
    d.E = E;
    d.nu = nu;
    d.full_integration = full;
    init_or_die(&rod, &d);
    rod.fext[6 * (rod.nnode - 1) + 5] = -P;
    *settled = settle(&rod);
    double defl = -rod.p[3 * (rod.nnode - 1) + 2];
    xpbd_rod_free(&rod);
    return 100 * (defl - 0.02 * L) / (0.02 * L);
}

static void locking(void)
{
    static const double slender[] = { 5, 10, 20, 50, 100, 200, 500, 1000 };
    static const struct { xpbd_rod_discretization disc; int nel; } cases[] = {
        { XPBD_ROD_LINEAR, 3 }, { XPBD_ROD_QUADRATIC, 1 }, { XPBD_ROD_CUBIC, 1 }
    };
    printf("## §9.3 shear locking: tip deflection error (%%) against Timoshenko, d/L = 0.02\n\n");
    printf("r = 0.01 m, P = 1 N, nu = 0.3, E set per L/r; reduced / full integration.\n\n");
    printf("| L/r | 3 linear red. | 3 linear full | 1 quadratic red. | 1 quadratic full | 1 cubic red. | 1 cubic full |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof slender / sizeof slender[0]; i++) {
        printf("| %g |", slender[i]);
        for (int c = 0; c < 3; c++)
            for (int full = 0; full <= 1; full++) {
                int settled;
                double e = locking_error(cases[c].disc, cases[c].nel, full, slender[i], &settled);
                printf(" %+.3f%s |", e, settled ? "" : "*");
            }
        printf("\n");
    }
    printf("\n\\* did not come to rest (no step under 1e-14 m in 20000): roundoff-limited.\n\n");
}

/* ---- Fig. 11: 5 cubic elements, dt = 1e-2 s, solvers compared ---- */
static void fig11(void)
{
    static const struct { const char *name; xpbd_rod_solver solver; int iterations, substeps; } runs[] = {
        { "banded, 1 iteration", XPBD_ROD_BANDED, 1, 1 },
        { "Gauss-Seidel, 1 iteration", XPBD_ROD_GAUSS_SEIDEL, 1, 1 },
        { "Gauss-Seidel, 100 iterations", XPBD_ROD_GAUSS_SEIDEL, 100, 1 },
        { "Gauss-Seidel, 100 substeps", XPBD_ROD_GAUSS_SEIDEL, 1, 100 },
    };
    double ref[3];
    cantilever_tip(XPBD_ROD_CUBIC, 5, ref, NULL);
    printf("## Fig. 11: 5 cubic elements (the §9.2 cantilever), dt = 1e-2 s\n\n");
    printf("Static tip height %.5f m.  Tip height after t s of dynamics, damping beta = 1e6 Pa s:\n\n", ref[2]);
    printf("| solver | t = 1 | t = 2 | t = 5 |\n|---|---|---|---|\n");
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        cantilever_desc(&d, XPBD_ROD_CUBIC, 5);
        d.dt = 1e-2;
        d.damping = 1e6;
        d.solver = runs[r].solver;
        d.iterations = runs[r].iterations;
        d.substeps = runs[r].substeps;
        init_or_die(&rod, &d);
        printf("| %s |", runs[r].name);
        for (int s = 1; s <= 500; s++) {
            xpbd_rod_step(&rod);
            if (s == 100 || s == 200 || s == 500) printf(" %.4f |", rod.p[3 * (rod.nnode - 1) + 2]);
        }
        printf("\n");
        xpbd_rod_free(&rod);
    }
    printf("\n");
}

/* ---- §9.4: helical spring buckling under prescribed compression ---- */
static void spring_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    xpbd_rod_desc_default(d);
    d->disc = disc;
    d->elements = nel;
    d->shape = XPBD_ROD_HELIX;
    d->coil_radius = 0.1;
    d->turns = 15;
    d->pitch = 1.4 / 15;
    d->diameter = 0.01;
    d->E = 60e9;
    d->nu = 0.3;
    d->rho = 7650;
    d->dt = 5e-3;
    d->end[0].clamped = d->end[1].clamped = 1;
}

/* Middle-node lateral displacement at compressions c_i = c0 + i dc (the rod
 * is first brought there in steps of 0.05 m).  Each compression is settled
 * quasi-statically (at most 4000 steps, the last ones near the buckling
 * point).  Onset: the steepest secant of the curve extended back to zero
 * lateral displacement. */
static double buckling_curve(xpbd_rod_discretization disc, int nel, int n, double c0, double dc, double *lat)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    spring_desc(&d, disc, nel);
    init_or_die(&rod, &d);
    int mid = rod.nnode / 2;
    double onset = 0, steepest = 0;
    for (double c = 0.05; c < c0 - 1e-9; c += 0.05) {
        rod.desc.end[1].move[2] = -c;
        xpbd_rod_settle(&rod, 0.2, 4000, 1e-13);
    }
    for (int i = 0; i < n; i++) {
        rod.desc.end[1].move[2] = -(c0 + i * dc);
        xpbd_rod_settle(&rod, 0.2, 4000, 1e-13);
        lat[i] = hypot(rod.p[3 * mid] - rod.p0[3 * mid], rod.p[3 * mid + 1] - rod.p0[3 * mid + 1]);
        if (i > 0 && (lat[i] - lat[i - 1]) / dc > steepest) {
            steepest = (lat[i] - lat[i - 1]) / dc;
            onset = c0 + i * dc - lat[i] / steepest;
        }
    }
    xpbd_rod_free(&rod);
    return onset;
}

static void buckling(void)
{
    static const struct { xpbd_rod_discretization disc; int nel; } cases[] = {
        { XPBD_ROD_RIGID, 120 }, { XPBD_ROD_LINEAR, 120 }, { XPBD_ROD_LINEAR, 250 },
        { XPBD_ROD_QUADRATIC, 66 }, { XPBD_ROD_CUBIC, 40 },
    };
    enum { N = 21 };
    const double c0 = 0.25, dc = 0.01;
    double lat[5][N], onset[5];
    printf("## §9.4 helical spring buckling (E = 60 GPa, nu = 0.3, 1.4 m, coil radius 0.1 m, 15 coils, d = 0.01 m)\n\n");
    printf("Both ends clamped; the top end pushed down quasi-statically.  Middle-node lateral displacement (m):\n\n");
    for (int c = 0; c < 5; c++) {
        double t0 = now_s();
        onset[c] = buckling_curve(cases[c].disc, cases[c].nel, N, c0, dc, lat[c]);
        fprintf(stderr, "buckling %s %d: %.0f s\n", disc_name[cases[c].disc], cases[c].nel, now_s() - t0);
    }
    printf("| compression (m) |");
    for (int c = 0; c < 5; c++) printf(" %s %d |", disc_name[cases[c].disc], cases[c].nel);
    printf("\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < N; i++) {
        printf("| %.2f |", c0 + i * dc);
        for (int c = 0; c < 5; c++) printf(" %.5f |", lat[c][i]);
        printf("\n");
    }
    printf("| **onset** |");
    for (int c = 0; c < 5; c++) printf(" **%.3f** |", onset[c]);
    printf("\n\nOnset: the steepest secant extended back to zero lateral displacement (Becker & Cleghorn, cited by "
           "the paper: 0.32 m).\n\n");
}

/* ---- Table 2: milliseconds per step, native ---- */
static void timing(void)
{
    static const struct { xpbd_rod_discretization disc; int nel; double paper; } spring[] = {
        { XPBD_ROD_RIGID, 120, 0.09 }, { XPBD_ROD_LINEAR, 120, 0.10 }, { XPBD_ROD_LINEAR, 250, 0.22 },
        { XPBD_ROD_QUADRATIC, 66, 0.22 }, { XPBD_ROD_CUBIC, 40, 0.28 },
    }, plect[] = {
        { XPBD_ROD_LINEAR, 30, 0.06 }, { XPBD_ROD_LINEAR, 60, 0.11 }, { XPBD_ROD_LINEAR, 120, 0.23 },
        { XPBD_ROD_QUADRATIC, 15, 0.11 }, { XPBD_ROD_QUADRATIC, 30, 0.23 }, { XPBD_ROD_QUADRATIC, 60, 0.43 },
        { XPBD_ROD_CUBIC, 10, 0.17 }, { XPBD_ROD_CUBIC, 20, 0.35 }, { XPBD_ROD_CUBIC, 40, 0.68 },
    };
    printf("## Table 2: time per step (ms), native, one substep, one banded iteration\n\n");
    printf("| scene | elements | ours (ms) | paper (ms) |\n|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof spring / sizeof spring[0]; i++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        spring_desc(&d, spring[i].disc, spring[i].nel);
        d.end[1].move[2] = -0.4;
        d.end[1].ramp_time = 10;
        init_or_die(&rod, &d);
        xpbd_rod_step(&rod);
        printf("| spring, %s | %d | %.3f | %.2f |\n", disc_name[spring[i].disc], spring[i].nel,
               ms_per_step(&rod, 2000), spring[i].paper);
        xpbd_rod_free(&rod);
    }
    for (size_t i = 0; i < sizeof plect / sizeof plect[0]; i++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        xpbd_rod_desc_default(&d);
        d.disc = plect[i].disc;
        d.elements = plect[i].nel;
        d.length = 10;
        d.diameter = 0.1;
        d.E = 5e7;
        d.nu = 0.4;
        d.rho = 1000;
        d.damping = 1e6;
        d.dt = 1e-3;
        d.gravity[2] = -9.81;
        d.end[0].clamped = d.end[1].clamped = 1;
        d.end[1].move[2] = -3;
        d.end[1].twist = 20 * PI;
        d.end[1].ramp_time = 10;
        init_or_die(&rod, &d);
        xpbd_rod_step(&rod);
        printf("| plectoneme (no contact), %s | %d | %.3f | %.2f |\n", disc_name[plect[i].disc], plect[i].nel,
               ms_per_step(&rod, 2000), plect[i].paper);
        xpbd_rod_free(&rod);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } parts[] = {
        { "convergence", convergence }, { "locking", locking }, { "fig11", fig11 },
        { "buckling", buckling }, { "timing", timing },
    };
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        int want = argc < 2;
        for (int a = 1; a < argc; a++) want |= strcmp(argv[a], parts[p].name) == 0;
        if (want) {
            parts[p].run();
            fflush(stdout);
        }
    }
    return 0;
}
