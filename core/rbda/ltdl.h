/* ltdl.h — the sparse factorization H = Lᵀ D L of a joint-space inertia
 * (RBDA §6.5, Table 6.3; Featherstone 2005, "Efficient factorization of the
 * joint-space inertia matrix for branched kinematic trees").
 *
 * L is unit lower triangular with L_kj nonzero only where dof j is an
 * ancestor of dof k in the tree (lambda below), so a factorization and each
 * solve touch only the ancestors of an entry: a vector that lives on one
 * branch stays on it.  H is nv x nv row-major, as aba_mass_matrix and
 * dense_crba give it; the factors replace it in place (D on the diagonal,
 * L_kj below it). */
#ifndef MECH_LTDL_H
#define MECH_LTDL_H

#include "model/model.h"

/* lambda[k] for every dof k of m: the dof before it in its own joint, else
 * the last dof of the nearest ancestor body that has one, else -1 (RBDA
 * §6.5: a joint of several freedoms as a chain of one-freedom joints). */
void ltdl_parents(const mech_model *m, int *lambda);

/* H = Lᵀ D L in place; 0, or -1 when a pivot is not positive. */
int ltdl_factor(int n, const int *lambda, double *H);

/* x = L⁻ᵀ x (from the leaves to the root). */
void ltdl_solve_lt(int n, const int *lambda, const double *LD, double *x);

/* x = L⁻¹ x (from the root to the leaves). */
void ltdl_solve_l(int n, const int *lambda, const double *LD, double *x);

#endif
