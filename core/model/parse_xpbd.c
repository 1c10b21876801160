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

static const char *const xj_keys[XJ_COUNT] = { "limit", "swing", "drive", "target", "compliance" };
static const char *const set_keys[XP_SET_COUNT] = { "dt", "substeps", "iterations", "mode" };
static const char *const modes[] = { "rows", "block", "scalar" };
static const char *const servo_keys[T_COUNT] = {
    "pred", "succ", "ppos", "prot", "spos", "srot", "x", "y", "z", "rx", "ry", "rz", "compliance"
};

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

static int joint_key(parser *p, int k, mech_xjoint *xj, int *ntarget)
{
    const char *key = xj_keys[k];
    lex_tok t;
    double v[2];
    switch (k) {
    case XJ_LIMIT:
        if (mp_read_numbers(p, key, "<lower> <upper>", v, 2) || mp_end_of_line(p, key, "2")) return -1;
        if (!(v[0] < v[1])) return mp_fail(p, p->ln.no, p->ln.last_end, "'limit': lower %g must be below upper %g",
                                           v[0], v[1]);
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
            nonnegative(p, &t, "stiffness", xj->stiffness)) return -1;
        if (lex_more(&p->ln) && (mp_next_tok(p, &t, key, "2") || mp_to_number(p, &t, key, &xj->damping) ||
                                 nonnegative(p, &t, "damping", xj->damping))) return -1;
        xj->drive = 1;
        return mp_end_of_line(p, key, "<stiffness> [<damping>]");
    case XJ_TARGET:
        *ntarget = 0;
        while (lex_more(&p->ln)) {
            if (*ntarget == 3) return mp_end_of_line(p, key, "at most 3 signals");
            if (mp_next_tok(p, &t, key, SIGNAL_EXPECT) || read_signal(p, &t, key, &xj->target[(*ntarget)++]))
                return -1;
        }
        if (*ntarget == 0) return mp_next_tok(p, &t, key, SIGNAL_EXPECT);
        return 0;
    default:
        if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &xj->compliance) ||
            nonnegative(p, &t, key, xj->compliance)) return -1;
        xj->has_compliance = 1;
        return mp_end_of_line(p, key, "1");
    }
}

int xp_joint_line(parser *p, const lex_tok *kw, mech_xjoint *xj, raw_xj *rx, const char *block, const char *name)
{
    for (int k = 0; k < XJ_COUNT; k++) {
        if (!lex_is(kw, xj_keys[k])) continue;
        if (rx->line[k])
            mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in %s '%s' (first on line %d)", xj_keys[k], block, name,
                    rx->line[k]);
        else {
            rx->line[k] = p->ln.no;
            rx->col[k] = kw->col;
            if (!xj->line) {
                xj->line = p->ln.no;
                xj->col = kw->col;
            }
            joint_key(p, k, xj, &rx->ntarget);
        }
        return 1;
    }
    return 0;
}

int xp_is_joint_key(const lex_tok *kw)
{
    for (int k = 0; k < XJ_COUNT; k++)
        if (lex_is(kw, xj_keys[k])) return 1;
    return 0;
}

/* Keys `allowed` (bit per XJ_ key) for a joint called `what`; units to SI. */
static int check_joint(parser *p, mech_xjoint *xj, const raw_xj *rx, unsigned allowed, const char *what,
                       const char *block, const char *name, double unit, int ntarget)
{
    for (int k = 0; k < XJ_COUNT; k++)
        if (rx->line[k] && !(allowed >> k & 1u))
            return mp_fail(p, rx->line[k], rx->col[k], "'%s' has no meaning for a %s (%s '%s')", xj_keys[k], what,
                           block, name);
    if (rx->line[XJ_TARGET] && !xj->drive)
        return mp_fail(p, rx->line[XJ_TARGET], rx->col[XJ_TARGET], "'target' needs a 'drive' (%s '%s')", block,
                       name);
    if (rx->line[XJ_TARGET] && rx->ntarget != ntarget)
        return mp_fail(p, rx->line[XJ_TARGET], rx->col[XJ_TARGET], "'target' of a %s takes %d signal%s, got %d",
                       what, ntarget, ntarget > 1 ? "s" : "", rx->ntarget);
    if (rx->line[XJ_COMPLIANCE] && (xj->has_limit || xj->has_swing))
        return mp_fail(p, rx->line[XJ_COMPLIANCE], rx->col[XJ_COMPLIANCE], "'compliance' together with limits is "
                       "not supported (%s '%s')", block, name);
    xj->lower *= unit;
    xj->upper *= unit;
    xj->swing *= DEG;
    for (int k = 0; k < 3; k++) scale_signal(&xj->target[k], unit);
    return 0;
}

