/* constraint.c — see constraint.h.  One apply: the rows at (q, v)
 * (contacts from the narrow phase, violated limits, friction loss), their
 * Jacobian J, the Delassus operator A = J H⁻¹ Jᵀ (delassus_tree or
 * delassus_fd), MuJoCo's soft-constraint reference and regularizer per row,
 * then projected Gauss–Seidel for f and qdd += H⁻¹ Jᵀ f.
 *
 * A new kind of row adds its J row, its distance (a0 before soft_rows) and
 * its bound in a function beside contact_rows and joint_rows, called from
 * collect_rows, and its projection in sweep. */
#include "contact/constraint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide/collide.h"
#include "contact/equality.h"
#include "rbda/aba.h"
#include "rbda/elements.h"
#include "rbda/kinematics.h"
#include "rbda/ltdl.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

enum { ROW_NORMAL, ROW_FRICTION, ROW_LIMIT, ROW_FLOSS, ROW_EQUALITY };

/* A collider of the solve: a body shape (body >= 0) or a static one. */
typedef struct {
    collide_shape shape;
    int body;
    double mu;
    unsigned contype, conaffinity;
} collider;

/* A collider placed at the apply's q, and its box. */
typedef struct {
    collide_placed p;
    double lo[3], hi[3];
} placed;

struct constraint_solve {
    int nv, ncollider, floor, needs; /* needs: constraint_model_needs of its model */
    equality_set *eq;                /* the model's equality constraints, NULL without */
    double floor_z;
    collider *colliders;
    placed *placed;     /* ncollider */
    double (*reach)[4]; /* ncollider: a sphere holding the collider, centre in its body's frame and radius */
    mech_body_kin *kin;
    double *dq, *ydq; /* nv scratch: a perturbed tau and its qdd, or H⁻¹ Jᵀ f */
    /* a tree (no loops): H = Lᵀ D L (rbda/ltdl.h), H from aba_mass_matrix */
    aba_ws *aws;
    int per_row; /* constraint_per_row: the loops' way on a tree too */
    int *lambda;
    double *LD;   /* nv x nv */
    double *dinv; /* nv: 1 / D */
    /* rows */
    int nrow, caprow;
    double *J, *Y, *A; /* nrow x nv; nrow x nv (rows of L⁻ᵀ Jᵀ on a tree, of H⁻¹ Jᵀ with loops); nrow x nrow */
    double *M;         /* nrow x nrow: the factor of A + R (start_forces) */
    int *sup, *nsup;   /* a tree: per row the dofs where its row of Y is nonzero (nrow x nv), their count */
    double *a0, *aref, *R, *f, *bound,
        *bias; /* per row (one block, a0 first); bound: friction loss's, a friction row's mu; bias below */
    int *kind;
    /* contacts: first row, and the output */
    int ncontact, capcontact;
    int *crow;
    double *cmu, *out;
    double stats[3];
};

int constraint_model_needs(const mech_model *m)
{
    if (m->solver.line || m->nequality) return 1;
    for (int i = 0; i < m->ntendon; i++)
        if (m->tendons[i].limited) return 1;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        if ((b->joint == MECH_JOINT_REVOLUTE || b->joint == MECH_JOINT_PRISMATIC) &&
            (b->xj.has_limit || b->frictionloss > 0))
            return 1;
    }
    return 0;
}

static void collider_from_shape(const mech_model *m, const mech_shape *s, collider *c)
{
    static const collide_kind kinds[] = {
        [MECH_SHAPE_BOX] = COLLIDE_BOX,           [MECH_SHAPE_SPHERE] = COLLIDE_SPHERE,
        [MECH_SHAPE_CYLINDER] = COLLIDE_CYLINDER, [MECH_SHAPE_CAPSULE] = COLLIDE_CAPSULE,
        [MECH_SHAPE_PLANE] = COLLIDE_PLANE,       [MECH_SHAPE_MESH] = COLLIDE_HULL
    };
    c->shape.kind = kinds[s->type];
    c->body = s->body;
    memcpy(c->shape.pos, s->pos, sizeof c->shape.pos);
    memcpy(c->shape.R, s->rot, sizeof c->shape.R);
    if (s->type == MECH_SHAPE_BOX)
        for (int j = 0; j < 3; j++) c->shape.size[j] = 0.5 * s->size[j];
    else {
        c->shape.size[0] = s->size[0];
        c->shape.size[1] = 0.5 * s->size[1];
        c->shape.size[2] = 0;
    }
    if (s->type == MECH_SHAPE_MESH) {
        c->shape.hull = m->meshes[s->mesh].hull;
        c->shape.nhull = m->meshes[s->mesh].nhull;
    }
    c->mu = s->mu_s;
    c->contype = s->contype;
    c->conaffinity = s->conaffinity;
}

