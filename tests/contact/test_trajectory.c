/* test_trajectory.c — a tracked vehicle (or anything with a ground) settled
 * from its design pose with contact in the loop, and optionally parked on a
 * slope with its sprockets braked; the checks only a trajectory can make
 * (docs/contact.md, "Trajectory checks"):
 *   - the band is never crushed onto its axles;
 *   - the settled ground load equals the weight;
 *   - linear momentum follows dP/dt = M g + F_ground;
 *   - the settled ground force has no period-2 content (a friction limit cycle);
 *   - the energy budget (kinetic, gravity, force elements, contact springs,
 *     brake) has a net loss and no single-step rise above truncation scale;
 *   - on the slope, the ground patch holds (anchored friction) or visibly
 *     slides (regularized), so the two laws are told apart.
 * The slope is gravity turned about the pin axis y, which is the world turned
 * under the vehicle: exact, and the same generated code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/terrain.h"
#include "sim/generated.h"
#include "mech/mech.h"
#include "rbda/dense.h"
#include "rbda/loop_project.h"
#include "spatial/spatial.h"

#define PI 3.14159265358979323846
#define LOAD_GATE 5e-3     /* settled ground load vs weight, relative            */
#define MOMENTUM_GATE 1e-3 /* momentum residual over M |g| T                     */
#define PERIOD2_GATE 1e-3  /* period-2 content of the ground force over weight   */
#define RISE_GATE 1e-4     /* a single step's energy rise over the run's peak kinetic energy */
#define CRUSH_GATE 0.25    /* worst band penetration over the roller radius      */
#define SLIP_GATE 5e-4     /* patch slip on the slope, m/s                       */
#define HOLD_WINDOW 2.0    /* s: the patch is read over the last two seconds     */
#define SETTLED_WINDOW 0.5 /* s: the ground load is averaged over the last half second */

/* usage: test_trajectory FILE [--time T] [--slope DEG] [--fric reg|anchor] [--engine aba|generated]
 * Settles for T seconds (default 4), then with --slope parks on DEG degrees with the drive sprockets braked
 * for another T.  Exit status 1 when the model fails to load, the run blows up or a check fails: on the
 * slope, anchored friction must hold (patch slip <= SLIP_GATE) and regularized friction must be seen
 * sliding (above it). */

typedef struct {
    int body, vidx, qidx;
    double k, lock; /* brake: spring-damper on the drive joint (mech_data_brake_torque), locked at q = lock */
    double radius;  /* the sprocket's pitch radius */
} brake;

typedef struct {
    const mech_model *m;
    mech_data *d;
    dense_ws *ws;
    double mass, dt;
    int nbrake;
    brake brakes[2 * MECH_MAX_TRACKS];
    double *poses;
} sim_run;

/* Total linear momentum: the force part of sum_i 0X_i^T (I_i v_i) (RBDA eq. 2.62). */
static void momentum(sim_run *r, double P[3])
{
    const mech_model *m = r->m;
    dense_world_kinematics(m, r->ws, mech_data_q(r->d), mech_data_qd(r->d));
    double h[6] = { 0 };
    for (int i = 0; i < m->nb; i++) {
        double hi[6], h0[6];
        m6_mulv(r->ws->I[i], r->ws->v[i], hi);
        m6_tmulv(r->ws->X0[i], hi, h0);
        for (int k = 0; k < 6; k++) h[k] += h0[k];
    }
    memcpy(P, h + 3, 3 * sizeof *P);
}

static double brake_energy(const sim_run *r)
{
    const double *q = mech_data_q(r->d);
    double e = 0;
    for (int i = 0; i < r->nbrake; i++) {
        double x = q[r->brakes[i].qidx] - r->brakes[i].lock;
        e += 0.5 * r->brakes[i].k * x * x;
    }
    return e;
}

/* The force elements' springs: 1/2 k (l - l0)^2 per tsda, 1/2 k (q - q0)^2 per
 * rsda (mech_data_energy's potential holds gravity and the contact springs only). */
