/* track_expand.c — a parsed band into model data (docs/mech-format.md,
 * "Tracks"): its rollers located in the root frame at the model's initial
 * q, the belt around them (track_belt.c), N shoe bodies at the design pose
 * and the point-on-line loop that closes the chain. */
#include "model/parse_internal.h"
#include "model/track_belt.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
static const double pin_axis[3] = { 0.0, 1.0, 0.0 };

/* World pose (R, x) of every body at its q0: the tree transform (pos, rot)
 * then the joint's (RBDA Table 4.1 in rotation-matrix form). */
static void poses_at_q0(const mech_model *m, double (*R)[9], double (*x)[3])
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double Rp[9], xp[3] = { 0, 0, 0 }, Rt[9], xt[3], Rj[9], xj[3] = { 0, 0, 0 }, v[3];
        m3_identity(Rp);
        if (b->parent >= 0) {
            memcpy(Rp, R[b->parent], sizeof Rp);
            memcpy(xp, x[b->parent], sizeof xp);
        }
        m3_mul(Rp, b->rot, Rt);
        m3_mulv(Rp, b->pos, v);
        for (int k = 0; k < 3; k++) xt[k] = xp[k] + v[k];
        m3_identity(Rj);
        if (b->joint == MECH_JOINT_REVOLUTE) rot_axis_angle(b->axis, b->q0[0], Rj);
        if (b->joint == MECH_JOINT_PRISMATIC)
            for (int k = 0; k < 3; k++) xj[k] = b->axis[k] * b->q0[0];
        if (b->joint == MECH_JOINT_FLOATING) {
            quat_to_rot(b->q0, Rj);
            memcpy(xj, b->q0 + 4, sizeof xj);
        }
        m3_mul(Rt, Rj, R[i]);
        m3_mulv(Rt, xj, v);
        for (int k = 0; k < 3; k++) x[i][k] = xt[k] + v[k];
    }
}

static int descends_from(const mech_model *m, int b, int root)
{
    for (int u = m->bodies[b].parent; u >= 0; u = m->bodies[u].parent)
        if (u == root) return 1;
    return root < 0;
}

/* Each roller's body checked and its centre put in the root frame (x, z);
 * their common root-frame y is the band plane. */
static int locate_rollers(parser *p, raw_track *rt, double (*R)[9], double (*x)[3], belt_circle *c)
{
    mech_model *m = p->m;
    mech_track *t = &rt->t;
    double Rr[9], xr[3] = { 0, 0, 0 };
    m3_identity(Rr);
    if (t->root >= 0) {
        memcpy(Rr, R[t->root], sizeof Rr);
        memcpy(xr, x[t->root], sizeof xr);
    }
    for (int i = 0; i < t->nroller; i++) {
        mech_roller *r = &t->rollers[i];
        const char *name = rt->roller[i];
        int line = r->line, col = rt->roller_col[i], b = mech_model_body_find(m, name);
        if (b < 0) return mp_fail(p, line, col, "unknown body '%s' for roller in track '%s'", name, t->name);
        if (b == t->root)
            return mp_fail(p, line, col, "roller '%s' is the root of track '%s': a roller must turn on it", name,
                           t->name);
        if (!descends_from(m, b, t->root))
            return mp_fail(p, line, col, "roller '%s' is not carried by the root '%s' of track '%s'", name, rt->root,
                           t->name);
        const mech_body *body = &m->bodies[b];
        if (!body->fext)
            return mp_fail(p, line, col,
                           "roller '%s' has no 'fext 1': the band's reaction reaches it only through "
                           "fext",
                           name);
        double d[3], a[3], w[3];
        m3_mulv(R[b], body->axis, w);
        m3_tmulv(Rr, w, a);
        if (body->joint != MECH_JOINT_REVOLUTE || fabs(fabs(a[1]) - 1.0) > 1e-9)
            return mp_fail(p, line, col,
                           "roller '%s' must turn about the pin axis: a revolute joint about the "
                           "root's y (±y) at the initial pose",
                           name);
        for (int k = 0; k < 3; k++) w[k] = x[b][k] - xr[k];
        m3_tmulv(Rr, w, d);
        if (i == 0) t->plane_y = d[1];
        else if (fabs(d[1] - t->plane_y) > 1e-9)
            return mp_fail(p, line, col,
                           "roller '%s' is not in the band plane: its centre's root y is %.9g, "
                           "the first roller's %.9g",
                           name, d[1], t->plane_y);
        r->body = b;
        r->centre[0] = d[0];
        r->centre[1] = d[2];
        c[i] = (belt_circle){ { d[0], d[2] }, r->radius };
    }
    return 0;
}

