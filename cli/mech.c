/* mech.c — the command-line tool: check, compare, run.
 *
 * Exit codes: 0 success; 1 a model failed to load or a gate failed;
 * 2 usage error.  Results go to stdout, errors to stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/energy.h"
#include "sim/integrate.h"
#include "sim/sample.h"

#define COMPARE_GATE 1e-12
#define DEFAULT_MODEL "models/threelink.mech"

static const char USAGE[] =
    "usage: mech <command> [options]\n"
    "\n"
    "commands:\n"
    "  check FILE...    parse .mech files, print a one-line summary of each\n"
    "  compare FILE     CRBA-route vs ABA-route forward dynamics on random states\n"
    "  run [FILE]       simulate from the model's initial state\n"
    "  help [COMMAND]   this text, or a command's\n"
    "\n"
    "Run 'mech COMMAND --help' for a command's options.\n"
    "Exit status: 0 success, 1 model error or failed gate, 2 usage error.\n";

static const char CHECK_HELP[] =
    "usage: mech check FILE...\n"
    "\n"
    "Parse each model file and print one line per file:\n"
    "  threelink: nb 3, nq 3, nv 3, pois 1, shapes 3\n"
    "or its parse error as file:line:col: message (on stderr).\n"
    "Exit status 1 if any file fails to parse.\n";

static const char COMPARE_HELP[] =
    "usage: mech compare FILE [--trials N] [--seed S]\n"
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
    "Exit status 1 if any error exceeds the gate 1e-12.\n";

static const char RUN_HELP[] =
    "usage: mech run [FILE] [--time T] [--dt DT] [--engine dense|aba]\n"
    "\n"
    "Simulate the model (default " DEFAULT_MODEL ") from its initial state\n"
    "with zero joint forces and semi-implicit Euler, and print a summary:\n"
    "steps, wall time and real-time factor, initial and final total energy\n"
    "and their relative drift, and the final q.\n"
    "\n"
    "  --time T          simulated time in seconds (default 5)\n"
    "  --dt DT           time step in seconds (default 0.001)\n"
    "  --engine dense|aba  forward dynamics: dense CRBA route or ABA (default aba)\n";

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "mech %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun 'mech %s --help' for usage.\n", cmd);
    return 2;
}

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

/* "--name value" or "--name=value": returns the value and advances *i, or NULL
 * when argv[*i] is not this option.  *missing is set when the value is absent. */
static const char *option(int argc, char **argv, int *i, const char *name, int *missing)
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

static int parse_double(const char *s, double *out)
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

