/* dense.h — the dense reference dynamics, straight from RBDA (Featherstone 2008).
 *
 * Full 6x6 spatial matrices throughout: Plücker transforms composed by plain
 * matrix multiplication (core/spatial), mcI inertias, crm/crf operators, and a
 * general LU solve for H qdd = tau - C.  Nothing here exploits sparsity; this
 * is the yardstick every faster implementation is gated against.
 *
 * Conventions are docs/conventions.md: q/qd/tau packed by body.qidx/vidx;
 * fext is 6*nb doubles, per body a spatial force in BASE coordinates
 * [moment about the base origin; force], read only where body.fext == 1;
 * gravity enters as the fictitious base acceleration a0 = -[0; g] (RBDA §5.3).
 * Floating quaternions may be slightly non-unit; they are normalized on use.
 */
#ifndef MECH_DENSE_H
#define MECH_DENSE_H

#include "model/model.h"

typedef struct dense_ws dense_ws;

/* Workspace for one model, allocated once; per-call work never allocates.
 * NULL on OOM.  The model must outlive the workspace. */
dense_ws *dense_ws_new(const mech_model *m);
void dense_ws_free(dense_ws *ws);

/* RNEA, Table 5.1: tau = ID(q, qd, qdd, fext).  fext may be NULL. */
void dense_rnea(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *qdd,
                const double *fext, double *tau);

/* CRBA, Table 6.2: joint-space inertia H (nv*nv, row-major, both triangles). */
void dense_crba(const mech_model *m, dense_ws *ws, const double *q, double *H);

/* Forward dynamics: C = ID(q, qd, 0, fext) by RNEA, H by CRBA, then an LU
 * solve of H qdd = tau - C.  fext may be NULL.  qdd is all NaN if H is
 * singular (which a valid model never produces). */
void dense_fd(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *tau,
              const double *fext, double *qdd);

/* How well qdd solves the equation of motion H qdd + C = tau (C the bias
 * force, ID(q, qd, 0, fext)): max|ID(q, qd, qdd, fext) - tau| divided by
 * max(1, max|tau|, max|C|), the size of the forces in balance.  Scaling by tau
 * alone, as mech_scaled_error does, gates a heavy body on roundoff: a 500 kg
 * satellite in free fall balances ~5e3 N of weight against |tau| <= 5, so an
 * exact qdd rounded to the ulp already misses tau by ~1e-12 of |tau|.  *plain
 * (may be NULL) receives that tau-scaled figure, mech_scaled_error(ID, tau). */
double dense_id_residual(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *qdd,
                         const double *fext, const double *tau, double *plain);

/* The dense reference as a mech_fd_fn (core/sim/integrate.h): ctx points to
 * a dense_engine.  It runs dense_fd_full (rbda/loops.h) with act = NULL, so
 * loop models are stepped with their constraints and force elements; for a
 * tree model without elements that is exactly dense_fd. */
typedef struct {
    const mech_model *m;
    dense_ws *ws;
} dense_engine;
void dense_engine_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd);

/* ws->Xw, Sw, vw, aw at (q, qd) (dense_world.c): per body 0_X_i, the columns
 * 0_X_i S_i of its world Jacobian, its velocity and its velocity-product
 * acceleration (qdd = 0, no gravity), in base coordinates; qd may be NULL
 * (zero velocity). */
void dense_world_kinematics(const mech_model *m, dense_ws *ws, const double *q, const double *qd);

/* The workspace.  Defined here so the dense reference's files (rnea.c,
 * crba.c, energy.c) share it; other code treats it as opaque. */
struct dense_ws {
    int nb, nv;
    double (*XT)[36];  /* tree transforms body_X_parent at q = 0 (constant) */
    double (*I)[36];   /* body spatial inertias, eq. 2.63 (constant)        */
    double (*Xup)[36]; /* i_X_lambda(i) = XJ XT                             */
    double (*X0)[36];  /* i_X_0, for the base-coordinate fext               */
    double (*S)[36];   /* motion subspaces, 6 x nv row-major                */
    double (*IC)[36];  /* composite inertias (CRBA)                         */
    double (*v)[6], (*a)[6], (*f)[6];
    double *H, *C, *zero; /* nv*nv, nv, nv (zero: qdd = 0 for the bias)     */
    double *tau_id;       /* nv, for dense_id_residual                      */
    int *piv;             /* nv                                             */
    double *pose;         /* 7*nb, for energy                               */
    /* loops.c / elements.c: base-coordinate kinematics and the method-2 solve */
    int nc;
    double (*Xw)[36];          /* 0_X_i                                          */
    double (*Sw)[36];          /* 0_X_i S_i, 6 x nv_i row-major                  */
    double (*vw)[6], (*aw)[6]; /* velocity, velocity-product acceleration (qdd = 0, no gravity) */
    double *K, *Y;             /* nc*nv: loop Jacobian; rows of H^-1 K^T         */
    double *kc, *e, *ed;       /* nc: k + kstab, position error, velocity error  */
    double *A, *lam;           /* nc*nc, nc                                      */
    int *pivc;                 /* nc                                             */
    double *tau_e, *dnu;       /* nv: element forces; velocity-space scratch     */
};

#endif
