/* test_tire_vehicle.c — a vehicle on its tires (hmmwv, hmmwv_pitman: `tire`
 * blocks on revolute wheels; docs/contact.md "Tires"), the checks only a
 * trajectory can make:
 *   settle  from the design pose on flat ground for 4 s: the tire loads sum
 *           to the weight (0.5 %) and split front/rear as the centre of mass
 *           says (2 %, statics with the settled contact points); the chassis
 *           still (<= 1 mm/s) after 3 s and 4 s; each wheel centre at the height
 *           its tire's vertical curve gives for its load; each shock inside
 *           its stroke between the bump stops (Chrono's engagement lengths);
 *   slope D hold|slide  settled, then the world turned by D degrees under the
 *           vehicle (gravity turned about y) with every wheel braked
 *           (mech_data_brake_torque) for 4 s: hold: chassis <= 1 mm/s,
 *           moved <= 1 mm over the last second and no period-2 ground
 *           force (chatter) above 1e-4 of the weight there; slide: the chassis moves
 *           downhill, faster than 0.1 m/s at the end, with the ground's
 *           mu set by --mu;
 *   coast   settled, the wheels spun up with the vehicle at 5 m/s, then
 *           left to roll: the total energy (kinetic, gravity, springs,
 *           tires) falls at every sampled 0.1 s;
 *   crawl T settled, torque T on each rear wheel (an open differential
 *           splits it equally) for 4 s, the vehicle crawling: the ground's
 *           tractive force on the rear tires over the last second equals
 *           the wheel torque less the tire's rolling resistance moment
 *           (rolling Fz) and the wheels' spin-up I wdot, over the loaded
 *           radius R_e, within 2 %;
 *           T / R_e alone is printed beside it;
 *   launch T  settled, torque T on each rear wheel for 2 s, twice: without
 *           the model's bump stops (`stop` blocks) and with them: without,
 *           a shock extends past its rebound stop; with, it still reaches
 *           the stop and the travel past it is at most 85 % of the travel
 *           without (docs/contact.md "Stops").
 * usage: test_tire_vehicle FILE settle | slope DEG hold|slide [--mu MU] | coast | crawl T | launch T */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/tire.h"
#include "mech/mech.h"

#define PI 3.14159265358979323846
#define STOP_MIN 0.324104 /* m: shock length at the compression bump stop (Chrono HMMWV_ShockForce) */
#define STOP_MAX 0.418592 /* m: at the rebound stop */

static int failures;

static void gate(const char *what, double v, double lo, double hi)
{
    int ok = v >= lo && v <= hi;
    printf("%-58s %.6g in [%.4g, %.4g] %s\n", what, v, lo, hi, ok ? "ok" : "FAIL");
    if (!ok) failures++;
}

typedef struct {
    mech_model *m;
    mech_data *d;
    double dt, mass;
    int chassis;
    double lock[MECH_MAX_TIRES];
    int braked;
    double *buf;
} run;

static void brakes(run *r)
{
    const mech_model *m = r->m;
    for (int i = 0; i < m->ntire; i++) {
        const mech_body *b = &m->bodies[m->tires[i].body];
        mech_data_tau(r->d)[b->vidx] = r->braked ? mech_data_brake_torque(r->d, m->tires[i].body, 1, r->lock[i]) : 0;
    }
}

static void engage(run *r)
{
    for (int i = 0; i < r->m->ntire; i++) r->lock[i] = mech_data_q(r->d)[r->m->bodies[r->m->tires[i].body].qidx];
    r->braked = 1;
}

static int steps(run *r, double T)
{
    long n = lround(T / r->dt);
    for (long s = 0; s < n; s++) {
        if (r->braked) brakes(r);
        if (mech_data_step(r->d, r->dt, 1)) {
            fprintf(stderr, "step failed: %s\n", mech_data_error(r->d)->message);
            return -1;
        }
    }
    return 0;
}

/* Body b's world origin velocity into v (3). */
static void velocity(run *r, int b, double v[3])
{
    mech_data_velocities(r->d, r->buf);
    memcpy(v, r->buf + 6 * b, 3 * sizeof *v);
}

static void position(run *r, int b, double p[3])
{
    mech_data_poses(r->d, r->buf);
    memcpy(p, r->buf + 7 * b, 3 * sizeof *p);
}

