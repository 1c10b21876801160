/* test_xpbd_motor.c — a revolute drive whose target is a `ramp` signal is a
 * motor at constant speed: an eccentric rotor on a fixed base, driven at 100
 * turns per second for 0.5 s (50 turns), stays on its target angle (taken
 * modulo one turn) and turns at the target rate, with a rigid drive and with
 * a stiff compliant one (whose multiplier would otherwise grow with the
 * whole turns between the joint and its target), on the XPBD engine through
 * the public API.  The rate is an input (mech_data_xpbd_set_ramp_rate): set
 * halfway, the rotor turns on at the new rate without a jump, and so it does
 * from a restored state and after a reset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mech/mech.h>

#include "check.h"

static const char text[] = "gravity 0 0 -9.81\n"
                           "xpbd\n  dt 1e-4\n  substeps 1\n  iterations 1\nend\n"
                           "body rotor\n  parent base\n  joint revolute x\n  mass 0.01\n  com 0 0.002 0\n"
                           "  inertia 1e-8 1e-8 1e-8\n  qd0 628.3185307179586\n  drive %s\n  target ramp 36000 0\nend\n";

/* The worst angle and rate errors of the rotor with `drive <drive>`. */
static void run(const char *drive, double tol_angle, double tol_rate)
{
    const double pi = 3.14159265358979323846, rate = 200 * pi;
    char buf[sizeof text + 32];
    int len = snprintf(buf, sizeof buf, text, drive);
    mech_error err;
    mech_model *m = mech_model_parse(buf, (size_t)len, "motor", &err);
    CHECK(m != NULL, "parse: %s", err.message);
    if (!m) return;
    mech_data *d = mech_data_new_xpbd(m, &err);
    CHECK(d != NULL, "xpbd: %s", err.message);
    if (!d) return;
    double worst_angle = 0, worst_rate = 0;
    for (int i = 0; i < 5000; i++) {
        CHECK(mech_data_step(d, 1e-4, 1) == 0, "step: %s", mech_data_error(d)->message);
        double lag = remainder(mech_data_q(d)[0] - rate * mech_data_time(d), 2 * pi);
        worst_angle = fmax(worst_angle, fabs(lag));
        worst_rate = fmax(worst_rate, fabs(mech_data_qd(d)[0] - rate) / rate);
    }
    printf("drive %s, after %.0f turns: angle off its target by at most %.3g rad, rate by %.3g relative\n", drive,
           rate * mech_data_time(d) / (2 * pi), worst_angle, worst_rate);
    CHECK(worst_angle < tol_angle, "drive %s: the rotor leaves its target angle: %g rad", drive, worst_angle);
    CHECK(worst_rate < tol_rate, "drive %s: the rotor's rate is off: %g", drive, worst_rate);
    mech_data_free(d);
    mech_model_free(m);
}

/* How far one step of dt turns the rotor, modulo a turn. */
static double one_step(mech_data *d, double dt)
{
    double q0 = mech_data_q(d)[0];
    CHECK(mech_data_step(d, dt, 1) == 0, "step: %s", mech_data_error(d)->message);
    return remainder(mech_data_q(d)[0] - q0, 2 * 3.14159265358979323846);
}

static void change_rate(void)
{
    const double pi = 3.14159265358979323846, dt = 1e-4, rate = 200 * pi, slow = 100 * pi, fast = 260 * pi;
    char buf[sizeof text + 32];
    int len = snprintf(buf, sizeof buf, text, "0");
    mech_error err;
    mech_model *m = mech_model_parse(buf, (size_t)len, "motor", &err);
    mech_data *d = m ? mech_data_new_xpbd(m, &err) : NULL;
    CHECK(d != NULL, "open: %s", err.message);
    if (!d) return;
    double r = 0;
    CHECK(mech_data_xpbd_ramp_rate(d, 0, &r) == 0 && fabs(r - rate) < 1e-9 * rate, "the file's rate: %g", r);
    CHECK(mech_data_xpbd_ramp_rate(d, 1, &r) == -1, "body 1 does not exist, yet it has a ramp");
    CHECK(mech_data_xpbd_set_ramp_rate(d, 0, NAN) == -1, "a NaN rate was taken");
    CHECK(mech_data_step(d, dt, 1000) == 0, "step: %s", mech_data_error(d)->message);
    double *state = malloc(sizeof(double) * (size_t)mech_data_state_size(d));
    mech_data_state_save(d, state);
    CHECK(mech_data_xpbd_set_ramp_rate(d, 0, slow) == 0, "set: %s", mech_data_error(d)->message);
    CHECK(mech_data_xpbd_ramp_rate(d, 0, &r) == 0 && r == slow, "the rate read back: %g", r);
    double turned = one_step(d, dt);
    printf("rate %.0f -> %.0f rad/s at t = 0.1 s: the next step turns %.6g rad (%.6g at the new rate)\n", rate, slow,
           turned, slow * dt);
    CHECK(fabs(turned - slow * dt) < 1e-9, "the motor jumped when its rate changed: %g rad in one step", turned);
    CHECK(mech_data_step(d, dt, 999) == 0, "step: %s", mech_data_error(d)->message);
    CHECK(fabs(mech_data_qd(d)[0] - slow) < 1e-6 * slow, "the rotor turns at %g rad/s, not %g", mech_data_qd(d)[0], slow);
    /* Back to the saved state at the rate it has now: on from the saved target at `fast`, no jump. */
    CHECK(mech_data_xpbd_set_ramp_rate(d, 0, fast) == 0, "set: %s", mech_data_error(d)->message);
    CHECK(mech_data_state_restore(d, state, mech_data_state_size(d)) == 0, "restore: %s", mech_data_error(d)->message);
    turned = one_step(d, dt);
    CHECK(fabs(turned - fast * dt) < 1e-9, "after a restore the next step turns %g rad, not %g", turned, fast * dt);
    /* A reset starts the target from the initial angle, at the rate set. */
    mech_data_reset(d);
    turned = one_step(d, dt);
    CHECK(fabs(turned - fast * dt) < 1e-9, "after a reset the first step turns %g rad, not %g", turned, fast * dt);
    free(state);
    mech_data_free(d);
    mech_model_free(m);
}

int main(void)
{
    change_rate();
    run("0", 1e-9, 1e-9);
    /* The compliant drive lags and rings under the gravity torque 2e-4 N m (measured: 1.2e-5 rad, 1.1e-4 of the
     * rate); without the angle taken in (−π, π] it is 3.1 rad and 51 times the rate. */
    run("100", 1e-4, 1e-3);
    return failures ? 1 : 0;
}
