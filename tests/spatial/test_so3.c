/* test_so3.c — every SO(3) Jacobian against central finite differences of its
 * own function, at random rotations of ordinary size, |θ| ≈ 1e-8 and
 * |θ| ≈ π − 1e-6 (so3.h).  Prints the worst error per block. */
#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

static int failures;

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* Random rotation vector of length t. */
static void rand_theta(double t, double th[3])
{
    double a[3];
    do {
        for (int i = 0; i < 3; i++) a[i] = urand();
    } while (v3_norm(a) < 0.1);
    double n = v3_norm(a);
    for (int i = 0; i < 3; i++) th[i] = t * a[i] / n;
}

static void rand_rot(double R[9])
{
    double th[3];
    rand_theta(PI * fabs(urand()), th);
    so3_exp(th, R);
}

static double maxdiff(int n, const double *a, const double *b)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void check(const char *what, double err, double tol, double *worst)
{
    if (err > *worst) *worst = err;
    if (!(err <= tol)) {
        printf("FAIL %s: error %.3e > %.1e\n", what, err, tol);
        failures++;
    }
}

/* Column i of a 3x3 row-major matrix. */
static void set_col(double D[9], int i, const double c[3])
{
    for (int r = 0; r < 3; r++) D[3 * r + i] = c[r];
}

/* The three angle regimes (generic, near zero, near π), with an FD step that keeps each
 * perturbation on the same side of π. */
static const double regime_t[3] = { 1.3, 1e-8, PI - 1e-6 };
static const double regime_eps[3] = { 1e-6, 1e-6, 1e-8 };
static const double regime_tol[3] = { 1e-8, 1e-8, 1e-6 };
static const char *regime_name[3] = { "random", "|θ|=1e-8", "|θ|=π-1e-6" };

static void test_exp_log(void)
{
    double worst = 0;
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < 200; k++) {
            double th[3], R[9], back[3], q[4], qb[3];
            rand_theta(regime_t[g] * (k % 2 ? 1.0 : fabs(urand())), th);
            so3_exp(th, R);
            so3_log(R, back);
            check("Log(Exp(θ)) = θ", maxdiff(3, th, back), 1e-9 * fmax(1.0, 1e3 * (g == 2)), &worst);
            quat_exp(th, q);
            quat_log(q, qb);
            check("quat Log(Exp(θ)) = θ", maxdiff(3, th, qb), 1e-12, &worst);
            double Rq[9];
            quat_to_rot(q, Rq);
            check("R(quat Exp θ) = Exp θ", maxdiff(9, Rq, R), 1e-14, &worst);
        }
    printf("Exp/Log round trip: worst %.2e\n", worst);
}

