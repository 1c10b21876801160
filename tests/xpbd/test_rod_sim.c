/* test_rod_sim.c — rod simulations checked for correctness (never timing):
 * row-sum lumped masses (§6.3.6) and the rigid chain's (§6.2); rest shapes
 * are stress-free (intrinsic strains); the paper's Fig. 11 claim on tip
 * deflection; reduced integration free of shear locking where full
 * integration locks (§9.3); the convergence orders of §9.2; a rod
 * two-way coupled to a body of the rigid-body world; and a rod pinned at
 * its root (position held, orientation free) swinging as a pendulum. */
#include "xpbd/rod_internal.h"

#include "rod_fixtures.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

static void init(xpbd_rod *rod, const xpbd_rod_desc *d)
{
    char err[160];
    if (xpbd_rod_init(rod, d, err, sizeof err)) {
        printf("FAIL init: %s\n", err);
        failures++;
    }
}

static void test_masses(void)
{
    static const double frac[4][4] = {
        { 0.5, 0.5 }, { 0.5, 0.5 }, { 1.0 / 6, 2.0 / 3, 1.0 / 6 }, { 1.0 / 8, 3.0 / 8, 3.0 / 8, 1.0 / 8 }
    };
    for (int disc = XPBD_ROD_RIGID; disc <= XPBD_ROD_CUBIC; disc++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        xpbd_rod_desc_default(&d);
        d.disc = (xpbd_rod_discretization)disc;
        d.length = 2;
        d.diameter = 0.1;
        init(&rod, &d);
        double r = 0.05, A = PI * r * r, I = 0.25 * PI * r * r * r * r, mtot = d.rho * A * d.length, werr = 0;
        for (int a = 0; a < rod.nnode; a++) {
            werr = fmax(werr, fabs(rod.mass[a] - frac[disc][a] * mtot));
            if (disc) werr = fmax(werr, fabs(rod.inertia[3 * a + 2] - frac[disc][a] * d.rho * 2 * I * d.length));
        }
        xpbd_rod_free(&rod);
        d.elements = 7;
        init(&rod, &d);
        double sm = 0, sj = 0;
        for (int j = 0; j < rod.nnode; j++) {
            sm += rod.mass[j];
            sj += rod.inertia[3 * j + 2];
        }
        printf("order %d: node fractions error %.1e, 7 elements: mass %.12f (rho A L %.12f), twist inertia %.3e "
               "(rho 2I L %.3e)\n",
               disc, werr, sm, mtot, sj, d.rho * 2 * I * d.length);
        expect(werr < 1e-12 && fabs(sm - mtot) < 1e-12 * mtot && fabs(sj - d.rho * 2 * I * d.length) < 1e-12 * sj,
               "lumped masses");
        xpbd_rod_free(&rod);
    }
}

/* A curved rest shape clamped at one end and left alone does not move. */
static void test_rest_state(void)
{
    double arc[3 * 40];
    for (int i = 0; i < 40; i++) { /* a quarter circle with a rise */
        double t = 0.5 * PI * i / 39;
        arc[3 * i] = cos(t);
        arc[3 * i + 1] = sin(t);
        arc[3 * i + 2] = 0.2 * t;
    }
    for (int shape = XPBD_ROD_HELIX; shape <= XPBD_ROD_POINTS; shape++)
        for (int disc = XPBD_ROD_RIGID; disc <= XPBD_ROD_CUBIC; disc++) {
            xpbd_rod_desc d;
            xpbd_rod rod;
            xpbd_rod_desc_default(&d);
            d.disc = (xpbd_rod_discretization)disc;
            d.elements = 6;
            d.shape = (xpbd_rod_shape)shape;
            d.coil_radius = 0.1;
            d.pitch = 0.05;
            d.turns = 1.5;
            d.npoints = 40;
            d.points = arc;
            d.end[0].hold = 1;
            init(&rod, &d);
            xpbd_rod_settle(&rod, 0.05, 50, 0);
            double moved = 0;
            for (int j = 0; j < 3 * rod.nnode; j++) moved = fmax(moved, fabs(rod.p[j] - rod.p0[j]));
            printf("%s rest shape, order %d: largest drift after 50 steps %.1e m\n",
                   shape == XPBD_ROD_HELIX ? "helix" : "points", disc, moved);
            expect(moved < 1e-12, "rest shape is stress-free");
            xpbd_rod_free(&rod);
        }
}

