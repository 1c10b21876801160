/* native_ref.c — the native side of the WebAssembly tests and benchmark.
 *
 * The same core and generated C that the modules contain, compiled natively
 * (cmake/wasm_host.cmake links it against the native mech_core and
 * mech_generated libraries), printing what the Node suite and bench compare
 * against, and the manifests the build writes.  All output is JSON on
 * stdout; numbers are %.17g so they round-trip exactly.
 *
 *   mech-wasm-ref info FILE[@BASE]...  [{name, description, nq, nv, nb, nact, backend, engine, group}]
 *                                      (models.json: the shipped Featherstone models; backend
 *                                      'generated' when this build has the model's generated
 *                                      code, which the WebAssembly tree builds from the same list,
 *                                      else 'runtime'; FILE@BASE a terrain scene run on BASE's
 *                                      module, named in its entry's "module")
 *   mech-wasm-ref scenes FILE...       the same with nrod, engine 'xpbd', backend 'runtime', group 'xpbd'
 *                                      (scenes.json: the XPBD scenes the page lists); a file that
 *                                      does not load on XPBD is an error
 *   mech-wasm-ref check FILE           the parser's verdict: {"error": "file:line:col: ..."} or {"error": null}
 *   mech-wasm-ref states FILE SEED N   N random states (mech_sample_loop_state: near the
 *                                      closure manifold for loop models, random act) and qdd
 *                                      by the generated code (when the build has it), the
 *                                      runtime engine (ABA, mech/featherstone.h) and the dense reference
 *   mech-wasm-ref bench FILE RUNS      ns per forward-dynamics call, best of RUNS: generated,
 *                                      runtime engine, dense, and the loop's own cost
 *                                      (overhead: the null backend of bench.h, the call
 *                                      overhead a generated backend's figure includes)
 * act is zero in bench.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "mech/featherstone.h"
#include "mech/xpbd.h"
#include "rbda/dense.h"
#include "rbda/loop_project.h"
#include "rbda/loop_sample.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "sim/data.h"
#include "sim/generated.h"

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void json_array(const char *key, const double *v, int n)
{
    printf("\"%s\":[", key);
    for (int i = 0; i < n; i++) printf("%s%.17g", i ? "," : "", v[i]);
    putchar(']');
}

static mech_model *load(const char *path)
{
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    if (!m) {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
    }
    return m;
}

/* The generated code as a mech_fd_fn, as wasm/model.c wraps it for an
 * engine at the model's gravity (fwd_dyn_own_gravity). */
typedef struct {
    const mech_generated *g;
    const double *act;
} gen_engine;

static void gen_engine_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    const gen_engine *e = ctx;
    e->g->fwd_dyn_own_gravity(q, qd, tau, fext, e->act, qdd);
}

/* The three forward dynamics of one model, each a mech_fd_fn with its ctx. */
typedef struct {
    mech_model *m;
    gen_engine gen;
    mech_data *runtime; /* the runtime module's engine: ABA */
    dense_engine dense;
    double *zeros; /* act */
} engines;

static void engines_free(engines *e)
{
    mech_data_free(e->runtime);
    dense_ws_free(e->dense.ws);
    free(e->zeros);
    mech_model_free(e->m);
}

/* The model at `path` and its engines; the generated one only when this
 * build has code for a model of that name (gen.g NULL otherwise). */
static int engines_open(engines *e, const char *path)
{
    memset(e, 0, sizeof *e);
    if (!(e->m = load(path))) return -1;
    const mech_generated *g = mech_generated_find(e->m->name);
    e->zeros = calloc((size_t)(g && g->nact > e->m->nact ? g->nact : e->m->nact) + 1, sizeof(double));
    e->gen = (gen_engine){ g, e->zeros };
    mech_error err;
    e->runtime = mech_data_new_aba(e->m, &err);
    e->dense = (dense_engine){ e->m, dense_ws_new(e->m) };
    if (e->zeros && e->runtime && e->dense.ws) return 0;
    fprintf(stderr, "out of memory\n");
    engines_free(e);
    return -1;
}

