/* loops.h — closed kinematic loops (RBDA ch. 8, method 2 of §8.5), force
 * elements (tsda, rsda), observation and name lookup, in the dense reference.
 *
 * Everything is computed in base coordinates from one kinematics pass
 * (dense_world_kinematics): per body 0_X_i, the columns 0_X_i S_i of its
 * world Jacobian, its velocity v_i and its velocity-product acceleration
 * (qdd = 0, no gravity).  A constraint row r of a loop is a base-coordinate
 * spatial force T_r(q) with  e_r' = T_r^T (v_s - v_p)  EXACTLY, e_r the exact
 * position error (docs/conventions.md, "Closed loops"), so
 *   K_r      = T_r^T (J_s - J_p)                       (eqs. 8.18-8.20: only
 *              joints on one of the two root paths get entries; shared
 *              ancestors cancel)
 *   k_r      = -T_r^T (avp_s - avp_p) - T_r'^T (v_s - v_p)          (Table 8.4)
 *   kstab_r  = -2 alpha e_r' - beta^2 e_r,  alpha = beta = 1 / stab  (§8.3)
 * and K qdd = k + kstab.  Conventions, layouts and act[] as docs/conventions.md.
 */
#ifndef MECH_LOOPS_H
#define MECH_LOOPS_H

#include <stddef.h>

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "sim/sample.h"

/* ws->Xw, Sw, vw, aw at (q, qd); qd may be NULL (zero velocity). */
void dense_world_kinematics(const mech_model *m, dense_ws *ws, const double *q, const double *qd);

/* Loop terms at (q, qd): position error e, velocity error ed = K qd, loop
 * Jacobian K (nc x nv row-major) and k + kstab.  Any output may be NULL;
 * qd may be NULL (zero velocity). */
void mech_loop_terms(const mech_model *m, dense_ws *ws, const double *q, const double *qd,
                     double *e, double *ed, double *K, double *k);

/* Generalized force of every tsda and rsda at (q, qd) into tau_e (nv).
 * TSDA: equal and opposite base-coordinate spatial forces at the two anchors,
 * mapped through J^T; RSDA: -k (q - q0) - c qd + act on its joint.  act
 * (m->nact doubles) may be NULL: all inputs zero. */
void mech_element_forces(const mech_model *m, dense_ws *ws, const double *q, const double *qd,
                         const double *act, double *tau_e);

/* Forward dynamics with force elements and loops (method 2, §8.5):
 *   qdd0 = H^-1 (tau + tau_e - C)
 *   A lambda = k + kstab - K qdd0,   A = K H^-1 K^T
 *   qdd = qdd0 + H^-1 K^T lambda
 * one LU of H for all 1 + nc right-hand sides, A by a dense LU.  fext and act
 * may be NULL.  qdd is all NaN if H or A is singular.  With nc = 0, no
 * elements and act = NULL this is dense_fd. */
void dense_fd_full(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *tau,
                   const double *fext, const double *act, double *qdd);

/* The same method 2 by an independent route: one aba_factor (RBDA Table
 * 7.1) serves qdd0 = aba_solve(qd, tau + tau_e) and the nc columns
 * H^-1 K_r^T = aba_solve without gravity at qd = 0 (bias zero).
 * dws supplies K, k + kstab, tau_e and scratch. */
void aba_fd_full(const mech_model *m, aba_ws *aws, dense_ws *dws, const double *q, const double *qd,
                 const double *tau, const double *fext, const double *act, double *qdd);

/* Numerical rank of K (nc x nv) by Gram-Schmidt QR of K^T with
 * reorthogonalization, rows in loop order: a row adds to the rank if its
 * component orthogonal to the rows before is longer than 1e-8 times the
 * longest row of K.  *short_loop (may be NULL): the first loop whose rows add
 * less than its nc, or -1; *margin (may be NULL): the shortest kept component
 * over the longest row.  K must not be ws->Y (the orthonormal rows go there). */
int mech_loop_rank(const mech_model *m, dense_ws *ws, const double *K, int *short_loop, double *margin);

/* rank(K) = nc at q?  Returns the rank; if short, writes a message naming the
 * loop and the fix (close a planar loop with point-on-line) into msg. */
int mech_loop_check(const mech_model *m, dense_ws *ws, const double *q, char *msg, size_t cap);

/* The open-time check of every path that runs a model on the Featherstone
 * engines (the runtime module, the code generator, the CLI): rank(K) = nc at
 * the model's initial configuration q0, exactly where the first forward()
 * of an opened model evaluates K.  Dependent rows make A = K H^-1 K^T
 * singular, so method 2 would fail there.  The tolerance is mech_loop_rank's:
 * a row counts if its part orthogonal to the rows before it is longer than
 * 1e-8 (about sqrt(machine epsilon)) times the longest row of K.  A row that
 * is dependent in exact arithmetic leaves a remainder of roundoff size,
 * ~1e-15 relative, while a kept row with remainder r makes cond(A) grow like
 * 1/r^2: past 1e-8 that is 1e16, where the LU of A has no correct digit left.
 * Returns 0, or -1 with *err at the first loop whose rows are short (its line
 * and the column of its name) saying how many rows are redundant.  err->file
 * is left as it is (the parse that made m set it); when empty it becomes
 * m->name. */
int mech_loops_check(const mech_model *m, mech_error *err);

/* Gauss-Newton projection onto e(q) = 0: dnu = -K^T (K K^T)^-1 e in
 * velocity space, mapped into q by mech_integrate_q (the quaternion tangent
 * map for floating bodies).  Returns the final max|e|. */
double mech_loop_project(const mech_model *m, dense_ws *ws, double *q);

/* qd -= K^T (K K^T)^-1 K qd: the consistent part of qd. */
void mech_loop_project_velocity(const mech_model *m, dense_ws *ws, const double *q, double *qd);

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

/* Observation layout: all POIs (world x y z, vx vy vz: 6 each), then all
 * TSDAs (l, ldot), then all RSDAs (q, qd). */
int mech_observe_len(const mech_model *m);
void mech_observe(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *out);

/* Lookup by kind "poi", "tsda", "rsda" (the offset of its first value in
 * mech_observe's out) or "act" (the act[] slot of an element declared
 * input); -1 for an unknown kind or name. */
int mech_find(const mech_model *m, const char *kind, const char *name);

#endif
