/* xpbd_results.c — Tobin & Rucker §9.1 on our XPBD: for the triple pendulum
 * (100 s) and the 3-RPS robot (10 s), in the three solve modes, the mean and
 * max primal (eq. 51) and constraint (eq. 52) residuals, the residuals at
 * release (first second), when the run blows up, and µs per substep.
 * A results program, not a test: it asserts nothing. */
#include "xpbd/xpbd.h"
#include "xpbd/xpbd_scenes.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

typedef struct {
    double mean_p, max_p, mean_c, max_c, release_p, release_c, blowup_t, us_per_substep;
} run_stats;

static const char *mode_name[3] = { "vector rows", "vector block", "scalar (Muller)" };

/* Process CPU time: the machine is shared, wall time would count others' work. */
static double now_s(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Blown up: a non-finite state or a joint torn apart (constraint residual > 0.1). */
static int blown_up(const xpbd_data *d) { return !isfinite(d->primal) || !(d->constraint <= 0.1); }

static void run(const xpbd_model *m, xpbd_mode mode, double T, int driven, run_stats *st)
{
    xpbd_data d;
    if (xpbd_data_alloc(&d, m, mode)) return;
    if (driven) d.target_fn = xpbd_3rps_target;
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
     * fastest of chunks of 200 steps (the machine may be shared). */
    int tsteps = st->blowup_t > 0 ? n : steps;
    double best = 1e300;
    d.record_residuals = 0;
    for (int rep = 0; rep < 3; rep++) {
        xpbd_data_reset(&d, m);
        for (int s0 = 0; s0 + 200 <= tsteps; s0 += 200) {
            double t0 = now_s();
            for (int s = 0; s < 200; s++) xpbd_step(m, &d);
            best = fmin(best, now_s() - t0);
        }
    }
    st->us_per_substep = 1e6 * best / (200.0 * m->params.substeps);
    xpbd_data_free(&d);
}

static void scene(const char *name, int (*build)(xpbd_model *), double T, int driven, double paper_us)
{
    xpbd_model m;
    if (build(&m)) {
        printf("%s: scene failed to build\n", name);
        return;
    }
    run_stats st[3];
    for (int mode = 0; mode < 3; mode++) run(&m, (xpbd_mode)mode, T, driven, &st[mode]);
    printf("\n%s: %.0f s, dt %.4g s, %d substeps, %d iteration(s)\n", name, T, m.params.dt, m.params.substeps,
           m.params.iterations);
    printf("%-16s %11s %11s %11s %11s %11s %11s %9s %8s\n", "mode", "primal@1s", "primal", "primal max",
           "constr@1s", "constr", "constr max", "blow-up", "us/sub");
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
    xpbd_model_free(&m);
}

int main(void)
{
    scene("triple pendulum", xpbd_scene_triple_pendulum, 100.0, 0, 1.29);
    scene("3-RPS robot", xpbd_scene_3rps, 10.0, 1, 3.41);
    return 0;
}
