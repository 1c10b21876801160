/* test_xpbd_joint_forces.c — XPBD's rsda and actuator forces against the
 * Featherstone engines' law: an arm on a hinge with a slider on it, both
 * with a spring-damper and an actuator (a clamped position servo, a geared
 * velocity servo), in a state reached by falling under gravity.  The body
 * wrenches xpbd_mech_joint_forces gives are the generalized forces
 * mech_element_forces (the dense reference's) gives at the same q, qd, less
 * the velocity damping D qd that the joints' damping rows take implicitly:
 * a torque about the hinge axis, a force along the slide, each equal and
 * opposite on the two bodies; and those rows hold D: c, plus gear² kv of
 * an actuator not at its force clamp. */
#include "rbda/dense.h"
#include "rbda/elements.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd_from_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char text[] = "gravity 0 0 -9.81\n"
                           "body arm\n  parent base\n  joint revolute y\n  pos 0 0 1\n  mass 1\n  com 0.3 0 0\n"
                           "  inertia 0.01 0.02 0.02 0 0 0\nend\n"
                           "body slider\n  parent arm\n  joint prismatic x\n  pos 0.2 0 0\n  mass 0.5\n  com 0 0.05 0\n"
                           "  inertia 0.001 0.002 0.003 0 0 0\n  qd0 0.4\nend\n"
                           "rsda hinge\n  joint arm\n  k 3\n  c 0.4\n  q0 0.2\nend\n"
                           "rsda slide\n  joint slider\n  k 20\n  c 1.5\nend\n"
                           "actuator servo\n  joint arm\n  kind position\n  kp 40\n  kv 4\n  forcerange -5 5\nend\n"
                           "actuator push\n  joint slider\n  kind velocity\n  kv 2\n  gear 1.5\nend\n";

int main(void)
{
    mech_error err;
    mech_model *m = mech_model_parse(text, sizeof text - 1, "joint forces", &err);
    CHECK(m != NULL, "parse: %s", err.message);
    if (!m) return 1;
    xpbd_mech x;
    xpbd_data d;
    CHECK(xpbd_from_model(m, &x, &err) == 0, "xpbd: %s", err.message);
    CHECK(xpbd_mech_data(&x, x.mode, &d) == 0, "xpbd data");
    for (int s = 0; s < 20; s++) xpbd_step(&x.m, &d);
    double damping[12];
    d.damping = damping;

    /* act: the servo's target 0.5 rad (its force clamped at 5 N m), the slide's target rate -0.3 m/s. */
    double act[3] = { 0.5, -0.3, 0 }, q[2], qd[2], tau[2], out[12], tau_e[2] = { 0, 0 };
    xpbd_mech_joint_forces(m, &x, &d, act, q, qd, tau, out);
    dense_ws *ws = dense_ws_new(m);
    dense_world_kinematics(m, ws, q, qd);
    mech_element_forces(m, ws, q, qd, act, tau_e);
    /* The servo at its clamp has no damping of its own; the rows about the hinge (5) and along the slide (2). */
    const double D[2] = { 0.4, 1.5 + 1.5 * 1.5 * 2 };
    double want[2];
    for (int j = 0; j < 2; j++) want[j] = tau_e[j] + D[j] * qd[j];
    CHECK(damping[5] == D[0] && damping[6 + 2] == D[1], "damping rows %g %g, not %g %g", damping[5], damping[8], D[0],
          D[1]);
    CHECK(fabs(q[0]) > 0.05 && fabs(qd[0]) > 0.1 && fabs(qd[1]) > 0.01, "a general state: q %g qd %g %g", q[0], qd[0],
          qd[1]);
    CHECK(fabs(mech_actuator_force(&m->actuators[0], act[0], q[0], qd[0])) == 5, "the servo at its force clamp");

    /* The slide: a force along the arm's x on the slider, reversed on the arm, with the moment r × f that
     * moves it to the arm's centre of mass; no torque on the slider. */
    const double *Ra = d.R, ex[3] = { 1, 0, 0 }, ey[3] = { 0, 1, 0 };
    double a[3], f[3], r[3], rxf[3], t[3];
    m3_mulv(Ra, ex, a);
    for (int k = 0; k < 3; k++) f[k] = want[1] * a[k];
    for (int k = 0; k < 3; k++) r[k] = d.p[3 + k] - d.p[k];
    v3_cross(r, f, rxf);
    /* The hinge: a torque about world y on the arm; the ground takes the reaction. */
    for (int k = 0; k < 3; k++) t[k] = want[0] * ey[k] - rxf[k];
    double worst = 0;
    for (int k = 0; k < 3; k++) {
        worst = fmax(worst, fabs(out[6 + 3 + k] - f[k]));
        worst = fmax(worst, fabs(out[6 + k]));
        worst = fmax(worst, fabs(out[3 + k] + f[k]));
        worst = fmax(worst, fabs(out[k] - t[k]));
    }
    printf("joint forces: hinge %.6g N m, slide %.6g N; worst wrench difference %.3g\n", want[0], want[1], worst);
    CHECK(worst < 1e-12, "the body wrenches differ from the law by %g", worst);

    dense_ws_free(ws);
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    mech_model_free(m);
    return failures ? 1 : 0;
}
