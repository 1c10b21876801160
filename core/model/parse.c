/* parse.c — the one .mech parser: text -> mech_model.
 *
 * Grammar and semantics: docs/mech-format.md.  The parser reads line by line,
 * stops at the first error (mech_error: file, line, column, message) and
 * never reads past `len`.  Bodies are collected in file order, then parents
 * are resolved and the bodies stored parents-first (stable topological order).
 */
#include "model/model.h"
#include "model/inertia.h"
#include "model/lex.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (3.14159265358979323846 / 180.0)
#define QUOTE_MAX 40            /* characters of a token shown in a message */
#define AXIS_EXPECT "an axis (x, y, z, -x, -y, -z or 3 numbers)"

enum { K_PARENT, K_JOINT, K_POS, K_ROT, K_MASS, K_COM, K_INERTIA, K_FEXT, K_Q0, K_QD0, K_COUNT };
static const char *const body_keys[K_COUNT] = {
    "parent", "joint", "pos", "rot", "mass", "com", "inertia", "fext", "q0", "qd0"
};
static const char *const unsupported_blocks[] = {
    "loop", "tsda", "rsda", "track", "ground", "rod", "xpbd", "drive", "limit"
};

typedef struct {
    mech_body b;
    char parent[MECH_NAME_MAX];
    int parent_col, name_col;
    int key_line[K_COUNT], key_col[K_COUNT];   /* line 0 = key not seen */
    lex_line q0, qd0;           /* kept until the joint type is known */
} raw_body;

typedef struct {
    mech_poi p;
    char body[MECH_NAME_MAX];
    int body_col;
} raw_poi;

typedef struct {
    lex_src src;
    lex_line ln;
    mech_error *err;
    int failed;
    mech_model *m;
    raw_body *bodies;
    int nbodies, cap_bodies, cur;               /* cur: open block, or -1 */
    raw_poi *pois;
    int cap_pois, cap_shapes;
    int desc_line, grav_line;
} parser;

/* ---- errors ---- */

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(parser *p, int line, int col, const char *fmt, ...)
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

/* A token for a message: printable ASCII only, cut at QUOTE_MAX characters. */
static const char *quote(const lex_tok *t, char buf[QUOTE_MAX + 4])
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
static int fail_at(parser *p, const lex_tok *t, const char *what, const char *rest)
{
    char q[QUOTE_MAX + 4];
    return fail(p, p->ln.no, t->col, "%s'%s'%s", what, quote(t, q), rest);
}

/* ---- growing arrays within the caps ---- */

static int grow(parser *p, void **arr, int *cap, int n, size_t elem, int max, const char *what, int col)
{
    if (n >= max) return fail(p, p->ln.no, col, "too many %s: at most %d", what, max);
    if (n < *cap) return 0;
    int ncap = *cap ? 2 * *cap : 8;
    if (ncap > max) ncap = max;
    void *a = realloc(*arr, (size_t)ncap * elem);
    if (!a) return fail(p, p->ln.no, col, "out of memory");
    *arr = a;
    *cap = ncap;
    return 0;
}

/* ---- tokens and values ---- */

static int next_tok(parser *p, lex_tok *t, const char *key, const char *expect)
{
    if (lex_next(&p->ln, t)) return 0;
    return fail(p, p->ln.no, lex_end_col(&p->ln), "too few values for '%s': expected %s", key, expect);
}

static int end_of_line(parser *p, const char *key, const char *expect)
{
    lex_tok t;
    if (!lex_next(&p->ln, &t)) return 0;
    return fail(p, p->ln.no, t.col, "too many values for '%s': expected %s", key, expect);
}

static int to_number(parser *p, const lex_tok *t, const char *key, double *v)
{
    char q[QUOTE_MAX + 4];
    switch (lex_number(t, v)) {
    case NUM_OK: return 0;
    case NUM_NONFINITE:
        return fail(p, p->ln.no, t->col, "non-finite number '%s' for '%s'", quote(t, q), key);
    case NUM_TOO_LONG:
        return fail(p, p->ln.no, t->col, "number '%s' for '%s' is too long: at most %d characters",
                    quote(t, q), key, LEX_NUM_MAX);
    default:
        return fail(p, p->ln.no, t->col, "bad number '%s' for '%s': expected a decimal number",
                    quote(t, q), key);
    }
}