/* The §9.2 cantilever along +x under gravity. */
static void cantilever(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel)
{
    rod_cantilever_desc(d, disc, nel);
    d->iterations = 4;
}

static void static_tip(xpbd_rod_discretization disc, int nel, double tip[3])
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    cantilever(&d, disc, nel);
    init(&rod, &d);
    xpbd_rod_settle(&rod, 0.2, 2000, 1e-14);
    memcpy(tip, rod.p + 3 * (rod.nnode - 1), 3 * sizeof(double));
    xpbd_rod_free(&rod);
}

/* Fig. 11: one banded solve per iteration holds the converged stiffness of
 * a 5-element cubic cantilever at dt = 1e-2 s; one Gauss–Seidel sweep sags. */
static void test_fig11(void)
{
    double ref[3], tip[2];
    static_tip(XPBD_ROD_CUBIC, 5, ref);
    for (int s = 0; s < 2; s++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        cantilever(&d, XPBD_ROD_CUBIC, 5);
        d.iterations = 1;
        d.dt = 1e-2;
        d.damping = 1e6;
        d.solver = s ? XPBD_ROD_GAUSS_SEIDEL : XPBD_ROD_BANDED;
        init(&rod, &d);
        for (int k = 0; k < 300; k++) xpbd_rod_step(&rod);
        tip[s] = rod.p[3 * (rod.nnode - 1) + 2];
        xpbd_rod_free(&rod);
    }
    printf("Fig. 11: static tip height %.5f m; after 3 s, banded 1 iteration %.5f m, Gauss-Seidel 1 iteration "
           "%.5f m\n",
           ref[2], tip[0], tip[1]);
    expect(fabs(tip[0] - ref[2]) < 0.01 * fabs(ref[2]), "banded solve keeps the converged stiffness");
    expect(fabs(tip[1] - ref[2]) > 0.5 * fabs(ref[2]), "one Gauss-Seidel sweep is not converged");
}

/* §9.3 at L/r = 100: Timoshenko deflection d = 0.02 L. */
static double locking_error(xpbd_rod_discretization disc, int nel, int full)
{
    const double r = 0.01, P = 1.0, nu = 0.3, L = 100 * r;
    double A = PI * r * r, I = 0.25 * PI * r * r * r * r, kappa = 6 * (1 + nu) / (7 + 6 * nu);
    xpbd_rod_desc d;
    xpbd_rod rod;
    cantilever(&d, disc, nel);
    d.gravity[2] = 0;
    d.length = L;
    d.diameter = 2 * r;
    d.nu = nu;
    d.E = P / (0.02 * L) * (L * L * L / (3 * I) + 2 * (1 + nu) * L / (kappa * A));
    d.full_integration = full;
    init(&rod, &d);
    rod.fext[6 * (rod.nnode - 1) + 5] = -P;
    xpbd_rod_settle(&rod, 0.2, 5000, 1e-14);
    double e = fabs(-rod.p[3 * (rod.nnode - 1) + 2] - 0.02 * L) / (0.02 * L);
    xpbd_rod_free(&rod);
    return e;
}

static void test_locking(void)
{
    double q = locking_error(XPBD_ROD_QUADRATIC, 1, 0), c = locking_error(XPBD_ROD_CUBIC, 1, 0);
    double lf = locking_error(XPBD_ROD_LINEAR, 3, 1), qf = locking_error(XPBD_ROD_QUADRATIC, 1, 1);
    printf("L/r = 100: reduced 1 quadratic %.3f%%, 1 cubic %.3f%%; full 3 linear %.1f%%, 1 quadratic %.1f%%\n", 100 * q,
           100 * c, 100 * lf, 100 * qf);
    expect(q < 0.005 && c < 0.005, "reduced integration within 0.5% of Timoshenko");
    expect(lf > 0.5 && qf > 0.5, "full integration locks");
}