#define ALL_1DOF (1u << XJ_LIMIT | 1u << XJ_DRIVE | 1u << XJ_TARGET | 1u << XJ_COMPLIANCE)

int xp_check_body(parser *p, mech_body *b, const raw_xj *rx)
{
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE:
        return check_joint(p, &b->xj, rx, ALL_1DOF, "revolute joint", "body", b->name, DEG, 1);
    case MECH_JOINT_PRISMATIC:
        return check_joint(p, &b->xj, rx, ALL_1DOF, "prismatic joint", "body", b->name, 1.0, 1);
    case MECH_JOINT_FIXED:
        return check_joint(p, &b->xj, rx, 1u << XJ_COMPLIANCE, "fixed joint", "body", b->name, 1.0, 0);
    default:
        return check_joint(p, &b->xj, rx, 0, "floating joint", "body", b->name, 1.0, 0);
    }
}

int xp_check_loop(parser *p, mech_loop *l, const raw_xj *rx)
{
    switch (l->type) {
    case MECH_LOOP_REVOLUTE:
        return check_joint(p, &l->xj, rx, ALL_1DOF, "revolute loop", "loop", l->name, DEG, 1);
    case MECH_LOOP_PRISMATIC:
        return check_joint(p, &l->xj, rx, ALL_1DOF, "prismatic loop", "loop", l->name, 1.0, 1);
    case MECH_LOOP_SPHERICAL:
        return check_joint(p, &l->xj, rx, ALL_1DOF | 1u << XJ_SWING, "spherical loop", "loop", l->name, DEG, 3);
    case MECH_LOOP_CYLINDRICAL:
        return check_joint(p, &l->xj, rx, 0, "cylindrical loop in XPBD", "loop", l->name, 1.0, 0);
    case MECH_LOOP_POINT_ON_LINE:
        return check_joint(p, &l->xj, rx, 0, "point-on-line loop in XPBD", "loop", l->name, 1.0, 0);
    default:
        return check_joint(p, &l->xj, rx, 0, "distance loop in XPBD", "loop", l->name, 1.0, 0);
    }
}

/* ---- the xpbd block ---- */

int xp_top_xpbd(parser *p, const lex_tok *kw)
{
    if (p->m->xpbd.line)
        return mp_fail(p, p->ln.no, kw->col, "duplicate 'xpbd' block (first on line %d)", p->m->xpbd.line);
    p->m->xpbd.line = p->ln.no;
    p->block = B_XPBD;
    return mp_end_of_line(p, "xpbd", "no values");
}

static int count_line(parser *p, const char *key, int max, int *out, int *col)
{
    lex_tok t;
    double v;
    if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &v)) return -1;
    if (!(v >= 1 && v <= max && v == (double)(int)v))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be a whole number from 1 to %d: got %g", key, max, v);
    *out = (int)v;
    *col = t.col;
    return mp_end_of_line(p, key, "1");
}

static int mode_line(parser *p)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "mode", "rows, block or scalar")) return -1;
    for (int i = 0; i < 3; i++)
        if (lex_is(&t, modes[i])) {
            p->m->xpbd.mode = (mech_xpbd_mode)i;
            return mp_end_of_line(p, "mode", "1");
        }
    return mp_fail_at(p, &t, "unknown mode ", ": expected rows, block or scalar");
}

