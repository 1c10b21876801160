/* emit_wasm.h — the planned functions (plan.h) as a WebAssembly binary module
 * (docs/codegen.md, "WebAssembly back end").
 *
 * The module imports env.memory (the runtime's), env.sin and env.cos (f64 ->
 * f64, for angles beyond +-MECH_SINCOS_MAX, as the C falls back to libm) and
 * env.scratch (an immutable i32: the address of scratch_bytes bytes the module
 * may use, 16-aligned, one per instance), and exports fwd_dyn,
 * fwd_dyn_own_gravity and, when the model has observations, observe, with
 * the signatures of generated.h (pointers as i32 addresses, doubles f64),
 * and the global scratch_bytes.  Its start function fills the scratch's
 * constant part (the sin/cos table, the zero fext and act). */
#ifndef MECH_CODEGEN_EMIT_WASM_H
#define MECH_CODEGEN_EMIT_WASM_H

#include "codegen/plan.h"
#include "codegen/wasm_writer.h"

/* V8's limits on one function (the JS-API limits of the WebAssembly
 * JavaScript Interface): a plan that would exceed them is refused. */
#define WASM_MAX_LOCALS 50000
#define WASM_MAX_BODY_BYTES 7654321

/* Appends the module to out and its scratch size to *scratch_bytes (may be
 * NULL); 0, or -1 with the own run's err set. */
int gen_emit_wasm(emitters *em, wasm_buf *out, uint32_t *scratch_bytes);

/* The module written to `path`; 0, or -1 with the own run's err set. */
int gen_emit_wasm_file(emitters *em, const char *path);

#endif
