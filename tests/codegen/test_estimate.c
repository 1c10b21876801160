/* test_estimate.c — the generated size estimated from a model's structure
 * (core/codegen/estimate.h) against the size the generator writes, on every
 * shipped model given as arguments and on chains with loops built here: the
 * C source and the WebAssembly module (an upper bound of its largest
 * function) each within ESTIMATE_FACTOR of the estimate.  And the refusal:
 * a 240-body chain with 60 loops, over both limits, refused by mechgen_check
 * in well under a second with the estimate and the limit in the message. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "codegen/emit_wasm.h"
#include "codegen/estimate.h"
#include "codegen/mechgen.h"
#include "rbda/loop_rank.h"

#define ESTIMATE_FACTOR 4.0

/* A planar chain of nb links on revolute y joints, curled by its q0, with
 * nloop point-on-line loops closing every (nb / nloop)-th link to the base. */
static char *chain_text(int nb, int nloop)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("gravity 0 0 -9.81\n", f);
    for (int i = 0; i < nb; i++) {
        fprintf(f, "body b%d\n  parent ", i);
        if (i) fprintf(f, "b%d\n", i - 1);
        else fputs("base\n", f);
        fprintf(f,
                "  joint revolute y\n  pos %g 0 0\n  mass 1\n  com 0.05 0 0\n  inertia 0.001 0.001 0.001\n"
                "  q0 %d\nend\n",
                i ? 0.1 : 0.0, 7 + i % 5);
    }
    for (int l = 0; l < nloop; l++)
        fprintf(f,
                "loop c%d\n  type point-on-line\n  pred base\n  ppos %g 0 0\n  paxis y\n  succ b%d\n  spos 0.1 0 0\nend\n",
                l, 0.05 * l, (l + 1) * (nb / nloop) - 1);
    fclose(f);
    return buf;
}

static int within(double estimate, double actual)
{
    return estimate <= ESTIMATE_FACTOR * actual && actual <= ESTIMATE_FACTOR * estimate;
}

/* The estimate of m against what the generator writes for it. */
static void compare(const mech_model *m, const char *path)
{
    gen_estimate e = gen_estimate_size(m);
    mechgen_output o;
    int rc = mechgen_generate(&o, m, path, MECHGEN_CHEAPER);
    CHECK(rc == 0, "%s: %s", path, mechgen_error(&o));
    if (rc == 0) {
        char *c = NULL;
        size_t c_len = 0;
        FILE *f = open_memstream(&c, &c_len);
        if (f) {
            gen_write_source(f, &o.em, o.cname, "model.h");
            fclose(f);
        }
        wasm_buf w = { 0 };
        CHECK(gen_emit_wasm(&o.em, &w, NULL, NULL) == 0, "%s: %s", path, mechgen_error(&o));
        printf("%s: %d ops, estimated %.0f; C %zu bytes, estimated %.0f; WebAssembly %zu bytes, estimated %.0f "
               "in its largest function\n",
               path, o.own[o.best].ops.total, e.ops, c_len, e.c_bytes, w.n, e.wasm_function_bytes);
        CHECK(within(e.c_bytes, (double)c_len), "%s: C estimated %.0f bytes, written %zu", path, e.c_bytes, c_len);
        CHECK(within(e.wasm_function_bytes, (double)w.n), "%s: WebAssembly estimated %.0f bytes, written %zu", path,
              e.wasm_function_bytes, w.n);
        free(c);
        wasm_buf_free(&w);
    }
    mechgen_output_free(&o);
}

static mech_model *chain(int nb, int nloop, char *name, size_t cap)
{
    snprintf(name, cap, "chain_%d_%d.mech", nb, nloop);
    char *text = chain_text(nb, nloop);
    mech_error err;
    mech_model *m = text ? mech_model_parse(text, strlen(text), name, &err) : NULL;
    CHECK(m && !mech_loops_check(m, &err), "%s: %s", name, err.message);
    free(text);
    return m;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        mech_error err;
        mech_model *m = mech_model_load(argv[i], &err);
        CHECK(m, "%s: %s", argv[i], err.message);
        if (m) compare(m, argv[i]);
        mech_model_free(m);
    }
    static const int chains[][2] = { { 12, 3 }, { 24, 6 }, { 48, 12 }, { 48, 6 } };
    for (size_t k = 0; k < sizeof chains / sizeof chains[0]; k++) {
        char name[64];
        mech_model *m = chain(chains[k][0], chains[k][1], name, sizeof name);
        if (m) compare(m, name);
        mech_model_free(m);
    }

    /* over both limits: refused from the structure alone */
    char name[64], msg[400];
    mech_model *m = chain(240, 60, name, sizeof name);
    if (m) {
        clock_t t0 = clock();
        int wasm = gen_check_size(m, GEN_TARGET_WASM, msg, sizeof msg);
        double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("%s: %s (%.3f s)\n", name, msg, seconds);
        CHECK(wasm == -1 && strstr(msg, "bytes of WebAssembly in one function (at most 7654321)"), "%s: %s", name, msg);
        CHECK(seconds < 1.0, "%s: refused after %.3f s", name, seconds);
        CHECK(gen_check_size(m, GEN_TARGET_C, msg, sizeof msg) == -1 &&
                  strstr(msg, "bytes of C source (at most 33554432)"),
              "%s: %s", name, msg);
    }
    mech_model_free(m);
    return failures ? 1 : 0;
}
