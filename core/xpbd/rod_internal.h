/* rod_internal.h — what the rod files share: Lagrange bases and Gauss
 * points, constraint evaluation with analytic gradients, the banded solver. */
#ifndef MECH_ROD_INTERNAL_H
#define MECH_ROD_INTERNAL_H

#include "xpbd/rod.h"

/* Lagrange basis of order m (1-3) on equispaced nodes ξ_a = a/m of [0, 1]:
 * φ_a(ξ) and dφ_a/dξ, a = 0..m (Fig. 7). */
void rod_lagrange(int m, double xi, double phi[4], double dphi[4]);
/* n-point Gauss–Legendre rule (n = 1-4) on [0, 1]. */
void rod_gauss(int n, double xi[4], double w[4]);

/* d/dψ [Γ(ψ) a]: the derivative of the right Jacobian applied to a fixed
 * vector (needed by the bend/twist strain u = Γ(ψ) ψ′, docs/rods.md). */
void rod_jr_apply_derivative(const double psi[3], const double a[3], double Q[9]);

/* One constraint block (six rows) at the current state: value C and gradient
 * G[k][row][0..5] with respect to node node0 + k, columns [p (3); δθ (3)]
 * (rows 3–5, the bend/twist strains and a clamp's rotation, never depend on
 * p: their first three columns are zero);
 * a clamp to a world body also has the gradient Gb by that body (else
 * body = −1). */
typedef struct rod_block {
    int node0, nn;
    double C[6];
    double G[4][6][6];
    int body;
    double Gb[6][6];
} rod_block;

/* What every point of element e shares at frames R (§6.3.2): ψ_a = R_a ⊟ R_r
 * and Γ⁻¹(ψ_a) of its nodes a ≠ r (ψ_r = 0, Γ⁻¹ unset there). */
typedef struct rod_element_frames {
    int e;
    double psi_a[4][3];
    double Gi[4][9];
} rod_element_frames;
void rod_element_frames_eval(const xpbd_rod *rod, int e, const double *R, rod_element_frames *f);

/* Raw strains [v; u] of Gauss point g (global index) at poses p, R. */
void rod_strain(const xpbd_rod *rod, int g, const double *p, const double *R, rod_block *b);
/* Block c of the system (clamps first and last, Gauss points between),
 * evaluated at the rod's state; elastic blocks have C = [v; u] − [v*; u*]. */
void rod_block_eval(const xpbd_rod *rod, int c, rod_block *b);
/* The same, reusing the frames in f when they are of c's element (f->e;
 * −1: none yet), else evaluating them into f: the blocks of one element,
 * evaluated in turn at one state, share them.  Nodes that move make f stale. */
void rod_block_eval_shared(const xpbd_rod *rod, int c, rod_block *b, rod_element_frames *f);
/* Index of the first Gauss-point block, and whether block c is a clamp
 * (returns its end 0/1, or −1). */
int rod_first_gauss(const xpbd_rod *rod);
int rod_block_end(const xpbd_rod *rod, int c);
/* Target pose of clamped end e at time t, and its velocity (world linear,
 * body-frame angular; for the ground and prescribed motion).  A body-clamped
 * end's target is its body frame (the rest pose until the rod is attached). */
void rod_clamp_target(const xpbd_rod *rod, int e, double t, double p[3], double R[9]);
void rod_clamp_rate(const xpbd_rod *rod, int e, double t, double v[3], double w[3]);
/* Rows of end e's block that constrain: 6 for a clamp, 3 for a pin.  A pin
 * keeps the six-row block (the band layout does not change); its rows 3–5
 * are inert: C = 0, G = 0, and the solves give them a unit diagonal, so
 * their Δλ is exactly 0 and the factor is that of the three rows alone. */
int rod_end_rows(const xpbd_rod *rod, int e);

/* Two doubles, one SSE2 (or wasm SIMD) register: the band's assembly and
 * factorization run on pairs of rows, each lane doing the scalar operations
 * in the scalar order (bit-identical to one row at a time). */
typedef double rod_v2 __attribute__((vector_size(16)));

/* Banded SPD matrix of order n, lower half-bandwidth kd, stored by rows:
 * A(i, j) for i − kd ≤ j ≤ i at band[(i + 1) kd + j].  Cholesky A = L Lᵀ in
 * place, the diagonal stored as 1/L(i, i) (0, or −1 if not positive
 * definite), then L Lᵀ x = b in place. */
int rod_band_cholesky(int n, int kd, double *band);
void rod_band_solve(int n, int kd, const double *band, double *b);

/* The scalar half-bandwidth of the rod system, kd = 6(bandwidth + 1) − 1. */
int rod_kd(const xpbd_rod *rod);

#endif