int xp_xpbd_line(parser *p, const lex_tok *kw)
{
    mech_xpbd_settings *s = &p->m->xpbd;
    if (lex_is(kw, "end")) {
        p->block = B_NONE;
        return mp_end_of_line(p, "end", "no values");
    }
    for (int k = 0; k < XP_SET_COUNT; k++) {
        if (!lex_is(kw, set_keys[k])) continue;
        if (p->xpbd_key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in the xpbd block (first on line %d)", set_keys[k],
                           p->xpbd_key_line[k]);
        p->xpbd_key_line[k] = p->ln.no;
        switch (k) {
        case XP_DT: {
            lex_tok t;
            if (mp_next_tok(p, &t, "dt", "1") || mp_to_number(p, &t, "dt", &s->dt)) return -1;
            if (!(s->dt > 0.0 && s->dt <= 1.0))
                return mp_fail(p, p->ln.no, t.col, "'dt' must be in (0, 1] s: got %g", s->dt);
            return mp_end_of_line(p, "dt", "1");
        }
        case XP_SUBSTEPS:
            return count_line(p, "substeps", MECH_XPBD_MAX_SUBSTEPS, &s->substeps, &p->xpbd_val_col[k]);
        case XP_ITERATIONS:
            return count_line(p, "iterations", MECH_XPBD_MAX_ITERATIONS, &s->iterations, &p->xpbd_val_col[k]);
        default: return mode_line(p);
        }
    }
    if (lex_is(kw, "body") || lex_is(kw, "loop") || lex_is(kw, "servo") || lex_is(kw, "poi"))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside the xpbd block: missing 'end'", kw->n, kw->s);
    return mp_fail_at(p, kw, "unknown keyword ", " in xpbd: expected one of: dt substeps iterations mode end");
}

/* ---- servo blocks ---- */

int xp_top_servo(parser *p, const lex_tok *kw)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, "servo", name, &name_col)) return -1;
    for (int i = 0; i < p->nservos; i++)
        if (strcmp(p->servos[i].t.name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate servo name '%s' (first on line %d)", name,
                           p->servos[i].t.line);
    if (mp_end_of_line(p, "servo", "1")) return -1;
    if (mp_grow(p, (void **)&p->servos, &p->cap_servos, p->nservos, sizeof *p->servos, MECH_MAX_LOOPS, "servos",
                kw->col))
        return -1;
    raw_servo *rt = &p->servos[p->nservos];
    memset(rt, 0, sizeof *rt);
    memcpy(rt->t.name, name, sizeof name);
    memcpy(rt->pred, "base", 5);
    rt->t.line = p->ln.no;
    rt->t.col = name_col;
    rt->name_col = name_col;
    m3_identity(rt->t.prot);
    m3_identity(rt->t.srot);
    p->cur = p->nservos++;
    p->block = B_SERVO;
    return 0;
}

static int servo_key(parser *p, raw_servo *rt, int k)
{
    const char *key = servo_keys[k];
    lex_tok t;
    switch (k) {
    case T_PRED: return mp_read_body_ref(p, key, rt->pred, &rt->val_col[k]);
    case T_SUCC: return mp_read_body_ref(p, key, rt->succ, &rt->val_col[k]);
    case T_PPOS: return mp_number_line(p, key, rt->t.ppos, 3);
    case T_SPOS: return mp_number_line(p, key, rt->t.spos, 3);
    case T_PROT: case T_SROT:
        return mp_read_rotation(p, key, k == T_PROT ? rt->t.prot : rt->t.srot) ||
               mp_end_of_line(p, key, "<axis> <degrees>") ? -1 : 0;
    case T_COMPLIANCE:
        if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &rt->t.compliance) ||
            nonnegative(p, &t, key, rt->t.compliance)) return -1;
        return mp_end_of_line(p, key, "1");
    default: {
        int row = k - T_X;
        mech_signal *s = &rt->t.value[row];
        if (mp_next_tok(p, &t, key, SIGNAL_EXPECT) || read_signal(p, &t, key, s)) return -1;
        if (row >= 3) scale_signal(s, DEG);
        rt->t.rows |= 1u << row;
        return mp_end_of_line(p, key, SIGNAL_EXPECT);
    }
    }
}

