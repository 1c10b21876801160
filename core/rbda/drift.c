/* drift.c — see drift.h. */
#include "rbda/drift.h"

#include "spatial/spatial.h"

void mech_integrate_q_bodies(const mech_model *m, double *q, const double *qd, double dt)
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double *qi = q + b->qidx;
        const double *w = qd + b->vidx, *v = qd + b->vidx + 3;
        double phi[3], E[4], Qh[4], R[9], Rv[3];
        switch (b->joint) {
        case MECH_JOINT_REVOLUTE:
        case MECH_JOINT_PRISMATIC: qi[0] += qd[b->vidx] * dt; break;
        case MECH_JOINT_FLOATING:
            for (int k = 0; k < 3; k++) phi[k] = 0.5 * w[k] * dt;
            quat_from_rotvec(phi, E);
            quat_mul(qi, E, Qh); /* Q(dt/2) = Q0 (x) exp(w dt / 4) */
            quat_to_rot(Qh, R);
            m3_mulv(R, v, Rv);
            for (int k = 0; k < 3; k++) qi[4 + k] += Rv[k] * dt;
            quat_mul(Qh, E, qi); /* Q(dt) = Q(dt/2) (x) E: same axis */
            break;
        case MECH_JOINT_FIXED: break;
        }
    }
}