static double element_energy(sim_run *r)
{
    const mech_model *m = r->m;
    const double *q = mech_data_q(r->d);
    double e = 0;
    if (m->ntsda) mech_data_poses(r->d, r->poses);
    for (int i = 0; i < m->ntsda; i++) {
        const mech_tsda *t = &m->tsdas[i];
        double x[2][3];
        for (int s = 0; s < 2; s++) {
            const mech_poi *p = &m->pois[s ? t->poi_b : t->poi_a];
            if (p->body < 0) {
                memcpy(x[s], p->pos, sizeof x[s]);
                continue;
            }
            const double *pose = r->poses + 7 * p->body;
            double R[9];
            quat_to_rot(pose + 3, R);
            m3_mulv(R, p->pos, x[s]);
            for (int k = 0; k < 3; k++) x[s][k] += pose[k];
        }
        double d[3] = { x[1][0] - x[0][0], x[1][1] - x[0][1], x[1][2] - x[0][2] }, l = v3_norm(d) - t->l0;
        e += 0.5 * t->k * l * l;
    }
    for (int i = 0; i < m->nrsda; i++) {
        const mech_rsda *s = &m->rsdas[i];
        double x = q[m->bodies[s->body].qidx] - s->q0;
        e += 0.5 * s->k * x * x;
    }
    return e;
}

/* Kinetic + potential (gravity, force elements, contact springs) + brake. */
static int total_energy(sim_run *r, double *E, double *K)
{
    double e[2];
    if (mech_data_energy(r->d, e)) return -1;
    *K = e[0];
    *E = e[0] + e[1] + element_energy(r) + brake_energy(r);
    return 0;
}

/* The brake torques at the current state, into tau. */
static void apply_brakes(sim_run *r)
{
    double *tau = mech_data_tau(r->d);
    for (int i = 0; i < r->nbrake; i++) {
        const brake *b = &r->brakes[i];
        tau[b->vidx] = mech_data_brake_torque(r->d, b->body, 1, b->lock);
    }
}

/* The brake on every drive sprocket's joint, locked where it is. */
static void engage_brakes(sim_run *r)
{
    const mech_model *m = r->m;
    const double *q = mech_data_q(r->d);
    r->nbrake = 0;
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        for (int j = 0; j < tr->nroller; j++) {
            const mech_roller *ro = &tr->rollers[j];
            if (!ro->drive) continue;
            const mech_body *b = &m->bodies[ro->body];
            brake *br = &r->brakes[r->nbrake++];
            double c;
            br->body = ro->body;
            br->vidx = b->vidx;
            br->qidx = b->qidx;
            mech_model_brake_gains(m, ro->body, &br->k, &c);
            br->lock = q[b->qidx];
            br->radius = ro->radius;
        }
    }
}

/* Deepest penetration of the band into a roller at the current poses, as a
 * fraction of that roller's radius: pins into end rollers (distance to the
 * axle line), the running face into road wheels (shoe-frame height). */
static double worst_penetration(sim_run *r, double *depth)
{
    const mech_model *m = r->m;
    mech_data_poses(r->d, r->poses);
    double worst = 0;
    *depth = 0;
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        for (int s = 0; s < tr->nshoe; s++) {
            const double *ps = r->poses + 7 * (tr->shoe0 + s);
            double R[9];
            quat_to_rot(ps + 3, R);
            for (int j = 0; j < tr->nroller; j++) {
                const mech_roller *ro = &tr->rollers[j];
                const double *pc = r->poses + 7 * ro->body;
                double dpos[3] = { pc[0] - ps[0], pc[1] - ps[1], pc[2] - ps[2] }, l[3];
                m3_tmulv(R, dpos, l); /* roller centre in the shoe frame */
                double delta;
                if (ro->end) delta = ro->radius - hypot(l[0], l[2]);
                else if (l[0] >= 0 && l[0] <= tr->link) delta = ro->radius - (l[2] - (tr->pad_z + tr->thickness));
                else continue;
                if (delta / ro->radius > worst) {
                    worst = delta / ro->radius;
                    *depth = delta;
                }
            }
        }
    }
    return worst;
}

typedef struct {
    long steps;
    double E0, E1, max_rise, max_kinetic, worst_pen, worst_depth;
    double P0[3], P1[3], impulse[3];
    double load[3], period2; /* settled window: mean ground force, |mean of (-1)^s Fz| */
    int shoes_on_ground;
    double slip;        /* hold: patch slip, m/s */
    double brake_force; /* settled window: mean of sum over brakes of tau / radius, N */
} run_figures;

