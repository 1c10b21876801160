/* sim.c — `mech sim`: a tracked vehicle (or anything with a ground) settled
 * from its design pose with contact in the loop, and optionally parked on a
 * slope with its drive sprockets braked; what it came to, printed and
 * traced.  The checks such a trajectory must pass (ground load, momentum,
 * energy budget, the friction laws told apart) are tests/contact/test_trajectory.c.
 * The slope is gravity turned about the pin axis y, which is the world turned
 * under the vehicle: exact, and the same generated code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mech/mech.h"

#define PI 3.14159265358979323846
#define HOLD_WINDOW 2.0    /* s: the hull's drift is read over the last two seconds */
#define SETTLED_WINDOW 0.5 /* s: the ground load is averaged over the last half second */
#define MAX_BRAKES 64
#define SIM_STEPS_MAX 1e8 /* steps a run may take: what --time and --dt ask for is refused beyond it */

const char cli_sim_help[] = "usage: mech sim FILE [--time T] [--dt DT] [--slope DEG] [--trace out.csv]\n"
                            "                     [--engine aba|dense|generated]\n"
                            "\n"
                            "Settle a model with a ground block (a tracked vehicle: docs/contact.md) from\n"
                            "its design pose for T seconds with contact in the loop, then, with --slope,\n"
                            "park it on a DEG slope with its drive sprockets braked for another T seconds.\n"
                            "Each run ends with\n"
                            "  settled ground load: <F> N against weight <W> N (<p> %)\n"
                            "and the slope run also with\n"
                            "  hold: hull drift <v> m/s\n"
                            "\n"
                            "  --time T        seconds per run (default 4; the drift reads its last 2 s)\n"
                            "  --dt DT         step (default: the model's, a fixed fraction of its contact period)\n"
                            "  --slope DEG     also park the vehicle on this slope (0 < DEG < 60)\n"
                            "  --trace FILE    write time histories as CSV (hull pose, ground force, energy)\n"
                            "  --engine E      aba (default), dense, or generated: this build's generated\n"
                            "                  code of the shipped model with the file's name\n"
                            "\n"
                            "Exit status 1 if the model fails to load or the run blows up.  The checks\n"
                            "of such runs are ctests (tests/contact/test_trajectory.c).\n";

typedef struct {
    int body, vidx;
    double lock;   /* the joint angle the brake holds (mech_data_brake_torque) */
    double radius; /* the sprocket's pitch radius */
} brake;

typedef struct {
    mech_data *d;
    const char *name;
    int nb, root; /* the first band's root: the hull the trace follows */
    double mass, dt;
    int nbrake;
    brake brakes[MAX_BRAKES];
    FILE *trace;
    double *poses;
} sim_run;

/* The brake torques at the current state, into tau. */
static void apply_brakes(sim_run *r)
{
    double *tau = mech_data_tau(r->d);
    for (int i = 0; i < r->nbrake; i++)
        tau[r->brakes[i].vidx] = mech_data_brake_torque(r->d, r->brakes[i].body, 1, r->brakes[i].lock);
}

/* The brake on every drive sprocket's joint, locked where it is. */
static void engage_brakes(sim_run *r)
{
    const mech_model *m = mech_data_model(r->d);
    const double *q = mech_data_q(r->d);
    r->nbrake = 0;
    mech_track_info t;
    for (int i = 0; mech_model_track(m, i, &t) == 0; i++) {
        mech_roller_info ro;
        for (int j = 0; mech_model_roller(m, i, j, &ro) == 0 && r->nbrake < MAX_BRAKES; j++) {
            if (!ro.drive) continue;
            mech_body_info b;
            mech_model_body(m, ro.body, &b);
            r->brakes[r->nbrake++] = (brake){ .body = ro.body, .vidx = b.vidx, .lock = q[b.qidx], .radius = ro.radius };
        }
    }
}

static void trace_row(sim_run *r, double t, const char *phase, const double F[3], const double e[2])
{
    mech_data_poses(r->d, r->poses);
    const double *p = r->poses + 7 * (r->root < 0 ? 0 : r->root);
    fprintf(r->trace, "%.6f,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", t, phase, p[0], p[1],
            p[2], p[3], p[4], p[5], p[6], F[0], F[1], F[2], e[0], e[1]);
}

typedef struct {
    long steps;
    double load[3];     /* settled window: mean ground force */
    double brake_force; /* settled window: mean of the brakes' tau / radius, N */
    double drift;       /* the hull's mean speed over the last HOLD_WINDOW, m/s */
} run_figures;

