/* parse.c — the one .mech parser: text -> mech_model.
 *
 * Grammar and semantics: docs/mech-format.md.  The parser reads line by line,
 * stops at the first error (mech_error: file, line, column, message) and
 * never reads past `len`.  Bodies are collected in file order, then parents
 * are resolved and the bodies stored parents-first (stable topological order).
 * The XPBD statements (joint limits and drives, `xpbd`, `servo`) are in
 * parse_xpbd.c, `rod` blocks in parse_rod.c; the state and helpers both share are in parse_internal.h.
 */
#include "model/parse_internal.h"
#include "model/inertia.h"
#include "spatial/spatial.h"
#include "spatial/mech_sincos.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const body_keys[K_COUNT] = {
    "parent", "joint", "pos", "rot", "mass", "com", "inertia", "armature", "fext", "q0", "qd0"
};

static const char *const loop_keys[L_COUNT] = {
    "type", "pred", "succ", "ppos", "prot", "paxis", "spos", "srot", "saxis", "length", "stab"
};
static const char *const loop_types[] = {
    "revolute", "prismatic", "cylindrical", "spherical", "point-on-line", "distance"
};
static const int loop_nc[] = { 5, 5, 4, 3, 2, 1 };
#define LOOP_TYPES "revolute, prismatic, cylindrical, spherical, point-on-line or distance"

static const char *const elem_keys[E_COUNT] = { "from", "to", "joint", "k", "c", "l0", "q0", "input" };
/* Which keys each element kind takes (1) and requires (2): tsda, rsda. */
static const int elem_key_use[2][E_COUNT] = {
    { 2, 2, 0, 2, 2, 2, 0, 1 },
    { 0, 0, 2, 2, 2, 0, 1, 1 },
};


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
    case NUM_NONFINITE:
        return mp_fail(p, p->ln.no, t->col, "non-finite number '%s' for '%s'", mp_quote(t, q), key);
    case NUM_TOO_LONG:
        return mp_fail(p, p->ln.no, t->col, "number '%s' for '%s' is too long: at most %d characters",
                    mp_quote(t, q), key, LEX_NUM_MAX);
    default:
        return mp_fail(p, p->ln.no, t->col, "bad number '%s' for '%s': expected a decimal number",
                    mp_quote(t, q), key);
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
        return mp_fail(p, p->ln.no, t->col, "bad name '%s' for '%s': expected letters, digits and '_', "
                    "not starting with a digit", mp_quote(t, q), key);
    if (t->n >= MECH_NAME_MAX)
        return mp_fail(p, p->ln.no, t->col, "name '%s' is too long: at most %d characters",
                    mp_quote(t, q), MECH_NAME_MAX - 1);
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

int mp_is_top_keyword(const lex_tok *kw)
{
    static const char *const top[] = { "body", "poi", "gravity", "integrator", "description", "loop", "tsda",
                                       "rsda", "xpbd", "servo", "rod", "track", "ground", "static" };
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        if (lex_is(kw, top[i])) return 1;
    return 0;
}

/* ---- body keys ---- */

static int body_key_index(const lex_tok *kw)
{
    for (int k = 0; k < K_COUNT; k++)
        if (lex_is(kw, body_keys[k])) return k;
    return -1;
}

static int key_parent(parser *p, raw_body *rb)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "parent", "a body name or 'base'")) return -1;
    if (!lex_is(&t, "base") && mp_check_name(p, &t, "parent")) return -1;
    memcpy(rb->parent, t.s, (size_t)t.n);
    rb->parent[t.n] = '\0';
    rb->parent_col = t.col;
    return mp_end_of_line(p, "parent", "1");
}

static int key_joint(parser *p, raw_body *rb)
{
    static const char *const types[] = { "revolute", "prismatic", "floating", "fixed" };
    lex_tok t;
    if (mp_next_tok(p, &t, "joint", "revolute, prismatic, floating or fixed")) return -1;
    for (int j = 0; j < 4; j++) {
        if (!lex_is(&t, types[j])) continue;
        rb->b.joint = (mech_joint_type)j;
        if (j == MECH_JOINT_REVOLUTE || j == MECH_JOINT_PRISMATIC) {
            char key[24];
            snprintf(key, sizeof key, "joint %s", types[j]);
            return mp_read_axis(p, key, rb->b.axis) || mp_end_of_line(p, key, "an axis") ? -1 : 0;
        }
        return mp_end_of_line(p, "joint", "no values after the type");
    }
    if (lex_is(&t, "spherical") || lex_is(&t, "cylindrical"))
        return mp_fail_at(p, &t, "joint type ", " is not supported yet");
    return mp_fail_at(p, &t, "unknown joint type ", ": expected revolute, prismatic, floating or fixed");
}

static int key_mass(parser *p, raw_body *rb)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "mass", "1") || mp_to_number(p, &t, "mass", &rb->b.mass)) return -1;
    if (!(rb->b.mass > 0.0))
        return mp_fail(p, p->ln.no, t.col, "mass must be positive: got %g", rb->b.mass);
    return mp_end_of_line(p, "mass", "1");
}

static int key_armature(parser *p, raw_body *rb)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "armature", "1") || mp_to_number(p, &t, "armature", &rb->b.armature)) return -1;
    if (!(rb->b.armature >= 0.0))
        return mp_fail(p, p->ln.no, t.col, "armature must not be negative: got %g", rb->b.armature);
    return mp_end_of_line(p, "armature", "1");
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
    if (n < 3)
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "too few values for 'inertia': expected 3 or 6");
    if (n != 3 && n != 6)
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "expected 3 or 6 values for 'inertia', got %d", n);
    if (n == 3) v[3] = v[4] = v[5] = 0.0;
    double ev[3];
    I[0] = v[0]; I[1] = v[3]; I[2] = v[4];
    I[3] = v[3]; I[4] = v[1]; I[5] = v[5];
    I[6] = v[4]; I[7] = v[5]; I[8] = v[2];
    switch (inertia_check(I, ev)) {
    case INERTIA_NOT_PD:
        return mp_fail(p, p->ln.no, col, "inertia is not positive definite: principal moments %g %g %g",
                    ev[0], ev[1], ev[2]);
    case INERTIA_TRIANGLE:
        return mp_fail(p, p->ln.no, col, "inertia violates the triangle inequality: principal moments "
                    "%g %g %g (the largest must not exceed the sum of the other two)", ev[0], ev[1], ev[2]);
    default: return 0;
    }
}

