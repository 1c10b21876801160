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

/* A model whose loops are over-constrained (rank(K) < nc at its initial
 * pose, projected onto the closure manifold) would make A singular in the
 * generated code: refuse it with the dense reference's advice. */
static int check_loops(const mech_model *m, char *msg, size_t cap)
{
    if (m->nc == 0) return 0;
    dense_ws *ws = dense_ws_new(m);
    double *q = malloc(sizeof(double) * (size_t)m->nq);
    int rc = -1;
    if (!ws || !q) {
        snprintf(msg, cap, "%s: out of memory", m->name);
    } else {
        mech_model_initial_state(m, q, NULL);
        mech_loop_project(m, ws, q);
        rc = mech_loop_check(m, ws, q, msg, cap) == m->nc ? 0 : -1;
    }
    free(q);
    dense_ws_free(ws);
    return rc;
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
    if (!m) {
        char msg[512];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "mechgen: %s\n", msg);
        return 1;
    }
    char msg[512];
    if (check_loops(m, msg, sizeof msg) != 0) {
        fprintf(stderr, "mechgen: %s\n", msg);
        mech_model_free(m);
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
