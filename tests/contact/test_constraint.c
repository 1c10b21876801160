/* test_constraint.c — the Featherstone constraint solve (core/contact/constraint.c; docs/contact.md, "The
 * constraint solve"), each check against a closed form:
 *   a sphere and a box resting on the floor: penetration at the soft constraint's equilibrium (≤ 1 mm), no drift
 *   over 10 s, normal forces summing to the weight;
 *   a sphere sliding on a plane: while it slips its centre decelerates at μ g;
 *   a box on an incline (gravity tilted): it holds for tan θ < μ (up to the soft friction's creep, made small
 *   by impratio 100), else slides at g (sin θ − μ cos θ);
 *   a hinge pendulum swung into its limit: stays within the limit + 0.5°, and between hits its energy never rises;
 *   friction loss: a joint held by dry friction larger than gravity's torque does not move;
 *   a free box dropped with a tilt comes to rest; a stack of five boxes stands 10 s;
 *   passive contact adds no energy: a ball bouncing (its energy in each flight below the last flight's), a box
 *   sliding to rest and a wheel rolling (their energy, sampled every step, never rising);
 *   the dense and ABA engines agree, H⁻¹ by the sparse factors agrees with H⁻¹ by one dynamics call per row
 *   (constraint_per_row), and two runs are bitwise equal.
 * Exit 0 on pass, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech/mech.h"
#include "sim/data.h"

#include "check.h"
#include "test_support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double G = 9.81;

static mech_data *open_run(const char *text, int dense, int floor)
{
    mech_model *m = test_parse_text(text, "constraint");
    mech_error err;
    mech_data *d = dense ? mech_data_new_dense(m, &err) : mech_data_new_aba(m, &err);
    if (!d) {
        printf("FAIL: %s\n", err.message);
        exit(1);
    }
    mech_data_adopt_model(d, m);
    if (floor && mech_data_set_floor(d, 1, 0.0)) {
        printf("FAIL: %s\n", mech_data_error(d)->message);
        exit(1);
    }
    return d;
}

static void step(mech_data *d, double dt, int n)
{
    if (mech_data_step(d, dt, n)) {
        printf("FAIL: %s\n", mech_data_error(d)->message);
        exit(1);
    }
}

/* Sum of the normal forces of the last step's contacts. */
static double normal_sum(mech_data *d)
{
    const double *f;
    int n = mech_data_contact_forces(d, &f);
    double s = 0;
    for (int k = 0; k < n; k++) s += f[4 * k];
    return s;
}

static const char *const sphere = "body ball\n parent base\n joint floating\n mass 2\n inertia 0.008 0.008 0.008\n"
                                  " q0 0 0 0.1\n shape sphere 0.1\nend\n";
static const char *const box = "body box\n parent base\n joint floating\n mass 3\n inertia 0.02 0.02 0.02\n"
                               " q0 0 0 0.1\n shape box 0.4 0.4 0.2\nend\n";

static void resting(const char *text, const char *what, double mass)
{
    mech_data *d = open_run(text, 0, 1);
    const double *q = mech_data_q(d);
    step(d, 1e-3, 2000);
    double z2 = q[6], fn = normal_sum(d);
    step(d, 1e-3, 8000);
    double z10 = q[6], pen = (strcmp(what, "sphere") == 0 ? 0.1 : 0.1) - z10;
    printf("%s at rest: penetration %.3g mm, drift 2..10 s %.3g mm, normal force %.6g N (weight %.6g)\n", what,
           1e3 * pen, 1e3 * (z10 - z2), fn, mass * G);
    CHECK(pen >= 0 && pen <= 1e-3, "%s: penetration %g m", what, pen);
    CHECK(fabs(z10 - z2) < 1e-6, "%s: drift %g m over 8 s", what, z10 - z2);
    CHECK(fabs(fn - mass * G) < 0.01 * mass * G, "%s: normal force %g, weight %g", what, fn, mass * G);
    mech_data_free(d);
}

