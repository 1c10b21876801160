/* test_xpbd_sim.c — XPBD runs checked for correctness, never for speed:
 * constraint satisfaction, energy sanity, limits, drives against their static
 * equilibria, damping, the gyroscopic term, and the §9.1 residual orderings
 * that are robust (scalar ≫ vector at release, block below rows). */
#include "expect.h"
#include "spatial/so3.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd.h"
#include "xpbd/xpbd_internal.h"
#include "xpbd_scenes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One body of mass 1 with a diagonal inertia, CoM at p. */
static void body(xpbd_model *m, int b, const double p[3], double ix, double iy, double iz)
{
    m->bodies[b].mass = 1.0;
    m->bodies[b].inertia[0] = ix, m->bodies[b].inertia[4] = iy, m->bodies[b].inertia[8] = iz;
    memcpy(m->bodies[b].p, p, 3 * sizeof(double));
}

static void params(xpbd_model *m, double gz)
{
    m->params = (xpbd_params){ .dt = 0.01, .substeps = 10, .iterations = 1, .gravity = { 0, 0, gz } };
}

static int finalize(xpbd_model *m)
{
    char err[128];
    if (xpbd_model_finalize(m, err, sizeof err)) {
        printf("FAIL finalize: %s\n", err);
        failures++;
        return -1;
    }
    return 0;
}

/* Mean primal and constraint residual of the first `seconds`. */
static void mean_residuals(const xpbd_model *m, xpbd_mode mode, int driven, double seconds, double *p, double *c)
{
    xpbd_data d;
    xpbd_data_alloc(&d, m, mode);
    d.record_residuals = 1;
    if (driven) d.target_fn = xpbd_3rps_target;
    int n = (int)lround(seconds / m->params.dt);
    *p = *c = 0;
    for (int s = 0; s < n; s++) {
        xpbd_step(m, &d);
        *p += d.primal / n;
        *c += d.constraint / n;
    }
    xpbd_data_free(&d);
}

static void test_triple_pendulum(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_scene_triple_pendulum(&m);
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    d.record_residuals = 1;
    double E0 = xpbd_energy(&m, &d, NULL, NULL), Emax = E0, cmax = 0;
    for (int s = 0; s < 500; s++) {
        xpbd_step(&m, &d);
        Emax = fmax(Emax, xpbd_energy(&m, &d, NULL, NULL));
        cmax = fmax(cmax, d.constraint);
    }
    double E5 = xpbd_energy(&m, &d, NULL, NULL);
    expect("triple pendulum: joints hold (max constraint residual < 1e-3 over 5 s)", cmax < 1e-3, cmax);
    expect("triple pendulum: energy never rises by more than 1e-3 J", Emax - E0 < 1e-3, Emax - E0);
    expect("triple pendulum: XPBD dissipation over 5 s below 15% of the initial potential drop",
           E0 - E5 < 0.15 * 9.81 * 4.5, E0 - E5);
    xpbd_data_free(&d);

    double p[3], c[3];
    for (int k = 0; k < 3; k++) mean_residuals(&m, (xpbd_mode)k, 0, 1.0, &p[k], &c[k]);
    expect("triple pendulum at release: scalar primal >= 1e4 x vector rows", p[2] >= 1e4 * p[0], p[2] / p[0]);
    expect("triple pendulum at release: scalar primal >= 1e4 x vector block", p[2] >= 1e4 * p[1], p[2] / p[1]);
    expect("triple pendulum at release: block primal below rows", p[1] < p[0], p[0] / p[1]);
    expect("triple pendulum at release: block constraint below rows", c[1] < c[0], c[0] / c[1]);
    expect("triple pendulum at release: scalar constraint above vector", c[2] > c[0] && c[2] > c[1], c[2] / c[1]);
    xpbd_model_free(&m);
}

