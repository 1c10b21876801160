/* energy.c — see energy.h. */
#include "rbda/energy.h"

#include "spatial/spatial.h"

/* Per body, from the parent's pose (R_p, p_p): the tree step (pos, rot) and
 * then the joint step (R_J, r_J), both in the frame before them:
 *   R_i = R_p rot R_J,  p_i = p_p + R_p (pos + rot r_J). */
void mech_body_poses(const mech_model *m, const double *q, double *out)
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const double *qi = q + b->qidx;
        double *pose = out + 7 * i;
        double Qp[4] = { 1, 0, 0, 0 }, pp[3] = { 0, 0, 0 }, Qtree[4], QJ[4] = { 1, 0, 0, 0 }, rJ[3] = { 0, 0, 0 };
        double Qpt[4], Rp[9], Rpt[9], d[3], e[3];
        if (b->parent >= 0) {
            const double *pp7 = out + 7 * b->parent;
            pp[0] = pp7[0];
            pp[1] = pp7[1];
            pp[2] = pp7[2];
            Qp[0] = pp7[3];
            Qp[1] = pp7[4];
            Qp[2] = pp7[5];
            Qp[3] = pp7[6];
        }
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE: {
            double phi[3] = { b->axis[0] * qi[0], b->axis[1] * qi[0], b->axis[2] * qi[0] };
            quat_from_rotvec(phi, QJ);
            break;
        }
        case MECH_JOINT_PRISMATIC:
            rJ[0] = b->axis[0] * qi[0];
            rJ[1] = b->axis[1] * qi[0];
            rJ[2] = b->axis[2] * qi[0];
            break;
        case MECH_JOINT_FLOATING:
            quat_normalize(qi, QJ);
            rJ[0] = qi[4];
            rJ[1] = qi[5];
            rJ[2] = qi[6];
            break;
        case MECH_JOINT_FIXED: break;
        case MECH_JOINT_SPHERICAL: quat_normalize(qi, QJ); break;
        case MECH_JOINT_CYLINDRICAL: {
            double phi[3] = { b->axis[0] * qi[0], b->axis[1] * qi[0], b->axis[2] * qi[0] };
            quat_from_rotvec(phi, QJ);
            for (int k = 0; k < 3; k++) rJ[k] = b->axis[k] * qi[1];
            break;
        }
        }
        rot_to_quat(b->rot, Qtree);
        quat_mul(Qp, Qtree, Qpt);
        quat_to_rot(Qp, Rp);
        quat_to_rot(Qpt, Rpt);
        m3_mulv(Rp, b->pos, d);
        m3_mulv(Rpt, rJ, e);
        for (int k = 0; k < 3; k++) pose[k] = pp[k] + d[k] + e[k];
        quat_mul(Qpt, QJ, pose + 3);
    }
}

double mech_energy(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *kinetic,
                   double *potential)
{
    double T = 0, V = 0;
    dense_crba(m, ws, q, ws->H);
    for (int r = 0; r < m->nv; r++)
        for (int c = 0; c < m->nv; c++) T += 0.5 * qd[r] * ws->H[m->nv * r + c] * qd[c];
    mech_body_poses(m, q, ws->pose);
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const double *pose = ws->pose + 7 * i;
        double R[9], c[3];
        quat_to_rot(pose + 3, R);
        m3_mulv(R, b->com, c);
        for (int k = 0; k < 3; k++) V -= b->mass * m->gravity[k] * (pose[k] + c[k]);
    }
    if (kinetic) *kinetic = T;
    if (potential) *potential = V;
    return T + V;
}

void mech_energy_bodies(const mech_model *m, const mech_body_kin *k, const double *qd, double *kinetic, double *potential)
{
    double T = 0, V = 0;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const mech_body_kin *ki = &k[i];
        double c[3], vc[3], wb[3], Iw[3];
        m3_mulv(ki->R, b->com, c); /* CoM offset, base frame */
        double x[3] = { ki->p[0] + c[0], ki->p[1] + c[1], ki->p[2] + c[2] };
        mech_point_velocity(ki, x, vc);
        m3_tmulv(ki->R, ki->w, wb); /* angular velocity, body frame */
        m3_mulv(b->inertia, wb, Iw);
        T += 0.5 * (b->mass * v3_dot(vc, vc) + v3_dot(wb, Iw));
        for (int j = 0; j < b->nv; j++) T += 0.5 * b->armature * qd[b->vidx + j] * qd[b->vidx + j];
        for (int j = 0; j < 3; j++) V -= b->mass * m->gravity[j] * x[j];
    }
    if (kinetic) *kinetic = T;
    if (potential) *potential = V;
}
