/* xpbd_solve.c — the XPBD constraint projections (eqs. 53–58), in the three
 * modes of xpbd.h, and the velocity-level damping solve (§4.4). */
#include "xpbd/xpbd_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

void xpbd_minv(const xpbd_model *m, int body, const double g[6], double out[6])
{
    double im = 1.0 / m->bodies[body].mass;
    for (int k = 0; k < 3; k++) out[k] = im * g[k];
    m3_mulv(m->inv_inertia + 9 * body, g + 3, out + 3);
}

void xpbd_apply(xpbd_data *d, int body, const double dx[6])
{
    double *p = d->p + 3 * body, *R = d->R + 9 * body;
    for (int k = 0; k < 3; k++) p[k] += dx[k];
    so3_plus(R, dx + 3, R); /* eq. 58 */
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

void xpbd_spd_solve(int n, double *A, double *b)
{
    /* A = L Lᵀ, L stored in the lower triangle of A. */
    for (int j = 0; j < n; j++) {
        double s = A[n * j + j];
        for (int k = 0; k < j; k++) s -= A[n * j + k] * A[n * j + k];
        double ljj = sqrt(s);
        A[n * j + j] = ljj;
        for (int i = j + 1; i < n; i++) {
            double t = A[n * i + j];
            for (int k = 0; k < j; k++) t -= A[n * i + k] * A[n * j + k];
            A[n * i + j] = t / ljj;
        }
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++) b[i] -= A[n * i + k] * b[k];
        b[i] /= A[n * i + i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++) b[i] -= A[n * k + i] * b[k];
        b[i] /= A[n * i + i];
    }
}

static double dot6(const double a[6], const double b[6])
{
    double s = 0;
    for (int k = 0; k < 6; k++) s += a[k] * b[k];
    return s;
}

/* One scalar row (eqs. 56–58): Δλ = (−C − α̃λ) / (∇C M⁻¹ ∇Cᵀ + α̃), clamped
 * to λ ≥ 0 for an inequality C ≥ 0; x ← x ⊞ M⁻¹∇Cᵀ Δλ. */
static void row_update(const xpbd_model *m, xpbd_data *d, const int body[2], const double g[2][6],
                       double C, double at, double *lambda, int inequality)
{
    double mg[2][6], w = at;
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) {
            xpbd_minv(m, body[i], g[i], mg[i]);
            w += dot6(g[i], mg[i]);
        }
    if (w <= 0) return;
    double dl = (-C - at * *lambda) / w;
    if (inequality && *lambda + dl < 0) dl = -*lambda;
    if (dl == 0) return;
    *lambda += dl;
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) {
            double dx[6];
            for (int k = 0; k < 6; k++) dx[k] = mg[i][k] * dl;
            xpbd_apply(d, body[i], dx);
        }
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
        xpbd_joint_eval(m, d, j, &e);
        memcpy(g[0], e.G[0][k], sizeof g[0]);
        memcpy(g[1], e.G[1][k], sizeof g[1]);
        row_update(m, d, body, g, e.g[k], jt->alpha[k] * inv_h2, d->lambda + 6 * j + k, 0);
    }
}

/* (b) [∇C M⁻¹ ∇Cᵀ + α̃] Δλ = −C − α̃λ over the joint's rows (§8.1). */
static void solve_block(const xpbd_model *m, xpbd_data *d, int j, double inv_h2)
{
    const xpbd_joint *jt = &m->joints[j];
    const int body[2] = { jt->body1, jt->body2 };
    int idx[6], n = active_rows(jt->rows, idx);
    double A[36] = { 0 }, b[6], mg[2][6][6];
    double *lambda = d->lambda + 6 * j;
    xpbd_jeval e;
    xpbd_joint_eval(m, d, j, &e);
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0)
            for (int a = 0; a < n; a++) xpbd_minv(m, body[i], e.G[i][idx[a]], mg[i][a]);
    for (int a = 0; a < n; a++) {
        double at = jt->alpha[idx[a]] * inv_h2;
        for (int c = 0; c <= a; c++) {
            double s = 0;
            for (int i = 0; i < 2; i++)
                if (body[i] >= 0) s += dot6(e.G[i][idx[a]], mg[i][c]);
            A[n * a + c] = A[n * c + a] = s;
        }
        A[n * a + a] += at;
        b[a] = -e.g[idx[a]] - at * lambda[idx[a]];
    }
    xpbd_spd_solve(n, A, b);
    for (int a = 0; a < n; a++) lambda[idx[a]] += b[a];
    for (int i = 0; i < 2; i++)
        if (body[i] >= 0) {
            double dx[6] = { 0 };
            for (int a = 0; a < n; a++)
                for (int k = 0; k < 6; k++) dx[k] += mg[i][a][k] * b[a];
            xpbd_apply(d, body[i], dx);
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
        for (int s = 0; s < 3; s++) {
            xpbd_jeval e;
            double C, gl[2][6];
            const int body[2] = { jt->body1, jt->body2 };
            if (!(s == 0 ? jt->has_lower : s == 1 ? jt->has_upper : jt->has_swing)) continue;
            xpbd_joint_eval(m, d, j, &e);
            xpbd_limit_eval(jt, &e, s, &C, gl);
            row_update(m, d, body, gl, C, 0.0, d->lambda_limit + 3 * j + s, 1);
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

static void apply_velocity(const xpbd_model *m, xpbd_data *d, int b, const double g[6], double mu)
{
    double mg[6];
    xpbd_minv(m, b, g, mg);
    for (int k = 0; k < 3; k++) {
        d->v[3 * b + k] += mg[k] * mu;
        d->w[3 * b + k] += mg[3 + k] * mu;
    }
}

/* U_d = ½ Ċᵀ β Ċ (§4.4) taken implicitly over the substep:
 * [∇C M⁻¹ ∇Cᵀ + (hβ)⁻¹] μ = −∇C v, v ← v + M⁻¹∇Cᵀ μ.  Block mode solves the
 * damped rows of a joint together; the other modes row by row. */
void xpbd_solve_damping(const xpbd_model *m, xpbd_data *d, double h)
{
    for (int j = 0; j < m->njoint; j++) {
        const xpbd_joint *jt = &m->joints[j];
        const int body[2] = { jt->body1, jt->body2 };
        int idx[6], n = 0;
        for (int k = 0; k < 6; k++)
            if (jt->damping[k] > 0) idx[n++] = k;
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
                A[n * a + a] += 1.0 / (h * jt->damping[idx[a]]);
                b[a] = -row_rate(d, body, g[a]);
            }
            xpbd_spd_solve(n, A, b);
        }
        for (int a = 0; a < n; a++) {
            if (d->mode != XPBD_VECTOR_BLOCK) {
                double w = 1.0 / (h * jt->damping[idx[a]]);
                for (int i = 0; i < 2; i++)
                    if (body[i] >= 0) {
                        double mg[6];
                        xpbd_minv(m, body[i], g[a][i], mg);
                        w += dot6(g[a][i], mg);
                    }
                b[a] = -row_rate(d, body, g[a]) / w;
            }
            for (int i = 0; i < 2; i++)
                if (body[i] >= 0) apply_velocity(m, d, body[i], g[a][i], b[a]);
        }
    }
}