static void test_3rps(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_scene_3rps(&m);
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    d.target_fn = xpbd_3rps_target;
    d.record_residuals = 1;
    double cmax = 0, terr = 0;
    for (int s = 0; s < 300; s++) {
        xpbd_step(&m, &d);
        cmax = fmax(cmax, d.constraint);
        double tgt[6];
        xpbd_3rps_target(d.t, XPBD_3RPS_TARGET_JOINT, tgt, NULL);
        terr = fmax(terr, fabs(d.p[2] - tgt[2]));
    }
    expect("3-RPS: constraint residual < 1e-3 over 3 s", cmax < 1e-3, cmax);
    expect("3-RPS: platform height follows its target within 1 mm", terr < 1e-3, terr);
    xpbd_data_free(&d);
    double p[3], c[3];
    for (int k = 0; k < 3; k++) mean_residuals(&m, (xpbd_mode)k, 1, 1.0, &p[k], &c[k]);
    expect("3-RPS: scalar primal >= 1e4 x vector rows", p[2] >= 1e4 * p[0], p[2] / p[0]);
    expect("3-RPS: scalar primal >= 1e4 x vector block", p[2] >= 1e4 * p[1], p[2] / p[1]);
    xpbd_model_free(&m);
}

/* A rod hanging from a ground revolute (axis world y), kicked towards a limit. */
static void test_revolute_limit(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_model_alloc(&m, 1, 1);
    params(&m, -9.81);
    body(&m, 0, (double[]){ 0, 0, -0.5 }, 0.1, 0.1, 0.01);
    m.bodies[0].w[1] = 4.0;  /* swings far past 0.5 rad without the limit */
    m.bodies[0].v[0] = -2.0; /* v = ω × (CoM − pivot) */
    xpbd_joint *j = &m.joints[0];
    j->type = XPBD_REVOLUTE;
    j->body1 = -1;
    j->body2 = 0;
    j->r2[2] = 0.5;
    rot_axis_angle((double[]){ 1, 0, 0 }, -1.5707963267948966, j->R1);
    memcpy(j->R2, j->R1, sizeof j->R1);
    j->has_lower = j->has_upper = 1;
    j->lower = -0.5, j->upper = 0.5;
    if (finalize(&m)) return;
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    double lo = 0, hi = 0;
    for (int s = 0; s < 200; s++) {
        xpbd_step(&m, &d);
        xpbd_jeval e;
        xpbd_joint_eval(&m, &d, 0, &e);
        lo = fmin(lo, e.q[5]);
        hi = fmax(hi, e.q[5]);
    }
    expect("revolute limit: θ_rev stays within [-0.5, 0.5] + 1e-3", lo > -0.501 && hi < 0.501, fmax(-lo, hi));
    expect("revolute limit: the limit is reached", fmax(-lo, hi) > 0.49, fmax(-lo, hi));
    xpbd_data_free(&d);
    xpbd_model_free(&m);
}

/* A body sliding down a vertical ground prismatic onto its lower limit. */
static void test_prismatic_limit_and_drive(void)
{
    for (int drive = 0; drive < 2; drive++) {
        xpbd_model m;
        xpbd_data d;
        xpbd_model_alloc(&m, 1, 1);
        params(&m, -9.81);
        body(&m, 0, (double[]){ 0.3, 0.2, 1.0 }, 0.1, 0.1, 0.1);
        xpbd_joint *j = &m.joints[0];
        j->type = XPBD_PRISMATIC;
        j->body1 = -1;
        j->body2 = 0;
        memcpy(j->r1, m.bodies[0].p, sizeof j->r1);
        if (drive) {
            /* spring k with target 0.1: rest at d = 0.1 − m g / k */
            j->drive = 1;
            j->stiffness[0] = 200.0;
            j->target[2] = 0.1;
            j->damping[2] = 20.0;
        } else {
            j->has_lower = 1;
            j->lower = -0.3;
        }
        if (finalize(&m)) return;
        xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
        double dmin = 0, drift = 0;
        for (int s = 0; s < 300; s++) {
            xpbd_step(&m, &d);
            dmin = fmin(dmin, d.p[2] - 1.0);
            drift = fmax(drift, hypot(d.p[0] - 0.3, d.p[1] - 0.2));
        }
        double dz = d.p[2] - 1.0;
        if (drive) {
            double want = 0.1 - 9.81 / 200.0;
            expect("prismatic drive: rests at d_target - m g / k (1%)", fabs(dz - want) < 0.01 * fabs(want), dz);
        } else {
            expect("prismatic limit: never below -0.3 - 1e-3", dmin > -0.301, dmin);
            expect("prismatic limit: rests on the limit", fabs(dz + 0.3) < 1e-4, dz);
        }
        expect("prismatic: no sideways drift (< 1e-6 m)", drift < 1e-6, drift);
        xpbd_data_free(&d);
        xpbd_model_free(&m);
    }
}

