/* kinematics.c — world kinematics by 3x3 composition (kinematics.h).
 *
 * A body's frame is its parent's moved by the tree transform (pos, rot) and
 * then by the joint (RBDA §4.1, docs/conventions.md "Frames"):
 *   R_i = A R_J,   p_i = p_p + d,   d = R_p pos + A r_J,   A = R_p rot
 * with R_J, r_J the joint's rotation and translation in the post-tree frame
 * (A: that frame's axes, rot mostly the identity).  Velocities propagate as
 *   w_i = w_p + R_i s_w qd,   pd_i = pd_p + w_p x d + R_i s_v qd,
 * s = [s_w; s_v] the joint's motion subspace in body coordinates (RBDA
 * Table 4.1; a floating joint's qd is its body-frame spatial velocity).
 * A revolute joint takes sin and cos of its angle from one inline
 * mech_sincos; about a coordinate axis (every band pin and roller) A R_J
 * only turns two columns of A in their plane, otherwise R_J is Rodrigues'
 * c I + s [a]x + (1 - c) a a^T.  Either way R_i s_w = A a: the axis is
 * fixed by its own rotation.  Which case a body is (and whether its rot is
 * the identity) is fixed by the model: found once (mech_kin_joints) for the
 * contact stage's many passes, or on the way. */
#include "rbda/kinematics.h"

#include <string.h>

#include "spatial/mech_sincos.h"
#include "spatial/spatial.h"

static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

static int is_identity(const double R[9])
{
    return R[0] == 1 && R[1] == 0 && R[2] == 0 && R[3] == 0 && R[4] == 1 && R[5] == 0 && R[6] == 0 && R[7] == 0 &&
           R[8] == 1;
}

/* k when the unit axis a is +-e_k, else -1. */
static int coordinate_axis(const double a[3])
{
    if (a[1] == 0 && a[2] == 0) return 0;
    if (a[2] == 0 && a[0] == 0) return 1;
    if (a[0] == 0 && a[1] == 0) return 2;
    return -1;
}

static mech_kin_joint classify(const mech_body *b)
{
    mech_kin_joint j = { is_identity(b->rot), coordinate_axis(b->axis) };
    return j;
}

void mech_kin_joints(const mech_model *m, mech_kin_joint *j)
{
    for (int i = 0; i < m->nb; i++) j[i] = classify(&m->bodies[i]);
}

/* One row of A turned in columns i and j, column k kept. */
static inline void turn_row(const double *a, double *r, int i, int j, int k, double s, double c)
{
    double ai = a[i], aj = a[j];
    r[i] = c * ai + s * aj;
    r[j] = c * aj - s * ai;
    r[k] = a[k];
}

/* R = A R_J, R_J the rotation with sine s and cosine c about the unit axis
 * a, which is +-e_k (k >= 0) or general (k = -1).  About e_k, R_J turns e_i
 * to c e_i + s e_j and e_j to c e_j - s e_i ((i, j, k) cyclic), so R's
 * columns i and j are those of A turned, and column k is A's. */
static void joint_rotate(const double A[9], const double a[3], int k, double s, double c, double R[9])
{
    if (k < 0) {
        double t = 1.0 - c, RJ[9] = {
            c + t * a[0] * a[0],        t * a[0] * a[1] - s * a[2], t * a[0] * a[2] + s * a[1],
            t * a[0] * a[1] + s * a[2], c + t * a[1] * a[1],        t * a[1] * a[2] - s * a[0],
            t * a[0] * a[2] - s * a[1], t * a[1] * a[2] + s * a[0], c + t * a[2] * a[2],
        };
        m3_mul(A, RJ, R);
        return;
    }
    static const int next[3] = { 1, 2, 0 };
    int i = next[k], j = next[i];
    s *= a[k];
    turn_row(A, R, i, j, k, s, c);
    turn_row(A + 3, R + 3, i, j, k, s, c);
    turn_row(A + 6, R + 6, i, j, k, s, c);
}

