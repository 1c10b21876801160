/* parse_rod.c — `rod` blocks of the .mech language (docs/mech-format.md,
 * "Rods"): a Cosserat rod for the XPBD engine (core/xpbd/rod.h).  Values are
 * SI except angles (degrees in the text).  Clamp bodies are resolved by name
 * once the bodies are stored, like servo bodies. */
#include "model/parse_internal.h"

#include "spatial/spatial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    R_DISC, R_ELEMENTS, R_INTEGRATION, R_SOLVER, R_LENGTH, R_DIAMETER, R_E, R_NU, R_RHO, R_DAMPING, R_SHAPE,
    R_ORIGIN, R_DIR, R_FRAME, R_COLOR, R_VISUAL, R_FRICTION, R_RESTITUTION, R_COUNT
};
/* keys given per end: `clamp start base`, `pin end base`, `move end 0 0 -0.1`, ... */
enum { RE_CLAMP, RE_PIN, RE_MOVE, RE_TWIST, RE_RAMP, RE_COUNT };

static const char *const rod_keys[R_COUNT] = {
    "disc", "elements", "integration", "solver", "length", "diameter", "E", "nu", "rho", "damping", "shape",
    "origin", "dir", "frame", "color", "visual", "friction", "restitution"
};
static const char *const end_keys[RE_COUNT] = { "clamp", "pin", "move", "twist", "ramp" };
static const char *const end_names[2] = { "start", "end" };
static const char *const discs[] = { "rigid", "linear", "quadratic", "cubic" };
#define ROD_KEYS "disc elements integration solver length diameter E nu rho damping shape point origin dir " \
                 "frame clamp pin move twist ramp color visual friction restitution end"

typedef struct raw_rod {
    mech_rod r;
    char body[2][MECH_NAME_MAX];    /* clamp or pin target names ("base" = ground) */
    int name_col, elements_col;     /* elements_col: its value's, 0 if not given */
    int key_line[R_COUNT], key_col[R_COUNT];
    int end_line[2][RE_COUNT], end_col[2][RE_COUNT], body_col[2];
    int point_line, point_col;      /* first `point` line */
    int cap_points;
} raw_rod;

/* ---- values ---- */

static int number_key(parser *p, const char *key, double *v, lex_tok *t)
{
    return mp_next_tok(p, t, key, "1") || mp_to_number(p, t, key, v) || mp_end_of_line(p, key, "1") ? -1 : 0;
}

static int positive_key(parser *p, const char *key, double *v)
{
    lex_tok t;
    if (number_key(p, key, v, &t)) return -1;
    if (!(*v > 0.0)) return mp_fail(p, p->ln.no, t.col, "'%s' must be positive: got %g", key, *v);
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                                      : -1;
}

static int color_key(parser *p, float rgba[4])
{
    lex_tok c;
    if (mp_next_tok(p, &c, "color", "#rrggbb")) return -1;
    int ok = c.n == 7 && c.s[0] == '#';
    for (int i = 1; ok && i < 7; i++) ok = hex_digit(c.s[i]) >= 0;
    if (!ok) return mp_fail_at(p, &c, "bad color ", ": expected #rrggbb");
    for (int k = 0; k < 3; k++) rgba[k] = (float)(hex_digit(c.s[1 + 2 * k]) * 16 + hex_digit(c.s[2 + 2 * k])) / 255.0f;
    rgba[3] = 1.0f;
    return mp_end_of_line(p, "color", "#rrggbb");
}

/* A word among `words` (n of them) into *out, or an error naming `expect`. */
static int word_key(parser *p, const char *key, const char *const *words, int n, const char *what,
                    const char *expect, int *out)
{
    lex_tok t;
    char rest[160];
    if (mp_next_tok(p, &t, key, expect)) return -1;
    for (int i = 0; i < n; i++)
        if (lex_is(&t, words[i])) {
            *out = i;
            return mp_end_of_line(p, key, "1");
        }
    snprintf(rest, sizeof rest, ": expected %s", expect);
    return mp_fail_at(p, &t, what, rest);
}

