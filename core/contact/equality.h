/* equality.h — equality constraints (model.h, mech_equality) as bilateral
 * rows of the constraint solve (constraint.h; docs/contact.md, "Equality
 * rows"): MuJoCo's joint and connect equalities with their own solref and
 * solimp and MuJoCo's regularizer weight, fixed at the reference pose
 * (MuJoCo documentation, "Computation", "Soft constraints": R from
 * diagApprox, which MuJoCo's mj_setConst takes from the inverse inertia at
 * qpos0). */
#ifndef MECH_EQUALITY_H
#define MECH_EQUALITY_H

#include "model/model.h"
#include "rbda/kinematics.h"

typedef struct equality_set equality_set;

/* The set for m (connect anchors on their second body, the weights), from
 * the reference pose (revolute, prismatic and cylindrical coordinates 0,
 * floating and spherical joints at their q0: MuJoCo's qpos0); NULL on out
 * of memory. */
equality_set *equality_new(const mech_model *m);
void equality_free(equality_set *e);

/* The rows of equality e: 1 (joint) or 3 (connect). */
int equality_nrows(const mech_equality *e);

/* Row k of equality e at (q, v), kinematics kin at q: J (nv, zeroed by the
 * caller) filled, *r its position (the violation) and *bias its velocity
 * term (constraint.h, constraint_point_row). */
void equality_row(const mech_model *m, const equality_set *es, const mech_body_kin *kin, int e, int k, const double *q,
                  const double *v, double *J, double *r, double *bias);

/* The distance equality e's impedance reads, from its rows' positions r
 * (its first row's on): the norm over its rows (MuJoCo's, for a connect's
 * three). */
double equality_distance(const mech_model *m, int e, const double *r);

/* Equality e's soft-constraint parameters and the weight its rows' R
 * scales: R = (1 − d) / d · weight. */
void equality_soft(const mech_model *m, const equality_set *es, int e, const double **solref, const double **solimp,
                   double *weight);

#endif
