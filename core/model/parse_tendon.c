/* parse_tendon.c — `tendon` blocks (docs/mech-format.md, "Tendons"): a
 * fixed tendon, MuJoCo's linear coupling L = sum_j coef_j q_j of revolute
 * and prismatic joints, with its passive spring-damper and an optional
 * range.  Stored once the bodies are, before the actuators that may drive
 * a tendon. */
#include "model/parse_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TD_JOINT, TD_STIFFNESS, TD_DAMPING, TD_SPRINGLENGTH, TD_RANGE, TD_COUNT };

typedef struct raw_tendon {
    mech_tendon t;
    char joint[MECH_MAX_TENDON_JOINTS][MECH_NAME_MAX];
    int joint_line[MECH_MAX_TENDON_JOINTS], joint_col[MECH_MAX_TENDON_JOINTS];
    block_seen seen;
} raw_tendon;

static int joint_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_tendon(parser *p, void *raw);

static const block_key tendon_keys[TD_COUNT] = {
    [TD_JOINT] = { .word = "joint", .read = joint_key, .repeats = 1, .required = 1 },
    [TD_STIFFNESS] = { NUMBERS("stiffness", raw_tendon, t.stiffness, 1, BOUND_NONNEGATIVE) },
    [TD_DAMPING] = { NUMBERS("damping", raw_tendon, t.damping, 1, BOUND_NONNEGATIVE) },
    [TD_SPRINGLENGTH] = { NUMBERS("springlength", raw_tendon, t.springlength, 1, BOUND_ANY) },
    [TD_RANGE] = { NUMBERS("range", raw_tendon, t.range, 2, BOUND_ANY) },
};
const block_kind tendon_block = { BLOCK_KIND("tendon", tendon_keys, finish_tendon, NULL),
                                  BLOCK_RAW(raw_tendon, t.name, t.line) };

/* joint <body> <coef> */
static int joint_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    raw_tendon *rt = raw;
    int n = rt->t.njoint;
    if (n == MECH_MAX_TENDON_JOINTS)
        return mp_fail(p, p->ln.no, kw->col, "too many joints in tendon '%s': at most %d", rt->t.name,
                       MECH_MAX_TENDON_JOINTS);
    rt->joint_line[n] = p->ln.no;
    if (mp_read_name(p, "joint", rt->joint[n], &rt->joint_col[n]) || mp_number_line(p, "joint", &rt->t.coef[n], 1))
        return -1;
    rt->t.njoint++;
    return 0;
}

static int finish_tendon(parser *p, void *raw)
{
    raw_tendon *rt = raw;
    mech_tendon *t = &rt->t;
    t->limited = rt->seen.line[TD_RANGE] != 0;
    if (t->limited && !(t->range[0] < t->range[1]))
        return mp_fail(p, rt->seen.line[TD_RANGE], rt->seen.val_col[TD_RANGE],
                       "'range' of tendon '%s' must have lower < upper: got %g %g", t->name, t->range[0], t->range[1]);
    return 0;
}

/* tendon <name> */
int tendon_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_tendon *rt = block_new(p, &tendon_block, "tendon", kw, (void **)&p->tendons, &p->ntendons, &p->cap_tendons,
                               MECH_MAX_TENDONS, "tendons");
    if (!rt) return -1;
    rt->t.col = p->open.col;
    return 0;
}

/* The joints by name: revolute or prismatic, each once. */
static int store_tendon(parser *p, const raw_tendon *rt, mech_tendon *t)
{
    const mech_model *m = p->m;
    *t = rt->t;
    for (int j = 0; j < t->njoint; j++) {
        int line = rt->joint_line[j], col = rt->joint_col[j];
        int b = mech_model_body_find(m, rt->joint[j]);
        if (b < 0) return mp_fail(p, line, col, "unknown body '%s' for 'joint' in tendon '%s'", rt->joint[j], t->name);
        mech_joint_type type = m->bodies[b].joint;
        if (type != MECH_JOINT_REVOLUTE && type != MECH_JOINT_PRISMATIC)
            return mp_fail(p, line, col, "tendon '%s' needs revolute or prismatic joints, but body '%s' has a %s joint",
                           t->name, rt->joint[j], mech_joint_name(type));
        for (int k = 0; k < j; k++)
            if (t->body[k] == b)
                return mp_fail(p, line, col, "joint '%s' twice in tendon '%s' (first on line %d)", rt->joint[j],
                               t->name, rt->joint_line[k]);
        t->body[j] = b;
    }
    if (m->integrator == MECH_INTEGRATOR_IMPLICIT && t->damping > 0 && t->njoint > 1)
        mp_warn(p, rt->seen.line[TD_DAMPING], rt->seen.col[TD_DAMPING],
                "tendon '%s' couples %d joints: 'integrator implicit' takes its damping on each joint (coef^2 damping) "
                "implicitly and the coupling between them explicitly (MuJoCo's implicitfast takes it whole)",
                t->name, t->njoint);
    return 0;
}

int tendon_store(parser *p)
{
    mech_model *m = p->m;
    if (p->ntendons && !(m->tendons = malloc((size_t)p->ntendons * sizeof *m->tendons)))
        return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->ntendons; i++)
        if (store_tendon(p, &p->tendons[i], &m->tendons[m->ntendon++])) return -1;
    return 0;
}

int tendon_find(const mech_model *m, const char *name)
{
    for (int i = 0; i < m->ntendon; i++)
        if (strcmp(m->tendons[i].name, name) == 0) return i;
    return -1;
}