/* One run of T seconds from the current state. */
static int simulate(sim_run *r, double T, const char *phase, run_figures *f)
{
    mech_data *d = r->d;
    const double dt = r->dt;
    memset(f, 0, sizeof *f);
    f->steps = lround(T / dt);
    long settled_from = f->steps - lround(SETTLED_WINDOW / dt), drift_from = f->steps - lround(HOLD_WINDOW / dt);
    long stride = f->steps / 2000 > 1 ? f->steps / 2000 : 1;
    double x0[3] = { 0 };
    for (long s = 0; s < f->steps; s++) {
        if (s == drift_from) {
            mech_data_poses(d, r->poses);
            memcpy(x0, r->poses + 7 * r->root, sizeof x0);
        }
        if (r->nbrake) apply_brakes(r);
        if (mech_data_step(d, dt, 1)) {
            fprintf(stderr, "mech sim: %s: %s\n", r->name, mech_data_error(d)->message);
            return -1;
        }
        double F[3];
        mech_data_ground_reaction(d, F);
        if (s >= settled_from) {
            for (int k = 0; k < 3; k++) f->load[k] += F[k];
            for (int i = 0; i < r->nbrake; i++)
                f->brake_force += mech_data_tau(d)[r->brakes[i].vidx] / r->brakes[i].radius;
        }
        if (r->trace && s % stride == 0) {
            double e[2];
            if (mech_data_energy(d, e)) e[0] = e[1] = NAN;
            trace_row(r, (double)(s + 1) * dt, phase, F, e);
        }
    }
    long nsettled = f->steps - (settled_from > 0 ? settled_from : 0);
    for (int k = 0; k < 3; k++) f->load[k] /= (double)(nsettled ? nsettled : 1);
    f->brake_force /= (double)(nsettled ? nsettled : 1);
    mech_data_poses(d, r->poses);
    const double *x1 = r->poses + 7 * r->root;
    f->drift = hypot(x1[0] - x0[0], x1[1] - x0[1]) / HOLD_WINDOW;
    return 0;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* The figures of one run. */
static void report(sim_run *r, const run_figures *f, const double g[3])
{
    const double gnorm = norm3(g), W = r->mass * gnorm;
    printf("steps: %ld of %.6g s (%.6g s)\n", f->steps, r->dt, (double)f->steps * r->dt);
    /* The load the ground carries along -g: the weight, settled. */
    double along = -(f->load[0] * g[0] + f->load[1] * g[1] + f->load[2] * g[2]) / gnorm;
    printf("settled ground load: %.6g N against weight %.6g N (%.3f %%)\n", along, W, 100 * (along - W) / W);
}

static int parse_args(int argc, char **argv, const char **file, double *T, double *dt, double *slope,
                      const char **trace, const char **engine)
{
    for (int i = 0; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (cli_is_help(argv[i])) {
            fputs(cli_sim_help, stdout);
            return 0;
        }
        if ((v = cli_option(argc, argv, &i, "--time", &missing))) {
            if (!cli_parse_double(v, T) || *T < HOLD_WINDOW || *T > 1e4)
                return cli_usage_error("sim", "--time wants seconds in [2, 1e4], got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--dt", &missing))) {
            if (!cli_parse_double(v, dt) || *dt <= 0 || *dt > 1e-2)
                return cli_usage_error("sim", "--dt wants seconds in (0, 0.01], got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--slope", &missing))) {
            if (!cli_parse_double(v, slope) || *slope <= 0 || *slope >= 60)
                return cli_usage_error("sim", "--slope wants degrees in (0, 60), got '%s'", v);
        } else if ((v = cli_option(argc, argv, &i, "--trace", &missing))) {
            *trace = v;
        } else if ((v = cli_option(argc, argv, &i, "--engine", &missing))) {
            if (strcmp(v, "aba") && strcmp(v, "dense") && strcmp(v, "generated"))
                return cli_usage_error("sim", "--engine is aba, dense or generated, got '%s'", v);
            *engine = v;
        } else if (missing) {
            return cli_usage_error("sim", "option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("sim", "unknown option '%s'", argv[i]);
        } else if (*file) {
            return cli_usage_error("sim", "one model file only (extra '%s')", argv[i]);
        } else {
            *file = argv[i];
        }
    }
    if (!*file) return cli_usage_error("sim", "%s", "no model file given");
    return -1;
}