static int key_fext(parser *p, raw_body *rb)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "fext", "0 or 1")) return -1;
    if (!lex_is(&t, "0") && !lex_is(&t, "1"))
        return mp_fail_at(p, &t, "bad value ", " for 'fext': expected 0 or 1");
    rb->b.fext = t.s[0] == '1';
    return mp_end_of_line(p, "fext", "1");
}

/* q0 of a floating body: x y z [<axis> <degrees>]. */
static int floating_q0(parser *p, double q0[7])
{
    double axis[3], deg = 0.0, phi[3];
    if (mp_read_numbers(p, "q0", "x y z [<axis> <degrees>]", q0 + 4, 3)) return -1;
    q0[0] = 1.0;
    q0[1] = q0[2] = q0[3] = 0.0;
    if (!lex_more(&p->ln)) return 0;
    if (mp_read_axis(p, "q0", axis) || mp_read_numbers(p, "q0", "x y z [<axis> <degrees>]", &deg, 1)) return -1;
    for (int i = 0; i < 3; i++) phi[i] = axis[i] * deg * DEG;
    quat_from_rotvec(phi, q0);
    return mp_end_of_line(p, "q0", "x y z [<axis> <degrees>]");
}

static int fixed_joint_key(parser *p, const raw_body *rb, int k)
{
    return mp_fail(p, rb->key_line[k], rb->key_col[k], "'%s' is not allowed for a fixed joint (body '%s')",
                body_keys[k], rb->b.name);
}

/* Parse a kept q0 / qd0 line now that the joint type is known. */
static int joint_values(parser *p, raw_body *rb, int k)
{
    lex_line saved = p->ln;
    mech_body *b = &rb->b;
    int r;
    p->ln = k == K_Q0 ? rb->q0 : rb->qd0;
    if (b->joint == MECH_JOINT_FIXED)
        r = fixed_joint_key(p, rb, k);
    else if (k == K_QD0)
        r = mp_number_line(p, "qd0", b->qd0, b->joint == MECH_JOINT_FLOATING ? 6 : 1);
    else if (b->joint == MECH_JOINT_FLOATING)
        r = floating_q0(p, b->q0);
    else {
        r = mp_number_line(p, "q0", b->q0, 1);
        if (b->joint == MECH_JOINT_REVOLUTE) b->q0[0] *= DEG;
    }
    p->ln = saved;
    return r;
}

static int key_state(parser *p, raw_body *rb, int k)
{
    if (k == K_Q0) rb->q0 = p->ln;
    else rb->qd0 = p->ln;
    return rb->key_line[K_JOINT] ? joint_values(p, rb, k) : 0;
}

/* #rrggbb into rgba, alpha 1. */
static int read_color(parser *p, float rgba[4])
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
        if (!(v[i] >= 0.0))
            return mp_fail(p, p->ln.no, t[i].col, "'friction' must not be negative: got %g", v[i]);
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
    if (!(*e >= 0.0 && *e <= 1.0))
        return mp_fail(p, p->ln.no, t.col, "'restitution' must be in [0, 1]: got %g", *e);
    return 0;
}

/* Options of a body shape (all six) or a static collider (no `visual`). */
enum { SO_POS, SO_ROT, SO_COLOR, SO_FRICTION, SO_RESTITUTION, SO_VISUAL, SO_COUNT };
static int shape_option(parser *p, mech_shape *s, const lex_tok *t, int line[SO_COUNT], int col[SO_COUNT],
                        int is_static)
{
    static const char *const opts[SO_COUNT] = { "pos", "rot", "color", "friction", "restitution", "visual" };
    int n = is_static ? SO_VISUAL : SO_COUNT, o = 0;
    while (o < n && !lex_is(t, opts[o])) o++;
    if (o == n)
        return mp_fail_at(p, t, "unknown shape option ", is_static
                          ? ": expected pos, rot, color, friction or restitution"
                          : ": expected pos, rot, color, friction, restitution or visual");
    if (line[o]) return mp_fail(p, p->ln.no, t->col, "duplicate '%s' in shape", opts[o]);
    line[o] = p->ln.no;
    col[o] = t->col;
    switch (o) {
    case SO_POS: return mp_read_numbers(p, "shape pos", "3", s->pos, 3);
    case SO_ROT: return mp_read_rotation(p, "shape rot", s->rot);
    case SO_COLOR: return read_color(p, s->rgba);
    case SO_FRICTION: return mp_read_friction(p, &s->mu_s, &s->mu_d);
    case SO_RESTITUTION: return mp_read_restitution(p, &s->restitution);
    default: s->visual = 1; return 0;
    }
}

/* A `shape` line of the open body, or a top-level `static` collider line
 * (plane or box, body -1). */
