/* mech_sincos.h — sin and cos of one angle together, inline, for the
 * generated dynamics (docs/codegen.md, "Trigonometry").
 *
 * Every generated file includes this header and takes its joint angles two
 * at a time through mech_sincos2 (at the end), a last odd one through
 * mech_sincos.  A libm sin + cos (or glibc's sincos) is a call of 100+
 * instructions that cannot be inlined; mech_sincos is about 50, has no branch
 * that depends on the argument in the normal range (random angles cost no
 * mispredictions), and is plain C11 (mech_sincos2 adds GCC/Clang vector
 * extensions, with a plain fallback): the WebAssembly build compiles the same
 * generated files.
 *
 *   1. Cody-Waite reduction by pi/64: k = nearest integer to x 64/pi (by
 *      adding and subtracting 1.5 * 2^52, which also leaves k in the low
 *      bits of the sum: no float-int conversion on the dependency chain) and
 *      y = x - k pi/64, |y| <= pi/128, with pi/64 split in four parts.  Q1,
 *      Q2 and Q3 have 31 significant bits, so k Qi is exact for |k| < 2^22
 *      (|x| <= MECH_SINCOS_MAX gives |k| < 2^21), and x - k Q1 is exact
 *      (Sterbenz); k Q3 + k Q4 is summed off the subtraction chain (its
 *      rounding is below 1e-36 |k|), and the tail makes a result near a zero
 *      of sin or cos accurate relative to itself even for large x.
 *   2. On |y| <= pi/128 short Taylor polynomials are exact to well below an
 *      ulp: sin y = y + y^3 (-1/6 + y^2/120 - y^4/5040) (next term
 *      < 4e-19 relative) and cos y - 1 = y^2 (-1/2 + y^2/24 - y^4/720)
 *      (next term < 3e-18), each evaluated in two halves (Estrin) so the
 *      chain is three products and two sums shorter than Horner's.
 *   3. sin(x) = S_k + (S_k (cos y - 1) + C_k sin y) and
 *      cos(x) = C_k + (C_k (cos y - 1) - S_k sin y) with S_k = sin(k pi/64),
 *      C_k = cos(k pi/64) from one 128-entry table of correctly rounded
 *      { S_k, C_k } pairs (one 16-byte load each); the large term is added
 *      last.  The table holds exact zeros at multiples of pi/2, so near a
 *      zero of sin or cos the result is +-sin y, accurate relative to itself.
 *
 * Beyond |x| <= MECH_SINCOS_MAX (far outside any joint angle) and for
 * non-finite x it falls back to libm sin/cos: NaN in gives NaN out.  (One
 * IEEE detail differs from libm: sin(-0) is +0 here.)  mech_sincos_near and
 * mech_sincos2_near are the same without that check and call, for callers
 * that have checked the range themselves: a generated function that may call
 * libm costs V8 spills in WebAssembly even when the call is never taken
 * (docs/codegen.md, "Trigonometry").
 * tests/spatial/test_sincos.c checks it against libm over about 10^6 arguments
 * (at most 2 ulp, 1.1e-16 absolute). */
#ifndef MECH_SINCOS_H
#define MECH_SINCOS_H

#include <math.h>
#include <stdint.h>

#define MECH_SINCOS_MAX 1e5

/* { sin(j pi/64), cos(j pi/64) }, j = 0..127, correctly rounded (exact 0 at
 * multiples of pi/2): one 16-byte load gives both S_k and C_k. */