/* The shoes' names and room for them, before anything is added. */
static int check_room(parser *p, const raw_track *rt)
{
    mech_model *m = p->m;
    const mech_track *t = &rt->t;
    char name[64];
    if (m->nb + t->nshoe > MECH_MAX_BODIES)
        return mp_fail(p, t->line, t->col, "track '%s' makes %d bodies: at most %d", t->name, m->nb + t->nshoe,
                       MECH_MAX_BODIES);
    if (m->nshape + t->nshoe > MECH_MAX_SHAPES || m->nloop + 1 > MECH_MAX_LOOPS)
        return mp_fail(p, t->line, t->col, "track '%s' makes too many shapes or loops", t->name);
    for (int i = 0; i < t->nshoe; i++) {
        int n = snprintf(name, sizeof name, "%s_shoe%d", t->name, i);
        if (n >= MECH_NAME_MAX)
            return mp_fail(p, t->line, t->col,
                           "track name '%s' is too long for its shoes' names "
                           "(%s: at most %d characters)",
                           t->name, name, MECH_NAME_MAX - 1);
        int b = mech_model_body_find(m, name);
        if (b >= 0)
            return mp_fail(p, m->bodies[b].line, m->bodies[b].col,
                           "body name '%s' is taken by a shoe of track "
                           "'%s' (line %d)",
                           name, t->name, t->line);
    }
    snprintf(name, sizeof name, "%s_close", t->name);
    for (int i = 0; i < m->nloop; i++)
        if (strcmp(m->loops[i].name, name) == 0)
            return mp_fail(p, m->loops[i].line, m->loops[i].col, "loop name '%s' is taken by track '%s' (line %d)",
                           name, t->name, t->line);
    return 0;
}

/* Shoe i from pin i to pin i + 1: the chord's direction angle phi in (x, z). */
static double chord_angle(const double *pins, int i)
{
    return atan2(pins[2 * i + 3] - pins[2 * i + 1], pins[2 * i + 2] - pins[2 * i]);
}

static void add_shoes(mech_model *m, const raw_track *rt, const double *Rroot, const double *xroot, const double *pins)
{
    const mech_track *t = &rt->t;
    double prev = 0.0;
    for (int i = 0; i < t->nshoe; i++) {
        mech_body *b = &m->bodies[m->nb];
        memset(b, 0, sizeof *b);
        snprintf(b->name, sizeof b->name, "%s_shoe%d", t->name, i);
        b->mass = t->shoe_mass;
        memcpy(b->com, t->shoe_com, sizeof b->com);
        memcpy(b->inertia, t->shoe_inertia, sizeof b->inertia);
        b->fext = 1;
        m3_identity(b->rot);
        b->line = t->line;
        b->col = t->col;
        /* Shoe x at angle phi in (x, z) is R_y(-phi) x: a turn about +y takes x towards -z. */
        double phi = chord_angle(pins, i);
        if (i == 0) {
            double Rs[9], Rw[9], local[3] = { pins[0], t->plane_y, pins[1] };
            b->parent = -1;
            b->joint = MECH_JOINT_FLOATING;
            b->nq = 7;
            b->nv = 6;
            rot_axis_angle(pin_axis, -phi, Rs);
            m3_mul(Rroot, Rs, Rw);
            rot_to_quat(Rw, b->q0);
            m3_mulv(Rroot, local, b->q0 + 4);
            for (int k = 0; k < 3; k++) b->q0[4 + k] += xroot[k];
        } else {
            double turn = -(phi - prev);
            turn -= 2.0 * PI * floor((turn + PI) / (2.0 * PI));
            b->parent = m->nb - 1;
            b->joint = MECH_JOINT_REVOLUTE;
            memcpy(b->axis, pin_axis, sizeof b->axis);
            b->pos[0] = t->link;
            b->nq = b->nv = 1;
            b->q0[0] = turn;
        }
        prev = phi;
        b->qidx = m->nq;
        b->vidx = m->nv;
        m->nq += b->nq;
        m->nv += b->nv;
        mech_shape *s = &m->shapes[m->nshape++];
        memset(s, 0, sizeof *s);
        s->type = MECH_SHAPE_BOX;
        s->body = m->nb;
        s->size[0] = t->link;
        s->size[1] = t->pad_width;
        s->size[2] = t->thickness;
        s->pos[0] = 0.5 * t->link;
        s->pos[2] = t->pad_z + 0.5 * t->thickness;
        m3_identity(s->rot);
        s->visual = 1; /* the contact stage's pad, not an XPBD collider */
        s->line = t->line;
        m->nb++;
    }
}

/* Last shoe's trailing pin (link, 0, 0) on the line through the anchor's
 * leading pin along the pin axis: the two in-plane translations. */
