/* sim.h — the WebAssembly binding of one run (mech/sim.h).
 *
 * This is the C half of wasm/index.mjs, shared by both kinds of module: the
 * runtime module (runtime.c and xpbd.c: parser, ABA and XPBD, runs any .mech
 * text) and the per-model modules (model.c: one model's generated
 * dynamics).  A handle is a mech_data that owns its parsed model; JavaScript
 * reads its array pointers once (mw_arrays: mech_data_arrays_get) and views
 * them in place.  Everything is computed by the core through the public API
 * (include/mech/); nothing here computes.
 *
 * Every exported function reports failure through mw_error_message/line/col
 * and returns normally: no abort, no trap, no stdio, so the module imports
 * nothing but the memory-growth notification and stays usable after errors.
 */
#ifndef MECH_WASM_SIM_H
#define MECH_WASM_SIM_H

#include "mech/mech.h"

typedef mech_data mw_sim;

/* A handle on run d (NULL: *err says why) owning model m, which is freed
 * with it or here on failure.  NULL with the error set. */
mw_sim *mw_sim_adopt(mech_data *d, mech_model *m, const mech_error *err);

/* forward() on any handle, naming the first bad input on failure; a
 * per-model module exports it as mw_forward after its own fast path. */
int mw_sim_forward(mw_sim *s);

/* Record an error (printf-style) / a parse error, for mw_error_*. */
void mw_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mw_fail_parse(const mech_error *err);

/* The parsed .mech text, or NULL with the parse error set. */
mech_model *mw_parse(const char *text, size_t len, const char *name);

/* The timing loops of bench.c over a handle (bench.h, docs/wasm.md
 * "Benchmark"): its forward dynamics on 256 random states, the same loop
 * over the null backend (the call overhead), and `calls` evaluations at its
 * current state with none of forward()'s checks.  Each returns a checksum,
 * NaN with the error set when it cannot run. */
double mw_sim_bench_forward(mw_sim *s, int calls);
double mw_sim_bench_overhead(mw_sim *s, int calls);
double mw_sim_bench_here(mw_sim *s, int calls);

#endif
