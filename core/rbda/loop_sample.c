/* loop_sample.c — the near-manifold random walk and validation states.  See
 * loop_sample.h. */
#include "rbda/loop_sample.h"

#include <string.h>

#include "rbda/drift.h"
#include "rbda/loop_project.h"

double mech_manifold_walk(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q, double step)
{
    double *dnu = ws->tau_e; /* free between dynamics calls */
    for (int j = 0; j < m->nv; j++) dnu[j] = mech_rng_uniform(rng, -step, step);
    mech_loop_project_velocity(m, ws, q, dnu);
    mech_integrate_q(m, q, dnu, 1.0);
    return mech_loop_project(m, ws, q);
}

void mech_manifold_tear(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q, double *qd, double tear)
{
    for (int j = 0; j < m->nv; j++) {
        ws->dnu[j] = mech_rng_uniform(rng, -tear, tear);
        qd[j] += mech_rng_uniform(rng, -tear, tear);
    }
    mech_integrate_q(m, q, ws->dnu, 1.0);
}

void mech_sample_loop_state(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q_walk, double *q, double *qd,
                            double *tau, double *fext, double *act)
{
    if (m->nc == 0) {
        mech_sample_state(m, rng, q_walk, qd, tau, fext);
        memcpy(q, q_walk, (size_t)m->nq * sizeof *q);
    } else {
        mech_manifold_walk(m, ws, rng, q_walk, 0.2);
        mech_sample_state(m, rng, NULL, qd, tau, fext);
        mech_loop_project_velocity(m, ws, q_walk, qd);
        memcpy(q, q_walk, (size_t)m->nq * sizeof *q);
        mech_manifold_tear(m, ws, rng, q, qd, 1e-3);
    }
    for (int i = 0; i < m->nact; i++) act[i] = mech_rng_uniform(rng, -5, 5);
}