/* clang-format off */
static _Alignas(16) const double mech_sincos_table[128][2] = {
    { 0.0, 1.0 }, { 0.049067674327418015, 0.9987954562051724 },
    { 0.0980171403295606, 0.9951847266721969 }, { 0.14673047445536175, 0.989176509964781 },
    { 0.19509032201612828, 0.9807852804032304 }, { 0.2429801799032639, 0.970031253194544 },
    { 0.2902846772544624, 0.9569403357322088 }, { 0.33688985339222005, 0.9415440651830208 },
    { 0.3826834323650898, 0.9238795325112867 }, { 0.4275550934302821, 0.9039892931234433 },
    { 0.47139673682599764, 0.881921264348355 }, { 0.5141027441932218, 0.8577286100002721 },
    { 0.5555702330196022, 0.8314696123025452 }, { 0.5956993044924334, 0.8032075314806449 },
    { 0.6343932841636455, 0.773010453362737 }, { 0.6715589548470184, 0.7409511253549591 },
    { 0.7071067811865476, 0.7071067811865476 }, { 0.7409511253549591, 0.6715589548470184 },
    { 0.773010453362737, 0.6343932841636455 }, { 0.8032075314806449, 0.5956993044924334 },
    { 0.8314696123025452, 0.5555702330196022 }, { 0.8577286100002721, 0.5141027441932218 },
    { 0.881921264348355, 0.47139673682599764 }, { 0.9039892931234433, 0.4275550934302821 },
    { 0.9238795325112867, 0.3826834323650898 }, { 0.9415440651830208, 0.33688985339222005 },
    { 0.9569403357322088, 0.2902846772544624 }, { 0.970031253194544, 0.2429801799032639 },
    { 0.9807852804032304, 0.19509032201612828 }, { 0.989176509964781, 0.14673047445536175 },
    { 0.9951847266721969, 0.0980171403295606 }, { 0.9987954562051724, 0.049067674327418015 },
    { 1.0, 0.0 }, { 0.9987954562051724, -0.049067674327418015 },
    { 0.9951847266721969, -0.0980171403295606 }, { 0.989176509964781, -0.14673047445536175 },
    { 0.9807852804032304, -0.19509032201612828 }, { 0.970031253194544, -0.2429801799032639 },
    { 0.9569403357322088, -0.2902846772544624 }, { 0.9415440651830208, -0.33688985339222005 },
    { 0.9238795325112867, -0.3826834323650898 }, { 0.9039892931234433, -0.4275550934302821 },
    { 0.881921264348355, -0.47139673682599764 }, { 0.8577286100002721, -0.5141027441932218 },
    { 0.8314696123025452, -0.5555702330196022 }, { 0.8032075314806449, -0.5956993044924334 },
    { 0.773010453362737, -0.6343932841636455 }, { 0.7409511253549591, -0.6715589548470184 },
    { 0.7071067811865476, -0.7071067811865476 }, { 0.6715589548470184, -0.7409511253549591 },
    { 0.6343932841636455, -0.773010453362737 }, { 0.5956993044924334, -0.8032075314806449 },
    { 0.5555702330196022, -0.8314696123025452 }, { 0.5141027441932218, -0.8577286100002721 },
    { 0.47139673682599764, -0.881921264348355 }, { 0.4275550934302821, -0.9039892931234433 },
    { 0.3826834323650898, -0.9238795325112867 }, { 0.33688985339222005, -0.9415440651830208 },
    { 0.2902846772544624, -0.9569403357322088 }, { 0.2429801799032639, -0.970031253194544 },
    { 0.19509032201612828, -0.9807852804032304 }, { 0.14673047445536175, -0.989176509964781 },
    { 0.0980171403295606, -0.9951847266721969 }, { 0.049067674327418015, -0.9987954562051724 },
    { 0.0, -1.0 }, { -0.049067674327418015, -0.9987954562051724 },
    { -0.0980171403295606, -0.9951847266721969 }, { -0.14673047445536175, -0.989176509964781 },
    { -0.19509032201612828, -0.9807852804032304 }, { -0.2429801799032639, -0.970031253194544 },
    { -0.2902846772544624, -0.9569403357322088 }, { -0.33688985339222005, -0.9415440651830208 },
    { -0.3826834323650898, -0.9238795325112867 }, { -0.4275550934302821, -0.9039892931234433 },
    { -0.47139673682599764, -0.881921264348355 }, { -0.5141027441932218, -0.8577286100002721 },
    { -0.5555702330196022, -0.8314696123025452 }, { -0.5956993044924334, -0.8032075314806449 },
    { -0.6343932841636455, -0.773010453362737 }, { -0.6715589548470184, -0.7409511253549591 },
    { -0.7071067811865476, -0.7071067811865476 }, { -0.7409511253549591, -0.6715589548470184 },
    { -0.773010453362737, -0.6343932841636455 }, { -0.8032075314806449, -0.5956993044924334 },
    { -0.8314696123025452, -0.5555702330196022 }, { -0.8577286100002721, -0.5141027441932218 },
    { -0.881921264348355, -0.47139673682599764 }, { -0.9039892931234433, -0.4275550934302821 },
    { -0.9238795325112867, -0.3826834323650898 }, { -0.9415440651830208, -0.33688985339222005 },
    { -0.9569403357322088, -0.2902846772544624 }, { -0.970031253194544, -0.2429801799032639 },
    { -0.9807852804032304, -0.19509032201612828 }, { -0.989176509964781, -0.14673047445536175 },
    { -0.9951847266721969, -0.0980171403295606 }, { -0.9987954562051724, -0.049067674327418015 },
    { -1.0, 0.0 }, { -0.9987954562051724, 0.049067674327418015 },
    { -0.9951847266721969, 0.0980171403295606 }, { -0.989176509964781, 0.14673047445536175 },
    { -0.9807852804032304, 0.19509032201612828 }, { -0.970031253194544, 0.2429801799032639 },
    { -0.9569403357322088, 0.2902846772544624 }, { -0.9415440651830208, 0.33688985339222005 },
    { -0.9238795325112867, 0.3826834323650898 }, { -0.9039892931234433, 0.4275550934302821 },
    { -0.881921264348355, 0.47139673682599764 }, { -0.8577286100002721, 0.5141027441932218 },
    { -0.8314696123025452, 0.5555702330196022 }, { -0.8032075314806449, 0.5956993044924334 },
    { -0.773010453362737, 0.6343932841636455 }, { -0.7409511253549591, 0.6715589548470184 },
    { -0.7071067811865476, 0.7071067811865476 }, { -0.6715589548470184, 0.7409511253549591 },
    { -0.6343932841636455, 0.773010453362737 }, { -0.5956993044924334, 0.8032075314806449 },
    { -0.5555702330196022, 0.8314696123025452 }, { -0.5141027441932218, 0.8577286100002721 },
    { -0.47139673682599764, 0.881921264348355 }, { -0.4275550934302821, 0.9039892931234433 },
    { -0.3826834323650898, 0.9238795325112867 }, { -0.33688985339222005, 0.9415440651830208 },
    { -0.2902846772544624, 0.9569403357322088 }, { -0.2429801799032639, 0.970031253194544 },
    { -0.19509032201612828, 0.9807852804032304 }, { -0.14673047445536175, 0.989176509964781 },
    { -0.0980171403295606, 0.9951847266721969 }, { -0.049067674327418015, 0.9987954562051724 }
};
/* clang-format on */
static const double mech_sincos_k_scale = 20.371832715762604; /* 64/pi                 */
static const double mech_sincos_magic = 6755399441055744.0;   /* 1.5 * 2^52: rounds to an integer */
static const double mech_sincos_Q1 = 0.049087385210441425;    /* pi/64, first 31 bits  */
static const double mech_sincos_Q2 = 1.8990939073729564e-12;  /* next 31 bits          */
static const double mech_sincos_Q3 = 9.102287671320938e-22;   /* next 31 bits          */
static const double mech_sincos_Q4 = 3.970799612543712e-31;   /* pi/64 - Q1 - Q2 - Q3  */