/* Mean world position of the given shoes. */
static void patch_position(sim_run *r, const int *shoes, int n, double out[3])
{
    mech_data_poses(r->d, r->poses);
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) out[k] += r->poses[7 * shoes[i] + k] / n;
}

/* The shoes whose pad plate is within its thickness of the terrain now. */
static int shoes_on_ground(sim_run *r, int *shoes)
{
    const mech_model *m = r->m;
    mech_data_poses(r->d, r->poses);
    int n = 0;
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        for (int s = 0; s < tr->nshoe; s++) {
            const double *ps = r->poses + 7 * (tr->shoe0 + s);
            double R[9], c[3] = { tr->link / 2, 0, tr->pad_z }, w[3];
            quat_to_rot(ps + 3, R);
            m3_mulv(R, c, w);
            double x = ps[0] + w[0], y = ps[1] + w[1], z = ps[2] + w[2], h, hx, hy;
            terrain_eval(&m->ground, x, y, &h, &hx, &hy);
            if (z - h < tr->thickness) shoes[n++] = tr->shoe0 + s;
        }
    }
    return n;
}

/* One run of T seconds from the current state; hold = 1 reads the patch. */
static int simulate(sim_run *r, double T, int hold, run_figures *f)
{
    mech_data *d = r->d;
    const double dt = r->dt;
    memset(f, 0, sizeof *f);
    f->steps = lround(T / dt);
    long settled_from = f->steps - lround(SETTLED_WINDOW / dt);
    long patch_from = f->steps - lround(HOLD_WINDOW / dt), patch_mid = f->steps - lround(HOLD_WINDOW / 2 / dt);
    int *patch = hold ? malloc(sizeof(int) * (size_t)r->m->nb) : NULL;
    int npatch = 0;
    double patch_sum[2][3] = { { 0 } };
    long patch_count[2] = { 0, 0 };
    double K, E;
    if (total_energy(r, &E, &K)) goto failed;
    f->E0 = E;
    f->max_kinetic = K;
    momentum(r, f->P0);
    for (long s = 0; s < f->steps; s++) {
        if (r->nbrake) apply_brakes(r);
        if (mech_data_step(d, dt, 1)) goto failed;
        double F[3], Eprev = E;
        mech_data_ground_reaction(d, F);
        for (int k = 0; k < 3; k++) f->impulse[k] += F[k] * dt;
        if (total_energy(r, &E, &K)) goto failed;
        if (E - Eprev > f->max_rise) f->max_rise = E - Eprev;
        if (K > f->max_kinetic) f->max_kinetic = K;
        if (s % 16 == 0) {
            double depth, pen = worst_penetration(r, &depth);
            if (pen > f->worst_pen) {
                f->worst_pen = pen;
                f->worst_depth = depth;
            }
        }
        if (s >= settled_from) {
            for (int k = 0; k < 3; k++) f->load[k] += F[k];
            for (int i = 0; i < r->nbrake; i++)
                f->brake_force += mech_data_tau(d)[r->brakes[i].vidx] / r->brakes[i].radius;
            f->period2 += (s % 2 ? -1 : 1) * F[2];
        }
        if (hold && s == patch_from) npatch = f->shoes_on_ground = shoes_on_ground(r, patch);
        if (hold && s >= patch_from && npatch) {
            double c[3];
            patch_position(r, patch, npatch, c);
            int half = s >= patch_mid;
            for (int k = 0; k < 3; k++) patch_sum[half][k] += c[k];
            patch_count[half]++;
        }
    }
    long nsettled = f->steps - (settled_from > 0 ? settled_from : 0);
    for (int k = 0; k < 3; k++) f->load[k] /= (double)(nsettled ? nsettled : 1);
    f->period2 = fabs(f->period2) / (double)(nsettled ? nsettled : 1);
    f->brake_force /= (double)(nsettled ? nsettled : 1);
    f->E1 = E;
    momentum(r, f->P1);
    if (hold && patch_count[0] && patch_count[1]) {
        double dx = patch_sum[1][0] / patch_count[1] - patch_sum[0][0] / patch_count[0];
        double dy = patch_sum[1][1] / patch_count[1] - patch_sum[0][1] / patch_count[0];
        f->slip = hypot(dx, dy) / (HOLD_WINDOW / 2);
    }
    free(patch);
    return 0;
failed:
    fprintf(stderr, "test_trajectory: %s: %s\n", r->m->name, mech_data_error(d)->message);
    free(patch);
    return -1;
}

