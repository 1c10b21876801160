/* parse_values.c — the parser's toolkit: errors and warnings with their
 * place, growing arrays, and the values of a line (numbers, axes, rotations,
 * names, inertia, colors, contact materials).  All return 0, or -1 with the
 * error set (mp_fail keeps the first). */
#include "model/parse_internal.h"
#include "model/inertia.h"
#include "spatial/spatial.h"
#include "spatial/mech_sincos.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---- */

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int mp_fail(parser *p, int line, int col, const char *fmt, ...)
{
    if (!p->failed) {
        va_list ap;
        p->failed = 1;
        p->err->line = line;
        p->err->col = col;
        va_start(ap, fmt);
        vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void mp_warn(parser *p, int line, int col, const char *fmt, ...)
{
    mech_model *m = p->m;
    if (m->nwarning == MECH_MAX_WARNINGS) return;
    mech_error *w = &m->warnings[m->nwarning++];
    memcpy(w->file, p->err->file, sizeof w->file);
    w->line = line;
    w->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
}

/* A token for a message: printable ASCII only, cut at QUOTE_MAX characters. */
const char *mp_quote(const lex_tok *t, char buf[QUOTE_MAX + 4])
{
    int n = t->n < QUOTE_MAX ? t->n : QUOTE_MAX;
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    strcpy(buf + n, t->n > QUOTE_MAX ? "..." : "");
    return buf;
}

/* An error at token t whose message names it: `what` is printed as '<token>' + rest. */
int mp_fail_at(parser *p, const lex_tok *t, const char *what, const char *rest)
{
    char q[QUOTE_MAX + 4];
    return mp_fail(p, p->ln.no, t->col, "%s'%s'%s", what, mp_quote(t, q), rest);
}

/* ---- growing arrays within the caps ---- */

int mp_grow(parser *p, void **arr, int *cap, int n, size_t elem, int max, const char *what, int col)
{
    if (n >= max) return mp_fail(p, p->ln.no, col, "too many %s: at most %d", what, max);
    if (n < *cap) return 0;
    int ncap = *cap ? 2 * *cap : 8;
    if (ncap > max) ncap = max;
    void *a = realloc(*arr, (size_t)ncap * elem);
    if (!a) return mp_fail(p, p->ln.no, col, "out of memory");
    *arr = a;
    *cap = ncap;
    return 0;
}

/* ---- tokens and values ---- */

int mp_next_tok(parser *p, lex_tok *t, const char *key, const char *expect)
{
    if (lex_next(&p->ln, t)) return 0;
    return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "too few values for '%s': expected %s", key, expect);
}

int mp_end_of_line(parser *p, const char *key, const char *expect)
{
    lex_tok t;
    if (!lex_next(&p->ln, &t)) return 0;
    return mp_fail(p, p->ln.no, t.col, "too many values for '%s': expected %s", key, expect);
}

int mp_to_number(parser *p, const lex_tok *t, const char *key, double *v)
{
    char q[QUOTE_MAX + 4];
    switch (lex_number(t, v)) {
    case NUM_OK: return 0;
    case NUM_NONFINITE: return mp_fail(p, p->ln.no, t->col, "non-finite number '%s' for '%s'", mp_quote(t, q), key);
    case NUM_TOO_LONG:
        return mp_fail(p, p->ln.no, t->col, "number '%s' for '%s' is too long: at most %d characters", mp_quote(t, q),
                       key, LEX_NUM_MAX);
    default:
        return mp_fail(p, p->ln.no, t->col, "bad number '%s' for '%s': expected a decimal number", mp_quote(t, q), key);
    }
}

int mp_read_numbers(parser *p, const char *key, const char *expect, double *v, int n)
{
    lex_tok t;
    for (int i = 0; i < n; i++)
        if (mp_next_tok(p, &t, key, expect) || mp_to_number(p, &t, key, &v[i])) return -1;
    return 0;
}

/* A complete line of exactly n numbers. */
int mp_number_line(parser *p, const char *key, double *v, int n)
{
    char expect[16];
    snprintf(expect, sizeof expect, "%d", n);
    if (mp_read_numbers(p, key, expect, v, n)) return -1;
    return mp_end_of_line(p, key, expect);
}

/* x|y|z|-x|-y|-z or three numbers, normalised. */
int mp_read_axis(parser *p, const char *key, double axis[3])
{
    static const char *const names[6] = { "x", "y", "z", "-x", "-y", "-z" };
    lex_tok t;
    if (mp_next_tok(p, &t, key, AXIS_EXPECT)) return -1;
    for (int i = 0; i < 6; i++)
        if (lex_is(&t, names[i])) {
            axis[0] = axis[1] = axis[2] = 0.0;
            axis[i % 3] = i < 3 ? 1.0 : -1.0;
            return 0;
        }
    if (lex_number(&t, &axis[0]) == NUM_BAD) {
        char q[QUOTE_MAX + 4];
        return mp_fail(p, p->ln.no, t.col, "bad axis '%s' for '%s': expected x, y, z, -x, -y, -z or 3 numbers",
                       mp_quote(&t, q), key);
    }
    if (mp_to_number(p, &t, key, &axis[0]) || mp_read_numbers(p, key, AXIS_EXPECT, axis + 1, 2)) return -1;
    double m = fmax(fabs(axis[0]), fmax(fabs(axis[1]), fabs(axis[2])));
    if (m == 0.0) return mp_fail(p, p->ln.no, t.col, "zero-length axis for '%s'", key);
    for (int i = 0; i < 3; i++) axis[i] /= m;
    double n = v3_norm(axis);
    for (int i = 0; i < 3; i++) axis[i] /= n;
    return 0;
}

/* <axis> <degrees> as a rotation matrix.  Its sine and cosine come from
 * mech_sincos (plain C arithmetic: the same bits on every platform), not
 * from libm, whose last bit differs between glibc and the WebAssembly
 * build's libc (cos of 45 degrees less 2e-6 is one of them): so a text
 * parses to the same model constants natively and in the runtime module,
 * and the generator writes the same code from it in both. */
int mp_read_rotation(parser *p, const char *key, double R[9])
{
    double axis[3], deg, s, c;
    if (mp_read_axis(p, key, axis) || mp_read_numbers(p, key, "<axis> <degrees>", &deg, 1)) return -1;
    mech_sincos(deg * DEG, &s, &c);
    rot_axis_sincos(axis, s, c, R);
    return 0;
}

int mp_check_name(parser *p, const lex_tok *t, const char *key)
{
    char q[QUOTE_MAX + 4];
    int ok = t->n > 0 && !(t->s[0] >= '0' && t->s[0] <= '9');
    for (int i = 0; ok && i < t->n; i++) {
        char c = t->s[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (!ok)
        return mp_fail(p, p->ln.no, t->col,
                       "bad name '%s' for '%s': expected letters, digits and '_', "
                       "not starting with a digit",
                       mp_quote(t, q), key);
    if (t->n >= MECH_NAME_MAX)
        return mp_fail(p, p->ln.no, t->col, "name '%s' is too long: at most %d characters", mp_quote(t, q),
                       MECH_NAME_MAX - 1);
    return 0;
}

int mp_read_name(parser *p, const char *key, char out[MECH_NAME_MAX], int *col)
{
    lex_tok t;
    if (mp_next_tok(p, &t, key, "a name") || mp_check_name(p, &t, key)) return -1;
    memcpy(out, t.s, (size_t)t.n);
    out[t.n] = '\0';
    if (col) *col = t.col;
    return 0;
}


int mp_read_inertia(parser *p, double I[9])
{
    double v[6];
    int n = 0, col = 0;
    lex_tok t;
    while (lex_next(&p->ln, &t)) {
        if (n == 6) return mp_fail(p, p->ln.no, t.col, "too many values for 'inertia': expected 3 or 6");
        if (n == 0) col = t.col;
        if (mp_to_number(p, &t, "inertia", &v[n++])) return -1;
    }
    if (n < 3) return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "too few values for 'inertia': expected 3 or 6");
    if (n != 3 && n != 6)
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "expected 3 or 6 values for 'inertia', got %d", n);
    if (n == 3) v[3] = v[4] = v[5] = 0.0;
    double ev[3];
    I[0] = v[0];
    I[1] = v[3];
    I[2] = v[4];
    I[3] = v[3];
    I[4] = v[1];
    I[5] = v[5];
    I[6] = v[4];
    I[7] = v[5];
    I[8] = v[2];
    switch (inertia_check(I, ev)) {
    case INERTIA_NOT_PD:
        return mp_fail(p, p->ln.no, col, "inertia is not positive definite: principal moments %g %g %g", ev[0], ev[1],
                       ev[2]);
    case INERTIA_TRIANGLE:
        return mp_fail(p, p->ln.no, col,
                       "inertia violates the triangle inequality: principal moments "
                       "%g %g %g (the largest must not exceed the sum of the other two)",
                       ev[0], ev[1], ev[2]);
    default: return 0;
    }
}

/* #rrggbb into rgba, alpha 1 (the line goes on: shape options follow). */
int mp_read_color(parser *p, float rgba[4])
{
    lex_tok c;
    if (mp_next_tok(p, &c, "color", "#rrggbb")) return -1;
    int ok = c.n == 7 && c.s[0] == '#';
    for (int i = 1; ok && i < 7; i++) ok = strchr("0123456789abcdefABCDEF", c.s[i]) != NULL;
    if (!ok) return mp_fail_at(p, &c, "bad color ", ": expected #rrggbb");
    char hex[7];
    memcpy(hex, c.s + 1, 6);
    hex[6] = '\0';
    unsigned long v = strtoul(hex, NULL, 16);
    for (int i = 0; i < 3; i++) rgba[i] = (float)((v >> (16 - 8 * i)) & 255u) / 255.0f;
    rgba[3] = 1.0f;
    return 0;
}

/* friction <mu_s> <mu_d>: 0 <= mu_d <= mu_s (shapes and rods). */
int mp_read_friction(parser *p, double *mu_s, double *mu_d)
{
    lex_tok t[2];
    double v[2];
    for (int i = 0; i < 2; i++) {
        if (mp_next_tok(p, &t[i], "friction", "<static> <dynamic>") || mp_to_number(p, &t[i], "friction", &v[i]))
            return -1;
        if (!(v[i] >= 0.0)) return mp_fail(p, p->ln.no, t[i].col, "'friction' must not be negative: got %g", v[i]);
    }
    if (v[1] > v[0])
        return mp_fail(p, p->ln.no, t[1].col, "'friction': dynamic %g must not exceed static %g", v[1], v[0]);
    *mu_s = v[0];
    *mu_d = v[1];
    return 0;
}

/* restitution <e>: e in [0, 1] (shapes and rods). */
int mp_read_restitution(parser *p, double *e)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "restitution", "1") || mp_to_number(p, &t, "restitution", e)) return -1;
    if (!(*e >= 0.0 && *e <= 1.0)) return mp_fail(p, p->ln.no, t.col, "'restitution' must be in [0, 1]: got %g", *e);
    return 0;
}


/* R whose z column is the unit axis a: the shortest rotation taking z to a. */
void mp_frame_from_axis(const double a[3], double R[9])
{
    const double z[3] = { 0, 0, 1 }, x[3] = { 1, 0, 0 };
    double n[3];
    v3_cross(z, a, n);
    double s = v3_norm(n), c = a[2];
    if (s < 1e-12) {
        rot_axis_angle(x, c > 0 ? 0.0 : 3.14159265358979323846, R);
        return;
    }
    for (int k = 0; k < 3; k++) n[k] /= s;
    rot_axis_angle(n, atan2(s, c), R);
}

/* A stored body by name, -1 for base; none is an error at (line, col)
 * naming the key and its owner ("loop 'l'"). */
int mp_body_index(parser *p, const char *name, int line, int col, const char *key, const char *owner, int *b)
{
    int base = strcmp(name, "base") == 0;
    *b = base ? -1 : mech_model_body_find(p->m, name);
    if (*b < 0 && !base) return mp_fail(p, line, col, "unknown body '%s' for '%s' in %s", name, key, owner);
    return 0;
}
