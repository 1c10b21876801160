/* mech_sincos.h — sin and cos of one angle together, inline, for the
 * generated dynamics (docs/codegen.md, "Trigonometry").
 *
 * Every generated file includes this header and takes its joint angles two
 * at a time through mech_sincos2 (at the end), a last odd one through
 * mech_sincos.  A libm sin + cos (or glibc's sincos) is a call of 100+
 * instructions that cannot be inlined; mech_sincos is about 60, has no branch
 * that depends on the argument in the normal range (random angles cost no
 * mispredictions), and is plain C11 (mech_sincos2 adds GCC/Clang vector
 * extensions, with a plain fallback): the WebAssembly build compiles the same
 * generated files.
 *
 *   1. Cody-Waite reduction by pi/64: k = nearest integer to x 64/pi and
 *      y = x - k pi/64, |y| <= pi/128, with pi/64 split in four parts.  Q1,
 *      Q2 and Q3 have 31 significant bits, so k Qi is exact for |k| < 2^22
 *      (|x| <= MECH_SINCOS_MAX gives |k| < 2^21), and x - k Q1 is exact
 *      (Sterbenz); the fourth part makes a result near a zero of sin or cos
 *      accurate relative to itself even for large x.
 *   2. On |y| <= pi/128 short Taylor polynomials are exact to well below an
 *      ulp: sin y = y + y^3 (-1/6 + y^2 (1/120 - y^2/5040)) (next term
 *      < 4e-19 relative) and cos y - 1 = y^2 (-1/2 + y^2 (1/24 - y^2/720))
 *      (next term < 3e-18).
 *   3. sin(x) = S_k + (S_k (cos y - 1) + C_k sin y) and
 *      cos(x) = C_k + (C_k (cos y - 1) - S_k sin y) with S_k = sin(k pi/64),
 *      C_k = cos(k pi/64) from one 128-entry table of correctly rounded
 *      values (C_k = S_{k+32}); the large term is added last.  The table
 *      holds exact zeros at multiples of pi, so near a zero of sin or cos
 *      the result is +-sin y, accurate relative to itself.
 *
 * Beyond |x| <= MECH_SINCOS_MAX (far outside any joint angle) and for
 * non-finite x it falls back to libm sin/cos: NaN in gives NaN out.  (One
 * IEEE detail differs from libm: sin(-0) is +0 here.)
 * tests/test_sincos.c checks it against libm over about 10^6 arguments
 * (at most 2 ulp, 1.1e-16 absolute). */
#ifndef MECH_SINCOS_H
#define MECH_SINCOS_H

#include <math.h>

#define MECH_SINCOS_MAX 1e5

/* sin(j pi/64), j = 0..127, correctly rounded (exact 0 at j = 0, 64). */
static const double mech_sin_table[128] = {
    0.0, 0.049067674327418015, 0.0980171403295606, 0.14673047445536175,
    0.19509032201612828, 0.2429801799032639, 0.2902846772544624, 0.33688985339222005,
    0.3826834323650898, 0.4275550934302821, 0.47139673682599764, 0.5141027441932218,
    0.5555702330196022, 0.5956993044924334, 0.6343932841636455, 0.6715589548470184,
    0.7071067811865476, 0.7409511253549591, 0.773010453362737, 0.8032075314806449,
    0.8314696123025452, 0.8577286100002721, 0.881921264348355, 0.9039892931234433,
    0.9238795325112867, 0.9415440651830208, 0.9569403357322088, 0.970031253194544,
    0.9807852804032304, 0.989176509964781, 0.9951847266721969, 0.9987954562051724,
    1.0, 0.9987954562051724, 0.9951847266721969, 0.989176509964781,
    0.9807852804032304, 0.970031253194544, 0.9569403357322088, 0.9415440651830208,
    0.9238795325112867, 0.9039892931234433, 0.881921264348355, 0.8577286100002721,
    0.8314696123025452, 0.8032075314806449, 0.773010453362737, 0.7409511253549591,
    0.7071067811865476, 0.6715589548470184, 0.6343932841636455, 0.5956993044924334,
    0.5555702330196022, 0.5141027441932218, 0.47139673682599764, 0.4275550934302821,
    0.3826834323650898, 0.33688985339222005, 0.2902846772544624, 0.2429801799032639,
    0.19509032201612828, 0.14673047445536175, 0.0980171403295606, 0.049067674327418015,
    0.0, -0.049067674327418015, -0.0980171403295606, -0.14673047445536175,
    -0.19509032201612828, -0.2429801799032639, -0.2902846772544624, -0.33688985339222005,
    -0.3826834323650898, -0.4275550934302821, -0.47139673682599764, -0.5141027441932218,
    -0.5555702330196022, -0.5956993044924334, -0.6343932841636455, -0.6715589548470184,
    -0.7071067811865476, -0.7409511253549591, -0.773010453362737, -0.8032075314806449,
    -0.8314696123025452, -0.8577286100002721, -0.881921264348355, -0.9039892931234433,
    -0.9238795325112867, -0.9415440651830208, -0.9569403357322088, -0.970031253194544,
    -0.9807852804032304, -0.989176509964781, -0.9951847266721969, -0.9987954562051724,
    -1.0, -0.9987954562051724, -0.9951847266721969, -0.989176509964781,
    -0.9807852804032304, -0.970031253194544, -0.9569403357322088, -0.9415440651830208,
    -0.9238795325112867, -0.9039892931234433, -0.881921264348355, -0.8577286100002721,
    -0.8314696123025452, -0.8032075314806449, -0.773010453362737, -0.7409511253549591,
    -0.7071067811865476, -0.6715589548470184, -0.6343932841636455, -0.5956993044924334,
    -0.5555702330196022, -0.5141027441932218, -0.47139673682599764, -0.4275550934302821,
    -0.3826834323650898, -0.33688985339222005, -0.2902846772544624, -0.2429801799032639,
    -0.19509032201612828, -0.14673047445536175, -0.0980171403295606, -0.049067674327418015
};
static const double mech_sincos_k_scale = 20.371832715762604;        /* 64/pi                 */
static const double mech_sincos_Q1 = 0.049087385210441425;           /* pi/64, first 31 bits  */
static const double mech_sincos_Q2 = 1.8990939073729564e-12;         /* next 31 bits          */
static const double mech_sincos_Q3 = 9.102287671320938e-22;          /* next 31 bits          */
static const double mech_sincos_Q4 = 3.970799612543712e-31;          /* pi/64 - Q1 - Q2 - Q3  */

