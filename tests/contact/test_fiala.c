/* test_fiala.c — the Fiala tire law (core/contact/tire.c) against its closed
 * forms written out independently here (Project Chrono's Fiala tire, after
 * the MSC Adams transient Fiala model; docs/contact.md "Tires"):
 *   longitudinal  Fx = CSLIP k below the critical slip U Fz / (2 CSLIP), else
 *                 sign(k) (U Fz - (U Fz)^2 / (4 |k| CSLIP));
 *   lateral       Fy = -(CALPHA t - CALPHA^2 |t| t / (3 U Fz) + CALPHA^3 t^3 / (27 (U Fz)^2))
 *                 below tan(alpha_crit) = 3 U Fz / CALPHA (the cubic 1 - H^3 expanded), else
 *                 -U Fz sign(t); Mz = U Fz w (1 - H) H^3 sign(t) below, 0 above;
 *   combined      U = scale (UMAX - (UMAX - UMIN) min(1, sqrt(k^2 + t^2))) in both;
 *   standing      a combined slip of at least ssa_min = 1: U = scale UMIN (the stage's law at rest);
 * and the vertical curve's force and energy (the trapezoid sum of its segments).
 * Each at fixed load over slips through the linear and saturated regions; every figure relative to the
 * force scale U Fz, gate 1e-12. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact/tire.h"
#include "contact_gates.h"

#define GATE 1e-12

/* The HMMWV's Fiala parameters (tire/HMMWV_FialaTire.json, Project Chrono). */
static mech_tire hmmwv_tire(void)
{
    static const double curve[][2] = { { 0, 0 },        { 0.005, 585 },   { 0.01, 1286 },  { 0.015, 2352 },
                                       { 0.02, 3477 },  { 0.025, 4798 },  { 0.03, 6190 },  { 0.035, 7540 },
                                       { 0.04, 9027 },  { 0.045, 10570 }, { 0.05, 12139 }, { 0.055, 13654 },
                                       { 0.06, 15368 }, { 0.065, 16904 }, { 0.07, 18469 }, { 0.075, 20089 },
                                       { 0.08, 21699 } };
    mech_tire t;
    memset(&t, 0, sizeof t);
    t.radius = 0.47;
    t.width = 0.318;
    t.ncurve = (int)(sizeof curve / sizeof curve[0]);
    memcpy(t.curve, curve, sizeof curve);
    t.cz = 7500;
    t.cslip = 193929;
    t.calpha = 50000;
    t.umin = 0.5568;
    t.umax = 0.9835;
    t.mu = 0.8;
    t.rolling = 0.015;
    t.relax_x = t.relax_y = 2;
    return t;
}

static double closed_u(const mech_tire *t, double scale, double k, double tana)
{
    double s = sqrt(k * k + tana * tana);
    if (s > 1) s = 1;
    return scale * (t->umax - (t->umax - t->umin) * s);
}

static double closed_fx(const mech_tire *t, double uf, double k)
{
    if (fabs(k) < uf / (2 * t->cslip)) return t->cslip * k;
    double f = uf - uf * uf / (4 * fabs(k) * t->cslip);
    return k > 0 ? f : -f;
}

static void closed_fy(const mech_tire *t, double uf, double ta, double *fy, double *mz)
{
    double C = t->calpha, sg = (ta > 0) - (ta < 0);
    if (fabs(ta) > 3 * uf / C) {
        *fy = -uf * sg;
        *mz = 0;
        return;
    }
    *fy = -(C * ta - C * C * fabs(ta) * ta / (3 * uf) + C * C * C * ta * ta * ta / (27 * uf * uf));
    double H = 1 - C * fabs(ta) / (3 * uf);
    *mz = uf * t->width * (1 - H) * H * H * H * sg;
}

/* Worst relative difference over a sweep: pure longitudinal (tana 0), pure
 * lateral (kappa 0) or combined (both). */