static mech_data *open_run(const mech_model *m, const char *engine, const char *path)
{
    mech_error err;
    mech_data *d = NULL;
    if (strcmp(engine, "dense") == 0) d = mech_data_new_dense(m, &err);
    else if (strcmp(engine, "aba") == 0) d = mech_data_new_aba(m, &err);
    else {
        const struct mech_generated *g = mech_generated_find(mech_model_name(m));
        if (!g) {
            fprintf(stderr, "mech sim: %s: this build has no generated code of a model '%s'\n", path, mech_model_name(m));
            return NULL;
        }
        d = mech_data_new_generated(m, g, &err);
    }
    if (!d) fprintf(stderr, "mech sim: %s: %s\n", path, err.message);
    return d;
}

int cli_sim(int argc, char **argv)
{
    const char *file = NULL, *trace = NULL, *engine = "aba";
    double T = 4, dt = 0, slope = 0;
    int rc = parse_args(argc, argv, &file, &T, &dt, &slope, &trace, &engine);
    if (rc >= 0) return rc;
    mech_model *m = cli_load(file);
    if (!m) return 1;
    rc = 1;
    const mech_sizes n = mech_model_sizes(m);
    sim_run r = { .name = mech_model_name(m), .nb = n.nb };
    mech_track_info band;
    r.root = mech_model_track(m, 0, &band) == 0 && band.root >= 0 ? band.root : 0;
    if (!n.ground) {
        fprintf(stderr, "mech sim: %s: the model has no ground block: nothing to settle on\n", file);
        goto done;
    }
    r.dt = dt > 0 ? dt : mech_model_options(m).dt;
    if (!(T / r.dt <= SIM_STEPS_MAX)) {
        fprintf(stderr, "mech sim: %.6g s at dt %.6g s is %.3g steps a run, more than the %.0e a run may take\n", T,
                r.dt, T / r.dt, SIM_STEPS_MAX);
        goto done;
    }
    mech_body_info b;
    for (int i = 0; mech_model_body(m, i, &b) == 0; i++) r.mass += b.mass;
    r.poses = malloc(sizeof(double) * 7 * (size_t)(n.nb ? n.nb : 1));
    if (!r.poses || !(r.d = open_run(m, engine, file))) goto done;
    if (trace && !(r.trace = fopen(trace, "w"))) {
        fprintf(stderr, "mech sim: cannot write the trace '%s'\n", trace);
        goto done;
    }
    if (r.trace) {
        fprintf(r.trace, "# model %s, dt %.9g s, mass %.9g kg\n", r.name, r.dt, r.mass);
        fprintf(r.trace, "t,phase,x,y,z,qw,qx,qy,qz,Fx,Fy,Fz,kinetic,potential\n");
    }
    double g[3];
    memcpy(g, mech_data_gravity(r.d), sizeof g);
    printf("model: %s (%s), %d bodies, nv %d, %d bands, engine %s\n", r.name, file, n.nb, n.nv, n.ntrack,
           mech_data_engine(r.d));
    printf("mass: %.6g kg, weight %.6g N; dt %.6g s\n", r.mass, r.mass * norm3(g), r.dt);
    run_figures f;
    double t0 = cli_now();
    if (simulate(&r, T, "settle", &f)) goto done;
    double wall = cli_now() - t0;
    printf("settle: %.6g s simulated in %.3f s wall (real-time factor %.2f)\n", T, wall, wall > 0 ? T / wall : 0);
    report(&r, &f, g);
    if (slope > 0) {
        double th = slope * PI / 180, gn = norm3(g);
        double gs[3] = { -gn * sin(th), 0, -gn * cos(th) }; /* the world turned about y: the hull faces uphill */
        memcpy(mech_data_gravity(r.d), gs, sizeof gs);
        engage_brakes(&r);
        printf("slope: %.6g deg, %d sprockets braked\n", slope, r.nbrake);
        if (simulate(&r, T, "hold", &f)) goto done;
        report(&r, &f, gs);
        printf("hold: hull drift %.3g m/s\n", f.drift);
        /* What the brakes hold against the ground's pull along the slope (docs/contact.md). */
        double bands = 0;
        for (int t = 0; mech_model_track(m, t, &band) == 0; t++) bands += band.nshoe * band.shoe_mass;
        printf("hold: brake torques / pitch radius %.6g N; ground force along the slope %.6g N (ratio %.4f); "
               "(M - bands) g sin %.6g N\n",
               f.brake_force, f.load[0], f.brake_force / f.load[0], (r.mass - bands) * gn * sin(th));
    }
    rc = 0;
done:
    if (r.trace && (ferror(r.trace) | fclose(r.trace))) { /* a full disk or /dev/full: the trace is incomplete */
        fprintf(stderr, "mech sim: writing the trace '%s' failed\n", trace);
        rc = 1;
    }
    mech_data_free(r.d);
    free(r.poses);
    mech_model_free(m);
    return rc;
}