static int read_numbers(parser *p, const char *key, const char *expect, double *v, int n)
{
    lex_tok t;
    for (int i = 0; i < n; i++)
        if (next_tok(p, &t, key, expect) || to_number(p, &t, key, &v[i])) return -1;
    return 0;
}

/* A complete line of exactly n numbers. */
static int number_line(parser *p, const char *key, double *v, int n)
{
    char expect[16];
    snprintf(expect, sizeof expect, "%d", n);
    if (read_numbers(p, key, expect, v, n)) return -1;
    return end_of_line(p, key, expect);
}

/* x|y|z|-x|-y|-z or three numbers, normalised. */
static int read_axis(parser *p, const char *key, double axis[3])
{
    static const char *const names[6] = { "x", "y", "z", "-x", "-y", "-z" };
    lex_tok t;
    if (next_tok(p, &t, key, AXIS_EXPECT)) return -1;
    for (int i = 0; i < 6; i++)
        if (lex_is(&t, names[i])) {
            axis[0] = axis[1] = axis[2] = 0.0;
            axis[i % 3] = i < 3 ? 1.0 : -1.0;
            return 0;
        }
    if (lex_number(&t, &axis[0]) == NUM_BAD) {
        char q[QUOTE_MAX + 4];
        return fail(p, p->ln.no, t.col, "bad axis '%s' for '%s': expected x, y, z, -x, -y, -z or 3 numbers",
                    quote(&t, q), key);
    }
    if (to_number(p, &t, key, &axis[0]) || read_numbers(p, key, AXIS_EXPECT, axis + 1, 2)) return -1;
    double m = fmax(fabs(axis[0]), fmax(fabs(axis[1]), fabs(axis[2])));
    if (m == 0.0) return fail(p, p->ln.no, t.col, "zero-length axis for '%s'", key);
    for (int i = 0; i < 3; i++) axis[i] /= m;
    double n = v3_norm(axis);
    for (int i = 0; i < 3; i++) axis[i] /= n;
    return 0;
}

/* <axis> <degrees> as a rotation matrix. */
static int read_rotation(parser *p, const char *key, double R[9])
{
    double axis[3], deg;
    if (read_axis(p, key, axis) || read_numbers(p, key, "<axis> <degrees>", &deg, 1)) return -1;
    rot_axis_angle(axis, deg * DEG, R);
    return 0;
}

