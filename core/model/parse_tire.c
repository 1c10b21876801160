/* parse_tire.c — `tire` blocks (docs/mech-format.md, "Tires"): a wheel body
 * and the Fiala parameters of its tire (after Project Chrono's Fiala tire
 * data: unloaded radius, width, vertical curve or stiffness, damping, CSLIP,
 * CALPHA, UMIN, UMAX, rolling resistance, relaxation lengths).  Stored here;
 * core/contact/tire.c evaluates the law. */
#include "model/parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    TR_WHEEL,
    TR_RADIUS,
    TR_WIDTH,
    TR_CURVE,
    TR_KZ,
    TR_CZ,
    TR_CSLIP,
    TR_CALPHA,
    TR_U,
    TR_MU,
    TR_ROLLING,
    TR_RELAX,
    TR_COUNT
};

typedef struct raw_tire {
    mech_tire t;
    char wheel[MECH_NAME_MAX];
    block_seen seen;
} raw_tire;

static int curve_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int u_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_tire(parser *p, void *raw);

#define POSITIVE(w, field, n) NUMBERS(w, raw_tire, t.field, n, BOUND_POSITIVE)
_Static_assert(TR_COUNT <= BLOCK_MAX_KEYS, "block_seen holds every row");
static const block_key tire_keys[TR_COUNT] = {
    [TR_WHEEL] = { .word = "wheel", .read = block_name, .off = offsetof(raw_tire, wheel), .required = 1 },
    [TR_RADIUS] = { POSITIVE("radius", radius, 1), .required = 1 },
    [TR_WIDTH] = { POSITIVE("width", width, 1), .required = 1 },
    [TR_CURVE] = { .word = "curve", .read = curve_key },
    [TR_KZ] = { POSITIVE("kz", kz, 1) },
    [TR_CZ] = { NUMBERS("cz", raw_tire, t.cz, 1, BOUND_NONNEGATIVE) },
    [TR_CSLIP] = { POSITIVE("cslip", cslip, 1), .required = 1 },
    [TR_CALPHA] = { POSITIVE("calpha", calpha, 1), .required = 1 },
    [TR_U] = { .word = "u", .read = u_key, .required = 1 },
    [TR_MU] = { POSITIVE("mu", mu, 1) },
    [TR_ROLLING] = { NUMBERS("rolling", raw_tire, t.rolling, 1, BOUND_NONNEGATIVE) },
    [TR_RELAX] = { POSITIVE("relax", relax_x, 2), .required = 1 },
};
_Static_assert(offsetof(mech_tire, relax_y) == offsetof(mech_tire, relax_x) + sizeof(double), "relax X Y");
const block_kind tire_block = { BLOCK_KIND("tire", tire_keys, finish_tire, NULL), BLOCK_RAW(raw_tire, t.name, t.line) };

int tire_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_tire *rt =
        block_new(p, &tire_block, "tire", kw, (void **)&p->tires, &p->ntires, &p->cap_tires, MECH_MAX_TIRES, "tires");
    if (!rt) return -1;
    rt->t.col = p->open.col;
    return 0;
}

/* curve D1 F1 D2 F2 ...: the vertical force F (N) at deflection D (m),
 * from (0, 0), deflections increasing, forces not decreasing. */
static int curve_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_tire *t = &((raw_tire *)raw)->t;
    lex_tok tok;
    while (lex_next(&p->ln, &tok)) {
        if (t->ncurve == MECH_MAX_TIRE_CURVE)
            return mp_fail(p, p->ln.no, tok.col, "too many curve points: at most %d", MECH_MAX_TIRE_CURVE);
        double *c = t->curve[t->ncurve];
        int col = tok.col;
        if (mp_to_number(p, &tok, "curve", &c[0])) return -1;
        if (mp_next_tok(p, &tok, "curve", "a force after each deflection") || mp_to_number(p, &tok, "curve", &c[1]))
            return -1;
        if (t->ncurve == 0 && (c[0] != 0 || c[1] != 0))
            return mp_fail(p, p->ln.no, col, "the curve starts at deflection 0, force 0: got %g %g", c[0], c[1]);
        if (t->ncurve > 0 && (!(c[0] > c[-2]) || !(c[1] >= c[-1])))
            return mp_fail(p, p->ln.no, col,
                           "curve point %d (%g %g): deflections must increase and forces must not decrease",
                           t->ncurve + 1, c[0], c[1]);
        t->ncurve++;
    }
    if (t->ncurve < 2)
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "a curve needs at least 2 points (deflection, force pairs)");
    return 0;
}