/* §9.2: fitted orders of the tip error against a 40-element cubic rod. */
static void test_convergence(void)
{
    static const int nels[4][3] = { { 8, 16, 32 }, { 8, 16, 32 }, { 4, 6, 8 }, { 3, 4, 5 } };
    static const double want[4] = { 2, 2, 4, 6 };
    double ref[3], err[4][3];
    static_tip(XPBD_ROD_CUBIC, 40, ref);
    for (int disc = 0; disc < 4; disc++) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < 3; i++) {
            double tip[3], x = log(1.0 / nels[disc][i]);
            static_tip((xpbd_rod_discretization)disc, nels[disc][i], tip);
            err[disc][i] = hypot(hypot(tip[0] - ref[0], tip[1] - ref[1]), tip[2] - ref[2]);
            sx += x;
            sy += log(err[disc][i]);
            sxx += x * x;
            sxy += x * log(err[disc][i]);
        }
        double k = (3 * sxy - sx * sy) / (3 * sxx - sx * sx);
        printf("order %d, %d/%d/%d elements: tip errors %.2e %.2e %.2e, fitted order %.2f\n", disc, nels[disc][0],
               nels[disc][1], nels[disc][2], err[disc][0], err[disc][1], err[disc][2], k);
        expect(fabs(k - want[disc]) < 0.5, "convergence order");
    }
    expect(err[1][0] < err[0][0] && err[1][1] < err[0][1], "linear elements beat the rigid chain at equal DOF");
}

/* A rod clamped to a free rigid body of an xpbd world (two-way coupled,
 * damped): total linear momentum is conserved and the end stays on the body. */
static void test_body_coupling(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_rod_desc rd;
    xpbd_rod rod;
    char err[128];
    xpbd_model_alloc(&m, 1, 0);
    m.bodies[0].mass = 2;
    for (int k = 0; k < 3; k++) m.bodies[0].inertia[4 * k] = 0.02;
    m.bodies[0].v[0] = 0.5;
    m.bodies[0].v[2] = 0.2;
    m.bodies[0].w[1] = 3;
    m.bodies[0].w[2] = 1;
    m.params.iterations = 2;
    xpbd_model_finalize(&m, err, sizeof err);
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    xpbd_rod_desc_default(&rd);
    rd.disc = XPBD_ROD_CUBIC;
    rd.elements = 3;
    rd.length = 0.5;
    rd.diameter = 0.02;
    rd.E = 1e7;
    rd.damping = 1e4;
    rd.end[0].hold = rd.end[0].on_body = 1;
    init(&rod, &rd);
    if (xpbd_rod_attach(&rod, &m, &d, err, sizeof err)) printf("FAIL attach: %s\n", err);
    xpbd_rod *rods[1] = { &rod };
    d.rods = rods;
    d.nrod = 1;
    double P0[3] = { 0 }, P1[3] = { 0 }, Prod[3] = { 0 }, gap = 0, pt[3], Rt[9];
    for (int k = 0; k < 3; k++) P0[k] = m.bodies[0].mass * d.v[k];
    for (int s = 0; s < 200; s++) {
        xpbd_step(&m, &d);
        rod_clamp_target(&rod, 0, rod.t, pt, Rt);
        for (int k = 0; k < 3; k++) gap = fmax(gap, fabs(rod.p[k] - pt[k]));
    }
    for (int k = 0; k < 3; k++) {
        P1[k] = m.bodies[0].mass * d.v[k];
        for (int j = 0; j < rod.nnode; j++) Prod[k] += rod.mass[j] * rod.v[3 * j + k];
        P1[k] += Prod[k];
    }
    double dP = hypot(hypot(P1[0] - P0[0], P1[1] - P0[1]), P1[2] - P0[2]);
    printf("rod on a free body, 2 s: momentum change %.1e of %.3f kg m/s, largest end-to-body gap %.1e m, rod "
           "momentum %.3f kg m/s\n",
           dP, hypot(P0[0], P0[2]), gap, hypot(hypot(Prod[0], Prod[1]), Prod[2]));
    expect(dP < 1e-9 && gap < 1e-6, "two-way coupling conserves momentum and holds the end");
    expect(hypot(hypot(Prod[0], Prod[1]), Prod[2]) > 0.03, "the body carries the rod along");
    xpbd_rod_free(&rod);
    xpbd_data_free(&d);
    xpbd_model_free(&m);
}

