/* dense_world.c — the dense reference's world kinematics.  See dense.h. */
#include "rbda/dense.h"

#include <string.h>

#include "rbda/jcalc.h"
#include "spatial/spatial.h"

/* Table 5.1's forward pass with qdd = 0 and a0 = 0, then each quantity moved
 * to base coordinates by 0_X_i = (iX0)^-1: v_i = iX_lambda v_lambda + S qd,
 * avp_i = iX_lambda avp_lambda + v_i x S qd. */
void dense_world_kinematics(const mech_model *m, dense_ws *ws, const double *q, const double *qd)
{
    static const double zero6[6];
    if (!qd) qd = ws->zero;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        int p = b->parent;
        double XJ[36], vJ[6], vp[6], ap[6], cr[36];
        body_jcalc_normalized(b, q + b->qidx, XJ, ws->S[i]);
        m6_mul(XJ, ws->XT[i], ws->Xup[i]);
        if (p < 0) memcpy(ws->X0[i], ws->Xup[i], sizeof ws->X0[i]);
        else m6_mul(ws->Xup[i], ws->X0[p], ws->X0[i]);
        mat_mul(6, b->nv, 1, ws->S[i], qd + b->vidx, vJ);
        m6_mulv(ws->Xup[i], p < 0 ? zero6 : ws->v[p], vp);
        m6_mulv(ws->Xup[i], p < 0 ? zero6 : ws->a[p], ap);
        for (int k = 0; k < 6; k++) ws->v[i][k] = vp[k] + vJ[k];
        crm(ws->v[i], cr);
        m6_mulv(cr, vJ, ws->a[i]);
        for (int k = 0; k < 6; k++) ws->a[i][k] += ap[k];
        plux_inverse(ws->X0[i], ws->Xw[i]);
        mat_mul(6, 6, b->nv, ws->Xw[i], ws->S[i], ws->Sw[i]);
        m6_mulv(ws->Xw[i], ws->v[i], ws->vw[i]);
        m6_mulv(ws->Xw[i], ws->a[i], ws->aw[i]);
    }
}