static int finish_servo(parser *p, raw_servo *rt)
{
    if (mp_end_of_line(p, "end", "no values")) return -1;
    if (!rt->key_line[T_SUCC])
        return mp_fail(p, rt->t.line, rt->name_col, "servo '%s' has no 'succ'", rt->t.name);
    if (!rt->t.rows)
        return mp_fail(p, rt->t.line, rt->name_col, "servo '%s' drives no row: give x, y, z, rx, ry or rz",
                       rt->t.name);
    if (strcmp(rt->pred, rt->succ) == 0)
        return mp_fail(p, rt->key_line[T_SUCC], rt->val_col[T_SUCC], "servo '%s' joins '%s' to itself",
                       rt->t.name, rt->succ);
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

int xp_servo_line(parser *p, const lex_tok *kw)
{
    raw_servo *rt = &p->servos[p->cur];
    if (lex_is(kw, "end")) return finish_servo(p, rt);
    for (int k = 0; k < T_COUNT; k++) {
        if (!lex_is(kw, servo_keys[k])) continue;
        if (rt->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in servo '%s' (first on line %d)", servo_keys[k],
                           rt->t.name, rt->key_line[k]);
        rt->key_line[k] = p->ln.no;
        rt->key_col[k] = kw->col;
        return servo_key(p, rt, k);
    }
    if (lex_is(kw, "body") || lex_is(kw, "loop") || lex_is(kw, "xpbd") || lex_is(kw, "poi"))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside servo '%s': missing 'end'", kw->n, kw->s,
                       rt->t.name);
    return mp_fail_at(p, kw, "unknown keyword ", " in servo: expected one of: pred succ ppos prot spos srot "
                      "x y z rx ry rz compliance end");
}

int xp_unclosed(parser *p)
{
    if (p->block == B_XPBD)
        return mp_fail(p, p->m->xpbd.line, 1, "xpbd block has no 'end' before the end of the file");
    if (p->block == B_SERVO) {
        raw_servo *rt = &p->servos[p->cur];
        return mp_fail(p, rt->t.line, rt->name_col, "servo '%s' has no 'end' before the end of the file",
                       rt->t.name);
    }
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
        for (int side = 0; side < 2; side++) {
            const char *name = side ? rt->succ : rt->pred;
            int k = side ? T_SUCC : T_PRED, b = strcmp(name, "base") == 0 ? -1 : mech_model_body_find(m, name);
            if (b < 0 && strcmp(name, "base") != 0)
                return mp_fail(p, rt->key_line[k], rt->val_col[k], "unknown body '%s' for '%s' in servo '%s'",
                               name, servo_keys[k], t->name);
            if (side) t->succ = b;
            else t->pred = b;
        }
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
    if (p->xpbd_key_line[XP_SUBSTEPS] || p->xpbd_key_line[XP_ITERATIONS]) {
        int k = p->xpbd_key_line[XP_SUBSTEPS] ? XP_SUBSTEPS : XP_ITERATIONS;
        line = p->xpbd_key_line[k];
        col = p->xpbd_val_col[k];
    } else {
        rod_size_place(p, big, &line, &col);
    }
    return mp_fail(p, line, col,
                   "one XPBD step is too much work: substeps %d x iterations %d x (bodies %d + joints %.0f + "
                   "%d x rod elements %.0f) = %.3g units, at most %.0e", m->xpbd.substeps, m->xpbd.iterations,
                   m->nb, joints, MECH_XPBD_ROD_ELEMENT_WORK, elements, work, MECH_XPBD_MAX_WORK);
}
