/* sym_spatial.h — spatial algebra (RBDA ch. 2) over expressions.
 *
 * Exactly the conventions of core/spatial/spatial.h, but sparse by
 * construction: a transform is stored as its E (3x3) and r (3), never as a
 * 6x6 matrix, and every product goes through the expression constructors, so
 * structural zeros and ones vanish at generation time.
 *
 *   vectors   [angular; linear]: motion [w; v], force [n; f]
 *   B_X_A     = [E 0; -E rx E], E takes A coordinates to B coordinates,
 *               r = B's origin in A coordinates            (eq. 2.24)
 *   X*        = X^{-T} = [E -E rx; 0 E]                     (eq. 2.25)
 *   inertia   = [Ibar hx; hx^T m1], h = m c, Ibar about the origin (eq. 2.63)
 *
 * A physical rotation R becomes E = R^T by an index swap when the transform
 * is formed (sx_from_rot); see docs/conventions.md, "Why the transpose is
 * explicit".
 */
#ifndef MECHGEN_SYM_SPATIAL_H
#define MECHGEN_SYM_SPATIAL_H

#include "codegen/expr.h"

typedef struct {
    ex e[3];
} sv3;
typedef struct {
    ex e[6];
} sv6; /* [angular; linear]  */
typedef struct {
    ex E[9];
    ex r[3];
} sxform; /* row-major E        */
/* Rigid-body inertia: mass, first moment h = m c, rotational inertia about the
 * frame origin stored symmetrically as xx yy zz xy xz yz. */
typedef struct {
    ex m;
    ex h[3];
    ex I[6];
} sinertia;

sv6 sv_zero(ex_pool *p);
sv6 sv_add(ex_pool *p, sv6 a, sv6 b);
sv6 sv_sub(ex_pool *p, sv6 a, sv6 b);
sv6 sv_scale(ex_pool *p, sv6 a, ex s);
ex sv_dot(ex_pool *p, sv6 a, sv6 b); /* a^T b      */

sxform sx_identity(ex_pool *p);
/* Transform into a frame physically rotated by R (row-major, R's columns are
 * the new axes in old coordinates) and displaced to r: E = R^T. */
sxform sx_from_rot(const ex R[9], const ex r[3]);
/* C_X_A = C_X_B * B_X_A. */
sxform sx_compose(ex_pool *p, sxform cb, sxform ba);

sv6 sx_apply_motion(ex_pool *p, sxform X, sv6 m);          /* X m        */
sv6 sx_apply_force(ex_pool *p, sxform X, sv6 f);           /* X* f       */
sv6 sx_apply_transpose_force(ex_pool *p, sxform X, sv6 f); /* X^T f      */

sv6 sv_crm(ex_pool *p, sv6 v, sv6 m); /* v x m  (2.31) */

/* Inertia of a body of mass m with CoM c and rotational inertia Ic (about the
 * CoM, row-major), all numeric (eq. 2.63). */
sinertia si_from_body(ex_pool *p, double m, const double c[3], const double Ic[9]);
sinertia si_add(ex_pool *p, sinertia a, sinertia b);
sv6 si_apply(ex_pool *p, sinertia I, sv6 v);            /* I v        */
sv6 si_velocity_product(ex_pool *p, sinertia I, sv6 v); /* v x* I v   */
/* I a + v x* I v for a body of mass m, CoM c, rotational inertia Ic about
 * the CoM (row-major), in classical form from its angular velocity w and
 * acceleration wd and the classical acceleration ao of its origin. */
sv6 si_body_force(ex_pool *p, double m, const double c[3], const double Ic[9], sv3 wd, sv3 w, sv3 ao);
/* The same for a constant inertia I (its m may be 0). */
sv6 si_body_force_const(ex_pool *p, sinertia I, sv3 wd, sv3 w, sv3 ao);
/* Classical acceleration of B's origin (fixed in A) in B coordinates. */
sv3 sx_point_accel(ex_pool *p, sxform X, sv3 ao, sv3 w, sv3 wd);
sv3 sv_angular(sv6 s);
sv3 sv_linear(sv6 s);
sv3 sv3_add(ex_pool *p, sv3 a, sv3 b);
sv3 sv3_cross(ex_pool *p, sv3 a, sv3 b);
/* A_X_B^T I_B A_X_B: an inertia in B coordinates re-expressed in A (eq. 2.66). */
sinertia si_transform(ex_pool *p, sinertia I, sxform ba);

/* I re-expressed through a rotation by angle q (s = sin q, c = cos q) about
 * sign * e_k: the X^T I X of a revolute joint about a coordinate axis. */
sinertia si_rotate_axis(ex_pool *p, sinertia I, int k, int sign, ex s, ex c);

/* Articulated-body inertia (RBDA sec 7.2): a symmetric 6x6 matrix, stored
 * whole (row-major, M[6i+j] and M[6j+i] the same node) so products read
 * plainly; built from a rigid-body inertia by eq. 2.63. */
typedef struct {
    ex M[36];
} sartic;

sartic sa_from_inertia(ex_pool *p, sinertia I);
sartic sa_add(ex_pool *p, sartic a, sartic b);
sv6 sa_apply(ex_pool *p, const sartic *A, sv6 v); /* A v        */
/* X^T A X for X = B_X_A: an articulated inertia in B coordinates re-expressed
 * in A (the congruence of eq. 2.66, for any symmetric 6x6). */
sartic sa_transform(ex_pool *p, const sartic *A, sxform X);

#endif