static void sweep(const mech_tire *t, double scale, double fz, int mode, double *ex, double *ey, double *em,
                  int *saturated)
{
    *ex = *ey = *em = 0;
    *saturated = 0;
    for (int i = -400; i <= 400; i++) {
        double s = i / 400.0; /* -1 .. 1 */
        double k = mode == 1 ? 0 : s * fabs(s), ta = mode == 0 ? 0 : 0.8 * s * fabs(s);
        double fx, fy, mz;
        tire_fiala(t, scale, 0, k, ta, fz, &fx, &fy, &mz);
        double uf = closed_u(t, scale, k, ta) * fz, cfy, cmz;
        closed_fy(t, uf, ta, &cfy, &cmz);
        double cfx = closed_fx(t, uf, k);
        int satx = fabs(k) >= uf / (2 * t->cslip), saty = fabs(ta) > 3 * uf / t->calpha;
        if ((mode == 1 || satx) && (mode == 0 || saty)) *saturated = 1;
        *ex = fmax(*ex, fabs(fx - cfx) / uf);
        *ey = fmax(*ey, fabs(fy - cfy) / uf);
        *em = fmax(*em, fabs(mz - cmz) / (uf * t->width));
    }
}

int main(void)
{
    mech_tire t = hmmwv_tire();
    const char *modes[] = { "longitudinal", "lateral", "combined" };
    double loads[] = { 500, 6000, 14000 }, scales[] = { 1.0, 0.5 };
    for (int m = 0; m < 3; m++)
        for (int l = 0; l < 3; l++)
            for (int s = 0; s < 2; s++) {
                double ex, ey, em;
                int sat;
                sweep(&t, scales[s], loads[l], m, &ex, &ey, &em, &sat);
                char what[96];
                snprintf(what, sizeof what, "%s Fz %g scale %g: Fx", modes[m], loads[l], scales[s]);
                report(what, ex, GATE);
                snprintf(what, sizeof what, "%s Fz %g scale %g: Fy", modes[m], loads[l], scales[s]);
                report(what, ey, GATE);
                snprintf(what, sizeof what, "%s Fz %g scale %g: Mz", modes[m], loads[l], scales[s]);
                report(what, em, GATE);
                require("  the sweep reaches the saturated region", sat);
            }
    /* Saturation reached and the law's limits: |Fx| < U Fz, |Fy| <= U Fz. */
    double fx, fy, mz;
    tire_fiala(&t, 1, 0, 1.0, 0, 6000, &fx, &fy, &mz);
    require("locked-wheel Fx just under UMIN Fz", fx < t.umin * 6000 && fx > 0.99 * t.umin * 6000);
    tire_fiala(&t, 1, 0, 0, -1.0, 6000, &fx, &fy, &mz);
    report("full-slide Fy = UMIN Fz", fabs(fy - t.umin * 6000) / 6000, GATE);
    double es = 0;
    for (int i = -200; i <= 200; i++) {
        double k = (i / 200.0) * fabs(i / 200.0), ta = 0.5 * k, cfy, cmz, uf = t.umin * 6000;
        tire_fiala(&t, 1, 1, k, ta, 6000, &fx, &fy, &mz);
        closed_fy(&t, uf, ta, &cfy, &cmz);
        es = fmax(es, fmax(fabs(fx - closed_fx(&t, uf, k)), fmax(fabs(fy - cfy), fabs(mz - cmz) / t.width)) / uf);
    }
    report("standing (ssa_min 1): U = UMIN, Fx, Fy, Mz", es, GATE);
    tire_fiala(&t, 1, 0, 0.3, 0.2, 0, &fx, &fy, &mz);
    require("no load, no force", fx == 0 && fy == 0 && mz == 0);
    /* Vertical curve: at the table points exactly, linear between, its last
     * segment continued; energy the trapezoid sum. */
    double ef = 0, ee = 0, U = 0;
    for (int i = 1; i < t.ncurve; i++) {
        double a = t.curve[i - 1][0], b = t.curve[i][0], fa = t.curve[i - 1][1], fb = t.curve[i][1];
        for (int j = 0; j <= 10; j++) {
            double d = a + (b - a) * j / 10.0, f = fa + (fb - fa) * j / 10.0;
            ef = fmax(ef, fabs(tire_vertical_force(&t, d) - f) / 21699);
            ee = fmax(ee, fabs(tire_vertical_energy(&t, d) - (U + 0.5 * (fa + f) * (d - a))) / (21699 * 0.08));
        }
        U += 0.5 * (fa + fb) * (b - a);
    }
    double beyond = 21699 + (21699 - 20089) / 0.005 * 0.01;
    ef = fmax(ef, fabs(tire_vertical_force(&t, 0.09) - beyond) / 21699);
    report("vertical curve force (table, between, beyond)", ef, GATE);
    report("vertical curve energy (trapezoid sum)", ee, GATE);
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
