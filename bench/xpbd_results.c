/* xpbd_results.c — Tobin & Rucker §9.1 on our XPBD: for the triple pendulum
 * (100 s) and the 3-RPS robot (10 s), in the three solve modes, the mean and
 * max primal (eq. 51) and constraint (eq. 52) residuals, the residuals at
 * release (first second), when the run blows up, and µs per substep.
 * The scenes are models/xpbd/triple_pendulum.mech and rps3.mech, read
 * through the parser (core/xpbd/xpbd_from_model.h) from DIR:
 *
 *   xpbd_results [DIR]      default: models/xpbd of the source tree
 *
 * A results program, not a test: it asserts nothing. */
#include "model/model.h"
#include "xpbd/xpbd.h"
#include "xpbd/xpbd_from_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct {
    double mean_p, max_p, mean_c, max_c, release_p, release_c, blowup_t, us_per_substep;
} run_stats;

static const char *mode_name[3] = { "vector rows", "vector block", "scalar (Muller)" };

/* Process CPU time: the machine is shared, wall time would count others' work. */
static double now_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Blown up: a non-finite state or a joint torn apart (constraint residual > 0.1). */
static int blown_up(const xpbd_data *d) { return !isfinite(d->primal) || !(d->constraint <= 0.1); }

static void run(const xpbd_mech *x, xpbd_mode mode, double T, run_stats *st)
{
    const xpbd_model *m = &x->m;
    xpbd_data d;
    if (xpbd_mech_data(x, mode, &d)) return;
    d.record_residuals = 1;
    int steps = (int)lround(T / m->params.dt), n = 0, nrel = 0;
    *st = (run_stats){ 0 };
    st->blowup_t = -1;
    for (int s = 0; s < steps; s++) {
        xpbd_step(m, &d);
        if (blown_up(&d)) {
            st->blowup_t = d.t;
            break;
        }
        n++;
        st->mean_p += d.primal;
        st->mean_c += d.constraint;
        st->max_p = fmax(st->max_p, d.primal);
        st->max_c = fmax(st->max_c, d.constraint);
        if (d.t <= 1.0 + 1e-9) {
            nrel++;
            st->release_p += d.primal;
            st->release_c += d.constraint;
        }
    }
    st->mean_p /= n ? n : 1;
    st->mean_c /= n ? n : 1;
    st->release_p /= nrel ? nrel : 1;
    st->release_c /= nrel ? nrel : 1;

    /* Timing without residuals over the stable part of the run, as the
     * fastest of chunks of CHUNK steps (the machine may be shared).  A chunk
     * is ≥ 10⁴ substeps, so clock()'s 1 ms tick in WASM is ≤ 0.1 µs/substep. */
    enum { CHUNK = 1000 };
    int tsteps = st->blowup_t > 0 ? n : steps;
    double best = 1e300;
    d.record_residuals = 0;
    for (int rep = 0; rep < 5; rep++) {
        xpbd_data_reset(&d, m);
        for (int s0 = 0; s0 + CHUNK <= tsteps; s0 += CHUNK) {
            double t0 = now_s();
            for (int s = 0; s < CHUNK; s++) xpbd_step(m, &d);
            best = fmin(best, now_s() - t0);
        }
    }
    st->us_per_substep = 1e6 * best / ((double)CHUNK * m->params.substeps);
    xpbd_data_free(&d);
}

static void scene(const char *name, const char *dir, const char *file, double T, double paper_us)
{
    char path[1024], err[320];
    mech_error perr;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    mech_model *mm = mech_model_load(path, &perr);
    xpbd_mech x;
    if (!mm || xpbd_from_model(mm, &x, &perr)) {
        mech_error_format(&perr, err, sizeof err);
        printf("%s: %s\n", name, err);
        mech_model_free(mm);
        return;
    }
    run_stats st[3];
    for (int mode = 0; mode < 3; mode++) run(&x, (xpbd_mode)mode, T, &st[mode]);
    printf("\n%s: %.0f s, dt %.4g s, %d substeps, %d iteration(s)\n", name, T, x.m.params.dt, x.m.params.substeps,
           x.m.params.iterations);
    printf("%-16s %11s %11s %11s %11s %11s %11s %9s %8s\n", "mode", "primal@1s", "primal", "primal max", "constr@1s",
           "constr", "constr max", "blow-up", "us/sub");
    for (int k = 0; k < 3; k++) {
        char bu[32];
        if (st[k].blowup_t > 0) snprintf(bu, sizeof bu, "%.2f s", st[k].blowup_t);
        else snprintf(bu, sizeof bu, "no");
        printf("%-16s %11.3e %11.3e %11.3e %11.3e %11.3e %11.3e %9s %8.3f\n", mode_name[k], st[k].release_p,
               st[k].mean_p, st[k].max_p, st[k].release_c, st[k].mean_c, st[k].max_c, bu, st[k].us_per_substep);
    }
    printf("ratios: scalar/rows primal@1s %.3g, scalar/block primal@1s %.3g, rows/block primal (mean) %.3g, "
           "rows/block constraint (mean) %.3g\n",
           st[2].release_p / st[0].release_p, st[2].release_p / st[1].release_p, st[0].mean_p / st[1].mean_p,
           st[0].mean_c / st[1].mean_c);
    printf("paper (native C++): block %.2f us/substep\n", paper_us);
    xpbd_mech_free(&x);
    mech_model_free(mm);
}

/* models/xpbd beside this file's bench/ directory (__FILE__ is the path the
 * build compiled). */
static void default_dir(char *out, size_t cap)
{
    const char *f = __FILE__, *cut = strstr(f, "bench/xpbd_results.c");
    snprintf(out, cap, "%.*smodels/xpbd", cut ? (int)(cut - f) : 0, f);
}

int main(int argc, char **argv)
{
    char dir[1024];
    if (argc > 1) snprintf(dir, sizeof dir, "%s", argv[1]);
    else default_dir(dir, sizeof dir);
    scene("triple pendulum", dir, "triple_pendulum.mech", 100.0, 1.29);
    scene("3-RPS robot", dir, "rps3.mech", 10.0, 3.41);
    return 0;
}
