/* aba.c — the articulated-body algorithm, RBDA Table 7.1.  See aba.h. */
#include "rbda/aba.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spatial/spatial.h"

struct aba_ws {
    double (*XT)[36], (*I)[36];        /* tree transforms, spatial inertias (constant) */
    double (*Xup)[36], (*X0)[36];      /* iX_lambda, iX0                               */
    double (*X0f)[36];                 /* iX0* for the base-coordinate fext            */
    double (*S)[36];                   /* 6 x nv                                       */
    double (*IA)[36], (*Ia)[36];       /* IA_i and Ia_i = IA_i - U D^-1 U^T            */
    double (*U)[36], (*Dinv)[36];      /* 6 x nv, nv x nv                              */
    double (*v)[6], (*c)[6], (*pA)[6], (*a)[6], (*u)[6];
};

aba_ws *aba_ws_new(const mech_model *m)
{
    aba_ws *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    size_t nb = (size_t)(m->nb ? m->nb : 1);
    double (**m36[])[36] = { &ws->XT, &ws->I, &ws->Xup, &ws->X0, &ws->X0f, &ws->S, &ws->IA, &ws->Ia, &ws->U, &ws->Dinv };
    double (**m6[])[6] = { &ws->v, &ws->c, &ws->pA, &ws->a, &ws->u };
    int ok = 1;
    for (size_t k = 0; k < sizeof m36 / sizeof m36[0]; k++) ok &= (*m36[k] = malloc(nb * sizeof(double[36]))) != NULL;
    for (size_t k = 0; k < sizeof m6 / sizeof m6[0]; k++) ok &= (*m6[k] = malloc(nb * sizeof(double[6]))) != NULL;
    if (!ok) {
        aba_ws_free(ws);
        return NULL;
    }
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        body_xtree(b, ws->XT[i]);
        mcI(b->mass, b->com, b->inertia, ws->I[i]);
    }
    return ws;
}

void aba_ws_free(aba_ws *ws)
{
    if (!ws) return;
    free(ws->XT); free(ws->I); free(ws->Xup); free(ws->X0); free(ws->X0f); free(ws->S);
    free(ws->IA); free(ws->Ia); free(ws->U); free(ws->Dinv);
    free(ws->v); free(ws->c); free(ws->pA); free(ws->a); free(ws->u);
    free(ws);
}

/* Dinv = D^-1 for the symmetric positive definite n x n D (n <= 6), by
 * Cholesky D = L L^T and one forward/back substitution per column. */
static void spd_inverse(int n, const double *D, double *Dinv)
{
    double L[36] = { 0 };
    for (int j = 0; j < n; j++) {
        double s = D[n * j + j];
        for (int k = 0; k < j; k++) s -= L[n * j + k] * L[n * j + k];
        L[n * j + j] = sqrt(s);
        for (int r = j + 1; r < n; r++) {
            double t = D[n * r + j];
            for (int k = 0; k < j; k++) t -= L[n * r + k] * L[n * j + k];
            L[n * r + j] = t / L[n * j + j];
        }
    }
    for (int c = 0; c < n; c++) {
        double y[6];
        for (int r = 0; r < n; r++) {                   /* L y = e_c */
            double t = r == c ? 1.0 : 0.0;
            for (int k = 0; k < r; k++) t -= L[n * r + k] * y[k];
            y[r] = t / L[n * r + r];
        }
        for (int r = n - 1; r >= 0; r--) {              /* L^T x = y */
            double t = y[r];
            for (int k = r + 1; k < n; k++) t -= L[n * k + r] * Dinv[n * k + c];
            Dinv[n * r + c] = t / L[n * r + r];
        }
    }
}

/* Table 7.1, the q-only parts of passes 1 and 2: iX_lambda = XJ XT, iX0*,
 * and backward U_i = IA_i S_i, D_i = S_i^T U_i, Ia_i = IA_i - U_i D_i^-1 U_i^T,
 * IA_lambda += lambdaX*_i Ia_i iX_lambda (lambdaX*_i = iX_lambda^T, eq. 2.25). */
void aba_factor(const mech_model *m, aba_ws *ws, const double *q)
{
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double XJ[36];
        body_jcalc_normalized(b, q + b->qidx, XJ, ws->S[i]);
        m6_mul(XJ, ws->XT[i], ws->Xup[i]);
        if (b->parent < 0) memcpy(ws->X0[i], ws->Xup[i], sizeof ws->X0[i]);
        else m6_mul(ws->Xup[i], ws->X0[b->parent], ws->X0[i]);
        plux_force(ws->X0[i], ws->X0f[i]);
        memcpy(ws->IA[i], ws->I[i], sizeof ws->IA[i]);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        int nv = m->bodies[i].nv, p = m->bodies[i].parent;
        double D[36], UDinv[36], Ut[36], UDU[36], IaX[36], XtIaX[36];
        mat_mul(6, 6, nv, ws->IA[i], ws->S[i], ws->U[i]);                   /* U = IA S  */
        mat_tmul(nv, 6, nv, ws->S[i], ws->U[i], D);                         /* D = S^T U */
        for (int k = 0; k < nv; k++) D[nv * k + k] += m->bodies[i].armature; /* + rotor inertia */
        spd_inverse(nv, D, ws->Dinv[i]);
        mat_mul(6, nv, nv, ws->U[i], ws->Dinv[i], UDinv);
        for (int r = 0; r < nv; r++)
            for (int c = 0; c < 6; c++) Ut[6 * r + c] = ws->U[i][nv * c + r];
        mat_mul(6, nv, 6, UDinv, Ut, UDU);
        for (int k = 0; k < 36; k++) ws->Ia[i][k] = ws->IA[i][k] - UDU[k];  /* Ia = IA - U D^-1 U^T */
        if (p < 0) continue;
        m6_mul(ws->Ia[i], ws->Xup[i], IaX);
        mat_tmul(6, 6, 6, ws->Xup[i], IaX, XtIaX);
        for (int k = 0; k < 36; k++) ws->IA[p][k] += XtIaX[k];
    }
}

