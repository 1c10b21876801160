/* parse_actuator.c — `actuator` and `keyframe` blocks (docs/mech-format.md,
 * "Actuators" and "Keyframes") and the top-level `initial` statement.
 * Actuators take the act[] slots after the force elements' inputs, in file
 * order; keyframes are resolved once the bodies and actuators are stored. */
#include "model/parse_internal.h"

#include <stdlib.h>
#include <string.h>

/* Rows of the actuator table. */
enum { AC_JOINT, AC_TENDON, AC_KIND, AC_KP, AC_KV, AC_GAIN, AC_BIAS, AC_GEAR, AC_CTRLRANGE, AC_FORCERANGE, AC_COUNT };

typedef struct raw_actuator {
    mech_actuator a;
    char joint[MECH_NAME_MAX], tendon[MECH_NAME_MAX];
    int name_col;
    block_seen seen;
} raw_actuator;

static const char *const kinds[] = { "motor", "position", "velocity", "general", NULL };
_Static_assert(sizeof(mech_actuator_kind) == sizeof(int), "block_word stores an int");

static int finish_actuator(parser *p, void *raw);

static const block_key actuator_keys[AC_COUNT] = {
    [AC_JOINT] = { .word = "joint", .read = block_name, .off = offsetof(raw_actuator, joint) },
    [AC_TENDON] = { .word = "tendon", .read = block_name, .off = offsetof(raw_actuator, tendon) },
    [AC_KIND] = { .word = "kind",
                  .read = block_word,
                  .off = offsetof(raw_actuator, a.kind),
                  .words = kinds,
                  .what = "actuator kind",
                  .required = 1 },
    [AC_KP] = { NUMBERS("kp", raw_actuator, a.kp, 1, BOUND_NONNEGATIVE) },
    [AC_KV] = { NUMBERS("kv", raw_actuator, a.kv, 1, BOUND_NONNEGATIVE) },
    [AC_GAIN] = { NUMBERS("gain", raw_actuator, a.gain, 1, BOUND_ANY) },
    [AC_BIAS] = { NUMBERS("bias", raw_actuator, a.bias, 3, BOUND_ANY) },
    [AC_GEAR] = { NUMBERS("gear", raw_actuator, a.gear, 1, BOUND_ANY) },
    [AC_CTRLRANGE] = { NUMBERS("ctrlrange", raw_actuator, a.ctrlrange, 2, BOUND_ANY) },
    [AC_FORCERANGE] = { NUMBERS("forcerange", raw_actuator, a.forcerange, 2, BOUND_ANY) },
};
const block_kind actuator_block = { BLOCK_KIND("actuator", actuator_keys, finish_actuator, NULL),
                                    BLOCK_RAW(raw_actuator, a.name, a.line) };

/* Which gain keys each kind takes (bit k: row k). */
static const unsigned kind_keys[] = {
    [MECH_ACT_MOTOR] = 0,
    [MECH_ACT_POSITION] = 1u << AC_KP | 1u << AC_KV,
    [MECH_ACT_VELOCITY] = 1u << AC_KV,
    [MECH_ACT_GENERAL] = 1u << AC_GAIN | 1u << AC_BIAS,
};

static int range_ordered(parser *p, const raw_actuator *ra, int k, const double r[2])
{
    if (r[0] < r[1]) return 0;
    return mp_fail(p, ra->seen.line[k], ra->seen.val_col[k], "'%s' of actuator '%s' must have lower < upper: got %g %g",
                   actuator_keys[k].word, ra->a.name, r[0], r[1]);
}