static mech_model *load(const char *path)
{
    mech_error err;
    mech_model *m = mech_load(path, &err);
    if (!m) {
        char buf[MECH_ERROR_MAX + 256];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
    }
    return m;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- check */

static int cmd_check(int argc, char **argv)
{
    int bad = 0, files = 0;
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(CHECK_HELP, stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') return usage_error("check", "unknown option '%s'", argv[i]);
    }
    for (int i = 0; i < argc; i++) {
        mech_model *m = load(argv[i]);
        files++;
        if (!m) {
            bad = 1;
            continue;
        }
        printf("%s: nb %d, nq %d, nv %d, pois %d, shapes %d\n", m->name, m->nb, m->nq, m->nv, m->npoi, m->nshape);
        mech_model_free(m);
    }
    if (files == 0) return usage_error("check", "%s", "no model files given");
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

static int compare_model(const char *path, long trials, unsigned long long seed)
{
    mech_model *m = load(path);
    if (!m) return 1;
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
    free(q); free(qd); free(tau); free(fext); free(qdd_c); free(qdd_a);
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
        if (is_help(argv[i])) {
            fputs(COMPARE_HELP, stdout);
            return 0;
        } else if ((v = option(argc, argv, &i, "--trials", &missing))) {
            if (!parse_ulong(v, &trials) || trials == 0 || trials > 1000000000ull)
                return usage_error("compare", "--trials wants a positive integer, got '%s'", v);
        } else if ((v = option(argc, argv, &i, "--seed", &missing))) {
            if (!parse_ulong(v, &seed)) return usage_error("compare", "--seed wants a non-negative integer, got '%s'", v);
        } else if (missing) {
            return usage_error("compare", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("compare", "unknown option '%s'", argv[i]);
        } else if (file) {
            return usage_error("compare", "one model file only (extra '%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (!file) return usage_error("compare", "%s", "no model file given");
    return compare_model(file, (long)trials, seed);
}

/* ------------------------------------------------------------------ run */

static int run_model(const char *path, double T, double dt, int use_dense)
{
    mech_model *m = load(path);
    if (!m) return 1;
    size_t nvs = (size_t)m->nv + 1, nqs = (size_t)m->nq + 1;
    dense_ws *dws = dense_ws_new(m);
    aba_ws *aws = aba_ws_new(m);
    double *q = malloc(nqs * sizeof *q), *qd = malloc(nvs * sizeof *qd);
    double *tau = calloc(nvs, sizeof *tau), *qdd = malloc(nvs * sizeof *qdd);
    int rc = 1;
    if (!dws || !aws || !q || !qd || !tau || !qdd) {
        fprintf(stderr, "mech run: out of memory\n");
        goto done;
    }
    dense_engine de = { m, dws };
    aba_engine ae = { m, aws };
    mech_fd_fn fd = use_dense ? dense_engine_fd : aba_engine_fd;
    void *ctx = use_dense ? (void *)&de : (void *)&ae;
    long steps = lround(T / dt);
    mech_initial_state(m, q, qd);
    double E0 = mech_energy(m, dws, q, qd, NULL, NULL);
    double t0 = now();
    for (long s = 0; s < steps; s++) mech_step_euler(m, fd, ctx, q, qd, tau, NULL, qdd, dt);
    double wall = now() - t0, sim = (double)steps * dt;
    double E1 = mech_energy(m, dws, q, qd, NULL, NULL);
    printf("model    %s (%s)\n", m->name, path);
    printf("sizes    nb %d, nq %d, nv %d\n", m->nb, m->nq, m->nv);
    printf("engine   %s, semi-implicit Euler, dt %g s\n", use_dense ? "dense (RNEA + CRBA + LU)" : "aba", dt);
    printf("steps    %ld (%g s simulated)\n", steps, sim);
    if (wall > 0)
        printf("wall     %.3f s, %.0f ns/step, real-time factor %.1fx\n", wall, 1e9 * wall / (double)(steps ? steps : 1),
               sim / wall);
    else
        printf("wall     below the clock's resolution\n");
    printf("energy   initial %.9g J, final %.9g J, drift %.3e J", E0, E1, E1 - E0);
    if (E0 != 0) printf(" (relative %.3e)", (E1 - E0) / fabs(E0));
    printf("\nfinal q ");
    for (int k = 0; k < m->nq; k++) printf(" %.6g", q[k]);
    printf("\n");
    rc = 0;
done:
    free(q); free(qd); free(tau); free(qdd);
    dense_ws_free(dws);
    aba_ws_free(aws);
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
        if (is_help(argv[i])) {
            fputs(RUN_HELP, stdout);
            return 0;
        } else if ((v = option(argc, argv, &i, "--time", &missing))) {
            if (!parse_double(v, &T) || T < 0 || T > 1e6)
                return usage_error("run", "--time wants seconds in [0, 1e6], got '%s'", v);
        } else if ((v = option(argc, argv, &i, "--dt", &missing))) {
            if (!parse_double(v, &dt) || dt <= 0 || dt > 1)
                return usage_error("run", "--dt wants seconds in (0, 1], got '%s'", v);
        } else if ((v = option(argc, argv, &i, "--engine", &missing))) {
            if (strcmp(v, "dense") != 0 && strcmp(v, "aba") != 0)
                return usage_error("run", "--engine is dense or aba, got '%s'", v);
            use_dense = strcmp(v, "dense") == 0;
        } else if (missing) {
            return usage_error("run", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("run", "unknown option '%s'", argv[i]);
        } else if (file) {
            return usage_error("run", "one model file only (extra '%s')", argv[i]);
        } else {
            file = argv[i];
        }
    }
    if (T / dt > 1e9) return usage_error("run", "%s", "more than 1e9 steps; raise --dt or lower --time");
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
    if (strcmp(cmd, "help") == 0 || is_help(cmd)) {
        const char *sub = argc > 2 ? argv[2] : "";
        fputs(strcmp(sub, "check") == 0     ? CHECK_HELP
              : strcmp(sub, "compare") == 0 ? COMPARE_HELP
              : strcmp(sub, "run") == 0     ? RUN_HELP
                                            : USAGE,
              stdout);
        return 0;
    }
    fprintf(stderr, "mech: unknown command '%s'\n\n%s", cmd, USAGE);
    return 2;
}
