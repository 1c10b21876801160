/* drift.c — see drift.h. */
#include "rbda/drift.h"

#include "spatial/spatial.h"

/* Q(dt) = Q0 (x) exp(w dt / 2) for constant body-frame w, in two equal
 * halves E = exp(w dt / 4) about the same axis; Qh is the attitude at dt/2. */
static void quat_drift(double Q[4], const double w[3], double dt, double Qh[4])
{
    double phi[3], E[4];
    for (int k = 0; k < 3; k++) phi[k] = 0.5 * w[k] * dt;
    quat_from_rotvec(phi, E);
    quat_mul(Q, E, Qh);
    quat_mul(Qh, E, Q);
}

void mech_integrate_q_bodies(const mech_model *m, double *q, const double *qd, double dt)
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double *qi = q + b->qidx;
        const double *w = qd + b->vidx, *v = qd + b->vidx + 3;
        double Qh[4], R[9], Rv[3];
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE:
        case MECH_JOINT_PRISMATIC: qi[0] += qd[b->vidx] * dt; break;
        case MECH_JOINT_FLOATING:
            quat_drift(qi, w, dt, Qh);
            quat_to_rot(Qh, R); /* the midpoint attitude moves the position */
            m3_mulv(R, v, Rv);
            for (int k = 0; k < 3; k++) qi[4 + k] += Rv[k] * dt;
            break;
        case MECH_JOINT_FIXED: break;
        case MECH_JOINT_SPHERICAL: quat_drift(qi, w, dt, Qh); break;
        case MECH_JOINT_CYLINDRICAL:
            qi[0] += qd[b->vidx] * dt;
            qi[1] += qd[b->vidx + 1] * dt;
            break;
        }
    }
}