/* The kind's gain keys only, the required ones given; gain and bias from them. */
static int finish_actuator(parser *p, void *raw)
{
    raw_actuator *ra = raw;
    mech_actuator *a = &ra->a;
    if (!ra->seen.line[AC_JOINT] == !ra->seen.line[AC_TENDON])
        return ra->seen.line[AC_JOINT]
                 ? mp_fail(p, ra->seen.line[AC_TENDON], ra->seen.col[AC_TENDON],
                           "actuator '%s' has both 'joint' and 'tendon': give one", a->name)
                 : mp_fail(p, a->line, ra->name_col, "actuator '%s' has no 'joint' or 'tendon'", a->name);
    for (int k = AC_KP; k <= AC_BIAS; k++)
        if (ra->seen.line[k] && !(kind_keys[a->kind] >> k & 1))
            return mp_fail(p, ra->seen.line[k], ra->seen.col[k], "'%s' is not a key of a %s actuator (actuator '%s')",
                           actuator_keys[k].word, kinds[a->kind], a->name);
    int need = a->kind == MECH_ACT_POSITION ? AC_KP : a->kind == MECH_ACT_VELOCITY ? AC_KV : -1;
    if (need >= 0 && !ra->seen.line[need])
        return mp_fail(p, a->line, ra->name_col, "%s actuator '%s' has no '%s'", kinds[a->kind], a->name,
                       actuator_keys[need].word);
    if (!ra->seen.line[AC_GEAR]) a->gear = 1.0;
    else if (a->gear == 0.0)
        return mp_fail(p, ra->seen.line[AC_GEAR], ra->seen.val_col[AC_GEAR], "'gear' of actuator '%s' must not be 0",
                       a->name);
    if (a->kind == MECH_ACT_MOTOR) a->gain = 1.0;
    else if (a->kind == MECH_ACT_POSITION) {
        a->gain = a->kp;
        a->bias[1] = -a->kp;
        a->bias[2] = -a->kv;
    } else if (a->kind == MECH_ACT_VELOCITY) {
        a->gain = a->kv;
        a->bias[2] = -a->kv;
    } else if (!ra->seen.line[AC_GAIN]) a->gain = 1.0;
    a->ctrllimited = ra->seen.line[AC_CTRLRANGE] != 0;
    a->forcelimited = ra->seen.line[AC_FORCERANGE] != 0;
    if (a->ctrllimited && range_ordered(p, ra, AC_CTRLRANGE, a->ctrlrange)) return -1;
    if (a->forcelimited && range_ordered(p, ra, AC_FORCERANGE, a->forcerange)) return -1;
    return 0;
}

/* actuator <name> */
int actuator_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_actuator *ra = block_new(p, &actuator_block, "actuator", kw, (void **)&p->actuators, &p->nactuators,
                                 &p->cap_actuators, MECH_MAX_ACTUATORS, "actuators");
    if (!ra) return -1;
    ra->name_col = p->open.col;
    return 0;
}

/* ---- keyframes ---- */

enum { KF_Q, KF_QD, KF_CTRL, KF_COUNT };

typedef struct raw_keyframe {
    char name[MECH_NAME_MAX];
    int line, name_col;
    block_seen seen;
} raw_keyframe;

/* A q, qd or ctrl line of keyframe `frame`, read once the bodies and
 * actuators are known: the line after its keyword, and where its name is. */
typedef struct key_line {
    int key, frame;
    lex_line ln;
} key_line;

static int keep_key_line(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    if (mp_grow(p, (void **)&p->key_lines, &p->cap_key_lines, p->nkey_lines, sizeof *p->key_lines, 1 << 20,
                "keyframe lines", kw->col))
        return -1;
    p->key_lines[p->nkey_lines++] = (key_line){ .key = key->arg, .frame = p->cur, .ln = p->ln };
    return 0;
}

static const block_key keyframe_keys[KF_COUNT] = {
    [KF_Q] = { .word = "q", .read = keep_key_line, .repeats = 1, .arg = KF_Q },
    [KF_QD] = { .word = "qd", .read = keep_key_line, .repeats = 1, .arg = KF_QD },
    [KF_CTRL] = { .word = "ctrl", .read = keep_key_line, .repeats = 1, .arg = KF_CTRL },
};
const block_kind keyframe_block = { BLOCK_KIND("keyframe", keyframe_keys, NULL, NULL),
                                    BLOCK_RAW(raw_keyframe, name, line) };

/* keyframe <name> */
int keyframe_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_keyframe *rk = block_new(p, &keyframe_block, "keyframe", kw, (void **)&p->keyframes, &p->nkeyframes,
                                 &p->cap_keyframes, MECH_MAX_KEYFRAMES, "keyframes");
    if (!rk) return -1;
    rk->name_col = p->open.col;
    return 0;
}

/* initial <keyframe> */
int initial_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    (void)kw;
    p->initial_line = p->ln.no;
    return mp_read_name(p, "initial", p->initial, &p->initial_col) || mp_end_of_line(p, "initial", "1") ? -1 : 0;
}

/* ---- into the model ---- */

/* `tendon <name>`: the tendon by name; an implicit step integrates its
 * velocity gain only on D's diagonal (mech_model_joint_damping): a warning
 * when the tendon couples joints. */
static int store_tendon_actuator(parser *p, const raw_actuator *ra, mech_actuator *a)
{
    mech_model *m = p->m;
    int line = ra->seen.line[AC_TENDON], col = ra->seen.val_col[AC_TENDON];
    a->body = -1;
    a->tendon = tendon_find(m, ra->tendon);
    if (a->tendon < 0)
        return mp_fail(p, line, col, "unknown tendon '%s' for 'tendon' in actuator '%s'", ra->tendon, a->name);
    const mech_tendon *t = &m->tendons[a->tendon];
    if (m->integrator == MECH_INTEGRATOR_IMPLICIT && a->bias[2] != 0 && t->njoint > 1)
        mp_warn(p, line, col,
                "actuator '%s' damps tendon '%s', which couples %d joints: 'integrator implicit' takes its velocity "
                "gain on each joint implicitly and the coupling between them explicitly (MuJoCo's implicitfast "
                "takes it whole)",
                a->name, t->name, t->njoint);
    a->act = m->nact++;
    return 0;
}

