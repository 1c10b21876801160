/* featherstone.h — the reduced-coordinate engines (RBDA): the runtime
 * articulated-body algorithm, which runs any model, a model's generated code
 * (core/codegen), which runs the one model it was generated from, and the
 * dense reference that validates both.
 * Both step with the model's integrator (Störmer–Verlet by default). */
#ifndef MECH_FEATHERSTONE_H
#define MECH_FEATHERSTONE_H

#include "mech/common.h"

struct mech_generated; /* a generated model's descriptor (core/sim/generated.h) */

/* A run of `m` on the articulated-body algorithm (RBDA Table 7.1), with
 * closed loops and force elements by RBDA §8.5's method 2 on top.  NULL with
 * *err filled when a loop is over-constrained (rank(K) < nc at the initial
 * pose: the error is at the loop's line) or out of memory.  m must outlive
 * the data. */
MECH_API mech_data *mech_data_new_aba(const mech_model *m, mech_error *err);

/* A run of `m` on the dense reference (RBDA: RNEA for the bias, CRBA for H,
 * an LU solve; method 2 for loops): O(n^3), for validating the others. */
MECH_API mech_data *mech_data_new_dense(const mech_model *m, mech_error *err);

/* A run of `m` on its generated code `g`; NULL with *err filled when g was
 * generated from another model (its sizes differ) or out of memory. */
MECH_API mech_data *mech_data_new_generated(const mech_model *m, const struct mech_generated *g, mech_error *err);

/* The generated code of this build's shipped model called `name` (its file
 * stem), or NULL: the registry of the library of generated models
 * (mech_generated, core/codegen/lookup.c), linked beside libmech. */
MECH_API const struct mech_generated *mech_generated_find(const char *name);

#endif