constraint_solve *constraint_new(const mech_model *m)
{
    constraint_solve *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->nv = m->nv;
    s->needs = constraint_model_needs(m);
    s->colliders = calloc((size_t)(m->nshape + m->nstatic + 1), sizeof *s->colliders);
    s->placed = calloc((size_t)(m->nshape + m->nstatic + 1), sizeof *s->placed);
    s->reach = calloc((size_t)(m->nshape + m->nstatic + 1), sizeof *s->reach);
    s->kin = calloc((size_t)(m->nb + 1), sizeof *s->kin);
    s->dq = calloc(2 * (size_t)(m->nv + 1), sizeof *s->dq);
    if (!m->nc) {
        s->aws = aba_ws_new(m);
        s->lambda = calloc((size_t)(m->nv + 1), sizeof *s->lambda);
        s->LD = calloc((size_t)m->nv * (size_t)m->nv + 1, sizeof *s->LD);
        s->dinv = calloc((size_t)m->nv + 1, sizeof *s->dinv);
    }
    if (m->nequality) s->eq = equality_new(m);
    if (!s->colliders || !s->placed || !s->reach || !s->kin || !s->dq || (m->nequality && !s->eq) ||
        (!m->nc && (!s->aws || !s->lambda || !s->LD || !s->dinv))) {
        constraint_free(s);
        return NULL;
    }
    if (!m->nc) ltdl_parents(m, s->lambda);
    s->ydq = s->dq + m->nv + 1;
    for (int i = 0; i < m->nshape + m->nstatic; i++) {
        const mech_shape *sh = i < m->nshape ? &m->shapes[i] : &m->statics[i - m->nshape];
        if (mech_shape_collides(m, sh)) collider_from_shape(m, sh, &s->colliders[s->ncollider++]);
    }
    for (int i = 0; i < s->ncollider; i++) /* the box of the collider at its body's frame holds it: its sphere too */
        if (s->colliders[i].body >= 0) {
            static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, o[3] = { 0, 0, 0 };
            collide_placed p;
            double lo[3], hi[3], *r = s->reach[i];
            collide_shape_place(&s->colliders[i].shape, o, I, &p);
            collide_placed_aabb(&p, lo, hi);
            for (int k = 0; k < 3; k++) r[k] = 0.5 * (lo[k] + hi[k]);
            r[3] = 0.5 * sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                              (hi[2] - lo[2]) * (hi[2] - lo[2]));
        }
    return s;
}

void constraint_free(constraint_solve *s)
{
    if (!s) return;
    equality_free(s->eq);
    free(s->colliders);
    free(s->placed);
    free(s->reach);
    free(s->kin);
    aba_ws_free(s->aws);
    free(s->lambda);
    free(s->LD);
    free(s->dinv);
    free(s->sup);
    free(s->nsup);
    free(s->dq);
    free(s->J);
    free(s->Y);
    free(s->A);
    free(s->M);
    free(s->a0);
    free(s->kind);
    free(s->crow);
    free(s->cmu);
    free(s->out);
    free(s);
}

void constraint_set_floor(constraint_solve *s, int on, double height)
{
    s->floor = on != 0;
    s->floor_z = height;
}

int constraint_active(const constraint_solve *s) { return s->floor || s->needs; }

void constraint_per_row(constraint_solve *s, int on) { s->per_row = on != 0; }

int constraint_floor(const constraint_solve *s, double *height)
{
    if (height) *height = s->floor_z;
    return s->floor;
}

/* ---- rows ---- */

/* Room for n more rows; -1 when out of memory. */
static int grow_rows(constraint_solve *s, int n)
{
    int need = s->nrow + n;
    if (need <= s->caprow) return 0;
    int cap = need > 2 * s->caprow ? need : 2 * s->caprow;
    size_t nv = (size_t)s->nv;
    double *J = realloc(s->J, (size_t)cap * nv * sizeof *J);
    if (J) s->J = J;
    double *Y = realloc(s->Y, (size_t)cap * nv * sizeof *Y);
    if (Y) s->Y = Y;
    double *A = realloc(s->A, (size_t)cap * (size_t)cap * sizeof *A);
    if (A) s->A = A;
    double *M = realloc(s->M, (size_t)cap * (size_t)cap * sizeof *M);
    if (M) s->M = M;
    double *a0 = malloc(6 * (size_t)cap * sizeof *a0);
    if (a0 && s->a0) /* the six per-row arrays, each to its new place */
        for (int k = 0; k < 6; k++)
            memcpy(a0 + (size_t)k * cap, s->a0 + (size_t)k * s->caprow, (size_t)s->nrow * sizeof *a0);
    if (a0) {
        free(s->a0);
        s->a0 = a0;
    }
    int *kind = realloc(s->kind, (size_t)cap * sizeof *kind);
    if (kind) s->kind = kind;
    int *sup = realloc(s->sup, (size_t)cap * nv * sizeof *sup);
    if (sup) s->sup = sup;
    int *nsup = realloc(s->nsup, (size_t)cap * sizeof *nsup);
    if (nsup) s->nsup = nsup;
    if (!J || !Y || !A || !M || !a0 || !kind || !sup || !nsup) return -1;
    s->aref = s->a0 + cap;
    s->R = s->aref + cap;
    s->f = s->R + cap;
    s->bound = s->f + cap;
    s->bias = s->bound + cap;
    s->caprow = cap;
    return 0;
}