/* u UMIN UMAX: the friction at full slip and at none, 0 < UMIN <= UMAX. */
static int u_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_tire *t = &((raw_tire *)raw)->t;
    if (block_number(p, "u", "UMIN UMAX", BOUND_POSITIVE, &t->umin) ||
        block_number(p, "u", "UMIN UMAX", BOUND_POSITIVE, &t->umax))
        return -1;
    if (t->umin > t->umax)
        return mp_fail(p, p->ln.no, lex_end_col(&p->ln), "u UMIN UMAX: UMIN %g is above UMAX %g", t->umin, t->umax);
    return mp_end_of_line(p, "u", "UMIN UMAX");
}

static int finish_tire(parser *p, void *raw)
{
    raw_tire *rt = raw;
    mech_tire *t = &rt->t;
    if (!rt->seen.line[TR_CURVE] && !rt->seen.line[TR_KZ])
        return mp_fail(p, t->line, t->col, "tire '%s' has no vertical law: give 'curve D F ...' or 'kz K'", t->name);
    if (rt->seen.line[TR_CURVE] && rt->seen.line[TR_KZ])
        return mp_fail(p, rt->seen.line[TR_KZ], rt->seen.col[TR_KZ],
                       "tire '%s' has both 'curve' and 'kz': give one vertical law", t->name);
    if (!rt->seen.line[TR_MU]) t->mu = 1.0;
    return 0;
}

/* The wheel must be a revolute body that reads its fext, on a ground. */
static int wheel_check(parser *p, raw_tire *rt)
{
    mech_tire *t = &rt->t;
    int line = rt->seen.line[TR_WHEEL], col = rt->seen.val_col[TR_WHEEL];
    char owner[MECH_NAME_MAX + 8];
    snprintf(owner, sizeof owner, "tire '%s'", t->name);
    if (mp_body_index(p, rt->wheel, line, col, "wheel", owner, &t->body)) return -1;
    if (t->body < 0) return mp_fail(p, line, col, "the wheel of tire '%s' must be a body, not base", t->name);
    const mech_body *b = &p->m->bodies[t->body];
    if (b->joint != MECH_JOINT_REVOLUTE)
        return mp_fail(p, line, col, "the wheel '%s' of tire '%s' must have a revolute joint (its axis is the spin axis)",
                       b->name, t->name);
    if (!b->fext)
        return mp_fail(p, line, col,
                       "the wheel '%s' of tire '%s' must read its fext ('fext 1'): the tire's force reaches it only "
                       "through fext",
                       b->name, t->name);
    if (p->m->ground.type == MECH_GROUND_NONE)
        return mp_fail(p, t->line, t->col, "tire '%s' has no ground to roll on: add a 'ground' block", t->name);
    for (int i = 0; i < p->m->ntire; i++)
        if (p->m->tires[i].body == t->body)
            return mp_fail(p, line, col, "wheel '%s' already carries tire '%s'", b->name, p->m->tires[i].name);
    return 0;
}

int tire_store(parser *p)
{
    mech_model *m = p->m;
    if (p->ntires == 0) return 0;
    m->tires = calloc((size_t)p->ntires, sizeof *m->tires);
    if (!m->tires) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->ntires; i++) {
        if (wheel_check(p, &p->tires[i])) return -1;
        m->tires[m->ntire++] = p->tires[i].t;
    }
    return 0;
}
