/* main.c — mechgen: generate specialized forward dynamics for one model.
 *
 *   mechgen [--algorithm crba|aba|other] [--wasm <out.wasm>] <model.mech> [<out.c> <out.h>]
 *
 * builds the forward dynamics by both algorithms (CRBA + L^T D L, or the
 * articulated-body algorithm) and keeps the one of fewer operations (ABA by a
 * margin, ABA_MARGIN), unless --algorithm names one (other: the one it would
 * not keep).
 * Loads the model through the shared parser, runs the dynamics algorithms
 * symbolically (gen.h) and writes the C source and header, and/or the same
 * functions as a WebAssembly module (emit_wasm.h).  Errors go to
 * stderr as "file:line: message" with exit status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit_wasm.h"
#include "codegen/mechgen.h"
#include "rbda/loop_rank.h"

static const char *const algorithm_name[2] = { "crba", "aba" };

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--algorithm crba|aba|other] [--wasm <out.wasm>] <model.mech> [<out.c> <out.h>]\n", prog);
    return 2;
}

int main(int argc, char **argv)
{
    /* an algorithm, MECHGEN_CHEAPER, or MECHGEN_OTHER (the dearer, so that a
     * test can validate both whatever the choice) */
    int forced = MECHGEN_CHEAPER;
    const char *wasm_path = NULL, *prog = argv[0];
    while (argc >= 3 && argv[1][0] == '-') {
        if (strcmp(argv[1], "--algorithm") == 0) {
            forced = strcmp(argv[2], "other") == 0 ? MECHGEN_OTHER : -3;
            for (int a = 0; a < 2; a++)
                if (strcmp(argv[2], algorithm_name[a]) == 0) forced = a;
            if (forced == -3) {
                fprintf(stderr, "%s: --algorithm takes crba, aba or other, not '%s'\n", prog, argv[2]);
                return 2;
            }
        } else if (strcmp(argv[1], "--wasm") == 0) {
            wasm_path = argv[2];
        } else {
            return usage(prog);
        }
        argv += 2;
        argc -= 2;
    }
    if (argc != 4 && !(argc == 2 && wasm_path)) return usage(prog);
    mech_error err;
    mech_model *m = mech_model_load(argv[1], &err);
    if (m && mech_loops_check(m, &err)) { /* over-constrained: A would be singular in the generated code */
        mech_model_free(m);
        m = NULL;
    }
    if (!m) {
        char msg[512];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "mechgen: %s\n", msg);
        return 1;
    }
    /* refused in milliseconds when its estimated size is over a target's limit (estimate.h) */
    char why[400];
    if ((wasm_path && gen_check_size(m, GEN_TARGET_WASM, why, sizeof why)) ||
        (argc == 4 && gen_check_size(m, GEN_TARGET_C, why, sizeof why))) {
        fprintf(stderr, "mechgen: %s: %s\n", argv[1], why);
        mech_model_free(m);
        return 1;
    }
    mechgen_output o;
    int rc = mechgen_generate(&o, m, argv[1], forced);
    if (rc == 0 && wasm_path) rc = gen_emit_wasm_file(&o.em, wasm_path);
    if (rc == 0 && argc == 4) rc = gen_emit(&o.em, o.cname, argv[2], argv[3]);
    if (rc == 0) {
        const gen *own = &o.own[o.best];
        printf("mechgen: %s: nq %d nv %d nb %d nc %d: %s: %d ops (%d mul, %d add/sub, %d div, %d neg, %d sin/cos, "
               "%d sqrt) at its own gravity, %d with gravity an input, %d for G(q) g",
               o.stem, m->nq, m->nv, m->nb, m->nc, algorithm_name[o.best], own->ops.total, own->ops.mul, own->ops.add,
               own->ops.div, own->ops.neg, own->ops.trig, own->ops.sqrt, o.general.ops.total, o.shift.ops.total);
        if (own->other_ops >= 0) printf("; %s: %d ops", algorithm_name[1 - o.best], own->other_ops);
        putchar('\n');
    } else {
        fprintf(stderr, "mechgen: %s\n", mechgen_error(&o));
    }
    mechgen_output_free(&o);
    mech_model_free(m);
    return rc == 0 ? 0 : 1;
}
