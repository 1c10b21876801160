/* estimate.h — the size of a model's generated code from its structure
 * alone, before any expression is built: what lets the generator refuse a
 * model too large for its target in milliseconds instead of after minutes
 * (docs/codegen.md, "Size limits"). */
#ifndef MECH_CODEGEN_ESTIMATE_H
#define MECH_CODEGEN_ESTIMATE_H

#include <stddef.h>

#include "model/model.h"

typedef enum { GEN_TARGET_C, GEN_TARGET_WASM } gen_target;

/* The estimated operations of one copy of the forward dynamics (what
 * mechgen prints as "ops at its own gravity"), and from them the bytes of
 * the C source and of the largest WebAssembly function. */
typedef struct {
    double ops, c_bytes, wasm_function_bytes;
} gen_estimate;

/* The generated C source at most: about as many operations as the
 * WebAssembly limit, WASM_MAX_BODY_BYTES in one function (emit_wasm.h), and
 * ten times the largest shipped model's (gcc -O2 takes minutes on it). */
#define GEN_MAX_C_BYTES (32.0 * 1024 * 1024)

gen_estimate gen_estimate_size(const mech_model *m);

/* Why m is refused for `target` (its estimate over the target's limit), as a
 * message naming both, into msg; 0 when it is within the limit, else -1. */
int gen_check_size(const mech_model *m, gen_target target, char *msg, size_t cap);

#endif
