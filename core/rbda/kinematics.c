/* kinematics.c — world kinematics by 3x3 composition (kinematics.h).
 *
 * A body's frame is its parent's moved by the tree transform (pos, rot) and
 * then by the joint (RBDA §4.1, docs/conventions.md "Frames"):
 *   R_i = R_p rot R_J,   p_i = p_p + R_p (pos + rot r_J)
 * with R_J, r_J the joint's rotation and translation in the post-tree frame.
 * Velocities propagate as  w_i = w_p + R_i s_w qd,
 *   pd_i = pd_p + w_p x (p_i - p_p) + R_i s_v qd,
 * s = [s_w; s_v] the joint's motion subspace in body coordinates (RBDA
 * Table 4.1; a floating joint's qd is its body-frame spatial velocity). */
#include "rbda/kinematics.h"

#include "spatial/spatial.h"

void mech_world_kinematics(const mech_model *m, const double *q, const double *qd, mech_body_kin *k)
{
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const double zero3[3] = { 0, 0, 0 };
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const double *qi = q + b->qidx, *vi = qd ? qd + b->vidx : NULL;
        const double *Rp = b->parent < 0 ? I3 : k[b->parent].R;
        const double *pp = b->parent < 0 ? zero3 : k[b->parent].p;
        const double *wp = b->parent < 0 ? zero3 : k[b->parent].w;
        const double *vp = b->parent < 0 ? zero3 : k[b->parent].pd;
        double RJ[9], rJ[3] = { 0, 0, 0 }, Rt[9], t[3], d[3];
        double sw[3] = { 0, 0, 0 }, sv[3] = { 0, 0, 0 };   /* body-frame joint velocity */
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE:
            rot_axis_angle(b->axis, qi[0], RJ);
            if (vi) for (int c = 0; c < 3; c++) sw[c] = b->axis[c] * vi[0];
            break;
        case MECH_JOINT_PRISMATIC:
            m3_identity(RJ);
            for (int c = 0; c < 3; c++) rJ[c] = b->axis[c] * qi[0];
            if (vi) for (int c = 0; c < 3; c++) sv[c] = b->axis[c] * vi[0];
            break;
        case MECH_JOINT_FLOATING: {
            double qn[4];
            quat_normalize(qi, qn);
            quat_to_rot(qn, RJ);
            rJ[0] = qi[4]; rJ[1] = qi[5]; rJ[2] = qi[6];
            if (vi) for (int c = 0; c < 3; c++) { sw[c] = vi[c]; sv[c] = vi[3 + c]; }
            break;
        }
        case MECH_JOINT_FIXED:
            m3_identity(RJ);
            break;
        }
        m3_mul(Rp, b->rot, Rt);
        m3_mul(Rt, RJ, k[i].R);
        m3_mulv(b->rot, rJ, t);
        for (int c = 0; c < 3; c++) t[c] += b->pos[c];
        m3_mulv(Rp, t, d);
        for (int c = 0; c < 3; c++) k[i].p[c] = pp[c] + d[c];
        double ws[3], vs[3], wx[3];
        m3_mulv(k[i].R, sw, ws);
        m3_mulv(k[i].R, sv, vs);
        v3_cross(wp, d, wx);
        for (int c = 0; c < 3; c++) {
            k[i].w[c] = wp[c] + ws[c];
            k[i].pd[c] = vp[c] + wx[c] + vs[c];
        }
    }
}
