/* mech.c — the command-line tool: check, compare, run.
 *
 * Exit codes: 0 success; 1 a model failed to load or a gate failed;
 * 2 usage error.  Results go to stdout, errors to stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mech/mech.h"
#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/energy.h"
#include "rbda/loop_project.h"
#include "rbda/loop_rank.h"
#include "rbda/loop_sample.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "cli.h"

#define COMPARE_GATE 1e-12
#define LOOP_GATE 1e-9 /* method 2 at near-manifold states: cond(A) enters */
#define DEFAULT_MODEL "models/threelink.mech"

static const char USAGE[] = "usage: mech <command> [options]\n"
                            "\n"
                            "commands:\n"
                            "  check FILE...    parse .mech files, print a one-line summary of each\n"
                            "  compare FILE     CRBA-route vs ABA-route forward dynamics on random states\n"
                            "  run [FILE]       simulate from the model's initial state\n"
                            "  sim FILE         settle a tracked vehicle on its ground (and park it braked on a slope)\n"
                            "  help [COMMAND]   this text, or a command's\n"
                            "\n"
                            "Run 'mech COMMAND --help' for a command's options.\n"
                            "Exit status: 0 success, 1 model error or failed gate, 2 usage error.\n";

static const char CHECK_HELP[] =
    "usage: mech check FILE...\n"
    "\n"
    "Parse each model file and print one line per file:\n"
    "  threelink: nb 3, nq 3, nv 3, pois 1, shapes 3\n"
    "and for a model with loops or force elements a second line:\n"
    "  fourbar: loops 1, nc 2, rank(K) 2 at q0, closure |e| 7.6e-07 at q0, tsda 0, rsda 0, nact 0\n"
    "or its error as file:line:col: message (on stderr).  Like every command,\n"
    "check refuses a model whose loop Jacobian K has dependent rows at q0 (an\n"
    "over-constrained loop), at the loop's line; the rank(K) printed is taken at\n"
    "q0 projected onto the closure manifold, and rank(K) < nc there is an error too.\n"
    "Exit status 1 if any file fails to parse or has rank(K) < nc.\n";

static const char COMPARE_HELP[] = "usage: mech compare FILE [--trials N] [--seed S]\n"
                                   "\n"
                                   "On N random states (q, qd, tau, fext; mech_sample_state), compare the\n"
                                   "dense forward dynamics (RNEA bias + CRBA + LU, RBDA Tables 5.1 and 6.2)\n"
                                   "with the articulated-body algorithm (Table 7.1), and feed each forward\n"
                                   "result back through inverse dynamics (RNEA) to recover tau.  Prints the\n"
                                   "maximum scaled errors and the worst trials: qdd as max|a - b| / max(1, max|b|);\n"
                                   "the ID residual over max(1, |tau|, |C|), the forces in balance in\n"
                                   "H qdd + C = tau (see dense_id_residual; the tau-only figure is shown too).\n"
                                   "\n"
                                   "  --trials N   number of random states (default 1000)\n"
                                   "  --seed S     random seed (default 1)\n"
                                   "\n"
                                   "Exit status 1 if any error exceeds the gate 1e-12.\n"
                                   "\n"
                                   "A model with loops or force elements is compared with its constraints:\n"
                                   "states come from the near-manifold random walk (Gauss-Newton projection,\n"
                                   "consistent qd, then a 1e-3 tear so Baumgarte is live) and random act[];\n"
                                   "method 2 by CRBA + LU (dense_fd_full) vs by one ABA factorization\n"
                                   "(aba_fd_full), and rank(K) = nc at every trial.  Gate 1e-9.\n";

static const char RUN_HELP[] = "usage: mech run [FILE] [--time T] [--dt DT] [--engine dense|aba]\n"
                               "\n"
                               "Simulate the model (default " DEFAULT_MODEL ") from its initial state\n"
                               "with zero joint forces and Stormer-Verlet, and print a summary:\n"
                               "steps, wall time and real-time factor, initial and final total energy\n"
                               "and their relative drift, and the final q.\n"
                               "\n"
                               "  --time T          simulated time in seconds (default 5)\n"
                               "  --dt DT           time step in seconds (default 0.001)\n"
                               "  --engine dense|aba  forward dynamics: dense CRBA route or ABA (default aba)\n"
                               "\n"
                               "A model with loops or force elements always runs on the dense engine\n"
                               "(method 2, dense_fd_full), from q0 projected onto the closure manifold and\n"
                               "the consistent part of qd0.\n"
                               "\n"
                               "Exit status 1 if the model fails to load or the state stops being finite\n"
                               "(a blow-up, or a singular step whose accelerations are NaN).\n";

