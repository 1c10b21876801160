/* constraint.c — see constraint.h.  One apply: the rows at (q, v)
 * (contacts from the narrow phase, violated limits, friction loss), their
 * Jacobian J, Y = H⁻¹ Jᵀ through the engine's dynamics, A = J Y, MuJoCo's
 * soft-constraint reference and regularizer per row, then projected
 * Gauss–Seidel for f and qdd += Y f. */
#include "contact/constraint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide/collide.h"
#include "rbda/kinematics.h"
#include "spatial/spatial.h"

enum { ROW_NORMAL, ROW_FRICTION, ROW_LIMIT, ROW_FLOSS };

/* A collider of the solve: a body shape (body >= 0) or a static one. */
typedef struct {
    collide_shape shape;
    int body;
    double mu;
    unsigned contype, conaffinity;
} collider;

struct constraint_solve {
    int nv, ncollider, floor, needs; /* needs: constraint_model_needs of its model */
    double floor_z;
    collider *colliders;
    mech_body_kin *kin;
    double *dq, *ydq; /* nv scratch: a perturbed tau and its qdd */
    /* rows */
    int nrow, caprow;
    double *J, *Y, *A;                        /* nrow x nv, nrow x nv (rows of H⁻¹ Jᵀ), nrow x nrow */
    double *a0, *aref, *R, *f, *bound, *bias; /* per row (one block, a0 first); bound: friction loss's; bias below */
    int *kind;
    /* contacts: first row, and the output */
    int ncontact, capcontact;
    int *crow;
    double *cmu, *out;
    double stats[3];
};

int constraint_model_needs(const mech_model *m)
{
    if (m->solver.line) return 1;
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
    s->kin = calloc((size_t)(m->nb + 1), sizeof *s->kin);
    s->dq = calloc(2 * (size_t)(m->nv + 1), sizeof *s->dq);
    if (!s->colliders || !s->kin || !s->dq) {
        constraint_free(s);
        return NULL;
    }
    s->ydq = s->dq + m->nv + 1;
    for (int i = 0; i < m->nshape + m->nstatic; i++) {
        const mech_shape *sh = i < m->nshape ? &m->shapes[i] : &m->statics[i - m->nshape];
        if (mech_shape_collides(m, sh)) collider_from_shape(m, sh, &s->colliders[s->ncollider++]);
    }
    return s;
}

