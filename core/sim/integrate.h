/* integrate.h — time stepping, shared by every dynamics engine.
 *
 * An engine is seen only through mech_fd_fn, so the dense reference, ABA and
 * generated code are all stepped by the same integrator:
 *
 *   void fd(void *ctx, const double *q, const double *qd, const double *tau,
 *           const double *fext, double *qdd);      qdd = FD(q, qd, tau, fext)
 *
 *   ctx   the engine's own state (its model, workspace, ...), passed through
 *         untouched; the integrator never looks inside.
 *   q     nq doubles.  Floating quaternions may be slightly non-unit (the
 *         engine normalizes on use, as dense.h and aba.h do).
 *   qd    nv doubles, tau nv doubles.
 *   fext  6*nb base-coordinate spatial forces (docs/conventions.md), or NULL.
 *   qdd   nv doubles out; never aliases an input.
 *
 * A callback must be a pure function of its inputs (plus ctx's fixed model):
 * schemes may evaluate it at intermediate states, e.g. the Störmer–Verlet
 * drift/kick/drift that evaluates once per step at the midpoint, and must not
 * keep any pointer past the call.  dense_engine_fd (rbda/dense.h) and
 * aba_engine_fd (rbda/aba.h) are the reference engines' adapters; generated
 * code wraps its fwd_dyn in a three-line function with an unused ctx.
 */
#ifndef MECH_INTEGRATE_H
#define MECH_INTEGRATE_H

#include "model/model.h"
#include "rbda/drift.h"

typedef void (*mech_fd_fn)(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                           double *qdd);

/* One semi-implicit (symplectic) Euler step:
 *   qdd = fd(ctx, q, qd, tau, fext);  qd += qdd dt;  q = drift(q, qd, dt).
 * qdd (nv) receives the acceleration used; fext may be NULL. */
void mech_step_euler(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd, const double *tau,
                     const double *fext, double *qdd, double dt);

/* One Störmer–Verlet step, drift / kick / drift with ONE dynamics call at
 * the midpoint (dynamics README, "Second-order stepping"):
 *   q   = drift(q, qd, dt/2)
 *   qdd = fd(ctx, q, qd + qdd_prev dt/2, tau, fext)     midpoint velocity predictor
 *   qd += qdd dt
 *   q   = drift(q, qd, dt/2)
 * qdd (nv) is in/out: on entry the previous step's acceleration (for the
 * predictor; on the first step the acceleration at the initial state, or
 * zeros at the price of one O(dt^2) velocity error), on exit the new one.
 * vmid (nv) is scratch.  Second order for velocity-dependent forces
 * (Coriolis, dampers) because both slots of fd are at the midpoint. */
void mech_step_verlet(const mech_model *m, mech_fd_fn fd, void *ctx, double *q, double *qd, const double *tau,
                      const double *fext, double *qdd, double *vmid, double dt);

/* The external force of a step at the state (q, qd) its scheme evaluates it
 * at, held over dt, into *fext (NULL: none); -1 stops the step (the callback
 * says why), else 0. */
typedef int (*mech_forces_fn)(void *ctx, const double *q, const double *qd, double dt, const double **fext);

/* mech_step_verlet with the external force evaluated by forces at the
 * midpoint position (fctx passed through), and a choice of velocity slot: predict = 1 is
 * mech_step_verlet's predictor; predict = 0 evaluates fd and forces at the
 * step's starting velocity, for contact models (dynamics README, "The
 * predictor, and why the track loop does not use one": a damper evaluated at
 * a predicted velocity but applied to the true one injects energy).
 * 0, or -1 when forces failed (q then holds the midpoint). */
int mech_step_verlet_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx, double *q,
                            double *qd, const double *tau, double *qdd, double *vmid, int predict, double dt);

/* mech_step_verlet_forced itself, inline: where fd and forces are known
 * functions, they are called directly (and may be inlined). */
static inline int mech_step_verlet_forced_inline(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces,
                                                 void *fctx, double *q, double *qd, const double *tau, double *qdd,
                                                 double *vmid, int predict, double dt)
{
    mech_integrate_q(m, q, qd, dt / 2); /* drift */
    const double *v = qd;
    if (predict) {
        MECH_SCALAR_LOOP
        for (int k = 0; k < m->nv; k++) vmid[k] = qd[k] + qdd[k] * dt / 2;
        v = vmid;
    }
    const double *fext;
    if (forces(fctx, q, v, dt, &fext)) return -1;
    fd(ctx, q, v, tau, fext, qdd);
    MECH_SCALAR_LOOP
    for (int k = 0; k < m->nv; k++) qd[k] += qdd[k] * dt; /* kick  */
    mech_integrate_q(m, q, qd, dt / 2);                   /* drift */
    return 0;
}

/* mech_step_euler with the external force from forces at the step's start. */
int mech_step_euler_forced(const mech_model *m, mech_fd_fn fd, void *ctx, mech_forces_fn forces, void *fctx, double *q,
                           double *qd, const double *tau, double *qdd, double dt);

#endif