/* Table 7.1 per right-hand side.  Pass 1: v_i = iX_lambda v_lambda + S qd,
 * c_i = v_i x vJ, pA_i = v_i x* I_i v_i - iX0* f^x_i.  Pass 2 (backward):
 * u_i = tau_i - S_i^T pA_i, pa = pA_i + Ia_i c_i + U_i D_i^-1 u_i,
 * pA_lambda += lambdaX*_i pa.  Pass 3: a' = iX_lambda a_lambda + c_i,
 * qdd_i = D_i^-1 (u_i - U_i^T a'), a_i = a' + S_i qdd_i, from a_0 = -[0; g]. */
void aba_solve(const mech_model *m, aba_ws *ws, const double *qd, const double *tau,
               const double *fext, double *qdd)
{
    static const double zero6[6];
    const double a0[6] = { 0, 0, 0, -m->gravity[0], -m->gravity[1], -m->gravity[2] }; /* §5.3 */
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double vJ[6], vp[6], cr[36], Iv[6];
        mat_mul(6, b->nv, 1, ws->S[i], qd + b->vidx, vJ);
        m6_mulv(ws->Xup[i], b->parent < 0 ? zero6 : ws->v[b->parent], vp);
        for (int k = 0; k < 6; k++) ws->v[i][k] = vp[k] + vJ[k];
        crm(ws->v[i], cr);
        m6_mulv(cr, vJ, ws->c[i]);                                          /* c = v x vJ (cJ = 0) */
        m6_mulv(ws->I[i], ws->v[i], Iv);
        crf(ws->v[i], cr);
        m6_mulv(cr, Iv, ws->pA[i]);                                         /* pA = v x* I v */
        if (fext && b->fext) {
            double fx[6];
            m6_mulv(ws->X0f[i], fext + 6 * i, fx);
            for (int k = 0; k < 6; k++) ws->pA[i][k] -= fx[k];              /* - iX0* f^x */
        }
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        int nv = b->nv;
        double StpA[6], Dinvu[6], UDinvu[6], Iac[6], pa[6], Xtpa[6];
        mat_tmul(nv, 6, 1, ws->S[i], ws->pA[i], StpA);
        for (int k = 0; k < nv; k++) ws->u[i][k] = tau[b->vidx + k] - StpA[k];    /* u = tau - S^T pA */
        if (b->parent < 0) continue;
        mat_mul(nv, nv, 1, ws->Dinv[i], ws->u[i], Dinvu);
        mat_mul(6, nv, 1, ws->U[i], Dinvu, UDinvu);
        m6_mulv(ws->Ia[i], ws->c[i], Iac);
        for (int k = 0; k < 6; k++) pa[k] = ws->pA[i][k] + Iac[k] + UDinvu[k];
        m6_tmulv(ws->Xup[i], pa, Xtpa);
        for (int k = 0; k < 6; k++) ws->pA[b->parent][k] += Xtpa[k];
    }
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        int nv = b->nv;
        double ap[6], Uta[6], r[6], Sqdd[6];
        m6_mulv(ws->Xup[i], b->parent < 0 ? a0 : ws->a[b->parent], ap);
        for (int k = 0; k < 6; k++) ap[k] += ws->c[i][k];                   /* a' = X a_lambda + c */
        mat_tmul(nv, 6, 1, ws->U[i], ap, Uta);
        for (int k = 0; k < nv; k++) r[k] = ws->u[i][k] - Uta[k];
        mat_mul(nv, nv, 1, ws->Dinv[i], r, qdd + b->vidx);                 /* qdd = D^-1 (u - U^T a') */
        mat_mul(6, nv, 1, ws->S[i], qdd + b->vidx, Sqdd);
        for (int k = 0; k < 6; k++) ws->a[i][k] = ap[k] + Sqdd[k];
    }
}

void aba_fd(const mech_model *m, aba_ws *ws, const double *q, const double *qd,
            const double *tau, const double *fext, double *qdd)
{
    aba_factor(m, ws, q);
    aba_solve(m, ws, qd, tau, fext, qdd);
}

void aba_engine_fd(void *ctx, const double *q, const double *qd, const double *tau,
                   const double *fext, double *qdd)
{
    aba_engine *e = ctx;
    aba_fd(e->m, e->ws, q, qd, tau, fext, qdd);
}