/* sin x and cos x for |x| <= MECH_SINCOS_MAX, which the caller has checked
 * (no libm call: what the generated files' unchecked copy uses). */
static inline void mech_sincos_near(double x, double *s_out, double *c_out)
{
    /* 1. k = x 64/pi rounded to the nearest integer by the 1.5 * 2^52 shift
     *    (k is then the low bits of t), and y = x - k pi/64; the two smallest
     *    parts of pi/64 are summed first, off the subtraction chain. */
    union {
        double d;
        uint64_t u;
    } t;
    t.d = x * mech_sincos_k_scale + mech_sincos_magic;
    const double kd = t.d - mech_sincos_magic;
    const unsigned k = (unsigned)t.u & 127u;
    const double y = ((x - kd * mech_sincos_Q1) - kd * mech_sincos_Q2) - (kd * mech_sincos_Q3 + kd * mech_sincos_Q4);

    /* 2. sin y and cos y - 1, the polynomials split in two halves (Estrin). */
    const double z = y * y, z2 = z * z;
    const double sy = y + (y * z) * ((-1.0 / 6.0 + z * (1.0 / 120.0)) - z2 * (1.0 / 5040.0));
    const double cm1 = z * ((-0.5 + z * (1.0 / 24.0)) - z2 * (1.0 / 720.0));

    /* 3. the angle-sum formulas with the table. */
    const double sk = mech_sincos_table[k][0], ck = mech_sincos_table[k][1];
    *s_out = sk + (sk * cm1 + ck * sy);
    *c_out = ck + (ck * cm1 - sk * sy);
}

static inline void mech_sincos(double x, double *s_out, double *c_out)
{
    if (!(fabs(x) <= MECH_SINCOS_MAX)) { /* huge or NaN/inf: libm */
        *s_out = sin(x);
        *c_out = cos(x);
        return;
    }
    mech_sincos_near(x, s_out, c_out);
}

