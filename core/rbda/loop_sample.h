/* loop_sample.h — random validation states of a model with closed loops:
 * on the loop manifold, near it, and torn off it on purpose (so the
 * stabilization terms are exercised). */
#ifndef MECH_LOOP_SAMPLE_H
#define MECH_LOOP_SAMPLE_H

#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/sample.h"

/* One step of the near-manifold random walk: a random velocity-space step,
 * each component in [-step, step], made tangent (projected onto null K),
 * drifted, then projected back.  q stays near the manifold; returns max|e|. */
double mech_manifold_walk(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q, double step);

/* A deliberate tear: q drifted by a random velocity-space vector and qd
 * perturbed, both componentwise in [-tear, tear], so kstab is exercised. */
void mech_manifold_tear(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q, double *qd, double tear);

/* A validation state for a model with loops or force elements, the procedure
 * of the dynamics README: q_walk (start it at the projected initial pose) takes one
 * mech_manifold_walk step of 0.2; q is a copy torn by 1e-3 and qd a random
 * velocity made consistent, then torn too; tau, fext as mech_sample_state,
 * act uniform in [-5, 5].  Without loops, q is q_walk resampled. */
void mech_sample_loop_state(const mech_model *m, dense_ws *ws, mech_rng *rng, double *q_walk, double *q, double *qd,
                            double *tau, double *fext, double *act);

#endif
