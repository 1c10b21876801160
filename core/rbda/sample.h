/* sample.h — reproducible random states and the error metric every
 * validation in this project reports. */
#ifndef MECH_SAMPLE_H
#define MECH_SAMPLE_H

#include <stdint.h>

#include "model/model.h"

typedef struct {
    uint64_t s;
} mech_rng; /* splitmix64: same stream on every platform */

void mech_rng_seed(mech_rng *rng, uint64_t seed);
uint64_t mech_rng_next(mech_rng *rng);
double mech_rng_uniform(mech_rng *rng, double lo, double hi);

/* A random state: revolute q in [-pi, pi], prismatic q in [-1, 1] m,
 * floating attitude uniform on SO(3) and position in [-2, 2]^3 m,
 * qd in [-2, 2], tau in [-5, 5], fext components in [-5, 5] on bodies that
 * declare `fext 1` (zero elsewhere).  Any output pointer may be NULL. */
void mech_sample_state(const mech_model *m, mech_rng *rng, double *q, double *qd, double *tau, double *fext);

/* The scaled error used by every gate: max|a - b| / max(1, max|b|). */
double mech_scaled_error(const double *a, const double *b, int n);

#endif
