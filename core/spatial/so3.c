/* so3.c — see so3.h.  Equation numbers are Tobin & Rucker unless noted. */
#include "spatial/so3.h"

#include "spatial/spatial.h"

#include <math.h>

#define SO3_SERIES_T 1e-2 /* below this, the Taylor series replace the closed forms */

void so3_vee(const double W[9], double w[3])
{
    w[0] = 0.5 * (W[7] - W[5]);
    w[1] = 0.5 * (W[2] - W[6]);
    w[2] = 0.5 * (W[3] - W[1]);
}

/* out = I + a θ^ + b θ^², with θ^² = θθᵀ − |θ|² I written out. */
static void so3_poly(const double theta[3], double a, double b, double out[9])
{
    double x = theta[0], y = theta[1], z = theta[2], t2 = x * x + y * y + z * z;
    out[0] = 1.0 + b * (x * x - t2);
    out[1] = b * x * y - a * z;
    out[2] = b * x * z + a * y;
    out[3] = b * x * y + a * z;
    out[4] = 1.0 + b * (y * y - t2);
    out[5] = b * y * z - a * x;
    out[6] = b * x * z - a * y;
    out[7] = b * y * z + a * x;
    out[8] = 1.0 + b * (z * z - t2);
}

void so3_exp(const double theta[3], double R[9])
{
    double t = sqrt(theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]), t2 = t * t;
    double a, b;
    if (t < SO3_SERIES_T) {
        a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0;
        b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
    } else {
        double s = sin(0.5 * t);
        a = sin(t) / t;
        b = 2.0 * s * s / t2; /* (1 − cos t)/t² without cancellation */
    }
    so3_poly(theta, a, b, R);
}

void quat_log(const double q[4], double theta[3])
{
    /* q and −q are the same rotation: take w >= 0 so that |θ| <= π. */
    double sgn = q[0] < 0 ? -1.0 : 1.0;
    double w = sgn * q[0], v[3] = { sgn * q[1], sgn * q[2], sgn * q[3] };
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    /* θ = 2 atan2(|v|, w) v/|v|; at |v| → 0 the ratio tends to 2/w.  (An atan
     * series for small |v|/w would spare the atan2 call but moves the last bit,
     * and the scalar mode's blow-up time depends on the last bits.) */
    double k = n < 1e-300 ? 2.0 / w : 2.0 * atan2(n, w) / n;
    for (int i = 0; i < 3; i++) theta[i] = k * v[i];
}

void so3_log(const double R[9], double theta[3])
{
    double q[4];
    rot_to_quat(R, q);
    quat_log(q, theta);
}

void so3_jr(const double theta[3], double J[9])
{
    double t = v3_norm(theta), t2 = t * t;
    double a, b;
    if (t < SO3_SERIES_T) {
        a = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
        b = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0;
    } else {
        double s = sin(0.5 * t);
        a = 2.0 * s * s / t2;
        b = (t - sin(t)) / (t2 * t);
    }
    so3_poly(theta, -a, b, J);
}

void so3_jr_inv(const double theta[3], double Jinv[9])
{
    double t = v3_norm(theta), t2 = t * t;
    double b;
    if (t < SO3_SERIES_T) b = 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0;
    else {
        double h = 0.5 * t;
        b = (1.0 - h * cos(h) / sin(h)) / t2; /* cot(t/2) → 0 at t = π: no 0/0 there */
    }
    so3_poly(theta, 0.5, b, Jinv);
}

void so3_plus(const double R[9], const double theta[3], double out[9])
{
    double E[9];
    so3_exp(theta, E);
    /* out = R E, row by row (out may alias R) */
    for (int r = 0; r < 3; r++) {
        double a = R[3 * r], b = R[3 * r + 1], c = R[3 * r + 2];
        out[3 * r + 0] = a * E[0] + b * E[3] + c * E[6];
        out[3 * r + 1] = a * E[1] + b * E[4] + c * E[7];
        out[3 * r + 2] = a * E[2] + b * E[5] + c * E[8];
    }
}

void so3_minus(const double R1[9], const double R0[9], double theta[3])
{
    double D[9]; /* R0ᵀ R1 */
    for (int r = 0; r < 3; r++) {
        double a = R0[r], b = R0[3 + r], c = R0[6 + r];
        D[3 * r + 0] = a * R1[0] + b * R1[3] + c * R1[6];
        D[3 * r + 1] = a * R1[1] + b * R1[4] + c * R1[7];
        D[3 * r + 2] = a * R1[2] + b * R1[5] + c * R1[8];
    }
    so3_log(D, theta);
}

void quat_exp(const double theta[3], double q[4]) { quat_from_rotvec(theta, q); }

void quat_plus(const double q[4], const double theta[3], double out[4])
{
    double e[4];
    quat_exp(theta, e);
    quat_mul(q, e, out);
}

void quat_minus(const double q1[4], const double q0[4], double theta[3])
{
    double q0c[4] = { q0[0], -q0[1], -q0[2], -q0[3] }, d[4];
    quat_mul(q0c, q1, d);
    quat_log(d, theta);
}

void so3_d_rot_vec(const double R[9], const double p[3], double D[9])
{
    /* Row r of −R p^ is p × (row r of R). */
    for (int r = 0; r < 3; r++) v3_cross(p, R + 3 * r, D + 3 * r);
}

void so3_d_rot_tvec(const double R[9], const double u[3], double D[9])
{
    double Rtu[3];
    m3_tmulv(R, u, Rtu);
    m3_skew(Rtu, D);
}

void so3_d_transpose(const double R[9], double D[9])
{
    for (int i = 0; i < 9; i++) D[i] = -R[i];
}

void so3_d_mul_first(const double R2[9], double D[9]) { m3_transpose(R2, D); }

void so3_d_minus_first(const double theta[3], double D[9]) { so3_jr_inv(theta, D); }

void so3_d_minus_second(const double theta[3], double D[9])
{
    double J[9];
    so3_jr_inv(theta, J);
    m3_transpose(J, D);
    for (int i = 0; i < 9; i++) D[i] = -D[i];
}
