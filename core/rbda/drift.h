/* drift.h — a configuration moved along a velocity: q(dt) for constant qd,
 * each joint by its own exponential map (revolute and prismatic: q += qd dt;
 * floating: the quaternion and position below).  The integrators of
 * sim/integrate.h drift with it, the loop projections of rbda/loop_project.h
 * step with it. */
#ifndef MECH_DRIFT_H
#define MECH_DRIFT_H

#include "model/model.h"

/* Drift q along the constant velocity qd for time dt (dt may be negative).
 * 1-DOF joints and cylindrical ones: q += qd dt.  Spherical joints: the
 * attitude below alone.  Floating bodies, exactly for constant body-frame
 * [w; v] (dynamics README, "Integration"):
 *   Q(dt) = Q0 (x) exp(w dt / 2)          (quat_from_rotvec(w dt))
 *   r(dt) = r0 + R(Q(dt/2)) v dt          (midpoint rule, self-adjoint)
 * so drifting by +dt then -dt returns to the start to roundoff. */
void mech_integrate_q_bodies(const mech_model *m, double *q, const double *qd, double dt);

/* A short loop (nv entries) left scalar where the includer compiles with
 * vectors (wasm/model.c, -msimd128): the vector loop's alias checks and
 * remainder cost more than they save at a few entries. */
#if defined(__clang__)
#define MECH_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define MECH_SCALAR_LOOP
#endif

/* mech_integrate_q_bodies, inline: without a quaternion (nq = nv, so
 * every body's q and qd start at the same index) it is q += qd dt entry by
 * entry, the same operations with no pass over the bodies. */
static inline void mech_integrate_q(const mech_model *m, double *q, const double *qd, double dt)
{
    if (m->nq != m->nv) {
        mech_integrate_q_bodies(m, q, qd, dt);
        return;
    }
    MECH_SCALAR_LOOP
    for (int k = 0; k < m->nq; k++) q[k] += qd[k] * dt;
}

#endif
