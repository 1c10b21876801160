/* parse_body.c — `body` blocks and `poi` lines (docs/mech-format.md), then
 * the bodies stored parents first (a stable topological order) with the
 * pois' and shapes' bodies by name. */
#include "model/parse_internal.h"
#include "spatial/spatial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the body table: the keys in the order "expected one of" lists them. */
enum {
    K_PARENT,
    K_JOINT,
    K_POS,
    K_ROT,
    K_MASS,
    K_COM,
    K_INERTIA,
    K_ARMATURE,
    K_FRICTIONLOSS,
    K_FEXT,
    K_Q0,
    K_QD0,
    K_SHAPE,
    K_XJ,
    K_COUNT = K_XJ + XJ_COUNT
};

typedef struct raw_body {
    mech_body b;
    char parent[MECH_NAME_MAX];
    block_seen seen;
    lex_line q0, qd0; /* kept until the joint type is known */
    int ntarget;      /* signals on the target line */
} raw_body;

typedef struct raw_poi {
    mech_poi p;
    char body[MECH_NAME_MAX];
    int body_col;
} raw_poi;

/* ---- keys ---- */

static int joint_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int inertia_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int fext_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int state_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int xpbd_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_body(parser *p, void *raw);

_Static_assert(K_COUNT <= BLOCK_MAX_KEYS, "block_seen holds every row");
static const block_key body_keys[K_COUNT] = {
    [K_PARENT] = { .word = "parent", .read = block_body_ref, .off = offsetof(raw_body, parent), .required = 1 },
    [K_JOINT] = { .word = "joint", .read = joint_key, .required = 1 },
    [K_POS] = { NUMBERS("pos", raw_body, b.pos, 3, BOUND_ANY) },
    [K_ROT] = { .word = "rot", .read = block_rotation, .off = offsetof(raw_body, b.rot) },
    [K_MASS] = { NUMBERS("mass", raw_body, b.mass, 1, BOUND_POSITIVE), .required = 1 },
    [K_COM] = { NUMBERS("com", raw_body, b.com, 3, BOUND_ANY) },
    [K_INERTIA] = { .word = "inertia", .read = inertia_key, .required = 1 },
    [K_ARMATURE] = { NUMBERS("armature", raw_body, b.armature, 1, BOUND_NONNEGATIVE) },
    [K_FRICTIONLOSS] = { NUMBERS("frictionloss", raw_body, b.frictionloss, 1, BOUND_NONNEGATIVE) },
    [K_FEXT] = { .word = "fext", .read = fext_key },
    [K_Q0] = { .word = "q0", .read = state_key },
    [K_QD0] = { .word = "qd0", .read = state_key },
    [K_SHAPE] = { .word = "shape", .read = shape_key, .repeats = 1 },
    XJ_KEY_ROWS(K_XJ, xpbd_key),
};
const block_kind body_block = { BLOCK_KIND("body", body_keys, finish_body, NULL), BLOCK_RAW(raw_body, b.name, b.line) };

/* <axis> <degrees> as the quaternion q[0..3] (the attitude of a floating or
 * spherical joint). */
static int attitude_q0(parser *p, const char *key, const char *expect, double q[4])
{
    double axis[3], deg = 0.0, phi[3];
    if (mp_read_axis(p, key, axis) || mp_read_numbers(p, key, expect, &deg, 1)) return -1;
    for (int i = 0; i < 3; i++) phi[i] = axis[i] * deg * DEG;
    quat_from_rotvec(phi, q);
    return mp_end_of_line(p, key, expect);
}

/* A floating body's position: x y z [<axis> <degrees>]. */
static int floating_q0(parser *p, const char *key, double q0[7])
{
    if (mp_read_numbers(p, key, "x y z [<axis> <degrees>]", q0 + 4, 3)) return -1;
    q0[0] = 1.0;
    q0[1] = q0[2] = q0[3] = 0.0;
    if (!lex_more(&p->ln)) return 0;
    return attitude_q0(p, key, "x y z [<axis> <degrees>]", q0);
}

