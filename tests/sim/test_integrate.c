/* test_integrate.c — asserted order of the two integrators (core/sim).
 *
 *   test_integrate FILE [T DT]
 *
 * From a seeded random state (qd scaled by 1/4, tau = 0, no fext), run
 * semi-implicit Euler and Störmer–Verlet for T seconds at DT and DT/2 with the
 * ABA engine and record each run's energy excursion max|E(t) - E(0)|.  The
 * excursion ratio between DT and DT/2 must be 2.00 +- 0.05 for Euler (first
 * order) and 4.00 +- 0.1 for Verlet (second order) — both schemes measured,
 * so a Verlet that were quietly first order could not pass by retargeting one
 * band.  An excursion below the noise floor, 1e-11 of the energy scale
 * KE(0) + sum m |g| (1 m), is round-off, not truncation (dynamics README, "Second-order
 * stepping"): such a scheme passes as exact and its ratio is not gated.
 * Exit 0 on pass, 1 on failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/energy.h"
#include "rbda/sample.h"
#include "sim/integrate.h"
#include "spatial/spatial.h"

#include "test_support.h"

static double excursion(const mech_model *m, aba_engine *ae, dense_ws *dws, const double *q0, const double *qd0,
                        int verlet, double T, double dt)
{
    size_t nq = (size_t)m->nq + 1, nv = (size_t)m->nv + 1;
    double *q = calloc(nq, sizeof *q), *qd = calloc(nv, sizeof *qd), *tau = calloc(nv, sizeof *tau);
    double *qdd = calloc(nv, sizeof *qdd), *vmid = calloc(nv, sizeof *vmid);
    memcpy(q, q0, (nq - 1) * sizeof *q);
    memcpy(qd, qd0, (nv - 1) * sizeof *qd);
    double E0 = mech_energy(m, dws, q, qd, NULL, NULL), exc = 0;
    aba_engine_fd(ae, q, qd, tau, NULL, qdd); /* Verlet's first predictor */
    long steps = lround(T / dt);
    for (long s = 0; s < steps; s++) {
        if (verlet) mech_step_verlet(m, aba_engine_fd, ae, q, qd, tau, NULL, qdd, vmid, dt);
        else mech_step_euler(m, aba_engine_fd, ae, q, qd, tau, NULL, qdd, dt);
        exc = fmax(exc, fabs(mech_energy(m, dws, q, qd, NULL, NULL) - E0));
    }
    free(q);
    free(qd);
    free(tau);
    free(qdd);
    free(vmid);
    return exc;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: test_integrate FILE [T DT]\n");
        return 2;
    }
    mech_model *m = test_load_model(argv[1]);
    double T = argc == 4 ? atof(argv[2]) : 0.5, dt = argc == 4 ? atof(argv[3]) : 1e-4;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    aba_engine ae = { m, aws };
    double *q = calloc((size_t)m->nq + 1, sizeof *q), *qd = calloc((size_t)m->nv + 1, sizeof *qd);
    mech_rng rng;
    double KE, scale = 0;
    mech_rng_seed(&rng, 2024);
    mech_sample_state(m, &rng, q, qd, NULL, NULL);
    for (int k = 0; k < m->nv; k++) qd[k] *= 0.25;
    mech_energy(m, dws, q, qd, &KE, NULL);
    for (int i = 0; i < m->nb; i++) scale += m->bodies[i].mass * v3_norm(m->gravity);
    scale += KE;
    double floor = 1e-11 * scale;
    static const char *const names[2] = { "Euler", "Verlet" };
    static const double want[2] = { 2.0, 4.0 }, tol[2] = { 0.05, 0.1 };
    int fail = 0;
    for (int s = 0; s < 2; s++) {
        double e1 = excursion(m, &ae, dws, q, qd, s, T, dt), e2 = excursion(m, &ae, dws, q, qd, s, T, dt / 2);
        int exact = e1 <= floor && e2 <= floor, ok = exact || fabs(e1 / e2 - want[s]) <= tol[s];
        printf("%s: %-6s T %g s: energy excursion %.3e J (dt %g), %.3e J (dt/2), ratio %.3f (want %.2f +- %.2f; "
               "floor %.1e J)%s %s\n",
               m->name, names[s], T, e1, dt, e2, e1 / e2, want[s], tol[s], floor,
               exact ? " below the floor: exact" : "", ok ? "ok" : "FAIL");
        fail |= !ok;
    }
    printf("%s\n", fail ? "FAIL" : "PASS");
    free(q);
    free(qd);
    dense_ws_free(dws);
    aba_ws_free(aws);
    mech_model_free(m);
    return fail;
}