/* A new row of kind k, J zeroed; its index, or -1 when out of memory. */
static int new_row(constraint_solve *s, int k, double pos, double bound)
{
    if (grow_rows(s, 1)) return -1;
    int i = s->nrow++;
    memset(s->J + (size_t)i * s->nv, 0, (size_t)s->nv * sizeof *s->J);
    s->kind[i] = k;
    s->a0[i] = pos; /* the row's distance until the reference is made (soft_rows) */
    s->bound[i] = bound;
    s->bias[i] = 0;
    return i;
}

/* row += sign u · (velocity of the world point x moving with body b per
 * unit joint rate), over b's chain: a revolute joint moves x by a × (x − p),
 * a prismatic by a (a cylindrical joint both), a spherical joint (qd = ω in
 * its frame) by Rᵀ(r × u) · ω, a floating body (qd = [ω; v] in its frame) by
 * Rᵀ(r × u) · ω + Rᵀu · v.  A floating body's v is in its own frame, so
 * its qdd holds −ω × v even at constant world velocity: *bias gets
 * sign u · R (ω × v), and J qdd + bias is the row's acceleration as
 * MuJoCo's world-frame free joint has it (J̇ qd otherwise left out, as
 * MuJoCo leaves it out). */
void constraint_point_row(const mech_model *m, const mech_body_kin *k, int b, const double x[3], const double u[3],
                          double sign, const double *v, double *row, double *bias)
{
    for (int j = b; j >= 0; j = m->bodies[j].parent) {
        const mech_body *bj = &m->bodies[j];
        double a[3], r[3], c[3], t[3];
        for (int i = 0; i < 3; i++) r[i] = x[i] - k[j].p[i];
        double *out = row + bj->vidx;
        switch (bj->joint) {
        case MECH_JOINT_REVOLUTE:
            m3_mulv(k[j].R, bj->axis, a);
            v3_cross(a, r, c);
            out[0] += sign * v3_dot(u, c);
            break;
        case MECH_JOINT_PRISMATIC:
            m3_mulv(k[j].R, bj->axis, a);
            out[0] += sign * v3_dot(u, a);
            break;
        case MECH_JOINT_FLOATING:
            v3_cross(r, u, c);
            m3_tmulv(k[j].R, c, t);
            m3_tmulv(k[j].R, u, a);
            for (int i = 0; i < 3; i++) {
                out[i] += sign * t[i];
                out[3 + i] += sign * a[i];
            }
            v3_cross(v + bj->vidx, v + bj->vidx + 3, c);
            *bias += sign * v3_dot(a, c); /* (Rᵀu) · (ω × v) */
            break;
        case MECH_JOINT_SPHERICAL: /* qd = ω in its frame: the floating body's angular part */
            v3_cross(r, u, c);
            m3_tmulv(k[j].R, c, t);
            for (int i = 0; i < 3; i++) out[i] += sign * t[i];
            break;
        case MECH_JOINT_CYLINDRICAL: /* [angle, displacement] about and along one axis */
            m3_mulv(k[j].R, bj->axis, a);
            v3_cross(a, r, c);
            out[0] += sign * v3_dot(u, c);
            out[1] += sign * v3_dot(u, a);
            break;
        case MECH_JOINT_FIXED: break;
        }
    }
}

/* Two unit tangents completing n. */
static void tangents(const double n[3], double t1[3], double t2[3])
{
    double e[3] = { 0, 0, 0 };
    e[fabs(n[0]) < 0.6 ? 0 : 1] = 1;
    v3_cross(n, e, t1);
    double l = v3_norm(t1);
    for (int i = 0; i < 3; i++) t1[i] /= l;
    v3_cross(n, t1, t2);
}

static int grow_contacts(constraint_solve *s)
{
    if (s->ncontact < s->capcontact) return 0;
    int cap = s->capcontact ? 2 * s->capcontact : 16;
    int *crow = realloc(s->crow, (size_t)cap * sizeof *crow);
    if (crow) s->crow = crow;
    double *cmu = realloc(s->cmu, (size_t)cap * sizeof *cmu);
    if (cmu) s->cmu = cmu;
    double *out = realloc(s->out, 10 * (size_t)cap * sizeof *out);
    if (out) s->out = out;
    if (!crow || !cmu || !out) return -1;
    s->capcontact = cap;
    return 0;
}

/* The rows of one manifold between colliders a (body ba) and b (body bb,
 * -1 static): per point a normal row and, with friction, two tangent rows. */