static int key_shape(parser *p, int col, int is_static)
{
    static const char *const types[] = { "box", "sphere", "cylinder", "capsule", "plane" };
    static const int ndims[] = { 3, 1, 2, 2, 0 };
    static const char *const dims[] = { "lx ly lz", "r", "r length", "r length", "" };
    mech_model *m = p->m;
    mech_shape **arr = is_static ? &m->statics : &m->shapes;
    int *count = is_static ? &m->nstatic : &m->nshape;
    if (mp_grow(p, (void **)arr, is_static ? &p->cap_statics : &p->cap_shapes, *count, sizeof **arr,
                MECH_MAX_SHAPES, is_static ? "static colliders" : "shapes", col)) return -1;
    mech_shape *s = &(*arr)[*count];
    memset(s, 0, sizeof *s);
    m3_identity(s->rot);
    s->body = is_static ? -1 : p->cur;
    s->line = p->ln.no;
    s->mu_s = MECH_DEFAULT_MU_STATIC;
    s->mu_d = MECH_DEFAULT_MU_DYNAMIC;
    s->restitution = MECH_DEFAULT_RESTITUTION;
    const char *what = is_static ? "static" : "shape";
    lex_tok t;
    if (mp_next_tok(p, &t, what, is_static ? "plane or box" : "box, sphere, cylinder or capsule")) return -1;
    int ty = 0;
    while (ty < 5 && !lex_is(&t, types[ty])) ty++;
    if (is_static && ty != MECH_SHAPE_PLANE && ty != MECH_SHAPE_BOX)
        return mp_fail_at(p, &t, "unknown static collider ", ": expected plane or box");
    if (!is_static && ty >= MECH_SHAPE_PLANE)
        return mp_fail_at(p, &t, "unknown shape type ", ty == MECH_SHAPE_PLANE
                          ? ": expected box, sphere, cylinder or capsule (a plane is a 'static' collider)"
                          : ": expected box, sphere, cylinder or capsule");
    s->type = (mech_shape_type)ty;
    char key[24];
    snprintf(key, sizeof key, "%s %s", what, types[ty]);
    for (int i = 0; i < ndims[ty]; i++) {
        if (mp_next_tok(p, &t, key, dims[ty]) || mp_to_number(p, &t, key, &s->size[i])) return -1;
        if (!(s->size[i] > 0.0))
            return mp_fail(p, p->ln.no, t.col, "shape dimensions must be positive: got %g", s->size[i]);
    }
    int line[SO_COUNT] = { 0 }, ocol[SO_COUNT] = { 0 };
    while (lex_next(&p->ln, &t))
        if (shape_option(p, s, &t, line, ocol, is_static)) return -1;
    if (s->visual && (line[SO_FRICTION] || line[SO_RESTITUTION])) {
        int o = line[SO_FRICTION] ? SO_FRICTION : SO_RESTITUTION;
        return mp_fail(p, p->ln.no, ocol[o], "'%s' on a visual shape: a visual shape never collides",
                       o == SO_FRICTION ? "friction" : "restitution");
    }
    (*count)++;
    return 0;
}

/* ---- blocks ---- */

static int finish_body(parser *p, raw_body *rb)
{
    static const int required[] = { K_PARENT, K_JOINT, K_MASS, K_INERTIA };
    if (mp_end_of_line(p, "end", "no values")) return -1;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rb->key_line[required[i]])
            return mp_fail(p, rb->b.line, rb->name_col, "body '%s' has no '%s'", rb->b.name,
                        body_keys[required[i]]);
    if (rb->key_line[K_ARMATURE] && (rb->b.joint == MECH_JOINT_FIXED || rb->b.joint == MECH_JOINT_FLOATING))
        return mp_fail(p, rb->key_line[K_ARMATURE], rb->key_col[K_ARMATURE],
                       "'armature' is for revolute and prismatic joints (body '%s')", rb->b.name);
    if (rb->b.joint == MECH_JOINT_FLOATING && strcmp(rb->parent, "base") != 0)
        return mp_fail(p, rb->key_line[K_PARENT], rb->parent_col,
                    "floating body '%s' must have parent 'base', not '%s'", rb->b.name, rb->parent);
    if (xp_check_body(p, &rb->b, &rb->xj)) return -1;
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

static int body_key(parser *p, raw_body *rb, int k)
{
    switch (k) {
    case K_PARENT: return key_parent(p, rb);
    case K_JOINT:
        if (key_joint(p, rb)) return -1;
        if (rb->key_line[K_Q0] && joint_values(p, rb, K_Q0)) return -1;
        return rb->key_line[K_QD0] ? joint_values(p, rb, K_QD0) : 0;
    case K_POS: return mp_number_line(p, "pos", rb->b.pos, 3);
    case K_ROT:
        return mp_read_rotation(p, "rot", rb->b.rot) || mp_end_of_line(p, "rot", "<axis> <degrees>") ? -1 : 0;
    case K_MASS: return key_mass(p, rb);
    case K_COM: return mp_number_line(p, "com", rb->b.com, 3);
    case K_INERTIA: return mp_read_inertia(p, rb->b.inertia);
    case K_ARMATURE: return key_armature(p, rb);
    case K_FEXT: return key_fext(p, rb);
    default: return key_state(p, rb, k);
    }
}

static int body_line(parser *p, const lex_tok *kw)
{
    raw_body *rb = &p->bodies[p->cur];
    if (lex_is(kw, "end")) return finish_body(p, rb);
    if (lex_is(kw, "shape")) return key_shape(p, kw->col, 0);
    if (xp_joint_line(p, kw, &rb->b.xj, &rb->xj, "body", rb->b.name)) return p->failed ? -1 : 0;
    int k = body_key_index(kw);
    if (k >= 0) {
        if (rb->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in body '%s' (first on line %d)",
                        body_keys[k], rb->b.name, rb->key_line[k]);
        rb->key_line[k] = p->ln.no;
        rb->key_col[k] = kw->col;
        return body_key(p, rb, k);
    }
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside body '%s': missing 'end'", kw->n, kw->s,
                    rb->b.name);
    return mp_fail_at(p, kw, "unknown keyword ", " in body: expected one of: parent joint pos rot "
                   "mass com inertia armature fext q0 qd0 shape limit drive target compliance end");
}

