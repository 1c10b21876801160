/* parse_springs.c — the force elements (docs/mech-format.md, "Force
 * elements"): `tsda` blocks (a translational spring-damper-actuator between
 * two pois) and `rsda` blocks (a rotational one on a body's joint), stored
 * in file order; an `input` takes the next actuator slot. */
#include "model/parse_internal.h"

#include <stdlib.h>
#include <string.h>

/* Rows of the tsda and rsda tables. */
enum { TS_FROM, TS_TO, TS_K, TS_C, TS_L0, TS_INPUT, TS_COUNT };
enum { RS_JOINT, RS_K, RS_C, RS_Q0, RS_INPUT, RS_COUNT };

typedef struct raw_elem {
    int rsda; /* 0 tsda, 1 rsda */
    char name[MECH_NAME_MAX];
    char from[MECH_NAME_MAX], to[MECH_NAME_MAX]; /* tsda: pois */
    char joint[MECH_NAME_MAX];                   /* rsda: a body */
    double k, c, l0, q0;
    int input;
    int name_col, line;
    block_seen seen;
} raw_elem;

static int finish_tsda(parser *p, void *raw);

static const block_key tsda_keys[TS_COUNT] = {
    [TS_FROM] = { .word = "from", .read = block_name, .off = offsetof(raw_elem, from), .required = 1 },
    [TS_TO] = { .word = "to", .read = block_name, .off = offsetof(raw_elem, to), .required = 1 },
    [TS_K] = { NUMBERS("k", raw_elem, k, 1, BOUND_NONNEGATIVE), .required = 1 },
    [TS_C] = { NUMBERS("c", raw_elem, c, 1, BOUND_NONNEGATIVE), .required = 1 },
    [TS_L0] = { NUMBERS("l0", raw_elem, l0, 1, BOUND_NONNEGATIVE), .required = 1 },
    [TS_INPUT] = { .word = "input", .read = block_flag, .off = offsetof(raw_elem, input) },
};
static const block_key rsda_keys[RS_COUNT] = {
    [RS_JOINT] = { .word = "joint", .read = block_name, .off = offsetof(raw_elem, joint), .required = 1 },
    [RS_K] = { NUMBERS("k", raw_elem, k, 1, BOUND_NONNEGATIVE), .required = 1 },
    [RS_C] = { NUMBERS("c", raw_elem, c, 1, BOUND_NONNEGATIVE), .required = 1 },
    [RS_Q0] = { NUMBERS("q0", raw_elem, q0, 1, BOUND_ANY) },
    [RS_INPUT] = { .word = "input", .read = block_flag, .off = offsetof(raw_elem, input) },
};
const block_kind tsda_block = { BLOCK_KIND("tsda", tsda_keys, finish_tsda, NULL), BLOCK_RAW(raw_elem, name, line) };
const block_kind rsda_block = { BLOCK_KIND("rsda", rsda_keys, NULL, NULL), BLOCK_RAW(raw_elem, name, line) };

static int finish_tsda(parser *p, void *raw)
{
    raw_elem *re = raw;
    if (strcmp(re->from, re->to) == 0)
        return mp_fail(p, re->seen.line[TS_TO], re->seen.val_col[TS_TO], "tsda '%s' has both ends at poi '%s'",
                       re->name, re->to);
    return 0;
}

/* tsda <name> / rsda <name> */
int springs_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    int rsda = lex_is(kw, "rsda");
    raw_elem *re = block_new(p, rsda ? &rsda_block : &tsda_block, "force element", kw, (void **)&p->elems, &p->nelems,
                             &p->cap_elems, MECH_MAX_ELEMENTS, "force elements");
    if (!re) return -1;
    re->rsda = rsda;
    re->name_col = p->open.col;
    return 0;
}

/* ---- into the model ---- */

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
    t->k = re->k;
    t->c = re->c;
    t->l0 = re->l0;
    t->line = re->line;
    t->col = re->name_col;
    for (int k = TS_FROM; k <= TS_TO; k++) {
        const char *poi = k == TS_FROM ? re->from : re->to;
        int i = find_poi(m, poi);
        if (i < 0)
            return mp_fail(p, re->seen.line[k], re->seen.val_col[k], "unknown poi '%s' for '%s' in tsda '%s'", poi,
                           tsda_keys[k].word, re->name);
        if (k == TS_FROM) t->poi_a = i;
        else t->poi_b = i;
    }
    if (m->pois[t->poi_a].body == m->pois[t->poi_b].body)
        return mp_fail(p, re->seen.line[TS_TO], re->seen.val_col[TS_TO],
                       "tsda '%s' joins two points of the same "
                       "body: it would exert no force",
                       re->name);
    return 0;
}

static int store_rsda(parser *p, const raw_elem *re, mech_rsda *r)
{
    mech_model *m = p->m;
    int line = re->seen.line[RS_JOINT], col = re->seen.val_col[RS_JOINT];
    memcpy(r->name, re->name, sizeof r->name);
    r->k = re->k;
    r->c = re->c;
    r->line = re->line;
    r->col = re->name_col;
    r->body = mech_model_body_find(m, re->joint);
    if (r->body < 0) return mp_fail(p, line, col, "unknown body '%s' for 'joint' in rsda '%s'", re->joint, re->name);
    mech_joint_type j = m->bodies[r->body].joint;
    if (j != MECH_JOINT_REVOLUTE && j != MECH_JOINT_PRISMATIC)
        return mp_fail(p, line, col, "rsda '%s' needs a revolute or prismatic joint, but body '%s' has a %s joint",
                       re->name, re->joint, mech_joint_name(j));
    r->q0 = re->q0 * (j == MECH_JOINT_REVOLUTE ? DEG : 1.0);
    return 0;
}

/* Elements in file order; inputs get act slots in that order. */
int springs_store(parser *p)
{
    mech_model *m = p->m;
    int nt = 0, nr = 0;
    for (int i = 0; i < p->nelems; i++) {
        nr += p->elems[i].rsda;
        nt += !p->elems[i].rsda;
    }
    if (nt) m->tsdas = malloc((size_t)nt * sizeof *m->tsdas);
    if (nr) m->rsdas = malloc((size_t)nr * sizeof *m->rsdas);
    if ((nt && !m->tsdas) || (nr && !m->rsdas)) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nelems; i++) {
        const raw_elem *re = &p->elems[i];
        int act = re->input ? m->nact++ : -1;
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
