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
    gen g;
    int rc = gen_init(&g, m, argv[1], stem);
    if (rc == 0) rc = gen_fwd_dyn(&g);
    if (rc == 0) rc = gen_emit(&g, cname, argv[2], argv[3]);
    if (rc == 0)
        printf("mechgen: %s: nq %d nv %d nb %d nc %d: %d ops (%d mul, %d add/sub, %d div, %d neg, %d sin/cos, "
               "%d sqrt)\n", stem, m->nq, m->nv, m->nb, m->nc, g.ops.total, g.ops.mul, g.ops.add, g.ops.div,
               g.ops.neg, g.ops.trig, g.ops.sqrt);
    else
        fprintf(stderr, "mechgen: %s\n", g.err);
    gen_free(&g);
    mech_model_free(m);
    return rc == 0 ? 0 : 1;
}
