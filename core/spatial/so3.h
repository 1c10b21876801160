/* so3.h — the SO(3) Lie toolkit (Tobin & Rucker §3, Solà et al. "A micro Lie theory").
 *
 * Conventions (paper §3.2–3.3, right/body-frame perturbations):
 *     R ⊞ θ  = R Exp(θ)                  (§3.2)
 *     R1 ⊟ R0 = Log(R0ᵀ R1)              (§3.2)
 *     D_R f  = ∂ f(R ⊞ δ) / ∂δ at δ = 0   (eq. 14); for rotation-valued f the
 *              output is differenced with ⊟ as well.
 * The hat map θ^ is m3_skew (spatial.h); vee is its inverse.  Matrices are
 * row-major 3x3, quaternions [w x y z] (docs/conventions.md).  Every Jacobian
 * below is checked against central finite differences in tests/spatial/test_so3.c,
 * including |θ| ≈ 1e-8 and |θ| ≈ π − 1e-6.
 */
#ifndef MECH_SO3_H
#define MECH_SO3_H

#include <math.h>

/* θ from θ^ (uses the skew part, so it also reads a nearly skew matrix). */
void so3_vee(const double W[9], double w[3]);

/* Exp(θ) = I + (sin t / t) θ^ + ((1 − cos t) / t²) θ^², t = |θ| (§3.2). */
void so3_exp(const double theta[3], double R[9]);
/* Log(R)^∨ with |θ| ∈ [0, π], through the quaternion and atan2 (accurate at
 * t → 0 and t → π, where the trace route loses all digits). */
void so3_log(const double R[9], double theta[3]);

/* Right Jacobian Γ(θ) = J_r(θ): Exp(θ + δ) ≈ Exp(θ) Exp(Γ(θ) δ) (§3.4).
 *     Γ    = I − ((1 − cos t)/t²) θ^ + ((t − sin t)/t³) θ^²
 *     Γ⁻¹  = I + ½ θ^ + ((1 − (t/2) cot(t/2)) / t²) θ^²
 * Both with Taylor series below t = 1e-2. */
void so3_jr(const double theta[3], double J[9]);
void so3_jr_inv(const double theta[3], double Jinv[9]);

/* ⊞ and ⊟ on rotation matrices. */
void so3_plus(const double R[9], const double theta[3], double out[9]);
void so3_minus(const double R1[9], const double R0[9], double theta[3]);

/* R ← R ⊞ θ in place, inline for XPBD's inner loops: operation for operation
 * so3_exp and so3_plus, so the result is the same to the bit (coefficients
 * from t² = |θ|·|θ|, the polynomial with d² = θ·θ). */
static inline void so3_plus_inplace(double R[9], const double theta[3])
{
    double x = theta[0], y = theta[1], z = theta[2], d2 = x * x + y * y + z * z, t = sqrt(d2), t2 = t * t, a, b;
    if (t < 1e-2) {
        a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0;
        b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
    } else {
        double s = sin(0.5 * t);
        a = sin(t) / t;
        b = 2.0 * s * s / t2;
    }
    double E[9] = {
        1.0 + b * (x * x - d2), b * x * y - a * z, b * x * z + a * y, b * x * y + a * z,      1.0 + b * (y * y - d2),
        b * y * z - a * x,      b * x * z - a * y, b * y * z + a * x, 1.0 + b * (z * z - d2),
    };
    for (int r = 0; r < 3; r++) {
        double u = R[3 * r], v = R[3 * r + 1], w = R[3 * r + 2];
        R[3 * r + 0] = u * E[0] + v * E[3] + w * E[6];
        R[3 * r + 1] = u * E[1] + v * E[4] + w * E[7];
        R[3 * r + 2] = u * E[2] + v * E[5] + w * E[8];
    }
}

/* The same operators on unit quaternions (§3.5):
 * q ⊞ θ = q ⊗ q(θ), q1 ⊟ q0 = Log(q0* ⊗ q1) on the short arc, so that
 * R(q ⊞ θ) = R(q) ⊞ θ and q1 ⊟ q0 = R(q1) ⊟ R(q0). */
void quat_exp(const double theta[3], double q[4]);
void quat_log(const double q[4], double theta[3]);
void quat_plus(const double q[4], const double theta[3], double out[4]);
void quat_minus(const double q1[4], const double q0[4], double theta[3]);

/* Jacobian blocks of §3.4 and Appendices D–E (each 3x3, row-major). */
void so3_d_rot_vec(const double R[9], const double p[3], double D[9]);  /* D_R(R p)  = −R p^   (§3.4, E.1) */
void so3_d_rot_tvec(const double R[9], const double u[3], double D[9]); /* D_R(Rᵀu) = (Rᵀu)^          */
void so3_d_transpose(const double R[9], double D[9]);                   /* D_R(Rᵀ)   = −R      (§3.4, E.2) */
void so3_d_mul_first(const double R2[9], double D[9]);                  /* D_R1(R1R2) = R2ᵀ    (§3.4, E.3) */
/* D_R2(R1 R2) = I (§3.4, E.4) needs no function. */
void so3_d_minus_first(const double theta[3], double D[9]);  /* D_R1(R1 ⊟ R2) =  Γ⁻¹(θ)    (E.5) */
void so3_d_minus_second(const double theta[3], double D[9]); /* D_R2(R1 ⊟ R2) = −Γ⁻¹(θ)ᵀ  (D.2) */

#endif
