/* spatial.h — the one spatial-algebra layer (RBDA ch. 2): the dense 6x6 forms
 * and, at the end, the efficient forms of §2.8 (what the runtime ABA uses).
 *
 * Spatial vectors are [angular; linear]: motion [w; v], force [n; f].
 * Matrices are row-major double arrays (3x3: m[3*r+c], 6x6: m[6*r+c]).
 *
 * A Plücker transform B_X_A (motion coordinates A -> B) is
 *     X = [ E      0 ]      E = rotation taking A coordinates to B coordinates
 *         [ -E rx  E ]      r = position of B's origin in A coordinates
 * RBDA eq. 2.24.  For a body whose axes are physically rotated by R relative
 * to its parent, E = R^T — the transpose is taken here, explicitly, once
 * (see docs/conventions.md, "Why the transpose is explicit").
 * Force transforms are X* = X^{-T} (eq. 2.25).
 */
#ifndef MECH_SPATIAL_H
#define MECH_SPATIAL_H

#include <math.h>

/* ---- 3-vectors and 3x3 matrices ---- */
/* The products are inline: a call costs more than the arithmetic (the
 * matrix products always, for XPBD's inner loops).  out may alias an input. */
static inline void v3_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline double v3_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline double v3_norm(const double a[3]) { return sqrt(v3_dot(a, a)); }

static inline __attribute__((always_inline)) void m3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9] = {
        a[0] * b[0] + a[1] * b[3] + a[2] * b[6], a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
        a[0] * b[2] + a[1] * b[5] + a[2] * b[8], a[3] * b[0] + a[4] * b[3] + a[5] * b[6],
        a[3] * b[1] + a[4] * b[4] + a[5] * b[7], a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
        a[6] * b[0] + a[7] * b[3] + a[8] * b[6], a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
        a[6] * b[2] + a[7] * b[5] + a[8] * b[8],
    };
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
    out[3] = t[3];
    out[4] = t[4];
    out[5] = t[5];
    out[6] = t[6];
    out[7] = t[7];
    out[8] = t[8];
}

static inline __attribute__((always_inline)) void m3_tmul(const double a[9], const double b[9], double out[9]) /* a^T b */
{
    double t[9] = {
        a[0] * b[0] + a[3] * b[3] + a[6] * b[6], a[0] * b[1] + a[3] * b[4] + a[6] * b[7],
        a[0] * b[2] + a[3] * b[5] + a[6] * b[8], a[1] * b[0] + a[4] * b[3] + a[7] * b[6],
        a[1] * b[1] + a[4] * b[4] + a[7] * b[7], a[1] * b[2] + a[4] * b[5] + a[7] * b[8],
        a[2] * b[0] + a[5] * b[3] + a[8] * b[6], a[2] * b[1] + a[5] * b[4] + a[8] * b[7],
        a[2] * b[2] + a[5] * b[5] + a[8] * b[8],
    };
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
    out[3] = t[3];
    out[4] = t[4];
    out[5] = t[5];
    out[6] = t[6];
    out[7] = t[7];
    out[8] = t[8];
}

static inline __attribute__((always_inline)) void m3_mult(const double a[9], const double b[9], double out[9]) /* a b^T */
{
    double t[9] = {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2], a[0] * b[3] + a[1] * b[4] + a[2] * b[5],
        a[0] * b[6] + a[1] * b[7] + a[2] * b[8], a[3] * b[0] + a[4] * b[1] + a[5] * b[2],
        a[3] * b[3] + a[4] * b[4] + a[5] * b[5], a[3] * b[6] + a[4] * b[7] + a[5] * b[8],
        a[6] * b[0] + a[7] * b[1] + a[8] * b[2], a[6] * b[3] + a[7] * b[4] + a[8] * b[5],
        a[6] * b[6] + a[7] * b[7] + a[8] * b[8],
    };
    out[0] = t[0];
    out[1] = t[1];
    out[2] = t[2];
    out[3] = t[3];
    out[4] = t[4];
    out[5] = t[5];
    out[6] = t[6];
    out[7] = t[7];
    out[8] = t[8];
}

/* Copies element by element: a memcpy or struct copy of this size is a call
 * of the C library's memcpy in WebAssembly, dearer than the copy. */
static inline void m3_copy(const double a[9], double out[9])
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
    out[3] = a[3];
    out[4] = a[4];
    out[5] = a[5];
    out[6] = a[6];
    out[7] = a[7];
    out[8] = a[8];
}

