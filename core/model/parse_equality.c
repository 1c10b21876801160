/* parse_equality.c — `equality` blocks (docs/mech-format.md, "Equality
 * constraints"): MuJoCo's joint (polynomial coupling) and connect (ball
 * joint closure) equalities, bilateral rows of the constraint solve
 * (core/contact/equality.c) with their own solref and solimp. */
#include "model/parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum { EQ_TYPE, EQ_BODY1, EQ_BODY2, EQ_POLYCOEF, EQ_ANCHOR, EQ_SOLREF, EQ_SOLIMP, EQ_COUNT };

typedef struct raw_equality {
    mech_equality e;
    char body1[MECH_NAME_MAX], body2[MECH_NAME_MAX];
    block_seen seen;
} raw_equality;

static const char *const types[] = { "joint", "connect", NULL };
_Static_assert(sizeof(mech_equality_type) == sizeof(int), "block_word stores an int");

static int finish_equality(parser *p, void *raw);

static const block_key equality_keys[EQ_COUNT] = {
    [EQ_TYPE] = { .word = "type",
                  .read = block_word,
                  .off = offsetof(raw_equality, e.type),
                  .words = types,
                  .what = "equality type",
                  .required = 1 },
    [EQ_BODY1] = { .word = "body1", .read = block_name, .off = offsetof(raw_equality, body1), .required = 1 },
    [EQ_BODY2] = { .word = "body2", .read = block_body_ref, .off = offsetof(raw_equality, body2) },
    [EQ_POLYCOEF] = { NUMBERS("polycoef", raw_equality, e.polycoef, 5, BOUND_ANY) },
    [EQ_ANCHOR] = { NUMBERS("anchor", raw_equality, e.anchor, 3, BOUND_ANY) },
    [EQ_SOLREF] = { NUMBERS("solref", raw_equality, e.solref, 2, BOUND_POSITIVE) },
    [EQ_SOLIMP] = { NUMBERS("solimp", raw_equality, e.solimp, 3, BOUND_POSITIVE) },
};
const block_kind equality_block = { BLOCK_KIND("equality", equality_keys, finish_equality, NULL),
                                    BLOCK_RAW(raw_equality, e.name, e.line) };

/* The type's keys only; MuJoCo's defaults for what is not given. */
static int finish_equality(parser *p, void *raw)
{
    raw_equality *re = raw;
    mech_equality *e = &re->e;
    int other = e->type == MECH_EQ_JOINT ? EQ_ANCHOR : EQ_POLYCOEF;
    if (re->seen.line[other])
        return mp_fail(p, re->seen.line[other], re->seen.col[other], "'%s' is not a key of a %s equality (equality '%s')",
                       equality_keys[other].word, types[e->type], e->name);
    if (e->type == MECH_EQ_CONNECT && !re->seen.line[EQ_ANCHOR])
        return mp_fail(p, e->line, e->col, "connect equality '%s' has no 'anchor'", e->name);
    if (e->type == MECH_EQ_JOINT && !re->seen.line[EQ_POLYCOEF]) e->polycoef[1] = 1.0;
    if (!re->seen.line[EQ_SOLREF]) {
        e->solref[0] = 0.02;
        e->solref[1] = 1.0;
    }
    if (!re->seen.line[EQ_SOLIMP]) {
        e->solimp[0] = 0.9;
        e->solimp[1] = 0.95;
        e->solimp[2] = 0.001;
    }
    for (int k = 0; k < 2; k++)
        if (e->solimp[k] >= 1.0)
            return mp_fail(p, re->seen.line[EQ_SOLIMP], re->seen.val_col[EQ_SOLIMP],
                           "'solimp' of equality '%s': d0 and dwidth must be below 1: got %g %g", e->name, e->solimp[0],
                           e->solimp[1]);
    return 0;
}

/* equality <name> */
int equality_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_equality *re = block_new(p, &equality_block, "equality", kw, (void **)&p->equalities, &p->nequalities,
                                 &p->cap_equalities, MECH_MAX_EQUALITIES, "equalities");
    if (!re) return -1;
    re->e.col = p->open.col;
    return 0;
}

/* A joint equality's body: revolute or prismatic. */
static int coordinate_body(parser *p, const raw_equality *re, int k, int b)
{
    mech_joint_type j = p->m->bodies[b].joint;
    if (j == MECH_JOINT_REVOLUTE || j == MECH_JOINT_PRISMATIC) return 0;
    return mp_fail(p, re->seen.line[k], re->seen.val_col[k],
                   "joint equality '%s' needs revolute or prismatic joints, but body '%s' has a %s joint", re->e.name,
                   p->m->bodies[b].name, mech_joint_name(j));
}

static int store_equality(parser *p, const raw_equality *re, mech_equality *e)
{
    *e = re->e;
    char owner[MECH_NAME_MAX + 16];
    snprintf(owner, sizeof owner, "equality '%s'", e->name);
    if (mp_body_index(p, re->body1, re->seen.line[EQ_BODY1], re->seen.val_col[EQ_BODY1], "body1", owner, &e->a))
        return -1;
    if (e->a < 0)
        return mp_fail(p, re->seen.line[EQ_BODY1], re->seen.val_col[EQ_BODY1],
                       "'body1' of equality '%s' must be a body, not base", e->name);
    e->b = -1;
    if (re->seen.line[EQ_BODY2] &&
        mp_body_index(p, re->body2, re->seen.line[EQ_BODY2], re->seen.val_col[EQ_BODY2], "body2", owner, &e->b))
        return -1;
    if (e->a == e->b)
        return mp_fail(p, re->seen.line[EQ_BODY2], re->seen.val_col[EQ_BODY2],
                       "equality '%s' joins body '%s' to itself", e->name, re->body1);
    if (e->type == MECH_EQ_CONNECT) return 0;
    if (coordinate_body(p, re, EQ_BODY1, e->a)) return -1;
    if (e->b >= 0) return coordinate_body(p, re, EQ_BODY2, e->b);
    if (re->seen.line[EQ_BODY2])
        return mp_fail(p, re->seen.line[EQ_BODY2], re->seen.val_col[EQ_BODY2],
                       "'body2' of joint equality '%s' must be a body, not base (leave it out to hold body1 at c0)",
                       e->name);
    return 0;
}

int equality_store(parser *p)
{
    mech_model *m = p->m;
    if (p->nequalities && !(m->equalities = malloc((size_t)p->nequalities * sizeof *m->equalities)))
        return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nequalities; i++)
        if (store_equality(p, &p->equalities[i], &m->equalities[m->nequality++])) return -1;
    return 0;
}
