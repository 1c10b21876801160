/* mjcf.h — a mech_model rebuilt as a MuJoCo model, for tests and benchmarks.
 *
 * Never used by core/: MuJoCo is an external reference here, not a
 * dependency.  The converter writes MJCF text (revolute -> hinge, prismatic ->
 * slide, floating -> freejoint, fixed -> welded body, inertia as principal
 * axes + moments), compiles it from memory through a VFS and keeps the per-body index maps needed to move states
 * between the two coordinate systems.
 *
 * State mapping (derivation in docs/mujoco-mapping.md).  1-DOF joints are
 * identical.  A floating body with tree rotation R0, tree translation p0 and
 * our q = [Q; r], qd = [w; v] (body frame), with Rw = R0 R(Q):
 *     qpos = [p0 + R0 r;  quat(Rw)]              (world position, w x y z)
 *     qvel = [Rw v;  w]                          (world origin velocity, body w)
 *     qfrc = [Rw f;  n]                          (tau = [n; f], body frame)
 *     qdd  = [qacc_ang;  Rw^T qacc_lin - w x v]  (qacc_lin = d/dt (Rw v))
 * fext (base coords, [moment about base origin; force]) becomes
 *     xfrc_applied = [f;  n - c x f]             (torque about the world CoM c)
 */
#ifndef MECH_TESTS_MJCF_H
#define MECH_TESTS_MJCF_H

#include <mujoco/mujoco.h>

#include "model/model.h"

/* 1 when `m` can be rebuilt in MuJoCo by this converter; otherwise 0 with
 * the reason in why.  Tree bodies only: loop joints, tsdas and rsda inputs
 * are not mapped; rsdas become joint springs and dampers, actuators
 * MuJoCo's general actuators (gain, affine bias, gear, ranges). */
int mjcf_supported(const mech_model *m, char *why, int len);

/* MJCF text for `m` (malloc'd, caller frees), NULL if out of memory.  Only the
 * tree: check mjcf_supported first. */
char *mjcf_write(const mech_model *m);

typedef struct {
    const mech_model *mech;
    mjModel *m;
    mjData *d;
    int *body;    /* per mech body: MuJoCo body id                   */
    int *qposadr; /* per mech body: first qpos slot, -1 when fixed    */
    int *dofadr;  /* per mech body: first dof slot, -1 when fixed     */
    double *rhs;  /* nv scratch for mjcf_forward_minimal              */
} mjcf_sim;

/* Compile `mech` in MuJoCo.  NULL with a message in err on failure,
 * including an unsupported model. */
mjcf_sim *mjcf_sim_new(const mech_model *mech, char *err, int errlen);
void mjcf_sim_free(mjcf_sim *s);

/* Our (q, qd, tau, fext) in MuJoCo's coordinates: qpos (m->nq), qvel and
 * qfrc (m->nv), xfrc (6 m->nbody; zero except on bodies declaring fext).
 * fext may be NULL (xfrc is then left alone).  The CoMs come from
 * mj_kinematics run on s->d at qpos, so s->d is scratch here. */
void mjcf_map_state(mjcf_sim *s, const double *q, const double *qd, const double *tau, const double *fext, double *qpos,
                    double *qvel, double *qfrc, double *xfrc);

/* mjcf_map_state straight into s->d (qpos, qvel, qfrc_applied, xfrc_applied). */
void mjcf_set_state(mjcf_sim *s, const double *q, const double *qd, const double *tau, const double *fext);

/* s->d->qacc in our coordinates; q and qd are the state it was computed at. */
/* The actuators' ctrl (mech_data_ctrl's layout: ours are MuJoCo's, in order). */
void mjcf_set_ctrl(mjcf_sim *s, const double *ctrl);
void mjcf_get_qdd(const mjcf_sim *s, const double *q, const double *qd, double *qdd);

/* The minimal smooth forward dynamics, no collision, constraint or sensor
 * stage: kinematics, CoM frames, composite inertia, L'DL of M, CoM velocities
 * (cvel, cdof_dot are what mj_rne reads), RNE bias with flg_acc = 0, then
 * qacc = M^-1 (qfrc_applied + J' xfrc - bias).  Same qacc as mj_forward with
 * contacts, constraints and passive forces disabled. */
void mjcf_forward_minimal(mjcf_sim *s);

#endif
