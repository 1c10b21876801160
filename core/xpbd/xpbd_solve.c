/* xpbd_solve.c — the XPBD constraint projections (eqs. 53–58), in the three
 * modes of xpbd.h, and the velocity-level damping solve (§4.4). */
#include "xpbd/xpbd_internal.h"

#include "spatial/linalg.h"
#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

/* M_i⁻¹ g: linear rows / m, rotational rows J⁻¹ (body frame). */
static inline void minv_inline(const xpbd_model *m, int body, const double g[6], double out[6])
{
    double im = 1.0 / m->bodies[body].mass;
    for (int k = 0; k < 3; k++) out[k] = im * g[k];
    m3_mulv(m->inv_inertia + 9 * body, g + 3, out + 3);
}

void xpbd_minv(const xpbd_model *m, int body, const double g[6], double out[6]) { minv_inline(m, body, g, out); }

void xpbd_apply(xpbd_data *d, int body, const double dx[6])
{
    double *p = d->p + 3 * body, *R = d->R + 9 * body;
    p[0] += dx[0];
    p[1] += dx[1];
    p[2] += dx[2];
    so3_plus_inplace(R, dx + 3); /* eq. 58 */
}

void xpbd_muller_rotate(double R[9], const double phi[3])
{
    double n = v3_norm(phi), th[3];
    if (n == 0) return;
    double k = 2.0 * atan(0.5 * n) / n;
    double phi2[3] = { k * phi[0], k * phi[1], k * phi[2] };
    m3_tmulv(R, phi2, th);
    so3_plus(R, th, R);
}

static inline double dot6(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}
static inline double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

double xpbd_row_weight(const xpbd_model *m, const int body[2], const double g[2][6], double mg[2][6], double w)
{
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) {
            minv_inline(m, body[i], g[i], mg[i]);
            w += dot6(g[i], mg[i]);
        }
    return w;
}

void xpbd_row_apply(xpbd_data *d, const int body[2], const double mg[2][6], double dl)
{
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) {
            double dx[6];
            for (int k = 0; k < 6; k++) dx[k] = mg[i][k] * dl;
            xpbd_apply(d, body[i], dx);
        }
}

/* One scalar row (eqs. 56–58): Δλ = (−C − α̃λ) / (∇C M⁻¹ ∇Cᵀ + α̃), clamped
 * to λ ≥ 0 for an inequality C ≥ 0; x ← x ⊞ M⁻¹∇Cᵀ Δλ. */
void xpbd_row_update(const xpbd_model *m, xpbd_data *d, const int body[2], const double g[2][6], double C, double at,
                     double *lambda, int inequality)
{
    double mg[2][6], w = xpbd_row_weight(m, body, g, mg, at);
    if (w <= 0) return;
    double dl = (-C - at * *lambda) / w;
    if (inequality && *lambda + dl < 0) dl = -*lambda;
    if (dl == 0) return;
    *lambda += dl;
    xpbd_row_apply(d, body, mg, dl);
}

static int active_rows(unsigned mask, int idx[6])
{
    int n = 0;
    for (int k = 0; k < 6; k++)
        if (mask >> k & 1u) idx[n++] = k;
    return n;
}

/* (a) every row of the vector constraint alone, the joint re-evaluated per row. */
static void solve_rows(const xpbd_model *m, xpbd_data *d, int j, double inv_h2)
{
    const xpbd_joint *jt = &m->joints[j];
    const int body[2] = { jt->body1, jt->body2 };
    int idx[6], n = active_rows(jt->rows, idx);
    for (int a = 0; a < n; a++) {
        int k = idx[a];
        xpbd_jeval e;
        double g[2][6];
        xpbd_joint_eval_rows(m, d, j, &e, k < 3 ? 7u : 0x38u); /* only this row's group */
        for (int i = 0; i < 2; i++)
            if (body[i] >= 0) memcpy(g[i], e.G[i][k], sizeof g[i]); /* a ground side is never read */
        xpbd_row_update(m, d, body, g, e.g[k], jt->alpha[k] * inv_h2, d->lambda + 6 * j + k, 0);
    }
}

/* (b) [∇C M⁻¹ ∇Cᵀ + α̃] Δλ = −C − α̃λ over the joint's rows (§8.1).
 * Structure used: a rotational row (k ≥ 3) has no linear part, and the linear
 * parts of the positional rows of every joint are the rows of ±I or ±R̄1ᵀ, an
 * orthonormal set, so their block of ∇C M⁻¹ ∇Cᵀ is (Σ 1/m_i) I; only the
 * rotational parts W_i (body frame) need products, W_i J_i⁻¹ W_iᵀ. */
