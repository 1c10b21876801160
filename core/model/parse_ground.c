/* parse_ground.c — the `ground` block (docs/mech-format.md, "Ground"): the
 * terrain (a sloped plane or a height grid) and its contact material.  The
 * terrain is only stored here; core/contact evaluates it. */
#include "model/parse_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { G_PLANE, G_GRID, G_KN, G_KT, G_MU, G_ZETA, G_VEPS, G_FRICTION, G_COUNT };
static const char *const ground_keys[G_COUNT] = { "plane", "grid", "kn", "kt", "mu", "zeta", "veps", "friction" };
#define GROUND_KEYS "plane grid row kn kt mu zeta veps friction end"

typedef struct raw_ground {
    mech_ground g;
    int key_line[G_COUNT], key_col[G_COUNT];
    int rows, row_line;        /* `row` lines read, the last one's line */
    int open;                  /* 1 while the block is open */
} raw_ground;

int ground_top(parser *p, const lex_tok *kw)
{
    if (p->ground)
        return mp_fail(p, p->ln.no, kw->col, "duplicate 'ground' (first on line %d): one ground per file",
                       p->ground->g.line);
    if (lex_more(&p->ln))
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln) + 1, "'ground' opens a block and takes no values: write "
                       "'ground', then 'plane Z' (or 'grid ...' and its rows) and the material, then 'end'");
    p->ground = calloc(1, sizeof *p->ground);
    if (!p->ground) return mp_fail(p, 0, 0, "out of memory");
    mech_ground *g = &p->ground->g;
    g->line = p->ln.no;
    g->zeta = 0.5;
    g->veps = 0.01;
    g->friction = MECH_FRICTION_REGULARIZED;
    p->ground->open = 1;
    p->block = B_GROUND;
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
        return mp_fail(p, p->ln.no, p->ground->key_col[G_GRID], "grid of %g x %g samples: at most %d", v[0], v[1],
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
static int row_line(parser *p, raw_ground *rg, const lex_tok *kw)
{
    mech_ground *g = &rg->g;
    if (g->type != MECH_GROUND_GRID)
        return mp_fail(p, p->ln.no, kw->col, "'row' before 'grid NX NY DX DY' in the ground block");
    if (rg->rows == g->ny)
        return mp_fail(p, p->ln.no, kw->col, "too many rows: the grid has NY = %d", g->ny);
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

static int friction_key(parser *p, mech_ground *g)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "friction", "regularized or anchored")) return -1;
    if (lex_is(&t, "regularized")) g->friction = MECH_FRICTION_REGULARIZED;
    else if (lex_is(&t, "anchored")) g->friction = MECH_FRICTION_ANCHORED;
    else return mp_fail_at(p, &t, "unknown friction ", ": expected regularized or anchored");
    return mp_end_of_line(p, "friction", "1");
}

static int ground_key(parser *p, raw_ground *rg, int k)
{
    mech_ground *g = &rg->g;
    if (k == G_PLANE || k == G_GRID) {
        int other = k == G_PLANE ? G_GRID : G_PLANE;
        if (rg->key_line[other])
            return mp_fail(p, p->ln.no, rg->key_col[k], "the ground has both 'plane' and 'grid': give one");
        return k == G_PLANE ? plane_key(p, g) : grid_key(p, g);
    }
    if (k == G_FRICTION) return friction_key(p, g);
    double *dst[G_COUNT] = { [G_KN] = &g->kn, [G_KT] = &g->kt, [G_MU] = &g->mu, [G_ZETA] = &g->zeta,
                             [G_VEPS] = &g->veps };
    lex_tok t;
    if (number(p, ground_keys[k], "1", &t, dst[k])) return -1;
    int positive = k != G_MU && k != G_ZETA;
    if (positive ? !(*dst[k] > 0.0) : !(*dst[k] >= 0.0))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be %s: got %g", ground_keys[k],
                       positive ? "positive" : "non-negative", *dst[k]);
    return mp_end_of_line(p, ground_keys[k], "1");
}

static int finish_ground(parser *p, raw_ground *rg)
{
    mech_ground *g = &rg->g;
    if (mp_end_of_line(p, "end", "no values")) return -1;
    if (g->type == MECH_GROUND_NONE)
        return mp_fail(p, g->line, 1, "the ground has no terrain: give 'plane Z' or 'grid NX NY DX DY' and its rows");
    if (g->type == MECH_GROUND_GRID && rg->rows != g->ny)
        return mp_fail(p, rg->rows ? rg->row_line : rg->key_line[G_GRID], 1, "the grid has %d row%s: NY = %d",
                       rg->rows, rg->rows == 1 ? "" : "s", g->ny);
    static const int required[] = { G_KN, G_MU };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rg->key_line[required[i]])
            return mp_fail(p, g->line, 1, "the ground has no '%s'", ground_keys[required[i]]);
    if (!rg->key_line[G_KT]) g->kt = g->kn;
    rg->open = 0;
    p->block = B_NONE;
    return 0;
}

int ground_line(parser *p, const lex_tok *kw)
{
    raw_ground *rg = p->ground;
    if (lex_is(kw, "end")) return finish_ground(p, rg);
    if (lex_is(kw, "row")) return row_line(p, rg, kw);
    for (int k = 0; k < G_COUNT; k++) {
        if (!lex_is(kw, ground_keys[k])) continue;
        if (rg->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in the ground (first on line %d)", ground_keys[k],
                           rg->key_line[k]);
        rg->key_line[k] = p->ln.no;
        rg->key_col[k] = kw->col;
        return ground_key(p, rg, k);
    }
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside the ground block: missing 'end'", kw->n, kw->s);
    return mp_fail_at(p, kw, "unknown keyword ", " in ground: expected one of: " GROUND_KEYS);
}

int ground_unclosed(parser *p)
{
    if (p->block != B_GROUND) return 0;
    return mp_fail(p, p->ground->g.line, 1, "the ground block has no 'end' before the end of the file");
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