/* A sphere launched at v0 = 4 m/s along x with no spin on a plane of
 * friction mu = 0.3: while it slips (until v = 5/7 v0, at 0.39 s),
 * dv/dt = −mu g.  A step of 0.1 ms: a floating body's velocity is in its
 * own frame, and the spin it picks up turns that frame by ω dt per step. */
static void sliding(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "contact\nstatic plane friction 0.3 0.3\n"
             "body ball\n parent base\n joint floating\n mass 2\n inertia 0.008 0.008 0.008\n"
             " q0 0 0 0.0998\n qd0 0 0 0 4 0 0\n shape sphere 0.1 friction 0.3 0.3\nend\n");
    mech_data *d = open_run(text, 0, 0);
    double v[6];
    step(d, 1e-4, 500);
    mech_data_velocities(d, v);
    double v1 = v[0];
    step(d, 1e-4, 2000);
    mech_data_velocities(d, v);
    double a = (v1 - v[0]) / 0.2, want = 0.3 * G;
    printf("sliding sphere: deceleration %.6g m/s^2, mu g %.6g\n", a, want);
    CHECK(fabs(a - want) < 0.02 * want, "sliding: deceleration %g, want %g", a, want);
    mech_data_free(d);
}

/* A box on a plane of friction 0.5 under gravity tilted by theta. */
static void incline(double theta_deg)
{
    double th = theta_deg * M_PI / 180, mu = 0.5;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity %.17g 0 %.17g\ncontact impratio 100\nstatic plane friction 0.5 0.5\n"
             "body box\n parent base\n joint floating\n mass 3\n inertia 0.02 0.02 0.02\n"
             " q0 0 0 0.0998\n shape box 0.4 0.4 0.2 friction 0.5 0.5\nend\n",
             G * sin(th), -G * cos(th));
    mech_data *d = open_run(text, 0, 0);
    const double *q = mech_data_q(d);
    double v[6];
    step(d, 1e-3, 500);
    mech_data_velocities(d, v);
    double x1 = q[4], v1 = v[0];
    step(d, 1e-3, 1000);
    mech_data_velocities(d, v);
    if (tan(th) < mu) {
        printf("box on %g deg (tan %.3f < mu %.1f): moved %.3g mm in 1 s\n", theta_deg, tan(th), mu, 1e3 * (q[4] - x1));
        CHECK(fabs(q[4] - x1) < 1e-3, "incline %g: the box moved %g m in 1 s", theta_deg, q[4] - x1);
    } else {
        double a = (v[0] - v1) / 1.0, want = G * (sin(th) - mu * cos(th));
        printf("box on %g deg: a %.6g m/s^2, g (sin - mu cos) %.6g\n", theta_deg, a, want);
        CHECK(fabs(a - want) < 0.02 * want, "incline %g: a %g, want %g", theta_deg, a, want);
    }
    mech_data_free(d);
}

/* A pendulum (0.5 m, 1 kg at its end) released at -30° about y swings into
 * its upper limit at 20° and back, many times.  Verlet's energy oscillates
 * within a swing by O(dt²), so the check compares whole swings: the largest
 * energy of each swing free of the limit is no larger than the last's. */
