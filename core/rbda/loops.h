/* loops.h — closed kinematic loops (RBDA ch. 8): the constraint terms and
 * forward dynamics by method 2 of §8.5, in the dense reference and on ABA.
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

#include "model/model.h"
#include "rbda/aba.h"
#include "rbda/dense.h"

/* Loop terms at (q, qd): position error e, velocity error ed = K qd, loop
 * Jacobian K (nc x nv row-major) and k + kstab.  Any output may be NULL;
 * qd may be NULL (zero velocity). */
void mech_loop_terms(const mech_model *m, dense_ws *ws, const double *q, const double *qd, double *e, double *ed,
                     double *K, double *k);

/* Forward dynamics with force elements and loops (method 2, §8.5):
 *   qdd0 = H^-1 (tau + tau_e - C)
 *   A lambda = k + kstab - K qdd0,   A = K H^-1 K^T
 *   qdd = qdd0 + H^-1 K^T lambda
 * one LU of H for all 1 + nc right-hand sides, A by a dense LU.  fext and act
 * may be NULL.  Under integrator implicit, H is H + h D with h = act[nact]
 * (mech_model_implicit_step).  qdd is all NaN if H or A is singular.  With nc = 0, no
 * elements and act = NULL this is dense_fd. */
void dense_fd_full(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *tau,
                   const double *fext, const double *act, double *qdd);

/* The same method 2 by an independent route: one aba_factor (RBDA Table
 * 7.1) serves qdd0 = aba_solve(qd, tau + tau_e) and the nc columns
 * H^-1 K_r^T = aba_solve without gravity at qd = 0 (bias zero).
 * dws supplies K, k + kstab, tau_e and scratch. */
void aba_fd_full(const mech_model *m, aba_ws *aws, dense_ws *dws, const double *q, const double *qd, const double *tau,
                 const double *fext, const double *act, double *qdd);

#endif