/* shape straight | helix <coil radius> <pitch> <turns> | points */
static int shape_key(parser *p, mech_rod *r)
{
    static const char *const shapes[] = { "straight", "helix", "points" };
    lex_tok t;
    if (mp_next_tok(p, &t, "shape", "straight, helix <coil radius> <pitch> <turns> or points")) return -1;
    int s = -1;
    for (int i = 0; i < 3; i++)
        if (lex_is(&t, shapes[i])) s = i;
    if (s < 0) return mp_fail_at(p, &t, "unknown rod shape ", ": expected straight, helix or points");
    r->shape = (mech_rod_shape)s;
    if (s != MECH_ROD_HELIX) return mp_end_of_line(p, "shape", "no values after straight or points");
    double v[3];
    lex_tok at[3];
    for (int i = 0; i < 3; i++)
        if (mp_next_tok(p, &at[i], "shape", "helix <coil radius> <pitch> <turns>") ||
            mp_to_number(p, &at[i], "shape", &v[i])) return -1;
    if (mp_end_of_line(p, "shape", "helix <coil radius> <pitch> <turns>")) return -1;
    if (!(v[0] > 0)) return mp_fail(p, p->ln.no, at[0].col, "helix coil radius must be positive: got %g", v[0]);
    if (!(v[1] >= 0)) return mp_fail(p, p->ln.no, at[1].col, "helix pitch must not be negative: got %g", v[1]);
    if (!(v[2] > 0)) return mp_fail(p, p->ln.no, at[2].col, "helix turns must be positive: got %g", v[2]);
    r->coil_radius = v[0];
    r->pitch = v[1];
    r->turns = v[2];
    return 0;
}

static int rod_key(parser *p, raw_rod *rr, int k)
{
    mech_rod *r = &rr->r;
    const char *key = rod_keys[k];
    lex_tok t;
    double v;
    int w = 0;
    switch (k) {
    case R_DISC:
        if (word_key(p, key, discs, 4, "unknown discretization ", "rigid, linear, quadratic or cubic", &w)) return -1;
        r->disc = (mech_rod_disc)w;
        return 0;
    case R_ELEMENTS:
        if (number_key(p, key, &v, &t)) return -1;
        if (!(v >= 1 && v <= MECH_MAX_ROD_ELEMENTS && v == (double)(int)v))
            return mp_fail(p, p->ln.no, t.col, "'elements' must be a whole number from 1 to %d: got %g",
                           MECH_MAX_ROD_ELEMENTS, v);
        r->elements = (int)v;
        rr->elements_col = t.col;
        return 0;
    case R_INTEGRATION: {
        static const char *const ints[] = { "reduced", "full" };
        if (word_key(p, key, ints, 2, "unknown integration ", "reduced or full", &w)) return -1;
        r->full_integration = w;
        return 0;
    }
    case R_SOLVER: {
        static const char *const solvers[] = { "banded", "gauss-seidel" };
        if (word_key(p, key, solvers, 2, "unknown rod solver ", "banded or gauss-seidel", &w)) return -1;
        r->gauss_seidel = w;
        return 0;
    }
    case R_LENGTH: return positive_key(p, key, &r->length);
    case R_DIAMETER: return positive_key(p, key, &r->diameter);
    case R_E: return positive_key(p, key, &r->E);
    case R_RHO: return positive_key(p, key, &r->rho);
    case R_NU:
        if (number_key(p, key, &r->nu, &t)) return -1;
        if (!(r->nu > -1.0 && r->nu <= 0.5))
            return mp_fail(p, p->ln.no, t.col, "'nu' must lie in (-1, 0.5]: got %g", r->nu);
        return 0;
    case R_DAMPING:
        if (number_key(p, key, &r->damping, &t)) return -1;
        if (!(r->damping >= 0.0))
            return mp_fail(p, p->ln.no, t.col, "'damping' must not be negative: got %g", r->damping);
        return 0;
    case R_SHAPE: return shape_key(p, r);
    case R_ORIGIN: return mp_number_line(p, key, r->origin, 3);
    case R_DIR: {
        double axis[3];
        if (mp_read_axis(p, key, axis) || mp_end_of_line(p, key, AXIS_EXPECT)) return -1;
        mp_frame_from_axis(axis, r->frame);
        return 0;
    }
    case R_FRAME:
        return mp_read_rotation(p, key, r->frame) || mp_end_of_line(p, key, "<axis> <degrees>") ? -1 : 0;
    case R_VISUAL:
        r->visual = 1;
        return mp_end_of_line(p, key, "no values");
    case R_FRICTION:
        return mp_read_friction(p, &r->mu_s, &r->mu_d) || mp_end_of_line(p, key, "<static> <dynamic>") ? -1 : 0;
    case R_RESTITUTION: return mp_read_restitution(p, &r->restitution) || mp_end_of_line(p, key, "1") ? -1 : 0;
    default: return color_key(p, r->rgba);
    }
}