static void add_loop(mech_model *m, mech_track *t, int col)
{
    mech_loop *l = &m->loops[m->nloop];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s_close", t->name);
    l->type = MECH_LOOP_POINT_ON_LINE;
    l->pred = t->shoe0;
    l->succ = t->shoe0 + t->nshoe - 1;
    mp_frame_from_axis(pin_axis, l->prot);
    m3_identity(l->srot);
    l->spos[0] = t->link;
    l->stab = 0.1;
    l->nc = 2;
    l->cidx = m->nc;
    l->line = t->line;
    l->col = col;
    m->nc += 2;
    t->loop = m->nloop++;
}

static void warn(parser *p, const raw_track *rt)
{
    const mech_track *t = &rt->t;
    for (int i = 0; i < t->nroller; i++) {
        const mech_roller *r = &t->rollers[i];
        if (r->end && t->link >= 2.0 * r->radius)
            mp_warn(p, r->line, rt->roller_col[i],
                    "track '%s': the link %.4g m is not under end roller '%s''s "
                    "diameter %.4g m: it can pass between two pins and never carry load",
                    t->name, t->link, rt->roller[i], 2.0 * r->radius);
        double tooth = r->drive ? 2.0 * PI * r->radius / r->teeth : t->link;
        if (fabs(tooth - t->link) > 0.05 * t->link)
            mp_warn(p, r->line, rt->roller_col[i],
                    "track '%s': sprocket '%s''s tooth pitch 2 pi R / N = %.4g m is "
                    "more than 5%% off the link %.4g m",
                    t->name, rt->roller[i], tooth, t->link);
    }
    if (rt->seen.line[TK_PITCH] && fabs(t->link - t->pitch) > 0.05 * t->pitch)
        mp_warn(p, rt->seen.line[TK_PITCH], rt->seen.col[TK_PITCH],
                "track '%s': the link %.4g m (the belt "
                "%.4g m over %d shoes) is more than 5%% off the declared pitch %.4g m",
                t->name, t->link, t->perimeter, t->nshoe, t->pitch);
}

static int lay_band(parser *p, raw_track *rt, double (*R)[9], double (*x)[3], double *pins)
{
    mech_track *t = &rt->t;
    belt_circle c[MECH_MAX_ROLLERS];
    belt_path bp;
    if (locate_rollers(p, rt, R, x, c)) return -1;
    if (belt_wrap(c, t->nroller, &bp))
        return mp_fail(p, t->line, t->col,
                       "the band of track '%s' cannot wrap its rollers: their circles "
                       "coincide or lie inside one another",
                       t->name);
    t->perimeter = bp.perimeter;
    if (belt_pins(&bp, t->nshoe, belt_start(&bp), &t->link, pins))
        return mp_fail(p, t->line, t->col,
                       "%d shoes of track '%s' cannot close around its %.4g m belt: "
                       "give more shoes",
                       t->nshoe, t->name, t->perimeter);
    return check_room(p, rt);
}

int track_expand(parser *p, raw_track *rt)
{
    mech_model *m = p->m;
    mech_track *t = &rt->t;
    char owner[MECH_NAME_MAX + 8];
    snprintf(owner, sizeof owner, "track '%s'", t->name);
    if (mp_body_index(p, rt->root, rt->seen.line[TK_ROOT], rt->seen.val_col[TK_ROOT], "root", owner, &t->root))
        return -1;
    int nb = m->nb > 0 ? m->nb : 1;
    double(*R)[9] = malloc((size_t)nb * sizeof *R), (*x)[3] = malloc((size_t)nb * sizeof *x);
    double *pins = malloc((size_t)(2 * t->nshoe + 2) * sizeof *pins);
    int r = R && x && pins ? 0 : mp_fail(p, 0, 0, "out of memory");
    if (!r) {
        poses_at_q0(m, R, x);
        r = lay_band(p, rt, R, x, pins);
    }
    void *bodies = r ? NULL : realloc(m->bodies, (size_t)(m->nb + t->nshoe) * sizeof *m->bodies);
    void *loops = bodies ? realloc(m->loops, (size_t)(m->nloop + 1) * sizeof *m->loops) : NULL;
    if (bodies) m->bodies = bodies;
    if (loops) m->loops = loops;
    if (!r && (!bodies || !loops)) r = mp_fail(p, 0, 0, "out of memory");
    while (!r && p->cap_shapes < m->nshape + t->nshoe)
        r = mp_grow(p, (void **)&m->shapes, &p->cap_shapes, p->cap_shapes, sizeof *m->shapes, MECH_MAX_SHAPES, "shapes",
                    t->col);
    if (!r) {
        double Rr[9], xr[3] = { 0, 0, 0 };
        m3_identity(Rr);
        if (t->root >= 0) {
            memcpy(Rr, R[t->root], sizeof Rr);
            memcpy(xr, x[t->root], sizeof xr);
        }
        t->shoe0 = m->nb;
        add_shoes(m, rt, Rr, xr, pins);
        add_loop(m, t, t->col);
        warn(p, rt);
    }
    free(R);
    free(x);
    free(pins);
    return r;
}
