/* main.c — mechgen: generate specialized forward dynamics for one model.
 *
 *   mechgen [--algorithm crba|aba|other] <model.mech> <out.c> <out.h>
 *
 * builds the forward dynamics by both algorithms (CRBA + L^T D L, or the
 * articulated-body algorithm) and keeps the one of fewer operations (ABA by a
 * margin, ABA_MARGIN), unless --algorithm names one (other: the one it would
 * not keep).
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

static const char *const algorithm_name[2] = { "crba", "aba" };

/* The articulated-body algorithm is kept only below this fraction of the
 * CRBA's operations: at equal counts it runs slower (measured, ns per call:
 * satellite 416 against 425 operations, 56.4 against 55.3 ns; panda 1 948
 * against 1 906, 279 against 228 ns; track_min 6 477 against 9 244, 1.46
 * against 2.15 us; docs/codegen.md, "Two algorithms"). */
#define ABA_MARGIN 0.9

/* Runs the pipeline at the model's own gravity (folded into constants) with
 * algorithm a into g; 0, or -1 with g->err set. */
static int build_own(gen *g, const mech_model *m, const char *path, const char *stem, gen_algorithm a)
{
    if (gen_init(g, m, path, stem) != 0) return -1;
    g->fold_gravity = 1;
    g->algorithm = a;
    return gen_fwd_dyn(g);
}

int main(int argc, char **argv)
{
    /* an algorithm; -1: the cheaper of the two; -2 ("other"): the dearer, so
     * that a test can validate both whatever the choice */
    int forced = -1;
    if (argc == 6 && strcmp(argv[1], "--algorithm") == 0) {
        forced = strcmp(argv[2], "other") == 0 ? -2 : -3;
        for (int a = 0; a < 2; a++)
            if (strcmp(argv[2], algorithm_name[a]) == 0) forced = a;
        if (forced == -3) {
            fprintf(stderr, "%s: --algorithm takes crba, aba or other, not '%s'\n", argv[0], argv[2]);
            return 2;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: %s [--algorithm crba|aba|other] <model.mech> <out.c> <out.h>\n", argv[0]);
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
    /* The forward dynamics at the model's own gravity by each algorithm asked
     * for; the one of fewer operations is kept, the ABA by ABA_MARGIN (one
     * that fails, e.g. too large for the expression pool, gives way to the
     * other).  Then two more runs
     * with it: gravity an input, and the generalized gravity force alone;
     * fwd_dyn dispatches on the gravity argument (gen_emit). */
    gen own[2], general, shift;
    int ok[2] = { 0, 0 }, ops[2] = { -1, -1 };
    memset(own, 0, sizeof own);
    memset(&general, 0, sizeof general);
    memset(&shift, 0, sizeof shift);
    for (int a = 0; a < 2; a++) {
        if (forced >= 0 && a != forced) continue;
        ok[a] = build_own(&own[a], m, argv[1], stem, (gen_algorithm)a) == 0 && (ops[a] = gen_count_ops(&own[a])) >= 0;
    }
    int best = forced >= 0 ? forced : ok[GEN_ABA] && (!ok[GEN_CRBA] || ops[GEN_ABA] < ABA_MARGIN * ops[GEN_CRBA])
                                                   ? GEN_ABA : GEN_CRBA;
    if (forced == -2) best = 1 - best;
    int rc = ok[best] ? 0 : -1;
    if (rc == 0) {
        own[best].other_ops = ok[1 - best] ? ops[1 - best] : -1;
        gen_free(&own[1 - best]);
        rc = gen_init(&general, m, argv[1], stem);
    }
    if (rc == 0) rc = gen_init(&shift, m, argv[1], stem);
    general.algorithm = (gen_algorithm)best;
    if (rc == 0) rc = gen_fwd_dyn(&general);
    if (rc == 0) rc = gen_gravity_tau(&shift);
    if (rc == 0) rc = gen_emit(&own[best], &general, &shift, cname, argv[2], argv[3]);
    const gen *o = &own[best];
    if (rc == 0) {
        printf("mechgen: %s: nq %d nv %d nb %d nc %d: %s: %d ops (%d mul, %d add/sub, %d div, %d neg, %d sin/cos, "
               "%d sqrt) at its own gravity, %d with gravity an input, %d for G(q) g", stem, m->nq, m->nv, m->nb,
               m->nc, algorithm_name[best], o->ops.total, o->ops.mul, o->ops.add, o->ops.div, o->ops.neg, o->ops.trig,
               o->ops.sqrt, general.ops.total, shift.ops.total);
        if (o->other_ops >= 0) printf("; %s: %d ops", algorithm_name[1 - best], o->other_ops);
        putchar('\n');
    } else {
        fprintf(stderr, "mechgen: %s\n", o->err[0] ? o->err : general.err[0] ? general.err : shift.err);
    }
    gen_free(&own[0]);
    gen_free(&own[1]);
    gen_free(&general);
    gen_free(&shift);
    mech_model_free(m);
    return rc == 0 ? 0 : 1;
}