/* point x y z: one more point of a `shape points` rod. */
static int point_line(parser *p, raw_rod *rr, const lex_tok *kw)
{
    mech_rod *r = &rr->r;
    if (!rr->point_line) {
        rr->point_line = p->ln.no;
        rr->point_col = kw->col;
    }
    if (r->npoints >= MECH_MAX_ROD_POINTS)
        return mp_fail(p, p->ln.no, kw->col, "too many points in rod '%s': at most %d", r->name,
                       MECH_MAX_ROD_POINTS);
    if (r->npoints == rr->cap_points) {
        int cap = rr->cap_points ? 2 * rr->cap_points : 8;
        double *grown = realloc(r->points, (size_t)cap * 3 * sizeof *grown);
        if (!grown) return mp_fail(p, p->ln.no, kw->col, "out of memory");
        r->points = grown;
        rr->cap_points = cap;
    }
    if (mp_number_line(p, "point", r->points + 3 * r->npoints, 3)) return -1;
    r->npoints++;
    return 0;
}

/* The key that holds end e: RE_CLAMP or RE_PIN (either, for a free end). */
static int hold_key(const raw_rod *rr, int e) { return rr->end_line[e][RE_PIN] ? RE_PIN : RE_CLAMP; }

/* clamp|pin <start|end> <base|body>: the end's position and orientation, or
 * its position only, held. */
static int hold_line(parser *p, raw_rod *rr, int k, int e, const lex_tok *kw)
{
    mech_rod *r = &rr->r;
    mech_rod_end *end = &r->end[e];
    const char *key = end_keys[k], *expect = "start or end, then base or a body name";
    int other = k == RE_PIN ? RE_CLAMP : RE_PIN;
    lex_tok t;
    if (rr->end_line[e][other])
        return mp_fail(p, p->ln.no, kw->col, "'%s %s' and '%s %s' in rod '%s' (line %d): an end is clamped or "
                       "pinned, not both", key, end_names[e], end_keys[other], end_names[e], r->name,
                       rr->end_line[e][other]);
    if (mp_next_tok(p, &t, key, expect) || (!lex_is(&t, "base") && mp_check_name(p, &t, key))) return -1;
    memcpy(rr->body[e], t.s, (size_t)t.n);
    rr->body[e][t.n] = '\0';
    rr->body_col[e] = t.col;
    end->hold = k == RE_PIN ? MECH_ROD_PIN : MECH_ROD_CLAMP;
    end->line = p->ln.no;
    return mp_end_of_line(p, key, expect);
}

/* clamp|pin|move|twist|ramp <start|end> ... */
static int end_line(parser *p, raw_rod *rr, int k, const lex_tok *kw)
{
    mech_rod *r = &rr->r;
    const char *key = end_keys[k];
    static const char *const expect[RE_COUNT] = {
        "start or end, then base or a body name", "start or end, then base or a body name",
        "start or end, then x y z (m)", "start or end, then degrees", "start or end, then seconds"
    };
    lex_tok t;
    if (mp_next_tok(p, &t, key, expect[k])) return -1;
    int e = lex_is(&t, "start") ? 0 : lex_is(&t, "end") ? 1 : -1;
    if (e < 0) return mp_fail_at(p, &t, "bad rod end ", ": expected start or end");
    if (rr->end_line[e][k])
        return mp_fail(p, p->ln.no, kw->col, "duplicate '%s %s' in rod '%s' (first on line %d)", key, end_names[e],
                       r->name, rr->end_line[e][k]);
    rr->end_line[e][k] = p->ln.no;
    rr->end_col[e][k] = kw->col;
    mech_rod_end *end = &r->end[e];
    switch (k) {
    case RE_CLAMP:
    case RE_PIN: return hold_line(p, rr, k, e, kw);
    case RE_MOVE:
        if (mp_read_numbers(p, key, expect[k], end->move, 3)) return -1;
        return mp_end_of_line(p, key, expect[k]);
    case RE_TWIST:
        if (mp_read_numbers(p, key, expect[k], &end->twist, 1) || mp_end_of_line(p, key, expect[k])) return -1;
        end->twist *= DEG;
        return 0;
    default:
        if (mp_next_tok(p, &t, key, expect[k]) || mp_to_number(p, &t, key, &end->ramp)) return -1;
        if (!(end->ramp >= 0.0))
            return mp_fail(p, p->ln.no, t.col, "'ramp' must not be negative: got %g", end->ramp);
        return mp_end_of_line(p, key, expect[k]);
    }
}

