/* test_bristlebot.c — models/xpbd/bristlebot.mech on the XPBD engine
 * (Tobin & Rucker §9.7): shaken by its eccentric motor, the robot walks.
 * Over 2 s it must move forward (+x, the way its legs lean from), stay
 * upright and stand on its legs: the body's centre stays within 2 mm of
 * its height at rest on them (legs that sank into the ground would drop
 * it).  The net forward speed over the last second is printed in mm/s.
 *
 *   test_bristlebot FILE */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mech/mech.h>

static int failures;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            failures++; \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__); \
            printf("\n"); \
        } \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    mech_error err;
    mech_model *m = mech_model_load(argv[1], &err);
    if (!m) {
        printf("%s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
        return 2;
    }
    mech_data *d = mech_data_new_xpbd(m, &err);
    if (!d) {
        printf("xpbd: %s\n", err.message);
        return 2;
    }
    const double dt = 1e-4;
    int nb = mech_model_sizes(m).nb;
    double *P = malloc(sizeof(double) * 7 * (size_t)nb), x1 = 0, z_lo = INFINITY, z_hi = -INFINITY, min_up = 1;
    for (int i = 1; i <= 20; i++) {
        CHECK(mech_data_step(d, dt, 1000) == 0, "step: %s", mech_data_error(d)->message);
        if (failures) break;
        mech_data_poses(d, P);
        /* the body's z axis, third column of R(q): its z component */
        double x = P[4], y = P[5];
        min_up = fmin(min_up, 1 - 2 * (x * x + y * y));
        if (i >= 2) z_lo = fmin(z_lo, P[2]), z_hi = fmax(z_hi, P[2]);   /* after 0.2 s of settling */
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
    return failures ? 1 : 0;
}