static int top_body(parser *p, int col)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, "body", name, &name_col)) return -1;
    if (strcmp(name, "base") == 0) return mp_fail(p, p->ln.no, name_col, "body name 'base' is reserved");
    for (int i = 0; i < p->nbodies; i++)
        if (strcmp(p->bodies[i].b.name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate body name '%s' (first on line %d)", name,
                        p->bodies[i].b.line);
    if (mp_end_of_line(p, "body", "1") ||
        mp_grow(p, (void **)&p->bodies, &p->cap_bodies, p->nbodies, sizeof *p->bodies, MECH_MAX_BODIES,
             "bodies", col)) return -1;
    raw_body *rb = &p->bodies[p->nbodies];
    memset(rb, 0, sizeof *rb);
    memcpy(rb->b.name, name, sizeof name);
    rb->b.line = p->ln.no;
    rb->b.col = name_col;
    rb->name_col = name_col;
    m3_identity(rb->b.rot);
    p->cur = p->nbodies++;
    p->block = B_BODY;
    return 0;
}

static int top_poi(parser *p, int col)
{
    if (mp_grow(p, (void **)&p->pois, &p->cap_pois, p->m->npoi, sizeof *p->pois, MECH_MAX_POIS, "pois", col))
        return -1;
    raw_poi *rp = &p->pois[p->m->npoi];
    memset(rp, 0, sizeof *rp);
    int name_col;
    if (mp_read_name(p, "poi", rp->p.name, &name_col)) return -1;
    for (int i = 0; i < p->m->npoi; i++)
        if (strcmp(p->pois[i].p.name, rp->p.name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate poi name '%s' (first on line %d)", rp->p.name,
                        p->pois[i].p.line);
    lex_tok t;
    if (mp_next_tok(p, &t, "poi", "<name> <body> x y z")) return -1;
    if (!lex_is(&t, "base") && mp_check_name(p, &t, "poi")) return -1;
    memcpy(rp->body, t.s, (size_t)t.n);
    rp->body[t.n] = '\0';
    rp->body_col = t.col;
    rp->p.line = p->ln.no;
    if (mp_read_numbers(p, "poi", "<name> <body> x y z", rp->p.pos, 3) ||
        mp_end_of_line(p, "poi", "<name> <body> x y z")) return -1;
    p->m->npoi++;
    return 0;
}

static int top_description(parser *p, int col)
{
    int n, dcol;
    const char *s = lex_rest(&p->ln, &n, &dcol);
    if (p->desc_line)
        return mp_fail(p, p->ln.no, col, "duplicate 'description' (first on line %d)", p->desc_line);
    p->desc_line = p->ln.no;
    if ((size_t)n >= sizeof p->m->description)
        return mp_fail(p, p->ln.no, dcol, "description too long: at most %d characters",
                    (int)sizeof p->m->description - 1);
    memcpy(p->m->description, s, (size_t)n);
    p->m->description[n] = '\0';
    return 0;
}

/* ---- loop blocks ---- */

/* A name that may be 'base', for pred / succ. */
int mp_read_body_ref(parser *p, const char *key, char out[MECH_NAME_MAX], int *col)
{
    lex_tok t;
    if (mp_next_tok(p, &t, key, "a body name or 'base'")) return -1;
    if (!lex_is(&t, "base") && mp_check_name(p, &t, key)) return -1;
    memcpy(out, t.s, (size_t)t.n);
    out[t.n] = '\0';
    *col = t.col;
    return mp_end_of_line(p, key, "1");
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

static int positive_line(parser *p, const char *key, double *v)
{
    lex_tok t;
    if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, v)) return -1;
    if (!(*v > 0.0)) return mp_fail(p, p->ln.no, t.col, "'%s' must be positive: got %g", key, *v);
    return mp_end_of_line(p, key, "1");
}

static int loop_type(parser *p, raw_loop *rl)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "type", LOOP_TYPES)) return -1;
    for (int j = 0; j < 6; j++)
        if (lex_is(&t, loop_types[j])) {
            rl->l.type = (mech_loop_type)j;
            rl->type_set = 1;
            return mp_end_of_line(p, "type", "1");
        }
    return mp_fail_at(p, &t, "unknown loop type ", ": expected " LOOP_TYPES);
}

static int loop_key(parser *p, raw_loop *rl, int k)
{
    double axis[3];
    int other = k == L_PROT ? L_PAXIS : k == L_PAXIS ? L_PROT : k == L_SROT ? L_SAXIS : k == L_SAXIS ? L_SROT : -1;
    if (other >= 0 && rl->key_line[other])
        return mp_fail(p, p->ln.no, rl->key_col[k], "'%s' and '%s' both orient the loop frame in loop '%s': "
                    "give one", loop_keys[other], loop_keys[k], rl->l.name);
    switch (k) {
    case L_TYPE: return loop_type(p, rl);
    case L_PRED: return mp_read_body_ref(p, "pred", rl->pred, &rl->val_col[k]);
    case L_SUCC: return mp_read_body_ref(p, "succ", rl->succ, &rl->val_col[k]);
    case L_PPOS: return mp_number_line(p, "ppos", rl->l.ppos, 3);
    case L_SPOS: return mp_number_line(p, "spos", rl->l.spos, 3);
    case L_PROT: case L_SROT:
        return mp_read_rotation(p, loop_keys[k], k == L_PROT ? rl->l.prot : rl->l.srot) ||
               mp_end_of_line(p, loop_keys[k], "<axis> <degrees>") ? -1 : 0;
    case L_PAXIS: case L_SAXIS:
        if (mp_read_axis(p, loop_keys[k], axis) || mp_end_of_line(p, loop_keys[k], "an axis")) return -1;
        mp_frame_from_axis(axis, k == L_PAXIS ? rl->l.prot : rl->l.srot);
        return 0;
    case L_LENGTH: return positive_line(p, "length", &rl->l.length);
    default: return positive_line(p, "stab", &rl->l.stab);
    }
}