static inline void m3_mulv(const double a[9], const double v[3], double out[3])
{
    double x = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
    double y = a[3] * v[0] + a[4] * v[1] + a[5] * v[2];
    double z = a[6] * v[0] + a[7] * v[1] + a[8] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline void m3_tmulv(const double a[9], const double v[3], double out[3]) /* a^T v */
{
    double x = a[0] * v[0] + a[3] * v[1] + a[6] * v[2];
    double y = a[1] * v[0] + a[4] * v[1] + a[7] * v[2];
    double z = a[2] * v[0] + a[5] * v[1] + a[8] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

void m3_identity(double m[9]);
void m3_transpose(const double a[9], double out[9]);
void m3_skew(const double v[3], double out[9]); /* v x   */
/* 3x3 inverse by the adjugate into out; returns the determinant (out is inf or NaN where it is 0). */
double m3_inverse(const double a[9], double out[9]);

/* R for a right-handed rotation by `angle` (rad) about unit `axis`. */
void rot_axis_angle(const double axis[3], double angle, double R[9]);
/* The same from the angle's sine s and cosine, computed elsewhere. */
void rot_axis_sincos(const double axis[3], double s, double cos_angle, double R[9]);

/* Unit quaternions [w x y z]; q acts as R(q) v = q (0,v) q*. */
void quat_to_rot(const double q[4], double R[9]);
void rot_to_quat(const double R[9], double q[4]); /* w >= 0 */
void quat_mul(const double a[4], const double b[4], double out[4]);
/* Unit quaternion of the rotation by |phi| about phi/|phi| (rotation vector). */
void quat_from_rotvec(const double phi[3], double out[4]);
/* q / |q|: integration leaves floating quaternions slightly non-unit. */
void quat_normalize(const double q[4], double out[4]);

/* ---- 6-vectors and 6x6 matrices ---- */
void m6_identity(double m[36]);
void m6_mul(const double a[36], const double b[36], double out[36]);
void m6_transpose(const double a[36], double out[36]);
void m6_mulv(const double a[36], const double v[6], double out[6]);
void m6_tmulv(const double a[36], const double v[6], double out[6]); /* a^T v */

/* General small row-major products for joint blocks (S is 6 x nv, nv <= 6):
 * mat_mul: out (r x c) = A (r x k) B (k x c); mat_tmul: out (r x c) = A^T B
 * with A stored k x r.  out must not alias A or B. */
void mat_mul(int r, int k, int c, const double *A, const double *B, double *out);
void mat_tmul(int r, int k, int c, const double *A, const double *B, double *out);

/* X from E and r (eq. 2.24). */
void plux(const double E[9], const double r[3], double X[36]);
/* Inverse of a Plücker motion transform, A_X_B from B_X_A. */
void plux_inverse(const double X[36], double Xinv[36]);
/* Force transform X* = X^{-T}. */
void plux_force(const double X[36], double Xf[36]);
/* Motion and force cross-product operators (eqs. 2.31-2.32). */
void crm(const double v[6], double out[36]);
void crf(const double v[6], double out[36]);
/* Spatial inertia of mass m, CoM c, rotational inertia Ic about the CoM (eq. 2.63). */
void mcI(double m, const double c[3], const double Ic[9], double I[36]);

/* ---- efficient forms (RBDA §2.8, Table 2.5) ----
 * What the runtime ABA uses: the structure the dense forms above spell out
 * as 6x6 matrices, kept in its parts. */

#if defined(__GNUC__) || defined(__clang__)
#define SPATIAL_INLINE static inline __attribute__((always_inline))
#else
#define SPATIAL_INLINE static inline
#endif

/* The structure of a transform's rotation E, known from the joint types:
 * SXFORM_ROT_NONE, E = 1; 0, 1 or 2, a rotation about that coordinate axis
 * alone (E_kk = 1); SXFORM_ROT_GENERAL. */
enum { SXFORM_ROT_NONE = -1, SXFORM_ROT_GENERAL = 3 };

/* A Plücker transform B_X_A = plux(E, r) kept as E and r (eq. 2.24), with
 * the structure of E. */
typedef struct {
    double E[9];
    double r[3];
    int rot;
} sxform;

/* A symmetric spatial inertia (rigid-body or articulated) [A B; B^T C],
 * acting on motion [w; v]: A and C symmetric 3x3 packed [xx xy xz yy yz zz],
 * B full: 21 numbers. */
typedef struct {
    double A[6], B[9], C[6];
} sinertia;

static inline void sxform_copy(const sxform *a, sxform *out)
{
    m3_copy(a->E, out->E);
    out->r[0] = a->r[0];
    out->r[1] = a->r[1];
    out->r[2] = a->r[2];
    out->rot = a->rot;
}

static inline void sinertia_copy(const sinertia *a, sinertia *out)
{
    out->A[0] = a->A[0];
    out->A[1] = a->A[1];
    out->A[2] = a->A[2];
    out->A[3] = a->A[3];
    out->A[4] = a->A[4];
    out->A[5] = a->A[5];
    m3_copy(a->B, out->B);
    out->C[0] = a->C[0];
    out->C[1] = a->C[1];
    out->C[2] = a->C[2];
    out->C[3] = a->C[3];
    out->C[4] = a->C[4];
    out->C[5] = a->C[5];
}

/* C_X_A = C_X_B B_X_A: E = E_cb E_ba, r = r_ba + E_ba^T r_cb.  out may alias neither. */
void sxform_compose(const sxform *cb, const sxform *ba, sxform *out);

/* E x (t = 0) or E^T x (t = 1) for E a rotation about coordinate axis k alone. */
SPATIAL_INLINE void axis_rot_mulv(int k, int t, const double E[9], const double x[3], double out[3])
{
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    double eij = t ? E[3 * j + i] : E[3 * i + j], eji = t ? E[3 * i + j] : E[3 * j + i];
    double xi = x[i], xj = x[j];
    out[k] = x[k];
    out[i] = E[4 * i] * xi + eij * xj;
    out[j] = eji * xi + E[4 * j] * xj;
}

/* E x (t = 0) or E^T x (t = 1) by the structure of X's E.  out may alias x. */
SPATIAL_INLINE void sxform_rotate(const sxform *X, int t, const double x[3], double out[3])
{
    switch (X->rot) {
    case SXFORM_ROT_NONE:
        out[0] = x[0];
        out[1] = x[1];
        out[2] = x[2];
        break;
    case 0: axis_rot_mulv(0, t, X->E, x, out); break;
    case 1: axis_rot_mulv(1, t, X->E, x, out); break;
    case 2: axis_rot_mulv(2, t, X->E, x, out); break;
    default:
        if (t) m3_tmulv(X->E, x, out);
        else m3_mulv(X->E, x, out);
    }
}

/* X v for a motion vector: [E w; E (v - r x w)].  out may alias m. */
static inline void sxform_motion(const sxform *X, const double m[6], double out[6])
{
    double t[3];
    v3_cross(X->r, m, t);
    t[0] = m[3] - t[0];
    t[1] = m[4] - t[1];
    t[2] = m[5] - t[2];
    sxform_rotate(X, 0, m, out);
    sxform_rotate(X, 0, t, out + 3);
}

/* X* f = X^-T f for a force vector (eq. 2.25): [E (n - r x f); E f]. */
static inline void sxform_force(const sxform *X, const double f[6], double out[6])
{
    double t[3];
    v3_cross(X->r, f + 3, t);
    t[0] = f[0] - t[0];
    t[1] = f[1] - t[1];
    t[2] = f[2] - t[2];
    sxform_rotate(X, 0, t, out);
    sxform_rotate(X, 0, f + 3, out + 3);
}

/* X^T f, a force in B coordinates back to A (A_X*_B = B_X_A^T):
 * [E^T n + r x E^T f; E^T f]. */
static inline void sxform_tforce(const sxform *X, const double f[6], double out[6])
{
    double n[3], t[3];
    sxform_rotate(X, 1, f, n);
    sxform_rotate(X, 1, f + 3, out + 3);
    v3_cross(X->r, out + 3, t);
    out[0] = n[0] + t[0];
    out[1] = n[1] + t[1];
    out[2] = n[2] + t[2];
}

/* acc += X^T I X: I in B coordinates added to an inertia in A coordinates
 * (the articulated-inertia update of Table 7.1, lambdaX*_i Ia_i iX_lambda). */
void sinertia_tcongruence_add(const sxform *X, const sinertia *I, sinertia *acc);
/* The rigid-body inertia of mass m, CoM c, rotational inertia Ic about the CoM (eq. 2.63, as mcI). */
void sinertia_mcI(double m, const double c[3], const double Ic[9], sinertia *I);
/* The dense 6x6 form. */
void sinertia_full(const sinertia *I, double M[36]);

/* I v: [A w + B v; B^T w + C v]. */
static inline void sinertia_mulv(const sinertia *I, const double m[6], double out[6])
{
    const double *A = I->A, *B = I->B, *C = I->C;
    double w0 = m[0], w1 = m[1], w2 = m[2], v0 = m[3], v1 = m[4], v2 = m[5];
    out[0] = A[0] * w0 + A[1] * w1 + A[2] * w2 + B[0] * v0 + B[1] * v1 + B[2] * v2;
    out[1] = A[1] * w0 + A[3] * w1 + A[4] * w2 + B[3] * v0 + B[4] * v1 + B[5] * v2;
    out[2] = A[2] * w0 + A[4] * w1 + A[5] * w2 + B[6] * v0 + B[7] * v1 + B[8] * v2;
    out[3] = B[0] * w0 + B[3] * w1 + B[6] * w2 + C[0] * v0 + C[1] * v1 + C[2] * v2;
    out[4] = B[1] * w0 + B[4] * w1 + B[7] * w2 + C[1] * v0 + C[3] * v1 + C[4] * v2;
    out[5] = B[2] * w0 + B[5] * w1 + B[8] * w2 + C[2] * v0 + C[4] * v1 + C[5] * v2;
}

/* I v for a rigid-body inertia (B = hx with h = m c, C = m 1, eq. 2.63):
 * [A w + h x v; m v - h x w]. */
static inline void sinertia_rb_mulv(const sinertia *I, const double m[6], double out[6])
{
    const double *A = I->A, h[3] = { I->B[7], I->B[2], I->B[3] }, mass = I->C[0];
    double hv[3], hw[3];
    v3_cross(h, m + 3, hv);
    v3_cross(h, m, hw);
    double w0 = m[0], w1 = m[1], w2 = m[2];
    out[0] = A[0] * w0 + A[1] * w1 + A[2] * w2 + hv[0];
    out[1] = A[1] * w0 + A[3] * w1 + A[4] * w2 + hv[1];
    out[2] = A[2] * w0 + A[4] * w1 + A[5] * w2 + hv[2];
    out[3] = mass * m[3] - hw[0];
    out[4] = mass * m[4] - hw[1];
    out[5] = mass * m[5] - hw[2];
}

/* I S for a single-axis motion subspace S = [s; 0] (revolute) or [0; s]
 * (prismatic): one column, [A s; B^T s] or [B s; C s]. */
static inline void sinertia_mul_axis(const sinertia *I, int prismatic, const double s[3], double out[6])
{
    const double *A = I->A, *B = I->B, *C = I->C;
    double x = s[0], y = s[1], z = s[2];
    if (prismatic) {
        out[0] = B[0] * x + B[1] * y + B[2] * z;
        out[1] = B[3] * x + B[4] * y + B[5] * z;
        out[2] = B[6] * x + B[7] * y + B[8] * z;
        out[3] = C[0] * x + C[1] * y + C[2] * z;
        out[4] = C[1] * x + C[3] * y + C[4] * z;
        out[5] = C[2] * x + C[4] * y + C[5] * z;
    } else {
        out[0] = A[0] * x + A[1] * y + A[2] * z;
        out[1] = A[1] * x + A[3] * y + A[4] * z;
        out[2] = A[2] * x + A[4] * y + A[5] * z;
        out[3] = B[0] * x + B[3] * y + B[6] * z;
        out[4] = B[1] * x + B[4] * y + B[7] * z;
        out[5] = B[2] * x + B[5] * y + B[8] * z;
    }
}

/* I -= s u u^T (the rank-one step Ia = IA - U D^-1 U^T of Table 7.1). */
static inline void sinertia_sub_outer(sinertia *I, const double u[6], double s)
{
    double su[6] = { s * u[0], s * u[1], s * u[2], s * u[3], s * u[4], s * u[5] };
    I->A[0] -= su[0] * u[0];
    I->A[1] -= su[0] * u[1];
    I->A[2] -= su[0] * u[2];
    I->A[3] -= su[1] * u[1];
    I->A[4] -= su[1] * u[2];
    I->A[5] -= su[2] * u[2];
    I->B[0] -= su[0] * u[3];
    I->B[1] -= su[0] * u[4];
    I->B[2] -= su[0] * u[5];
    I->B[3] -= su[1] * u[3];
    I->B[4] -= su[1] * u[4];
    I->B[5] -= su[1] * u[5];
    I->B[6] -= su[2] * u[3];
    I->B[7] -= su[2] * u[4];
    I->B[8] -= su[2] * u[5];
    I->C[0] -= su[3] * u[3];
    I->C[1] -= su[3] * u[4];
    I->C[2] -= su[3] * u[5];
    I->C[3] -= su[4] * u[4];
    I->C[4] -= su[4] * u[5];
    I->C[5] -= su[5] * u[5];
}

/* v x* f (eq. 2.32): [w x n + vv x f; w x f]. */
static inline void crf_mulv(const double v[6], const double f[6], double out[6])
{
    double a[3], b[3], c[3];
    v3_cross(v, f, a);
    v3_cross(v + 3, f + 3, b);
    v3_cross(v, f + 3, c);
    out[0] = a[0] + b[0];
    out[1] = a[1] + b[1];
    out[2] = a[2] + b[2];
    out[3] = c[0];
    out[4] = c[1];
    out[5] = c[2];
}

static inline double v6_dot(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

#endif