static void pendulum_limit(void)
{
    const char *text = "contact solref 0.005 1\n"
                       "body arm\n parent base\n joint revolute y\n mass 1\n com 0 0 -0.5\n inertia 1e-4 1e-4 1e-4\n"
                       " q0 -30\n limit -70 20\nend\n";
    mech_data *d = open_run(text, 0, 0);
    const double *q = mech_data_q(d);
    double e[2], qmax = -INFINITY;
    mech_data_energy(d, e);
    double e0 = e[0] + e[1], swing_max = -INFINITY, prev = e0 + 1e-5 * fabs(e0), first = 0; /* Verlet's O(dt²) */
    int in_limit = 0, rises = 0, hits = 0;
    for (int k = 0; k < 8000; k++) {
        step(d, 5e-4, 1);
        qmax = fmax(qmax, q[0]);
        int now = q[0] > 20 * M_PI / 180;
        if (now && !in_limit) { /* a hit ends a free swing */
            if (swing_max > prev) rises++;
            printf("  swing %d: largest energy %.9g J\n", hits, swing_max);
            if (hits == 1) first = swing_max;
            prev = swing_max;
            swing_max = -INFINITY;
            hits++;
        }
        in_limit = now;
        if (!now) {
            mech_data_energy(d, e);
            swing_max = fmax(swing_max, e[0] + e[1]);
        }
    }
    printf("pendulum: %d hits, furthest %.4f deg past the 20 deg limit; energy %.6g J at release, %.6g J after the "
           "first hit, %.6g J at the end\n",
           hits, qmax * 180 / M_PI - 20, e0, first, prev);
    CHECK(hits >= 2, "pendulum hit its limit %d times", hits);
    CHECK(qmax * 180 / M_PI <= 20.5, "pendulum passed its limit by %g deg", qmax * 180 / M_PI - 20);
    CHECK(!rises, "pendulum energy rose in %d swings", rises);
    mech_data_free(d);
}

/* A horizontal arm (1 kg at 0.5 m: a gravity torque of m g l = 4.905 N m)
 * with friction loss above that torque holds, up to the soft constraint's
 * creep: at rest a = a_ref − R f = 0 with a_ref = −b v, so it turns at
 * v = −R f / b, R = (1 − d0) / d0 · A, A = 1 / I (MuJoCo documentation,
 * "Computation": soft constraints have no exact static friction).  Below
 * that torque it falls. */
static void friction_loss(double loss, int holds)
{
    char text[512];
    snprintf(text, sizeof text,
             "body arm\n parent base\n joint revolute y\n mass 1\n com 0.5 0 0\n inertia 1e-4 1e-4 1e-4\n"
             " frictionloss %g\nend\n",
             loss);
    mech_data *d = open_run(text, 0, 0);
    step(d, 1e-3, 1000);
    double q = mech_data_q(d)[0], v = mech_data_qd(d)[0];
    double I = 0.25 + 1e-4, tau = 0.02, dw = 0.95, d0 = 0.9, R = (1 - d0) / d0 / I, b = 2 / (dw * tau);
    double creep = R * G * 0.5 / b;
    printf("friction loss %g N m against 4.905 N m: arm at %.4g deg after 1 s, turning at %.6g rad/s (creep %.6g)\n",
           loss, q * 180 / M_PI, v, creep);
    if (holds) CHECK(fabs(v - creep) < 0.02 * creep, "friction loss %g: turning at %g, creep %g", loss, v, creep);
    else CHECK(q > 10 * M_PI / 180, "friction loss %g: arm did not fall (%g rad)", loss, q);
    mech_data_free(d);
}

/* Passive contact adds no energy.  A ball dropped from 0.5 m on a bouncy
 * floor (damping ratio 0.1): in flight its energy is constant (Verlet is
 * exact under constant gravity), and each flight's (of 20 steps or more)
 * is below the last's.  While it touches, the soft contact holds energy
 * that E (kinetic and gravity) does not count, so E is compared flight to
 * flight.  A box sliding at 2 m/s and a wheel rolling at 1 m/s, each on a
 * carriage of two prismatic joints (z, x: no tilt, so the contact's depth
 * stays the steady one once settled), launched after settling 1 s: their
 * E, sampled every step, never rises beyond rounding (1e-12 relative). */
