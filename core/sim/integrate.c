/* integrate.c — see integrate.h. */
#include "sim/integrate.h"

/* A constant external force (or none), as a mech_forces_fn. */
static int constant_forces(void *ctx, const double *q, const double *qd, double dt, const double **fext)
{
    (void)q, (void)qd, (void)dt;
    *fext = ctx;
    return 0;
}

void mech_step_euler(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd, const double *tau,
                     const double *fext, double *qdd, double dt)
{
    fd(ctx, q, qd, tau, fext, qdd);
    for (int k = 0; k < m->nv; k++) qd[k] += qdd[k] * dt;
    mech_integrate_q(m, q, qd, dt);
}

int mech_step_euler_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx, double *q,
                           double *qd, const double *tau, double *qdd, double dt)
{
    const double *fext;
    if (forces(fctx, q, qd, dt, &fext)) return -1;
    mech_step_euler(m, fd, ctx, q, qd, tau, fext, qdd, dt);
    return 0;
}

int mech_step_verlet_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx, double *q,
                            double *qd, const double *tau, double *qdd, double *vmid, int predict, double dt)
{
    return mech_step_verlet_forced_inline(m, fd, ctx, forces, fctx, q, qd, tau, qdd, vmid, predict, dt);
}

void mech_step_verlet(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd, const double *tau,
                      const double *fext, double *qdd, double *vmid, double dt)
{
    mech_step_verlet_forced(m, fd, ctx, constant_forces, (void *)fext, q, qd, tau, qdd, vmid, 1, dt);
}
