/* rnea.c — the dense workspace and the recursive Newton-Euler algorithm
 * (RBDA Table 5.1) with full 6x6 spatial matrices.  See dense.h. */
#include "rbda/dense.h"
#include "rbda/loops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rbda/jcalc.h"
#include "rbda/sample.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

dense_ws *dense_ws_new(const mech_model *m)
{
    dense_ws *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    int nb = m->nb, nv = m->nv;
    size_t n36 = (size_t)(nb ? nb : 1) * sizeof(double[36]), n6 = (size_t)(nb ? nb : 1) * sizeof(double[6]);
    size_t nvv = (size_t)(nv ? nv : 1);
    ws->nb = nb;
    ws->nv = nv;
    ws->XT = malloc(n36);
    ws->I = malloc(n36);
    ws->Xup = malloc(n36);
    ws->X0 = malloc(n36);
    ws->S = malloc(n36);
    ws->IC = malloc(n36);
    ws->v = malloc(n6);
    ws->a = malloc(n6);
    ws->f = malloc(n6);
    ws->H = malloc(nvv * nvv * sizeof(double));
    ws->C = malloc(nvv * sizeof(double));
    ws->zero = calloc(nvv, sizeof(double));
    ws->tau_id = malloc(nvv * sizeof(double));
    ws->piv = malloc(nvv * sizeof(int));
    ws->pose = malloc((size_t)(nb ? nb : 1) * 7 * sizeof(double));
    size_t nc = (size_t)(m->nc ? m->nc : 1);
    ws->nc = m->nc;
    ws->Xw = malloc(n36);
    ws->Sw = malloc(n36);
    ws->vw = malloc(n6);
    ws->aw = malloc(n6);
    ws->K = malloc(nc * nvv * sizeof(double));
    ws->Y = malloc(nc * nvv * sizeof(double));
    ws->kc = malloc(nc * sizeof(double));
    ws->e = malloc(nc * sizeof(double));
    ws->ed = malloc(nc * sizeof(double));
    ws->A = malloc(nc * nc * sizeof(double));
    ws->lam = malloc(nc * sizeof(double));
    ws->pivc = malloc(nc * sizeof(int));
    ws->tau_e = malloc(nvv * sizeof(double));
    ws->dnu = malloc(nvv * sizeof(double));
    if (!ws->XT || !ws->I || !ws->Xup || !ws->X0 || !ws->S || !ws->IC || !ws->v || !ws->a || !ws->f || !ws->H ||
        !ws->C || !ws->zero || !ws->tau_id || !ws->piv || !ws->pose || !ws->Xw || !ws->Sw || !ws->vw || !ws->aw ||
        !ws->K || !ws->Y || !ws->kc || !ws->e || !ws->ed || !ws->A || !ws->lam || !ws->pivc || !ws->tau_e || !ws->dnu) {
        dense_ws_free(ws);
        return NULL;
    }
    for (int i = 0; i < nb; i++) {
        const mech_body *b = &m->bodies[i];
        body_xtree(b, ws->XT[i]);
        mcI(b->mass, b->com, b->inertia, ws->I[i]);
    }
    return ws;
}

void dense_ws_free(dense_ws *ws)
{
    if (!ws) return;
    free(ws->XT);
    free(ws->I);
    free(ws->Xup);
    free(ws->X0);
    free(ws->S);
    free(ws->IC);
    free(ws->v);
    free(ws->a);
    free(ws->f);
    free(ws->H);
    free(ws->C);
    free(ws->zero);
    free(ws->tau_id);
    free(ws->piv);
    free(ws->pose);
    free(ws->Xw);
    free(ws->Sw);
    free(ws->vw);
    free(ws->aw);
    free(ws->K);
    free(ws->Y);
    free(ws->kc);
    free(ws->e);
    free(ws->ed);
    free(ws->A);
    free(ws->lam);
    free(ws->pivc);
    free(ws->tau_e);
    free(ws->dnu);
    free(ws);
}

/* Table 5.1.  Forward pass: velocities, accelerations and the net body
 * forces f_i = I a + v x* I v - iX0* f^x; backward pass: tau_i = S_i^T f_i,
 * f_lambda += lambdaX*_i f_i with lambdaX*_i = (iX_lambda)^T (eq. 2.25). */
