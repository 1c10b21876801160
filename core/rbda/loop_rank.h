/* loop_rank.h — the rank of a model's loop Jacobian K (rbda/loops.h) and the
 * check every Featherstone path runs on opening a model: dependent rows make
 * method 2's A = K H^-1 K^T singular (RBDA §8.5). */
#ifndef MECH_LOOP_RANK_H
#define MECH_LOOP_RANK_H

#include <stddef.h>

#include "model/model.h"
#include "rbda/dense.h"

/* Numerical rank of K (nc x nv) by Gram-Schmidt QR of K^T with
 * reorthogonalization, rows in loop order: a row adds to the rank if its
 * component orthogonal to the rows before is longer than 1e-8 times the
 * longest row of K.  *short_loop (may be NULL): the first loop whose rows add
 * less than its nc, or -1; *margin (may be NULL): the shortest kept component
 * over the longest row.  K must not be ws->Y (the orthonormal rows go there).
 * Returns the rank, or -1 out of memory. */
int mech_loop_rank(const mech_model *m, dense_ws *ws, const double *K, int *short_loop, double *margin);

/* rank(K) = nc at q?  Returns the rank; if short, writes a message naming the
 * loop and the fix (close a planar loop with point-on-line) into msg. */
int mech_loop_check(const mech_model *m, dense_ws *ws, const double *q, char *msg, size_t cap);

/* The open-time check of every path that runs a model on the Featherstone
 * engines (the runtime module, the code generator, the CLI): rank(K) = nc at
 * the model's initial configuration q0, exactly where the first forward()
 * of an opened model evaluates K.  Dependent rows make A = K H^-1 K^T
 * singular, so method 2 would fail there.  The tolerance is mech_loop_rank's:
 * a row counts if its part orthogonal to the rows before it is longer than
 * 1e-8 (about sqrt(machine epsilon)) times the longest row of K.  A row that
 * is dependent in exact arithmetic leaves a remainder of roundoff size,
 * ~1e-15 relative, while a kept row with remainder r makes cond(A) grow like
 * 1/r^2: past 1e-8 that is 1e16, where the LU of A has no correct digit left.
 * Returns 0, or -1 with *err at the first loop whose rows are short (its line
 * and the column of its name) saying how many rows are redundant.  err->file
 * is left as it is (the parse that made m set it); when empty it becomes
 * m->name. */
int mech_loops_check(const mech_model *m, mech_error *err);

#endif
