/* test_rod_scenes.c — the contact scenes of models/xpbd on the XPBD engine.
 *
 * bristlebot.mech (Tobin & Rucker §9.7): shaken by its eccentric motor, the robot walks.
 * Over 2 s it must move forward (+x, the way its legs lean from), stay
 * upright and stand on its legs: the body's centre stays within 2 mm of
 * its height at rest on them (legs that sank into the ground would drop
 * it).  The net forward speed over the last second is printed in mm/s.
 *
 * bowling.mech (§9.6): the ball rolled at 10 m/s knocks pins over (at least
 * five lie with their axis more than 45° from the vertical after 2 s), no
 * pin's base sinks into the lane by more than 1 cm, and the ball ends at
 * the back wall.
 *
 *   test_rod_scenes DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mech/mech.h>

#include "check.h"

/* The scene DIR/name on XPBD, or NULL (printed). */
static mech_data *open_scene(const char *dir, const char *name, mech_model **m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mech_error err;
    *m = mech_model_load(path, &err);
    if (!*m) {
        printf("FAIL %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
        failures++;
        return NULL;
    }
    mech_data *d = mech_data_new_xpbd(*m, &err);
    if (!d) {
        printf("FAIL %s: %s\n", name, err.message);
        failures++;
        mech_model_free(*m);
    }
    return d;
}

/* The z component of a pose's body z axis (pose: x y z qw qx qy qz). */
static double up(const double *pose)
{
    double x = pose[4], y = pose[5];
    return 1 - 2 * (x * x + y * y);
}

static void bristlebot(const char *dir)
{
    mech_model *m;
    mech_data *d = open_scene(dir, "bristlebot.mech", &m);
    if (!d) return;
    const double dt = 1e-4;
    int nb = mech_model_sizes(m).nb;
    double *P = malloc(sizeof(double) * 7 * (size_t)nb), x1 = 0, z_lo = INFINITY, z_hi = -INFINITY, min_up = 1;
    for (int i = 1; i <= 20; i++) {
        CHECK(mech_data_step(d, dt, 1000) == 0, "step: %s", mech_data_error(d)->message);
        if (failures) break;
        mech_data_poses(d, P);
        /* the body's z axis, third column of R(q): its z component */
        min_up = fmin(min_up, up(P));
        if (i >= 2) z_lo = fmin(z_lo, P[2]), z_hi = fmax(z_hi, P[2]); /* after 0.2 s of settling */
        if (i == 10) x1 = P[0];
    }
    double speed = (P[0] - x1) / 1.0;
    printf("bristlebot: x %.2f mm after 2 s, net forward speed over the last second %.2f mm/s, lateral %.2f mm; "
           "body axis up >= %.3f; body centre between %.2f and %.2f mm high\n",
           1e3 * P[0], 1e3 * speed, 1e3 * P[1], min_up, 1e3 * z_lo, 1e3 * z_hi);
    CHECK(speed > 0, "the robot does not walk forward: %g m/s", speed);
    CHECK(min_up > 0.9, "the robot tips over: up %g", min_up);
    CHECK(z_hi - z_lo < 2e-3, "the body's height wanders over %g m", z_hi - z_lo);
    free(P);
    mech_data_free(d);
    mech_model_free(m);
}

static void bowling(const char *dir)
{
    mech_model *m;
    mech_data *d = open_scene(dir, "bowling.mech", &m);
    if (!d) return;
    int nb = mech_model_sizes(m).nb, down = 0, npin = 0;
    double *P = malloc(sizeof(double) * 7 * (size_t)nb), lowest = INFINITY;
    for (int i = 0; i < 20 && !failures; i++) {
        CHECK(mech_data_step(d, 2e-3, 50) == 0, "step: %s", mech_data_error(d)->message);
        mech_data_poses(d, P);
        for (int b = 0; b < nb; b++)
            if (strncmp(mech_model_body_name(m, b), "pin", 3) == 0) lowest = fmin(lowest, P[7 * b + 2]);
    }
    for (int b = 0; b < nb; b++)
        if (strncmp(mech_model_body_name(m, b), "pin", 3) == 0) npin++, down += up(P + 7 * b) < sqrt(0.5);
    int ball = mech_model_body_find(m, "ball");
    printf("bowling: %d of %d pins down after 2 s; lowest pin base %.1f mm; ball at y %.3f m\n", down, npin,
           1e3 * lowest, P[7 * ball + 1]);
    CHECK(npin == 10 && down >= 5, "the ball knocks %d of %d pins over", down, npin);
    CHECK(lowest > -0.01, "a pin sinks into the lane: base at %g m", lowest);
    CHECK(P[7 * ball + 1] > 1.3 && P[7 * ball + 1] < 1.6, "the ball is not at the back wall: y %g m", P[7 * ball + 1]);
    free(P);
    mech_data_free(d);
    mech_model_free(m);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    bristlebot(argv[1]);
    bowling(argv[1]);
    return failures ? 1 : 0;
}
