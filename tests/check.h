/* check.h — the pass/fail macro of the tests that use only the public API
 * (<mech/mech.h>): CHECK(cond, printf-style message) prints a FAIL line with
 * its place and counts it in `failures`; main returns failures ? 1 : 0. */
#ifndef MECH_TEST_CHECK_H
#define MECH_TEST_CHECK_H

#include <stdio.h>

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

#endif
