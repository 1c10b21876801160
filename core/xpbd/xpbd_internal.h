/* xpbd_internal.h — what the XPBD files share: joint evaluation (constraint
 * values and analytic gradients), the per-mode solvers and the residuals. */
#ifndef MECH_XPBD_INTERNAL_H
#define MECH_XPBD_INTERNAL_H

#include "xpbd/xpbd.h"

/* A joint evaluated at the current state.  Row k of g (xpbd.h) has value
 * g[k] and gradient G[i][k][0..5] with respect to body i's generalized
 * coordinates [p (3); right rotation perturbation δ (3)], i = 0 for body1,
 * 1 for body2 (a ground side has no gradient). */
typedef struct {
    double q[6];             /* the six rows before the target is subtracted */
    double g[6];
    double G[2][6][6];
    double Rbar[2][9];       /* joint frames R̄_i = R_i R_iJ (§5.2.1) */
    double Rbar_t[2][9];     /* R_iJᵀ: chains D_R̄i to D_Ri (E.3) */
} xpbd_jeval;

void xpbd_joint_eval(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e);

/* Limit slot s of joint j (0: lower, 1: upper, 2: swing): 1 if that limit
 * exists, with C ≥ 0 wanted and its gradient rows gl[i][0..5]. */
int xpbd_limit_eval(const xpbd_joint *jt, const xpbd_jeval *e, int s, double *C, double gl[2][6]);

/* Scalar groups of XPBD_SCALAR: rows of the same kind (pos / rot) and the same
 * compliance form one normed constraint.  Returns the group count (≤ 6) and
 * fills a row mask per group. */
int xpbd_scalar_groups(const xpbd_joint *jt, unsigned masks[6]);

/* The scalar constraint of one group, as Müller et al. 2020 define it:
 * C = |c| with c the world correction vector ("frame 1 relative to frame 2"):
 *   positional rows: the masked offset p̄1 − p̄2 (or −R̄1 × the masked local rows);
 *   rotational rows {3,4} (axis alignment): c = a2 × a1, a1 = R̄1 Exp(−θ_target) e3,
 *   a2 = R̄2 e3 (Müller's hinge);
 *   other rotational rows: c = R̄1 (masked θ − θ_target).
 * g is the exact gradient of C (zero where C = 0). */
typedef struct {
    double C, c[3];
    int rot;
    double g[2][6];
} xpbd_scalar_row;
void xpbd_scalar_eval(const xpbd_model *m, const xpbd_data *d, int j, const xpbd_jeval *e, unsigned mask,
                      xpbd_scalar_row *s);

/* Generalized inverse mass product: out_i = M_i⁻¹ g_i for a gradient row. */
void xpbd_minv(const xpbd_model *m, int body, const double g[6], double out[6]);
/* x_i ← x_i ⊞ dx: p += dx[0..2], R ← R ⊞ dx[3..5]. */
void xpbd_apply(xpbd_data *d, int body, const double dx[6]);
/* Müller et al. 2020 rotation update q ← normalize(q + ½ (0, φ) ⊗ q), φ in
 * world coordinates, written as R ← R ⊞ (Rᵀ φ'), φ' = 2 atan(|φ|/2) φ/|φ|. */
void xpbd_muller_rotate(double R[9], const double phi[3]);

/* One constraint-solve sweep over all joints and limits in the data's mode,
 * with substep h (α̃ = α/h², Macklin et al. 2016). */
void xpbd_solve_positions(const xpbd_model *m, xpbd_data *d, double h);
/* Velocity-level damping (§4.4) on rows with β > 0. */
void xpbd_solve_damping(const xpbd_model *m, xpbd_data *d, double h);
/* Primal (eq. 51) and constraint (eq. 52) residual 2-norms at the current state. */
void xpbd_residuals(const xpbd_model *m, const xpbd_data *d, double h, double *primal, double *constraint);

/* Cholesky solve of the n x n SPD system A x = b (A overwritten), n ≤ 6. */
void xpbd_spd_solve(int n, double *A, double *b);

#endif
