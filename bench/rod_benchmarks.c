/* rod_benchmarks.c — the Cosserat-rod experiments of Tobin & Rucker §9.2–9.5
 * and Table 2, printed as the tables of docs/rods.md.  A program, not a
 * test: it asserts nothing.
 *
 *   rod_benchmarks [convergence|locking|fig11|buckling|timing|plectoneme]...   (default: all)
 *   rod_benchmarks buckling [clamp|pin|clamp-pin] [<disc> <elements>]   (§9.4 end conditions; default clamp)
 *
 * Statics are settled quasi-statically (xpbd_rod_settle: velocities zeroed
 * before every step of h = 0.2 s, 4 banded iterations per step, until no
 * node moves more than 1e-14 m in a step); see docs/rods.md. */
#define _POSIX_C_SOURCE 199309L
#include "xpbd/rod.h"

#include "rod_fixtures.h"
#include "rod_scenes.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PI 3.14159265358979323846

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

/* CPU time of this process (s): time spent descheduled on the shared
 * machine is not charged. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Milliseconds of CPU time per xpbd_rod_step: the fastest of 20 batches of
 * at least 10 ms each (the same protocol as bench/rod_wasm.mjs). */
static double ms_per_step(xpbd_rod *rod)
{
    int steps = 1;
    for (;;) {
        double t0 = cpu_s();
        for (int s = 0; s < steps; s++) xpbd_rod_step(rod);
        if (cpu_s() - t0 >= 0.01) break;
        steps *= 2;
    }
    double best = 1e30;
    for (int r = 0; r < 20; r++) {
        double t0 = cpu_s();
        for (int s = 0; s < steps; s++) xpbd_rod_step(rod);
        best = fmin(best, 1e3 * (cpu_s() - t0) / steps);
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
    rod_cantilever_desc(d, disc, nel);
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
    if (ms) *ms = ms_per_step(&rod);
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
    printf("Reference: 500 cubic elements, tip (%.12f, %.12f) m (%.1f s to settle).\n", ref[0], ref[2], now_s() - t0);
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
            printf("| %s | %d | %d | %.3e | %.4f |\n", rod_disc_name[disc], nel, dof, en, ms);
            if (en > 1e-10) { /* above the settling floor of ~1e-12 */
                h[nfit] = 1.0 / nel;
                err[nfit++] = en;
            }
        }
        printf("| **%s: fitted order k** (error ∝ h^k) | all %d points | finest 4 | **%.2f** / **%.2f** | |\n",
               rod_disc_name[disc], nfit, fit_slope(nfit, h, err), fit_slope(4, h + nfit - 4, err + nfit - 4));
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
    static const struct {
        xpbd_rod_discretization disc;
        int nel;
    } cases[] = { { XPBD_ROD_LINEAR, 3 }, { XPBD_ROD_QUADRATIC, 1 }, { XPBD_ROD_CUBIC, 1 } };
    printf("## §9.3 shear locking: tip deflection error (%%) against Timoshenko, d/L = 0.02\n\n");
    printf("r = 0.01 m, P = 1 N, nu = 0.3, E set per L/r; reduced / full integration.\n\n");
    printf(
        "| L/r | 3 linear red. | 3 linear full | 1 quadratic red. | 1 quadratic full | 1 cubic red. | 1 cubic full |\n");
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
    static const struct {
        const char *name;
        xpbd_rod_solver solver;
        int iterations, substeps;
    } runs[] = {
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
/* End conditions of the spring (wire ends; the top one is moved): `clamp`
 * (the default protocol), `pin` (position held, orientation free) and
 * `clamp-pin` (bottom clamped, top pinned).  A held end may rotate only
 * where it is pinned, so the pinned runs start the curve lower. */
typedef struct {
    const char *name, *text;
    int bottom, top;
    double c0;
    int n;
} buckling_ends;

static const buckling_ends buckling_modes[] = {
    { "clamp", "Both ends clamped", XPBD_ROD_CLAMP, XPBD_ROD_CLAMP, 0.25, 21 },
    { "pin", "Both ends pinned (position held, orientation free)", XPBD_ROD_PIN, XPBD_ROD_PIN, 0.01, 45 },
    { "clamp-pin", "Bottom end clamped, top end pinned", XPBD_ROD_CLAMP, XPBD_ROD_PIN, 0.01, 45 },
};

/* What `buckling [clamp|pin|clamp-pin] [<disc> <elements>]` asked for. */
static struct {
    const buckling_ends *ends;
    int disc, nel; /* disc < 0: every discretization */
} buckling_opt = { &buckling_modes[0], -1, 0 };

/* Middle-node lateral displacement at compressions c_i = c0 + i dc (the rod
 * is first brought there in steps of 0.05 m).  Each compression is settled
 * quasi-statically (at most 4000 steps, the last ones near the buckling
 * point).  Onset: the steepest secant of the curve extended back to zero
 * lateral displacement. */
static double buckling_curve(xpbd_rod_discretization disc, int nel, int n, double c0, double dc, double *lat)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    rod_spring_desc(&d, disc, nel);
    d.end[0].hold = buckling_opt.ends->bottom;
    d.end[1].hold = buckling_opt.ends->top;
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

/* Southwell: for an imperfect column lat = lat₀ c/(c_cr − c), so lat/c is
 * linear in lat with slope 1/c_cr; least squares over the points with
 * lat < below (the pre-buckling part of the curve); NAN for fewer than 3. */
static double southwell(int n, double c0, double dc, const double *lat, double below)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(lat[i] < below)) continue;
        double y = lat[i] / (c0 + i * dc);
        sx += lat[i];
        sy += y;
        sxx += lat[i] * lat[i];
        sxy += lat[i] * y;
        m++;
    }
    return m < 3 ? NAN : (m * sxx - sx * sx) / (m * sxy - sx * sy);
}