static int contact_rows(constraint_solve *s, const mech_model *m, const double *v, int ba, int bb, double mu,
                        const collide_manifold *c)
{
    for (int p = 0; p < c->n_points; p++) {
        if (grow_contacts(s)) return -1;
        double x[3], t1[3], t2[3];
        for (int i = 0; i < 3; i++) x[i] = 0.5 * (c->pa[p][i] + c->pb[p][i]);
        tangents(c->n, t1, t2);
        int first = s->nrow;
        const double *dir[3] = { c->n, t1, t2 };
        for (int r = 0; r < (mu > 0 ? 3 : 1); r++) {
            int i = new_row(s, r ? ROW_FRICTION : ROW_NORMAL, r ? 0.0 : -c->depth[p], r ? mu : 0.0);
            if (i < 0) return -1;
            double *row = s->J + (size_t)i * s->nv;
            if (ba >= 0) constraint_point_row(m, s->kin, ba, x, dir[r], 1.0, v, row, &s->bias[i]);
            if (bb >= 0) constraint_point_row(m, s->kin, bb, x, dir[r], -1.0, v, row, &s->bias[i]);
        }
        double *o = s->out + 10 * s->ncontact;
        memcpy(o, x, sizeof x);
        memcpy(o + 3, c->n, 3 * sizeof *o);
        s->crow[s->ncontact] = first;
        s->cmu[s->ncontact++] = mu;
    }
    return 0;
}

/* 1 when the pair of colliders may touch: different bodies, not a body and
 * its parent body (the world is no body's parent here, as in MuJoCo), not
 * excluded, and the bitmasks agree. */
static int pair_allowed(const mech_model *m, const collider *a, const collider *b)
{
    if (a->body == b->body) return 0;
    if (a->body >= 0 && b->body >= 0 && (m->bodies[a->body].parent == b->body || m->bodies[b->body].parent == a->body))
        return 0;
    if (!((a->contype & b->conaffinity) | (b->contype & a->conaffinity))) return 0;
    for (int i = 0; i < m->nexclude; i++) {
        const int *e = m->exclude[i];
        if ((e[0] == a->body && e[1] == b->body) || (e[0] == b->body && e[1] == a->body)) return 0;
    }
    return 1;
}

/* Every collider at the kinematics' q, with its box (a plane's unbounded).
 * With the floor alone to touch (floor_only), a body collider whose sphere
 * is above the floor is left unplaced, its box's bottom at +∞. */
static void place_all(constraint_solve *s, int floor_only)
{
    static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, o[3] = { 0, 0, 0 };
    for (int i = 0; i < s->ncollider; i++) {
        const collider *c = &s->colliders[i];
        placed *p = &s->placed[i];
        if (floor_only && c->body >= 0) {
            const double *R = s->kin[c->body].R, *r = s->reach[i];
            if (s->kin[c->body].p[2] + R[6] * r[0] + R[7] * r[1] + R[8] * r[2] - r[3] > s->floor_z) {
                p->lo[2] = INFINITY;
                continue;
            }
        }
        if (c->body >= 0) collide_shape_place(&c->shape, s->kin[c->body].p, s->kin[c->body].R, &p->p);
        else collide_shape_place(&c->shape, o, I, &p->p);
        if (p->p.kind != COLLIDE_PLANE) collide_placed_aabb(&p->p, p->lo, p->hi);
    }
}

static int overlap(const placed *a, const placed *b)
{
    if (a->p.kind == COLLIDE_PLANE || b->p.kind == COLLIDE_PLANE) return 1;
    for (int i = 0; i < 3; i++)
        if (a->lo[i] > b->hi[i] || b->lo[i] > a->hi[i]) return 0;
    return 1;
}

/* Every touching pair: body colliders with each other and the statics
 * (with a `contact` line), and with the floor (a collider whose box is
 * above it cannot touch it). */
static int find_contacts(constraint_solve *s, const mech_model *m, const double *v)
{
    collide_manifold man;
    place_all(s, !m->solver.line);
    for (int i = 0; i < s->ncollider; i++) {
        const collider *a = &s->colliders[i];
        const placed *pa = &s->placed[i];
        if (a->body < 0) continue;
        if (s->floor && pa->lo[2] <= s->floor_z) {
            collide_placed fl = { .kind = COLLIDE_PLANE, .c = { 0, 0, s->floor_z }, .R = { 1, 0, 0, 0, 1, 0, 0, 0, 1 } };
            double mu = fmax(a->mu, MECH_FLOOR_MU);
            if (collide_pair(&pa->p, &fl, 0.0, &man) && contact_rows(s, m, v, a->body, -1, mu, &man)) return -1;
        }
        if (!m->solver.line) continue;
        for (int j = 0; j < s->ncollider; j++) {
            const collider *b = &s->colliders[j];
            const placed *pb = &s->placed[j];
            if ((b->body >= 0 && j <= i) || !overlap(pa, pb) || !pair_allowed(m, a, b)) continue;
            if (collide_pair(&pa->p, &pb->p, 0.0, &man) &&
                contact_rows(s, m, v, a->body, b->body, fmax(a->mu, b->mu), &man))
                return -1;
        }
    }
    return 0;
}