/* Keys a loop type gives no meaning to are errors, never ignored. */
static int loop_key_allowed(mech_loop_type t, int k)
{
    if (k == L_LENGTH) return t == MECH_LOOP_DISTANCE;
    if (k == L_PROT || k == L_PAXIS) return t != MECH_LOOP_SPHERICAL && t != MECH_LOOP_DISTANCE;
    if (k == L_SROT || k == L_SAXIS)
        return t != MECH_LOOP_SPHERICAL && t != MECH_LOOP_DISTANCE && t != MECH_LOOP_POINT_ON_LINE;
    return 1;
}

static int finish_loop(parser *p, raw_loop *rl)
{
    static const int required[] = { L_TYPE, L_PRED, L_SUCC };
    if (mp_end_of_line(p, "end", "no values")) return -1;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rl->key_line[required[i]])
            return mp_fail(p, rl->l.line, rl->name_col, "loop '%s' has no '%s'", rl->l.name, loop_keys[required[i]]);
    for (int k = 0; k < L_COUNT; k++)
        if (rl->key_line[k] && !loop_key_allowed(rl->l.type, k))
            return mp_fail(p, rl->key_line[k], rl->key_col[k], "'%s' has no meaning for a %s loop (loop '%s')",
                        loop_keys[k], loop_types[rl->l.type], rl->l.name);
    if (rl->l.type == MECH_LOOP_DISTANCE && !rl->key_line[L_LENGTH])
        return mp_fail(p, rl->l.line, rl->name_col, "distance loop '%s' has no 'length'", rl->l.name);
    if (strcmp(rl->pred, rl->succ) == 0)
        return mp_fail(p, rl->key_line[L_SUCC], rl->val_col[L_SUCC], "loop '%s' joins '%s' to itself",
                    rl->l.name, rl->succ);
    if (xp_check_loop(p, &rl->l, &rl->xj)) return -1;
    rl->l.nc = loop_nc[rl->l.type];
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

static int loop_line(parser *p, const lex_tok *kw)
{
    raw_loop *rl = &p->loops[p->cur];
    if (lex_is(kw, "end")) return finish_loop(p, rl);
    if (xp_joint_line(p, kw, &rl->l.xj, &rl->xj, "loop", rl->l.name)) return p->failed ? -1 : 0;
    for (int k = 0; k < L_COUNT; k++) {
        if (!lex_is(kw, loop_keys[k])) continue;
        if (rl->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in loop '%s' (first on line %d)", loop_keys[k],
                        rl->l.name, rl->key_line[k]);
        rl->key_line[k] = p->ln.no;
        rl->key_col[k] = kw->col;
        return loop_key(p, rl, k);
    }
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside loop '%s': missing 'end'", kw->n, kw->s, rl->l.name);
    return mp_fail_at(p, kw, "unknown keyword ", " in loop: expected one of: type pred succ ppos prot paxis "
                   "spos srot saxis length stab limit swing drive target compliance end");
}

static int top_loop(parser *p, int col)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, "loop", name, &name_col)) return -1;
    for (int i = 0; i < p->nloops; i++)
        if (strcmp(p->loops[i].l.name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate loop name '%s' (first on line %d)", name,
                        p->loops[i].l.line);
    if (mp_end_of_line(p, "loop", "1") ||
        mp_grow(p, (void **)&p->loops, &p->cap_loops, p->nloops, sizeof *p->loops, MECH_MAX_LOOPS, "loops", col))
        return -1;
    raw_loop *rl = &p->loops[p->nloops];
    memset(rl, 0, sizeof *rl);
    memcpy(rl->l.name, name, sizeof name);
    rl->l.line = p->ln.no;
    rl->l.col = name_col;
    rl->l.stab = 0.1;
    m3_identity(rl->l.prot);
    m3_identity(rl->l.srot);
    rl->name_col = name_col;
    p->cur = p->nloops++;
    p->block = B_LOOP;
    return 0;
}

/* ---- force-element blocks (tsda, rsda) ---- */

static const char *elem_kind(const raw_elem *re) { return re->rsda ? "rsda" : "tsda"; }

static int elem_key(parser *p, raw_elem *re, int k)
{
    lex_tok t;
    if (k == E_INPUT) return mp_end_of_line(p, "input", "no values");
    if (k <= E_JOINT) {
        if (mp_read_name(p, elem_keys[k], re->ref[k], &re->val_col[k])) return -1;
        return mp_end_of_line(p, elem_keys[k], "1");
    }
    if (mp_next_tok(p, &t, elem_keys[k], "1") || mp_to_number(p, &t, elem_keys[k], &re->val[k])) return -1;
    if (k != E_Q0 && re->val[k] < 0.0)
        return mp_fail(p, p->ln.no, t.col, "'%s' must not be negative: got %g", elem_keys[k], re->val[k]);
    return mp_end_of_line(p, elem_keys[k], "1");
}

