/* engine.h — the runtime engine's forward dynamics, shared by the runtime
 * module (runtime.c) and the native reference helper (native_ref.c), so that
 * "the same algorithm" is literally the same code on both sides.
 *
 * A tree without force elements runs the articulated-body algorithm
 * (core/rbda/aba.h).  A model with loops or force elements runs method 2 of
 * RBDA §8.5 on top of it (aba_fd_full, core/rbda/loops.h), with act[] feeding
 * the elements' inputs. */
#ifndef MECH_WASM_ENGINE_H
#define MECH_WASM_ENGINE_H

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"

typedef struct {
    const mech_model *m;
    aba_ws *aws;
    dense_ws *dws;         /* only for loops and force elements, else NULL */
    const double *act;     /* m->nact inputs, set by the owner; may be NULL  */
} mw_engine;

/* An engine for `m` (which must outlive it), or NULL when out of memory. */
mw_engine *mw_engine_new(const mech_model *m);
/* Frees an engine; takes void * to serve as a ctx destructor.  NULL is fine. */
void mw_engine_free(void *engine);
/* mech_fd_fn (core/sim/integrate.h) with ctx an mw_engine. */
void mw_engine_fd(void *ctx, const double *q, const double *qd, const double *tau,
                  const double *fext, double *qdd);

#endif
