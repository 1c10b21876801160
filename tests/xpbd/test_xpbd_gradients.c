/* test_xpbd_gradients.c — every joint constraint row, limit and scalar
 * (Müller) constraint against central finite differences of its own value,
 * under the same perturbations the solver applies (p + ε e_k, R ⊞ ε e_k),
 * at random poses and random joint frames, with ground-connected variants.
 * Also: Müller's quaternion update equals its ⊞ form, and the SPD solve. */
#include "spatial/so3.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

static void rand_vec(double s, double v[3])
{
    for (int k = 0; k < 3; k++) v[k] = s * urand();
}

static void rand_rot(double angle_max, double R[9])
{
    double th[3];
    rand_vec(angle_max / sqrt(3.0), th);
    so3_exp(th, R);
}

static void check(const char *what, double err, double tol, double *worst)
{
    if (err > *worst) *worst = err;
    if (!(err <= tol)) {
        printf("FAIL %s: error %.3e > %.1e\n", what, err, tol);
        failures++;
    }
}

/* Perturb generalized coordinate c (0-2: p, 3-5: right rotation) of body b. */
static void perturb(xpbd_data *d, int b, int c, double eps)
{
    if (c < 3) d->p[3 * b + c] += eps;
    else {
        double e[3] = { 0 };
        e[c - 3] = eps;
        so3_plus(d->R + 9 * b, e, d->R + 9 * b);
    }
}

static void save(const xpbd_model *m, const xpbd_data *d, double *p, double *R)
{
    memcpy(p, d->p, 3 * m->nbody * sizeof(double));
    memcpy(R, d->R, 9 * m->nbody * sizeof(double));
}

static void restore(const xpbd_model *m, xpbd_data *d, const double *p, const double *R)
{
    memcpy(d->p, p, 3 * m->nbody * sizeof(double));
    memcpy(d->R, R, 9 * m->nbody * sizeof(double));
}

/* Values of everything differentiated: the six rows, three limit slots and
 * up to six scalar groups. */
static void values(const xpbd_model *m, const xpbd_data *d, double out[15])
{
    xpbd_jeval e;
    double gl[2][6];
    unsigned masks[6];
    xpbd_joint_eval(m, d, 0, &e);
    memcpy(out, e.g, sizeof e.g);
    for (int s = 0; s < 3; s++)
        if (!xpbd_limit_eval(&m->joints[0], &e, s, &out[6 + s], gl)) out[6 + s] = 0;
    int ng = xpbd_scalar_groups(&m->joints[0], masks);
    for (int s = 0; s < 6; s++) {
        xpbd_scalar_row sr;
        out[9 + s] = 0;
        if (s < ng) {
            xpbd_scalar_eval(m, d, 0, &e, masks[s], &sr);
            out[9 + s] = sr.C;
        }
    }
}

static void analytic(const xpbd_model *m, const xpbd_data *d, int side, double G[15][6])
{
    xpbd_jeval e;
    double gl[2][6];
    unsigned masks[6];
    memset(G, 0, 15 * 6 * sizeof(double));
    xpbd_joint_eval(m, d, 0, &e);
    for (int k = 0; k < 6; k++) memcpy(G[k], e.G[side][k], 6 * sizeof(double));
    for (int s = 0; s < 3; s++)
        if (xpbd_limit_eval(&m->joints[0], &e, s, &(double){ 0 }, gl)) memcpy(G[6 + s], gl[side], 6 * sizeof(double));
    int ng = xpbd_scalar_groups(&m->joints[0], masks);
    for (int s = 0; s < ng; s++) {
        xpbd_scalar_row sr;
        xpbd_scalar_eval(m, d, 0, &e, masks[s], &sr);
        memcpy(G[9 + s], sr.g[side], 6 * sizeof(double));
    }
}

static const char *type_name[] = { "fixed", "revolute", "spherical", "prismatic", "target" };

