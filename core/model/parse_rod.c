/* parse_rod.c — `rod` blocks of the .mech language (docs/mech-format.md,
 * "Rods"): a Cosserat rod for the XPBD engine (core/xpbd/rod.h).  Values are
 * SI except angles (degrees in the text).  Clamp bodies are resolved by name
 * once the bodies are stored, like servo bodies. */
#include "model/parse_internal.h"

#include "spatial/spatial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the rod table, in the order "expected one of" lists them; the keys
 * given per end (`clamp start base`, `pin end base`, `move end 0 0 -0.1`,
 * ...) are the rows from R_CLAMP on, in the order of RE_. */
enum {
    R_DISC,
    R_ELEMENTS,
    R_INTEGRATION,
    R_SOLVER,
    R_LENGTH,
    R_DIAMETER,
    R_E,
    R_NU,
    R_RHO,
    R_DAMPING,
    R_SHAPE,
    R_POINT,
    R_ORIGIN,
    R_DIR,
    R_FRAME,
    R_CLAMP,
    R_PIN,
    R_MOVE,
    R_TWIST,
    R_RAMP,
    R_COLOR,
    R_VISUAL,
    R_FRICTION,
    R_RESTITUTION,
    R_COUNT
};
enum { RE_CLAMP, RE_PIN, RE_MOVE, RE_TWIST, RE_RAMP, RE_COUNT };

static const char *const end_names[2] = { "start", "end" };

typedef struct raw_rod {
    mech_rod r;
    char body[2][MECH_NAME_MAX]; /* clamp or pin target names ("base" = ground) */
    block_seen seen;             /* a `point` line: the first */
    int end_line[2][RE_COUNT], end_col[2][RE_COUNT], body_col[2];
    int cap_points;
} raw_rod;

static int nu_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int rod_shape_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int point_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int end_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int color_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int friction_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int restitution_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_rod(parser *p, void *raw);

static const char *const discs[] = { "rigid", "linear", "quadratic", "cubic", NULL };
static const char *const integrations[] = { "reduced", "full", NULL };
static const char *const solvers[] = { "banded", "gauss-seidel", NULL };
_Static_assert(sizeof(mech_rod_disc) == sizeof(int), "block_word stores an int");

#define WORD(w, field, choices, name) \
    .word = w, .read = block_word, .off = offsetof(raw_rod, field), .words = choices, .what = name
_Static_assert(R_COUNT <= BLOCK_MAX_KEYS, "block_seen holds every row");
static const block_key rod_keys[R_COUNT] = {
    [R_DISC] = { WORD("disc", r.disc, discs, "discretization") },
    [R_ELEMENTS] = { .word = "elements",
                     .read = block_count,
                     .off = offsetof(raw_rod, r.elements),
                     .arg = MECH_MAX_ROD_ELEMENTS },
    [R_INTEGRATION] = { WORD("integration", r.full_integration, integrations, "integration") },
    [R_SOLVER] = { WORD("solver", r.gauss_seidel, solvers, "rod solver") },
    [R_LENGTH] = { NUMBERS("length", raw_rod, r.length, 1, BOUND_POSITIVE) },
    [R_DIAMETER] = { NUMBERS("diameter", raw_rod, r.diameter, 1, BOUND_POSITIVE), .required = 1 },
    [R_E] = { NUMBERS("E", raw_rod, r.E, 1, BOUND_POSITIVE), .required = 1 },
    [R_NU] = { .word = "nu", .read = nu_key },
    [R_RHO] = { NUMBERS("rho", raw_rod, r.rho, 1, BOUND_POSITIVE), .required = 1 },
    [R_DAMPING] = { NUMBERS("damping", raw_rod, r.damping, 1, BOUND_NONNEGATIVE) },
    [R_SHAPE] = { .word = "shape", .read = rod_shape_key },
    [R_POINT] = { .word = "point", .read = point_key, .repeats = 1 },
    [R_ORIGIN] = { NUMBERS("origin", raw_rod, r.origin, 3, BOUND_ANY) },
    [R_DIR] = { .word = "dir", .read = block_axis_frame, .off = offsetof(raw_rod, r.frame) },
    [R_FRAME] = { .word = "frame", .read = block_rotation, .off = offsetof(raw_rod, r.frame) },
    [R_CLAMP] = { .word = "clamp", .read = end_key, .repeats = 1, .arg = RE_CLAMP },
    [R_PIN] = { .word = "pin", .read = end_key, .repeats = 1, .arg = RE_PIN },
    [R_MOVE] = { .word = "move", .read = end_key, .repeats = 1, .arg = RE_MOVE },
    [R_TWIST] = { .word = "twist", .read = end_key, .repeats = 1, .arg = RE_TWIST },
    [R_RAMP] = { .word = "ramp", .read = end_key, .repeats = 1, .arg = RE_RAMP },
    [R_COLOR] = { .word = "color", .read = color_key },
    [R_VISUAL] = { .word = "visual", .read = block_flag, .off = offsetof(raw_rod, r.visual) },
    [R_FRICTION] = { .word = "friction", .read = friction_key },
    [R_RESTITUTION] = { .word = "restitution", .read = restitution_key },
};
const block_kind rod_block = { BLOCK_KIND("rod", rod_keys, finish_rod, NULL), BLOCK_RAW(raw_rod, r.name, r.line) };