static int check_name(parser *p, const lex_tok *t, const char *key)
{
    char q[QUOTE_MAX + 4];
    int ok = t->n > 0 && !(t->s[0] >= '0' && t->s[0] <= '9');
    for (int i = 0; ok && i < t->n; i++) {
        char c = t->s[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (!ok)
        return fail(p, p->ln.no, t->col, "bad name '%s' for '%s': expected letters, digits and '_', "
                    "not starting with a digit", quote(t, q), key);
    if (t->n >= MECH_NAME_MAX)
        return fail(p, p->ln.no, t->col, "name '%s' is too long: at most %d characters",
                    quote(t, q), MECH_NAME_MAX - 1);
    return 0;
}

static int read_name(parser *p, const char *key, char out[MECH_NAME_MAX], int *col)
{
    lex_tok t;
    if (next_tok(p, &t, key, "a name") || check_name(p, &t, key)) return -1;
    memcpy(out, t.s, (size_t)t.n);
    out[t.n] = '\0';
    if (col) *col = t.col;
    return 0;
}

/* Keywords reserved for later versions: an error, never ignored.  0 if kw is not one. */
static int fail_unsupported(parser *p, const lex_tok *kw)
{
    for (size_t i = 0; i < sizeof unsupported_blocks / sizeof unsupported_blocks[0]; i++) {
        if (!lex_is(kw, unsupported_blocks[i])) continue;
        int block = !lex_is(kw, "drive") && !lex_is(kw, "limit");
        return fail_at(p, kw, "", block ? " blocks are not supported yet" : " is not supported yet");
    }
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
    if (next_tok(p, &t, "parent", "a body name or 'base'")) return -1;
    if (!lex_is(&t, "base") && check_name(p, &t, "parent")) return -1;
    memcpy(rb->parent, t.s, (size_t)t.n);
    rb->parent[t.n] = '\0';
    rb->parent_col = t.col;
    return end_of_line(p, "parent", "1");
}

static int key_joint(parser *p, raw_body *rb)
{
    static const char *const types[] = { "revolute", "prismatic", "floating", "fixed" };
    lex_tok t;
    if (next_tok(p, &t, "joint", "revolute, prismatic, floating or fixed")) return -1;
    for (int j = 0; j < 4; j++) {
        if (!lex_is(&t, types[j])) continue;
        rb->b.joint = (mech_joint_type)j;
        if (j == MECH_JOINT_REVOLUTE || j == MECH_JOINT_PRISMATIC) {
            char key[24];
            snprintf(key, sizeof key, "joint %s", types[j]);
            return read_axis(p, key, rb->b.axis) || end_of_line(p, key, "an axis") ? -1 : 0;
        }
        return end_of_line(p, "joint", "no values after the type");
    }
    if (lex_is(&t, "spherical") || lex_is(&t, "cylindrical"))
        return fail_at(p, &t, "joint type ", " is not supported yet");
    return fail_at(p, &t, "unknown joint type ", ": expected revolute, prismatic, floating or fixed");
}

static int key_mass(parser *p, raw_body *rb)
{
    lex_tok t;
    if (next_tok(p, &t, "mass", "1") || to_number(p, &t, "mass", &rb->b.mass)) return -1;
    if (!(rb->b.mass > 0.0))
        return fail(p, p->ln.no, t.col, "mass must be positive: got %g", rb->b.mass);
    return end_of_line(p, "mass", "1");
}

static int key_inertia(parser *p, raw_body *rb)
{
    double v[6];
    int n = 0, col = 0;
    lex_tok t;
    while (lex_next(&p->ln, &t)) {
        if (n == 6) return fail(p, p->ln.no, t.col, "too many values for 'inertia': expected 3 or 6");
        if (n == 0) col = t.col;
        if (to_number(p, &t, "inertia", &v[n++])) return -1;
    }
    if (n < 3)
        return fail(p, p->ln.no, lex_end_col(&p->ln), "too few values for 'inertia': expected 3 or 6");
    if (n != 3 && n != 6)
        return fail(p, p->ln.no, lex_end_col(&p->ln), "expected 3 or 6 values for 'inertia', got %d", n);
    if (n == 3) v[3] = v[4] = v[5] = 0.0;
    double *I = rb->b.inertia, ev[3];
    I[0] = v[0]; I[1] = v[3]; I[2] = v[4];
    I[3] = v[3]; I[4] = v[1]; I[5] = v[5];
    I[6] = v[4]; I[7] = v[5]; I[8] = v[2];
    switch (inertia_check(I, ev)) {
    case INERTIA_NOT_PD:
        return fail(p, p->ln.no, col, "inertia is not positive definite: principal moments %g %g %g",
                    ev[0], ev[1], ev[2]);
    case INERTIA_TRIANGLE:
        return fail(p, p->ln.no, col, "inertia violates the triangle inequality: principal moments "
                    "%g %g %g (the largest must not exceed the sum of the other two)", ev[0], ev[1], ev[2]);
    default: return 0;
    }
}

static int key_fext(parser *p, raw_body *rb)
{
    lex_tok t;
    if (next_tok(p, &t, "fext", "0 or 1")) return -1;
    if (!lex_is(&t, "0") && !lex_is(&t, "1"))
        return fail_at(p, &t, "bad value ", " for 'fext': expected 0 or 1");
    rb->b.fext = t.s[0] == '1';
    return end_of_line(p, "fext", "1");
}

/* q0 of a floating body: x y z [<axis> <degrees>]. */
static int floating_q0(parser *p, double q0[7])
{
    double axis[3], deg = 0.0, phi[3];
    if (read_numbers(p, "q0", "x y z [<axis> <degrees>]", q0 + 4, 3)) return -1;
    q0[0] = 1.0;
    q0[1] = q0[2] = q0[3] = 0.0;
    if (!lex_more(&p->ln)) return 0;
    if (read_axis(p, "q0", axis) || read_numbers(p, "q0", "x y z [<axis> <degrees>]", &deg, 1)) return -1;
    for (int i = 0; i < 3; i++) phi[i] = axis[i] * deg * DEG;
    quat_from_rotvec(phi, q0);
    return end_of_line(p, "q0", "x y z [<axis> <degrees>]");
}

static int fixed_joint_key(parser *p, const raw_body *rb, int k)
{
    return fail(p, rb->key_line[k], rb->key_col[k], "'%s' is not allowed for a fixed joint (body '%s')",
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
        r = number_line(p, "qd0", b->qd0, b->joint == MECH_JOINT_FLOATING ? 6 : 1);
    else if (b->joint == MECH_JOINT_FLOATING)
        r = floating_q0(p, b->q0);
    else {
        r = number_line(p, "q0", b->q0, 1);
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
    if (next_tok(p, &c, "color", "#rrggbb")) return -1;
    int ok = c.n == 7 && c.s[0] == '#';
    for (int i = 1; ok && i < 7; i++) ok = strchr("0123456789abcdefABCDEF", c.s[i]) != NULL;
    if (!ok) return fail_at(p, &c, "bad color ", ": expected #rrggbb");
    char hex[7];
    memcpy(hex, c.s + 1, 6);
    hex[6] = '\0';
    unsigned long v = strtoul(hex, NULL, 16);
    for (int i = 0; i < 3; i++) rgba[i] = (float)((v >> (16 - 8 * i)) & 255u) / 255.0f;
    rgba[3] = 1.0f;
    return 0;
}

static int shape_option(parser *p, mech_shape *s, const lex_tok *t, int seen[3])
{
    static const char *const opts[3] = { "pos", "rot", "color" };
    int o = 0;
    while (o < 3 && !lex_is(t, opts[o])) o++;
    if (o == 3) return fail_at(p, t, "unknown shape option ", ": expected pos, rot or color");
    if (seen[o]) return fail(p, p->ln.no, t->col, "duplicate '%s' in shape", opts[o]);
    seen[o] = 1;
    if (o == 0) return read_numbers(p, "shape pos", "3", s->pos, 3);
    if (o == 1) return read_rotation(p, "shape rot", s->rot);
    return read_color(p, s->rgba);
}

static int key_shape(parser *p, int col)
{
    static const char *const types[] = { "box", "sphere", "cylinder", "capsule" };
    static const int ndims[] = { 3, 1, 2, 2 };
    static const char *const dims[] = { "lx ly lz", "r", "r length", "r length" };
    mech_model *m = p->m;
    if (grow(p, (void **)&m->shapes, &p->cap_shapes, m->nshape, sizeof *m->shapes, MECH_MAX_SHAPES,
             "shapes", col)) return -1;
    mech_shape *s = &m->shapes[m->nshape];
    memset(s, 0, sizeof *s);
    m3_identity(s->rot);
    s->body = p->cur;
    s->line = p->ln.no;
    lex_tok t;
    if (next_tok(p, &t, "shape", "box, sphere, cylinder or capsule")) return -1;
    int ty = 0;
    while (ty < 4 && !lex_is(&t, types[ty])) ty++;
    if (ty == 4)
        return fail_at(p, &t, "unknown shape type ", ": expected box, sphere, cylinder or capsule");
    s->type = (mech_shape_type)ty;
    char key[24];
    snprintf(key, sizeof key, "shape %s", types[ty]);
    for (int i = 0; i < ndims[ty]; i++) {
        if (next_tok(p, &t, key, dims[ty]) || to_number(p, &t, key, &s->size[i])) return -1;
        if (!(s->size[i] > 0.0))
            return fail(p, p->ln.no, t.col, "shape dimensions must be positive: got %g", s->size[i]);
    }
    int seen[3] = { 0, 0, 0 };
    while (lex_next(&p->ln, &t))
        if (shape_option(p, s, &t, seen)) return -1;
    m->nshape++;
    return 0;
}

/* ---- blocks ---- */

static int finish_body(parser *p, raw_body *rb)
{
    static const int required[] = { K_PARENT, K_JOINT, K_MASS, K_INERTIA };
    if (end_of_line(p, "end", "no values")) return -1;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rb->key_line[required[i]])
            return fail(p, rb->b.line, rb->name_col, "body '%s' has no '%s'", rb->b.name,
                        body_keys[required[i]]);
    if (rb->b.joint == MECH_JOINT_FLOATING && strcmp(rb->parent, "base") != 0)
        return fail(p, rb->key_line[K_PARENT], rb->parent_col,
                    "floating body '%s' must have parent 'base', not '%s'", rb->b.name, rb->parent);
    p->cur = -1;
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
    case K_POS: return number_line(p, "pos", rb->b.pos, 3);
    case K_ROT:
        return read_rotation(p, "rot", rb->b.rot) || end_of_line(p, "rot", "<axis> <degrees>") ? -1 : 0;
    case K_MASS: return key_mass(p, rb);
    case K_COM: return number_line(p, "com", rb->b.com, 3);
    case K_INERTIA: return key_inertia(p, rb);
    case K_FEXT: return key_fext(p, rb);
    default: return key_state(p, rb, k);
    }
}

static int body_line(parser *p, const lex_tok *kw)
{
    raw_body *rb = &p->bodies[p->cur];
    if (lex_is(kw, "end")) return finish_body(p, rb);
    if (lex_is(kw, "shape")) return key_shape(p, kw->col);
    int k = body_key_index(kw);
    if (k >= 0) {
        if (rb->key_line[k])
            return fail(p, p->ln.no, kw->col, "duplicate '%s' in body '%s' (first on line %d)",
                        body_keys[k], rb->b.name, rb->key_line[k]);
        rb->key_line[k] = p->ln.no;
        rb->key_col[k] = kw->col;
        return body_key(p, rb, k);
    }
    if (fail_unsupported(p, kw)) return -1;
    if (lex_is(kw, "body") || lex_is(kw, "poi") || lex_is(kw, "gravity") || lex_is(kw, "description"))
        return fail(p, p->ln.no, kw->col, "'%.*s' inside body '%s': missing 'end'", kw->n, kw->s,
                    rb->b.name);
    return fail_at(p, kw, "unknown keyword ", " in body: expected one of: parent joint pos rot "
                   "mass com inertia fext q0 qd0 shape end");
}

static int top_body(parser *p, int col)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (read_name(p, "body", name, &name_col)) return -1;
    if (strcmp(name, "base") == 0) return fail(p, p->ln.no, name_col, "body name 'base' is reserved");
    for (int i = 0; i < p->nbodies; i++)
        if (strcmp(p->bodies[i].b.name, name) == 0)
            return fail(p, p->ln.no, name_col, "duplicate body name '%s' (first on line %d)", name,
                        p->bodies[i].b.line);
    if (end_of_line(p, "body", "1") ||
        grow(p, (void **)&p->bodies, &p->cap_bodies, p->nbodies, sizeof *p->bodies, MECH_MAX_BODIES,
             "bodies", col)) return -1;
    raw_body *rb = &p->bodies[p->nbodies];
    memset(rb, 0, sizeof *rb);
    memcpy(rb->b.name, name, sizeof name);
    rb->b.line = p->ln.no;
    rb->name_col = name_col;
    m3_identity(rb->b.rot);
    p->cur = p->nbodies++;
    return 0;
}

static int top_poi(parser *p, int col)
{
    if (grow(p, (void **)&p->pois, &p->cap_pois, p->m->npoi, sizeof *p->pois, MECH_MAX_POIS, "pois", col))
        return -1;
    raw_poi *rp = &p->pois[p->m->npoi];
    memset(rp, 0, sizeof *rp);
    int name_col;
    if (read_name(p, "poi", rp->p.name, &name_col)) return -1;
    for (int i = 0; i < p->m->npoi; i++)
        if (strcmp(p->pois[i].p.name, rp->p.name) == 0)
            return fail(p, p->ln.no, name_col, "duplicate poi name '%s' (first on line %d)", rp->p.name,
                        p->pois[i].p.line);
    lex_tok t;
    if (next_tok(p, &t, "poi", "<name> <body> x y z")) return -1;
    if (!lex_is(&t, "base") && check_name(p, &t, "poi")) return -1;
    memcpy(rp->body, t.s, (size_t)t.n);
    rp->body[t.n] = '\0';
    rp->body_col = t.col;
    rp->p.line = p->ln.no;
    if (read_numbers(p, "poi", "<name> <body> x y z", rp->p.pos, 3) ||
        end_of_line(p, "poi", "<name> <body> x y z")) return -1;
    p->m->npoi++;
    return 0;
}

static int top_description(parser *p, int col)
{
    int n, dcol;
    const char *s = lex_rest(&p->ln, &n, &dcol);
    if (p->desc_line)
        return fail(p, p->ln.no, col, "duplicate 'description' (first on line %d)", p->desc_line);
    p->desc_line = p->ln.no;
    if ((size_t)n >= sizeof p->m->description)
        return fail(p, p->ln.no, dcol, "description too long: at most %d characters",
                    (int)sizeof p->m->description - 1);
    memcpy(p->m->description, s, (size_t)n);
    p->m->description[n] = '\0';
    return 0;
}

static int top_line(parser *p, const lex_tok *kw)
{
    if (lex_is(kw, "body")) return top_body(p, kw->col);
    if (lex_is(kw, "poi")) return top_poi(p, kw->col);
    if (lex_is(kw, "description")) return top_description(p, kw->col);
    if (lex_is(kw, "gravity")) {
        if (p->grav_line)
            return fail(p, p->ln.no, kw->col, "duplicate 'gravity' (first on line %d)", p->grav_line);
        p->grav_line = p->ln.no;
        return number_line(p, "gravity", p->m->gravity, 3);
    }
    if (lex_is(kw, "end")) return fail(p, p->ln.no, kw->col, "'end' outside a body block");
    if (fail_unsupported(p, kw)) return -1;
    if (body_key_index(kw) >= 0 || lex_is(kw, "shape")) return fail_at(p, kw, "", " outside a body block");
    return fail_at(p, kw, "unknown keyword ", ": expected one of: description gravity body poi");
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
            return fail(p, rb->key_line[K_PARENT], rb->parent_col, "unknown parent '%s' for body '%s'",
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
    return fail(p, rb->key_line[K_PARENT], rb->parent_col, "%s", msg);
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
    if (!m->pois) return fail(p, 0, 0, "out of memory");
    for (int i = 0; i < m->npoi; i++) {
        raw_poi *rp = &p->pois[i];
        m->pois[i] = rp->p;
        m->pois[i].body = strcmp(rp->body, "base") == 0 ? -1 : mech_body_find(m, rp->body);
        if (m->pois[i].body < 0 && strcmp(rp->body, "base") != 0)
            return fail(p, rp->p.line, rp->body_col, "unknown body '%s' for poi '%s'", rp->body, rp->p.name);
    }
    return 0;
}

static int build_model(parser *p)
{
    mech_model *m = p->m;
    int n = p->nbodies > 0 ? p->nbodies : 1;
    int *work = calloc((size_t)n * 4, sizeof *work);
    if (!work) return fail(p, 0, 0, "out of memory");
    int *parent = work, *order = work + n, *placed = work + 2 * n, *slot = work + 3 * n;
    int r = resolve_parents(p, parent);
    if (!r) r = order_bodies(p, parent, order, placed);
    if (!r && p->nbodies > 0) {
        m->bodies = malloc((size_t)p->nbodies * sizeof *m->bodies);
        if (!m->bodies) r = fail(p, 0, 0, "out of memory");
    }
    if (!r) {
        m->nb = p->nbodies;
        store_bodies(m, p->bodies, parent, order, slot);
        r = store_pois(p);
    }
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
        if (st == LEX_NUL) return fail(p, p->ln.no, col, "NUL byte in text");
        if (st == LEX_TOO_LONG)
            return fail(p, p->ln.no, col, "line too long: at most %d characters", MECH_MAX_LINE);
        lex_tok kw;
        if (!lex_next(&p->ln, &kw)) continue;
        if ((p->cur >= 0 ? body_line(p, &kw) : top_line(p, &kw)) < 0) return -1;
    }
    if (p->cur >= 0) {
        raw_body *rb = &p->bodies[p->cur];
        return fail(p, rb->b.line, rb->name_col, "body '%s' has no 'end' before the end of the file",
                    rb->b.name);
    }
    return 0;
}

mech_model *mech_parse(const char *text, size_t len, const char *name, mech_error *err)
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
        fail(&p, 0, 0, "text too large: %zu bytes, at most %u", len, (unsigned)MECH_MAX_TEXT);
        return NULL;
    }
    p.src.text = text;
    p.src.len = text ? len : 0;
    p.m = calloc(1, sizeof *p.m);
    if (!p.m) {
        fail(&p, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(p.m->name, sizeof p.m->name, "%s", name);
    p.m->gravity[2] = -9.81;
    int r = parse_lines(&p);
    if (!r) r = build_model(&p);
    free(p.bodies);
    free(p.pois);
    if (r) {
        mech_model_free(p.m);
        return NULL;
    }
    return p.m;
}