/* One joint between two random bodies (or ground and a body). */
static void test_joint(xpbd_joint_type type, int drive, int ground, double *worst)
{
    xpbd_model m;
    xpbd_data d;
    char err[128];
    xpbd_model_alloc(&m, 2, 1);
    for (int b = 0; b < 2; b++) {
        m.bodies[b].mass = 1.0 + b;
        m.bodies[b].inertia[0] = 0.1, m.bodies[b].inertia[4] = 0.2, m.bodies[b].inertia[8] = 0.3;
        rand_vec(1.0, m.bodies[b].p);
        rand_rot(3.0, m.bodies[b].R);
    }
    xpbd_joint *j = &m.joints[0];
    j->type = type;
    j->body1 = ground ? -1 : 0;
    j->body2 = 1;
    rand_vec(0.5, j->r1);
    rand_vec(0.5, j->r2);
    rand_rot(3.0, j->R1);
    rand_rot(3.0, j->R2);
    j->drive = drive;
    j->stiffness[0] = j->stiffness[1] = j->stiffness[2] = 50.0;
    rand_vec(0.3, j->target);
    rand_vec(0.3, j->target + 3);
    if (type == XPBD_TARGET) {
        j->target_rows = 1u << 2 | 1u << 3 | 1u << 4;
        j->target_compliance[2] = 1e-3;
    }
    if (type == XPBD_REVOLUTE || type == XPBD_PRISMATIC || type == XPBD_SPHERICAL) {
        j->has_lower = j->has_upper = 1;
        j->lower = -0.5, j->upper = 0.5;
    }
    if (type == XPBD_SPHERICAL) j->has_swing = 1, j->swing_max = 0.5;
    if (xpbd_model_finalize(&m, err, sizeof err) || xpbd_data_alloc(&d, &m, XPBD_VECTOR_BLOCK)) {
        printf("FAIL setup %s: %s\n", type_name[type], err);
        failures++;
        return;
    }
    double p0[6], R0[18], G[15][6], vp[15], vm[15];
    const double eps = 1e-6;
    save(&m, &d, p0, R0);
    for (int side = ground ? 1 : 0; side < 2; side++) {
        analytic(&m, &d, side, G);
        for (int c = 0; c < 6; c++) {
            perturb(&d, side, c, eps);
            values(&m, &d, vp);
            restore(&m, &d, p0, R0);
            perturb(&d, side, c, -eps);
            values(&m, &d, vm);
            restore(&m, &d, p0, R0);
            for (int r = 0; r < 15; r++) {
                double fd = (vp[r] - vm[r]) / (2 * eps);
                char what[96];
                snprintf(what, sizeof what, "%s%s%s row %d coord %d side %d", type_name[type], drive ? " drive" : "",
                         ground ? " (ground)" : "", r, c, side);
                check(what, fabs(fd - G[r][c]), 1e-7 * fmax(1.0, fabs(fd)), worst);
            }
        }
    }
    xpbd_data_free(&d);
    xpbd_model_free(&m);
}

/* Müller et al.'s q ← normalize(q + ½(0, φ) ⊗ q) is R ⊞ (Rᵀφ'), φ' = 2 atan(|φ|/2) φ̂. */
static void test_muller_rotation(double *worst)
{
    for (int k = 0; k < 100; k++) {
        double R[9], q[4], phi[3], w[4], dq[4], R2[9];
        rand_rot(3.0, R);
        rot_to_quat(R, q);
        rand_vec(k % 2 ? 1.0 : 1e-3, phi);
        double pq[4] = { 0, phi[0], phi[1], phi[2] };
        quat_mul(pq, q, dq);
        for (int i = 0; i < 4; i++) w[i] = q[i] + 0.5 * dq[i];
        quat_normalize(w, w);
        quat_to_rot(w, R2);
        xpbd_muller_rotate(R, phi);
        double e = 0;
        for (int i = 0; i < 9; i++) e = fmax(e, fabs(R[i] - R2[i]));
        check("Muller rotation update", e, 1e-13, worst);
    }
}

static void test_spd_solve(double *worst)
{
    for (int n = 1; n <= 6; n++) {
        double B[36], A[36], x[6], b[6];
        for (int i = 0; i < n * n; i++) B[i] = urand();
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                A[n * i + j] = i == j ? 0.5 : 0.0;
                for (int k = 0; k < n; k++) A[n * i + j] += B[n * i + k] * B[n * j + k];
            }
        rand_vec(1.0, x);
        rand_vec(1.0, x + 3);
        for (int i = 0; i < n; i++) {
            b[i] = 0;
            for (int j = 0; j < n; j++) b[i] += A[n * i + j] * x[j];
        }
        xpbd_spd_solve(n, A, b);
        double e = 0;
        for (int i = 0; i < n; i++) e = fmax(e, fabs(b[i] - x[i]));
        check("SPD solve", e, 1e-10, worst);
    }
}

int main(void)
{
    srand(66);
    double worst = 0;
    for (int trial = 0; trial < 20; trial++)
        for (int t = XPBD_FIXED; t <= XPBD_TARGET; t++)
            for (int ground = 0; ground < 2; ground++) {
                test_joint((xpbd_joint_type)t, 0, ground, &worst);
                if (t != XPBD_FIXED && t != XPBD_TARGET) test_joint((xpbd_joint_type)t, 1, ground, &worst);
            }
    printf("joint rows, limits and scalar constraints vs central FD: worst %.2e\n", worst);
    worst = 0;
    test_muller_rotation(&worst);
    printf("Muller quaternion update vs its ⊞ form: worst %.2e\n", worst);
    worst = 0;
    test_spd_solve(&worst);
    printf("SPD solve: worst %.2e\n", worst);
    printf(failures ? "test_xpbd_gradients: %d FAILED\n" : "test_xpbd_gradients: ok\n", failures);
    return failures != 0;
}
