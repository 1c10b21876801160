/* crba.c — the composite-rigid-body algorithm (RBDA Table 6.2) with full
 * 6x6 spatial matrices.  See dense.h. */
#include "rbda/dense.h"

#include <string.h>

#include "rbda/jcalc.h"
#include "spatial/spatial.h"

/* H_ij = F^T S_j and H_ji = H_ij^T, for body i (F is 6 x nv_i) and its ancestor-or-self j. */
static void put_block(const mech_model *m, const dense_ws *ws, double *H, int i, int j, const double *F)
{
    const mech_body *bi = &m->bodies[i], *bj = &m->bodies[j];
    double blk[36];
    mat_tmul(bi->nv, 6, bj->nv, F, ws->S[j], blk);
    for (int r = 0; r < bi->nv; r++)
        for (int c = 0; c < bj->nv; c++)
            H[m->nv * (bi->vidx + r) + bj->vidx + c] = H[m->nv * (bj->vidx + c) + bi->vidx + r] = blk[bj->nv * r + c];
}

/* Table 6.2.  IC_i = I_i; backward, IC_lambda += lambdaX*_i IC_i iX_lambda
 * (lambdaX*_i = iX_lambda^T, eq. 2.25); then per body F = IC_i S_i,
 * H_ii = S_i^T F, and walking to the root F = lambdaX*_j F, j = lambda(j),
 * H_ij = F^T S_j.  Fixed joints (nv 0) add no rows but pass F on.  A joint's
 * armature (rotor inertia) adds to its diagonal entries only. */
void dense_crba(const mech_model *m, dense_ws *ws, const double *q, double *H)
{
    memset(H, 0, (size_t)m->nv * (size_t)m->nv * sizeof(double));
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double XJ[36];
        body_jcalc_normalized(b, q + b->qidx, XJ, ws->S[i]);
        m6_mul(XJ, ws->XT[i], ws->Xup[i]);
        memcpy(ws->IC[i], ws->I[i], sizeof ws->IC[i]);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        int p = m->bodies[i].parent;
        double ICX[36], XtICX[36];
        if (p < 0) continue;
        m6_mul(ws->IC[i], ws->Xup[i], ICX);
        mat_tmul(6, 6, 6, ws->Xup[i], ICX, XtICX);
        for (int k = 0; k < 36; k++) ws->IC[p][k] += XtICX[k];
    }
    for (int i = 0; i < m->nb; i++) {
        int ni = m->bodies[i].nv, j = i;
        double F[36], XtF[36];
        if (ni == 0) continue;
        mat_mul(6, 6, ni, ws->IC[i], ws->S[i], F);
        put_block(m, ws, H, i, i, F);
        for (int k = 0; k < ni; k++)
            H[m->nv * (m->bodies[i].vidx + k) + m->bodies[i].vidx + k] += m->bodies[i].armature;
        while (m->bodies[j].parent >= 0) {
            mat_tmul(6, 6, ni, ws->Xup[j], F, XtF);
            memcpy(F, XtF, sizeof F);
            j = m->bodies[j].parent;
            put_block(m, ws, H, i, j, F);
        }
    }
}