static int check(int ok, const char *what)
{
    printf("  %-34s %s\n", what, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

/* The figures and gates of one run; the number of failed gates. */
static int report(sim_run *r, const run_figures *f, const double g[3], double T)
{
    const double gnorm = v3_norm(g), W = r->mass * gnorm;
    int failed = 0;
    double res[3], scale = r->mass * gnorm * T;
    for (int k = 0; k < 3; k++) res[k] = f->P1[k] - f->P0[k] - (r->mass * g[k] * T + f->impulse[k]);
    double bound = RISE_GATE * f->max_kinetic;
    printf("steps: %ld of %.6g s (%.6g s)\n", f->steps, r->dt, (double)f->steps * r->dt);
    printf("worst band penetration: %.3g m (%.3g of the roller radius)\n", f->worst_depth, f->worst_pen);
    failed += check(f->worst_pen < CRUSH_GATE, "never crushed onto the axles");
    printf("momentum residual: %.3g N s against %.3g N s (%.3g)\n", v3_norm(res), scale, v3_norm(res) / scale);
    failed += check(v3_norm(res) <= MOMENTUM_GATE * scale, "momentum = integral of (M g + F_ground)");
    printf("period-2 ground force: %.3g N (%.3g %% of the weight)\n", f->period2, 100 * f->period2 / W);
    failed += check(f->period2 <= PERIOD2_GATE * W, "no period-2 ground force");
    printf("energy: %.9g J -> %.9g J (net %.6g J); largest single-step rise %.3g J against %.3g J\n", f->E0, f->E1,
           f->E1 - f->E0, f->max_rise, bound);
    failed += check(f->E1 < f->E0, "net energy loss");
    failed += check(f->max_rise <= bound, "no single-step rise above truncation");
    /* The load the ground carries along -g: the weight, settled. */
    double along = -v3_dot(f->load, g) / gnorm;
    printf("settled ground load: %.6g N against weight %.6g N (%.3f %%)\n", along, W, 100 * (along - W) / W);
    failed += check(fabs(along - W) <= LOAD_GATE * W, "ground carries the weight");
    return failed;
}

/* The arguments (see the usage above); 0, or 2 with the complaint on stderr. */
static int parse_args(int argc, char **argv, const char **file, double *T, double *slope, int *fric, const char **engine)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (a[0] != '-') {
            if (*file) goto bad;
            *file = a;
            continue;
        }
        if (!v) goto bad;
        i++;
        if (strcmp(a, "--time") == 0) {
            *T = strtod(v, &end);
            if (*end || !(*T >= HOLD_WINDOW && *T <= 1e4)) goto bad;
        } else if (strcmp(a, "--slope") == 0) {
            *slope = strtod(v, &end);
            if (*end || !(*slope > 0 && *slope < 60)) goto bad;
        } else if (strcmp(a, "--fric") == 0) {
            if (strcmp(v, "reg") == 0) *fric = MECH_FRICTION_REGULARIZED;
            else if (strcmp(v, "anchor") == 0) *fric = MECH_FRICTION_ANCHORED;
            else goto bad;
        } else if (strcmp(a, "--engine") == 0) {
            if (strcmp(v, "aba") && strcmp(v, "generated")) goto bad;
            *engine = v;
        } else {
            goto bad;
        }
    }
    if (*file) return 0;
bad:
    fprintf(stderr, "usage: test_trajectory FILE [--time T] [--slope DEG] [--fric reg|anchor] "
                    "[--engine aba|generated]\n");
    return 2;
}