/* ---- the block ---- */

int rod_top(parser *p, const lex_tok *kw)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, "rod", name, &name_col)) return -1;
    for (int i = 0; i < p->nrods; i++)
        if (strcmp(p->rods[i].r.name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate rod name '%s' (first on line %d)", name,
                           p->rods[i].r.line);
    if (mp_end_of_line(p, "rod", "1")) return -1;
    if (mp_grow(p, (void **)&p->rods, &p->cap_rods, p->nrods, sizeof *p->rods, MECH_MAX_RODS, "rods", kw->col))
        return -1;
    raw_rod *rr = &p->rods[p->nrods];
    memset(rr, 0, sizeof *rr);
    memcpy(rr->r.name, name, sizeof name);
    rr->r.line = p->ln.no;
    rr->r.col = name_col;
    rr->r.disc = MECH_ROD_LINEAR;
    rr->r.elements = 1;
    rr->r.nu = 0.5;
    rr->r.shape = MECH_ROD_STRAIGHT;
    rr->r.end[0].body = rr->r.end[1].body = -1;
    rr->r.mu_s = MECH_DEFAULT_MU_STATIC;
    rr->r.mu_d = MECH_DEFAULT_MU_DYNAMIC;
    rr->r.restitution = MECH_DEFAULT_RESTITUTION;
    m3_identity(rr->r.frame);
    rr->name_col = name_col;
    p->cur = p->nrods++;
    p->block = B_ROD;
    return 0;
}

static int key_fail(parser *p, const raw_rod *rr, int k, const char *fmt, const char *extra)
{
    return mp_fail(p, rr->key_line[k], rr->key_col[k], fmt, rod_keys[k], extra, rr->r.name);
}

/* At `end`: what each key needs. */
static int finish_rod(parser *p, raw_rod *rr)
{
    mech_rod *r = &rr->r;
    if (mp_end_of_line(p, "end", "no values")) return -1;
    static const int required[] = { R_DIAMETER, R_E, R_RHO };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rr->key_line[required[i]])
            return mp_fail(p, r->line, rr->name_col, "rod '%s' has no '%s'", r->name, rod_keys[required[i]]);
    if (r->shape == MECH_ROD_STRAIGHT && !rr->key_line[R_LENGTH])
        return mp_fail(p, r->line, rr->name_col, "rod '%s' has no 'length' (a straight rod needs one)", r->name);
    if (r->shape != MECH_ROD_STRAIGHT && rr->key_line[R_LENGTH])
        return key_fail(p, rr, R_LENGTH, "'%s' has no meaning for a %s rod (rod '%s'): the shape gives the length",
                        r->shape == MECH_ROD_HELIX ? "helix" : "points");
    if (rr->point_line && r->shape != MECH_ROD_POINTS)
        return mp_fail(p, rr->point_line, rr->point_col, "'point' needs 'shape points' (rod '%s')", r->name);
    if (r->shape == MECH_ROD_POINTS && r->npoints < 2)
        return mp_fail(p, rr->key_line[R_SHAPE], rr->key_col[R_SHAPE],
                       "rod '%s' has %d point%s: 'shape points' needs at least 2 'point' lines", r->name, r->npoints,
                       r->npoints == 1 ? "" : "s");
    if (rr->key_line[R_DIR] && rr->key_line[R_FRAME]) {
        int later = rr->key_line[R_FRAME] > rr->key_line[R_DIR] ? R_FRAME : R_DIR;
        return mp_fail(p, rr->key_line[later], rr->key_col[later], "'dir' and 'frame' both given in rod '%s': "
                       "use one", r->name);
    }
    if (r->visual && (rr->key_line[R_FRICTION] || rr->key_line[R_RESTITUTION]))
        return key_fail(p, rr, rr->key_line[R_FRICTION] ? R_FRICTION : R_RESTITUTION,
                        "'%s'%s on a visual rod (rod '%s'): a visual rod never collides", "");
    if (r->full_integration && r->disc == MECH_ROD_RIGID)
        return key_fail(p, rr, R_INTEGRATION, "'%s full'%s has no meaning for the rigid chain (rod '%s')", "");
    for (int e = 0; e < 2; e++)
        for (int k = RE_MOVE; k < RE_COUNT; k++) {
            if (!rr->end_line[e][k]) continue;
            if (!r->end[e].hold && k == RE_TWIST)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k], "'%s %s' needs 'clamp %s base' (rod '%s')",
                               end_keys[k], end_names[e], end_names[e], r->name);
            if (!r->end[e].hold)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k], "'%s %s' needs 'clamp %s base' or "
                               "'pin %s base' (rod '%s')", end_keys[k], end_names[e], end_names[e], end_names[e],
                               r->name);
            if (r->end[e].hold == MECH_ROD_PIN && k == RE_TWIST)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k], "'twist %s' has no meaning for a pinned "
                               "end: its orientation is free (rod '%s')", end_names[e], r->name);
            if (strcmp(rr->body[e], "base") != 0)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k], "'%s %s': prescribed motion of an end "
                               "clamped to a body is not supported (rod '%s'); drive body '%s' instead", end_keys[k],
                               end_names[e], r->name, rr->body[e]);
        }
    if (r->end[0].hold && r->end[1].hold && strcmp(rr->body[0], "base") != 0 &&
        strcmp(rr->body[0], rr->body[1]) == 0)
        return mp_fail(p, rr->end_line[1][hold_key(rr, 1)], rr->body_col[1], "rod '%s': both ends clamped to body "
                       "'%s' is not supported", r->name, rr->body[1]);
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