static void buckling(void)
{
    static const struct {
        xpbd_rod_discretization disc;
        int nel;
    } all[] = {
        { XPBD_ROD_RIGID, 120 },    { XPBD_ROD_LINEAR, 120 }, { XPBD_ROD_LINEAR, 250 },
        { XPBD_ROD_QUADRATIC, 66 }, { XPBD_ROD_CUBIC, 40 },
    };
    enum { NMAX = 64 };
    const buckling_ends *ends = buckling_opt.ends;
    const int n = ends->n;
    const double c0 = ends->c0, dc = 0.01;
    double lat[5][NMAX], onset[5];
    int use[5], nuse = 0;
    for (int c = 0; c < 5; c++) {
        use[c] = buckling_opt.disc < 0 || ((int)all[c].disc == buckling_opt.disc && all[c].nel == buckling_opt.nel);
        nuse += use[c];
    }
    printf("## §9.4 helical spring buckling (E = 60 GPa, nu = 0.3, 1.4 m, coil radius 0.1 m, 15 coils, d = 0.01 m)\n\n");
    printf("%s; the top end pushed down quasi-statically.  Middle-node lateral displacement (m):\n\n", ends->text);
    for (int c = 0; c < 5; c++) {
        if (!use[c]) continue;
        double t0 = now_s();
        onset[c] = buckling_curve(all[c].disc, all[c].nel, n, c0, dc, lat[c]);
        fprintf(stderr, "buckling %s %s %d: %.0f s\n", ends->name, rod_disc_name[all[c].disc], all[c].nel, now_s() - t0);
    }
    printf("| compression (m) |");
    for (int c = 0; c < 5; c++)
        if (use[c]) printf(" %s %d |", rod_disc_name[all[c].disc], all[c].nel);
    printf("\n|---|");
    for (int c = 0; c < nuse; c++) printf("---|");
    printf("\n");
    for (int i = 0; i < n; i++) {
        printf("| %.2f |", c0 + i * dc);
        for (int c = 0; c < 5; c++)
            if (use[c]) printf(" %.5f |", lat[c][i]);
        printf("\n");
    }
    printf("| **onset** |");
    for (int c = 0; c < 5; c++)
        if (use[c]) printf(" **%.3f** |", onset[c]);
    for (int k = 1; k <= 2; k++) {
        printf("\n| Southwell, lat < %d cm |", k);
        for (int c = 0; c < 5; c++) {
            if (!use[c]) continue;
            double cr = southwell(n, c0, dc, lat[c], 0.01 * k);
            if (isnan(cr)) printf(" – |");
            else printf(" %.3f |", cr);
        }
    }
    printf("\n\nOnset: the steepest secant extended back to zero lateral displacement; Southwell: lat/c against "
           "lat fitted on the points below 1 or 2 cm, c_cr = 1/slope, – for fewer than 3 points (Becker & "
           "Cleghorn, cited by the paper: 0.32 m).\n\n");
}

/* buckling [clamp|pin|clamp-pin] [<disc> <elements>] from argv[a + 1] on;
 * returns the index of the last argument used (0 on a bad one). */
static int buckling_args(int argc, char **argv, int a)
{
    for (size_t k = 0; a + 1 < argc && k < sizeof buckling_modes / sizeof buckling_modes[0]; k++)
        if (strcmp(argv[a + 1], buckling_modes[k].name) == 0) {
            buckling_opt.ends = &buckling_modes[k];
            a++;
            break;
        }
    for (int k = 0; a + 1 < argc && k < 4; k++)
        if (strcmp(argv[a + 1], rod_disc_name[k]) == 0) {
            buckling_opt.disc = k;
            buckling_opt.nel = a + 2 < argc ? atoi(argv[a + 2]) : 0;
            return buckling_opt.nel > 0 ? a + 2 : 0;
        }
    return a;
}

