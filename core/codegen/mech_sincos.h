/* mech_sincos.h — sin and cos of one angle together, inline, for the
 * generated dynamics (docs/codegen.md, "Trigonometry").
 *
 * Every generated file includes this header and calls mech_sincos once per
 * joint angle.  A libm sin + cos (or glibc's sincos) is a call of 100+
 * instructions that cannot be inlined; this is about 60, has no branch that
 * depends on the argument in the normal range (random angles cost no
 * mispredictions), and is plain C11: the WebAssembly build compiles the same
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

static inline void mech_sincos(double x, double *s_out, double *c_out)
{
    /* sin(j pi/64), j = 0..127, correctly rounded (exact 0 at j = 0, 64). */
    static const double sin_table[128] = {
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
    static const double k_scale = 20.371832715762604;        /* 64/pi                 */
    static const double Q1 = 0.049087385210441425;           /* pi/64, first 31 bits  */
    static const double Q2 = 1.8990939073729564e-12;         /* next 31 bits          */
    static const double Q3 = 9.102287671320938e-22;          /* next 31 bits          */
    static const double Q4 = 3.970799612543712e-31;          /* pi/64 - Q1 - Q2 - Q3  */

    if (!(fabs(x) <= MECH_SINCOS_MAX)) {          /* huge or NaN/inf: libm */
        *s_out = sin(x);
        *c_out = cos(x);
        return;
    }
    /* 1. k = floor(x 64/pi + 1/2) (the biased sum is positive, so truncation
     *    is floor) and y = x - k pi/64. */
    int k = (int)(x * k_scale + 4194304.5) - 4194304;
    double kd = (double)k;
    double y = (((x - kd * Q1) - kd * Q2) - kd * Q3) - kd * Q4;

    /* 2. sin y and cos y - 1. */
    double z = y * y;
    double sy = y + (y * z) * (-1.0 / 6.0 + z * (1.0 / 120.0 - z * (1.0 / 5040.0)));
    double cm1 = z * (-0.5 + z * (1.0 / 24.0 - z * (1.0 / 720.0)));

    /* 3. the angle-sum formulas with the table. */
    double sk = sin_table[k & 127], ck = sin_table[(k + 32) & 127];
    *s_out = sk + (sk * cm1 + ck * sy);
    *c_out = ck + (ck * cm1 - sk * sy);
}

#endif
