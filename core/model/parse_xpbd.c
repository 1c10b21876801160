/* parse_xpbd.c — the XPBD part of the .mech language (docs/mech-format.md,
 * "XPBD scenes"): limit / swing / drive / target / compliance keys in body
 * and loop blocks, the `xpbd` settings block and `servo` blocks.  Values are
 * read in the file's units and converted to SI once the joint type is known
 * (a body's `joint` may come after its XPBD keys). */
#include "model/parse_internal.h"

#include "spatial/spatial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIGNAL_EXPECT "a number or 'sin <amp> <freq> <phase> <offset>'"

/* `servo` block keys: the frames of a loop, then the six rows and compliance. */
enum { T_PRED, T_SUCC, T_PPOS, T_PROT, T_SPOS, T_SROT, T_X, T_Y, T_Z, T_RX, T_RY, T_RZ, T_COMPLIANCE, T_COUNT };

typedef struct raw_servo {
    mech_xtarget t;
    char pred[MECH_NAME_MAX], succ[MECH_NAME_MAX];
    block_seen seen;
} raw_servo;

/* ---- values ---- */

static int nonnegative(parser *p, const lex_tok *t, const char *key, double v)
{
    if (v >= 0.0) return 0;
    return mp_fail(p, p->ln.no, t->col, "'%s' must not be negative: got %g", key, v);
}

/* One signal: a number (constant), sin <amp> <freq> <phase deg> <offset>
 * or ramp <rate per s> <offset>. */
static int read_signal(parser *p, const lex_tok *t, const char *key, mech_signal *s)
{
    if (lex_is(t, "ramp")) {
        s->type = MECH_SIGNAL_RAMP;
        double v[2];
        if (mp_read_numbers(p, key, "ramp <rate> <offset>", v, 2)) return -1;
        s->a[0] = v[0];
        s->a[3] = v[1];
        return 0;
    }
    if (!lex_is(t, "sin")) {
        s->type = MECH_SIGNAL_CONST;
        return mp_to_number(p, t, key, &s->a[3]);
    }
    s->type = MECH_SIGNAL_SIN;
    if (mp_read_numbers(p, key, "sin <amp> <freq> <phase> <offset>", s->a, 4)) return -1;
    if (s->a[1] < 0.0) return mp_fail(p, p->ln.no, t->col, "'%s': sin frequency must not be negative", key);
    s->a[2] *= DEG;
    return 0;
}

/* Amplitude and offset of a signal in the joint's units (phase is already rad). */
static void scale_signal(mech_signal *s, double unit)
{
    s->a[0] *= unit;
    s->a[3] *= unit;
}

/* ---- limit, swing, drive, target, compliance ---- */

static int joint_values(parser *p, int k, const char *key, mech_xjoint *xj, int *ntarget)
{
    lex_tok t;
    double v[2];
    switch (k) {
    case XJ_LIMIT:
        if (mp_read_numbers(p, key, "<lower> <upper>", v, 2) || mp_end_of_line(p, key, "2")) return -1;
        if (!(v[0] < v[1]))
            return mp_fail(p, p->ln.no, p->ln.last_end, "'limit': lower %g must be below upper %g", v[0], v[1]);
        xj->has_limit = 1;
        xj->lower = v[0];
        xj->upper = v[1];
        return 0;
    case XJ_SWING:
        if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &xj->swing)) return -1;
        if (!(xj->swing > 0.0)) return mp_fail(p, p->ln.no, t.col, "'swing' must be > 0: got %g", xj->swing);
        xj->has_swing = 1;
        return mp_end_of_line(p, key, "1");
    case XJ_DRIVE:
        if (mp_next_tok(p, &t, key, "<stiffness> [<damping>]") || mp_to_number(p, &t, key, &xj->stiffness) ||
            nonnegative(p, &t, "stiffness", xj->stiffness))
            return -1;
        if (lex_more(&p->ln) && (mp_next_tok(p, &t, key, "2") || mp_to_number(p, &t, key, &xj->damping) ||
                                 nonnegative(p, &t, "damping", xj->damping)))
            return -1;
        xj->drive = 1;
        return mp_end_of_line(p, key, "<stiffness> [<damping>]");
    case XJ_TARGET:
        *ntarget = 0;
        while (lex_more(&p->ln)) {
            if (*ntarget == 3) return mp_end_of_line(p, key, "at most 3 signals");
            if (mp_next_tok(p, &t, key, SIGNAL_EXPECT) || read_signal(p, &t, key, &xj->target[(*ntarget)++])) return -1;
        }
        if (*ntarget == 0) return mp_next_tok(p, &t, key, SIGNAL_EXPECT);
        return 0;
    default:
        if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &xj->compliance) ||
            nonnegative(p, &t, key, xj->compliance))
            return -1;
        xj->has_compliance = 1;
        return mp_end_of_line(p, key, "1");
    }
}