static void test_jacobians(void)
{
    for (int g = 0; g < 3; g++) {
        double eps = regime_eps[g], tol = regime_tol[g];
        double w_jr = 0, w_jri = 0, w_id = 0, w_rp = 0, w_rtu = 0, w_tr = 0, w_m1 = 0, w_m2 = 0, w_b1 = 0, w_b2 = 0,
               w_d2 = 0, w_d3 = 0;
        for (int k = 0; k < 100; k++) {
            double th[3], R[9], R2[9], p[3], J[9], Ji[9], F[9];
            rand_theta(regime_t[g], th);
            so3_exp(th, R);
            rand_rot(R2);
            rand_theta(1.0, p);

            /* Γ: Exp(θ + δ) = Exp(θ) Exp(Γ δ)  (§3.4) */
            so3_jr(th, J);
            for (int i = 0; i < 3; i++) {
                double tp[3] = { th[0], th[1], th[2] }, tm[3] = { th[0], th[1], th[2] };
                double Ep[9], Em[9], c[3];
                tp[i] += eps;
                tm[i] -= eps;
                so3_exp(tp, Ep);
                so3_exp(tm, Em);
                so3_minus(Ep, Em, c);
                for (int r = 0; r < 3; r++) c[r] /= 2 * eps;
                set_col(F, i, c);
            }
            check("Γ vs FD of Exp", maxdiff(9, J, F), tol, &w_jr);

            /* Γ⁻¹: D_R Log(R) at R = Exp θ */
            so3_jr_inv(th, Ji);
            for (int i = 0; i < 3; i++) {
                double e[3] = { 0 }, Rp[9], Rm[9], lp[3], lm[3], c[3];
                e[i] = eps;
                so3_plus(R, e, Rp);
                e[i] = -eps;
                so3_plus(R, e, Rm);
                so3_log(Rp, lp);
                so3_log(Rm, lm);
                for (int r = 0; r < 3; r++) c[r] = (lp[r] - lm[r]) / (2 * eps);
                set_col(F, i, c);
            }
            check("Γ⁻¹ vs FD of Log", maxdiff(9, Ji, F), tol, &w_jri);
            double P[9], I[9];
            m3_mul(J, Ji, P);
            m3_identity(I);
            check("Γ Γ⁻¹ = I", maxdiff(9, P, I), 1e-12, &w_id);

            /* D.3: Γθ = θ, Γ⁻¹θ = θ */
            double a[3], b[3];
            m3_mulv(J, th, a);
            m3_mulv(Ji, th, b);
            check("Γθ = θ (D.3)", fmax(maxdiff(3, a, th), maxdiff(3, b, th)), 1e-12, &w_d3);

            /* E.1 D_R(Rp) = −R p^ and D_R(Rᵀu) = (Rᵀu)^ */
            double Drp[9], Drtu[9], Dtr[9], Dm1[9], Db1[9], Db2[9];
            so3_d_rot_vec(R, p, Drp);
            so3_d_rot_tvec(R, p, Drtu);
            so3_d_transpose(R, Dtr);
            so3_d_mul_first(R2, Dm1);
            double R1[9]; /* R1 = R2 Exp(θ) so that R1 ⊟ R2 = θ */
            m3_mul(R2, R, R1);
            so3_d_minus_first(th, Db1);
            so3_d_minus_second(th, Db2);
            double Frp[9], Frtu[9], Ftr[9], Fm1[9], Fm2[9], Fb1[9], Fb2[9];
            for (int i = 0; i < 3; i++) {
                double ep[3] = { 0 }, em[3] = { 0 };
                ep[i] = eps;
                em[i] = -eps;
                double Rp[9], Rm[9], vp[3], vm[3], c[3];
                so3_plus(R, ep, Rp);
                so3_plus(R, em, Rm);
                m3_mulv(Rp, p, vp);
                m3_mulv(Rm, p, vm);
                for (int r = 0; r < 3; r++) c[r] = (vp[r] - vm[r]) / (2 * eps);
                set_col(Frp, i, c);
                m3_tmulv(Rp, p, vp);
                m3_tmulv(Rm, p, vm);
                for (int r = 0; r < 3; r++) c[r] = (vp[r] - vm[r]) / (2 * eps);
                set_col(Frtu, i, c);
                /* E.2: f(R) = Rᵀ, differenced with ⊟ */
                double Tp[9], Tm[9];
                m3_transpose(Rp, Tp);
                m3_transpose(Rm, Tm);
                so3_minus(Tp, Tm, c);
                for (int r = 0; r < 3; r++) c[r] /= 2 * eps;
                set_col(Ftr, i, c);
                /* E.3 / E.4: f = R1 R2 in each argument */
                double Mp[9], Mm[9], R2p[9], R2m[9];
                m3_mul(Rp, R2, Mp);
                m3_mul(Rm, R2, Mm);
                so3_minus(Mp, Mm, c);
                for (int r = 0; r < 3; r++) c[r] /= 2 * eps;
                set_col(Fm1, i, c);
                so3_plus(R2, ep, R2p);
                so3_plus(R2, em, R2m);
                m3_mul(R, R2p, Mp);
                m3_mul(R, R2m, Mm);
                so3_minus(Mp, Mm, c);
                for (int r = 0; r < 3; r++) c[r] /= 2 * eps;
                set_col(Fm2, i, c);
                /* E.5 / D.2: f = R1 ⊟ R2 in each argument */
                double R1p[9], R1m[9], lp[3], lm[3];
                so3_plus(R1, ep, R1p);
                so3_plus(R1, em, R1m);
                so3_minus(R1p, R2, lp);
                so3_minus(R1m, R2, lm);
                for (int r = 0; r < 3; r++) c[r] = (lp[r] - lm[r]) / (2 * eps);
                set_col(Fb1, i, c);
                so3_minus(R1, R2p, lp);
                so3_minus(R1, R2m, lm);
                for (int r = 0; r < 3; r++) c[r] = (lp[r] - lm[r]) / (2 * eps);
                set_col(Fb2, i, c);
            }
            check("D_R(Rp) = -R p^", maxdiff(9, Drp, Frp), tol, &w_rp);
            check("D_R(R^T u)", maxdiff(9, Drtu, Frtu), tol, &w_rtu);
            check("D_R(R^T) = -R", maxdiff(9, Dtr, Ftr), tol, &w_tr);
            check("D_R1(R1 R2) = R2^T", maxdiff(9, Dm1, Fm1), tol, &w_m1);
            check("D_R2(R1 R2) = I", maxdiff(9, I, Fm2), tol, &w_m2);
            check("D_R1(R1 ⊟ R2) = Γ⁻¹", maxdiff(9, Db1, Fb1), tol, &w_b1);
            check("D_R2(R1 ⊟ R2) = -Γ⁻¹ᵀ", maxdiff(9, Db2, Fb2), tol, &w_b2);

            /* D.2: Γ⁻¹(θ)ᵀ = Γ⁻¹(θ) R1ᵀ R2 */
            double Jit[9], R1t[9], RR[9], rhs[9];
            m3_transpose(Ji, Jit);
            m3_transpose(R1, R1t);
            m3_mul(R1t, R2, RR);
            m3_mul(Ji, RR, rhs);
            check("Γ⁻¹ᵀ = Γ⁻¹ R1ᵀR2 (D.2)", maxdiff(9, Jit, rhs), 1e-9, &w_d2);
        }
        printf("[%s] FD worst: Γ %.1e  Γ⁻¹ %.1e  ΓΓ⁻¹ %.1e  D.3 %.1e  D(Rp) %.1e  D(Rᵀu) %.1e  "
               "D(Rᵀ) %.1e  D1(R1R2) %.1e  D2(R1R2) %.1e  D1(⊟) %.1e  D2(⊟) %.1e  D.2 %.1e\n",
               regime_name[g], w_jr, w_jri, w_id, w_d3, w_rp, w_rtu, w_tr, w_m1, w_m2, w_b1, w_b2, w_d2);
    }
}