/* Fall angle θ(t) of a rigid rod pinned at one end, released horizontal:
 * (m L²/3 + ρ I_y L) θ̈ = m g (L/2) cos θ (its rotary inertia included),
 * by RK4 with 1e-5 s steps. */
static double pendulum_angle(double t, double m, double L, double Jrot, double g)
{
    double th = 0, w = 0, h = 1e-5, k = m * g * 0.5 * L / (m * L * L / 3 + Jrot);
    int n = (int)lround(t / h);
    for (int i = 0; i < n; i++) {
        double a1 = k * cos(th), a2 = k * cos(th + 0.5 * h * w), a3 = k * cos(th + 0.5 * h * (w + 0.5 * h * a1));
        double a4 = k * cos(th + h * (w + 0.5 * h * a2));
        th += h * w + h * h / 6 * (a1 + a2 + a3);
        w += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    }
    return th;
}

/* A stiff cubic rod pinned at its root (XPBD_ROD_PIN: the root's position
 * held, its orientation free), released horizontal under gravity, swings as
 * a rigid pendulum: the root stays at its target to roundoff (the pin's rows
 * are linear in p) while its frame turns with the rod.  Row-sum lumping of
 * cubic elements gives the continuous rod's Σ m x and Σ m x² exactly, so the
 * difference to the pendulum is the time step (O(h)) and the rod's bending.
 * Banded with damping (the pin in the velocity solve must not hold the
 * rotation), and Gauss–Seidel, whose later blocks move the root again after
 * the pin's (so there it holds only to the sweep's convergence). */
static void test_pinned_pendulum(void)
{
    const double T = 0.4, want_tol[2] = { 1e-12, 1e-5 };
    for (int gs = 0; gs < 2; gs++) {
        xpbd_rod_desc d;
        xpbd_rod rod;
        rod_cantilever_desc(&d, XPBD_ROD_CUBIC, 4);
        d.end[0].hold = XPBD_ROD_PIN;
        d.diameter = 0.02;
        d.E = 1e11;
        d.nu = 0.3;
        d.damping = gs ? 0 : 1e5;
        d.dt = 1e-3;
        d.iterations = gs ? 100 : 2;
        d.solver = gs ? XPBD_ROD_GAUSS_SEIDEL : XPBD_ROD_BANDED;
        init(&rod, &d);
        double gap = 0, pt[3], Rt[9], mtot = 0, rot[3];
        for (int j = 0; j < rod.nnode; j++) mtot += rod.mass[j];
        int steps = (int)lround(T / d.dt);
        for (int s = 0; s < steps; s++) {
            xpbd_rod_step(&rod);
            rod_clamp_target(&rod, 0, rod.t, pt, Rt);
            for (int k = 0; k < 3; k++) gap = fmax(gap, fabs(rod.p[k] - pt[k]));
        }
        const double *tip = rod.p + 3 * (rod.nnode - 1);
        double r = 0.5 * d.diameter, Jrot = d.rho * 0.25 * PI * r * r * r * r * d.length;
        double th_tip = atan2(-tip[2], tip[0]), th_pend = pendulum_angle(T, mtot, d.length, Jrot, 9.81);
        so3_minus(rod.R, rod.R0, rot);
        double th_root = v3_norm(rot);
        printf("pinned root, %s: after %.1f s root off its target by %.1e m, root frame turned %.4f rad, tip "
               "chord %.4f rad, rigid pendulum %.4f rad (%+.2f %%)\n",
               gs ? "Gauss-Seidel 100 iterations" : "banded 2 iterations, damped", T, gap, th_root, th_tip, th_pend,
               100 * (th_tip - th_pend) / th_pend);
        expect(gap < want_tol[gs], "a pinned end holds its position");
        expect(fabs(th_root - th_tip) < 0.01 * th_tip, "the pinned root turns with the rod");
        expect(fabs(th_tip - th_pend) < 0.02 * th_pend, "a pinned stiff rod swings as a rigid pendulum");
        xpbd_rod_free(&rod);
    }
}

int main(void)
{
    test_masses();
    test_rest_state();
    test_fig11();
    test_locking();
    test_convergence();
    test_body_coupling();
    test_pinned_pendulum();
    printf(failures ? "%d FAILURES\n" : "all passed\n", failures);
    return failures != 0;
}
