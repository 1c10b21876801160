/* test_rod_gradients.c — every rod constraint gradient against central
 * finite differences of its own value, under the perturbations the solver
 * applies (p + ε e_k, R ⊞ ε e_k): the rigid chain (F.4, F.5), linear,
 * quadratic and cubic elements with reduced and full integration, straight
 * and helical rest shapes, at randomly deformed states, and the end clamps
 * and pins (a pin's rotation rows must be exactly zero).  Also d(Γ(ψ)a)/dψ
 * from |ψ| = 1e-4 to 3. */
#include "spatial/so3.h"
#include "spatial/spatial.h"
#include "xpbd/rod_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

static void check(const char *what, double err, double tol, double *worst)
{
    if (err > *worst) *worst = err;
    if (!(err <= tol)) {
        printf("FAIL %s: error %.3e > %.1e\n", what, err, tol);
        failures++;
    }
}

static void test_jr_derivative(void)
{
    const double mags[] = { 1e-4, 0.05, 0.099, 0.101, 0.7, 2.0, 3.0 };
    double worst = 0;
    for (size_t i = 0; i < sizeof mags / sizeof mags[0]; i++)
        for (int trial = 0; trial < 20; trial++) {
            double psi[3], a[3], Q[9], n;
            for (int k = 0; k < 3; k++) {
                psi[k] = urand();
                a[k] = urand();
            }
            n = v3_norm(psi);
            for (int k = 0; k < 3; k++) psi[k] *= mags[i] / n;
            rod_jr_apply_derivative(psi, a, Q);
            for (int c = 0; c < 3; c++) {
                double pp[3], pm[3], Jp[9], Jm[9], yp[3], ym[3], eps = 1e-6;
                memcpy(pp, psi, sizeof pp);
                memcpy(pm, psi, sizeof pm);
                pp[c] += eps;
                pm[c] -= eps;
                so3_jr(pp, Jp);
                so3_jr(pm, Jm);
                m3_mulv(Jp, a, yp);
                m3_mulv(Jm, a, ym);
                for (int r = 0; r < 3; r++) {
                    char what[64];
                    snprintf(what, sizeof what, "dGamma |psi|=%g", mags[i]);
                    check(what, fabs((yp[r] - ym[r]) / (2 * eps) - Q[3 * r + c]), 1e-8, &worst);
                }
            }
        }
    printf("d(Gamma a)/dpsi: worst FD error %.2e\n", worst);
}

static void perturb(xpbd_rod *rod, int j, int c, double eps)
{
    if (c < 3) rod->p[3 * j + c] += eps;
    else {
        double e[3] = { 0 };
        e[c - 3] = eps;
        so3_plus(rod->R + 9 * j, e, rod->R + 9 * j);
    }
}

/* A pin block's rows 3–5 (rod_end_rows): value and gradients (by the node
 * and by a body) exactly zero. */
static void check_pin_rows(const rod_block *b)
{
    int nonzero = 0;
    for (int r = 3; r < 6; r++) {
        nonzero |= b->C[r] != 0;
        for (int q = 0; q < 6; q++) nonzero |= b->G[0][r][q] != 0 || b->Gb[r][q] != 0;
    }
    if (nonzero) {
        printf("FAIL a pin block has a nonzero rotation row\n");
        failures++;
    }
}

/* All blocks of one rod at a random deformed state (both ends clamped, or
 * both pinned); returns the worst error relative to the gradient's largest
 * entry. */
static double check_rod(xpbd_rod_discretization disc, int full, xpbd_rod_shape shape, int hold)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    char err[128];
    xpbd_rod_desc_default(&d);
    d.disc = disc;
    d.full_integration = full;
    d.elements = 3;
    d.shape = shape;
    d.coil_radius = 0.1;
    d.pitch = 0.05;
    d.turns = 0.7;
    d.end[0].hold = d.end[1].hold = hold;
    d.end[1].move[0] = 0.03;
    d.end[1].twist = hold == XPBD_ROD_PIN ? 0 : 0.4;
    if (xpbd_rod_init(&rod, &d, err, sizeof err)) {
        printf("FAIL init: %s\n", err);
        failures++;
        return 0;
    }
    rod.t = 1; /* clamp targets at their full move and twist */
    for (int j = 0; j < rod.nnode; j++)
        for (int c = 0; c < 6; c++) perturb(&rod, j, c, (c < 3 ? 0.2 * rod.l : 0.4) * urand());
    double worst = 0, eps = 1e-6;
    for (int c = 0; c < rod.ncon; c++) {
        rod_block b, bp, bm;
        rod_block_eval(&rod, c, &b);
        if (hold == XPBD_ROD_PIN && rod_block_end(&rod, c) >= 0) check_pin_rows(&b);
        double gmax = 0;
        for (int k = 0; k < b.nn; k++)
            for (int r = 0; r < 6; r++)
                for (int q = 0; q < 6; q++) gmax = fmax(gmax, fabs(b.G[k][r][q]));
        for (int k = 0; k < b.nn; k++)
            for (int q = 0; q < 6; q++) {
                double p[3], R[9];
                int j = b.node0 + k;
                memcpy(p, rod.p + 3 * j, sizeof p);
                memcpy(R, rod.R + 9 * j, sizeof R);
                perturb(&rod, j, q, eps);
                rod_block_eval(&rod, c, &bp);
                memcpy(rod.p + 3 * j, p, sizeof p);
                memcpy(rod.R + 9 * j, R, sizeof R);
                perturb(&rod, j, q, -eps);
                rod_block_eval(&rod, c, &bm);
                memcpy(rod.p + 3 * j, p, sizeof p);
                memcpy(rod.R + 9 * j, R, sizeof R);
                for (int r = 0; r < 6; r++) {
                    double fd = (bp.C[r] - bm.C[r]) / (2 * eps), e = fabs(fd - b.G[k][r][q]) / gmax;
                    if (e > worst) worst = e;
                }
            }
    }
    xpbd_rod_free(&rod);
    return worst;
}