/* The word of end key k (RE_). */
static const char *end_word(int k) { return rod_keys[R_CLAMP + k].word; }

/* ---- values ---- */

static int nu_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_rod *r = &((raw_rod *)raw)->r;
    lex_tok t;
    if (mp_next_tok(p, &t, "nu", "1") || mp_to_number(p, &t, "nu", &r->nu) || mp_end_of_line(p, "nu", "1")) return -1;
    if (!(r->nu > -1.0 && r->nu <= 0.5))
        return mp_fail(p, p->ln.no, t.col, "'nu' must lie in (-1, 0.5]: got %g", r->nu);
    return 0;
}

static int color_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    return mp_read_color(p, ((raw_rod *)raw)->r.rgba) || mp_end_of_line(p, "color", "#rrggbb") ? -1 : 0;
}

static int friction_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_rod *r = &((raw_rod *)raw)->r;
    return mp_read_friction(p, &r->mu_s, &r->mu_d) || mp_end_of_line(p, "friction", "<static> <dynamic>") ? -1 : 0;
}

static int restitution_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    return mp_read_restitution(p, &((raw_rod *)raw)->r.restitution) || mp_end_of_line(p, "restitution", "1") ? -1 : 0;
}

/* shape straight | helix <coil radius> <pitch> <turns> | points */
static int rod_shape_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    static const char *const shapes[] = { "straight", "helix", "points" };
    mech_rod *r = &((raw_rod *)raw)->r;
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
            mp_to_number(p, &at[i], "shape", &v[i]))
            return -1;
    if (mp_end_of_line(p, "shape", "helix <coil radius> <pitch> <turns>")) return -1;
    if (!(v[0] > 0)) return mp_fail(p, p->ln.no, at[0].col, "helix coil radius must be positive: got %g", v[0]);
    if (!(v[1] >= 0)) return mp_fail(p, p->ln.no, at[1].col, "helix pitch must not be negative: got %g", v[1]);
    if (!(v[2] > 0)) return mp_fail(p, p->ln.no, at[2].col, "helix turns must be positive: got %g", v[2]);
    r->coil_radius = v[0];
    r->pitch = v[1];
    r->turns = v[2];
    return 0;
}

/* point x y z: one more point of a `shape points` rod. */
static int point_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    raw_rod *rr = raw;
    mech_rod *r = &rr->r;
    if (r->npoints >= MECH_MAX_ROD_POINTS)
        return mp_fail(p, p->ln.no, kw->col, "too many points in rod '%s': at most %d", r->name, MECH_MAX_ROD_POINTS);
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
static int hold_of(const raw_rod *rr, int e) { return rr->end_line[e][RE_PIN] ? RE_PIN : RE_CLAMP; }

