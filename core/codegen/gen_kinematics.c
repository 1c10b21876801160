/* gen_kinematics.c — joint and tree transforms (RBDA Table 4.1, with
 * E = R^T), base-to-body transforms for fext, and body velocities (eq. 5.7).
 *
 * Each body's i_X_parent is kept as its two sparse factors: the constant tree
 * transform xt (usually a pure translation) and the joint transform xj (a
 * rotation made of sin/cos of one q, a translation along one axis, or the
 * quaternion attitude of a floating body).  Applying them one after the other
 * is never more work than applying their product, and much less when the
 * tree rotation is not aligned with the joint axis. */
#include "codegen/gen.h"

#include <math.h>

/* A right-angle `rot` reaches the model as cos(pi/2) = 6.1e-17 and the like;
 * entries within a few ulps of 0 or +-1 are taken as exact so such frames
 * stay sparse (the change is far below the validation gate). */
static double snap(double v)
{
    const double tol = 1e-15;
    if (fabs(v) < tol) return 0.0;
    if (fabs(fabs(v) - 1.0) < tol) return v > 0 ? 1.0 : -1.0;
    return v;
}

static sxform tree_transform(gen *g, const mech_body *b)
{
    ex R[9], r[3];
    for (int k = 0; k < 9; k++) R[k] = ex_const(&g->p, snap(b->rot[k]));
    for (int k = 0; k < 3; k++) r[k] = ex_const(&g->p, b->pos[k]);
    return sx_from_rot(R, r);
}

/* Rodrigues in the form R = a a^T + cos(q) (1 - a a^T) + sin(q) a x, whose
 * constant coefficients are exactly 0 or 1 wherever a is a coordinate axis, so
 * an x/y/z joint leaves four sin/cos entries and a single 1. */
static sxform revolute(gen *g, const mech_body *b)
{
    const double *a = b->axis;
    const double K[9] = { 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0 };
    ex q = gen_input(g, EX_IN_Q, b->qidx);
    ex s = ex_sin(&g->p, q), c = ex_cos(&g->p, q);
    ex R[9], r[3] = { g->p.zero, g->p.zero, g->p.zero };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double aa = a[i] * a[j];
            ex e = ex_const(&g->p, aa);
            e = ex_fma(&g->p, e, ex_const(&g->p, (i == j) - aa), c);
            R[3 * i + j] = ex_fma(&g->p, e, ex_const(&g->p, K[3 * i + j]), s);
        }
    return sx_from_rot(R, r);
}

/* E = 1, r = a q. */
static sxform prismatic(gen *g, const mech_body *b)
{
    sxform X = sx_identity(&g->p);
    ex q = gen_input(g, EX_IN_Q, b->qidx);
    for (int k = 0; k < 3; k++) X.r[k] = ex_mul(&g->p, ex_const(&g->p, b->axis[k]), q);
    return X;
}

/* R(Q) with 2/|Q|^2 in place of 2: exactly R(Q/|Q|), so the quaternion at
 * q[qidx .. qidx + 3] is normalized at entry without a square root. */
static void quat_rotation(gen *g, const mech_body *b, ex R[9])
{
    ex_pool *p = &g->p;
    ex w = gen_input(g, EX_IN_Q, b->qidx), x = gen_input(g, EX_IN_Q, b->qidx + 1);
    ex y = gen_input(g, EX_IN_Q, b->qidx + 2), z = gen_input(g, EX_IN_Q, b->qidx + 3);
    ex ww = ex_mul(p, w, w), xx = ex_mul(p, x, x), yy = ex_mul(p, y, y), zz = ex_mul(p, z, z);
    ex two = ex_const(p, 2.0), wwxx = ex_add(p, ww, xx), yyzz = ex_add(p, yy, zz);
    ex k = ex_div(p, two, ex_add(p, wwxx, yyzz));
    ex xy = ex_mul(p, x, y), xz = ex_mul(p, x, z), yz = ex_mul(p, y, z);
    ex wx = ex_mul(p, w, x), wy = ex_mul(p, w, y), wz = ex_mul(p, w, z);
    /* Row by row, one statement per entry (an initializer list would leave
     * the order the nodes are built in unspecified). */
    R[0] = ex_fms(p, p->one, k, ex_add(p, yy, zz));
    R[1] = ex_mul(p, k, ex_sub(p, xy, wz));
    R[2] = ex_mul(p, k, ex_add(p, xz, wy));
    R[3] = ex_mul(p, k, ex_add(p, xy, wz));
    R[4] = ex_fms(p, p->one, k, ex_add(p, xx, zz));
    R[5] = ex_mul(p, k, ex_sub(p, yz, wx));
    R[6] = ex_mul(p, k, ex_sub(p, xz, wy));
    R[7] = ex_mul(p, k, ex_add(p, yz, wx));
    R[8] = ex_fms(p, p->one, k, ex_add(p, xx, yy));
}