static mech_data *open_run(const mech_model *m, const char *engine, const char *path)
{
    mech_error err;
    mech_data *d = NULL;
    if (strcmp(engine, "aba") == 0) d = mech_data_new_aba(m, &err);
    else {
        const mech_generated *g = mech_generated_find(m->name);
        if (!g) {
            fprintf(stderr, "test_trajectory: %s: this build has no generated code of a model '%s'\n", path, m->name);
            return NULL;
        }
        d = mech_data_new_generated(m, g, &err);
    }
    if (!d) fprintf(stderr, "test_trajectory: %s: %s\n", path, err.message);
    return d;
}

int main(int argc, char **argv)
{
    const char *file = NULL, *engine = "aba";
    double T = 4, slope = 0;
    int fric = -1;
    if (parse_args(argc, argv, &file, &T, &slope, &fric, &engine)) return 2;
    mech_error err;
    mech_model *loaded = mech_model_load(file, &err);
    if (!loaded) {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    int rc = 1;
    sim_run r = { 0 };
    mech_model m = *loaded; /* a view with the friction law asked for */
    if (m.ground.type == MECH_GROUND_NONE) {
        fprintf(stderr, "test_trajectory: %s: the model has no ground block: nothing to settle on\n", file);
        goto done;
    }
    if (fric >= 0) m.ground.friction = (mech_friction)fric;
    r.m = &m;
    r.dt = mech_model_options(&m).dt;
    for (int i = 0; i < m.nb; i++) r.mass += m.bodies[i].mass;
    r.ws = dense_ws_new(&m);
    r.poses = malloc(sizeof(double) * 7 * (size_t)m.nb);
    if (!r.ws || !r.poses || !(r.d = open_run(&m, engine, file))) goto done;
    double *q = mech_data_q(r.d), *qd = mech_data_qd(r.d), g[3];
    mech_loop_project(&m, r.ws, q);
    mech_loop_project_velocity(&m, r.ws, q, qd);
    memcpy(g, mech_data_gravity(r.d), sizeof g);
    printf("model: %s (%s), %d bodies, nv %d, %d bands, engine %s\n", m.name, file, m.nb, m.nv, m.ntrack,
           mech_data_engine(r.d));
    printf("mass: %.6g kg, weight %.6g N; friction %s; dt %.6g s\n", r.mass, r.mass * v3_norm(g),
           m.ground.friction == MECH_FRICTION_ANCHORED ? "anchored" : "regularized", r.dt);
    run_figures f;
    if (simulate(&r, T, 0, &f)) goto done;
    int failed = report(&r, &f, g, T);
    if (slope > 0) {
        double th = slope * PI / 180, gn = v3_norm(g);
        double gs[3] = { -gn * sin(th), 0, -gn * cos(th) }; /* the world turned about y: the hull faces uphill */
        memcpy(mech_data_gravity(r.d), gs, sizeof gs);
        engage_brakes(&r);
        printf("slope: %.6g deg, %d sprockets braked\n", slope, r.nbrake);
        if (simulate(&r, T, 1, &f)) goto done;
        failed += report(&r, &f, gs, T);
        int anchored = m.ground.friction == MECH_FRICTION_ANCHORED;
        printf("patch: %d shoes on the ground at t = %.6g s\n", f.shoes_on_ground, T - HOLD_WINDOW);
        failed += check(f.shoes_on_ground > 0, "a patch on the ground");
        failed += check(anchored ? f.slip <= SLIP_GATE : f.slip > SLIP_GATE,
                        anchored ? "anchored friction holds" : "regularized friction slides");
        printf("hold: patch slip %.3g m/s\n", f.slip);
        /* Not a gate: what the brakes hold against the ground's pull along the slope (docs/contact.md). */
        double band = 0;
        for (int t = 0; t < m.ntrack; t++) band += m.tracks[t].nshoe * m.tracks[t].shoe_mass;
        printf("hold: brake torques / pitch radius %.6g N; ground force along the slope %.6g N (ratio %.4f); "
               "(M - bands) g sin %.6g N\n",
               f.brake_force, f.load[0], f.brake_force / f.load[0], (r.mass - band) * gn * sin(th));
    }
    rc = failed ? 1 : 0;
done:
    mech_data_free(r.d);
    dense_ws_free(r.ws);
    free(r.poses);
    mech_model_free(loaded);
    return rc;
}