/* Revolute drive without gravity, a constant torque τ about the axis:
 * the spring holds it at θ_rev = θ_target − τ/k (θ_rev = [R̄1 ⊟ R̄2]_3). */
static void test_revolute_drive(void)
{
    for (int mode = 0; mode < 3; mode++) {
        xpbd_model m;
        xpbd_data d;
        xpbd_model_alloc(&m, 1, 1);
        params(&m, 0.0);
        body(&m, 0, (double[]){ 0, 0, 0 }, 0.2, 0.2, 0.1);
        xpbd_joint *j = &m.joints[0];
        j->type = XPBD_REVOLUTE;
        j->body1 = -1;
        j->body2 = 0;
        j->drive = 1;
        j->stiffness[0] = 10.0;
        j->target[5] = 0.3;
        j->damping[5] = 5.0;
        if (finalize(&m)) return;
        xpbd_data_alloc(&d, &m, (xpbd_mode)mode);
        d.fext[2] = 1.0; /* torque about world z = the joint axis */
        for (int s = 0; s < 500; s++) xpbd_step(&m, &d);
        xpbd_jeval e;
        xpbd_joint_eval(&m, &d, 0, &e);
        char what[96];
        snprintf(what, sizeof what, "revolute drive (mode %d): θ_rev = θ_target − τ/k (1%%)", mode);
        expect(what, fabs(e.q[5] - 0.2) < 0.002, e.q[5]);
        xpbd_data_free(&d);
        xpbd_model_free(&m);
    }
}

/* A body on a ground spherical joint, thrown sideways and spun:
 * swing ≤ 0.6 and twist within ±0.4. */
static void test_spherical_limits(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_model_alloc(&m, 1, 1);
    params(&m, -9.81);
    body(&m, 0, (double[]){ 0, 0, -0.5 }, 0.1, 0.1, 0.02);
    m.bodies[0].w[0] = 3.0;
    m.bodies[0].w[2] = 3.0;
    m.bodies[0].v[1] = 1.5; /* v = ω × (CoM − pivot) */
    xpbd_joint *j = &m.joints[0];
    j->type = XPBD_SPHERICAL;
    j->body1 = -1;
    j->body2 = 0;
    j->r2[2] = 0.5;
    rot_axis_angle((double[]){ 1, 0, 0 }, 3.141592653589793, j->R1); /* frame z points down */
    memcpy(j->R2, j->R1, sizeof j->R1);
    j->has_swing = 1;
    j->swing_max = 0.6;
    j->has_lower = j->has_upper = 1;
    j->lower = -0.4, j->upper = 0.4;
    if (finalize(&m)) return;
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    double swing = 0, twist = 0;
    for (int s = 0; s < 300; s++) {
        xpbd_step(&m, &d);
        xpbd_jeval e;
        double C, gl[2][6];
        xpbd_joint_eval(&m, &d, 0, &e);
        xpbd_limit_eval(j, &e, 2, &C, gl);
        swing = fmax(swing, 0.6 - C);
        xpbd_limit_eval(j, &e, 1, &C, gl);
        twist = fmax(twist, fabs(0.4 - C));
    }
    expect("spherical swing limit: swing ≤ 0.6 + 2e-3", swing < 0.602, swing);
    expect("spherical swing limit: reached", swing > 0.59, swing);
    expect("spherical twist limit: |twist| ≤ 0.4 + 2e-3", twist < 0.402, twist);
    xpbd_data_free(&d);
    xpbd_model_free(&m);
}