/* One manifest entry's name, description and sizes, without the closing brace. */
static void entry_head(int n, const mech_model *m)
{
    printf("%s\n{\"name\":", n ? "," : "");
    json_string(m->name);
    printf(",\"description\":");
    json_string(m->description);
    printf(",\"nq\":%d,\"nv\":%d,\"nb\":%d,\"nact\":%d", m->nq, m->nv, m->nb, m->nact);
}

/* The shipped Featherstone models: generated when this build generated the
 * model (the WebAssembly tree makes a module of exactly those), else run on
 * the runtime engine from their text; the gallery groups them by folder:
 * models/loops/ is "loops", models/tracks/ "tracks", models/ "trees"; a
 * test rig (a file named *_rig.mech, such as the HMMWV on shaker posts) is
 * "rigs", apart from the vehicles; a terrain scene goes with its base
 * ("tracks" for a tracked vehicle, else "loops").  A
 * terrain scene is given as FILE@BASE: its text runs on the module of its
 * base model (wasm/scene.c), which the entry names as "module". */
static int info(int argc, char **argv)
{
    printf("[");
    for (int i = 0; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", argv[i]);
        char *at = strrchr(path, '@');
        const char *base = NULL;
        if (at && !strchr(at, '/')) {
            *at = 0;
            base = at + 1;
        }
        size_t len = strlen(path);
        const char *group = len > 9 && !strcmp(path + len - 9, "_rig.mech") ? "rigs"
                          : strstr(path, "/loops/")                         ? "loops"
                          : strstr(path, "/tracks/")                        ? "tracks"
                                                                            : "trees";
        mech_model *m = load(path);
        if (!m) return 1;
        const mech_generated *g = mech_generated_find(base ? base : m->name);
        if (base && (!g || g->nq != m->nq || g->nv != m->nv || g->nb != m->nb || g->nc != m->nc || g->nact != m->nact)) {
            fprintf(stderr, "%s: its base '%s' has no generated code of the same size\n", path, base);
            mech_model_free(m);
            return 1;
        }
        /* a terrain scene is grouped with its base: a tracked vehicle, or a vehicle on tires (loops) */
        if (base) group = m->ntrack ? "tracks" : "loops";
        entry_head(i, m);
        printf(",\"backend\":\"%s\",\"engine\":\"featherstone\",\"group\":\"%s\"", g ? "generated" : "runtime", group);
        if (base) {
            printf(",\"module\":");
            json_string(base);
        }
        printf("}");
        mech_model_free(m);
    }
    printf("]\n");
    return 0;
}

/* The XPBD scenes: each opened on the XPBD engine as the runtime module
 * would run it (mech_data_new_xpbd), so a shipped scene XPBD cannot run
 * fails the build here instead of vanishing from the gallery. */
static int scenes(int argc, char **argv)
{
    printf("[");
    for (int i = 0; i < argc; i++) {
        mech_model *m = load(argv[i]);
        if (!m) return 1;
        mech_error err;
        mech_data *d = mech_data_new_xpbd(m, &err);
        if (!d) {
            char msg[MECH_ERROR_MAX + 160];
            mech_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "%s\n", msg);
            mech_model_free(m);
            return 1;
        }
        entry_head(i, m);
        printf(",\"nrod\":%d,\"backend\":\"runtime\",\"engine\":\"xpbd\",\"group\":\"xpbd\"}", mech_data_rod_count(d));
        mech_data_free(d);
        mech_model_free(m);
    }
    printf("]\n");
    return 0;
}

static int check(const char *path)
{
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    printf("{\"error\":");
    if (m) {
        printf("null");
    } else {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        json_string(msg);
    }
    printf(",\"line\":%d,\"column\":%d}\n", m ? 0 : err.line, m ? 0 : err.col);
    mech_model_free(m);
    return 0;
}

