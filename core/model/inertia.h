/* inertia.h — physical checks on a rotational inertia (internal to core/model). */
#ifndef MECH_INERTIA_H
#define MECH_INERTIA_H

typedef enum { INERTIA_OK, INERTIA_NOT_PD, INERTIA_TRIANGLE } inertia_status;

/* Eigenvalues of a symmetric 3x3 matrix (row-major), ascending (cyclic Jacobi). */
void sym3_eigenvalues(const double A[9], double ev[3]);

/* Positive definite (smallest principal moment > 1e-12 x largest) and the
 * triangle inequality (largest <= sum of the other two, relative tol 1e-9).
 * ev receives the principal moments, ascending. */
inertia_status inertia_check(const double I[9], double ev[3]);

#endif