int cli_usage_error(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "mech %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun 'mech %s --help' for usage.\n", cmd);
    return 2;
}

int cli_is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* "--name value" or "--name=value": returns the value and advances *i, or NULL
 * when argv[*i] is not this option.  *missing is set when the value is absent. */
const char *cli_option(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int cli_parse_double(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*out);
}

static int parse_ulong(const char *s, unsigned long long *out)
{
    char *end;
    if (*s == '-' || *s == '\0') return 0;
    *out = strtoull(s, &end, 10);
    return *end == '\0';
}

/* A model, or NULL with its error on stderr: parse errors and, as on every
 * open path, over-constrained loops (rank(K) < nc at q0, mech_loops_check).
 * Its warnings go to stderr too, "file:line:col: warning: ...". */
mech_model *cli_load(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { /* a FIFO without a writer would block the open for ever */
        fprintf(stderr, "%s: not a regular file\n", path);
        return NULL;
    }
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    for (int i = 0; m && i < mech_model_warning_count(m); i++) {
        const mech_error *w = mech_model_warning(m, i);
        fprintf(stderr, "%s:%d:%d: warning: %s\n", w->file, w->line, w->col, w->message);
    }
    if (m && mech_loops_check(m, &err)) {
        mech_model_free(m);
        m = NULL;
    }
    if (!m) {
        char buf[MECH_ERROR_MAX + 256];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
    return m;
}

double cli_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- check */

/* Loops and elements of a loaded model: sizes, closure and rank(K) at q0. */
static int check_loops(const mech_model *m)
{
    dense_ws *ws = dense_ws_new(m);
    double *q = malloc(((size_t)m->nq + 1) * sizeof *q), *e = malloc(((size_t)m->nc + 1) * sizeof *e);
    char msg[MECH_ERROR_MAX * 2] = "";
    int rc = 1;
    if (!ws || !q || !e) {
        fprintf(stderr, "mech check: out of memory\n");
        goto done;
    }
    mech_model_initial_state(m, q, NULL);
    mech_loop_terms(m, ws, q, NULL, e, NULL, NULL, NULL);
    double e0 = 0;
    for (int i = 0; i < m->nc; i++) e0 = fmax(e0, fabs(e[i]));
    mech_loop_project(m, ws, q);
    int rank = mech_loop_check(m, ws, q, msg, sizeof msg);
    printf("%s: loops %d, nc %d, rank(K) %d at q0, closure |e| %.1e at q0, tsda %d, rsda %d, nact %d\n", m->name,
           m->nloop, m->nc, rank, e0, m->ntsda, m->nrsda, m->nact);
    if (rank < m->nc) fprintf(stderr, "%s\n", msg);
    rc = rank < m->nc;
done:
    free(q);
    free(e);
    dense_ws_free(ws);
    return rc;
}

static int cmd_check(int argc, char **argv)
{
    int bad = 0, files = 0;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(CHECK_HELP, stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') return cli_usage_error("check", "unknown option '%s'", argv[i]);
    }
    for (int i = 0; i < argc; i++) {
        mech_model *m = cli_load(argv[i]);
        files++;
        if (!m) {
            bad = 1;
            continue;
        }
        printf("%s: nb %d, nq %d, nv %d, pois %d, shapes %d\n", m->name, m->nb, m->nq, m->nv, m->npoi, m->nshape);
        if (m->nloop || m->ntsda || m->nrsda) bad |= check_loops(m);
        mech_model_free(m);
    }
    if (files == 0) return cli_usage_error("check", "%s", "no model files given");
    return bad;
}

/* -------------------------------------------------------------- compare */

typedef struct {
    double err;
    int worst;
} worst_case;

static void track(worst_case *w, double err, int trial)
{
    if (err > w->err || (isnan(err) && !isnan(w->err))) {
        w->err = err;
        w->worst = trial;
    }
}

/* Loop / element models: method 2 two ways at near-manifold states. */
static int compare_loops(const char *path, mech_model *m, long trials, unsigned long long seed)
{
    int nv = m->nv;
    size_t nvs = (size_t)nv + 1, nqs = (size_t)m->nq + 1, nfs = 6 * (size_t)m->nb + 1;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    double *q = malloc(nqs * sizeof *q), *qt = malloc(nqs * sizeof *qt), *qd = malloc(nvs * sizeof *qd);
    double *tau = malloc(nvs * sizeof *tau), *fext = malloc(nfs * sizeof *fext), *qdd_c = malloc(nvs * sizeof *qdd_c);
    double *qdd_a = malloc(nvs * sizeof *qdd_a), *act = calloc((size_t)m->nact + 1, sizeof *act);
    int rc = 1;
    if (!dws || !aws || !q || !qt || !qd || !tau || !fext || !qdd_c || !qdd_a || !act) {
        fprintf(stderr, "mech compare: out of memory\n");
        goto done;
    }
    worst_case fd = { 0, 0 };
    int rank_short = 0;
    double closure = 0;
    mech_rng rng;
    mech_rng_seed(&rng, seed);
    mech_model_initial_state(m, q, NULL);
    mech_loop_project(m, dws, q);
    for (long t = 0; t < trials; t++) {
        closure = fmax(closure, mech_manifold_walk(m, dws, &rng, q, 0.2));
        mech_sample_state(m, &rng, NULL, qd, tau, fext);
        for (int i = 0; i < m->nact; i++) act[i] = mech_rng_uniform(&rng, -5, 5);
        mech_loop_project_velocity(m, dws, q, qd);
        memcpy(qt, q, (nqs - 1) * sizeof *q);
        mech_manifold_tear(m, dws, &rng, qt, qd, 1e-3);
        if (m->nc) {
            mech_loop_terms(m, dws, qt, NULL, NULL, NULL, dws->K, NULL);
            rank_short += mech_loop_rank(m, dws, dws->K, NULL, NULL) < m->nc;
        }
        dense_fd_full(m, dws, qt, qd, tau, fext, act, qdd_c);
        aba_fd_full(m, aws, dws, qt, qd, tau, fext, act, qdd_a);
        track(&fd, mech_scaled_error(qdd_a, qdd_c, nv), (int)t);
    }
    printf("compare: %s: %ld near-manifold trials (seed %llu), nb %d, nq %d, nv %d, nc %d, nact %d, gate %.0e\n", path,
           trials, seed, m->nb, m->nq, nv, m->nc, m->nact, LOOP_GATE);
    printf("compare:   walk closure max|e| = %.3e, trials with rank(K) < nc: %d\n", closure, rank_short);
    printf("compare:   max scaled |qdd_aba - qdd_crba| (method 2) = %.3e (worst at trial %d)\n", fd.err, fd.worst);
    rc = fd.err <= LOOP_GATE && rank_short == 0 ? 0 : 1;
    printf("compare: %s\n", rc ? "FAIL" : "PASS");
done:
    free(q);
    free(qt);
    free(qd);
    free(tau);
    free(fext);
    free(qdd_c);
    free(qdd_a);
    free(act);
    dense_ws_free(dws);
    aba_ws_free(aws);
    return rc;
}

static int compare_model(const char *path, long trials, unsigned long long seed)
{
    mech_model *m = cli_load(path);
    if (!m) return 1;
    if (m->nloop || m->ntsda || m->nrsda) {
        int r = compare_loops(path, m, trials, seed);
        mech_model_free(m);
        return r;
    }
    int nv = m->nv;
    size_t nvs = (size_t)nv + 1, nqs = (size_t)m->nq + 1, nfs = 6 * (size_t)m->nb + 1;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    double *q = malloc(nqs * sizeof *q), *qd = malloc(nvs * sizeof *qd), *tau = malloc(nvs * sizeof *tau);
    double *fext = malloc(nfs * sizeof *fext), *qdd_c = malloc(nvs * sizeof *qdd_c);
    double *qdd_a = malloc(nvs * sizeof *qdd_a);
    int rc = 1;
    if (!dws || !aws || !q || !qd || !tau || !fext || !qdd_c || !qdd_a) {
        fprintf(stderr, "mech compare: out of memory\n");
        goto done;
    }
    worst_case fd = { 0, 0 }, idc = { 0, 0 }, ida = { 0, 0 };
    double plain_c = 0, plain_a = 0, plain;
    mech_rng rng;
    mech_rng_seed(&rng, seed);
    for (long t = 0; t < trials; t++) {
        mech_sample_state(m, &rng, q, qd, tau, fext);
        dense_fd(m, dws, q, qd, tau, fext, qdd_c);
        aba_fd(m, aws, q, qd, tau, fext, qdd_a);
        track(&fd, mech_scaled_error(qdd_a, qdd_c, nv), (int)t);
        track(&idc, dense_id_residual(m, dws, q, qd, qdd_c, fext, tau, &plain), (int)t);
        plain_c = fmax(plain_c, plain);
        track(&ida, dense_id_residual(m, dws, q, qd, qdd_a, fext, tau, &plain), (int)t);
        plain_a = fmax(plain_a, plain);
    }
    printf("compare: %s: %ld trials (seed %llu), nb %d, nq %d, nv %d, gate %.0e\n", path, trials, seed, m->nb, m->nq,
           nv, COMPARE_GATE);
    printf("compare:   max scaled |qdd_aba - qdd_crba| = %.3e (worst at trial %d)\n", fd.err, fd.worst);
    printf("compare:   max |ID(qdd_crba) - tau| / balance = %.3e (worst at trial %d; scaled by |tau| alone %.3e)\n",
           idc.err, idc.worst, plain_c);
    printf("compare:   max |ID(qdd_aba) - tau| / balance  = %.3e (worst at trial %d; scaled by |tau| alone %.3e)\n",
           ida.err, ida.worst, plain_a);
    rc = fd.err <= COMPARE_GATE && idc.err <= COMPARE_GATE && ida.err <= COMPARE_GATE ? 0 : 1;
    printf("compare: %s\n", rc ? "FAIL" : "PASS");
done:
    free(q);
    free(qd);
    free(tau);
    free(fext);
    free(qdd_c);
    free(qdd_a);
    dense_ws_free(dws);
    aba_ws_free(aws);
    mech_model_free(m);
    return rc;
}

static int cmd_compare(int argc, char **argv)
{
    const char *file = NULL;
    unsigned long long trials = 1000, seed = 1;
    for (int i = 0; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (cli_is_help(argv[i])) {
            fputs(COMPARE_HELP, stdout);
            return 0;
        } else if ((v = cli_option(argc, argv, &i, "--trials", &missing))) {
            if (!parse_ulong(v, &trials) || trials == 0 || trials > 1000000000ull)
                return cli_usage_error("compare", "--trials wants a positive integer, got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--seed", &missing))) {
            if (!parse_ulong(v, &seed))
                return cli_usage_error("compare", "--seed wants a non-negative integer, got '%s'", v);
        } else if (missing) {
            return cli_usage_error("compare", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("compare", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_usage_error("compare", "one model file only (extra '%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file) return cli_usage_error("compare", "%s", "no model file given");
    return compare_model(file, (long)trials, seed);
}

/* `mech run`: the model on the ABA engine (or the dense reference) through
 * the engine interface, from its initial state projected onto the loop
 * manifold, one step per call so that a failed step is named. */
static int run_model(const char *path, double T, double dt, int use_dense)
{
    mech_model *m = cli_load(path);
    if (!m) return 1;
    mech_error err;
    mech_data *d = use_dense ? mech_data_new_dense(m, &err) : mech_data_new_aba(m, &err);
    dense_ws *dws = dense_ws_new(m);
    int rc = 1;
    if (!d || !dws) {
        fprintf(stderr, "mech run: %s: %s\n", path, d ? "out of memory" : err.message);
        goto done;
    }
    double *q = mech_data_q(d), *qd = mech_data_qd(d), e[2];
    mech_loop_project(m, dws, q);
    mech_loop_project_velocity(m, dws, q, qd);
    if (mech_data_energy(d, e)) {
        fprintf(stderr, "mech run: %s: the initial state: %s\n", path, mech_data_error(d)->message);
        goto done;
    }
    double E0 = e[0] + e[1];
    long steps = lround(T / dt);
    double t0 = cli_now();
    for (long s = 0; s < steps; s++) {
        /* a singular step leaves qdd NaN (method 2), a blow-up overflows: either poisons q, qd */
        if (mech_data_step(d, dt, 1)) {
            fprintf(stderr, "mech run: %s: the state is not finite after step %ld (t = %g s); the run failed: %s\n",
                    path, s + 1, (double)(s + 1) * dt, mech_data_error(d)->message);
            goto done;
        }
    }
    double wall = cli_now() - t0, sim = (double)steps * dt;
    if (mech_data_energy(d, e)) {
        fprintf(stderr, "mech run: %s: the final state: %s\n", path, mech_data_error(d)->message);
        goto done;
    }
    double E1 = e[0] + e[1];
    printf("model    %s (%s)\n", m->name, path);
    printf("sizes    nb %d, nq %d, nv %d", m->nb, m->nq, m->nv);
    if (m->nloop || m->ntsda || m->nrsda) printf(", nc %d, nact %d (act = 0)", m->nc, m->nact);
    printf("\n");
    printf("engine   %s, Stormer-Verlet, dt %g s\n",
           use_dense ? "dense (RNEA + CRBA + LU)" : "aba (with method 2 for loops and force elements)", dt);
    printf("steps    %ld (%g s simulated)\n", steps, sim);
    if (wall > 0)
        printf("wall     %.3f s, %.0f ns/step, real-time factor %.1fx\n", wall,
               1e9 * wall / (double)(steps ? steps : 1), sim / wall);
    else printf("wall     below the clock's resolution\n");
    printf("energy   initial %.9g J, final %.9g J, drift %.3e J", E0, E1, E1 - E0);
    if (E0 != 0) printf(" (relative %.3e)", (E1 - E0) / fabs(E0));
    printf("\nfinal q ");
    for (int k = 0; k < m->nq; k++) printf(" %.6g", q[k]);
    printf("\n");
    rc = 0;
done:
    dense_ws_free(dws);
    mech_data_free(d);
    mech_model_free(m);
    return rc;
}

static int cmd_run(int argc, char **argv)
{
    const char *file = NULL;
    double T = 5.0, dt = 1e-3;
    int use_dense = 0;
    for (int i = 0; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (cli_is_help(argv[i])) {
            fputs(RUN_HELP, stdout);
            return 0;
        } else if ((v = cli_option(argc, argv, &i, "--time", &missing))) {
            if (!cli_parse_double(v, &T) || T < 0 || T > 1e6)
                return cli_usage_error("run", "--time wants seconds in [0, 1e6], got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--dt", &missing))) {
            if (!cli_parse_double(v, &dt) || dt <= 0 || dt > 1)
                return cli_usage_error("run", "--dt wants seconds in (0, 1], got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--engine", &missing))) {
            if (strcmp(v, "dense") != 0 && strcmp(v, "aba") != 0)
                return cli_usage_error("run", "--engine is dense or aba, got '%s'", v);
            use_dense = strcmp(v, "dense") == 0;
        } else if (missing) {
            return cli_usage_error("run", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage_error("run", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_usage_error("run", "one model file only (extra '%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (T / dt > 1e9) return cli_usage_error("run", "%s", "more than 1e9 steps; raise --dt or lower --time");
    return run_model(file ? file : DEFAULT_MODEL, T, dt, use_dense);
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(USAGE, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
    if (strcmp(cmd, "compare") == 0) return cmd_compare(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "sim") == 0) return cli_sim(argc - 2, argv + 2);
    if (strcmp(cmd, "help") == 0 || cli_is_help(cmd)) {
        const char *sub = argc > 2 ? argv[2] : "";
        fputs(strcmp(sub, "check") == 0     ? CHECK_HELP
              : strcmp(sub, "compare") == 0 ? COMPARE_HELP
              : strcmp(sub, "run") == 0     ? RUN_HELP
              : strcmp(sub, "sim") == 0     ? cli_sim_help
                                            : USAGE,
              stdout);
        return 0;
    }
    fprintf(stderr, "mech: unknown command '%s'\n\n%s", cmd, USAGE);
    return 2;
}
