/* xpbd_internal.h — what the XPBD files share: joint evaluation (constraint
 * values and analytic gradients), the per-mode solvers and the residuals. */
#ifndef MECH_XPBD_INTERNAL_H
#define MECH_XPBD_INTERNAL_H

#include "xpbd/xpbd.h"

#include <math.h>

#define XPBD_PI 3.14159265358979323846

/* A joint evaluated at the current state.  Row k of g (xpbd.h) has value
 * g[k] and gradient G[i][k][0..5] with respect to body i's generalized
 * coordinates [p (3); right rotation perturbation δ (3)], i = 0 for body1,
 * 1 for body2 (a ground side has no gradient). */
typedef struct {
    double q[6]; /* the six rows before the target is subtracted */
    double g[6];
    double G[2][6][6];
    double Rbar[2][9];   /* joint frames R̄_i = R_i R_iJ (§5.2.1) */
    const double *RJ[2]; /* joint frames R_iJ (R_iJᵀ chains D_R̄i to D_Ri, E.3) */
} xpbd_jeval;

void xpbd_joint_eval(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e);
/* The same for the rows in need only (bit k: row k): the positional rows
 * 0-2 are computed together, and so are the rotational rows 3-5 (with R̄1,
 * R̄2); the other group's q is 0 (g = −target) and its G rows and R̄ are
 * left unset, and so is a ground side's G unless need is all six rows. */
void xpbd_joint_eval_rows(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e, unsigned need);

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

/* One scalar row shared by joints, limits and contacts (eqs. 56–58):
 * w0 + Σ ∇C_i M_i⁻¹ ∇C_iᵀ with mg_i = M_i⁻¹∇C_iᵀ over the sides that are
 * bodies (index ≥ 0); the update x_i ← x_i ⊞ mg_i Δλ; and the whole row,
 * Δλ = (−C − α̃λ)/(w + α̃), clamped to λ ≥ 0 for an inequality C ≥ 0. */
double xpbd_row_weight(const xpbd_model *m, const int body[2], const double g[2][6], double mg[2][6], double w0);
void xpbd_row_apply(xpbd_data *d, const int body[2], const double mg[2][6], double dl);
void xpbd_row_update(const xpbd_model *m, xpbd_data *d, const int body[2], const double g[2][6], double C, double at,
                     double *lambda, int inequality);
/* Velocity change of an impulse μ along the row g of body b: [v; ω] += M⁻¹ g μ. */
void xpbd_apply_velocity(const xpbd_model *m, xpbd_data *d, int b, const double g[6], double mu);

/* One constraint-solve sweep over all joints and limits in the data's mode,
 * with substep h (α̃ = α/h², Macklin et al. 2016). */
void xpbd_solve_positions(const xpbd_model *m, xpbd_data *d, double h);
/* Velocity-level damping (§4.4) on rows with β > 0. */
void xpbd_solve_damping(const xpbd_model *m, xpbd_data *d, double h);
/* Primal (eq. 51) and constraint (eq. 52) residual 2-norms at the current state. */
void xpbd_residuals(const xpbd_model *m, const xpbd_data *d, double h, double *primal, double *constraint);

/* Contact (xpbd_contact.c): the broad phase at the step's start; the
 * narrow phase at a substep's start pose (substep h); the normal velocities
 * after the prediction; one sweep of normal and static-friction rows; the
 * velocity pass (dynamic friction, restitution).  The first two return 0,
 * or −1 when storage could not grow. */
int xpbd_contacts_broadphase(const xpbd_model *m, xpbd_data *d);
int xpbd_contacts_find(const xpbd_model *m, xpbd_data *d, double h);
void xpbd_contacts_approach(xpbd_data *d);
void xpbd_contacts_solve_positions(const xpbd_model *m, xpbd_data *d);
void xpbd_contacts_solve_velocities(const xpbd_model *m, xpbd_data *d, double h);

/* Storage for one more contact of the substep (NULL when it cannot grow). */
xpbd_contact *xpbd_contact_push(xpbd_data *d);

/* Rod elements as contact sides (xpbd_rod_contact.c).  Broad-phase entry
 * n0 + k (n0 = ncollider) is element k of the listed rods that collide. */
int xpbd_rod_contact_any(const xpbd_data *d);
/* List the elements and place their boxes after the n0 colliders (0, or −1
 * when storage could not grow). */
int xpbd_rod_elements_place(xpbd_data *d, int n0);
/* Whether broad-phase entries i, j (one of them an element) never collide. */
int xpbd_rod_pair_excluded(const xpbd_model *m, const xpbd_data *d, int i, int j);
/* Element k's centreline at the rods' current poses and its first node. */
void xpbd_rod_element_curve(const xpbd_data *d, int k, xpbd_rod_curve *c, int *node0);
/* A bound on how far a point of element k moves in time t. */
double xpbd_rod_element_motion(const xpbd_data *d, int k, double t);
/* Make side `side` of c element k at ξ (its offset a is the caller's). */
void xpbd_rod_side_set(const xpbd_data *d, xpbd_contact *c, int side, int k, double xi);
/* The side's world point x(ξ) + a, now or (prev) at the substep's start. */
void xpbd_rod_side_point(const xpbd_data *d, const xpbd_contact *c, int side, int prev, double p[3]);
/* Σ N_j²/m_j; the position update by Δλ along u; the velocity change by an
 * impulse P along u (side 1 moves along −u); the side's velocity Σ N_j v_j. */
double xpbd_rod_side_weight(const xpbd_data *d, const xpbd_contact *c, int side);
void xpbd_rod_side_move(xpbd_data *d, const xpbd_contact *c, int side, const double u[3], double dl);
void xpbd_rod_side_impulse(xpbd_data *d, const xpbd_contact *c, int side, const double u[3], double P);
void xpbd_rod_side_velocity(const xpbd_data *d, const xpbd_contact *c, int side, double v[3]);

#endif