/* ---- Table 2: milliseconds per step, native ---- */
static void timing(void)
{
    printf("## Table 2: time per step (ms), native, one substep, one banded iteration\n\n");
    printf("| scene | elements | ours (ms) | paper (ms) |\n|---|---|---|---|\n");
    for (int i = 0; i < ROD_TIMING_CASES; i++) {
        const rod_timing_case *c = &rod_timing_cases[i];
        xpbd_rod rod;
        char err[160];
        if (rod_timing_scene(i, &rod, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        printf("| %s%s, %s | %d | %.3f | %.2f |\n", c->scene, strcmp(c->scene, "spring") ? " (no contact)" : "",
               rod_disc_name[c->disc], c->elements, ms_per_step(&rod), c->paper_ms);
        xpbd_rod_free(&rod);
    }
    printf("\n");
}

/* ---- §9.5: plectoneme, a rod with slack twisted at one end (no self-contact) ---- */
enum { PLECT_SAMPLES = 200 };

/* Writhe of a polyline: the Gauss double integral summed exactly over pairs
 * of segments (Klenin & Langowski 2000): Wr = 2 Σ_{i<j} Ω_ij / 4π, Ω_ij the
 * signed solid angle under which segment j sees segment i.  Coplanar pairs
 * (collinear samples of a straight linear element among them) see each other
 * under no solid angle and are skipped: their normals would be roundoff. */
static double writhe(int n, const double (*x)[3])
{
    double wr = 0;
    for (int i = 0; i + 1 < n; i++)
        for (int j = i + 2; j + 1 < n; j++) {
            const double *p1 = x[i], *p2 = x[i + 1], *p3 = x[j], *p4 = x[j + 1];
            double r[4][3], nrm[4][3], e12[3], e34[3], c[3], omega = 0;
            for (int k = 0; k < 3; k++) {
                r[0][k] = p3[k] - p1[k]; /* r13, r14, r24, r23: the quadrilateral's corners */
                r[1][k] = p4[k] - p1[k];
                r[2][k] = p4[k] - p2[k];
                r[3][k] = p3[k] - p2[k];
                e12[k] = p2[k] - p1[k];
                e34[k] = p4[k] - p3[k];
            }
            v3_cross(e34, e12, c);
            double volume = v3_dot(c, r[0]);
            if (fabs(volume) <= 1e-12 * v3_norm(e12) * v3_norm(e34) * v3_norm(r[0])) continue;
            for (int q = 0; q < 4; q++) {
                v3_cross(r[q], r[(q + 1) % 4], nrm[q]);
                double l = v3_norm(nrm[q]);
                for (int k = 0; k < 3; k++) nrm[q][k] /= l;
            }
            for (int q = 0; q < 4; q++) omega += asin(fmax(-1.0, fmin(1.0, v3_dot(nrm[q], nrm[(q + 1) % 4]))));
            wr += volume > 0 ? omega : -omega;
        }
    return wr / (2 * PI);
}

/* The shape at the current state, from the interpolated centreline
 * (xpbd_rod_sample, so a cubic element counts with its curve): largest
 * distance from the end-to-end axis (world x, to 1 mm), largest distance out
 * of the buckling plane x–z, writhe, and the smallest gap between the
 * surfaces of two parts of the rod more than 1 m apart along it (negative:
 * they overlap, which contact would have prevented). */
typedef struct {
    double axis, plane, writhe, gap;
} plect_shape;

static plect_shape plect_measure(const xpbd_rod *rod)
{
    static double x[PLECT_SAMPLES + 1][3];
    double L = rod->desc.length, R[9], ds = L / PLECT_SAMPLES, dia = rod->desc.diameter;
    plect_shape m = { 0, 0, 0, 1e30 };
    for (int k = 0; k <= PLECT_SAMPLES; k++) {
        xpbd_rod_sample(rod, k * ds, x[k], R);
        m.axis = fmax(m.axis, hypot(x[k][1], x[k][2]));
        m.plane = fmax(m.plane, fabs(x[k][1]));
    }
    int skip = (int)ceil(1.0 / ds);
    for (int i = 0; i <= PLECT_SAMPLES; i++)
        for (int j = i + skip; j <= PLECT_SAMPLES; j++) {
            double d[3] = { x[j][0] - x[i][0], x[j][1] - x[i][1], x[j][2] - x[i][2] };
            m.gap = fmin(m.gap, v3_norm(d) - dia);
        }
    m.writhe = writhe(PLECT_SAMPLES + 1, (const double(*)[3])x);
    return m;
}

/* One discretization through the protocol of rod_plectoneme_desc: the shape
 * at each reported twist (turns), and the twist at which the writhe first
 * reaches ½ once the slack is in (t ≥ 1 s; checked every 0.025 turns; −1:
 * never). */
enum { PLECT_REPORTS = 8 };
static const double plect_report_turns[PLECT_REPORTS] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static double plectoneme_run(xpbd_rod_discretization disc, int nel, plect_shape *at)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    rod_plectoneme_desc(&d, disc, nel);
    init_or_die(&rod, &d);
    double onset = -1, turns_per_step = d.dt * PLECT_TURNS / PLECT_TWIST_TIME;
    int next = 0, steps = (int)lround(PLECT_TWIST_TIME / d.dt), every = (int)lround(0.025 / turns_per_step);
    for (int s = 1; s <= steps; s++) {
        xpbd_rod_step(&rod);
        double turns = s * turns_per_step;
        if (onset < 0 && s % every == 0 && s * d.dt >= 1 && fabs(plect_measure(&rod).writhe) >= 0.5) onset = turns;
        if (next < PLECT_REPORTS && turns >= plect_report_turns[next] - 1e-9) at[next++] = plect_measure(&rod);
    }
    xpbd_rod_free(&rod);
    return onset;
}

/* §9.5 at the nine discretizations of Table 2's plectoneme rows. */
static void plectoneme(void)
{
    plect_shape at[ROD_TIMING_CASES][PLECT_REPORTS];
    double onset[ROD_TIMING_CASES];
    int rows[ROD_TIMING_CASES], n = 0;
    for (int i = 0; i < ROD_TIMING_CASES; i++)
        if (strcmp(rod_timing_cases[i].scene, "plectoneme") == 0) rows[n++] = i;
    printf("## §9.5 plectoneme (L = 10 m, d = 0.1 m, E = 5e7, nu = 0.4, rho = 1000, beta = 1e6, h = 1 ms), "
           "no self-contact\n\n");
    printf("Along x, both ends clamped, no gravity; the start moved %.0f m inwards (and %g m along z) over 1 s, "
           "the end twisted %.0f turns about x over %.0f s.\n\n",
           PLECT_SLACK, PLECT_KICK, PLECT_TURNS, PLECT_TWIST_TIME);
    for (int r = 0; r < n; r++) {
        const rod_timing_case *c = &rod_timing_cases[rows[r]];
        onset[r] = plectoneme_run(c->disc, c->elements, at[r]);
    }
    printf("| discretization | nodes | Wr = ½ at (turns) |");
    for (int k = 0; k < PLECT_REPORTS; k++) printf(" %g turns: axis / plane / Wr / gap |", plect_report_turns[k]);
    printf("\n|---|---|---|");
    for (int k = 0; k < PLECT_REPORTS; k++) printf("---|");
    printf("\n");
    for (int r = 0; r < n; r++) {
        const rod_timing_case *c = &rod_timing_cases[rows[r]];
        printf("| %s %d | %d | %.3f |", rod_disc_name[c->disc], c->elements, c->elements * (int)c->disc + 1, onset[r]);
        for (int k = 0; k < PLECT_REPORTS; k++)
            printf(" %.2f / %.2f / %.2f / %+.2f |", at[r][k].axis, at[r][k].plane, at[r][k].writhe, at[r][k].gap);
        printf("\n");
    }
    printf("\naxis: largest distance (m) of the centreline from the end-to-end axis (the ends stay %.0f m apart); "
           "plane: largest distance (m) out of the buckling plane x-z; Wr: writhe of the centreline; gap: smallest "
           "surface gap (m) between parts of the rod more than 1 m apart along it (negative: they overlap; there is "
           "no self-contact).\n\n",
           10 - PLECT_SLACK);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } parts[] = {
        { "convergence", convergence }, { "locking", locking }, { "fig11", fig11 },
        { "buckling", buckling },       { "timing", timing },   { "plectoneme", plectoneme },
    };
    for (int a = 1; a < argc; a++) {
        int known = 0;
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) known |= strcmp(argv[a], parts[p].name) == 0;
        if (!known || (strcmp(argv[a], "buckling") == 0 && !(a = buckling_args(argc, argv, a)))) {
            fprintf(stderr, "usage: rod_benchmarks [convergence|locking|fig11|buckling|timing|plectoneme]...\n"
                            "       rod_benchmarks buckling [clamp|pin|clamp-pin] [rigid|linear|quadratic|cubic "
                            "<elements>]\n");
            return 1;
        }
    }
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
