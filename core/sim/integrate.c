/* integrate.c — see integrate.h. */
#include "sim/integrate.h"

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
        case MECH_JOINT_PRISMATIC:
            qi[0] += qd[b->vidx] * dt;
            break;
        case MECH_JOINT_FLOATING:
            for (int k = 0; k < 3; k++) phi[k] = 0.5 * w[k] * dt;
            quat_from_rotvec(phi, E);
            quat_mul(qi, E, Qh);                        /* Q(dt/2) = Q0 (x) exp(w dt / 4) */
            quat_to_rot(Qh, R);
            m3_mulv(R, v, Rv);
            for (int k = 0; k < 3; k++) qi[4 + k] += Rv[k] * dt;
            quat_mul(Qh, E, qi);                        /* Q(dt) = Q(dt/2) (x) E: same axis */
            break;
        case MECH_JOINT_FIXED:
            break;
        }
    }
}

/* A constant external force (or none), as a mech_forces_fn. */
static int constant_forces(void *ctx, const double *q, const double *qd, double dt, const double **fext)
{
    (void)q, (void)qd, (void)dt;
    *fext = ctx;
    return 0;
}

void mech_step_euler(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd,
                     const double *tau, const double *fext, double *qdd, double dt)
{
    fd(ctx, q, qd, tau, fext, qdd);
    for (int k = 0; k < m->nv; k++) qd[k] += qdd[k] * dt;
    mech_integrate_q(m, q, qd, dt);
}

int mech_step_euler_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx,
                           double *q, double *qd, const double *tau, double *qdd, double dt)
{
    const double *fext;
    if (forces(fctx, q, qd, dt, &fext)) return -1;
    mech_step_euler(m, fd, ctx, q, qd, tau, fext, qdd, dt);
    return 0;
}

int mech_step_verlet_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx,
                            double *q, double *qd, const double *tau, double *qdd, double *vmid, int predict,
                            double dt)
{
    return mech_step_verlet_forced_inline(m, fd, ctx, forces, fctx, q, qd, tau, qdd, vmid, predict, dt);
}

void mech_step_verlet(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd,
                      const double *tau, const double *fext, double *qdd, double *vmid, double dt)
{
    mech_step_verlet_forced(m, fd, ctx, constant_forces, (void *)fext, q, qd, tau, qdd, vmid, 1, dt);
}