/* A violated limit: J = ±e, distance q − lower or upper − q; friction loss:
 * J = e, bounded by the joint's frictionloss. */
static int joint_rows(constraint_solve *s, const mech_model *m, const double *q)
{
    for (int b = 0; b < m->nb; b++) {
        const mech_body *bd = &m->bodies[b];
        if (bd->joint != MECH_JOINT_REVOLUTE && bd->joint != MECH_JOINT_PRISMATIC) continue;
        double x = q[bd->qidx];
        if (bd->xj.has_limit && (x < bd->xj.lower || x > bd->xj.upper)) {
            int lower = x < bd->xj.lower;
            int i = new_row(s, ROW_LIMIT, lower ? x - bd->xj.lower : bd->xj.upper - x, 0);
            if (i < 0) return -1;
            s->J[(size_t)i * s->nv + bd->vidx] = lower ? 1.0 : -1.0;
        }
        if (bd->frictionloss > 0) {
            int i = new_row(s, ROW_FLOSS, 0.0, bd->frictionloss);
            if (i < 0) return -1;
            s->J[(size_t)i * s->nv + bd->vidx] = 1.0;
        }
    }
    return 0;
}

/* A violated tendon range: J = ±coef, distance L − lo or hi − L (a joint
 * limit's law); each equality's rows (equality.h), bound: its index. */
static int tendon_equality_rows(constraint_solve *s, const mech_model *m, const double *q, const double *v)
{
    for (int t = 0; t < m->ntendon; t++) {
        const mech_tendon *td = &m->tendons[t];
        double ld, l = td->limited ? mech_tendon_length(m, td, q, NULL, &ld) : 0.0;
        if (!td->limited || (l >= td->range[0] && l <= td->range[1])) continue;
        int lower = l < td->range[0];
        int i = new_row(s, ROW_LIMIT, lower ? l - td->range[0] : td->range[1] - l, 0);
        if (i < 0) return -1;
        for (int k = 0; k < td->njoint; k++)
            s->J[(size_t)i * s->nv + m->bodies[td->body[k]].vidx] += lower ? td->coef[k] : -td->coef[k];
    }
    for (int e = 0; e < m->nequality; e++)
        for (int k = 0; k < equality_nrows(&m->equalities[e]); k++) {
            int i = new_row(s, ROW_EQUALITY, 0, e);
            if (i < 0) return -1;
            equality_row(m, s->eq, s->kin, e, k, q, v, s->J + (size_t)i * s->nv, &s->a0[i], &s->bias[i]);
        }
    return 0;
}

/* ---- the soft constraints (MuJoCo documentation, "Computation") ---- */

/* The impedance d(r) of solimp (d0, dwidth, width; midpoint 0.5, power 2):
 * from d0 at r = 0 to dwidth at |r| >= width along two quadratic halves. */
static double impedance(const double solimp[3], double r)
{
    double x = fabs(r) / solimp[2];
    if (x >= 1) return solimp[1];
    double y = x <= 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x);
    return solimp[0] + y * (solimp[1] - solimp[0]);
}

/* Per row: a_ref = −b (J v) − k d r with k = 1 / (dwidth² τ² ζ²),
 * b = 2 / (dwidth τ); R = (1 − d) / d · A_ii (friction rows: their normal
 * row's R over impratio).  a0 then holds J qdd + bias, the unconstrained
 * acceleration along the row. */
static void soft_rows(constraint_solve *s, const mech_model *m, const double *v, const double *qdd)
{
    const mech_solver *opt = &m->solver;
    double rn = 0, req = 0; /* req: the distance of equality eq (its rows in a row) */
    int eq = -1;
    for (int i = 0; i < s->nrow; i++) {
        const double *J = s->J + (size_t)i * s->nv;
        double jv = 0, ja = s->bias[i];
        for (int c = 0; c < s->nv; c++) {
            jv += J[c] * v[c];
            ja += J[c] * qdd[c];
        }
        const double *solref = opt->solref, *solimp = opt->solimp;
        double Aii = s->A[(size_t)i * s->nrow + i];
        double r = s->a0[i], rimp = r;
        if (s->kind[i] == ROW_EQUALITY) {
            if ((int)s->bound[i] != eq) req = equality_distance(m, eq = (int)s->bound[i], s->a0 + i);
            equality_soft(m, s->eq, eq, &solref, &solimp, &Aii);
            rimp = req;
        }
        const double tau = solref[0], zeta = solref[1], dw = solimp[1];
        const double k = 1.0 / (dw * dw * tau * tau * zeta * zeta), b = 2.0 / (dw * tau);
        double d = impedance(solimp, rimp);
        s->aref[i] = -b * jv - k * d * r;
        if (s->kind[i] == ROW_FRICTION) s->R[i] = rn / opt->impratio;
        else s->R[i] = fmax(1e-15, (1 - d) / d * Aii);
        if (s->kind[i] == ROW_NORMAL) rn = s->R[i];
        s->a0[i] = ja;
        s->f[i] = 0;
    }
}

