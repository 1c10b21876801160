/* parse_ground.c — the `ground` block (docs/mech-format.md, "Ground"): the
 * terrain (a sloped plane or a height grid) and its contact material.  The
 * terrain is only stored here; core/contact evaluates it. */
#include "model/parse_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the ground table, in the order "expected one of" lists them. */
enum { G_PLANE, G_GRID, G_ROW, G_KN, G_KT, G_MU, G_ZETA, G_VEPS, G_FRICTION, G_COUNT };

typedef struct raw_ground {
    mech_ground g;
    block_seen seen;
    int rows, row_line; /* `row` lines read, the last one's line */
} raw_ground;

static int terrain_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int row_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_ground(parser *p, void *raw);

static const char *const frictions[] = { "regularized", "anchored", NULL }; /* mech_friction's order */
_Static_assert(sizeof(mech_friction) == sizeof(int), "block_word stores an int");

static const block_key ground_keys[G_COUNT] = {
    [G_PLANE] = { .word = "plane", .read = terrain_key },
    [G_GRID] = { .word = "grid", .read = terrain_key },
    [G_ROW] = { .word = "row", .read = row_key, .repeats = 1 },
    [G_KN] = { NUMBERS("kn", raw_ground, g.kn, 1, BOUND_POSITIVE), .required = 1 },
    [G_KT] = { NUMBERS("kt", raw_ground, g.kt, 1, BOUND_POSITIVE) },
    [G_MU] = { NUMBERS("mu", raw_ground, g.mu, 1, BOUND_NONNEGATIVE), .required = 1 },
    [G_ZETA] = { NUMBERS("zeta", raw_ground, g.zeta, 1, BOUND_NONNEGATIVE) },
    [G_VEPS] = { NUMBERS("veps", raw_ground, g.veps, 1, BOUND_POSITIVE) },
    [G_FRICTION] = { .word = "friction",
                     .read = block_word,
                     .off = offsetof(raw_ground, g.friction),
                     .words = frictions,
                     .what = "friction" },
};
const block_kind ground_block = { BLOCK_KIND("ground", ground_keys, finish_ground, NULL) };

int ground_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    if (lex_more(&p->ln))
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln) + 1,
                       "'ground' opens a block and takes no values: write "
                       "'ground', then 'plane Z' (or 'grid ...' and its rows) and the material, then 'end'");
    p->ground = calloc(1, sizeof *p->ground);
    if (!p->ground) return mp_fail(p, 0, 0, "out of memory");
    mech_ground *g = &p->ground->g;
    g->line = p->ln.no;
    g->zeta = 0.5;
    g->veps = 0.01;
    g->friction = MECH_FRICTION_REGULARIZED;
    block_open(p, &ground_block, p->ground, &p->ground->seen, NULL, kw->col);
    return 0;
}

static int number(parser *p, const char *key, const char *expect, lex_tok *t, double *v)
{
    return mp_next_tok(p, t, key, expect) || mp_to_number(p, t, key, v) ? -1 : 0;
}

/* plane Z [slope DEG [x|y]]: h = Z + tan(DEG) x (or y). */
static int plane_key(parser *p, mech_ground *g)
{
    static const char *const expect = "Z [slope DEG [x|y]]";
    lex_tok t;
    double deg;
    if (number(p, "plane", expect, &t, &g->z0)) return -1;
    g->type = MECH_GROUND_PLANE;
    if (!lex_next(&p->ln, &t)) return 0;
    if (!lex_is(&t, "slope")) return mp_fail_at(p, &t, "unexpected ", " after 'plane Z': expected 'slope DEG [x|y]'");
    if (number(p, "slope", "DEG [x|y]", &t, &deg)) return -1;
    if (!(fabs(deg) < 80.0))
        return mp_fail(p, p->ln.no, t.col, "slope must be under 80 degrees either way: got %g", deg);
    double s = tan(deg * DEG);
    if (!lex_next(&p->ln, &t) || lex_is(&t, "x")) g->sx = s;
    else if (lex_is(&t, "y")) g->sy = s;
    else return mp_fail_at(p, &t, "bad slope axis ", ": expected x or y");
    return mp_end_of_line(p, "plane", expect);
}

