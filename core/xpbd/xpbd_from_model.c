/* xpbd_from_model.c — see xpbd_from_model.h. */
#include "xpbd/xpbd_from_model.h"

#include "rbda/energy.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_PI 6.28318530717958647692

/* err at the element (line, col; 0 when no place); file as mech_loops_check. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int
fail(const mech_model *mm, mech_error *err, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", mm->name);
    err->line = line;
    err->col = line > 0 ? col : 0;
    return -1;
}

double xpbd_signal_eval(const mech_signal *s, double t)
{
    if (s->type == MECH_SIGNAL_CONST) return s->a[3];
    if (s->type == MECH_SIGNAL_RAMP) return s->a[3] + s->a[0] * t;
    return s->a[3] + s->a[0] * sin(TWO_PI * s->a[1] * t + s->a[2]);
}

/* A joint frame whose e3 is the unit `axis`: x is the least aligned world
 * axis made perpendicular to it, y = e3 × x (axis z gives the identity). */
static void frame_from_axis(const double a[3], double A[9])
{
    double x[3] = { 0, 0, 0 }, y[3];
    int k = fabs(a[0]) <= fabs(a[1]) && fabs(a[0]) <= fabs(a[2]) ? 0 : fabs(a[1]) <= fabs(a[2]) ? 1 : 2;
    x[k] = 1.0;
    double d = a[k], n = 0;
    for (int i = 0; i < 3; i++) {
        x[i] -= d * a[i];
        n += x[i] * x[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 3; i++) x[i] /= n;
    v3_cross(a, x, y);
    for (int r = 0; r < 3; r++) {
        A[3 * r] = x[r];
        A[3 * r + 1] = y[r];
        A[3 * r + 2] = a[r];
    }
}

/* Bodies: poses from q0, world angular velocity and origin velocity
 * propagated down the tree from qd0, then the CoM and body-frame rates. */
static int set_bodies(const mech_model *mm, xpbd_model *m)
{
    size_t nb = (size_t)mm->nb;
    double *q = calloc((size_t)mm->nq + 1, sizeof *q), *qd = calloc((size_t)mm->nv + 1, sizeof *qd);
    double *pose = calloc(7 * nb, sizeof *pose), *w = calloc(3 * nb, sizeof *w), *vo = calloc(3 * nb, sizeof *vo);
    int r = q && qd && pose && w && vo ? 0 : -1;
    if (!r) {
        mech_model_initial_state(mm, q, qd);
        mech_body_poses(mm, q, pose);
    }
    for (int i = 0; !r && i < mm->nb; i++) {
        const mech_body *b = &mm->bodies[i];
        const double *o = pose + 7 * i, *u = qd + b->vidx;
        xpbd_body *xb = &m->bodies[i];
        double a[3], c[3];
        quat_to_rot(o + 3, xb->R);
        m3_mulv(xb->R, b->axis, a);
        if (b->parent >= 0) {
            const double *op = pose + 7 * b->parent, *wp = w + 3 * b->parent;
            double d[3] = { o[0] - op[0], o[1] - op[1], o[2] - op[2] }, wxd[3];
            v3_cross(wp, d, wxd);
            for (int k = 0; k < 3; k++) {
                w[3 * i + k] = wp[k];
                vo[3 * i + k] = vo[3 * b->parent + k] + wxd[k];
            }
        }
        if (b->joint == MECH_JOINT_FLOATING) {
            m3_mulv(xb->R, u, w + 3 * i);
            m3_mulv(xb->R, u + 3, vo + 3 * i);
        } else if (b->joint == MECH_JOINT_REVOLUTE) {
            for (int k = 0; k < 3; k++) w[3 * i + k] += a[k] * u[0];
        } else if (b->joint == MECH_JOINT_PRISMATIC) {
            for (int k = 0; k < 3; k++) vo[3 * i + k] += a[k] * u[0];
        } else if (b->joint == MECH_JOINT_SPHERICAL) {
            double Ru[3];
            m3_mulv(xb->R, u, Ru);
            for (int k = 0; k < 3; k++) w[3 * i + k] += Ru[k];
        } else if (b->joint == MECH_JOINT_CYLINDRICAL) {
            for (int k = 0; k < 3; k++) {
                w[3 * i + k] += a[k] * u[0];
                vo[3 * i + k] += a[k] * u[1];
            }
        }
        double wc[3];
        m3_mulv(xb->R, b->com, c);
        v3_cross(w + 3 * i, c, wc);
        for (int k = 0; k < 3; k++) {
            xb->p[k] = o[k] + c[k];
            xb->v[k] = vo[3 * i + k] + wc[k];
        }
        m3_tmulv(xb->R, w + 3 * i, xb->w);
        xb->mass = b->mass;
        memcpy(xb->inertia, b->inertia, sizeof xb->inertia);
    }
    free(q);
    free(qd);
    free(pose);
    free(w);
    free(vo);
    return r;
}

/* 0 when body i has what an XPBD step divides by, a positive mass and an
 * inertia with a nonzero determinant (xpbd_model_finalize inverts it; the
 * parser takes principal moments so small that it underflows, 1e-110 kg m²),
 * else the error at the body. */
static int invertible(const mech_model *mm, int i, mech_error *err)
{
    const mech_body *b = &mm->bodies[i];
    double inv[9], det = m3_inverse(b->inertia, inv);
    if (b->mass > 0 && fabs(det) > 0) return 0;
    return fail(mm, err, b->line, b->col,
                "body '%s': XPBD needs a positive mass and an inertia it can invert (mass %g kg, inertia "
                "determinant %g)",
                b->name, b->mass, det);
}

/* A point fixed in body `b` (−1 = ground) as a joint-frame offset from its CoM. */
static void side_offset(const mech_model *mm, int b, const double pos[3], double r[3])
{
    for (int k = 0; k < 3; k++) r[k] = pos[k] - (b >= 0 ? mm->bodies[b].com[k] : 0.0);
}

static int add_signal(xpbd_mech *x, int joint, int row, double sign, const mech_signal *s)
{
    xpbd_joint *jt = &x->m.joints[joint];
    jt->target[row] = sign * xpbd_signal_eval(s, 0.0);
    if (s->type == MECH_SIGNAL_CONST) return 0;
    xpbd_signal_row *grown = realloc(x->signals, (size_t)(x->nsignal + 1) * sizeof *grown);
    if (!grown) return -1;
    x->signals = grown;
    x->signals[x->nsignal++] = (xpbd_signal_row){ joint, row, sign, *s };
    return 0;
}

/* Limits, drive, compliance of one joint (xj in our signs).  The paper's
 * revolute angle θ_rev and rotation targets are minus ours; prismatic d_pr
 * and the spherical twist (an angle of R̄1ᵀR̄2) are ours. */
static int apply_options(const mech_model *mm, xpbd_mech *x, int j, const mech_xjoint *xj, mech_error *err)
{
    static const unsigned type_rows[] = { 0x3Fu, 0x1Fu, 0x07u, 0x3Bu };
    xpbd_joint *jt = &x->m.joints[j];
    int rev = jt->type == XPBD_REVOLUTE, sph = jt->type == XPBD_SPHERICAL;
    if (xj->has_compliance && (xj->has_limit || xj->has_swing))
        return fail(mm, err, xj->line, xj->col, "'compliance' and limits on one joint are not supported by XPBD");
    if (xj->has_limit) {
        jt->has_lower = jt->has_upper = 1;
        jt->lower = rev ? -xj->upper : xj->lower;
        jt->upper = rev ? -xj->lower : xj->upper;
    }
    jt->has_swing = xj->has_swing;
    jt->swing_max = xj->swing;
    int nrot = sph ? 3 : 1, row0 = sph ? 3 : rev ? 5 : 2;
    double sign = rev || sph ? -1.0 : 1.0;
    if (xj->drive) {
        jt->drive = 1;
        for (int k = 0; k < nrot; k++) {
            jt->stiffness[k] = xj->stiffness;
            jt->damping[row0 + k] = xj->damping;
            if (add_signal(x, j, row0 + k, sign, &xj->target[k])) return fail(mm, err, 0, 0, "out of memory");
        }
    }
    if (!xj->has_compliance) return 0;
    /* Compliant equality rows: the general §5.6 form with per-row α. */
    jt->target_rows = xj->drive ? 0x3Fu : type_rows[jt->type];
    for (int k = 0; k < 6; k++) jt->target_compliance[k] = xj->compliance;
    if (xj->drive)
        for (int k = 0; k < nrot; k++) jt->target_compliance[row0 + k] = xj->stiffness > 0 ? 1.0 / xj->stiffness : 0.0;
    jt->type = XPBD_TARGET;
    jt->drive = 0;
    return 0;
}

static int tree_joint(const mech_model *mm, xpbd_mech *x, int i, int *nj, mech_error *err)
{
    const mech_body *b = &mm->bodies[i];
    if (b->joint == MECH_JOINT_FLOATING) return 0;
    xpbd_joint *jt = &x->m.joints[*nj];
    double A[9];
    jt->type = b->joint == MECH_JOINT_REVOLUTE    ? XPBD_REVOLUTE
             : b->joint == MECH_JOINT_PRISMATIC   ? XPBD_PRISMATIC
             : b->joint == MECH_JOINT_SPHERICAL   ? XPBD_SPHERICAL
             : b->joint == MECH_JOINT_CYLINDRICAL ? XPBD_TARGET
                                                  : XPBD_FIXED;
    if (b->joint == MECH_JOINT_FIXED || b->joint == MECH_JOINT_SPHERICAL) m3_identity(A);
    else frame_from_axis(b->axis, A);
    /* Cylindrical: the §5.6 form holding the position and the attitude
     * across the axis (rows x y rx ry of the joint frame whose z is it). */
    if (b->joint == MECH_JOINT_CYLINDRICAL) jt->target_rows = 1u << 0 | 1u << 1 | 1u << 3 | 1u << 4;
    jt->body1 = b->parent;
    jt->body2 = i;
    side_offset(mm, b->parent, b->pos, jt->r1);
    m3_mul(b->rot, A, jt->R1);
    for (int k = 0; k < 3; k++) jt->r2[k] = -b->com[k];
    memcpy(jt->R2, A, sizeof A);
    x->body_joint[i] = *nj;
    return apply_options(mm, x, (*nj)++, &b->xj, err);
}

/* The loops whose later body (the larger index of pred, succ) is body b. */
static int loop_joints(const mech_model *mm, xpbd_mech *x, int b, int *nj, mech_error *err)
{
    for (int i = 0; i < mm->nloop; i++) {
        const mech_loop *l = &mm->loops[i];
        if ((l->pred > l->succ ? l->pred : l->succ) != b) continue;
        xpbd_joint *jt = &x->m.joints[*nj];
        if (l->type == MECH_LOOP_REVOLUTE) jt->type = XPBD_REVOLUTE;
        else if (l->type == MECH_LOOP_PRISMATIC) jt->type = XPBD_PRISMATIC;
        else if (l->type == MECH_LOOP_SPHERICAL) jt->type = XPBD_SPHERICAL;
        else
            return fail(mm, err, l->line, l->col, "loop '%s': XPBD runs revolute, prismatic and spherical loops only",
                        l->name);
        jt->body1 = l->pred;
        jt->body2 = l->succ;
        side_offset(mm, l->pred, l->ppos, jt->r1);
        side_offset(mm, l->succ, l->spos, jt->r2);
        memcpy(jt->R1, l->prot, sizeof jt->R1);
        memcpy(jt->R2, l->srot, sizeof jt->R2);
        if (apply_options(mm, x, (*nj)++, &l->xj, err)) return -1;
    }
    return 0;
}

static int target_joints(const mech_model *mm, xpbd_mech *x, int *nj, mech_error *err)
{
    for (int i = 0; i < mm->nxtarget; i++) {
        const mech_xtarget *t = &mm->xtargets[i];
        int j = (*nj)++;
        xpbd_joint *jt = &x->m.joints[j];
        jt->type = XPBD_TARGET;
        jt->body1 = t->pred;
        jt->body2 = t->succ;
        side_offset(mm, t->pred, t->ppos, jt->r1);
        side_offset(mm, t->succ, t->spos, jt->r2);
        memcpy(jt->R1, t->prot, sizeof jt->R1);
        memcpy(jt->R2, t->srot, sizeof jt->R2);
        jt->target_rows = t->rows;
        for (int k = 0; k < 6; k++) {
            jt->target_compliance[k] = t->compliance;
            if ((t->rows >> k & 1u) && add_signal(x, j, k, k < 3 ? 1.0 : -1.0, &t->value[k]))
                return fail(mm, err, 0, 0, "out of memory");
        }
    }
    return 0;
}

void xpbd_rod_desc_from_model(const mech_model *mm, const mech_rod *r, xpbd_rod_desc *d)
{
    static const xpbd_rod_discretization discs[] = { XPBD_ROD_RIGID, XPBD_ROD_LINEAR, XPBD_ROD_QUADRATIC, XPBD_ROD_CUBIC };
    static const xpbd_rod_shape shapes[] = { XPBD_ROD_STRAIGHT, XPBD_ROD_HELIX, XPBD_ROD_POINTS };
    xpbd_rod_desc_default(d);
    d->disc = discs[r->disc];
    d->elements = r->elements;
    d->full_integration = r->full_integration;
    d->solver = r->gauss_seidel ? XPBD_ROD_GAUSS_SEIDEL : XPBD_ROD_BANDED;
    d->length = r->length;
    d->diameter = r->diameter;
    d->E = r->E;
    d->nu = r->nu;
    d->rho = r->rho;
    d->damping = r->damping;
    d->shape = shapes[r->shape];
    d->coil_radius = r->coil_radius;
    d->pitch = r->pitch;
    d->turns = r->turns;
    d->npoints = r->npoints;
    d->points = r->points;
    memcpy(d->origin, r->origin, sizeof d->origin);
    memcpy(d->frame, r->frame, sizeof d->frame);
    for (int e = 0; e < 2; e++) {
        const mech_rod_end *me = &r->end[e];
        xpbd_rod_end *xe = &d->end[e];
        xe->hold = me->hold;
        xe->on_body = me->hold && me->body >= 0;
        xe->body = me->body;
        memcpy(xe->move, me->move, sizeof xe->move);
        xe->twist = me->twist;
        xe->ramp_time = me->ramp;
    }
    d->visual = r->visual;
    d->mu_s = r->mu_s;
    d->mu_d = r->mu_d;
    d->e = r->restitution;
    d->dt = mm->xpbd.dt;
    d->substeps = mm->xpbd.substeps;
    d->iterations = mm->xpbd.iterations;
    memcpy(d->gravity, mm->gravity, sizeof d->gravity);
}

static int build_rods(const mech_model *mm, xpbd_mech *x, mech_error *err)
{
    if (mm->nrod == 0) return 0;
    x->rods = calloc((size_t)mm->nrod, sizeof *x->rods);
    x->rod_list = calloc((size_t)mm->nrod, sizeof *x->rod_list);
    if (!x->rods || !x->rod_list) return fail(mm, err, 0, 0, "out of memory");
    for (int i = 0; i < mm->nrod; i++) {
        xpbd_rod_desc d;
        char why[200];
        xpbd_rod_desc_from_model(mm, &mm->rods[i], &d);
        if (xpbd_rod_init(&x->rods[i], &d, why, sizeof why))
            return fail(mm, err, mm->rods[i].line, mm->rods[i].col, "rod '%s': %s", mm->rods[i].name,
                        strncmp(why, "rod: ", 5) == 0 ? why + 5 : why);
        x->rod_list[x->nrod++] = &x->rods[i];
    }
    return 0;
}

/* Every shape that collides (mech_shape_collides) and every static
 * collider: sizes to half extents, body shapes placed about the body's
 * CoM, a mesh shape as its mesh's hull. */
static int build_colliders(const mech_model *mm, xpbd_model *m)
{
    int n = mm->nstatic;
    for (int i = 0; i < mm->nshape; i++) n += mech_shape_collides(mm, &mm->shapes[i]);
    if (n == 0) return 0;
    if (xpbd_model_colliders(m, n)) return -1;
    static const collide_kind kinds[] = {
        [MECH_SHAPE_BOX] = COLLIDE_BOX,           [MECH_SHAPE_SPHERE] = COLLIDE_SPHERE,
        [MECH_SHAPE_CYLINDER] = COLLIDE_CYLINDER, [MECH_SHAPE_CAPSULE] = COLLIDE_CAPSULE,
        [MECH_SHAPE_PLANE] = COLLIDE_PLANE,       [MECH_SHAPE_MESH] = COLLIDE_HULL
    };
    _Static_assert(MECH_MESH_HULL_MAX <= COLLIDE_HULL_MAX, "a mesh hull fits the narrow phase");
    int k = 0;
    for (int i = 0; i < mm->nshape + mm->nstatic; i++) {
        const mech_shape *s = i < mm->nshape ? &mm->shapes[i] : &mm->statics[i - mm->nshape];
        if (!mech_shape_collides(mm, s)) continue;
        xpbd_collider *c = &m->colliders[k++];
        c->shape.kind = kinds[s->type];
        c->body = s->body;
        for (int j = 0; j < 3; j++) c->shape.pos[j] = s->pos[j] - (s->body >= 0 ? mm->bodies[s->body].com[j] : 0.0);
        memcpy(c->shape.R, s->rot, sizeof c->shape.R);
        if (s->type == MECH_SHAPE_BOX)
            for (int j = 0; j < 3; j++) c->shape.size[j] = 0.5 * s->size[j];
        else {
            c->shape.size[0] = s->size[0];
            c->shape.size[1] = 0.5 * s->size[1];
        }
        if (s->type == MECH_SHAPE_MESH) {
            c->shape.hull = mm->meshes[s->mesh].hull;
            c->shape.nhull = mm->meshes[s->mesh].nhull;
        }
        c->mu_s = s->mu_s;
        c->mu_d = s->mu_d;
        c->e = s->restitution;
    }
    return 0;
}

int xpbd_from_model(const mech_model *mm, xpbd_mech *x, mech_error *err)
{
    static const xpbd_mode modes[] = { XPBD_VECTOR_ROWS, XPBD_VECTOR_BLOCK, XPBD_SCALAR };
    memset(x, 0, sizeof *x);
    if (mm->ntsda)
        return fail(mm, err, mm->tsdas[0].line, mm->tsdas[0].col,
                    "tsda force elements are not supported by XPBD (rsda and actuators are)");
    for (int i = 0; i < mm->nb; i++)
        if (invertible(mm, i, err)) return -1;
    int nj = mm->nloop + mm->nxtarget;
    for (int i = 0; i < mm->nb; i++) nj += mm->bodies[i].joint != MECH_JOINT_FLOATING;
    x->body_joint = malloc((size_t)(mm->nb > 0 ? mm->nb : 1) * sizeof *x->body_joint);
    if (!x->body_joint || xpbd_model_alloc(&x->m, mm->nb, nj)) {
        free(x->body_joint);
        x->body_joint = NULL;
        return fail(mm, err, 0, 0, "out of memory");
    }
    for (int i = 0; i < mm->nb; i++) x->body_joint[i] = -1;
    x->mode = modes[mm->xpbd.mode];
    x->m.params = (xpbd_params){ .dt = mm->xpbd.dt, .substeps = mm->xpbd.substeps, .iterations = mm->xpbd.iterations };
    memcpy(x->m.params.gravity, mm->gravity, sizeof mm->gravity);
    nj = 0;
    if (set_bodies(mm, &x->m)) {
        xpbd_mech_free(x);
        return fail(mm, err, 0, 0, "out of memory");
    }
    int r = 0;
    for (int i = 0; !r && i < mm->nb; i++) r = tree_joint(mm, x, i, &nj, err) || loop_joints(mm, x, i, &nj, err);
    if (!r) r = target_joints(mm, x, &nj, err);
    if (!r && build_colliders(mm, &x->m)) r = fail(mm, err, 0, 0, "out of memory");
    char why[200];
    if (!r && xpbd_model_finalize(&x->m, why, sizeof why))
        r = fail(mm, err, 0, 0, "%s", why); /* what finalize checks, the parser refuses first: no place */
    if (!r) r = build_rods(mm, x, err);
    if (r) {
        xpbd_mech_free(x);
        return -1;
    }
    return 0;
}

void xpbd_mech_free(xpbd_mech *x)
{
    xpbd_model_free(&x->m);
    free(x->body_joint);
    x->body_joint = NULL;
    free(x->signals);
    x->signals = NULL;
    x->nsignal = 0;
    for (int i = 0; i < x->nrod; i++) xpbd_rod_free(&x->rods[i]);
    free(x->rods);
    free(x->rod_list);
    x->rods = NULL;
    x->rod_list = NULL;
    x->nrod = 0;
}

static void signal_targets(double t, int joint, double target[6], void *user)
{
    const xpbd_mech *x = user;
    for (int i = 0; i < x->nsignal; i++) {
        const xpbd_signal_row *s = &x->signals[i];
        if (s->joint == joint) target[s->row] = s->sign * xpbd_signal_eval(&s->s, t);
    }
}

int xpbd_mech_data(const xpbd_mech *x, xpbd_mode mode, xpbd_data *d)
{
    if (xpbd_data_alloc(d, &x->m, mode)) return -1;
    if (x->nsignal) {
        d->target_fn = signal_targets;
        d->target_user = (void *)x;
    }
    char why[200];
    for (int i = 0; i < x->nrod; i++) {
        xpbd_rod_reset(&x->rods[i]);
        if (xpbd_rod_attach(&x->rods[i], &x->m, d, why, sizeof why)) {
            xpbd_data_free(d);
            return -1;
        }
    }
    d->nrod = x->nrod;
    d->rods = x->rod_list;
    return 0;
}

void xpbd_mech_reset(xpbd_mech *x, xpbd_data *d)
{
    xpbd_data_reset(d, &x->m);
    for (int i = 0; i < x->nrod; i++) xpbd_rod_reset(&x->rods[i]);
    xpbd_mech_ramps_follow(x, d);
}

xpbd_signal_row *xpbd_mech_ramp(xpbd_mech *x, const mech_model *mm, int b)
{
    if (b < 0 || b >= mm->nb) return NULL;
    for (int i = 0; i < x->nsignal; i++) {
        xpbd_signal_row *s = &x->signals[i];
        const xpbd_joint *jt = &x->m.joints[s->joint];
        if (s->s.type == MECH_SIGNAL_RAMP && jt->body2 == b && jt->body1 == mm->bodies[b].parent &&
            jt->type != XPBD_TARGET)
            return s;
    }
    return NULL;
}

void xpbd_mech_ramp_rate(xpbd_signal_row *s, const xpbd_data *d, double rate)
{
    s->s.a[3] += (s->s.a[0] - rate) * d->t;
    s->s.a[0] = rate;
}

void xpbd_mech_ramps_follow(xpbd_mech *x, const xpbd_data *d)
{
    for (int i = 0; i < x->nsignal; i++) {
        xpbd_signal_row *s = &x->signals[i];
        double target = d->target[6 * s->joint + s->row];
        if (s->s.type == MECH_SIGNAL_RAMP && s->sign * xpbd_signal_eval(&s->s, d->t) != target)
            s->s.a[3] = s->sign * target - s->s.a[0] * d->t;
    }
}

void xpbd_mech_poses(const mech_model *mm, const xpbd_data *d, double *out)
{
    for (int i = 0; i < mm->nb; i++) {
        const double *R = d->R + 9 * i;
        double c[3];
        m3_mulv(R, mm->bodies[i].com, c);
        for (int k = 0; k < 3; k++) out[7 * i + k] = d->p[3 * i + k] - c[k];
        rot_to_quat(R, out + 7 * i + 3);
    }
}