/* Row i's residual g_i = a0_i − aref_i + Σ_j A_ij f_j + R_i f_i: the
 * constraint acceleration's excess over its reference. */
static double residual(const constraint_solve *s, int i)
{
    const double *Ai = s->A + (size_t)i * s->nrow;
    double g = s->a0[i] - s->aref[i] + s->R[i] * s->f[i];
    for (int j = 0; j < s->nrow; j++) g += Ai[j] * s->f[j];
    return g;
}

/* The minimum of ½ fᵀ M f + bᵀ f over the disk |f| <= L, M a symmetric
 * positive definite 2 x 2 [M0 M1; M1 M2]: the unconstrained −M⁻¹ b when it
 * lies inside, else f = −(M + λI)⁻¹ b on the circle, λ > 0 found by Newton's
 * method on 1/|f(λ)| − 1/L, which converges monotonically from λ = 0 (Moré
 * and Sorensen 1983, the trust-region subproblem). */
static void disk_minimum(const double M[3], const double b[2], double L, double f[2])
{
    f[0] = f[1] = 0;
    if (!(L > 0)) return;
    const double det = M[0] * M[2] - M[1] * M[1]; /* inside: −M⁻¹ b itself (a sticking contact) */
    f[0] = -(M[2] * b[0] - M[1] * b[1]) / det;
    f[1] = -(M[0] * b[1] - M[1] * b[0]) / det;
    if (f[0] * f[0] + f[1] * f[1] <= L * L) return;
    /* M's eigenvalues e and unit eigenvectors (columns of V) */
    double h = 0.5 * (M[0] - M[2]), r = sqrt(h * h + M[1] * M[1]), mid = 0.5 * (M[0] + M[2]);
    double e[2] = { mid + r, mid - r }, cth = 1, sth = 0;
    if (r > 0) {
        double ang = 0.5 * atan2(M[1], h);
        cth = cos(ang);
        sth = sin(ang);
    }
    double bt[2] = { cth * b[0] + sth * b[1], -sth * b[0] + cth * b[1] }; /* Vᵀ b */
    double lam = 0, ft[2] = { 0, 0 };
    for (int it = 0; it < 50; it++) {
        ft[0] = -bt[0] / (e[0] + lam);
        ft[1] = -bt[1] / (e[1] + lam);
        double norm2 = ft[0] * ft[0] + ft[1] * ft[1], norm = sqrt(norm2);
        if (fabs(norm - L) <= 1e-14 * L) break;
        /* d|f|/dλ = −Σ ft_k² / (e_k + λ) / |f| */
        double dn = -(ft[0] * ft[0] / (e[0] + lam) + ft[1] * ft[1] / (e[1] + lam)) / norm;
        double step = -(1 / norm - 1 / L) / (-dn / norm2); /* Newton on 1/|f| − 1/L */
        lam = fmax(0.0, lam + step);
    }
    double norm = sqrt(ft[0] * ft[0] + ft[1] * ft[1]);
    if (norm > L) { /* rounding past the circle */
        ft[0] *= L / norm;
        ft[1] *= L / norm;
    }
    f[0] = cth * ft[0] - sth * ft[1];
    f[1] = sth * ft[0] + cth * ft[1];
}

/* The sweeps' first forces: the solution of (A + R) f = aref − a0, every
 * row an equality (the answer itself when every contact holds and sticks,
 * as in a resting stack), projected onto the bounds: a normal or limit
 * force at least 0, friction loss within its bound, friction within its
 * disk.  Zero when that system is too ill-conditioned to give finite
 * forces. */
static void start_forces(constraint_solve *s)
{
    const int n = s->nrow;
    for (int i = 0; i < n; i++) {
        memcpy(s->M + (size_t)i * n, s->A + (size_t)i * n, (size_t)n * sizeof *s->M);
        s->M[(size_t)i * n + i] += s->R[i];
        s->f[i] = s->aref[i] - s->a0[i];
    }
    spd_solve(n, s->M, s->f);
    for (int i = 0; i < n; i++)
        if (!isfinite(s->f[i])) {
            memset(s->f, 0, (size_t)n * sizeof *s->f);
            return;
        }
    for (int i = 0; i < n; i++) switch (s->kind[i]) {
        case ROW_NORMAL:
        case ROW_LIMIT: s->f[i] = fmax(0.0, s->f[i]); break;
        case ROW_FLOSS: s->f[i] = fmin(s->bound[i], fmax(-s->bound[i], s->f[i])); break;
        case ROW_EQUALITY: break; /* bilateral: unbounded */
        case ROW_FRICTION: {
            double L = s->bound[i] * s->f[i - 1], t = hypot(s->f[i], s->f[i + 1]);
            if (t > L) {
                s->f[i] = t > 0 ? s->f[i] * L / t : 0.0;
                s->f[i + 1] = t > 0 ? s->f[i + 1] * L / t : 0.0;
            }
            i++;
            break;
        }
        }
}