/* Two angles at once, for the generated files' joint angles taken in pairs:
 * the same operations in the same order as two mech_sincos calls, so the
 * results are bit-identical, but with GCC/Clang vector extensions each step
 * is one packed SSE2 (or wasm SIMD) instruction for both angles.  Outside the
 * normal range, or without vector extensions, it is two mech_sincos calls. */
#if defined(__GNUC__) || defined(__clang__)
typedef double mech_sincos_v2d __attribute__((vector_size(16)));
typedef long long mech_sincos_v2l __attribute__((vector_size(16)));
typedef struct {
    mech_sincos_v2d scale, magic, q1, q2, q3, q4, s3, s5, s7, c2, c4, c6;
} mech_sincos_consts;
static const mech_sincos_consts mech_sincos_vc = {
    { 20.371832715762604, 20.371832715762604 },
    { 6755399441055744.0, 6755399441055744.0 },
    { 0.049087385210441425, 0.049087385210441425 },
    { 1.8990939073729564e-12, 1.8990939073729564e-12 },
    { 9.102287671320938e-22, 9.102287671320938e-22 },
    { 3.970799612543712e-31, 3.970799612543712e-31 },
    { -1.0 / 6.0, -1.0 / 6.0 },
    { 1.0 / 120.0, 1.0 / 120.0 },
    { 1.0 / 5040.0, 1.0 / 5040.0 },
    { -0.5, -0.5 },
    { 1.0 / 24.0, 1.0 / 24.0 },
    { 1.0 / 720.0, 1.0 / 720.0 },
};
#endif

static inline void mech_sincos2_near(double x0, double x1, double *s0, double *c0, double *s1, double *c1)
{
#if defined(__GNUC__) || defined(__clang__)
    /* The constants through an opaque pointer: gcc would otherwise build each
     * uniform vector from a scalar load and a shuffle; this way each is one
     * (foldable) 16-byte load. */
    const mech_sincos_consts *K = &mech_sincos_vc;
#if defined(__x86_64__) || defined(__i386__)
    __asm__("" : "+r"(K));
#endif
    const mech_sincos_v2d x = { x0, x1 };
    const mech_sincos_v2d t = x * K->scale + K->magic;
    const mech_sincos_v2d kd = t - K->magic;
    const mech_sincos_v2l ti = (mech_sincos_v2l)t;
    const unsigned k0 = (unsigned)ti[0] & 127u, k1 = (unsigned)ti[1] & 127u;
    const mech_sincos_v2d y = ((x - kd * K->q1) - kd * K->q2) - (kd * K->q3 + kd * K->q4);
    const mech_sincos_v2d z = y * y, z2 = z * z;
    const mech_sincos_v2d sy = y + (y * z) * ((K->s3 + z * K->s5) - z2 * K->s7);
    const mech_sincos_v2d cm1 = z * ((K->c2 + z * K->c4) - z2 * K->c6);
    const mech_sincos_v2d p0 = *(const mech_sincos_v2d *)mech_sincos_table[k0];
    const mech_sincos_v2d p1 = *(const mech_sincos_v2d *)mech_sincos_table[k1];
    const mech_sincos_v2d sk = { p0[0], p1[0] }, ck = { p0[1], p1[1] };
    const mech_sincos_v2d s = sk + (sk * cm1 + ck * sy), c = ck + (ck * cm1 - sk * sy);
    *s0 = s[0];
    *c0 = c[0];
    *s1 = s[1];
    *c1 = c[1];
#else
    mech_sincos_near(x0, s0, c0);
    mech_sincos_near(x1, s1, c1);
#endif
}

static inline void mech_sincos2(double x0, double x1, double *s0, double *c0, double *s1, double *c1)
{
    if (!(fabs(x0) <= MECH_SINCOS_MAX && fabs(x1) <= MECH_SINCOS_MAX)) {
        mech_sincos(x0, s0, c0);
        mech_sincos(x1, s1, c1);
        return;
    }
    mech_sincos2_near(x0, x1, s0, c0, s1, c1);
}

/* One angle, for the last odd one of a generated file's unchecked copy: in
 * WebAssembly through the paired code with its second lane idle, since V8's
 * code for the f64x2 form is shorter than for the scalar one (not in the
 * staged files, where it measured slower); natively the scalar form.
 * Bit-identical either way.  The figures: docs/benchmarks.md, "Measured
 * reasons in the code". */
static inline void mech_sincos1_near(double x, double *s, double *c)
{
#if defined(__wasm_simd128__)
    double s1, c1;
    mech_sincos2_near(x, x, s, c, &s1, &c1);
#else
    mech_sincos_near(x, s, c);
#endif
}

#endif
