/* sample.c — see sample.h. */
#include "rbda/sample.h"

#include <math.h>

void mech_rng_seed(mech_rng *rng, uint64_t seed) { rng->s = seed; }

/* splitmix64 (Steele, Lea, Flood 2014). */
uint64_t mech_rng_next(mech_rng *rng)
{
    uint64_t z = (rng->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double mech_rng_uniform(mech_rng *rng, double lo, double hi)
{
    double u = (double)(mech_rng_next(rng) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

/* Uniform on SO(3): Shoemake's subgroup algorithm. */
static void random_quat(mech_rng *rng, double q[4])
{
    const double two_pi = 6.283185307179586;
    double u1 = mech_rng_uniform(rng, 0, 1), u2 = mech_rng_uniform(rng, 0, 1), u3 = mech_rng_uniform(rng, 0, 1);
    double a = sqrt(1 - u1), b = sqrt(u1);
    q[0] = a * sin(two_pi * u2);
    q[1] = a * cos(two_pi * u2);
    q[2] = b * sin(two_pi * u3);
    q[3] = b * cos(two_pi * u3);
}

void mech_sample_state(const mech_model *m, mech_rng *rng, double *q, double *qd, double *tau, double *fext)
{
    const double pi = 3.141592653589793;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double tmp[7];
        double *qi = q ? q + b->qidx : tmp;
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE: qi[0] = mech_rng_uniform(rng, -pi, pi); break;
        case MECH_JOINT_PRISMATIC: qi[0] = mech_rng_uniform(rng, -1, 1); break;
        case MECH_JOINT_FLOATING:
            random_quat(rng, qi);
            for (int k = 4; k < 7; k++) qi[k] = mech_rng_uniform(rng, -2, 2);
            break;
        case MECH_JOINT_FIXED: break;
        case MECH_JOINT_SPHERICAL: random_quat(rng, qi); break;
        case MECH_JOINT_CYLINDRICAL:
            qi[0] = mech_rng_uniform(rng, -pi, pi);
            qi[1] = mech_rng_uniform(rng, -1, 1);
            break;
        }
    }
    for (int i = 0; i < m->nv; i++) {
        double v = mech_rng_uniform(rng, -2, 2), t = mech_rng_uniform(rng, -5, 5);
        if (qd) qd[i] = v;
        if (tau) tau[i] = t;
    }
    for (int i = 0; i < m->nb; i++)
        for (int k = 0; k < 6; k++) {
            double f = mech_rng_uniform(rng, -5, 5);
            if (fext) fext[6 * i + k] = m->bodies[i].fext ? f : 0.0;
        }
}

double mech_scaled_error(const double *a, const double *b, int n)
{
    double err = 0, scale = 1;
    for (int i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]), s = fabs(b[i]);
        if (isnan(d)) return INFINITY;
        if (d > err) err = d;
        if (s > scale) scale = s;
    }
    return err / scale;
}
