/* mechgen.h — the generator as a library: a parsed model to the plan of its
 * generated functions, which emit.c writes as C and emit_wasm.c as a
 * WebAssembly module, after gen_check_size (estimate.h) has refused a model
 * too large for its target.  mechgen (main.c) and the runtime WebAssembly
 * module (wasm/jit.c) both drive it (docs/codegen.md). */
#ifndef MECH_CODEGEN_MECHGEN_H
#define MECH_CODEGEN_MECHGEN_H

#include "codegen/estimate.h"
#include "codegen/plan.h"

/* Which algorithm: the cheaper (ABA below ABA_MARGIN of the CRBA's
 * operations), one by name, or the other of the cheaper. */
enum { MECHGEN_CHEAPER = -1, MECHGEN_OTHER = -2 };

typedef struct {
    char stem[MECH_NAME_MAX];   /* the file stem: the model's name         */
    char cname[MECH_NAME_MAX];  /* the stem as a C identifier fragment      */
    gen own[2], general, shift; /* own[best] is kept, the other freed       */
    int best;                   /* the gen_algorithm kept                   */
    emitters em;                /* the plan of every generated function     */
} mechgen_output;

/* Runs the pipeline on m (loaded from `path`, checked by mech_loops_check)
 * by `algorithm` (a gen_algorithm, MECHGEN_CHEAPER or MECHGEN_OTHER) and
 * plans the functions.  0, or -1 with mechgen_error set; free with
 * mechgen_output_free either way. */
int mechgen_generate(mechgen_output *o, const mech_model *m, const char *path, int algorithm);
const char *mechgen_error(const mechgen_output *o);
void mechgen_output_free(mechgen_output *o);

#endif