/* grid NX NY DX DY [origin X0 Y0] */
static int grid_key(parser *p, mech_ground *g)
{
    static const char *const expect = "NX NY DX DY [origin X0 Y0]";
    lex_tok t;
    double v[4];
    for (int i = 0; i < 4; i++) {
        if (number(p, "grid", expect, &t, &v[i])) return -1;
        if (i < 2 && (v[i] != floor(v[i]) || v[i] < 2.0 || v[i] > MECH_MAX_GRID))
            return mp_fail(p, p->ln.no, t.col, "grid sample counts must be whole numbers, at least 2: got %g", v[i]);
        if (i >= 2 && !(v[i] > 0.0)) return mp_fail(p, p->ln.no, t.col, "grid spacing must be positive: got %g", v[i]);
    }
    if (v[0] * v[1] > MECH_MAX_GRID)
        return mp_fail(p, p->ln.no, p->ground->seen.col[G_GRID], "grid of %g x %g samples: at most %d", v[0], v[1],
                       MECH_MAX_GRID);
    g->type = MECH_GROUND_GRID;
    g->nx = (int)v[0];
    g->ny = (int)v[1];
    g->dx = v[2];
    g->dy = v[3];
    if (lex_next(&p->ln, &t)) {
        if (!lex_is(&t, "origin")) return mp_fail_at(p, &t, "unexpected ", " in 'grid': expected 'origin X0 Y0'");
        if (number(p, "origin", "X0 Y0", &t, &g->x0) || number(p, "origin", "X0 Y0", &t, &g->y0)) return -1;
    }
    if (mp_end_of_line(p, "grid", expect)) return -1;
    g->h = malloc((size_t)g->nx * (size_t)g->ny * sizeof *g->h);
    return g->h ? 0 : mp_fail(p, 0, 0, "out of memory");
}

/* row h0 .. h(NX-1): the heights at y = y0 + j dy, j the row's index. */
static int row_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    raw_ground *rg = raw;
    mech_ground *g = &rg->g;
    if (g->type != MECH_GROUND_GRID)
        return mp_fail(p, p->ln.no, kw->col, "'row' before 'grid NX NY DX DY' in the ground block");
    if (rg->rows == g->ny) return mp_fail(p, p->ln.no, kw->col, "too many rows: the grid has NY = %d", g->ny);
    double *h = g->h + (size_t)rg->rows * (size_t)g->nx;
    lex_tok t;
    for (int i = 0; i < g->nx; i++) {
        if (!lex_next(&p->ln, &t))
            return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "row %d has %d heights: the grid has NX = %d",
                           rg->rows + 1, i, g->nx);
        if (mp_to_number(p, &t, "row", &h[i])) return -1;
    }
    if (lex_next(&p->ln, &t))
        return mp_fail(p, p->ln.no, t.col, "row %d has more than NX = %d heights", rg->rows + 1, g->nx);
    rg->rows++;
    rg->row_line = p->ln.no;
    return 0;
}

/* plane or grid: one of them. */
static int terrain_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    raw_ground *rg = raw;
    int k = key == &ground_keys[G_PLANE] ? G_PLANE : G_GRID, other = k == G_PLANE ? G_GRID : G_PLANE;
    if (rg->seen.line[other]) return mp_fail(p, p->ln.no, kw->col, "the ground has both 'plane' and 'grid': give one");
    return k == G_PLANE ? plane_key(p, &rg->g) : grid_key(p, &rg->g);
}

static int finish_ground(parser *p, void *raw)
{
    raw_ground *rg = raw;
    mech_ground *g = &rg->g;
    if (g->type == MECH_GROUND_NONE)
        return mp_fail(p, g->line, 1, "the ground has no terrain: give 'plane Z' or 'grid NX NY DX DY' and its rows");
    if (g->type == MECH_GROUND_GRID && rg->rows != g->ny)
        return mp_fail(p, rg->rows ? rg->row_line : rg->seen.line[G_GRID], 1, "the grid has %d row%s: NY = %d",
                       rg->rows, rg->rows == 1 ? "" : "s", g->ny);
    if (!rg->seen.line[G_KT]) g->kt = g->kn;
    return 0;
}

void ground_store(parser *p)
{
    if (!p->ground) return;
    p->m->ground = p->ground->g;
    p->ground->g.h = NULL;
}

void ground_parse_free(parser *p)
{
    if (p->ground) free(p->ground->g.h);
    free(p->ground);
}