/* Position and velocity counts of a joint type (model.h). */
static int joint_nq(mech_joint_type j)
{
    static const int nq[] = { [MECH_JOINT_REVOLUTE] = 1, [MECH_JOINT_PRISMATIC] = 1, [MECH_JOINT_FLOATING] = 7,
                              [MECH_JOINT_FIXED] = 0,    [MECH_JOINT_SPHERICAL] = 4, [MECH_JOINT_CYLINDRICAL] = 2 };
    return nq[j];
}

static int joint_nv(mech_joint_type j)
{
    return j == MECH_JOINT_FLOATING ? 6 : j == MECH_JOINT_SPHERICAL ? 3 : joint_nq(j);
}

int body_joint_values(parser *p, const mech_body *b, const char *key, int velocity, double *out)
{
    if (velocity) return mp_number_line(p, key, out, joint_nv(b->joint));
    switch (b->joint) {
    case MECH_JOINT_FLOATING: return floating_q0(p, key, out);
    case MECH_JOINT_SPHERICAL: return attitude_q0(p, key, "<axis> <degrees>", out);
    case MECH_JOINT_CYLINDRICAL:
        if (mp_read_numbers(p, key, "<degrees> <m>", out, 2) || mp_end_of_line(p, key, "<degrees> <m>")) return -1;
        out[0] *= DEG;
        return 0;
    default:
        if (mp_number_line(p, key, out, joint_nq(b->joint))) return -1;
        if (b->joint == MECH_JOINT_REVOLUTE) out[0] *= DEG;
        return 0;
    }
}

/* Parse a kept q0 / qd0 line now that the joint type is known. */
static int joint_values(parser *p, raw_body *rb, int k)
{
    lex_line saved = p->ln;
    mech_body *b = &rb->b;
    int r;
    p->ln = k == K_Q0 ? rb->q0 : rb->qd0;
    if (b->joint == MECH_JOINT_FIXED)
        r = mp_fail(p, rb->seen.line[k], rb->seen.col[k], "'%s' is not allowed for a fixed joint (body '%s')",
                    body_keys[k].word, b->name);
    else r = body_joint_values(p, b, body_keys[k].word, k == K_QD0, k == K_QD0 ? b->qd0 : b->q0);
    p->ln = saved;
    return r;
}

static int joint_type(parser *p, raw_body *rb)
{
    lex_tok t, extra;
    if (mp_next_tok(p, &t, "joint", "revolute, prismatic, cylindrical, spherical, floating or fixed")) return -1;
    for (int j = 0; j <= MECH_JOINT_CYLINDRICAL; j++) {
        if (!lex_is(&t, mech_joint_name((mech_joint_type)j))) continue;
        rb->b.joint = (mech_joint_type)j;
        if (j == MECH_JOINT_REVOLUTE || j == MECH_JOINT_PRISMATIC || j == MECH_JOINT_CYLINDRICAL) {
            char key[24];
            snprintf(key, sizeof key, "joint %s", mech_joint_name((mech_joint_type)j));
            return mp_read_axis(p, key, rb->b.axis) || mp_end_of_line(p, key, "an axis") ? -1 : 0;
        }
        if (j == MECH_JOINT_SPHERICAL && lex_next(&p->ln, &extra))
            return mp_fail(p, p->ln.no, extra.col,
                           "a spherical joint has no axis: it turns about every axis through the body origin");
        return mp_end_of_line(p, "joint", "no values after the type");
    }
    return mp_fail_at(p, &t, "unknown joint type ",
                      ": expected revolute, prismatic, cylindrical, spherical, floating or fixed");
}

static int joint_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    raw_body *rb = raw;
    if (joint_type(p, rb)) return -1;
    if (rb->seen.line[K_Q0] && joint_values(p, rb, K_Q0)) return -1;
    return rb->seen.line[K_QD0] ? joint_values(p, rb, K_QD0) : 0;
}

static int inertia_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    return mp_read_inertia(p, ((raw_body *)raw)->b.inertia);
}

static int fext_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    lex_tok t;
    if (mp_next_tok(p, &t, "fext", "0 or 1")) return -1;
    if (!lex_is(&t, "0") && !lex_is(&t, "1")) return mp_fail_at(p, &t, "bad value ", " for 'fext': expected 0 or 1");
    ((raw_body *)raw)->b.fext = t.s[0] == '1';
    return mp_end_of_line(p, "fext", "1");
}

