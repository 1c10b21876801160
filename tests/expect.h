/* expect.h — the pass/fail line of the tests that print a figure per
 * check: expect(what, ok, value) prints "ok" or "FAIL", the check and its
 * figure, and counts failures in `failures` (main returns failures != 0). */
#ifndef MECH_TEST_EXPECT_H
#define MECH_TEST_EXPECT_H

#include <stdio.h>

static int failures;

static void expect(const char *what, int ok, double value)
{
    printf("%s %s (%.6g)\n", ok ? "ok  " : "FAIL", what, value);
    if (!ok) failures++;
}

#endif