/* clamp|pin <start|end> <base|body>: the end's position and orientation, or
 * its position only, held. */
static int hold_line(parser *p, raw_rod *rr, int k, int e, const lex_tok *kw)
{
    mech_rod *r = &rr->r;
    mech_rod_end *end = &r->end[e];
    const char *key = end_word(k), *expect = "start or end, then base or a body name";
    int other = k == RE_PIN ? RE_CLAMP : RE_PIN;
    lex_tok t;
    if (rr->end_line[e][other])
        return mp_fail(p, p->ln.no, kw->col,
                       "'%s %s' and '%s %s' in rod '%s' (line %d): an end is clamped or "
                       "pinned, not both",
                       key, end_names[e], end_word(other), end_names[e], r->name, rr->end_line[e][other]);
    if (mp_next_tok(p, &t, key, expect) || (!lex_is(&t, "base") && mp_check_name(p, &t, key))) return -1;
    memcpy(rr->body[e], t.s, (size_t)t.n);
    rr->body[e][t.n] = '\0';
    rr->body_col[e] = t.col;
    end->hold = k == RE_PIN ? MECH_ROD_PIN : MECH_ROD_CLAMP;
    end->line = p->ln.no;
    return mp_end_of_line(p, key, expect);
}

/* clamp|pin|move|twist|ramp <start|end> ... */
static int end_key(parser *p, void *raw, const block_key *row, const lex_tok *kw)
{
    raw_rod *rr = raw;
    mech_rod *r = &rr->r;
    int k = row->arg;
    const char *key = row->word;
    static const char *const expect[RE_COUNT] = { "start or end, then base or a body name",
                                                  "start or end, then base or a body name",
                                                  "start or end, then x y z (m)", "start or end, then degrees",
                                                  "start or end, then seconds" };
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
        if (!(end->ramp >= 0.0)) return mp_fail(p, p->ln.no, t.col, "'ramp' must not be negative: got %g", end->ramp);
        return mp_end_of_line(p, key, expect[k]);
    }
}

/* ---- the block ---- */

int rod_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_rod *rr = block_new(p, &rod_block, "rod", kw, (void **)&p->rods, &p->nrods, &p->cap_rods, MECH_MAX_RODS, "rods");
    if (!rr) return -1;
    rr->r.col = p->open.col;
    rr->r.disc = MECH_ROD_LINEAR;
    rr->r.elements = 1;
    rr->r.nu = 0.5;
    rr->r.shape = MECH_ROD_STRAIGHT;
    rr->r.end[0].body = rr->r.end[1].body = -1;
    rr->r.mu_s = MECH_DEFAULT_MU_STATIC;
    rr->r.mu_d = MECH_DEFAULT_MU_DYNAMIC;
    rr->r.restitution = MECH_DEFAULT_RESTITUTION;
    m3_identity(rr->r.frame);
    return 0;
}

static int key_fail(parser *p, const raw_rod *rr, int k, const char *fmt, const char *extra)
{
    return mp_fail(p, rr->seen.line[k], rr->seen.col[k], fmt, rod_keys[k].word, extra, rr->r.name);
}