/* The quaternion attitude; r is the base-frame position. */
static sxform floating(gen *g, const mech_body *b)
{
    ex R[9], r[3];
    quat_rotation(g, b, R);
    for (int c = 0; c < 3; c++) r[c] = gen_input(g, EX_IN_Q, b->qidx + 4 + c);
    return sx_from_rot(R, r);
}

/* The quaternion attitude about the body origin. */
static sxform spherical(gen *g, const mech_body *b)
{
    ex R[9], r[3] = { g->p.zero, g->p.zero, g->p.zero };
    quat_rotation(g, b, R);
    return sx_from_rot(R, r);
}

/* The revolute rotation by q[qidx], then r = a q[qidx + 1] along the same
 * axis (which the rotation keeps). */
static sxform cylindrical(gen *g, const mech_body *b)
{
    sxform X = revolute(g, b);
    ex d = gen_input(g, EX_IN_Q, b->qidx + 1);
    for (int k = 0; k < 3; k++) X.r[k] = ex_mul(&g->p, ex_const(&g->p, b->axis[k]), d);
    return X;
}

/* Motion subspace columns: S = [a; 0], [0; a], [a 0; 0 a] (cylindrical),
 * [1; 0] (spherical) or the 6x6 identity. */
static void motion_subspace(gen *g, const mech_body *b, sv6 *S)
{
    for (int k = 0; k < b->nv; k++) {
        S[k] = sv_zero(&g->p);
        if (b->joint == MECH_JOINT_FLOATING || b->joint == MECH_JOINT_SPHERICAL) S[k].e[k] = g->p.one;
    }
    if (b->joint == MECH_JOINT_REVOLUTE || b->joint == MECH_JOINT_PRISMATIC) {
        int off = b->joint == MECH_JOINT_PRISMATIC ? 3 : 0;
        for (int k = 0; k < 3; k++) S[0].e[off + k] = ex_const(&g->p, b->axis[k]);
    }
    if (b->joint == MECH_JOINT_CYLINDRICAL)
        for (int k = 0; k < 3; k++) {
            S[0].e[k] = ex_const(&g->p, b->axis[k]);
            S[1].e[3 + k] = ex_const(&g->p, b->axis[k]);
        }
}

static sinertia const_inertia(ex_pool *p, const double v[10])
{
    sinertia I;
    I.m = ex_const(p, v[0]);
    for (int c = 0; c < 3; c++) I.h[c] = ex_const(p, v[1 + c]);
    for (int c = 0; c < 6; c++) I.I[c] = ex_const(p, v[4 + c]);
    return I;
}

/* Inertia that a joint's motion cannot change is moved to the parent
 * (Khalil's grouping of inertial parameters, done numerically).  For a
 * revolute joint about e_k, I_A = (m, h_k e_k, a (1 - e_k e_k^T)) — the whole
 * mass, the first moment along the axis and an inertia symmetric about it —
 * satisfies X_J^T I_A X_J = I_A and I_A S = [Ibar_A e_k; -h_A x e_k] = 0, so
 * (v_p + S qd)^T I_A (v_p + S qd) = v_p^T I_A v_p and its potential energy is
 * the same too: whether I_A rides on the body or on its parent, H and C are
 * exactly unchanged.  What remains on the body is m = 0, h transverse, and
 * Ibar with Ibar_ii = 0 (a = Ibar_ii, i = k + 1): its body force then has no
 * m ao term (F does not read ao at all) and one inertia product less.  For a
 * prismatic joint the whole rotational inertia (m = 0, h = 0) is invariant
 * under the translation and I_A S = 0; for a fixed joint the whole body
 * moves.  On a root the moved part rides on the fixed base and is dropped.
 * Children first, so a body's moved share includes what its children gave
 * it.  Every inertia here is numeric (ex constants), and stays so. */