static int finish_elem(parser *p, raw_elem *re)
{
    if (mp_end_of_line(p, "end", "no values")) return -1;
    for (int k = 0; k < E_COUNT; k++)
        if (elem_key_use[re->rsda][k] == 2 && !re->key_line[k])
            return mp_fail(p, re->line, re->name_col, "%s '%s' has no '%s'", elem_kind(re), re->name, elem_keys[k]);
    if (!re->rsda && strcmp(re->ref[E_FROM], re->ref[E_TO]) == 0)
        return mp_fail(p, re->key_line[E_TO], re->val_col[E_TO], "tsda '%s' has both ends at poi '%s'", re->name,
                    re->ref[E_TO]);
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

static int elem_line(parser *p, const lex_tok *kw)
{
    raw_elem *re = &p->elems[p->cur];
    if (lex_is(kw, "end")) return finish_elem(p, re);
    for (int k = 0; k < E_COUNT; k++) {
        if (!lex_is(kw, elem_keys[k]) || !elem_key_use[re->rsda][k]) continue;
        if (re->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in %s '%s' (first on line %d)", elem_keys[k],
                        elem_kind(re), re->name, re->key_line[k]);
        re->key_line[k] = p->ln.no;
        re->key_col[k] = kw->col;
        return elem_key(p, re, k);
    }
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside %s '%s': missing 'end'", kw->n, kw->s, elem_kind(re),
                    re->name);
    return mp_fail_at(p, kw, "unknown keyword ", re->rsda ? " in rsda: expected one of: joint k c q0 input end"
                                                       : " in tsda: expected one of: from to k c l0 input end");
}

static int top_elem(parser *p, int rsda, int col)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, rsda ? "rsda" : "tsda", name, &name_col)) return -1;
    for (int i = 0; i < p->nelems; i++)
        if (strcmp(p->elems[i].name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate force element name '%s' (first on line %d)", name,
                        p->elems[i].line);
    if (mp_end_of_line(p, rsda ? "rsda" : "tsda", "1") ||
        mp_grow(p, (void **)&p->elems, &p->cap_elems, p->nelems, sizeof *p->elems, MECH_MAX_ELEMENTS,
             "force elements", col))
        return -1;
    raw_elem *re = &p->elems[p->nelems];
    memset(re, 0, sizeof *re);
    memcpy(re->name, name, sizeof name);
    re->rsda = rsda;
    re->line = p->ln.no;
    re->name_col = name_col;
    p->cur = p->nelems++;
    p->block = B_ELEM;
    return 0;
}

/* `integrator verlet | euler`: how the Featherstone engines step (mech/model.h). */
static int top_integrator(parser *p, const lex_tok *kw)
{
    static const char *const names[] = { "verlet", "euler" };   /* mech_integrator's order */
    if (p->integrator_line)
        return mp_fail(p, p->ln.no, kw->col, "duplicate 'integrator' (first on line %d)", p->integrator_line);
    p->integrator_line = p->ln.no;
    lex_tok t;
    if (mp_next_tok(p, &t, "integrator", "verlet or euler")) return -1;
    for (int i = 0; i < 2; i++)
        if (lex_is(&t, names[i])) {
            p->m->integrator = (mech_integrator)i;
            return mp_end_of_line(p, "integrator", "1");
        }
    return mp_fail_at(p, &t, "unknown integrator ", ": expected verlet or euler");
}

static int top_line(parser *p, const lex_tok *kw)
{
    if (lex_is(kw, "body")) return top_body(p, kw->col);
    if (lex_is(kw, "poi")) return top_poi(p, kw->col);
    if (lex_is(kw, "loop")) return top_loop(p, kw->col);
    if (lex_is(kw, "tsda") || lex_is(kw, "rsda")) return top_elem(p, kw->s[0] == 'r', kw->col);
    if (lex_is(kw, "description")) return top_description(p, kw->col);
    if (lex_is(kw, "xpbd")) return xp_top_xpbd(p, kw);
    if (lex_is(kw, "servo")) return xp_top_servo(p, kw);
    if (lex_is(kw, "rod")) return rod_top(p, kw);
    if (lex_is(kw, "track")) return track_top(p, kw);
    if (lex_is(kw, "ground")) return ground_top(p, kw);
    if (lex_is(kw, "static")) return key_shape(p, kw->col, 1);
    if (lex_is(kw, "gravity")) {
        if (p->grav_line)
            return mp_fail(p, p->ln.no, kw->col, "duplicate 'gravity' (first on line %d)", p->grav_line);
        p->grav_line = p->ln.no;
        return mp_number_line(p, "gravity", p->m->gravity, 3);
    }
    if (lex_is(kw, "integrator")) return top_integrator(p, kw);
    if (lex_is(kw, "end")) return mp_fail(p, p->ln.no, kw->col, "'end' outside a block");
    if (body_key_index(kw) >= 0 || lex_is(kw, "shape")) return mp_fail_at(p, kw, "", " outside a body block");
    if (xp_is_joint_key(kw)) return mp_fail_at(p, kw, "", " outside a body or loop block");
    return mp_fail_at(p, kw, "unknown keyword ", ": expected one of: description gravity integrator body poi loop "
                   "tsda rsda xpbd servo rod track ground static");
}

/* ---- resolving names and ordering ---- */

static int find_raw(const parser *p, const char *name)
{
    for (int i = 0; i < p->nbodies; i++)
        if (strcmp(p->bodies[i].b.name, name) == 0) return i;
    return -1;
}

/* parent indices in file order; -1 = base. */
static int resolve_parents(parser *p, int *parent)
{
    for (int i = 0; i < p->nbodies; i++) {
        raw_body *rb = &p->bodies[i];
        parent[i] = strcmp(rb->parent, "base") == 0 ? -1 : find_raw(p, rb->parent);
        if (parent[i] < 0 && strcmp(rb->parent, "base") != 0)
            return mp_fail(p, rb->key_line[K_PARENT], rb->parent_col, "unknown parent '%s' for body '%s'",
                        rb->parent, rb->b.name);
    }
    return 0;
}

/* Called with every unplaced body on or below a cycle: name the cycle. */
static int fail_cycle(parser *p, const int *parent, const int *placed)
{
    int v = 0;
    while (placed[v]) v++;
    for (int i = 0; i < p->nbodies; i++) v = parent[v];
    int first = v;
    for (int u = parent[v]; u != v; u = parent[u])
        if (u < first) first = u;
    char msg[MECH_ERROR_MAX] = "parent cycle: ";
    size_t len = strlen(msg);
    int u = first;
    do {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s -> ", p->bodies[u].b.name);
        u = parent[u];
    } while (u != first && len < sizeof msg);
    if (len < sizeof msg) snprintf(msg + len, sizeof msg - len, "%s", p->bodies[first].b.name);
    raw_body *rb = &p->bodies[first];
    return mp_fail(p, rb->key_line[K_PARENT], rb->parent_col, "%s", msg);
}

