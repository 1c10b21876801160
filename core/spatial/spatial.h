/* spatial.h — the one spatial-algebra layer (RBDA ch. 2), dense 6x6 form.
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

#include "model/model.h"

/* ---- 3-vectors and 3x3 matrices ---- */
/* The products are inline: a call costs more than the arithmetic.  out may
 * alias an input. */
static inline void v3_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

static inline double v3_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline double v3_norm(const double a[3]) { return sqrt(v3_dot(a, a)); }

static inline void m3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9] = {
        a[0] * b[0] + a[1] * b[3] + a[2] * b[6], a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
        a[0] * b[2] + a[1] * b[5] + a[2] * b[8], a[3] * b[0] + a[4] * b[3] + a[5] * b[6],
        a[3] * b[1] + a[4] * b[4] + a[5] * b[7], a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
        a[6] * b[0] + a[7] * b[3] + a[8] * b[6], a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
        a[6] * b[2] + a[7] * b[5] + a[8] * b[8],
    };
    out[0] = t[0]; out[1] = t[1]; out[2] = t[2];
    out[3] = t[3]; out[4] = t[4]; out[5] = t[5];
    out[6] = t[6]; out[7] = t[7]; out[8] = t[8];
}

static inline void m3_mulv(const double a[9], const double v[3], double out[3])
{
    double x = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
    double y = a[3] * v[0] + a[4] * v[1] + a[5] * v[2];
    double z = a[6] * v[0] + a[7] * v[1] + a[8] * v[2];
    out[0] = x; out[1] = y; out[2] = z;
}

static inline void m3_tmulv(const double a[9], const double v[3], double out[3]) /* a^T v */
{
    double x = a[0] * v[0] + a[3] * v[1] + a[6] * v[2];
    double y = a[1] * v[0] + a[4] * v[1] + a[7] * v[2];
    double z = a[2] * v[0] + a[5] * v[1] + a[8] * v[2];
    out[0] = x; out[1] = y; out[2] = z;
}

void m3_identity(double m[9]);
void m3_transpose(const double a[9], double out[9]);
void m3_skew(const double v[3], double out[9]);                     /* v x   */

/* R for a right-handed rotation by `angle` (rad) about unit `axis`. */
void rot_axis_angle(const double axis[3], double angle, double R[9]);

/* Unit quaternions [w x y z]; q acts as R(q) v = q (0,v) q*. */
void quat_to_rot(const double q[4], double R[9]);
void rot_to_quat(const double R[9], double q[4]);   /* w >= 0 */
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

/* Tree transform of body b: body_X_parent at q = 0 (E = rot^T, r = pos). */
void body_xtree(const mech_body *b, double X[36]);
/* Joint transform body_X_jointframe and motion subspace S (6 x nv, row-major
 * 6*nv entries) for the body's joint at its own q slice.  Floating: q slice is
 * [qw qx qy qz x y z] relative to the parent (= base) frame, S = 1 (body-frame
 * velocity).  Revolute: E = R(axis, q)^T, S = [axis; 0].  Prismatic: r = axis q,
 * S = [0; axis].  Fixed: identity, nv = 0. */
void body_jcalc(const mech_body *b, const double *q, double XJ[36], double *S);
/* body_jcalc on a q slice as integration leaves it: a floating body's
 * quaternion is normalized first.  Dynamics code calls this one. */
void body_jcalc_normalized(const mech_body *b, const double *q, double XJ[36], double *S);

#endif