static int store_actuator(parser *p, const raw_actuator *ra, mech_actuator *a)
{
    mech_model *m = p->m;
    int line = ra->seen.line[AC_JOINT], col = ra->seen.val_col[AC_JOINT];
    *a = ra->a;
    a->col = ra->name_col;
    if (ra->seen.line[AC_TENDON]) return store_tendon_actuator(p, ra, a);
    a->tendon = -1;
    a->body = mech_model_body_find(m, ra->joint);
    if (a->body < 0) return mp_fail(p, line, col, "unknown body '%s' for 'joint' in actuator '%s'", ra->joint, a->name);
    mech_joint_type j = m->bodies[a->body].joint;
    if (j != MECH_JOINT_REVOLUTE && j != MECH_JOINT_PRISMATIC)
        return mp_fail(p, line, col, "actuator '%s' needs a revolute or prismatic joint, but body '%s' has a %s joint",
                       a->name, ra->joint, mech_joint_name(j));
    a->act = m->nact++;
    return 0;
}

static int find_actuator(const mech_model *m, const char *name)
{
    for (int i = 0; i < m->nu; i++)
        if (strcmp(m->actuators[i].name, name) == 0) return i;
    return -1;
}

/* One kept line into its keyframe: `q <body> <values>`, `qd <body> <values>`
 * or `ctrl <actuator> <value>`. */
static int read_key_line(parser *p, const key_line *kl)
{
    static const char *const words[] = { "q", "qd", "ctrl" };
    mech_model *m = p->m;
    mech_keyframe *k = &m->keys[kl->frame];
    const char *word = words[kl->key];
    char name[MECH_NAME_MAX];
    int col;
    p->ln = kl->ln;
    if (mp_read_name(p, word, name, &col)) return -1;
    if (kl->key == KF_CTRL) {
        int i = find_actuator(m, name);
        if (i < 0) return mp_fail(p, p->ln.no, col, "unknown actuator '%s' for 'ctrl' in keyframe '%s'", name, k->name);
        return mp_number_line(p, "ctrl", &k->ctrl[i], 1);
    }
    int b = mech_model_body_find(m, name);
    if (b < 0) return mp_fail(p, p->ln.no, col, "unknown body '%s' for '%s' in keyframe '%s'", name, word, k->name);
    const mech_body *body = &m->bodies[b];
    if (body->joint == MECH_JOINT_FIXED)
        return mp_fail(p, p->ln.no, col, "body '%s' has a fixed joint: no '%s' in keyframe '%s'", name, word, k->name);
    return body_joint_values(p, body, word, kl->key == KF_QD, kl->key == KF_QD ? k->qd + body->vidx : k->q + body->qidx);
}

static int store_keyframes(parser *p)
{
    mech_model *m = p->m;
    m->initial_key = -1;
    if (p->nkeyframes && !(m->keys = calloc((size_t)p->nkeyframes, sizeof *m->keys)))
        return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nkeyframes; i++) {
        mech_keyframe *k = &m->keys[m->nkey++];
        memcpy(k->name, p->keyframes[i].name, sizeof k->name);
        k->line = p->keyframes[i].line;
        k->col = p->keyframes[i].name_col;
        k->q = calloc((size_t)(m->nq + m->nv + m->nu) + 1, sizeof *k->q);
        if (!k->q) return mp_fail(p, 0, 0, "out of memory");
        k->qd = k->q + m->nq;
        k->ctrl = k->qd + m->nv;
        mech_model_initial_state(m, k->q, k->qd);
    }
    for (int i = 0; i < p->nkey_lines; i++)
        if (read_key_line(p, &p->key_lines[i])) return -1;
    if (!p->initial[0]) return 0;
    for (int i = 0; i < m->nkey; i++)
        if (strcmp(m->keys[i].name, p->initial) == 0) m->initial_key = i;
    if (m->initial_key < 0)
        return mp_fail(p, p->initial_line, p->initial_col, "unknown keyframe '%s' for 'initial'", p->initial);
    return 0;
}

int actuator_store(parser *p)
{
    mech_model *m = p->m;
    if (p->nactuators && !(m->actuators = malloc((size_t)p->nactuators * sizeof *m->actuators)))
        return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nactuators; i++)
        if (store_actuator(p, &p->actuators[i], &m->actuators[m->nu++])) return -1;
    return store_keyframes(p);
}

void actuator_parse_free(parser *p)
{
    free(p->actuators);
    free(p->keyframes);
    free(p->key_lines);
}
