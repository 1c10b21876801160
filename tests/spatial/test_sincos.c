/* test_sincos.c — mech_sincos (core/spatial/mech_sincos.h, used by every
 * generated file) against libm sin/cos over about 10^6 arguments: tiny and
 * subnormal, moderate, the neighbourhoods of multiples of pi/2 and of the
 * quadrant boundaries, log-uniform up to the reduction's limit and beyond it
 * (the libm fallback), and non-finite inputs.
 *
 * Gate: every result within 2 ulp of libm's (ulp of libm's result), and
 * within 4e-16 absolutely; NaN in gives NaN out, +-inf give NaN.  Exit status
 * 0 = PASS. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "spatial/mech_sincos.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(next() >> 11) * 0x1p-53; }
static double log_uniform(double lo, double hi) { return exp(uniform(log(lo), log(hi))); }
static double random_sign(double x) { return (next() & 1) ? -x : x; }

typedef struct {
    const char *name;
    long n;
    double max_ulp, max_abs, worst_x;
    long bad;
} stats;

static double ulp_of(double y)
{
    y = fabs(y);
    if (y < 0x1p-1022) return 0x1p-1074;
    return nextafter(y, INFINITY) - y;
}

/* mech_sincos2 (two angles per call, as the generated code emits them) must give
 * bit for bit what two mech_sincos calls give; every argument is paired with the
 * one checked before it, so every class below is covered in pairs too. */
static long pair_mismatches;

static void check_pair(double x0, double x1)
{
    double s0, c0, s1, c1, r[4];
    mech_sincos2(x0, x1, &s0, &c0, &s1, &c1);
    mech_sincos(x0, &r[0], &r[1]);
    mech_sincos(x1, &r[2], &r[3]);
    const double got[4] = { s0, c0, s1, c1 };
    if (memcmp(got, r, sizeof r) != 0 && pair_mismatches++ < 5)
        fprintf(stderr, "test_sincos: mech_sincos2(%a, %a) differs from two mech_sincos calls\n", x0, x1);
}

static void check_one(stats *st, double x)
{
    static double previous;
    double s, c;
    check_pair(previous, x);
    previous = x;
    mech_sincos(x, &s, &c);
    double rs = sin(x), rc = cos(x);
    st->n++;
    if (isnan(rs) || isnan(rc)) {
        if (!(isnan(s) && isnan(c))) {
            if (st->bad++ < 5) fprintf(stderr, "test_sincos: %s: x = %a: expected NaN, got %a %a\n", st->name, x, s, c);
        }
        return;
    }
    double es = fabs(s - rs), ec = fabs(c - rc);
    double us = es / ulp_of(rs), uc = ec / ulp_of(rc);
    double u = us > uc ? us : uc, e = es > ec ? es : ec;
    if (u > st->max_ulp) {
        st->max_ulp = u;
        st->worst_x = x;
    }
    if (e > st->max_abs) st->max_abs = e;
    if (!(u <= 2.0 && e <= 4e-16)) {
        if (st->bad++ < 5)
            fprintf(stderr, "test_sincos: %s: x = %.17g: sin %.17g vs %.17g, cos %.17g vs %.17g (%.2f ulp)\n", st->name,
                    x, s, rs, c, rc, u);
    }
}

static int report(stats *st)
{
    printf("test_sincos: %-28s %8ld args, max %.3f ulp (at %.17g), max abs %.2e%s\n", st->name, st->n, st->max_ulp,
           st->worst_x, st->max_abs, st->bad ? "  FAIL" : "");
    return st->bad == 0;
}

int main(void)
{
    int ok = 1;
    const double pio2 = 1.57079632679489661923;

    stats tiny = { "tiny (1e-310 .. 1e-3)", 0, 0, 0, 0, 0 };
    for (int i = 0; i < 100000; i++) check_one(&tiny, random_sign(log_uniform(1e-310, 1e-3)));
    check_one(&tiny, 0.0);
    check_one(&tiny, -0.0);
    ok &= report(&tiny);

    stats joint = { "joint angles [-2pi, 2pi]", 0, 0, 0, 0, 0 };
    for (int i = 0; i < 300000; i++) check_one(&joint, uniform(-4 * pio2, 4 * pio2));
    ok &= report(&joint);

    stats moderate = { "moderate [-1000, 1000]", 0, 0, 0, 0, 0 };
    for (int i = 0; i < 200000; i++) check_one(&moderate, uniform(-1000, 1000));
    ok &= report(&moderate);

    /* k pi/2 and (k + 1/2) pi/2 as doubles, and 16 ulps either side. */
    stats near = { "near k pi/2 and boundaries", 0, 0, 0, 0, 0 };
    for (int i = 0; i < 6000; i++) {
        int k = i < 2000 ? i - 1000 : (int)(next() % 120000) - 60000;
        for (int half = 0; half < 2; half++) {
            double x = (k + 0.5 * half) * pio2;
            double lo = x, hi = x;
            check_one(&near, x);
            for (int j = 0; j < 16; j++) {
                lo = nextafter(lo, -INFINITY);
                hi = nextafter(hi, INFINITY);
                check_one(&near, lo);
                check_one(&near, hi);
            }
        }
    }
    ok &= report(&near);

    stats large = { "log-uniform 1e-3 .. 1e5", 0, 0, 0, 0, 0 };
    for (int i = 0; i < 200000; i++) check_one(&large, random_sign(log_uniform(1e-3, MECH_SINCOS_MAX)));
    {
        double x = MECH_SINCOS_MAX; /* both sides of the fallback threshold */
        for (int j = 0; j < 1000; j++) {
            check_one(&large, x);
            check_one(&large, -x);
            x = nextafter(x, 0);
        }
    }
    ok &= report(&large);

    stats beyond = { "fallback (1e5 .. 1e300)", 0, 0, 0, 0, 0 };
    {
        double x = MECH_SINCOS_MAX;
        for (int j = 0; j < 1000; j++) {
            x = nextafter(x, INFINITY);
            check_one(&beyond, x);
            check_one(&beyond, -x);
        }
    }
    for (int i = 0; i < 50000; i++) check_one(&beyond, random_sign(log_uniform(MECH_SINCOS_MAX, 1e300)));
    ok &= report(&beyond);

    stats nonfinite = { "NaN and +-inf", 0, 0, 0, 0, 0 };
    check_one(&nonfinite, NAN);
    check_one(&nonfinite, -NAN);
    check_one(&nonfinite, INFINITY);
    check_one(&nonfinite, -INFINITY);
    ok &= report(&nonfinite);

    long total = tiny.n + joint.n + moderate.n + near.n + large.n + beyond.n + nonfinite.n;
    printf("test_sincos: mech_sincos2 vs two mech_sincos calls: %ld pairs, %ld bit differences\n", total,
           pair_mismatches);
    ok &= pair_mismatches == 0;
    printf("test_sincos: %ld arguments: %s\n", total, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
