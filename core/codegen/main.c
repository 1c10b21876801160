/* main.c — mechgen: generate specialized forward dynamics for one model.
 *
 *   mechgen <model.mech> <out.c> <out.h>
 *
 * Loads the model through the shared parser, runs the dynamics algorithms
 * symbolically (gen.h) and writes the C source and header.  Errors go to
 * stderr as "file:line: message" with exit status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/gen.h"
#include "rbda/loops.h"

/* The file stem: what the build, the registry and mechgen_find call the model. */
static void file_stem(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (len >= cap) len = cap - 1;
    memcpy(out, base, len);
    out[len] = '\0';
}

/* mechgen_<name>: the file stem with anything but [A-Za-z0-9_] made '_'
 * (CMake's MAKE_C_IDENTIFIER does the same to name the registry entries). */
static void c_identifier(const char *name, char *out, size_t cap)
{
    size_t k = 0;
    for (const char *s = name; *s && k + 1 < cap; s++) {
        char ch = *s;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        out[k++] = ok ? ch : '_';
    }
    out[k] = '\0';
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s <model.mech> <out.c> <out.h>\n", argv[0]);
        return 2;
    }
    mech_error err;
    mech_model *m = mech_model_load(argv[1], &err);
    if (m && mech_loops_check(m, &err)) {       /* over-constrained: A would be singular in the generated code */
        mech_model_free(m);
        m = NULL;
    }
    if (!m) {
        char msg[512];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "mechgen: %s\n", msg);
        return 1;
    }
    char stem[MECH_NAME_MAX], cname[MECH_NAME_MAX];
    file_stem(argv[1], stem, sizeof stem);
    c_identifier(stem, cname, sizeof cname);
    /* Three runs: at the model's own gravity (folded into constants), with
     * gravity an input, and the generalized gravity force alone; fwd_dyn
     * dispatches on the gravity argument (gen_emit). */
    gen own, general, shift;
    memset(&general, 0, sizeof general);
    memset(&shift, 0, sizeof shift);
    int rc = gen_init(&own, m, argv[1], stem);
    if (rc == 0) rc = gen_init(&general, m, argv[1], stem);
    if (rc == 0) rc = gen_init(&shift, m, argv[1], stem);
    own.fold_gravity = 1;
    if (rc == 0) rc = gen_fwd_dyn(&own);
    if (rc == 0) rc = gen_fwd_dyn(&general);
    if (rc == 0) rc = gen_gravity_tau(&shift);
    if (rc == 0) rc = gen_emit(&own, &general, &shift, cname, argv[2], argv[3]);
    if (rc == 0)
        printf("mechgen: %s: nq %d nv %d nb %d nc %d: %d ops (%d mul, %d add/sub, %d div, %d neg, %d sin/cos, "
               "%d sqrt) at its own gravity, %d with gravity an input, %d for G(q) g\n", stem, m->nq, m->nv, m->nb,
               m->nc, own.ops.total, own.ops.mul, own.ops.add, own.ops.div, own.ops.neg, own.ops.trig, own.ops.sqrt,
               general.ops.total, shift.ops.total);
    else
        fprintf(stderr, "mechgen: %s\n", own.err[0] ? own.err : general.err[0] ? general.err : shift.err);
    gen_free(&own);
    gen_free(&general);
    gen_free(&shift);
    mech_model_free(m);
    return rc == 0 ? 0 : 1;
}
