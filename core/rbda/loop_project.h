/* loop_project.h — a configuration and a velocity made consistent with a
 * model's closed loops (rbda/loops.h): e(q) = 0 and K qd = 0. */
#ifndef MECH_LOOP_PROJECT_H
#define MECH_LOOP_PROJECT_H

#include "model/model.h"
#include "rbda/dense.h"

/* Gauss-Newton projection onto e(q) = 0: dnu = -K^T (K K^T)^-1 e in
 * velocity space, mapped into q by mech_integrate_q (rbda/drift.h: the
 * quaternion tangent map for floating bodies).  Returns the final max|e|. */
double mech_loop_project(const mech_model *m, dense_ws *ws, double *q);

/* qd -= K^T (K K^T)^-1 K qd: the consistent part of qd. */
void mech_loop_project_velocity(const mech_model *m, dense_ws *ws, const double *q, double *qd);

#endif
