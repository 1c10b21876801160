/* kinematics.h — lean world kinematics in 3x3 form: per body its world
 * attitude, origin, angular velocity and origin velocity, in one pass down
 * the tree.  The same quantities dense_world_kinematics (rbda/dense.h)
 * carries as 6x6 transforms, at a fraction of the cost; tests/contact/test_contact_stage.c
 * checks the two agree.  Frames as docs/conventions.md. */
#ifndef MECH_KINEMATICS_H
#define MECH_KINEMATICS_H

#include "model/model.h"

typedef struct {
    double R[9];  /* body axes in base coordinates (columns), row-major */
    double p[3];  /* body origin, base frame                            */
    double w[3];  /* angular velocity, base frame                       */
    double pd[3]; /* velocity of the body origin, base frame            */
} mech_body_kin;

/* A body's joint as the pass reads it beyond the model: whether its tree
 * rotation is the identity (no product), and the k of a revolute or
 * prismatic axis along +-e_k (-1: a general axis). */
typedef struct {
    int tree_identity;
    int axis;
} mech_kin_joint;

/* j[0 .. nb-1] for m, found once for the many passes of a run. */
void mech_kin_joints(const mech_model *m, mech_kin_joint *j);

/* k[0 .. nb-1] at (q, qd); qd may be NULL (zero velocity).  Floating
 * quaternions are normalized on use, as the dynamics do.  joints: from
 * mech_kin_joints, or NULL to find them on the way (the same result). */
void mech_world_kinematics_joints(const mech_model *m, const mech_kin_joint *joints, const double *q, const double *qd,
                                  mech_body_kin *k);
void mech_world_kinematics(const mech_model *m, const double *q, const double *qd, mech_body_kin *k);

/* Velocity of the point x (base frame) moving with body kinematics k. */
static inline void mech_point_velocity(const mech_body_kin *k, const double x[3], double v[3])
{
    double r0 = x[0] - k->p[0], r1 = x[1] - k->p[1], r2 = x[2] - k->p[2];
    v[0] = k->pd[0] + k->w[1] * r2 - k->w[2] * r1;
    v[1] = k->pd[1] + k->w[2] * r0 - k->w[0] * r2;
    v[2] = k->pd[2] + k->w[0] * r1 - k->w[1] * r0;
}

#endif
