/* linalg.h — small dense linear algebra shared by the engines: the general
 * LU solve of the dense reference (H qdd = tau − C, the loop systems) and the
 * Cholesky solve of symmetric positive definite systems (ABA's floating base,
 * XPBD's joint, contact and rod blocks).  Matrices are n × n, row-major.
 * The rods' banded Cholesky is theirs (core/xpbd/rod_banded.c). */
#ifndef MECH_LINALG_H
#define MECH_LINALG_H

/* P A = L U in place (unit L below the diagonal, U on and above it, the row
 * swaps in piv); 0, or −1 on an exactly zero pivot.  dense_lu_solve
 * overwrites b with the solution of A x = b. */
int dense_lu(int n, double *A, int *piv);
void dense_lu_solve(int n, const double *LU, const int *piv, double *b);

/* A = L Lᵀ in place: L in the lower triangle, the upper one untouched. */
void spd_cholesky(int n, double *A);
/* b ← A⁻¹ b from the factor of spd_cholesky. */
void spd_cholesky_solve(int n, const double *L, double *b);
/* Both at once (A overwritten by its factor, b by the solution). */
void spd_solve(int n, double *A, double *b);

#endif
