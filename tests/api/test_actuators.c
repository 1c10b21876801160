/* test_actuators.c — actuators, keyframes and implicit damping through the
 * public API (docs/mech-format.md, "Actuators", "Keyframes"): each checked
 * against its closed form, on the runtime ABA and the dense reference. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mech/mech.h>

#include "check.h"

/* One hinge without gravity, inertia I = 0.5 about its axis, a damper c and
 * a position servo (kp, kv) whose ctrl is clamped to [-1, 1] and whose force
 * to [-3, 3]; an rsda input before it, so ctrl is act[1]. */
static const char text[] = "gravity 0 0 0\n"
                           "integrator implicit\n"
                           "body arm\n  parent base\n  joint revolute z\n  mass 1\n  inertia 0.3 0.3 0.5\nend\n"
                           "rsda hinge\n  joint arm\n  k 0\n  c 2\n  input\nend\n"
                           "actuator servo\n  joint arm\n  kind position\n  kp 4\n  kv 1\n"
                           "  ctrlrange -1 1\n  forcerange -3 3\nend\n"
                           "keyframe half\n  q arm 90\n  qd arm 1\n  ctrl servo 0.25\nend\n";

static void check_engine(const mech_model *m, mech_data *(*make)(const mech_model *, mech_error *), const char *name)
{
    mech_error err;
    mech_data *d = make(m, &err);
    CHECK(d != NULL, "%s: %s", name, err.message);
    if (!d) return;
    double *q = mech_data_q(d), *qd = mech_data_qd(d), *ctrl = mech_data_ctrl(d);
    CHECK(ctrl == mech_data_act(d) + 1, "%s: ctrl is act after the rsda's input", name);

    /* forward(): I qdd = -c qd + clamp(kp ctrl - kp q - kv qd, +-3). */
    q[0] = 0.2, qd[0] = 0.3, ctrl[0] = 0.5;
    CHECK(mech_data_forward(d) == 0, "%s: forward", name);
    double f = 4 * 0.5 - 4 * 0.2 - 1 * 0.3, want = (-2 * 0.3 + f) / 0.5;
    CHECK(fabs(mech_data_qdd(d)[0] - want) < 1e-12, "%s: servo qdd %.17g, want %.17g", name, mech_data_qdd(d)[0], want);
    ctrl[0] = 7; /* clamped to 1: 4 - 0.8 - 0.3 = 2.9 */
    mech_data_forward(d);
    want = (-0.6 + 2.9) / 0.5;
    CHECK(fabs(mech_data_qdd(d)[0] - want) < 1e-12, "%s: ctrl clamped: qdd %.17g, want %.17g", name,
          mech_data_qdd(d)[0], want);
    q[0] = -2; /* force 4 + 8 - 0.3 = 11.7, clamped to 3 */
    mech_data_forward(d);
    want = (-0.6 + 3) / 0.5;
    CHECK(fabs(mech_data_qdd(d)[0] - want) < 1e-12, "%s: force clamped: qdd %.17g, want %.17g", name,
          mech_data_qdd(d)[0], want);

    /* NaN ctrl: refused, naming the actuator. */
    ctrl[0] = NAN;
    CHECK(mech_data_forward(d) == -1 && strstr(mech_data_error(d)->message, "actuator 'servo'"),
          "%s: NaN ctrl refused: %s", name, mech_data_error(d)->message);
    CHECK(mech_data_step(d, 1e-3, 1) == -1 && strstr(mech_data_error(d)->message, "actuator 'servo'"),
          "%s: NaN ctrl refused by step: %s", name, mech_data_error(d)->message);

    /* Keyframes. */
    CHECK(mech_data_reset_keyframe(d, 0) == 0 && fabs(q[0] - 1.5707963267948966) < 1e-15 && qd[0] == 1 && ctrl[0] == 0.25,
          "%s: reset to keyframe 'half'", name);
    CHECK(mech_data_reset_keyframe(d, 1) == -1 && strstr(mech_data_error(d)->message, "no keyframe 1"),
          "%s: no keyframe 1: %s", name, mech_data_error(d)->message);

    /* Implicit damping: with the servo at ctrl = q (no stiffness force) and
     * velocity only, one step is qd' = (I qd - h kp (q - ctrl) ... ); take
     * kp's term away by ctrl = q each step: qd' = qd / (1 + h (c + kv) / I). */
    mech_data_reset(d);
    qd[0] = 1;
    double h = 0.05, v = 1; /* h (c + kv) / I = 0.3: explicit Euler would be 0.7 per step */
    for (int n = 0; n < 20; n++) {
        ctrl[0] = q[0];
        CHECK(mech_data_step(d, h, 1) == 0, "%s: step: %s", name, mech_data_error(d)->message);
        v /= 1 + h * 3 / 0.5;
    }
    CHECK(fabs(qd[0] - v) < 1e-12 * fabs(v) + 1e-15, "%s: implicit damping qd %.17g, want %.17g", name, qd[0], v);
    mech_data_free(d);
}

int main(void)
{
    mech_error err;
    mech_model *m = mech_model_parse(text, sizeof text - 1, "servo", &err);
    CHECK(m != NULL, "parse: %s", err.message);
    if (!m) return 1;
    mech_sizes z = mech_model_sizes(m);
    CHECK(z.nact == 2 && z.nu == 1 && z.nkey == 1, "sizes: nact %d nu %d nkey %d", z.nact, z.nu, z.nkey);
    mech_actuator_info a;
    CHECK(mech_model_actuator(m, 0, &a) == 0 && strcmp(a.kind, "position") == 0 && a.gain == 4 && a.bias[1] == -4 &&
              a.bias[2] == -1 && a.act == 1 && a.ctrllimited && a.forcerange[1] == 3,
          "actuator info");
    CHECK(mech_model_actuator(m, 1, &a) == -1, "one actuator");
    mech_keyframe_info k;
    CHECK(mech_model_keyframe(m, 0, &k) == 0 && strcmp(k.name, "half") == 0 && k.ctrl[0] == 0.25 &&
              mech_model_keyframe_find(m, "half") == 0 && mech_model_keyframe_find(m, "none") == -1,
          "keyframe info");
    CHECK(mech_model_options(m).integrator == MECH_INTEGRATOR_IMPLICIT, "integrator implicit");
    check_engine(m, mech_data_new_aba, "aba");
    check_engine(m, mech_data_new_dense, "dense");
    mech_model_free(m);
    if (failures) return 1;
    printf("actuators: ok\n");
    return 0;
}