/* Projected Gauss–Seidel on the block of row i (a friction row: the pair
 * of tangents i, i + 1); the largest force change. */
static double update(constraint_solve *s, int i)
{
    const int n = s->nrow;
    double old = s->f[i];
    switch (s->kind[i]) {
    case ROW_NORMAL:
    case ROW_LIMIT: s->f[i] = fmax(0.0, old - residual(s, i) / (s->A[(size_t)i * n + i] + s->R[i])); break;
    case ROW_EQUALITY: s->f[i] = old - residual(s, i) / (s->A[(size_t)i * n + i] + s->R[i]); break;
    case ROW_FLOSS: {
        double f = old - residual(s, i) / (s->A[(size_t)i * n + i] + s->R[i]);
        s->f[i] = fmin(s->bound[i], fmax(-s->bound[i], f));
        break;
    }
    case ROW_FRICTION: { /* the 2 x 2 block of the two tangents within the disk |f_t| <= mu f_n */
        double M[3] = { s->A[(size_t)i * n + i] + s->R[i], s->A[(size_t)i * n + i + 1],
                        s->A[(size_t)(i + 1) * n + i + 1] + s->R[i + 1] };
        double b[2] = { residual(s, i) - M[0] * s->f[i] - M[1] * s->f[i + 1],
                        residual(s, i + 1) - M[1] * s->f[i] - M[2] * s->f[i + 1] };
        double ft[2];
        disk_minimum(M, b, s->bound[i] * s->f[i - 1], ft);
        double change = fmax(fabs(ft[0] - s->f[i]), fabs(ft[1] - s->f[i + 1]));
        s->f[i] = ft[0];
        s->f[i + 1] = ft[1];
        return change;
    }
    }
    return fabs(s->f[i] - old);
}

/* One symmetric sweep, the rows in order then back (symmetric Gauss–Seidel:
 * a force found at one end of a chain of contacts, a stack's top or its
 * floor, reaches the other end within a sweep); the largest force change.
 * A forward pass that changes nothing beyond tol found a fixed point: the
 * sweep ends there. */
static double sweep(constraint_solve *s, double tol)
{
    double change = 0;
    for (int i = 0; i < s->nrow; i += s->kind[i] == ROW_FRICTION ? 2 : 1) change = fmax(change, update(s, i));
    if (change <= tol) return change;
    for (int i = s->nrow - 1; i >= 0; i -= s->kind[i] == ROW_FRICTION ? 2 : 1)
        change = fmax(change, update(s, s->kind[i] == ROW_FRICTION ? i - 1 : i));
    return change;
}

/* ---- the Delassus operator A = J H⁻¹ Jᵀ ---- */

/* A tree: H = Lᵀ D L from the composite-rigid-body algorithm, then per row
 * Y_i = L⁻ᵀ J_iᵀ, which stays on the dofs of the row's chains (a contact on
 * one leg of a walker: the base and that leg), and A_ij = Σ_k Y_ik Y_jk / D_k
 * over row i's dofs.  -1 when H is not positive definite. */
static int delassus_tree(constraint_solve *s, const mech_model *m, const double *q, const double *act)
{
    const int nr = s->nrow, nv = s->nv;
    aba_set_implicit_step(s->aws, mech_model_implicit_step(m, act));
    aba_mass_matrix(m, s->aws, q, s->LD);
    if (ltdl_factor(nv, s->lambda, s->LD)) return -1;
    for (int c = 0; c < nv; c++) s->dinv[c] = 1.0 / s->LD[(size_t)c * nv + c];
    for (int i = 0; i < nr; i++) {
        double *Y = s->Y + (size_t)i * nv;
        int *sup = s->sup + (size_t)i * nv, n = 0;
        memcpy(Y, s->J + (size_t)i * nv, (size_t)nv * sizeof *Y);
        ltdl_solve_lt(nv, s->lambda, s->LD, Y);
        for (int c = 0; c < nv; c++)
            if (Y[c] != 0) sup[n++] = c;
        s->nsup[i] = n;
    }
    for (int i = 0; i < nr; i++) {
        const double *Yi = s->Y + (size_t)i * nv;
        const int *sup = s->sup + (size_t)i * nv;
        for (int j = i; j < nr; j++) {
            const double *Yj = s->Y + (size_t)j * nv;
            double a = 0;
            for (int k = 0; k < s->nsup[i]; k++) a += Yi[sup[k]] * Yj[sup[k]] * s->dinv[sup[k]];
            s->A[(size_t)i * nr + j] = s->A[(size_t)j * nr + i] = a;
        }
    }
    return 0;
}