/* The whole vehicle's centre of mass (world). */
static void centre_of_mass(run *r, double c[3])
{
    const mech_model *m = r->m;
    mech_data_poses(r->d, r->buf);
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < m->nb; i++) {
        const double *p = r->buf + 7 * i, *qr = p + 3;
        /* R com by the quaternion (w x y z) */
        double w = qr[0], x = qr[1], y = qr[2], z = qr[3], *k = m->bodies[i].com;
        double R[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                        2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                        2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y) };
        for (int j = 0; j < 3; j++)
            c[j] += m->bodies[i].mass * (p[j] + R[3 * j] * k[0] + R[3 * j + 1] * k[1] + R[3 * j + 2] * k[2]);
    }
    for (int j = 0; j < 3; j++) c[j] /= r->mass;
}

/* The deflection whose curve force is f (the curve inverted segment by segment). */
static double deflection_at(const mech_tire *t, double f)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (tire_vertical_force(t, mid) < f) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double energy(run *r)
{
    double e[2];
    mech_data_energy(r->d, e);
    const mech_model *m = r->m;
    double el = 0;
    if (m->ntsda) {
        double *obs = malloc(sizeof(double) * (size_t)(6 * m->npoi + 2 * m->ntsda + 2 * m->nrsda));
        mech_data_observe(r->d, obs);
        for (int i = 0; i < m->ntsda; i++) {
            double l = obs[6 * m->npoi + 2 * i] - m->tsdas[i].l0;
            el += 0.5 * m->tsdas[i].k * l * l;
        }
        for (int i = 0; i < m->nrsda; i++) {
            double x = obs[6 * m->npoi + 2 * m->ntsda + 2 * i] - m->rsdas[i].q0;
            el += 0.5 * m->rsdas[i].k * x * x;
        }
        free(obs);
    }
    return e[0] + e[1] + el;
}

static int settle(run *r, int report)
{
    if (steps(r, 3.0)) return -1;
    double v[3];
    velocity(r, r->chassis, v);
    double v3 = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (steps(r, 1.0)) return -1;
    if (!report) return 0;
    gate("chassis speed after 3 s, mm/s", 1e3 * v3, 0, 1);
    const mech_model *m = r->m;
    double W = r->mass * 9.81, *F = malloc(sizeof(double) * 3 * (size_t)m->nb), sum = 0, front = 0, xf = 0, xr = 0;
    mech_data_ground_forces(r->d, F);
    int nf = 0, nr = 0;
    double c[3];
    centre_of_mass(r, c);
    for (int i = 0; i < m->ntire; i++) {
        const mech_tire *t = &m->tires[i];
        double fz = F[3 * t->body + 2], p[3];
        position(r, t->body, p);
        sum += fz;
        if (p[0] > c[0]) {
            front += fz;
            xf += p[0];
            nf++;
        } else {
            xr += p[0];
            nr++;
        }
        /* ride height: the wheel centre over the ground at R - deflection(load) */
        double d = deflection_at(t, fz), h = m->ground.z0;
        char what[96];
        snprintf(what, sizeof what, "%s: centre height - (R - curve^-1(load)), mm", t->name);
        gate(what, 1e3 * ((p[2] - h) - (t->radius - d)), -0.5, 0.5);
        printf("  %s load %.1f N, static deflection %.2f mm\n", t->name, fz, 1e3 * d);
    }
    xf /= nf;
    xr /= nr;
    double want = W * (c[0] - xr) / (xf - xr);
    gate("tire loads / weight - 1", sum / W - 1, -5e-3, 5e-3);
    gate("front load / (W (x_cg - x_r) / (x_f - x_r)) - 1", front / want - 1, -0.02, 0.02);
    velocity(r, r->chassis, v);
    gate("chassis speed after 4 s, mm/s", 1e3 * sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 0, 1);
    double *obs = malloc(sizeof(double) * (size_t)(6 * m->npoi + 2 * m->ntsda + 2 * m->nrsda));
    mech_data_observe(r->d, obs);
    for (int i = 0; i < m->ntsda; i++) {
        if (!strstr(m->tsdas[i].name, "shock")) continue;
        char what[96];
        snprintf(what, sizeof what, "%s length between the bump stops, m", m->tsdas[i].name);
        gate(what, obs[6 * m->npoi + 2 * i], STOP_MIN, STOP_MAX);
    }
    free(obs);
    free(F);
    return 0;
}

