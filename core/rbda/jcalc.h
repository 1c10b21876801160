/* jcalc.h — the transforms of a model's bodies (RBDA §4.4, Table 4.1: jcalc):
 * each body's tree transform and its joint's transform and motion subspace,
 * in the dense 6x6 form and in the efficient form of spatial.h (RBDA §2.8)
 * that the runtime ABA uses.  Conventions as spatial.h (E = R^T). */
#ifndef MECH_JCALC_H
#define MECH_JCALC_H

#include "model/model.h"
#include "spatial/spatial.h"

/* Tree transform of body b: body_X_parent at q = 0 (E = rot^T, r = pos). */
void body_xtree(const mech_body *b, double X[36]);
/* Joint transform body_X_jointframe and motion subspace S (6 x nv, row-major
 * 6*nv entries) for the body's joint at its own q slice.  Floating: q slice is
 * [qw qx qy qz x y z] relative to the parent (= base) frame, S = 1 (body-frame
 * velocity).  Revolute: E = R(axis, q)^T, S = [axis; 0].  Prismatic: r = axis q,
 * S = [0; axis].  Fixed: identity, nv = 0. */
void body_jcalc(const mech_body *b, const double *q, double XJ[36], double *S);
/* body_jcalc on a q slice as integration leaves it: a floating or spherical
 * joint's quaternion is normalized first.  Dynamics code calls this one. */
void body_jcalc_normalized(const mech_body *b, const double *q, double XJ[36], double *S);

/* X = plux(E, r) in parts, from the tree data of body b (E = rot^T, r = pos). */
void sxform_xtree(const mech_body *b, sxform *X);
/* The joint transform XJ of body b at its q slice (Table 4.1 as body_jcalc;
 * a floating or spherical quaternion is normalized first). */
void sxform_jcalc(const mech_body *b, const double *q, sxform *XJ);

#endif
