/* xpbd_residual.c — the residuals of the discrete system the XPBD iteration
 * solves (eqs. 51–52), at the current state and accumulated multipliers:
 *     primal     = | M Δx̃ − ∇C(x)ᵀ λ |,  Δx̃ = [p − p̃ ; R ⊟ R̃] per body  (eq. 51)
 *     constraint = | C(x) + α̃ λ |                                        (eq. 52)
 * In XPBD_SCALAR the constraints are the normed groups C = |c| with their
 * exact gradients (c/|c|)ᵀ∇c, whatever direction Müller's updates used.
 * Limits count in eq. 52 only where they bind (λ > 0) or are violated. */
#include "xpbd/xpbd_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* r_i −= g_i λ for both sides of a constraint row. */
static void subtract_force(double *r, const int body[2], const double g[2][6], double lambda)
{
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0)
            for (int k = 0; k < 6; k++) r[6 * body[i] + k] -= g[i][k] * lambda;
}

void xpbd_residuals(const xpbd_model *m, const xpbd_data *d, double h, double *primal, double *constraint)
{
    double *r = calloc((size_t)(6 * (m->nbody ? m->nbody : 1)), sizeof(double));
    double inv_h2 = 1.0 / (h * h), c2 = 0;
    if (!r) {
        *primal = *constraint = NAN;
        return;
    }
    for (int b = 0; b < m->nbody; b++) {
        double th[3], Jth[3];
        for (int k = 0; k < 3; k++) r[6 * b + k] = m->bodies[b].mass * (d->p[3 * b + k] - d->p_pred[3 * b + k]);
        so3_minus(d->R + 9 * b, d->R_pred + 9 * b, th);
        m3_mulv(m->bodies[b].inertia, th, Jth);
        memcpy(r + 6 * b + 3, Jth, sizeof Jth);
    }
    for (int j = 0; j < m->njoint; j++) {
        const xpbd_joint *jt = &m->joints[j];
        const int body[2] = { jt->body1, jt->body2 };
        const double *lambda = d->lambda + 6 * j;
        xpbd_jeval e;
        xpbd_joint_eval(m, d, j, &e);
        if (d->mode == XPBD_SCALAR) {
            unsigned masks[6];
            int ng = xpbd_scalar_groups(jt, masks);
            for (int s = 0; s < ng; s++) {
                xpbd_scalar_row sr;
                int k0 = 0;
                while (!(masks[s] >> k0 & 1u)) k0++;
                xpbd_scalar_eval(m, d, j, &e, masks[s], &sr);
                subtract_force(r, body, sr.g, lambda[s]);
                double res = sr.C + jt->alpha[k0] * inv_h2 * lambda[s];
                c2 += res * res;
            }
        } else
            for (int k = 0; k < 6; k++)
                if (jt->rows >> k & 1u) {
                    double g[2][6];
                    memcpy(g[0], e.G[0][k], sizeof g[0]);
                    memcpy(g[1], e.G[1][k], sizeof g[1]);
                    subtract_force(r, body, g, lambda[k]);
                    double res = e.g[k] + jt->alpha[k] * inv_h2 * lambda[k];
                    c2 += res * res;
                }
        for (int s = 0; s < 3; s++) {
            double C, gl[2][6], l = d->lambda_limit[3 * j + s];
            if (!xpbd_limit_eval(jt, &e, s, &C, gl)) continue;
            subtract_force(r, body, gl, l);
            double res = l > 0 ? C : fmin(C, 0.0);
            c2 += res * res;
        }
    }
    double p2 = 0;
    for (int k = 0; k < 6 * m->nbody; k++) p2 += r[k] * r[k];
    free(r);
    *primal = sqrt(p2);
    *constraint = sqrt(c2);
}