static void solve_block(const xpbd_model *m, xpbd_data *d, int j, double inv_h2)
{
    const xpbd_joint *jt = &m->joints[j];
    int idx[6], n = active_rows(jt->rows, idx);
    int nb = 0, bl[2], side[2];
    if (jt->body1 >= 0) bl[nb] = jt->body1, side[nb++] = 0;
    if (jt->body2 >= 0) bl[nb] = jt->body2, side[nb++] = 1;
    double A[36], b[6], K[2][6][3], im[2], imsum = 0;
    const double *W[2][6];
    double *lambda = d->lambda + 6 * j;
    xpbd_jeval e;
    xpbd_joint_eval_rows(m, d, j, &e, jt->rows);
    for (int i = 0; i < nb; i++) {
        im[i] = 1.0 / m->bodies[bl[i]].mass;
        imsum += im[i];
        const double *Ji = m->inv_inertia + 9 * bl[i];
        for (int a = 0; a < n; a++) {
            W[i][a] = e.G[side[i]][idx[a]] + 3;
            m3_mulv(Ji, W[i][a], K[i][a]);
        }
    }
    for (int a = 0; a < n; a++) {
        for (int c = 0; c <= a; c++) {
            double s = dot3(W[0][a], K[0][c]);
            if (nb > 1) s += dot3(W[1][a], K[1][c]);
            A[n * a + c] = A[n * c + a] = s;
        }
        double at = jt->alpha[idx[a]] * inv_h2;
        A[n * a + a] += at + (idx[a] < 3 ? imsum : 0.0);
        b[a] = -e.g[idx[a]] - at * lambda[idx[a]];
    }
    spd_solve(n, A, b);
    for (int a = 0; a < n; a++) lambda[idx[a]] += b[a];
    /* Δx_i = M_i⁻¹ G_iᵀ Δλ: linear part from the positional rows, angular K Δλ. */
    for (int i = 0; i < nb; i++) {
        double dx[6] = { 0, 0, 0, 0, 0, 0 };
        for (int a = 0; a < n; a++) {
            double ba = b[a];
            if (idx[a] < 3) {
                const double *g = W[i][a] - 3;
                dx[0] += g[0] * ba;
                dx[1] += g[1] * ba;
                dx[2] += g[2] * ba;
            }
            dx[3] += K[i][a][0] * ba;
            dx[4] += K[i][a][1] * ba;
            dx[5] += K[i][a][2] * ba;
        }
        dx[0] *= im[i];
        dx[1] *= im[i];
        dx[2] *= im[i];
        xpbd_apply(d, bl[i], dx);
    }
}

/* World inverse inertia times a world vector: R J⁻¹ Rᵀ x. */
static void inv_inertia_world(const xpbd_model *m, const xpbd_data *d, int b, const double x[3], double out[3])
{
    double t[3], u[3];
    m3_tmulv(d->R + 9 * b, x, t);
    m3_mulv(m->inv_inertia + 9 * b, t, u);
    m3_mulv(d->R + 9 * b, u, out);
}

/* (c) Müller et al. 2020: each group of rows is one normed constraint
 * C = |c|, corrected along the world direction n = c/|c| with the generalized
 * inverse masses w = 1/m + (r×n)ᵀI⁻¹(r×n) (positions) or nᵀI⁻¹n (rotations)
 * and the quaternion update q ← q + ½(0, I⁻¹(r×p)) ⊗ q. */
static void solve_scalar(const xpbd_model *m, xpbd_data *d, int j, double inv_h2)
{
    const xpbd_joint *jt = &m->joints[j];
    const int body[2] = { jt->body1, jt->body2 };
    unsigned masks[6];
    int ng = xpbd_scalar_groups(jt, masks);
    for (int s = 0; s < ng; s++) {
        xpbd_jeval e;
        xpbd_scalar_row sr;
        xpbd_joint_eval(m, d, j, &e);
        xpbd_scalar_eval(m, d, j, &e, masks[s], &sr);
        int rot = sr.rot;
        double C = sr.C;
        if (C == 0) continue;
        double n[3] = { sr.c[0] / C, sr.c[1] / C, sr.c[2] / C }, w = 0, dir[2][3], Iinv[2][3];
        for (int i = 0; i < 2; i++) {
            if (body[i] < 0) continue;
            if (rot) memcpy(dir[i], n, sizeof n);
            else {
                double arm[3];
                m3_mulv(d->R + 9 * body[i], i ? jt->r2 : jt->r1, arm);
                v3_cross(arm, n, dir[i]);
                w += 1.0 / m->bodies[body[i]].mass;
            }
            inv_inertia_world(m, d, body[i], dir[i], Iinv[i]);
            w += v3_dot(dir[i], Iinv[i]);
        }
        int k0 = 0;
        while (!(masks[s] >> k0 & 1u)) k0++;
        double at = jt->alpha[k0] * inv_h2, *lambda = d->lambda + 6 * j + s;
        double dl = (-C - at * *lambda) / (w + at);
        *lambda += dl;
        for (int i = 0; i < 2; i++) {
            if (body[i] < 0) continue;
            double sgn = i == 0 ? dl : -dl, phi[3];
            if (!rot)
                for (int k = 0; k < 3; k++) d->p[3 * body[i] + k] += sgn * n[k] / m->bodies[body[i]].mass;
            for (int k = 0; k < 3; k++) phi[k] = sgn * Iinv[i][k];
            xpbd_muller_rotate(d->R + 9 * body[i], phi);
        }
    }
}

