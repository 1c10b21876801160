/* contact_gates.h — the gate helpers both contact test programs print their figures with: each line names
 * what was checked, the figure and its gate; a failure is counted, and main returns failures ? 1 : 0. */
#ifndef MECH_TEST_CONTACT_GATES_H
#define MECH_TEST_CONTACT_GATES_H

#include <stdio.h>

#include "rbda/sample.h"

static int failures;

static void report(const char *what, double err, double gate)
{
    int ok = err <= gate;
    printf("%-60s %.3e (gate %.0e) %s\n", what, err, gate, ok ? "ok" : "FAIL");
    if (!ok) failures++;
}

static void require(const char *what, int ok)
{
    printf("%-60s %s\n", what, ok ? "ok" : "FAIL");
    if (!ok) failures++;
}

static inline double urand(mech_rng *r, double lo, double hi) { return mech_rng_uniform(r, lo, hi); }

#endif
