/* loop_project.c — Gauss-Newton projections onto the loop manifold.  See
 * loop_project.h. */
#include "rbda/loop_project.h"

#include <math.h>
#include <string.h>

#include "rbda/dense.h"
#include "rbda/drift.h"
#include "rbda/loops.h"
#include "spatial/linalg.h"

/* (K K^T) y = b for the K in ws->K; b overwritten by y.  -1 if singular. */
static int solve_kkt(const mech_model *m, dense_ws *ws, double *b)
{
    int nc = m->nc, nv = m->nv;
    for (int r = 0; r < nc; r++)
        for (int s = 0; s < nc; s++) {
            double a = 0;
            for (int j = 0; j < nv; j++) a += ws->K[(size_t)r * nv + j] * ws->K[(size_t)s * nv + j];
            ws->A[nc * r + s] = a;
        }
    if (dense_lu(nc, ws->A, ws->pivc) != 0) return -1;
    dense_lu_solve(nc, ws->A, ws->pivc, b);
    return 0;
}

/* x -= K^T y: the velocity-space correction for the solved y. */
static void sub_kt(const mech_model *m, const dense_ws *ws, const double *y, double *x)
{
    for (int r = 0; r < m->nc; r++)
        for (int j = 0; j < m->nv; j++) x[j] -= ws->K[(size_t)r * m->nv + j] * y[r];
}

static double max_abs(const double *x, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++) e = fmax(e, fabs(x[i]));
    return e;
}

double mech_loop_project(const mech_model *m, dense_ws *ws, double *q)
{
    double err = 0;
    for (int it = 0; it < 50; it++) {
        mech_loop_terms(m, ws, q, NULL, ws->e, NULL, ws->K, NULL);
        err = max_abs(ws->e, m->nc);
        if (err <= 1e-14 || solve_kkt(m, ws, ws->e)) break;
        memset(ws->dnu, 0, (size_t)m->nv * sizeof *ws->dnu);
        sub_kt(m, ws, ws->e, ws->dnu); /* dnu = -K^T (K K^T)^-1 e */
        mech_integrate_q(m, q, ws->dnu, 1.0);
    }
    return err;
}

void mech_loop_project_velocity(const mech_model *m, dense_ws *ws, const double *q, double *qd)
{
    if (m->nc == 0) return;
    mech_loop_terms(m, ws, q, qd, NULL, ws->ed, ws->K, NULL);
    if (solve_kkt(m, ws, ws->ed) == 0) sub_kt(m, ws, ws->ed, qd);
}