int xp_joint_key(parser *p, const block_key *key, mech_xjoint *xj, int *ntarget, const lex_tok *kw)
{
    if (!xj->line) {
        xj->line = p->ln.no;
        xj->col = kw->col;
    }
    return joint_values(p, key->arg, key->word, xj, ntarget);
}

/* Keys `allowed` (bit per XJ_ key) for a joint called `what`; units to SI.
 * The keys are the open block's rows first.. (XJ_KEY_ROWS). */
static int check_joint(parser *p, mech_xjoint *xj, int first, int ntarget_given, unsigned allowed, const char *what,
                       const char *block, const char *name, double unit, int ntarget)
{
    const int *line = p->open.seen->line + first, *col = p->open.seen->col + first;
    const block_key *keys = p->open.kind->keys + first;
    for (int k = 0; k < XJ_COUNT; k++)
        if (line[k] && !(allowed >> k & 1u))
            return mp_fail(p, line[k], col[k], "'%s' has no meaning for a %s (%s '%s')", keys[k].word, what, block, name);
    if (line[XJ_TARGET] && !xj->drive)
        return mp_fail(p, line[XJ_TARGET], col[XJ_TARGET], "'target' needs a 'drive' (%s '%s')", block, name);
    if (line[XJ_TARGET] && ntarget_given != ntarget)
        return mp_fail(p, line[XJ_TARGET], col[XJ_TARGET], "'target' of a %s takes %d signal%s, got %d", what, ntarget,
                       ntarget > 1 ? "s" : "", ntarget_given);
    if (line[XJ_COMPLIANCE] && (xj->has_limit || xj->has_swing))
        return mp_fail(p, line[XJ_COMPLIANCE], col[XJ_COMPLIANCE],
                       "'compliance' together with limits is not "
                       "supported (%s '%s')",
                       block, name);
    xj->lower *= unit;
    xj->upper *= unit;
    xj->swing *= DEG;
    for (int k = 0; k < 3; k++) scale_signal(&xj->target[k], unit);
    return 0;
}

#define ALL_1DOF (1u << XJ_LIMIT | 1u << XJ_DRIVE | 1u << XJ_TARGET | 1u << XJ_COMPLIANCE)

int xp_check_body(parser *p, mech_body *b, int first, int nt)
{
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE:
        return check_joint(p, &b->xj, first, nt, ALL_1DOF, "revolute joint", "body", b->name, DEG, 1);
    case MECH_JOINT_PRISMATIC:
        return check_joint(p, &b->xj, first, nt, ALL_1DOF, "prismatic joint", "body", b->name, 1.0, 1);
    case MECH_JOINT_FIXED:
        return check_joint(p, &b->xj, first, nt, 1u << XJ_COMPLIANCE, "fixed joint", "body", b->name, 1.0, 0);
    case MECH_JOINT_SPHERICAL:
        return check_joint(p, &b->xj, first, nt, ALL_1DOF | 1u << XJ_SWING, "spherical joint", "body", b->name, DEG, 3);
    case MECH_JOINT_CYLINDRICAL:
        return check_joint(p, &b->xj, first, nt, 0, "cylindrical joint in XPBD", "body", b->name, 1.0, 0);
    default: return check_joint(p, &b->xj, first, nt, 0, "floating joint", "body", b->name, 1.0, 0);
    }
}