static void passive_energy(void)
{
    const char *bounce = "contact solref 0.02 0.1\nbody ball\n parent base\n joint floating\n mass 1\n"
                         " inertia 0.004 0.004 0.004\n q0 0 0 0.5\n shape sphere 0.1\nend\n";
    mech_data *d = open_run(bounce, 0, 1);
    double e[2], flight = -1, last = INFINITY, drift = 0;
    int flights = 0, rises = 0, length = 0;
    for (int k = 0; k < 4000; k++) {
        step(d, 1e-3, 1);
        double st[3];
        mech_data_solver_stats(d, st);
        mech_data_energy(d, e);
        if (st[0] == 0) {
            if (flight < 0) flight = e[0] + e[1], length = 0;
            drift = fmax(drift, fabs(e[0] + e[1] - flight));
            length++;
        } else if (flight >= 0) { /* a flight ends */
            if (length >= 20) {
                if (flight > last) rises++;
                if (flights < 4) printf("  flight %d: energy %.9g J\n", flights, flight);
                last = flight;
                flights++;
            }
            flight = -1;
        }
    }
    printf("bouncing ball: %d flights, energy within a flight constant to %.3g J, %d flights above the last\n", flights,
           drift, rises);
    CHECK(flights >= 3, "the ball bounced %d times", flights);
    CHECK(!rises, "a flight's energy rose above the last's %d times", rises);
    CHECK(drift < 1e-9, "energy in flight changed by %g J", drift);
    mech_data_free(d);

    static const char carriage[] = "body lift\n parent base\n joint prismatic z\n mass 0.5\n inertia 1e-3 1e-3 1e-3\n"
                                   " q0 %s\nend\nbody cart\n parent lift\n joint prismatic x\n mass 0.5\n"
                                   " inertia 1e-3 1e-3 1e-3\nend\n%s";
    const char *const what[2] = { "sliding box", "rolling wheel" };
    const char *const top[2] = { "0.1", "0.1" };
    const char *const load[2] = { "body box\n parent cart\n joint fixed\n mass 3\n inertia 0.02 0.02 0.02\n"
                                  " shape box 0.4 0.4 0.2\nend\n",
                                  "body wheel\n parent cart\n joint revolute y\n mass 2\n inertia 0.008 0.008 0.008\n"
                                  " shape sphere 0.1\nend\n" };
    for (int r = 0; r < 2; r++) {
        char text[1024];
        snprintf(text, sizeof text, carriage, top[r], load[r]);
        d = open_run(text, 0, 1);
        step(d, 1e-3, 1000);
        double *qd = mech_data_qd(d);
        qd[1] = r ? 1.0 : 2.0;
        if (r) qd[2] = 10.0; /* ω_y = v / radius: rolling */
        mech_data_energy(d, e);
        double prev = e[0] + e[1], e0 = prev, rise = 0;
        for (int k = 0; k < 3000; k++) {
            step(d, 1e-3, 1);
            mech_data_energy(d, e);
            double now = e[0] + e[1];
            rise = fmax(rise, now - prev);
            prev = now;
        }
        printf("%s: energy %.9g J at launch, %.9g J after 3 s, largest rise in a step %.3g J\n", what[r], e0, prev, rise);
        CHECK(rise <= 1e-12 * fabs(e0), "%s: energy rose by %g J in a step", what[r], rise);
        mech_data_free(d);
    }
}

static void drop_to_rest(void)
{
    const char *text = "body box\n parent base\n joint floating\n mass 3\n inertia 0.02 0.02 0.02\n"
                       " q0 0 0 0.5 x 30\n qd0 1 2 0 0.5 0 0\n shape box 0.4 0.3 0.2\nend\n";
    mech_data *d = open_run(text, 0, 1);
    step(d, 1e-3, 4000);
    double v[6];
    mech_data_velocities(d, v);
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), spin = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    printf("dropped box after 4 s: speed %.3g m/s, spin %.3g rad/s, z %.5g m\n", speed, spin, mech_data_q(d)[6]);
    CHECK(speed < 1e-3 && spin < 1e-3, "dropped box still moving: %g m/s, %g rad/s", speed, spin);
    mech_data_free(d);
}

