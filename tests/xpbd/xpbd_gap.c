/* xpbd_gap.c — one mechanism, two engines: the trajectory gap between XPBD
 * (core/xpbd/xpbd_from_model.h) and the Featherstone simulation of the same
 * .mech file.
 *
 *   xpbd_gap FILE [T [SUBSTEPS]]
 *
 * Reference: ABA + Störmer–Verlet at 1e-5 s.  XPBD runs with the file's
 * substeps (or SUBSTEPS) and iterations at its step dt and at dt/2 (the substep halves
 * too).  The gap is the largest distance between a body origin's world
 * position on the two engines, over all bodies, sampled every 2 dt over T
 * (default 2 s).  Passes when both gaps are finite and the dt/2 gap is
 * below the dt gap by a factor > 1.5 (first order gives 2).
 * Exit 0 on pass, 1 on failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/energy.h"
#include "sim/integrate.h"
#include "xpbd/xpbd_from_model.h"

#include "test_support.h"

#define REF_DT 1e-5

/* Reference body poses at the sample times k·dts, k = 0..ns. */
static double *reference(const mech_model *m, double dts, int ns)
{
    size_t nq = (size_t)m->nq + 1, nv = (size_t)m->nv + 1;
    double *q = calloc(nq, sizeof *q), *qd = calloc(nv, sizeof *qd), *tau = calloc(nv, sizeof *tau);
    double *qdd = calloc(nv, sizeof *qdd), *vmid = calloc(nv, sizeof *vmid);
    double *out = calloc(7 * (size_t)m->nb * (size_t)(ns + 1), sizeof *out);
    aba_engine ae = { m, aba_ws_new(m) };
    if (!q || !qd || !tau || !qdd || !vmid || !out || !ae.ws) {
        free(out);
        out = NULL;
    } else {
        mech_model_initial_state(m, q, qd);
        aba_engine_fd(&ae, q, qd, tau, NULL, qdd);
        long per = lround(dts / REF_DT);
        mech_body_poses(m, q, out);
        for (int k = 1; k <= ns; k++) {
            for (long s = 0; s < per; s++) mech_step_verlet(m, aba_engine_fd, &ae, q, qd, tau, NULL, qdd, vmid, REF_DT);
            mech_body_poses(m, q, out + 7 * (size_t)m->nb * (size_t)k);
        }
    }
    aba_ws_free(ae.ws);
    free(q);
    free(qd);
    free(tau);
    free(qdd);
    free(vmid);
    return out;
}

/* Max distance of body origins between XPBD at step dt and the reference. */
static double gap(const mech_model *mm, const double *ref, double dts, int ns, double dt)
{
    xpbd_mech x;
    xpbd_data d;
    mech_error err = { .file = "" };
    if (xpbd_from_model(mm, &x, &err)) {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "xpbd_gap: %s\n", msg);
        return NAN;
    }
    double *pose = malloc(7 * (size_t)mm->nb * sizeof *pose), g = 0;
    if (!pose || xpbd_mech_data(&x, x.mode, &d)) {
        free(pose);
        xpbd_mech_free(&x);
        return NAN;
    }
    d.dt = dt; /* the run's step; the scene keeps the file's */
    long per = lround(dts / dt);
    for (int k = 1; k <= ns; k++) {
        for (long s = 0; s < per; s++) xpbd_step(&x.m, &d);
        xpbd_mech_poses(mm, &d, pose);
        const double *r = ref + 7 * (size_t)mm->nb * (size_t)k;
        for (int i = 0; i < mm->nb; i++) {
            double e = 0;
            for (int c = 0; c < 3; c++) e += (pose[7 * i + c] - r[7 * i + c]) * (pose[7 * i + c] - r[7 * i + c]);
            g = fmax(g, sqrt(e));
            if (!isfinite(e)) g = NAN;
        }
    }
    /* The joint coordinates read back from the XPBD state reproduce its
     * poses up to the joints' violation. */
    double *q = calloc((size_t)mm->nq + 1, sizeof *q), *qd = calloc((size_t)mm->nv + 1, sizeof *qd);
    double *fk = malloc(7 * (size_t)mm->nb * sizeof *fk), dev = 0;
    if (q && qd && fk) {
        xpbd_mech_joint_state(mm, &d, q, qd);
        mech_body_poses(mm, q, fk);
        for (int i = 0; i < mm->nb; i++)
            for (int c = 0; c < 3; c++) dev = fmax(dev, fabs(fk[7 * i + c] - pose[7 * i + c]));
        printf("  dt %g: joint coordinates read back reproduce the XPBD poses within %.1e m\n", dt, dev);
        if (!(dev < 1e-3)) g = NAN;
    } else g = NAN;
    free(q);
    free(qd);
    free(fk);
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    free(pose);
    return g;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: xpbd_gap FILE [T [SUBSTEPS]]\n");
        return 2;
    }
    mech_model *m = test_load_model(argv[1]);
    if (argc == 4) m->xpbd.substeps = atoi(argv[3]);
    double T = argc >= 3 ? atof(argv[2]) : 2.0, dt = m->xpbd.dt, dts = 2 * dt;
    int ns = (int)lround(T / dts);
    double *ref = reference(m, dts, ns);
    if (!ref) {
        fprintf(stderr, "xpbd_gap: out of memory\n");
        mech_model_free(m);
        return 2;
    }
    double g1 = gap(m, ref, dts, ns, dt), g2 = gap(m, ref, dts, ns, dt / 2);
    int pass = isfinite(g1) && isfinite(g2) && g1 > 1.5 * g2;
    printf("%s: %d substeps, %d iteration(s), T = %g s: gap %.3e m at dt = %g s, %.3e m at dt/2; ratio %.2f %s\n",
           m->name, m->xpbd.substeps, m->xpbd.iterations, T, g1, dt, g2, g1 / g2, pass ? "ok" : "FAIL");
    free(ref);
    mech_model_free(m);
    return pass ? 0 : 1;
}