/* ⊞/⊟ on quaternions agree with the matrix operators (§3.5), including the
 * short arc when q0* ⊗ q1 has w < 0 and relative angles near π. */
static void test_quaternion_ops(void)
{
    double worst = 0;
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < 200; k++) {
            double R0[9], q0[4], th[3], q1[4], R1[9], Rq[9], a[3], b[3];
            rand_rot(R0);
            rot_to_quat(R0, q0);
            if (k % 2)
                for (int i = 0; i < 4; i++) q0[i] = -q0[i]; /* the other cover */
            rand_theta(regime_t[g], th);
            quat_plus(q0, th, q1);
            so3_plus(R0, th, R1);
            quat_to_rot(q1, Rq);
            check("R(q ⊞ θ) = R ⊞ θ", maxdiff(9, Rq, R1), 1e-13, &worst);
            quat_minus(q1, q0, a);
            so3_minus(R1, R0, b);
            check("q1 ⊟ q0 = R1 ⊟ R0", maxdiff(3, a, b), g == 2 ? 1e-8 : 1e-12, &worst);
            check("q1 ⊟ q0 = θ", maxdiff(3, a, th), g == 2 ? 1e-8 : 1e-12, &worst);
        }
    printf("quaternion ⊞/⊟ vs matrix: worst %.2e\n", worst);
}

int main(void)
{
    srand(6);
    test_exp_log();
    test_jacobians();
    test_quaternion_ops();
    printf(failures ? "test_so3: %d FAILED\n" : "test_so3: ok\n", failures);
    return failures != 0;
}