int rod_line(parser *p, const lex_tok *kw)
{
    raw_rod *rr = &p->rods[p->cur];
    if (lex_is(kw, "end")) return finish_rod(p, rr);
    if (lex_is(kw, "point")) return point_line(p, rr, kw);
    for (int k = 0; k < RE_COUNT; k++)
        if (lex_is(kw, end_keys[k])) return end_line(p, rr, k, kw);
    for (int k = 0; k < R_COUNT; k++) {
        if (!lex_is(kw, rod_keys[k])) continue;
        if (rr->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in rod '%s' (first on line %d)", rod_keys[k],
                           rr->r.name, rr->key_line[k]);
        rr->key_line[k] = p->ln.no;
        rr->key_col[k] = kw->col;
        return rod_key(p, rr, k);
    }
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside rod '%s': missing 'end'", kw->n, kw->s, rr->r.name);
    return mp_fail_at(p, kw, "unknown keyword ", " in rod: expected one of: " ROD_KEYS);
}

int rod_unclosed(parser *p)
{
    if (p->block != B_ROD) return 0;
    raw_rod *rr = &p->rods[p->cur];
    return mp_fail(p, rr->r.line, rr->name_col, "rod '%s' has no 'end' before the end of the file", rr->r.name);
}

int rod_store(parser *p)
{
    mech_model *m = p->m;
    if (p->nrods == 0) return 0;
    m->rods = calloc((size_t)p->nrods, sizeof *m->rods);
    if (!m->rods) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nrods; i++) {
        raw_rod *rr = &p->rods[i];
        mech_rod *r = &m->rods[i];
        *r = rr->r;
        rr->r.points = NULL; /* the model owns them now */
        m->nrod++;
        for (int e = 0; e < 2; e++) {
            if (!r->end[e].hold || strcmp(rr->body[e], "base") == 0) continue;
            r->end[e].body = mech_model_body_find(m, rr->body[e]);
            if (r->end[e].body < 0)
                return mp_fail(p, rr->end_line[e][hold_key(rr, e)], rr->body_col[e], "unknown body '%s' for '%s %s' "
                               "in rod '%s'", rr->body[e], end_keys[hold_key(rr, e)], end_names[e], r->name);
        }
    }
    return 0;
}

void rod_parse_free(parser *p)
{
    for (int i = 0; i < p->nrods; i++) free(p->rods[i].r.points);
    free(p->rods);
    p->rods = NULL;
    p->nrods = p->cap_rods = 0;
}

void rod_size_place(const parser *p, int i, int *line, int *col)
{
    const raw_rod *rr = &p->rods[i];
    int given = rr->elements_col > 0;
    *line = given ? rr->key_line[R_ELEMENTS] : rr->r.line;
    *col = given ? rr->elements_col : rr->name_col;
}