static void regroup_inertias(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        gen_body *gb = &g->b[i];
        double I[10], A[10] = { 0 }; /* m, h[3], Ibar xx yy zz xy xz yz */
        I[0] = p->nodes[gb->I.m].c;
        for (int k = 0; k < 3; k++) I[1 + k] = p->nodes[gb->I.h[k]].c;
        for (int k = 0; k < 6; k++) I[4 + k] = p->nodes[gb->I.I[k]].c;
        int k = gen_revolute_axis(b, NULL);
        if (k >= 0) {
            int ii = (k + 1) % 3, jj = (k + 2) % 3;
            A[0] = I[0];
            A[1 + k] = I[1 + k];
            A[4 + ii] = A[4 + jj] = I[4 + ii];
        } else if (b->joint == MECH_JOINT_PRISMATIC) {
            for (int c = 4; c < 10; c++) A[c] = I[c];
        } else if (b->joint == MECH_JOINT_FIXED) {
            for (int c = 0; c < 10; c++) A[c] = I[c];
        } else {
            continue;
        }
        double B[10];
        for (int c = 0; c < 10; c++) B[c] = I[c] - A[c];
        gb->I = const_inertia(p, B);
        if (b->parent >= 0)
            g->b[b->parent].I = si_add(p, g->b[b->parent].I, si_transform(p, const_inertia(p, A), gb->xt));
    }
}

int gen_kinematics(gen *g)
{
    const mech_model *m = g->m;
    g->section[SEC_KINEMATICS] = g->p.n;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        gen_body *gb = &g->b[i];
        if (b->parent >= i) return gen_fail(g, b->line, "body '%s' is listed before its parent", b->name);
        gb->xt = tree_transform(g, b);
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE: gb->xj = revolute(g, b); break;
        case MECH_JOINT_PRISMATIC: gb->xj = prismatic(g, b); break;
        case MECH_JOINT_FLOATING: gb->xj = floating(g, b); break;
        case MECH_JOINT_FIXED: gb->xj = sx_identity(&g->p); break;
        case MECH_JOINT_SPHERICAL: gb->xj = spherical(g, b); break;
        case MECH_JOINT_CYLINDRICAL: gb->xj = cylindrical(g, b); break;
        default: return gen_fail(g, b->line, "body '%s': unsupported joint type", b->name);
        }
        motion_subspace(g, b, gb->S);
        gb->I = si_from_body(&g->p, b->mass, b->com, b->inertia);
    }
    regroup_inertias(g);
    /* i_X_0 = i_X_parent parent_X_0, only along the paths to bodies that read fext. */
    for (int i = m->nb - 1; i >= 0; i--) {
        int parent = m->bodies[i].parent;
        g->b[i].need_x0 |= m->bodies[i].fext;
        if (parent >= 0) g->b[parent].need_x0 |= g->b[i].need_x0;
    }
    for (int i = 0; i < m->nb; i++) {
        gen_body *gb = &g->b[i];
        int parent = m->bodies[i].parent;
        if (!gb->need_x0) continue;
        sxform up = sx_compose(&g->p, gb->xj, gb->xt);
        gb->x0 = parent < 0 ? up : sx_compose(&g->p, up, g->b[parent].x0);
    }
    for (int i = 0; i < m->nb; i++) {
        const gen_body *gb = &g->b[i];
        for (int k = 0; k < 9; k++) gen_name(g, gb->xj.E[k], "X%d_E%d%d", i, k / 3, k % 3);
        for (int k = 0; k < 3; k++) gen_name(g, gb->xj.r[k], "X%d_r%c", i, "xyz"[k]);
        if (!gb->need_x0) continue;
        for (int k = 0; k < 9; k++) gen_name(g, gb->x0.E[k], "X%d_0_E%d%d", i, k / 3, k % 3);
        for (int k = 0; k < 3; k++) gen_name(g, gb->x0.r[k], "X%d_0_r%c", i, "xyz"[k]);
    }

    /* v_i = i_X_parent v_parent + S qd (eq. 5.7); c_i = v_i x (S qd), which
     * equals (i_X_parent v_parent) x (S qd) because vJ x vJ = 0. */
    g->section[SEC_VELOCITIES] = g->p.n;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        gen_body *gb = &g->b[i];
        sv6 vp = b->parent < 0 ? sv_zero(&g->p) : gen_up_motion(g, i, g->b[b->parent].v);
        sv6 vJ = sv_zero(&g->p);
        for (int k = 0; k < b->nv; k++)
            vJ = sv_add(&g->p, vJ, sv_scale(&g->p, gb->S[k], gen_input(g, EX_IN_QD, b->vidx + k)));
        gb->v = sv_add(&g->p, vp, vJ);
        gb->c = sv_crm(&g->p, vp, vJ);
        gen_name_sv6(g, gb->v, 0, "v%d", i);
        gen_name_sv6(g, gb->c, 0, "c%d", i);
    }
    return 0;
}