/* At `end`: what each key needs. */
static int finish_rod(parser *p, void *raw)
{
    raw_rod *rr = raw;
    mech_rod *r = &rr->r;
    if (r->shape == MECH_ROD_STRAIGHT && !rr->seen.line[R_LENGTH])
        return mp_fail(p, r->line, r->col, "rod '%s' has no 'length' (a straight rod needs one)", r->name);
    if (r->shape != MECH_ROD_STRAIGHT && rr->seen.line[R_LENGTH])
        return key_fail(p, rr, R_LENGTH, "'%s' has no meaning for a %s rod (rod '%s'): the shape gives the length",
                        r->shape == MECH_ROD_HELIX ? "helix" : "points");
    if (rr->seen.line[R_POINT] && r->shape != MECH_ROD_POINTS)
        return mp_fail(p, rr->seen.line[R_POINT], rr->seen.col[R_POINT], "'point' needs 'shape points' (rod '%s')",
                       r->name);
    if (r->shape == MECH_ROD_POINTS && r->npoints < 2)
        return mp_fail(p, rr->seen.line[R_SHAPE], rr->seen.col[R_SHAPE],
                       "rod '%s' has %d point%s: 'shape points' needs at least 2 'point' lines", r->name, r->npoints,
                       r->npoints == 1 ? "" : "s");
    if (rr->seen.line[R_DIR] && rr->seen.line[R_FRAME]) {
        int later = rr->seen.line[R_FRAME] > rr->seen.line[R_DIR] ? R_FRAME : R_DIR;
        return mp_fail(p, rr->seen.line[later], rr->seen.col[later],
                       "'dir' and 'frame' both given in rod '%s': "
                       "use one",
                       r->name);
    }
    if (r->visual && (rr->seen.line[R_FRICTION] || rr->seen.line[R_RESTITUTION]))
        return key_fail(p, rr, rr->seen.line[R_FRICTION] ? R_FRICTION : R_RESTITUTION,
                        "'%s'%s on a visual rod (rod '%s'): a visual rod never collides", "");
    if (r->full_integration && r->disc == MECH_ROD_RIGID)
        return key_fail(p, rr, R_INTEGRATION, "'%s full'%s has no meaning for the rigid chain (rod '%s')", "");
    for (int e = 0; e < 2; e++)
        for (int k = RE_MOVE; k < RE_COUNT; k++) {
            if (!rr->end_line[e][k]) continue;
            if (!r->end[e].hold && k == RE_TWIST)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k], "'%s %s' needs 'clamp %s base' (rod '%s')",
                               end_word(k), end_names[e], end_names[e], r->name);
            if (!r->end[e].hold)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k],
                               "'%s %s' needs 'clamp %s base' or "
                               "'pin %s base' (rod '%s')",
                               end_word(k), end_names[e], end_names[e], end_names[e], r->name);
            if (r->end[e].hold == MECH_ROD_PIN && k == RE_TWIST)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k],
                               "'twist %s' has no meaning for a pinned "
                               "end: its orientation is free (rod '%s')",
                               end_names[e], r->name);
            if (strcmp(rr->body[e], "base") != 0)
                return mp_fail(p, rr->end_line[e][k], rr->end_col[e][k],
                               "'%s %s': prescribed motion of an end "
                               "clamped to a body is not supported (rod '%s'); drive body '%s' instead",
                               end_word(k), end_names[e], r->name, rr->body[e]);
        }
    if (r->end[0].hold && r->end[1].hold && strcmp(rr->body[0], "base") != 0 && strcmp(rr->body[0], rr->body[1]) == 0)
        return mp_fail(p, rr->end_line[1][hold_of(rr, 1)], rr->body_col[1],
                       "rod '%s': both ends clamped to body "
                       "'%s' is not supported",
                       r->name, rr->body[1]);
    return 0;
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
        char owner[MECH_NAME_MAX + 8], key[16];
        snprintf(owner, sizeof owner, "rod '%s'", r->name);
        for (int e = 0; e < 2; e++) {
            if (!r->end[e].hold) continue;
            int k = hold_of(rr, e);
            snprintf(key, sizeof key, "%s %s", end_word(k), end_names[e]);
            if (mp_body_index(p, rr->body[e], rr->end_line[e][k], rr->body_col[e], key, owner, &r->end[e].body))
                return -1;
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
    int given = rr->seen.line[R_ELEMENTS] > 0;
    *line = given ? rr->seen.line[R_ELEMENTS] : rr->r.line;
    *col = given ? rr->seen.val_col[R_ELEMENTS] : rr->r.col;
}