static inline void mech_sincos(double x, double *s_out, double *c_out)
{
    if (!(fabs(x) <= MECH_SINCOS_MAX)) {          /* huge or NaN/inf: libm */
        *s_out = sin(x);
        *c_out = cos(x);
        return;
    }
    /* 1. k = floor(x 64/pi + 1/2) (the biased sum is positive, so truncation
     *    is floor) and y = x - k pi/64. */
    int k = (int)(x * mech_sincos_k_scale + 4194304.5) - 4194304;
    double kd = (double)k;
    double y = (((x - kd * mech_sincos_Q1) - kd * mech_sincos_Q2) - kd * mech_sincos_Q3) - kd * mech_sincos_Q4;

    /* 2. sin y and cos y - 1. */
    double z = y * y;
    double sy = y + (y * z) * (-1.0 / 6.0 + z * (1.0 / 120.0 - z * (1.0 / 5040.0)));
    double cm1 = z * (-0.5 + z * (1.0 / 24.0 - z * (1.0 / 720.0)));

    /* 3. the angle-sum formulas with the table. */
    double sk = mech_sin_table[k & 127], ck = mech_sin_table[(k + 32) & 127];
    *s_out = sk + (sk * cm1 + ck * sy);
    *c_out = ck + (ck * cm1 - sk * sy);
}

/* Two angles at once, for the generated files' joint angles taken in pairs:
 * the same operations in the same order as two mech_sincos calls, so the
 * results are bit-identical, but with GCC/Clang vector extensions each step
 * is one packed SSE2 (or wasm SIMD) instruction for both angles.  Outside the
 * normal range, or without vector extensions, it is two mech_sincos calls. */
#if defined(__GNUC__) || defined(__clang__)
typedef double mech_sincos_v2d __attribute__((vector_size(16)));
typedef int mech_sincos_v2i __attribute__((vector_size(8)));
#endif

static inline void mech_sincos2(double x0, double x1, double *s0, double *c0, double *s1, double *c1)
{
#if defined(__GNUC__) || defined(__clang__)
    if (!(fabs(x0) <= MECH_SINCOS_MAX && fabs(x1) <= MECH_SINCOS_MAX)) {
        mech_sincos(x0, s0, c0);
        mech_sincos(x1, s1, c1);
        return;
    }
    /* Packed constants, so each is one aligned load rather than a broadcast. */
    static const mech_sincos_v2d scale = { mech_sincos_k_scale, mech_sincos_k_scale }, bias = { 4194304.5, 4194304.5 };
    static const mech_sincos_v2d q1 = { mech_sincos_Q1, mech_sincos_Q1 }, q2 = { mech_sincos_Q2, mech_sincos_Q2 };
    static const mech_sincos_v2d q3 = { mech_sincos_Q3, mech_sincos_Q3 }, q4 = { mech_sincos_Q4, mech_sincos_Q4 };
    static const mech_sincos_v2d s3 = { -1.0 / 6.0, -1.0 / 6.0 }, s5 = { 1.0 / 120.0, 1.0 / 120.0 };
    static const mech_sincos_v2d s7 = { 1.0 / 5040.0, 1.0 / 5040.0 }, c2 = { -0.5, -0.5 };
    static const mech_sincos_v2d c4 = { 1.0 / 24.0, 1.0 / 24.0 }, c6 = { 1.0 / 720.0, 1.0 / 720.0 };
    const mech_sincos_v2d x = { x0, x1 };
    const mech_sincos_v2i k = __builtin_convertvector(x * scale + bias, mech_sincos_v2i) - 4194304;
    const mech_sincos_v2d kd = __builtin_convertvector(k, mech_sincos_v2d);
    const mech_sincos_v2d y = (((x - kd * q1) - kd * q2) - kd * q3) - kd * q4;
    const mech_sincos_v2d z = y * y;
    const mech_sincos_v2d sy = y + (y * z) * (s3 + z * (s5 - z * s7));
    const mech_sincos_v2d cm1 = z * (c2 + z * (c4 - z * c6));
    const mech_sincos_v2d sk = { mech_sin_table[k[0] & 127], mech_sin_table[k[1] & 127] };
    const mech_sincos_v2d ck = { mech_sin_table[(k[0] + 32) & 127], mech_sin_table[(k[1] + 32) & 127] };
    const mech_sincos_v2d s = sk + (sk * cm1 + ck * sy), c = ck + (ck * cm1 - sk * sy);
    *s0 = s[0];
    *c0 = c[0];
    *s1 = s[1];
    *c1 = c[1];
#else
    mech_sincos(x0, s0, c0);
    mech_sincos(x1, s1, c1);
#endif
}

#endif