void xpbd_solve_positions(const xpbd_model *m, xpbd_data *d, double h)
{
    double inv_h2 = 1.0 / (h * h); /* α̃ = α / h² (XPBD, Macklin et al. 2016) */
    for (int j = 0; j < m->njoint; j++) {
        const xpbd_joint *jt = &m->joints[j];
        switch (d->mode) {
        case XPBD_VECTOR_ROWS: solve_rows(m, d, j, inv_h2); break;
        case XPBD_VECTOR_BLOCK: solve_block(m, d, j, inv_h2); break;
        case XPBD_SCALAR: solve_scalar(m, d, j, inv_h2); break;
        }
        if (!(jt->has_lower | jt->has_upper | jt->has_swing)) continue;
        for (int s = 0; s < 3; s++) {
            xpbd_jeval e;
            double C, gl[2][6];
            const int body[2] = { jt->body1, jt->body2 };
            if (!(s == 0 ? jt->has_lower : s == 1 ? jt->has_upper : jt->has_swing)) continue;
            xpbd_joint_eval(m, d, j, &e);
            xpbd_limit_eval(jt, &e, s, &C, gl);
            xpbd_row_update(m, d, body, gl, C, 0.0, d->lambda_limit + 3 * j + s, 1);
        }
    }
}

/* Ċ = ∇C v for the generalized velocity [v; ω] of each side. */
static double row_rate(const xpbd_data *d, const int body[2], const double g[2][6])
{
    double r = 0;
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) r += v3_dot(g[i], d->v + 3 * body[i]) + v3_dot(g[i] + 3, d->w + 3 * body[i]);
    return r;
}

void xpbd_apply_velocity(const xpbd_model *m, xpbd_data *d, int b, const double g[6], double mu)
{
    double mg[6];
    xpbd_minv(m, b, g, mg);
    for (int k = 0; k < 3; k++) {
        d->v[3 * b + k] += mg[k] * mu;
        d->w[3 * b + k] += mg[3 + k] * mu;
    }
}

/* U_d = ½ Ċᵀ β Ċ (§4.4) taken implicitly over the substep:
 * [∇C M⁻¹ ∇Cᵀ + (hβ)⁻¹] μ = −∇C v, v ← v + M⁻¹∇Cᵀ μ, β the joint's
 * plus the data's (xpbd_data.damping).  Block mode solves the
 * damped rows of a joint together; the other modes row by row. */
void xpbd_solve_damping(const xpbd_model *m, xpbd_data *d, double h)
{
    for (int j = 0; j < m->njoint; j++) {
        const xpbd_joint *jt = &m->joints[j];
        const int body[2] = { jt->body1, jt->body2 };
        int idx[6], n = 0;
        double beta[6];
        for (int k = 0; k < 6; k++) {
            beta[k] = jt->damping[k] + (d->damping ? d->damping[6 * j + k] : 0.0);
            if (beta[k] > 0) idx[n++] = k;
        }
        if (n == 0) continue;
        xpbd_jeval e;
        xpbd_joint_eval(m, d, j, &e);
        double A[36] = { 0 }, b[6], g[6][2][6];
        for (int a = 0; a < n; a++)
            for (int i = 0; i < 2; i++) memcpy(g[a][i], e.G[i][idx[a]], sizeof g[a][i]);
        if (d->mode == XPBD_VECTOR_BLOCK) {
            for (int a = 0; a < n; a++) {
                for (int c = 0; c < n; c++)
                    for (int i = 0; i < 2; i++)
                        if (body[i] >= 0) {
                            double mg[6];
                            xpbd_minv(m, body[i], g[c][i], mg);
                            A[n * a + c] += dot6(g[a][i], mg);
                        }
                A[n * a + a] += 1.0 / (h * beta[idx[a]]);
                b[a] = -row_rate(d, body, g[a]);
            }
            spd_solve(n, A, b);
        }
        for (int a = 0; a < n; a++) {
            if (d->mode != XPBD_VECTOR_BLOCK) {
                double w = 1.0 / (h * beta[idx[a]]);
                for (int i = 0; i < 2; i++)
                    if (body[i] >= 0) {
                        double mg[6];
                        xpbd_minv(m, body[i], g[a][i], mg);
                        w += dot6(g[a][i], mg);
                    }
                b[a] = -row_rate(d, body, g[a]) / w;
            }
            for (int i = 0; i < 2; i++)
                if (body[i] >= 0) xpbd_apply_velocity(m, d, body[i], g[a][i], b[a]);
        }
    }
}
