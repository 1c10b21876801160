/* parse_loop.c — `loop` blocks (docs/mech-format.md, "Closed loops"): a
 * joint between two bodies that closes a kinematic loop, stored in file
 * order with its bodies by name. */
#include "model/parse_internal.h"
#include "spatial/spatial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the loop table, in the order "expected one of" lists them. */
enum {
    L_TYPE,
    L_PRED,
    L_SUCC,
    L_PPOS,
    L_PROT,
    L_PAXIS,
    L_SPOS,
    L_SROT,
    L_SAXIS,
    L_LENGTH,
    L_STAB,
    L_XJ,
    L_COUNT = L_XJ + XJ_COUNT
};

typedef struct raw_loop {
    mech_loop l;
    char pred[MECH_NAME_MAX], succ[MECH_NAME_MAX];
    block_seen seen;
    int ntarget; /* signals on the target line */
} raw_loop;

/* mech_loop_type's order, and the constraint rows of each type. */
static const char *const loop_types[] = { "revolute",      "prismatic", "cylindrical", "spherical",
                                          "point-on-line", "distance",  NULL };
static const int loop_nc[] = { 5, 5, 4, 3, 2, 1 };
_Static_assert(sizeof(mech_loop_type) == sizeof(int), "block_word stores an int");

static int frame_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int xpbd_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_loop(parser *p, void *raw);

/* prot / paxis (srot / saxis) orient the same frame: .arg is the other key. */
static const block_key loop_keys[L_COUNT] = {
    [L_TYPE] = { .word = "type",
                 .read = block_word,
                 .off = offsetof(raw_loop, l.type),
                 .words = loop_types,
                 .what = "loop type",
                 .required = 1 },
    [L_PRED] = { .word = "pred", .read = block_body_ref, .off = offsetof(raw_loop, pred), .required = 1 },
    [L_SUCC] = { .word = "succ", .read = block_body_ref, .off = offsetof(raw_loop, succ), .required = 1 },
    [L_PPOS] = { NUMBERS("ppos", raw_loop, l.ppos, 3, BOUND_ANY) },
    [L_PROT] = { .word = "prot", .read = frame_key, .off = offsetof(raw_loop, l.prot), .arg = L_PAXIS },
    [L_PAXIS] = { .word = "paxis", .read = frame_key, .off = offsetof(raw_loop, l.prot), .arg = L_PROT },
    [L_SPOS] = { NUMBERS("spos", raw_loop, l.spos, 3, BOUND_ANY) },
    [L_SROT] = { .word = "srot", .read = frame_key, .off = offsetof(raw_loop, l.srot), .arg = L_SAXIS },
    [L_SAXIS] = { .word = "saxis", .read = frame_key, .off = offsetof(raw_loop, l.srot), .arg = L_SROT },
    [L_LENGTH] = { NUMBERS("length", raw_loop, l.length, 1, BOUND_POSITIVE) },
    [L_STAB] = { NUMBERS("stab", raw_loop, l.stab, 1, BOUND_POSITIVE) },
    XJ_KEY_ROWS(L_XJ, xpbd_key),
};
const block_kind loop_block = { BLOCK_KIND("loop", loop_keys, finish_loop, NULL), BLOCK_RAW(raw_loop, l.name, l.line) };

static int frame_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    raw_loop *rl = raw;
    if (rl->seen.line[key->arg])
        return mp_fail(p, p->ln.no, kw->col, "'%s' and '%s' both orient the loop frame in loop '%s': give one",
                       loop_keys[key->arg].word, key->word, rl->l.name);
    int is_axis = key == &loop_keys[L_PAXIS] || key == &loop_keys[L_SAXIS];
    return is_axis ? block_axis_frame(p, raw, key, kw) : block_rotation(p, raw, key, kw);
}

static int xpbd_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    raw_loop *rl = raw;
    return xp_joint_key(p, key, &rl->l.xj, &rl->ntarget, kw);
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

static int finish_loop(parser *p, void *raw)
{
    raw_loop *rl = raw;
    const block_seen *s = &rl->seen;
    for (int k = 0; k < L_COUNT; k++)
        if (s->line[k] && !loop_key_allowed(rl->l.type, k))
            return mp_fail(p, s->line[k], s->col[k], "'%s' has no meaning for a %s loop (loop '%s')", loop_keys[k].word,
                           loop_types[rl->l.type], rl->l.name);
    if (rl->l.type == MECH_LOOP_DISTANCE && !s->line[L_LENGTH])
        return mp_fail(p, rl->l.line, rl->l.col, "distance loop '%s' has no 'length'", rl->l.name);
    if (strcmp(rl->pred, rl->succ) == 0)
        return mp_fail(p, s->line[L_SUCC], s->val_col[L_SUCC], "loop '%s' joins '%s' to itself", rl->l.name, rl->succ);
    if (xp_check_loop(p, &rl->l, L_XJ, rl->ntarget)) return -1;
    rl->l.nc = loop_nc[rl->l.type];
    return 0;
}

int loop_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_loop *rl =
        block_new(p, &loop_block, "loop", kw, (void **)&p->loops, &p->nloops, &p->cap_loops, MECH_MAX_LOOPS, "loops");
    if (!rl) return -1;
    rl->l.col = p->open.col;
    rl->l.stab = 0.1;
    m3_identity(rl->l.prot);
    m3_identity(rl->l.srot);
    return 0;
}

/* pred / succ names to stored body indices (-1 = base), rows in K in file order. */
int loop_store(parser *p)
{
    mech_model *m = p->m;
    if (p->nloops == 0) return 0;
    m->loops = malloc((size_t)p->nloops * sizeof *m->loops);
    if (!m->loops) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nloops; i++) {
        raw_loop *rl = &p->loops[i];
        mech_loop *l = &m->loops[i];
        *l = rl->l;
        const block_seen *s = &rl->seen;
        char owner[MECH_NAME_MAX + 8];
        snprintf(owner, sizeof owner, "loop '%s'", l->name);
        if (mp_body_index(p, rl->pred, s->line[L_PRED], s->val_col[L_PRED], "pred", owner, &l->pred) ||
            mp_body_index(p, rl->succ, s->line[L_SUCC], s->val_col[L_SUCC], "succ", owner, &l->succ))
            return -1;
        l->cidx = m->nc;
        m->nc += l->nc;
        m->nloop++;
    }
    return 0;
}