/* A a, the axis a being +-e_k (k >= 0: a column of A) or general. */
static void axis_in(const double A[9], const double a[3], int k, double out[3])
{
    if (k < 0) {
        m3_mulv(A, a, out);
        return;
    }
    for (int r = 0; r < 3; r++) out[r] = A[3 * r + k] * a[k];
}

void mech_world_kinematics(const mech_model *m, const double *q, const double *qd, mech_body_kin *k)
{
    mech_world_kinematics_joints(m, NULL, q, qd, k);
}

void mech_world_kinematics_joints(const mech_model *m, const mech_kin_joint *joints, const double *q, const double *qd,
                                  mech_body_kin *k)
{
    static const double zero3[3] = { 0, 0, 0 };
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const mech_kin_joint J = joints ? joints[i] : classify(b);
        mech_body_kin *ki = &k[i];
        const double *qi = q + b->qidx, *vi = qd ? qd + b->vidx : NULL;
        const double *Rp = b->parent < 0 ? I3 : k[b->parent].R;
        const double *pp = b->parent < 0 ? zero3 : k[b->parent].p;
        const double *wp = b->parent < 0 ? zero3 : k[b->parent].w;
        const double *vp = b->parent < 0 ? zero3 : k[b->parent].pd;
        double Arot[9], d[3], ws[3] = { 0, 0, 0 }, vs[3] = { 0, 0, 0 }; /* R_i s qd */
        const double *A = Rp;
        if (!J.tree_identity) {
            m3_mul(Rp, b->rot, Arot);
            A = Arot;
        }
        m3_mulv(Rp, b->pos, d);
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE: {
            double s, c;
            mech_sincos(qi[0], &s, &c);
            joint_rotate(A, b->axis, J.axis, s, c, ki->R);
            if (vi) {
                axis_in(A, b->axis, J.axis, ws);
                for (int j = 0; j < 3; j++) ws[j] *= vi[0];
            }
            break;
        }
        case MECH_JOINT_PRISMATIC: {
            double Aa[3];
            memcpy(ki->R, A, sizeof ki->R);
            axis_in(A, b->axis, J.axis, Aa);
            for (int j = 0; j < 3; j++) d[j] += Aa[j] * qi[0];
            if (vi)
                for (int j = 0; j < 3; j++) vs[j] = Aa[j] * vi[0];
            break;
        }
        case MECH_JOINT_FLOATING: {
            double qn[4], RJ[9], Ar[3];
            quat_normalize(qi, qn);
            quat_to_rot(qn, RJ);
            m3_mul(A, RJ, ki->R);
            m3_mulv(A, qi + 4, Ar);
            for (int j = 0; j < 3; j++) d[j] += Ar[j];
            if (vi) {
                m3_mulv(ki->R, vi, ws);
                m3_mulv(ki->R, vi + 3, vs);
            }
            break;
        }
        case MECH_JOINT_FIXED: memcpy(ki->R, A, sizeof ki->R); break;
        case MECH_JOINT_SPHERICAL: {
            double qn[4], RJ[9];
            quat_normalize(qi, qn);
            quat_to_rot(qn, RJ);
            m3_mul(A, RJ, ki->R);
            if (vi) m3_mulv(ki->R, vi, ws);
            break;
        }
        case MECH_JOINT_CYLINDRICAL: { /* a revolute joint, then a slide along its own axis */
            double s, c, Aa[3];
            mech_sincos(qi[0], &s, &c);
            joint_rotate(A, b->axis, J.axis, s, c, ki->R);
            axis_in(A, b->axis, J.axis, Aa);
            for (int j = 0; j < 3; j++) d[j] += Aa[j] * qi[1];
            if (vi)
                for (int j = 0; j < 3; j++) {
                    ws[j] = Aa[j] * vi[0];
                    vs[j] = Aa[j] * vi[1];
                }
            break;
        }
        }
        double wx[3];
        v3_cross(wp, d, wx);
        for (int j = 0; j < 3; j++) {
            ki->p[j] = pp[j] + d[j];
            ki->w[j] = wp[j] + ws[j];
            ki->pd[j] = vp[j] + wx[j] + vs[j];
        }
    }
}