void constraint_free(constraint_solve *s)
{
    if (!s) return;
    free(s->colliders);
    free(s->kin);
    free(s->dq);
    free(s->J);
    free(s->Y);
    free(s->A);
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
    if (!J || !Y || !A || !a0 || !kind) return -1;
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
static void point_row(const mech_model *m, const mech_body_kin *k, int b, const double x[3], const double u[3],
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
            int i = new_row(s, r ? ROW_FRICTION : ROW_NORMAL, r ? 0.0 : -c->depth[p], 0);
            if (i < 0) return -1;
            double *row = s->J + (size_t)i * s->nv;
            if (ba >= 0) point_row(m, s->kin, ba, x, dir[r], 1.0, v, row, &s->bias[i]);
            if (bb >= 0) point_row(m, s->kin, bb, x, dir[r], -1.0, v, row, &s->bias[i]);
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

static void place(const constraint_solve *s, const collider *c, collide_placed *out)
{
    static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, o[3] = { 0, 0, 0 };
    if (c->body >= 0) collide_shape_place(&c->shape, s->kin[c->body].p, s->kin[c->body].R, out);
    else collide_shape_place(&c->shape, o, I, out);
}

static int overlap(const collide_placed *a, const collide_placed *b)
{
    if (a->kind == COLLIDE_PLANE || b->kind == COLLIDE_PLANE) return 1;
    double la[3], ha[3], lb[3], hb[3];
    collide_placed_aabb(a, la, ha);
    collide_placed_aabb(b, lb, hb);
    for (int i = 0; i < 3; i++)
        if (la[i] > hb[i] || lb[i] > ha[i]) return 0;
    return 1;
}

/* Every touching pair: body colliders with each other and the statics
 * (with a `contact` line), and with the floor. */
static int find_contacts(constraint_solve *s, const mech_model *m, const double *v)
{
    collide_manifold man;
    collide_placed pa, pb;
    for (int i = 0; i < s->ncollider; i++) {
        const collider *a = &s->colliders[i];
        if (a->body < 0) continue;
        place(s, a, &pa);
        if (s->floor) {
            collide_placed fl = { .kind = COLLIDE_PLANE, .c = { 0, 0, s->floor_z }, .R = { 1, 0, 0, 0, 1, 0, 0, 0, 1 } };
            double mu = fmax(a->mu, MECH_FLOOR_MU);
            if (collide_pair(&pa, &fl, 0.0, &man) && contact_rows(s, m, v, a->body, -1, mu, &man)) return -1;
        }
        if (!m->solver.line) continue;
        for (int j = 0; j < s->ncollider; j++) {
            const collider *b = &s->colliders[j];
            if ((b->body >= 0 && j <= i) || !pair_allowed(m, a, b)) continue;
            place(s, b, &pb);
            if (overlap(&pa, &pb) && collide_pair(&pa, &pb, 0.0, &man) &&
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
static void soft_rows(constraint_solve *s, const mech_solver *opt, const double *v, const double *qdd)
{
    const double tau = opt->solref[0], zeta = opt->solref[1], dw = opt->solimp[1];
    const double k = 1.0 / (dw * dw * tau * tau * zeta * zeta), b = 2.0 / (dw * tau);
    double rn = 0;
    for (int i = 0; i < s->nrow; i++) {
        const double *J = s->J + (size_t)i * s->nv;
        double jv = 0, ja = s->bias[i];
        for (int c = 0; c < s->nv; c++) {
            jv += J[c] * v[c];
            ja += J[c] * qdd[c];
        }
        double r = s->a0[i], d = impedance(opt->solimp, r), Aii = s->A[(size_t)i * s->nrow + i];
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
        if (it == 0 && norm <= L) break; /* inside: the unconstrained minimum */
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

/* One projected Gauss–Seidel sweep; the largest force change. */
static double sweep(constraint_solve *s)
{
    double change = 0;
    int c = 0;
    for (int i = 0; i < s->nrow; i++) {
        const int n = s->nrow;
        double old = s->f[i];
        switch (s->kind[i]) {
        case ROW_NORMAL:
        case ROW_LIMIT: s->f[i] = fmax(0.0, old - residual(s, i) / (s->A[(size_t)i * n + i] + s->R[i])); break;
        case ROW_FLOSS: {
            double f = old - residual(s, i) / (s->A[(size_t)i * n + i] + s->R[i]);
            s->f[i] = fmin(s->bound[i], fmax(-s->bound[i], f));
            break;
        }
        case ROW_FRICTION: { /* the 2 x 2 block of the two tangents within the disk |f_t| <= mu f_n */
            while (s->crow[c] + 1 != i) c++;
            double M[3] = { s->A[(size_t)i * n + i] + s->R[i], s->A[(size_t)i * n + i + 1],
                            s->A[(size_t)(i + 1) * n + i + 1] + s->R[i + 1] };
            double b[2] = { residual(s, i) - M[0] * s->f[i] - M[1] * s->f[i + 1],
                            residual(s, i + 1) - M[1] * s->f[i] - M[2] * s->f[i + 1] };
            double ft[2];
            disk_minimum(M, b, s->cmu[c] * s->f[i - 1], ft);
            double f1 = ft[0], f2 = ft[1];
            change = fmax(change, fmax(fabs(f1 - s->f[i]), fabs(f2 - s->f[i + 1])));
            s->f[i] = f1;
            s->f[i + 1] = f2;
            i++;
            continue;
        }
        }
        change = fmax(change, fabs(s->f[i] - old));
    }
    return change;
}

int constraint_apply(constraint_solve *s, const mech_model *m, constraint_fd_fn fd, void *ctx, const double *q,
                     const double *v, const double *tau, const double *fext, double *qdd)
{
    s->nrow = s->ncontact = 0;
    s->stats[0] = s->stats[1] = s->stats[2] = 0;
    mech_world_kinematics(m, q, NULL, s->kin);
    if (find_contacts(s, m, v) || joint_rows(s, m, q)) return -1;
    const int nr = s->nrow, nv = s->nv;
    if (!nr) return 0;
    /* Y_i = H⁻¹ J_iᵀ = FD(tau + J_iᵀ) − FD(tau) */
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
    soft_rows(s, &m->solver, v, qdd);
    int it = 0;
    double change = 0;
    while (it < m->solver.iterations) {
        change = sweep(s);
        it++;
        if (change <= m->solver.tolerance) break;
    }
    for (int i = 0; i < nr; i++) {
        const double *Y = s->Y + (size_t)i * nv;
        for (int c = 0; c < nv; c++) qdd[c] += Y[c] * s->f[i];
    }
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