static int slope(run *r, double deg, int hold)
{
    if (settle(r, 0)) return -1;
    double a = deg * PI / 180, *g = mech_data_gravity(r->d);
    g[0] = -9.81 * sin(a); /* downhill is -x: the vehicle faces uphill */
    g[1] = 0;
    g[2] = -9.81 * cos(a);
    engage(r);
    if (steps(r, 3.0)) return -1;
    double p0[3], p1[3], v[3], alt[3] = { 0, 0, 0 };
    position(r, r->chassis, p0);
    /* the last second one step at a time: the ground force's period-2 content (chatter) */
    long n = 2 * lround(0.5 / r->dt); /* even: a constant force sums to zero */
    for (long k = 0; k < n; k++) {
        double F[3];
        if (steps(r, r->dt)) return -1;
        mech_data_ground_reaction(r->d, F);
        for (int j = 0; j < 3; j++) alt[j] += (k % 2 ? -F[j] : F[j]) / (double)n;
    }
    position(r, r->chassis, p1);
    velocity(r, r->chassis, v);
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), moved = hypot(p1[0] - p0[0], p1[1] - p0[1]);
    printf("%g deg, ground mu %g: chassis %.4g m/s, moved %.4g m over the last second\n", deg, r->m->ground.mu, speed,
           moved);
    if (hold) {
        gate("braked on the slope: period-2 ground force / weight (chatter)",
             sqrt(alt[0] * alt[0] + alt[1] * alt[1] + alt[2] * alt[2]) / (r->mass * 9.81), 0, 1e-4);
        gate("braked on the slope: chassis speed, mm/s", 1e3 * speed, 0, 1);
        gate("braked on the slope: moved over the last second, mm", 1e3 * moved, 0, 1);
    } else {
        gate("sliding downhill: chassis speed, m/s", speed, 0.1, INFINITY);
        gate("sliding downhill: moved downhill (-x) over the last second, m", p0[0] - p1[0], 0.1, INFINITY);
    }
    return 0;
}

static int coast(run *r)
{
    if (settle(r, 0)) return -1;
    const mech_model *m = r->m;
    /* 5 m/s forward: every body's translation, the wheels spun to roll. */
    double *qd = mech_data_qd(r->d);
    for (int i = 0; i < m->nb; i++)
        if (m->bodies[i].joint == MECH_JOINT_FLOATING) {
            /* floating qd is [w; v] with v the body-frame origin velocity; the bodies are near level */
            double *q = mech_data_q(r->d) + m->bodies[i].qidx, w = q[0], x = q[1], y = q[2], z = q[3];
            double vx[3] = { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) }; /* R^T e_x */
            for (int j = 0; j < 3; j++) qd[m->bodies[i].vidx + 3 + j] += 5.0 * vx[j];
        }
    for (int i = 0; i < m->ntire; i++) {
        double p[3];
        position(r, m->tires[i].body, p);
        qd[m->bodies[m->tires[i].body].vidx] = 5.0 / (p[2] - m->ground.z0);
    }
    double E = energy(r), rises = 0, E0 = E;
    for (int k = 0; k < 50; k++) {
        if (steps(r, 0.1)) return -1;
        double e = energy(r);
        if (e > E) rises++;
        E = e;
    }
    double v[3];
    velocity(r, r->chassis, v);
    printf("coasting 5 s from 5 m/s: speed %.4g m/s, energy %.6g -> %.6g J\n", v[0], E0, E);
    gate("energy rises between 0.1 s samples", rises, 0, 0);
    gate("still rolling forward, m/s", v[0], 0.5, 5);
    return 0;
}

static int crawl(run *r, double T)
{
    if (settle(r, 0)) return -1;
    const mech_model *m = r->m;
    int rear[2], n = 0;
    for (int i = 0; i < m->ntire && n < 2; i++) {
        double p[3];
        position(r, m->tires[i].body, p);
        if (p[0] < 0) rear[n++] = i;
    }
    double Fx = 0, re = 0, roll = 0, spin = 0, *F = malloc(sizeof(double) * 3 * (size_t)m->nb), v[3];
    long cnt = 0, nstep = lround(4.0 / r->dt);
    for (long s = 0; s < nstep; s++) {
        for (int k = 0; k < 2; k++) mech_data_tau(r->d)[m->bodies[m->tires[rear[k]].body].vidx] = T;
        if (mech_data_step(r->d, r->dt, 1)) return -1;
        if (s >= nstep - lround(1.0 / r->dt)) {
            mech_data_ground_forces(r->d, F);
            for (int k = 0; k < 2; k++) {
                double p[3];
                const mech_tire *t = &m->tires[rear[k]];
                Fx += F[3 * t->body];
                roll += t->rolling * F[3 * t->body + 2];
                spin += contact_axial_inertia(&m->bodies[t->body]) * mech_data_qdd(r->d)[m->bodies[t->body].vidx];
                position(r, t->body, p);
                re += p[2] - m->ground.z0;
            }
            cnt++;
        }
    }
    Fx /= cnt;
    re /= 2 * cnt;
    roll /= cnt;
    spin /= cnt;
    velocity(r, r->chassis, v);
    double want = (2 * T - roll - spin) / re;
    printf("torque %g N m on each rear wheel: speed %.4g m/s, tractive force %.2f N; 2 T / R_e %.2f N, "
           "(2 T - rolling Fz - I wdot) / R_e %.2f N (R_e %.4f m)\n",
           T, v[0], Fx, 2 * T / re, want, re);
    gate("crawling forward, m/s", v[0], 0.01, 1);
    gate("tractive force / ((2 T - rolling Fz - I wdot) / R_e) - 1", Fx / want - 1, -0.02, 0.02);
    free(F);
    return 0;
}