/* The clamp (or pin) of a rod end to a world body: gradients by the node
 * and by the body, at random body and node poses. */
static double check_body_clamp(int hold)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_rod_desc rd;
    xpbd_rod rod;
    char err[128];
    xpbd_model_alloc(&m, 1, 0);
    m.bodies[0].mass = 2;
    for (int k = 0; k < 3; k++) m.bodies[0].inertia[4 * k] = 0.1 + 0.05 * k;
    m.bodies[0].p[0] = 0.3;
    xpbd_model_finalize(&m, err, sizeof err);
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    xpbd_rod_desc_default(&rd);
    rd.disc = XPBD_ROD_QUADRATIC;
    rd.elements = 2;
    rd.end[0].hold = hold;
    rd.end[0].on_body = 1;
    rd.end[0].body = 0;
    xpbd_rod_init(&rod, &rd, err, sizeof err);
    xpbd_rod_attach(&rod, &m, &d, err, sizeof err);
    double th[3] = { urand(), urand(), urand() };
    so3_plus(d.R, th, d.R);
    for (int c = 0; c < 6; c++) perturb(&rod, 0, c, 0.3 * urand());
    rod_block b, bp, bm;
    rod_block_eval(&rod, 0, &b);
    if (hold == XPBD_ROD_PIN) check_pin_rows(&b);
    double worst = 0, eps = 1e-6;
    for (int side = 0; side < 2; side++)
        for (int q = 0; q < 6; q++) {
            double p[3], R[9], *pp = side ? d.p : rod.p, *RR = side ? d.R : rod.R;
            memcpy(p, pp, sizeof p);
            memcpy(R, RR, sizeof R);
            for (int sgn = 0; sgn < 2; sgn++) {
                double e = sgn ? -eps : eps;
                if (q < 3) pp[q] += e;
                else {
                    double v[3] = { 0 };
                    v[q - 3] = e;
                    so3_plus(RR, v, RR);
                }
                rod_block_eval(&rod, 0, sgn ? &bm : &bp);
                memcpy(pp, p, sizeof p);
                memcpy(RR, R, sizeof R);
            }
            for (int r = 0; r < 6; r++) {
                double an = side ? b.Gb[r][q] : b.G[0][r][q];
                worst = fmax(worst, fabs((bp.C[r] - bm.C[r]) / (2 * eps) - an));
            }
        }
    xpbd_rod_free(&rod);
    xpbd_data_free(&d);
    xpbd_model_free(&m);
    return worst;
}

int main(void)
{
    static const char *names[] = { "rigid", "linear", "quadratic", "cubic" };
    srand(7);
    test_jr_derivative();
    for (int disc = XPBD_ROD_RIGID; disc <= XPBD_ROD_CUBIC; disc++)
        for (int full = 0; full <= (disc != XPBD_ROD_RIGID); full++)
            for (int shape = XPBD_ROD_STRAIGHT; shape <= XPBD_ROD_HELIX; shape++) {
                double worst = 0;
                for (int trial = 0; trial < 10; trial++)
                    worst = fmax(worst,
                                 check_rod((xpbd_rod_discretization)disc, full, (xpbd_rod_shape)shape, XPBD_ROD_CLAMP));
                char what[96];
                snprintf(what, sizeof what, "%s %s %s", names[disc], full ? "full" : "reduced",
                         shape ? "helix" : "straight");
                printf("%-30s worst relative FD error %.2e\n", what, worst);
                double dummy = 0;
                check(what, worst, 1e-7, &dummy);
            }
    double wb = 0;
    for (int trial = 0; trial < 20; trial++) wb = fmax(wb, check_body_clamp(XPBD_ROD_CLAMP));
    printf("%-30s worst FD error %.2e\n", "clamp to a world body", wb);
    check("clamp to a world body", wb, 1e-8, &wb);
    for (int disc = XPBD_ROD_RIGID; disc <= XPBD_ROD_CUBIC; disc++) {
        double worst = 0;
        for (int shape = XPBD_ROD_STRAIGHT; shape <= XPBD_ROD_HELIX; shape++)
            for (int trial = 0; trial < 5; trial++)
                worst = fmax(worst, check_rod((xpbd_rod_discretization)disc, 0, (xpbd_rod_shape)shape, XPBD_ROD_PIN));
        char what[96];
        snprintf(what, sizeof what, "%s, both ends pinned", names[disc]);
        printf("%-30s worst relative FD error %.2e\n", what, worst);
        double dummy = 0;
        check(what, worst, 1e-7, &dummy);
    }
    double wp = 0;
    for (int trial = 0; trial < 20; trial++) wp = fmax(wp, check_body_clamp(XPBD_ROD_PIN));
    printf("%-30s worst FD error %.2e\n", "pin to a world body", wp);
    check("pin to a world body", wp, 1e-8, &wp);
    printf(failures ? "%d FAILURES\n" : "all passed\n", failures);
    return failures != 0;
}
