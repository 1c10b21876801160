/* bench.h — the forward-dynamics timing loop, compiled both natively and
 * into every WebAssembly module so the two figures time the same C.
 *
 * The caller times the call (process CPU time around one JS->WASM call, or
 * the native thread's CPU time): the loop itself reads no clock, so the
 * module needs no clock import and no per-call JS overhead enters the figure.
 * bench/wasm_bench.mjs and mech-wasm-ref (wasm/native_ref.c) run the same
 * loops; docs/wasm.md, "Benchmark", has the method. */
#ifndef MECH_WASM_BENCH_H
#define MECH_WASM_BENCH_H

#include "model/model.h"
#include "sim/integrate.h"

/* `calls` evaluations of fd(ctx, ...) cycling over a pool of 256 random
 * states (mech_sample_state, seed 1).  Returns a checksum of the results so
 * nothing is optimized away, or NaN when out of memory. */
double mech_bench_forward(const mech_model *m, mech_fd_fn fd, void *ctx, int calls);

/* The call overhead, measured with the same loop: mech_bench_null_fd is a
 * backend that computes nothing (qdd is left as it is) but has the two call
 * levels of a generated backend — the loop calls it through fd, and it calls
 * the function ctx points to (a mech_bench_gen_fn, normally
 * mech_bench_null_gen, empty) with the generated code's signature, as
 * wasm/model.c's and native_ref.c's wrappers call the generated code.  Timed
 * through mech_bench_forward it gives the loop's own cost per call (pool
 * indexing, the checksum) plus the calls, which is subtracted from a
 * backend's figure to compare the generated code alone ("call overhead
 * excluded").  The caller passes ctx from another file, so the compiler
 * cannot inline or skip either call. */
typedef void (*mech_bench_gen_fn)(const double *q, const double *qd, const double *tau, const double *fext,
                                  const double *act, double *qdd);
void mech_bench_null_gen(const double *q, const double *qd, const double *tau, const double *fext, const double *act,
                         double *qdd);
void mech_bench_null_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd);

#endif