/* Velocity damping (§4.4) on the free row of a pendulum removes energy. */
static void test_damping(void)
{
    double lost[2];
    for (int k = 0; k < 2; k++) {
        xpbd_model m;
        xpbd_data d;
        xpbd_scene_triple_pendulum(&m);
        for (int j = 0; j < 3; j++) m.joints[j].damping[5] = k ? 2.0 : 0.0;
        xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
        double E0 = xpbd_energy(&m, &d, NULL, NULL);
        for (int s = 0; s < 200; s++) xpbd_step(&m, &d);
        lost[k] = E0 - xpbd_energy(&m, &d, NULL, NULL);
        xpbd_data_free(&d);
        xpbd_model_free(&m);
    }
    expect("damping: joint damping removes more energy than XPBD alone", lost[1] > 2 * lost[0], lost[1] / lost[0]);
}

/* Torque-free asymmetric body: the world angular momentum R J ω is conserved
 * (sign check of the gyroscopic term); an external force balances gravity;
 * the fixed joint holds a body still. */
static void test_free_body_and_fixed(void)
{
    xpbd_model m;
    xpbd_data d;
    xpbd_model_alloc(&m, 2, 1);
    params(&m, -9.81);
    body(&m, 0, (double[]){ 0, 0, 0 }, 0.1, 0.2, 0.3);
    m.bodies[0].w[0] = 0.2, m.bodies[0].w[1] = 5.0, m.bodies[0].w[2] = 0.3; /* near the unstable axis */
    body(&m, 1, (double[]){ 1, 0, 0 }, 0.1, 0.2, 0.3);
    xpbd_joint *j = &m.joints[0];
    j->type = XPBD_FIXED;
    j->body1 = -1;
    j->body2 = 1;
    memcpy(j->r1, m.bodies[1].p, sizeof j->r1);
    j->r2[1] = 0.4; /* welded off-centre: gravity also twists it */
    j->r1[1] = 0.4;
    if (finalize(&m)) return;
    xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK);
    d.fext[3 + 2] = 9.81; /* an external force that holds the free body up against gravity */
    double L0[3], Jw[3], L[3], err = 0, move = 0, fall = 0;
    m3_mulv(m.bodies[0].inertia, d.w, Jw);
    m3_mulv(d.R, Jw, L0);
    for (int s = 0; s < 100; s++) {
        xpbd_step(&m, &d);
        m3_mulv(m.bodies[0].inertia, d.w, Jw);
        m3_mulv(d.R, Jw, L);
        for (int k = 0; k < 3; k++) err = fmax(err, fabs(L[k] - L0[k]) / v3_norm(L0));
        move = fmax(move, hypot(hypot(d.p[3] - 1, d.p[4]), d.p[5]));
        fall = fmax(fall, v3_norm(d.p));
    }
    expect("external force: f = -m g keeps the free body's CoM in place (< 1e-12 m)", fall < 1e-12, fall);
    expect("free body: world angular momentum kept within 2% over 1 s", err < 0.02, err);
    expect("fixed joint: welded body moves < 1e-5 m", move < 1e-5, move);
    xpbd_data_free(&d);
    xpbd_model_free(&m);
}

int main(void)
{
    test_triple_pendulum();
    test_3rps();
    test_revolute_limit();
    test_prismatic_limit_and_drive();
    test_revolute_drive();
    test_spherical_limits();
    test_damping();
    test_free_body_and_fixed();
    printf(failures ? "test_xpbd_sim: %d FAILED\n" : "test_xpbd_sim: ok\n", failures);
    return failures != 0;
}
