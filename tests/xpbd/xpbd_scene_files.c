/* xpbd_scene_files.c — the .mech scenes models/xpbd/{triple_pendulum,rps3}.mech
 * reproduce the C scenes of tests/xpbd/xpbd_scenes.c.
 *
 *   xpbd_scene_files DIR        (DIR holds the two files)
 *
 * Loaded through the parser and core/xpbd/xpbd_from_model.h, each file is run
 * beside its C scene for 2 s in all three solve modes.  In the vector modes
 * the CoM positions must agree within 1e-9 m and the residuals (eqs. 51, 52)
 * within 1e-6 relative plus 1e-12 absolute at every step (the poses and
 * joint frames come from rounded decimal text and quaternions, so agreement
 * is to rounding, not to the bit).  The scalar mode is printed, not gated:
 * it does not reproduce rounding-level differences (docs/xpbd.md, "Scenes
 * in the model language").
 * Exit 0 on pass, 1 on failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "xpbd/xpbd_from_model.h"
#include "xpbd_scenes.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b)) + 1e-12; }

static int compare(const char *dir, const char *file, int (*build)(xpbd_model *), xpbd_target_fn fn)
{
    static const char *const names[3] = { "rows", "block", "scalar" };
    char path[512], err[256];
    mech_error perr;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    mech_model *mm = mech_model_load(path, &perr);
    xpbd_mech x;
    xpbd_model c;
    if (!mm || xpbd_from_model(mm, &x, &perr)) {
        mech_error_format(&perr, err, sizeof err);
        fprintf(stderr, "%s: %s\n", path, err);
        mech_model_free(mm);
        return 2;
    }
    if (build(&c)) return 2;
    int fails = 0;
    for (int mode = 0; mode < 3; mode++) {
        xpbd_data df, dc;
        if (xpbd_mech_data(&x, (xpbd_mode)mode, &df) || xpbd_data_alloc(&dc, &c, (xpbd_mode)mode)) return 2;
        dc.target_fn = fn;
        df.record_residuals = dc.record_residuals = 1;
        double dp = 0, worst_p = 0, worst_c = 0;
        int ok = 1;
        for (int s = 0; s < 200; s++) {
            xpbd_step(&x.m, &df);
            xpbd_step(&c, &dc);
            for (int k = 0; k < 3 * c.nbody; k++) dp = fmax(dp, fabs(df.p[k] - dc.p[k]));
            ok &= close_to(df.primal, dc.primal) && close_to(df.constraint, dc.constraint);
            worst_p = fmax(worst_p, fabs(df.primal - dc.primal) / fmax(dc.primal, 1e-300));
            worst_c = fmax(worst_c, fabs(df.constraint - dc.constraint) / fmax(dc.constraint, 1e-300));
        }
        ok = mode == XPBD_SCALAR || (ok && dp <= 1e-9);
        printf("%s %-6s: max |dp| %.2e m, residuals rel. diff primal %.2e constraint %.2e (last: %.3e %.3e) %s\n", file,
               names[mode], dp, worst_p, worst_c, df.primal, df.constraint,
               mode == XPBD_SCALAR ? "(not gated)"
               : ok                ? "ok"
                                   : "FAIL");
        fails += !ok;
        xpbd_data_free(&df);
        xpbd_data_free(&dc);
    }
    xpbd_model_free(&c);
    xpbd_mech_free(&x);
    mech_model_free(mm);
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xpbd_scene_files DIR\n");
        return 2;
    }
    int r1 = compare(argv[1], "triple_pendulum.mech", xpbd_scene_triple_pendulum, NULL);
    int r2 = compare(argv[1], "rps3.mech", xpbd_scene_3rps, xpbd_3rps_target);
    return r1 > r2 ? r1 : r2;
}
