/* emit_wasm.h — the planned functions (plan.h) as a WebAssembly binary module
 * (docs/codegen.md, "WebAssembly back end").
 *
 * The module imports env.memory (the runtime's), env.sin and env.cos (f64 ->
 * f64, for angles beyond +-MECH_SINCOS_MAX, as the C falls back to libm) and
 * env.scratch (an immutable i32: the address of scratch_bytes bytes the module
 * may use, 16-aligned, one per instance), and exports fwd_dyn,
 * fwd_dyn_own_gravity and, when the model has observations, observe, with
 * the signatures of generated.h (pointers as i32 addresses, doubles f64),
 * the global scratch_bytes and, given a handle layout, forward (below).  Its start function fills the scratch's
 * constant part (the sin/cos table, the zero fext and act). */
#ifndef MECH_CODEGEN_EMIT_WASM_H
#define MECH_CODEGEN_EMIT_WASM_H

#include "codegen/plan.h"
#include "codegen/wasm_writer.h"

/* Where a run's arrays are: the byte offsets, in the handle a runtime passes
 * to forward, of the pointers to q, qd, tau, fext, act, qdd and gravity
 * (wasm/jit.c: the header of core/sim/data.h's mech_data, as wasm32 lays it
 * out). */
typedef struct {
    uint32_t q, qd, tau, fext, act, qdd, gravity;
} gen_wasm_handle;

/* V8's limits on one function (the JS-API limits of the WebAssembly
 * JavaScript Interface): a plan that would exceed them is refused. */
#define WASM_MAX_LOCALS 50000
#define WASM_MAX_BODY_BYTES 7654321

/* Appends the module to out and its scratch size to *scratch_bytes (may be
 * NULL); 0, or -1 with the own run's err set.  With a handle layout the
 * module also exports forward(handle) -> i32, the fast path of a runtime's
 * forward() (wasm/model.c's mw_forward, same checks): 0 when it wrote qdd
 * at the model's gravity, every q and qd finite and qdd finite; else 1,
 * and the runtime's own forward() runs (and names the bad entry).  handle
 * 0 gives 1.  And forward_model_gravity(handle), the same without the
 * gravity compare, for a handle whose gravity is known to be the model's
 * (wasm/model.c's mw_forward_model_gravity). */
int gen_emit_wasm(emitters *em, wasm_buf *out, uint32_t *scratch_bytes, const gen_wasm_handle *handle);

/* The module written to `path`; 0, or -1 with the own run's err set. */
int gen_emit_wasm_file(emitters *em, const char *path);

#endif