static int states(const char *path, unsigned long long seed, int n)
{
    engines e;
    if (engines_open(&e, path)) return 1;
    const mech_model *m = e.m;
    int nq = m->nq, nv = m->nv, nf = 6 * m->nb;
    int na = m->nact;
    double *buf = malloc(sizeof(double) * (size_t)(2 * nq + 5 * nv + nf + na + 1));
    if (!buf) {
        engines_free(&e);
        return 1;
    }
    double *q = buf, *qd = q + nq, *tau = qd + nv, *fext = tau + nv, *qdd = fext + nf, *act = qdd + nv;
    double *q_walk = act + na;
    mech_rng rng;
    mech_rng_seed(&rng, seed);
    mech_model_initial_state(m, q_walk, NULL);
    if (m->nc) mech_loop_project(m, e.dense.ws, q_walk);
    printf("[");
    for (int k = 0; k < n; k++) {
        mech_sample_loop_state(m, e.dense.ws, &rng, q_walk, q, qd, tau, fext, act);
        memcpy(e.zeros, act, sizeof(double) * (size_t)na);                  /* the generated code reads act here, */
        memcpy(mech_data_act(e.runtime), act, sizeof(double) * (size_t)na); /* the runtime its own */
        printf("%s\n{", k ? "," : "");
        json_array("q", q, nq);
        putchar(',');
        json_array("qd", qd, nv);
        putchar(',');
        json_array("tau", tau, nv);
        putchar(',');
        json_array("fext", fext, nf);
        putchar(',');
        json_array("act", act, na);
        if (e.gen.g) {
            gen_engine_fd(&e.gen, q, qd, tau, fext, qdd);
            putchar(',');
            json_array("generated", qdd, nv);
        }
        e.runtime->engine->fd(e.runtime, q, qd, tau, fext, qdd);
        putchar(',');
        json_array("runtime", qdd, nv);
        dense_fd_full(m, e.dense.ws, q, qd, tau, fext, act, qdd);
        putchar(',');
        json_array("dense", qdd, nv);
        putchar('}');
    }
    printf("]\n");
    free(buf);
    engines_free(&e);
    return 0;
}

/* This thread's CPU time: time spent descheduled on a shared machine is not
 * charged (bench/wasm_bench.mjs uses the process's CPU time alike). */
static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ns per call of mech_bench_forward(fd, ctx, calls): calls grown until one
 * run takes 5 ms, then the best of `runs` runs (the minimum filters out
 * time lost to other processes; bench/wasm_bench.mjs times WASM the same way). */
static double time_calls(const mech_model *m, mech_fd_fn fd, void *ctx, int runs, double *checksum)
{
    int calls = 1000;
    for (;;) {
        double t0 = now_ns();
        *checksum += mech_bench_forward(m, fd, ctx, calls);
        if (now_ns() - t0 >= 5e6 || calls >= 1 << 26) break;
        calls *= 2;
    }
    double best = 0;
    for (int run = 0; run < runs; run++) {
        double t0 = now_ns();
        *checksum += mech_bench_forward(m, fd, ctx, calls);
        double ns = (now_ns() - t0) / calls;
        if (run == 0 || ns < best) best = ns;
    }
    return best;
}

static int bench(const char *path, int runs)
{
    engines e;
    if (engines_open(&e, path)) return 1;
    double sum = 0;
    double gen = e.gen.g ? time_calls(e.m, gen_engine_fd, &e.gen, runs, &sum) : NAN;
    double runtime = time_calls(e.m, e.runtime->engine->fd, e.runtime, runs, &sum);
    double dense = time_calls(e.m, dense_engine_fd, &e.dense, runs, &sum);
    mech_bench_gen_fn null = mech_bench_null_gen;
    double overhead = time_calls(e.m, mech_bench_null_fd, &null, runs, &sum);
    printf("{\"name\":");
    json_string(e.m->name);
    printf(",\"runs\":%d,\"generated\":", runs);
    if (isnan(gen)) printf("null");
    else printf("%.6g", gen);
    printf(",\"runtime\":%.6g,\"dense\":%.6g,\"overhead\":%.6g,\"checksum\":%.17g}\n", runtime, dense, overhead, sum);
    engines_free(&e);
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: mech-wasm-ref info FILE... | scenes FILE... | check FILE | states FILE SEED N | bench FILE RUNS\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "info") == 0) return info(argc - 2, argv + 2);
    if (argc >= 3 && strcmp(argv[1], "scenes") == 0) return scenes(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "check") == 0) return check(argv[2]);
    if (argc == 5 && strcmp(argv[1], "states") == 0) return states(argv[2], strtoull(argv[3], NULL, 10), atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "bench") == 0) return bench(argv[2], atoi(argv[3]));
    return usage();
}
