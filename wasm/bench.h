/* bench.h — the forward-dynamics timing loop, compiled both natively and
 * into every WebAssembly module so the two figures time the same C.
 *
 * The caller times the call (performance.now() around one JS->WASM call, or
 * the native clock): the loop itself reads no clock, so the module needs no
 * clock import and no per-call JS overhead enters the figure. */
#ifndef MECH_WASM_BENCH_H
#define MECH_WASM_BENCH_H

#include "model/model.h"
#include "sim/integrate.h"

/* `calls` evaluations of fd(ctx, ...) cycling over a pool of 256 random
 * states (mech_sample_state, seed 1).  Returns a checksum of the results so
 * nothing is optimized away, or NaN when out of memory. */
double mech_bench_forward(const mech_model *m, mech_fd_fn fd, void *ctx, int calls);

#endif
