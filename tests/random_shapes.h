/* random_shapes.h — what the collision tests share: expect.h's pass/fail
 * line, seeded uniform numbers (a 64-bit linear congruential
 * generator with Knuth's MMIX constants, the top 53 bits) and uniformly
 * random rotations (from a normalized random quaternion). */
#ifndef MECH_TEST_RANDOM_SHAPES_H
#define MECH_TEST_RANDOM_SHAPES_H

#include <math.h>

#include "expect.h"
#include "spatial/spatial.h"

/* Uniform in [0, 1) from the generator's state. */
static inline double test_uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static inline void test_random_rotation(unsigned long long *state, double R[9])
{
    double q[4], n = 0;
    for (int k = 0; k < 4; k++) q[k] = test_uniform(state) - 0.5, n += q[k] * q[k];
    n = sqrt(n);
    for (int k = 0; k < 4; k++) q[k] /= n;
    quat_to_rot(q, R);
}

static inline double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

#endif