/* q0 / qd0: kept until the joint type is known. */
static int state_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    raw_body *rb = raw;
    int k = (int)(key - body_keys);
    if (k == K_Q0) rb->q0 = p->ln;
    else rb->qd0 = p->ln;
    return rb->seen.line[K_JOINT] ? joint_values(p, rb, k) : 0;
}

static int xpbd_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    raw_body *rb = raw;
    return xp_joint_key(p, key, &rb->b.xj, &rb->ntarget, kw);
}

static int finish_body(parser *p, void *raw)
{
    raw_body *rb = raw;
    const block_seen *s = &rb->seen;
    if (s->line[K_ARMATURE] && (rb->b.joint == MECH_JOINT_FIXED || rb->b.joint == MECH_JOINT_FLOATING))
        return mp_fail(p, s->line[K_ARMATURE], s->col[K_ARMATURE],
                       "'armature' is for revolute, prismatic, cylindrical and spherical joints (body '%s')", rb->b.name);
    if (s->line[K_FRICTIONLOSS] && rb->b.joint != MECH_JOINT_REVOLUTE && rb->b.joint != MECH_JOINT_PRISMATIC)
        return mp_fail(p, s->line[K_FRICTIONLOSS], s->col[K_FRICTIONLOSS],
                       "'frictionloss' is for revolute and prismatic joints (body '%s')", rb->b.name);
    if (rb->b.joint == MECH_JOINT_FLOATING && strcmp(rb->parent, "base") != 0)
        return mp_fail(p, s->line[K_PARENT], s->val_col[K_PARENT],
                       "floating body '%s' must have parent 'base', not '%s'", rb->b.name, rb->parent);
    return xp_check_body(p, &rb->b, K_XJ, rb->ntarget);
}

/* ---- top-level statements ---- */

int body_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_body *rb = block_new(p, &body_block, "body", kw, (void **)&p->bodies, &p->nbodies, &p->cap_bodies,
                             MECH_MAX_BODIES, "bodies");
    if (!rb) return -1;
    rb->b.col = p->open.col;
    if (strcmp(rb->b.name, "base") == 0) return mp_fail(p, p->ln.no, rb->b.col, "body name 'base' is reserved");
    m3_identity(rb->b.rot);
    return 0;
}

/* poi <name> <body> x y z */
int poi_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    if (mp_grow(p, (void **)&p->pois, &p->cap_pois, p->m->npoi, sizeof *p->pois, MECH_MAX_POIS, "pois", kw->col))
        return -1;
    raw_poi *rp = &p->pois[p->m->npoi];
    memset(rp, 0, sizeof *rp);
    int name_col;
    if (mp_read_name(p, "poi", rp->p.name, &name_col)) return -1;
    for (int i = 0; i < p->m->npoi; i++)
        if (strcmp(p->pois[i].p.name, rp->p.name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate poi name '%s' (first on line %d)", rp->p.name,
                           p->pois[i].p.line);
    lex_tok t;
    if (mp_next_tok(p, &t, "poi", "<name> <body> x y z")) return -1;
    if (!lex_is(&t, "base") && mp_check_name(p, &t, "poi")) return -1;
    memcpy(rp->body, t.s, (size_t)t.n);
    rp->body[t.n] = '\0';
    rp->body_col = t.col;
    rp->p.line = p->ln.no;
    if (mp_read_numbers(p, "poi", "<name> <body> x y z", rp->p.pos, 3) || mp_end_of_line(p, "poi", "<name> <body> x y z"))
        return -1;
    p->m->npoi++;
    return 0;
}

/* ---- resolving names and ordering ---- */

static int find_raw(const parser *p, const char *name)
{
    for (int i = 0; i < p->nbodies; i++)
        if (strcmp(p->bodies[i].b.name, name) == 0) return i;
    return -1;
}

/* parent indices in file order; -1 = base. */
static int resolve_parents(parser *p, int *parent)
{
    for (int i = 0; i < p->nbodies; i++) {
        raw_body *rb = &p->bodies[i];
        parent[i] = strcmp(rb->parent, "base") == 0 ? -1 : find_raw(p, rb->parent);
        if (parent[i] < 0 && strcmp(rb->parent, "base") != 0)
            return mp_fail(p, rb->seen.line[K_PARENT], rb->seen.val_col[K_PARENT], "unknown parent '%s' for body '%s'",
                           rb->parent, rb->b.name);
    }
    return 0;
}