/* Stable topological order: always take the earliest body whose parent is placed. */
static int order_bodies(parser *p, const int *parent, int *order, int *placed)
{
    for (int n = 0; n < p->nbodies; n++) {
        int next = -1;
        for (int i = 0; i < p->nbodies && next < 0; i++)
            if (!placed[i] && (parent[i] < 0 || placed[parent[i]])) next = i;
        if (next < 0) return fail_cycle(p, parent, placed);
        placed[next] = 1;
        order[n] = next;
    }
    return 0;
}

static void store_bodies(mech_model *m, const raw_body *raw, const int *parent, const int *order, int *slot)
{
    for (int n = 0; n < m->nb; n++) {
        mech_body *b = &m->bodies[n];
        *b = raw[order[n]].b;
        slot[order[n]] = n;
        b->parent = parent[order[n]] < 0 ? -1 : slot[parent[order[n]]];
        b->nq = b->joint == MECH_JOINT_FLOATING ? 7 : b->joint == MECH_JOINT_FIXED ? 0 : 1;
        b->nv = b->joint == MECH_JOINT_FLOATING ? 6 : b->nq;
        if (b->joint == MECH_JOINT_FLOATING && !raw[order[n]].key_line[K_Q0]) b->q0[0] = 1.0;
        b->qidx = m->nq;
        b->vidx = m->nv;
        m->nq += b->nq;
        m->nv += b->nv;
    }
    for (int s = 0; s < m->nshape; s++) m->shapes[s].body = slot[m->shapes[s].body];
}

static int store_pois(parser *p)
{
    mech_model *m = p->m;
    if (m->npoi == 0) return 0;
    m->pois = malloc((size_t)m->npoi * sizeof *m->pois);
    if (!m->pois) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < m->npoi; i++) {
        raw_poi *rp = &p->pois[i];
        m->pois[i] = rp->p;
        m->pois[i].body = strcmp(rp->body, "base") == 0 ? -1 : mech_model_body_find(m, rp->body);
        if (m->pois[i].body < 0 && strcmp(rp->body, "base") != 0)
            return mp_fail(p, rp->p.line, rp->body_col, "unknown body '%s' for poi '%s'", rp->body, rp->p.name);
    }
    return 0;
}

/* pred / succ names to stored body indices (-1 = base), rows in K in file order. */
static int store_loops(parser *p)
{
    mech_model *m = p->m;
    if (p->nloops == 0) return 0;
    m->loops = malloc((size_t)p->nloops * sizeof *m->loops);
    if (!m->loops) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nloops; i++) {
        raw_loop *rl = &p->loops[i];
        mech_loop *l = &m->loops[i];
        *l = rl->l;
        for (int side = 0; side < 2; side++) {
            const char *name = side ? rl->succ : rl->pred;
            int k = side ? L_SUCC : L_PRED, b = strcmp(name, "base") == 0 ? -1 : mech_model_body_find(m, name);
            if (b < 0 && strcmp(name, "base") != 0)
                return mp_fail(p, rl->key_line[k], rl->val_col[k], "unknown body '%s' for '%s' in loop '%s'", name,
                            loop_keys[k], l->name);
            if (side) l->succ = b;
            else l->pred = b;
        }
        l->cidx = m->nc;
        m->nc += l->nc;
        m->nloop++;
    }
    return 0;
}

static int find_poi(const mech_model *m, const char *name)
{
    for (int i = 0; i < m->npoi; i++)
        if (strcmp(m->pois[i].name, name) == 0) return i;
    return -1;
}

static int store_tsda(parser *p, const raw_elem *re, mech_tsda *t)
{
    mech_model *m = p->m;
    memcpy(t->name, re->name, sizeof t->name);
    t->k = re->val[E_K];
    t->c = re->val[E_C];
    t->l0 = re->val[E_L0];
    t->line = re->line;
    t->col = re->name_col;
    for (int k = E_FROM; k <= E_TO; k++) {
        int i = find_poi(m, re->ref[k]);
        if (i < 0)
            return mp_fail(p, re->key_line[k], re->val_col[k], "unknown poi '%s' for '%s' in tsda '%s'", re->ref[k],
                        elem_keys[k], re->name);
        if (k == E_FROM) t->poi_a = i;
        else t->poi_b = i;
    }
    if (m->pois[t->poi_a].body == m->pois[t->poi_b].body)
        return mp_fail(p, re->key_line[E_TO], re->val_col[E_TO], "tsda '%s' joins two points of the same body: "
                    "it would exert no force", re->name);
    return 0;
}

static int store_rsda(parser *p, const raw_elem *re, mech_rsda *r)
{
    mech_model *m = p->m;
    memcpy(r->name, re->name, sizeof r->name);
    r->k = re->val[E_K];
    r->c = re->val[E_C];
    r->line = re->line;
    r->col = re->name_col;
    r->body = mech_model_body_find(m, re->ref[E_JOINT]);
    if (r->body < 0)
        return mp_fail(p, re->key_line[E_JOINT], re->val_col[E_JOINT], "unknown body '%s' for 'joint' in rsda '%s'",
                    re->ref[E_JOINT], re->name);
    mech_joint_type j = m->bodies[r->body].joint;
    if (j != MECH_JOINT_REVOLUTE && j != MECH_JOINT_PRISMATIC)
        return mp_fail(p, re->key_line[E_JOINT], re->val_col[E_JOINT], "rsda '%s' needs a revolute or prismatic "
                    "joint, but body '%s' has a %s joint", re->name, re->ref[E_JOINT],
                    j == MECH_JOINT_FIXED ? "fixed" : "floating");
    r->q0 = re->val[E_Q0] * (j == MECH_JOINT_REVOLUTE ? DEG : 1.0);
    return 0;
}