static void stack(void)
{
    char text[4096];
    int n = snprintf(text, sizeof text, "contact\n");
    for (int i = 0; i < 5; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "body b%d\n parent base\n joint floating\n mass 1\n inertia 0.004 0.004 0.004\n"
                      " q0 0 0 %.17g\n shape box 0.2 0.2 0.2\nend\n",
                      i, 0.1 + 0.2 * i);
    mech_data *d = open_run(text, 0, 1);
    const double *q = mech_data_q(d);
    step(d, 1e-3, 2000);
    double z2 = q[7 * 4 + 6];
    step(d, 1e-3, 8000);
    double side = 0;
    for (int i = 0; i < 5; i++) side = fmax(side, hypot(q[7 * i + 4], q[7 * i + 5]));
    printf("stack of five after 10 s: top box %.3g mm below its start, drift 2..10 s %.3g mm, sideways %.3g mm\n",
           1e3 * (0.9 - q[7 * 4 + 6]), 1e3 * (q[7 * 4 + 6] - z2), 1e3 * side);
    CHECK(side < 1e-4, "stack moved sideways by %g m", side);
    CHECK(fabs(q[7 * 4 + 6] - z2) < 1e-6, "stack sank %g m between 2 s and 10 s", z2 - q[7 * 4 + 6]);
    CHECK(0.9 - q[7 * 4 + 6] < 0.02, "stack top %g m low", 0.9 - q[7 * 4 + 6]);
    mech_data_free(d);
}

static void engines_agree(void)
{
    const char *text = "contact\nbody arm\n parent base\n joint revolute y\n pos 0 0 0.6\n mass 1\n com 0 0 -0.3\n"
                       " inertia 0.01 0.01 0.01\n q0 70\n limit -80 80\n frictionloss 0.05\n"
                       " shape sphere 0.1 pos 0 0 -0.5\nend\n"
                       "body ball\n parent base\n joint floating\n mass 2\n inertia 0.008 0.008 0.008\n"
                       " q0 0.3 0.1 0.2\n qd0 0 0 1 -1 0 0\n shape sphere 0.1\nend\n";
    mech_data *a = open_run(text, 0, 1), *b = open_run(text, 1, 1), *c = open_run(text, 0, 1), *r = open_run(text, 0, 1);
    constraint_per_row(r->cs, 1);
    step(a, 1e-3, 1500);
    step(b, 1e-3, 1500);
    step(c, 1e-3, 1500);
    step(r, 1e-3, 1500);
    double diff = 0, rows = 0;
    for (int i = 0; i < mech_data_model(a)->nq; i++) {
        diff = fmax(diff, fabs(mech_data_q(a)[i] - mech_data_q(b)[i]));
        rows = fmax(rows, fabs(mech_data_q(a)[i] - mech_data_q(r)[i]));
    }
    printf("factors vs one dynamics call per row after 1.5 s: largest q difference %.3g\n", rows);
    CHECK(rows < 1e-9, "H^-1 by the factors and per row differ by %g", rows);
    double st[3];
    mech_data_solver_stats(a, st);
    printf("ABA vs dense after 1.5 s: largest q difference %.3g; last solve %g rows, %g sweeps, residual %.3g\n", diff,
           st[0], st[1], st[2]);
    CHECK(diff < 1e-6, "ABA and dense differ by %g", diff);
    CHECK(memcmp(mech_data_q(a), mech_data_q(c), sizeof(double) * (size_t)mech_data_model(a)->nq) == 0,
          "two ABA runs differ");
    mech_data_free(a);
    mech_data_free(b);
    mech_data_free(c);
    mech_data_free(r);
}

int main(void)
{
    resting(sphere, "sphere", 2);
    resting(box, "box", 3);
    sliding();
    incline(20);
    incline(35);
    pendulum_limit();
    friction_loss(6, 1);
    friction_loss(4, 0);
    drop_to_rest();
    passive_energy();
    engines_agree();
    stack();
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