/* Called with every unplaced body on or below a cycle: name the cycle. */
static int fail_cycle(parser *p, const int *parent, const int *placed)
{
    int v = 0;
    while (placed[v]) v++;
    for (int i = 0; i < p->nbodies; i++) v = parent[v];
    int first = v;
    for (int u = parent[v]; u != v; u = parent[u])
        if (u < first) first = u;
    char msg[MECH_ERROR_MAX] = "parent cycle: ";
    size_t len = strlen(msg);
    int u = first;
    do {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s -> ", p->bodies[u].b.name);
        u = parent[u];
    } while (u != first && len < sizeof msg);
    if (len < sizeof msg) snprintf(msg + len, sizeof msg - len, "%s", p->bodies[first].b.name);
    raw_body *rb = &p->bodies[first];
    return mp_fail(p, rb->seen.line[K_PARENT], rb->seen.val_col[K_PARENT], "%s", msg);
}

/* Stable topological order: always take the earliest body whose parent is placed. */
static int order_bodies(parser *p, const int *parent, int *order, int *placed)
{
    for (int n = 0; n < p->nbodies; n++) {
        int next = -1;
        for (int i = 0; i < p->nbodies && next < 0; i++)
            if (!placed[i] && (parent[i] < 0 || placed[parent[i]])) next = i;
        if (next < 0) return fail_cycle(p, parent, placed);
        placed[next] = 1;
        order[n] = next;
    }
    return 0;
}

static void store_bodies(mech_model *m, const raw_body *raw, const int *parent, const int *order, int *slot)
{
    for (int n = 0; n < m->nb; n++) {
        mech_body *b = &m->bodies[n];
        *b = raw[order[n]].b;
        slot[order[n]] = n;
        b->parent = parent[order[n]] < 0 ? -1 : slot[parent[order[n]]];
        b->nq = joint_nq(b->joint);
        b->nv = joint_nv(b->joint);
        if ((b->joint == MECH_JOINT_FLOATING || b->joint == MECH_JOINT_SPHERICAL) && !raw[order[n]].seen.line[K_Q0])
            b->q0[0] = 1.0;
        b->qidx = m->nq;
        b->vidx = m->nv;
        m->nq += b->nq;
        m->nv += b->nv;
    }
    for (int s = 0; s < m->nshape; s++) m->shapes[s].body = slot[m->shapes[s].body];
}

static int store_pois(parser *p)
{
    mech_model *m = p->m;
    if (m->npoi == 0) return 0;
    m->pois = malloc((size_t)m->npoi * sizeof *m->pois);
    if (!m->pois) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < m->npoi; i++) {
        raw_poi *rp = &p->pois[i];
        m->pois[i] = rp->p;
        m->pois[i].body = strcmp(rp->body, "base") == 0 ? -1 : mech_model_body_find(m, rp->body);
        if (m->pois[i].body < 0 && strcmp(rp->body, "base") != 0)
            return mp_fail(p, rp->p.line, rp->body_col, "unknown body '%s' for poi '%s'", rp->body, rp->p.name);
    }
    return 0;
}


int body_store(parser *p)
{
    mech_model *m = p->m;
    int n = p->nbodies > 0 ? p->nbodies : 1;
    int *work = calloc((size_t)n * 4, sizeof *work);
    if (!work) return mp_fail(p, 0, 0, "out of memory");
    int *parent = work, *order = work + n, *placed = work + 2 * n, *slot = work + 3 * n;
    int r = resolve_parents(p, parent);
    if (!r) r = order_bodies(p, parent, order, placed);
    if (!r && p->nbodies > 0) {
        m->bodies = malloc((size_t)p->nbodies * sizeof *m->bodies);
        if (!m->bodies) r = mp_fail(p, 0, 0, "out of memory");
    }
    if (!r) {
        m->nb = p->nbodies;
        store_bodies(m, p->bodies, parent, order, slot);
        r = store_pois(p);
    }
    free(work);
    return r;
}

void body_parse_free(parser *p)
{
    free(p->bodies);
    free(p->pois);
}