int xp_check_loop(parser *p, mech_loop *l, int first, int nt)
{
    switch (l->type) {
    case MECH_LOOP_REVOLUTE:
        return check_joint(p, &l->xj, first, nt, ALL_1DOF, "revolute loop", "loop", l->name, DEG, 1);
    case MECH_LOOP_PRISMATIC:
        return check_joint(p, &l->xj, first, nt, ALL_1DOF, "prismatic loop", "loop", l->name, 1.0, 1);
    case MECH_LOOP_SPHERICAL:
        return check_joint(p, &l->xj, first, nt, ALL_1DOF | 1u << XJ_SWING, "spherical loop", "loop", l->name, DEG, 3);
    case MECH_LOOP_CYLINDRICAL:
        return check_joint(p, &l->xj, first, nt, 0, "cylindrical loop in XPBD", "loop", l->name, 1.0, 0);
    case MECH_LOOP_POINT_ON_LINE:
        return check_joint(p, &l->xj, first, nt, 0, "point-on-line loop in XPBD", "loop", l->name, 1.0, 0);
    default: return check_joint(p, &l->xj, first, nt, 0, "distance loop in XPBD", "loop", l->name, 1.0, 0);
    }
}

/* ---- the xpbd block ---- */

static int dt_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);

static const char *const modes[] = { "rows", "block", "scalar", NULL };
_Static_assert(sizeof(mech_xpbd_mode) == sizeof(int), "block_word stores an int");

static const block_key xpbd_keys[XP_SET_COUNT] = {
    [XP_DT] = { .word = "dt", .read = dt_key },
    [XP_SUBSTEPS] = { .word = "substeps",
                      .read = block_count,
                      .off = offsetof(mech_xpbd_settings, substeps),
                      .arg = MECH_XPBD_MAX_SUBSTEPS },
    [XP_ITERATIONS] = { .word = "iterations",
                        .read = block_count,
                        .off = offsetof(mech_xpbd_settings, iterations),
                        .arg = MECH_XPBD_MAX_ITERATIONS },
    [XP_MODE] = { .word = "mode",
                  .read = block_word,
                  .off = offsetof(mech_xpbd_settings, mode),
                  .words = modes,
                  .what = "mode" },
};
const block_kind xpbd_block = { BLOCK_KIND("xpbd", xpbd_keys, NULL, NULL) };

int xp_top_xpbd(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    p->m->xpbd.line = p->ln.no;
    block_open(p, &xpbd_block, &p->m->xpbd, &p->xpbd_seen, NULL, kw->col);
    return mp_end_of_line(p, "xpbd", "no values");
}

static int dt_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_xpbd_settings *s = raw;
    lex_tok t;
    if (mp_next_tok(p, &t, "dt", "1") || mp_to_number(p, &t, "dt", &s->dt)) return -1;
    if (!(s->dt > 0.0 && s->dt <= 1.0)) return mp_fail(p, p->ln.no, t.col, "'dt' must be in (0, 1] s: got %g", s->dt);
    return mp_end_of_line(p, "dt", "1");
}

/* ---- servo blocks ---- */

static int signal_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_servo(parser *p, void *raw);

/* x y z rx ry rz: .arg is the row (rx ry rz in degrees). */
static const block_key servo_keys[T_COUNT] = {
    [T_PRED] = { .word = "pred", .read = block_body_ref, .off = offsetof(raw_servo, pred) },
    [T_SUCC] = { .word = "succ", .read = block_body_ref, .off = offsetof(raw_servo, succ), .required = 1 },
    [T_PPOS] = { NUMBERS("ppos", raw_servo, t.ppos, 3, BOUND_ANY) },
    [T_PROT] = { .word = "prot", .read = block_rotation, .off = offsetof(raw_servo, t.prot) },
    [T_SPOS] = { NUMBERS("spos", raw_servo, t.spos, 3, BOUND_ANY) },
    [T_SROT] = { .word = "srot", .read = block_rotation, .off = offsetof(raw_servo, t.srot) },
    [T_X] = { .word = "x", .read = signal_key, .arg = 0 },
    [T_Y] = { .word = "y", .read = signal_key, .arg = 1 },
    [T_Z] = { .word = "z", .read = signal_key, .arg = 2 },
    [T_RX] = { .word = "rx", .read = signal_key, .arg = 3 },
    [T_RY] = { .word = "ry", .read = signal_key, .arg = 4 },
    [T_RZ] = { .word = "rz", .read = signal_key, .arg = 5 },
    [T_COMPLIANCE] = { NUMBERS("compliance", raw_servo, t.compliance, 1, BOUND_NONNEGATIVE) },
};
const block_kind servo_block = { BLOCK_KIND("servo", servo_keys, finish_servo, NULL),
                                 BLOCK_RAW(raw_servo, t.name, t.line) };