/* qdd += H⁻¹ Jᵀ f = L⁻¹ D⁻¹ Σ_i Y_i f_i on a tree. */
static void response_tree(constraint_solve *s, double *qdd)
{
    const int nv = s->nv;
    double *x = s->ydq;
    memset(x, 0, (size_t)nv * sizeof *x);
    for (int i = 0; i < s->nrow; i++) {
        const double *Y = s->Y + (size_t)i * nv;
        const int *sup = s->sup + (size_t)i * nv;
        for (int k = 0; k < s->nsup[i]; k++) x[sup[k]] += Y[sup[k]] * s->f[i];
    }
    for (int c = 0; c < nv; c++) x[c] *= s->dinv[c];
    ltdl_solve_l(nv, s->lambda, s->LD, x);
    for (int c = 0; c < nv; c++) qdd[c] += x[c];
}

/* With loops: H⁻¹ is the engine's constrained response, affine in tau:
 * Y_i = FD(tau + J_iᵀ) − FD(tau), one dynamics call per row; A = J Y. */
static void delassus_fd(constraint_solve *s, constraint_fd_fn fd, void *ctx, const double *q, const double *v,
                        const double *tau, const double *fext, const double *qdd)
{
    const int nr = s->nrow, nv = s->nv;
    for (int i = 0; i < nr; i++) {
        const double *J = s->J + (size_t)i * nv;
        for (int c = 0; c < nv; c++) s->dq[c] = tau[c] + J[c];
        fd(ctx, q, v, s->dq, fext, s->ydq);
        double *Y = s->Y + (size_t)i * nv;
        for (int c = 0; c < nv; c++) Y[c] = s->ydq[c] - qdd[c];
    }
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nr; j++) {
            const double *J = s->J + (size_t)i * nv, *Y = s->Y + (size_t)j * nv;
            double a = 0;
            for (int c = 0; c < nv; c++) a += J[c] * Y[c];
            s->A[(size_t)i * nr + j] = a;
        }
    for (int i = 0; i < nr; i++) /* symmetric up to rounding: make it exactly so */
        for (int j = 0; j < i; j++) {
            double a = 0.5 * (s->A[(size_t)i * nr + j] + s->A[(size_t)j * nr + i]);
            s->A[(size_t)i * nr + j] = s->A[(size_t)j * nr + i] = a;
        }
}

/* qdd += Y f with loops. */
static void response_fd(constraint_solve *s, double *qdd)
{
    for (int i = 0; i < s->nrow; i++) {
        const double *Y = s->Y + (size_t)i * s->nv;
        for (int c = 0; c < s->nv; c++) qdd[c] += Y[c] * s->f[i];
    }
}

/* The rows at (q, v): contacts, then limits and friction loss. */
static int collect_rows(constraint_solve *s, const mech_model *m, const double *q, const double *v)
{
    mech_world_kinematics(m, q, NULL, s->kin);
    return find_contacts(s, m, v) || joint_rows(s, m, q) || tendon_equality_rows(s, m, q, v) ? -1 : 0;
}

int constraint_apply(constraint_solve *s, const mech_model *m, constraint_fd_fn fd, void *ctx, const double *q,
                     const double *v, const double *tau, const double *fext, const double *act, double *qdd)
{
    s->nrow = s->ncontact = 0;
    s->stats[0] = s->stats[1] = s->stats[2] = 0;
    if (collect_rows(s, m, q, v)) return -1;
    const int nr = s->nrow;
    if (!nr) return 0;
    const int tree = s->aws && !s->per_row;
    if (!tree) delassus_fd(s, fd, ctx, q, v, tau, fext, qdd);
    else if (delassus_tree(s, m, q, act)) return -1;
    soft_rows(s, m, v, qdd);
    start_forces(s);
    int it = 0;
    double change = 0;
    while (it < m->solver.iterations) {
        change = sweep(s, m->solver.tolerance);
        it++;
        if (change <= m->solver.tolerance) break;
    }
    if (tree) response_tree(s, qdd);
    else response_fd(s, qdd);
    for (int k = 0; k < s->ncontact; k++) {
        double *o = s->out + 10 * k;
        int r = s->crow[k];
        o[6] = s->f[r];
        double t1[3], t2[3];
        tangents(o + 3, t1, t2);
        int fr = s->cmu[k] > 0;
        for (int i = 0; i < 3; i++) o[7 + i] = fr ? s->f[r + 1] * t1[i] + s->f[r + 2] * t2[i] : 0.0;
    }
    s->stats[0] = nr;
    s->stats[1] = it;
    s->stats[2] = change;
    return 0;
}

int constraint_contacts(const constraint_solve *s, const double **out)
{
    *out = s->out;
    return s->ncontact;
}

void constraint_stats(const constraint_solve *s, double out[3]) { memcpy(out, s->stats, sizeof s->stats); }