/* The longest any shock gets over 2 s of torque T on each rear wheel from
 * settled, the model's stops on or off; -1 when a step fails. */
static double launch_run(run *r, double T, int stops)
{
    mech_model *m = r->m;
    int nstop = m->nstop;
    if (!stops) m->nstop = 0;
    /* A run reads its model as it was when the run was made. */
    mech_error err;
    mech_data_free(r->d);
    if (!(r->d = mech_data_new_aba(m, &err))) return -1;
    r->braked = 0;
    double longest = 0;
    if (settle(r, 0)) longest = -1;
    double *obs = malloc(sizeof(double) * (size_t)(6 * m->npoi + 2 * m->ntsda + 2 * m->nrsda));
    for (long s = 0, n = lround(2.0 / r->dt); longest >= 0 && s < n; s++) {
        for (int i = 0; i < m->ntire; i++) {
            const mech_body *b = &m->bodies[m->tires[i].body];
            double p[3];
            position(r, m->tires[i].body, p);
            mech_data_tau(r->d)[b->vidx] = p[0] < 0 ? T : 0;
        }
        if (mech_data_step(r->d, r->dt, 1)) longest = -1;
        mech_data_observe(r->d, obs);
        for (int i = 0; i < m->ntsda; i++)
            if (strstr(m->tsdas[i].name, "shock")) longest = fmax(longest, obs[6 * m->npoi + 2 * i]);
    }
    free(obs);
    m->nstop = nstop;
    return longest;
}

static int launch(run *r, double T)
{
    if (!r->m->nstop) {
        fprintf(stderr, "%s has no bump stops\n", r->m->name);
        return -1;
    }
    double free_l = launch_run(r, T, 0), stop_l = launch_run(r, T, 1);
    if (free_l < 0 || stop_l < 0) return -1;
    printf("torque %g N m on each rear wheel for 2 s: longest shock %.5f m without the stops, %.5f m with "
           "(rebound stop %.6f m: %.2f mm past it without, %.2f mm with)\n",
           T, free_l, stop_l, STOP_MAX, 1e3 * (free_l - STOP_MAX), 1e3 * (stop_l - STOP_MAX));
    gate("without the stops: travel past the rebound stop, mm", 1e3 * (free_l - STOP_MAX), 0, 1e3);
    gate("with the stops: travel past it / without", (stop_l - STOP_MAX) / (free_l - STOP_MAX), 0, 0.85);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr,
                "usage: test_tire_vehicle FILE settle | slope DEG hold|slide [--mu MU] | coast | crawl T | launch T\n");
        return 2;
    }
    mech_error err;
    run r;
    memset(&r, 0, sizeof r);
    r.m = mech_model_load(argv[1], &err);
    if (!r.m) {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        return 1;
    }
    for (int i = 3; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--mu")) r.m->ground.mu = atof(argv[i + 1]);
    r.d = mech_data_new_aba(r.m, &err);
    if (!r.d) return 1;
    r.dt = mech_model_options(r.m).dt;
    r.chassis = mech_model_body_find(r.m, "chassis");
    for (int i = 0; i < r.m->nb; i++) r.mass += r.m->bodies[i].mass;
    r.buf = malloc(sizeof(double) * 7 * (size_t)r.m->nb);
    printf("%s: %d tires, mass %.3f kg, dt %.4g s\n", r.m->name, r.m->ntire, r.mass, r.dt);
    int rc = 0;
    if (!strcmp(argv[2], "settle")) rc = settle(&r, 1);
    else if (!strcmp(argv[2], "slope") && argc >= 5) rc = slope(&r, atof(argv[3]), !strcmp(argv[4], "hold"));
    else if (!strcmp(argv[2], "coast")) rc = coast(&r);
    else if (!strcmp(argv[2], "crawl") && argc >= 4) rc = crawl(&r, atof(argv[3]));
    else if (!strcmp(argv[2], "launch") && argc >= 4) rc = launch(&r, atof(argv[3]));
    else {
        fprintf(stderr, "unknown check '%s'\n", argv[2]);
        rc = -1;
    }
    free(r.buf);
    mech_data_free(r.d);
    mech_model_free(r.m);
    if (rc) return 1;
    printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