int xp_top_servo(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_servo *rt = block_new(p, &servo_block, "servo", kw, (void **)&p->servos, &p->nservos, &p->cap_servos,
                              MECH_MAX_LOOPS, "servos");
    if (!rt) return -1;
    rt->t.col = p->open.col;
    memcpy(rt->pred, "base", 5);
    m3_identity(rt->t.prot);
    m3_identity(rt->t.srot);
    return 0;
}

static int signal_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    raw_servo *rt = raw;
    int row = key->arg;
    mech_signal *s = &rt->t.value[row];
    lex_tok t;
    if (mp_next_tok(p, &t, key->word, SIGNAL_EXPECT) || read_signal(p, &t, key->word, s)) return -1;
    if (row >= 3) scale_signal(s, DEG);
    rt->t.rows |= 1u << row;
    return mp_end_of_line(p, key->word, SIGNAL_EXPECT);
}

static int finish_servo(parser *p, void *raw)
{
    raw_servo *rt = raw;
    if (!rt->t.rows)
        return mp_fail(p, rt->t.line, rt->t.col, "servo '%s' drives no row: give x, y, z, rx, ry or rz", rt->t.name);
    if (strcmp(rt->pred, rt->succ) == 0)
        return mp_fail(p, rt->seen.line[T_SUCC], rt->seen.val_col[T_SUCC], "servo '%s' joins '%s' to itself",
                       rt->t.name, rt->succ);
    return 0;
}

int xp_store_servos(parser *p)
{
    mech_model *m = p->m;
    if (p->nservos == 0) return 0;
    m->xtargets = malloc((size_t)p->nservos * sizeof *m->xtargets);
    if (!m->xtargets) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nservos; i++) {
        raw_servo *rt = &p->servos[i];
        mech_xtarget *t = &m->xtargets[i];
        *t = rt->t;
        const block_seen *s = &rt->seen;
        char owner[MECH_NAME_MAX + 8];
        snprintf(owner, sizeof owner, "servo '%s'", t->name);
        if (mp_body_index(p, rt->pred, s->line[T_PRED], s->val_col[T_PRED], "pred", owner, &t->pred) ||
            mp_body_index(p, rt->succ, s->line[T_SUCC], s->val_col[T_SUCC], "succ", owner, &t->succ))
            return -1;
        m->nxtarget++;
    }
    return 0;
}

/* Work units of one XPBD step (docs/mech-format.md, "XPBD scenes"): per
 * substep and iteration each body and joint is one unit and each rod element
 * MECH_XPBD_ROD_ELEMENT_WORK units, about what a cubic, fully integrated
 * element costs against a joint, so that the cap bounds a step's time whatever
 * the scene is made of (the figures: docs/benchmarks.md, "Measured reasons in
 * the code").  The place of the error is the value that sets the count:
 * substeps, else iterations, else the largest rod's size. */
int xp_check_work(parser *p)
{
    const mech_model *m = p->m;
    double joints = m->nloop + m->nxtarget, elements = 0;
    int big = -1;
    for (int i = 0; i < m->nb; i++) joints += m->bodies[i].joint != MECH_JOINT_FLOATING;
    for (int i = 0; i < m->nrod; i++) {
        elements += m->rods[i].elements;
        if (big < 0 || m->rods[i].elements > m->rods[big].elements) big = i;
    }
    double per_sweep = m->nb + joints + MECH_XPBD_ROD_ELEMENT_WORK * elements;
    double work = (double)m->xpbd.substeps * m->xpbd.iterations * per_sweep;
    if (work <= MECH_XPBD_MAX_WORK) return 0;
    int line, col;
    const block_seen *s = &p->xpbd_seen;
    if (s->line[XP_SUBSTEPS] || s->line[XP_ITERATIONS]) {
        int k = s->line[XP_SUBSTEPS] ? XP_SUBSTEPS : XP_ITERATIONS;
        line = s->line[k];
        col = s->val_col[k];
    } else {
        rod_size_place(p, big, &line, &col);
    }
    return mp_fail(p, line, col,
                   "one XPBD step is too much work: substeps %d x iterations %d x (bodies %d + joints %.0f + "
                   "%d x rod elements %.0f) = %.3g units, at most %.0e",
                   m->xpbd.substeps, m->xpbd.iterations, m->nb, joints, MECH_XPBD_ROD_ELEMENT_WORK, elements, work,
                   MECH_XPBD_MAX_WORK);
}
