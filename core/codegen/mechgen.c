/* mechgen.c — see mechgen.h: both algorithms, the cheaper kept, then the
 * copies for another gravity and the plan. */
#include "codegen/mechgen.h"

#include <stdio.h>
#include <string.h>

/* The articulated-body algorithm is kept only below this fraction of the
 * CRBA's operations: at equal counts it runs slower, its pivots forming one
 * chain of divisions where the L^T D L overlaps them in pairs (docs/codegen.md,
 * "Two algorithms"; the timings: docs/benchmarks.md, "Measured reasons in the
 * code"). */
#define ABA_MARGIN 0.9

/* The file stem: what the build, the registry and mech_generated_find call the model. */
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

/* Runs the pipeline at the model's own gravity (folded into constants) with
 * algorithm a into g; 0, or -1 with g->err set. */
static int build_own(gen *g, const mech_model *m, const char *path, const char *stem, gen_algorithm a)
{
    if (gen_init(g, m, path, stem) != 0) return -1;
    g->fold_gravity = 1;
    g->algorithm = a;
    return gen_fwd_dyn(g);
}

/* The forward dynamics at the model's own gravity by each algorithm asked
 * for; the one of fewer operations is kept, the ABA by ABA_MARGIN (one that
 * fails, e.g. too large for the expression pool, gives way to the other).
 * Then two more runs with it: gravity an input, and the generalized gravity
 * force alone; fwd_dyn dispatches on the gravity argument. */
int mechgen_generate(mechgen_output *o, const mech_model *m, const char *path, int algorithm)
{
    memset(o, 0, sizeof *o);
    const char *why = gen_unquotable(path);
    if (why) {
        snprintf(o->own[0].err, sizeof o->own[0].err,
                 "the name '%.64s' cannot be written into generated C: it holds %s", path, why);
        return -1;
    }
    file_stem(path, o->stem, sizeof o->stem);
    c_identifier(o->stem, o->cname, sizeof o->cname);
    int ok[2] = { 0, 0 }, ops[2] = { -1, -1 };
    for (int a = 0; a < 2; a++) {
        if (algorithm >= 0 && a != algorithm) continue;
        ok[a] =
            build_own(&o->own[a], m, path, o->stem, (gen_algorithm)a) == 0 && (ops[a] = gen_count_ops(&o->own[a])) >= 0;
    }
    int best = algorithm >= 0                                                              ? algorithm
             : ok[GEN_ABA] && (!ok[GEN_CRBA] || ops[GEN_ABA] < ABA_MARGIN * ops[GEN_CRBA]) ? GEN_ABA
                                                                                           : GEN_CRBA;
    if (algorithm == MECHGEN_OTHER) best = 1 - best;
    o->best = best;
    int rc = ok[best] ? 0 : -1;
    if (rc == 0) {
        o->own[best].other_ops = ok[1 - best] ? ops[1 - best] : -1;
        gen_free(&o->own[1 - best]);
        rc = gen_init(&o->general, m, path, o->stem);
    }
    if (rc == 0) rc = gen_init(&o->shift, m, path, o->stem);
    o->general.algorithm = (gen_algorithm)best;
    if (rc == 0) rc = gen_fwd_dyn(&o->general);
    if (rc == 0) rc = gen_gravity_tau(&o->shift);
    if (rc == 0) rc = gen_plan(&o->em, &o->own[best], &o->general, &o->shift);
    return rc;
}

const char *mechgen_error(const mechgen_output *o)
{
    const gen *own = &o->own[o->best];
    return own->err[0] ? own->err : o->general.err[0] ? o->general.err : o->shift.err;
}

void mechgen_output_free(mechgen_output *o)
{
    gen_plan_free(&o->em);
    gen_free(&o->own[0]);
    gen_free(&o->own[1]);
    gen_free(&o->general);
    gen_free(&o->shift);
}