void dense_rnea(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *qdd,
                const double *fext, double *tau)
{
    static const double zero6[6];
    const double a0[6] = { 0, 0, 0, -m->gravity[0], -m->gravity[1], -m->gravity[2] }; /* §5.3 */
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        int p = b->parent, nv = b->nv;
        double XJ[36], vJ[6], Sqdd[6], vp[6], ap[6], cr[36], Iv[6], vxIv[6];
        body_jcalc_normalized(b, q + b->qidx, XJ, ws->S[i]);
        m6_mul(XJ, ws->XT[i], ws->Xup[i]);             /* iX_lambda = XJ XT */
        mat_mul(6, nv, 1, ws->S[i], qd + b->vidx, vJ); /* vJ = S qd        */
        mat_mul(6, nv, 1, ws->S[i], qdd + b->vidx, Sqdd);
        m6_mulv(ws->Xup[i], p < 0 ? zero6 : ws->v[p], vp);
        m6_mulv(ws->Xup[i], p < 0 ? a0 : ws->a[p], ap);
        for (int k = 0; k < 6; k++) ws->v[i][k] = vp[k] + vJ[k]; /* v = X v_lambda + vJ */
        crm(ws->v[i], cr);
        m6_mulv(cr, vJ, ws->a[i]);
        for (int k = 0; k < 6; k++) ws->a[i][k] += ap[k] + Sqdd[k]; /* a = X a_lambda + S qdd + v x vJ */
        m6_mulv(ws->I[i], ws->v[i], Iv);
        crf(ws->v[i], cr);
        m6_mulv(cr, Iv, vxIv);
        m6_mulv(ws->I[i], ws->a[i], ws->f[i]);
        for (int k = 0; k < 6; k++) ws->f[i][k] += vxIv[k]; /* f = I a + v x* I v */
        if (p < 0) memcpy(ws->X0[i], ws->Xup[i], sizeof ws->X0[i]);
        else m6_mul(ws->Xup[i], ws->X0[p], ws->X0[i]); /* iX0 = iX_lambda lambdaX0 */
        if (fext && b->fext) {
            double X0f[36], fx[6];
            plux_force(ws->X0[i], X0f);
            m6_mulv(X0f, fext + 6 * i, fx);
            for (int k = 0; k < 6; k++) ws->f[i][k] -= fx[k]; /* - iX0* f^x */
        }
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        mat_tmul(b->nv, 6, 1, ws->S[i], ws->f[i], tau + b->vidx); /* tau = S^T f */
        for (int k = 0; k < b->nv; k++) /* + the rotor's inertia (H's diagonal); none at qdd = 0: C exactly */
            if (b->armature != 0.0 && qdd[b->vidx + k] != 0.0) tau[b->vidx + k] += b->armature * qdd[b->vidx + k];
        if (b->parent >= 0) {
            double fp[6];
            m6_tmulv(ws->Xup[i], ws->f[i], fp);
            for (int k = 0; k < 6; k++) ws->f[b->parent][k] += fp[k];
        }
    }
}

void dense_fd(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *tau,
              const double *fext, double *qdd)
{
    int nv = m->nv;
    dense_rnea(m, ws, q, qd, ws->zero, fext, ws->C); /* C = ID(q, qd, 0) */
    dense_crba(m, ws, q, ws->H);
    for (int k = 0; k < nv; k++) qdd[k] = tau[k] - ws->C[k];
    if (dense_lu(nv, ws->H, ws->piv) != 0) {
        for (int k = 0; k < nv; k++) qdd[k] = NAN;
        return;
    }
    dense_lu_solve(nv, ws->H, ws->piv, qdd);
}

double dense_id_residual(const mech_model *m, dense_ws *ws, const double *q, const double *qd, const double *qdd,
                         const double *fext, const double *tau, double *plain)
{
    double err = 0, scale = 1;
    dense_rnea(m, ws, q, qd, ws->zero, fext, ws->C);
    dense_rnea(m, ws, q, qd, qdd, fext, ws->tau_id);
    if (plain) *plain = mech_scaled_error(ws->tau_id, tau, m->nv);
    for (int k = 0; k < m->nv; k++) {
        double d = fabs(ws->tau_id[k] - tau[k]);
        if (isnan(d)) return INFINITY;
        err = fmax(err, d);
        scale = fmax(scale, fmax(fabs(tau[k]), fabs(ws->C[k])));
    }
    return err / scale;
}

void dense_engine_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    dense_engine *e = ctx;
    dense_fd_full(e->m, e->ws, q, qd, tau, fext, NULL, qdd);
}