/* Elements in file order; inputs get act slots in that order. */
static int store_elems(parser *p)
{
    mech_model *m = p->m;
    int nt = 0, nr = 0;
    for (int i = 0; i < p->nelems; i++) nt += !p->elems[i].rsda;
    nr = p->nelems - nt;
    if (nt) m->tsdas = malloc((size_t)nt * sizeof *m->tsdas);
    if (nr) m->rsdas = malloc((size_t)nr * sizeof *m->rsdas);
    if ((nt && !m->tsdas) || (nr && !m->rsdas)) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nelems; i++) {
        const raw_elem *re = &p->elems[i];
        int act = re->key_line[E_INPUT] ? m->nact++ : -1;
        if (re->rsda) {
            m->rsdas[m->nrsda].act = act;
            if (store_rsda(p, re, &m->rsdas[m->nrsda++])) return -1;
        } else {
            m->tsdas[m->ntsda].act = act;
            if (store_tsda(p, re, &m->tsdas[m->ntsda++])) return -1;
        }
    }
    return 0;
}

static int build_model(parser *p)
{
    mech_model *m = p->m;
    int n = p->nbodies > 0 ? p->nbodies : 1;
    int *work = calloc((size_t)n * 4, sizeof *work);
    if (!work) return mp_fail(p, 0, 0, "out of memory");
    int *parent = work, *order = work + n, *placed = work + 2 * n, *slot = work + 3 * n;
    int r = resolve_parents(p, parent);
    if (!r) r = order_bodies(p, parent, order, placed);
    if (!r && p->nbodies > 0) {
        m->bodies = malloc((size_t)p->nbodies * sizeof *m->bodies);
        if (!m->bodies) r = mp_fail(p, 0, 0, "out of memory");
    }
    if (!r) {
        m->nb = p->nbodies;
        store_bodies(m, p->bodies, parent, order, slot);
        r = store_pois(p);
    }
    if (!r) r = store_loops(p);
    if (!r) r = store_elems(p);
    if (!r) r = xp_store_servos(p);
    if (!r) r = rod_store(p);
    if (!r) r = track_store(p);
    if (!r) r = xp_check_work(p);
    free(work);
    return r;
}

/* ---- entry point ---- */

static int parse_lines(parser *p)
{
    for (;;) {
        int col = 0;
        lex_status st = lex_read_line(&p->src, &p->ln, &col);
        if (st == LEX_EOF) break;
        if (st == LEX_NUL) return mp_fail(p, p->ln.no, col, "NUL byte in text");
        if (st == LEX_TOO_LONG)
            return mp_fail(p, p->ln.no, col, "line too long: at most %d characters", MECH_MAX_LINE);
        lex_tok kw;
        if (!lex_next(&p->ln, &kw)) continue;
        int r = p->block == B_BODY ? body_line(p, &kw)
              : p->block == B_LOOP ? loop_line(p, &kw)
              : p->block == B_ELEM ? elem_line(p, &kw)
              : p->block == B_XPBD ? xp_xpbd_line(p, &kw)
              : p->block == B_SERVO ? xp_servo_line(p, &kw)
              : p->block == B_ROD ? rod_line(p, &kw)
              : p->block == B_TRACK ? track_line(p, &kw)
              : p->block == B_GROUND ? ground_line(p, &kw)
                                   : top_line(p, &kw);
        if (r < 0) return -1;
    }
    if (p->block == B_BODY) {
        raw_body *rb = &p->bodies[p->cur];
        return mp_fail(p, rb->b.line, rb->name_col, "body '%s' has no 'end' before the end of the file",
                    rb->b.name);
    }
    if (p->block == B_LOOP) {
        raw_loop *rl = &p->loops[p->cur];
        return mp_fail(p, rl->l.line, rl->name_col, "loop '%s' has no 'end' before the end of the file", rl->l.name);
    }
    if (p->block == B_ELEM) {
        raw_elem *re = &p->elems[p->cur];
        return mp_fail(p, re->line, re->name_col, "%s '%s' has no 'end' before the end of the file", elem_kind(re),
                    re->name);
    }
    return xp_unclosed(p) || rod_unclosed(p) ? -1 : track_unclosed(p);
}

mech_model *mech_model_parse(const char *text, size_t len, const char *name, mech_error *err)
{
    mech_error scratch;
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err ? err : &scratch;
    memset(p.err, 0, sizeof *p.err);
    if (!name) name = "<text>";
    snprintf(p.err->file, sizeof p.err->file, "%s", name);
    p.cur = -1;
    if (len > MECH_MAX_TEXT) {
        mp_fail(&p, 0, 0, "text too large: %zu bytes, at most %u", len, (unsigned)MECH_MAX_TEXT);
        return NULL;
    }
    lex_init(&p.src, text, len);
    p.m = calloc(1, sizeof *p.m);
    if (!p.m) {
        mp_fail(&p, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(p.m->name, sizeof p.m->name, "%s", name);
    p.m->gravity[2] = -9.81;
    p.m->xpbd = (mech_xpbd_settings){ .dt = 0.01, .substeps = 10, .iterations = 1, .mode = MECH_XPBD_BLOCK };
    int r = parse_lines(&p);
    if (!r) r = build_model(&p);
    free(p.bodies);
    free(p.pois);
    free(p.loops);
    free(p.elems);
    free(p.servos);
    rod_parse_free(&p);
    track_parse_free(&p);
    if (r) {
        mech_model_free(p.m);
        return NULL;
    }
    return p.m;
}
