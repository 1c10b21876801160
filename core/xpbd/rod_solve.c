/* rod_solve.c — the XPBD step of a rod (§4.2): inertial prediction with ⊞,
 * substeps, constraint projection by one block-banded direct solve of all
 * elastic constraints and clamps (§8.2) or by Gauss–Seidel over the
 * individual vector constraints (§8.1), velocities from ⊟, and the
 * velocity-level damping solve (§4.4) with the same structure. */
#include "xpbd/rod_internal.h"
#include "xpbd/xpbd_internal.h"

#include "spatial/linalg.h"
#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* out = M_j⁻¹ g for a gradient row g = [∂/∂p; D_R] of node j. */
static void minv(const xpbd_rod *rod, int j, const double g[6], double out[6])
{
    for (int k = 0; k < 3; k++) {
        out[k] = g[k] / rod->mass[j];
        out[3 + k] = g[3 + k] / rod->inertia[3 * j + k];
    }
}

/* W_c,k = G_c,k M_j⁻¹ of node j = node0 + k of block b: the gradient weighted
 * by the inverse mass, once per block rather than once per pair it enters;
 * by columns, as pairs of rows: W[k][q][p] holds rows 2p, 2p + 1 of column q. */
static void weigh(const xpbd_rod *rod, const rod_block *b, rod_v2 W[4][6][3])
{
    for (int k = 0; k < b->nn; k++) {
        const double *im = rod->inv_mass + 6 * (b->node0 + k);
        for (int q = 0; q < 6; q++)
            for (int p = 0; p < 3; p++) W[k][q][p] = (rod_v2){ b->G[k][2 * p][q], b->G[k][2 * p + 1][q] } * im[q];
    }
}

/* Column b of A_cd = Σ_j W_c,j G_d,jᵀ over the n nodes j the two blocks
 * share (W, G from the first of them on), as pairs of rows: s[p] holds
 * A_cd(a, b), a = 2p, 2p + 1.  Each product sums its position terms
 * (columns 0–2) first, then adds the rotation terms one by one.  Where row a
 * of W or row b of G is one of 3–5, which have no position columns (exact
 * zeros), the sum starts from −0 instead, which leaves the sum of the
 * rotation terms as it is (−0 + x = x).  The short loops are unrolled:
 * gcc -O2 would keep them, and their vectors, in memory. */
static void coupling(const rod_v2 (*W)[6][3], const double (*G)[6][6], int n, int b, rod_v2 s[3])
{
    for (int p = 0; p < 3; p++) s[p] = (rod_v2){ 0, 0 };
    for (int j = 0; j < n; j++) {
        rod_v2 g[6], t[3] = { { -0.0, -0.0 }, { -0.0, -0.0 }, { -0.0, -0.0 } };
#pragma GCC unroll 6
        for (int q = 0; q < 6; q++) g[q] = (rod_v2){ G[j][b][q], G[j][b][q] };
        if (b < 3) {
#pragma GCC unroll 2
            for (int p = 0; p < 2; p++) t[p] = (W[j][0][p] * g[0] + W[j][1][p] * g[1]) + W[j][2][p] * g[2];
            t[1][1] = -0.0; /* row 3 */
        }
#pragma GCC unroll 3
        for (int p = 0; p < 3; p++) s[p] += ((t[p] + W[j][3][p] * g[3]) + W[j][4][p] * g[4]) + W[j][5][p] * g[5];
    }
}

/* The diagonal block A_cc of block b, both halves, with the term of its
 * body (a body enters only its own clamp's block). */
static void block_matrix(const xpbd_rod *rod, const rod_block *b, const rod_v2 W[4][6][3], double A[6][6])
{
    for (int k = 0; k < 6; k++) {
        rod_v2 s[3];
        coupling(W, b->G, b->nn, k, s);
        for (int a = 0; a < 6; a++) A[a][k] = s[a / 2][a % 2];
    }
    if (b->body < 0) return;
    for (int a = 0; a < 6; a++) {
        double mg[6];
        xpbd_minv(rod->world, b->body, b->Gb[a], mg);
        for (int k = 0; k < 6; k++)
            for (int q = 0; q < 6; q++) A[k][a] += b->Gb[k][q] * mg[q];
    }
}

/* M_b⁻¹ Gbᵀ μ for a body-clamp block. */
static void body_correction(const xpbd_rod *rod, const rod_block *b, const double mu[6], double out[6])
{
    double g[6] = { 0 };
    for (int a = 0; a < 6; a++)
        for (int q = 0; q < 6; q++) g[q] += b->Gb[a][q] * mu[a];
    xpbd_minv(rod->world, b->body, g, out);
}

/* Block (c, d), d ≥ c, of ∇C M⁻¹ ∇Cᵀ into the band's lower half (zero
 * before): A_cd(a, b) at row 6d + b, column 6c + a, b ≥ a when d = c.  Blocks
 * that share no node stay zero. */
static void band_block(xpbd_rod *rod, int kd, int c, const rod_v2 W[4][6][3], int d)
{
    const rod_block *bc = &rod->blocks[c], *bd = &rod->blocks[d];
    int j0 = bc->node0 > bd->node0 ? bc->node0 : bd->node0;
    int j1 = bc->node0 + bc->nn < bd->node0 + bd->nn ? bc->node0 + bc->nn : bd->node0 + bd->nn;
    double A[6][6];
    if (j0 >= j1) return;
    if (c == d) block_matrix(rod, bc, W, A);
    for (int b = 0; b < 6; b++) {
        double *row = rod->band + (size_t)(6 * d + b + 1) * kd + 6 * c;
        if (c == d)
            for (int a = 0; a <= b; a++) row[a] = A[a][b];
        else {
            rod_v2 s[3];
            coupling(W + (j0 - bc->node0), bd->G + (j0 - bd->node0), j1 - j0, b, s);
            memcpy(row, s, sizeof s);
        }
    }
}

/* Assemble every block into the band: A = ∇C M⁻¹ ∇Cᵀ + diag(diag). */
static void assemble(xpbd_rod *rod, const double *diag)
{
    int kd = rod_kd(rod), n = 6 * rod->ncon;
    memset(rod->band, 0, (size_t)n * (kd + 1) * sizeof(double));
    for (int c = 0; c < rod->ncon; c++) {
        rod_v2 W[4][6][3];
        weigh(rod, &rod->blocks[c], W);
        for (int d = c; d < rod->ncon && d <= c + rod->bandwidth; d++) band_block(rod, kd, c, W, d);
    }
    for (int i = 0; i < n; i++) rod->band[(size_t)(i + 1) * kd + i] += diag[i];
}

/* dx_j = M_j⁻¹ Σ_c G_c,jᵀ μ_c over the blocks c0..c1−1. */
static void scatter(xpbd_rod *rod, int c0, int c1, const double *mu)
{
    memset(rod->dx, 0, 6 * (size_t)rod->nnode * sizeof(double));
    for (int c = c0; c < c1; c++) {
        const rod_block *b = &rod->blocks[c];
        for (int k = 0; k < b->nn; k++) {
            double g[6] = { 0 }, mg[6];
            for (int a = 0; a < 6; a++)
                for (int q = 0; q < 6; q++) g[q] += b->G[k][a][q] * mu[6 * (c - c0) + a];
            minv(rod, b->node0 + k, g, mg);
            for (int q = 0; q < 6; q++) rod->dx[6 * (b->node0 + k) + q] += mg[q];
        }
    }
}

static void apply_node(xpbd_rod *rod, int j, const double dx[6])
{
    for (int k = 0; k < 3; k++) rod->p[3 * j + k] += dx[k];
    so3_plus(rod->R + 9 * j, dx + 3, rod->R + 9 * j); /* eq. 58 */
}

/* Diagonal term of row k of end e's block: 0 (rigid) for a constraining
 * row, 1 for an inert row of a pin (G = 0, C = 0, so Δλ = 0). */
static double end_diag(const xpbd_rod *rod, int e, int k) { return k < rod_end_rows(rod, e) ? 0 : 1; }

/* α̃ of block c's rows (eq. 57; clamps and pins are rigid). */
static void block_alpha(const xpbd_rod *rod, int c, double inv_h2, double at[6])
{
    int g = c - rod_first_gauss(rod), e = rod_block_end(rod, c);
    for (int k = 0; k < 6; k++) at[k] = e >= 0 ? end_diag(rod, e, k) : rod->alpha[6 * g + k] * inv_h2;
}

/* §8.2: [∇C M⁻¹ ∇Cᵀ + α̃] Δλ = −C − α̃λ over every block at once. */
static void iterate_banded(xpbd_rod *rod, double inv_h2)
{
    int nc = rod->ncon, kd = rod_kd(rod);
    rod_element_frames f = { .e = -1 };
    for (int c = 0; c < nc; c++) rod_block_eval_shared(rod, c, &rod->blocks[c], &f);
    double *at = rod->diag;
    for (int c = 0; c < nc; c++) {
        block_alpha(rod, c, inv_h2, at + 6 * c);
        for (int k = 0; k < 6; k++) rod->rhs[6 * c + k] = -rod->blocks[c].C[k] - at[6 * c + k] * rod->lambda[6 * c + k];
    }
    assemble(rod, at);
    if (rod_band_cholesky(6 * nc, kd, rod->band)) return;
    rod_band_solve(6 * nc, kd, rod->band, rod->rhs);
    for (int i = 0; i < 6 * nc; i++) rod->lambda[i] += rod->rhs[i];
    scatter(rod, 0, nc, rod->rhs);
    for (int j = 0; j < rod->nnode; j++) apply_node(rod, j, rod->dx + 6 * j);
    for (int c = 0; c < nc; c++)
        if (rod->blocks[c].body >= 0) {
            double dxb[6];
            body_correction(rod, &rod->blocks[c], rod->rhs + 6 * c, dxb);
            xpbd_apply(rod->world_data, rod->blocks[c].body, dxb);
        }
}

/* §8.1 applied to each vector constraint alone, swept along the rod. */
static void iterate_gauss_seidel(xpbd_rod *rod, double inv_h2)
{
    for (int c = 0; c < rod->ncon; c++) {
        rod_block *b = &rod->blocks[c];
        rod_v2 W[4][6][3];
        double A[6][6], at[6], rhs[6];
        rod_block_eval(rod, c, b);
        weigh(rod, b, W);
        block_matrix(rod, b, W, A);
        block_alpha(rod, c, inv_h2, at);
        for (int k = 0; k < 6; k++) {
            A[k][k] += at[k];
            rhs[k] = -b->C[k] - at[k] * rod->lambda[6 * c + k];
        }
        spd_solve(6, &A[0][0], rhs);
        for (int k = 0; k < 6; k++) rod->lambda[6 * c + k] += rhs[k];
        for (int k = 0; k < b->nn; k++) {
            double g[6] = { 0 }, mg[6];
            for (int a = 0; a < 6; a++)
                for (int q = 0; q < 6; q++) g[q] += b->G[k][a][q] * rhs[a];
            minv(rod, b->node0 + k, g, mg);
            apply_node(rod, b->node0 + k, mg);
        }
        if (b->body >= 0) {
            double dxb[6];
            body_correction(rod, b, rhs, dxb);
            xpbd_apply(rod->world_data, b->body, dxb);
        }
    }
}

/* The velocity form of clamp e: [v; ω] of the node equals the target's
 * (ground or prescribed motion), or the body's at the attachment point:
 * v − v_b − R_b(ω_b × r) = 0, ω − RᵀR_b ω_b = 0, so Gb = [−I, R_b r^; 0, −RᵀR_b].
 * A pin has the first three rows only (rows 3–5 stay zero). */
static void velocity_clamp(const xpbd_rod *rod, int e, rod_block *b, double target[6])
{
    int rows = rod_end_rows(rod, e);
    memset(b, 0, sizeof *b);
    memset(target, 0, 6 * sizeof(double));
    b->node0 = e ? rod->nnode - 1 : 0;
    b->nn = 1;
    b->body = rod->desc.end[e].on_body && rod->world_data ? rod->desc.end[e].body : -1;
    for (int k = 0; k < rows; k++) b->G[0][k][k] = 1;
    if (b->body < 0) {
        rod_clamp_rate(rod, e, rod->t, target, target + 3); /* a pin has no twist: ω_t = 0 */
        return;
    }
    const double *Rb = rod->world_data->R + 9 * b->body, *R = rod->R + 9 * b->node0;
    double S[9], RS[9], RtRb[9];
    m3_skew(rod->attach_r[e], S);
    m3_mul(Rb, S, RS);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double t = 0;
            for (int q = 0; q < 3; q++) t += R[3 * q + i] * Rb[3 * q + k];
            RtRb[3 * i + k] = t;
        }
    for (int i = 0; i < 3; i++) {
        b->Gb[i][i] = -1;
        for (int k = 0; k < 3; k++) {
            b->Gb[i][3 + k] = RS[3 * i + k];
            b->Gb[3 + i][3 + k] = rows == 6 ? -RtRb[3 * i + k] : 0;
        }
    }
}

/* v ← v + dx for nodes j0..j1−1 (dx from scatter). */
static void add_node_velocity(xpbd_rod *rod, int j0, int j1)
{
    for (int j = j0; j < j1; j++)
        for (int q = 0; q < 3; q++) {
            rod->v[3 * j + q] += rod->dx[6 * j + q];
            rod->w[3 * j + q] += rod->dx[6 * j + 3 + q];
        }
}

/* [v_b; ω_b] += M_b⁻¹ Gbᵀ μ for a clamp on a world body. */
static void add_body_velocity(xpbd_rod *rod, const rod_block *b, const double mu[6])
{
    if (b->body < 0) return;
    double dv[6];
    body_correction(rod, b, mu, dv);
    for (int q = 0; q < 3; q++) {
        rod->world_data->v[3 * b->body + q] += dv[q];
        rod->world_data->w[3 * b->body + q] += dv[3 + q];
    }
}

/* §4.4 on the elastic rows, U_d = ½ Ċᵀ β Ċ taken implicitly over the substep:
 * [∇C M⁻¹ ∇Cᵀ + (hβ)⁻¹] μ = −Ċ, v ← v + M⁻¹ ∇Cᵀ μ.  A clamp enters as a
 * rigid velocity constraint (velocity_clamp) — without it the solve would
 * hand the damped momentum to a rigid motion of the whole rod.  Banded: all
 * blocks at once; Gauss–Seidel: block by block. */
static void damp(xpbd_rod *rod, double h)
{
    int nc = rod->ncon, kd = rod_kd(rod), banded = rod->desc.solver == XPBD_ROD_BANDED;
    double *diag = rod->diag;
    rod_element_frames f = { .e = -1 }; /* the positions stay: the blocks of an element share its frames */
    for (int c = 0; c < nc; c++) {
        rod_block *b = &rod->blocks[c];
        int e = rod_block_end(rod, c), g = c - rod_first_gauss(rod);
        double target[6] = { 0 };
        if (e >= 0) velocity_clamp(rod, e, b, target);
        else rod_block_eval_shared(rod, c, b, &f);
        for (int a = 0; a < 6; a++) {
            double r = -target[a];
            for (int k = 0; k < b->nn; k++) {
                int j = b->node0 + k;
                r += v3_dot(b->G[k][a], rod->v + 3 * j) + v3_dot(b->G[k][a] + 3, rod->w + 3 * j);
            }
            if (b->body >= 0)
                r += v3_dot(b->Gb[a], rod->world_data->v + 3 * b->body) +
                     v3_dot(b->Gb[a] + 3, rod->world_data->w + 3 * b->body);
            rod->rhs[6 * c + a] = -r;
            diag[6 * c + a] = e >= 0 ? end_diag(rod, e, a) : 1.0 / (h * rod->beta[6 * g + a]);
        }
        if (banded) continue;
        rod_v2 W[4][6][3];
        double A[6][6];
        weigh(rod, b, W);
        block_matrix(rod, b, W, A);
        for (int a = 0; a < 6; a++) A[a][a] += diag[6 * c + a];
        spd_solve(6, &A[0][0], rod->rhs + 6 * c);
        scatter(rod, c, c + 1, rod->rhs + 6 * c);
        add_node_velocity(rod, b->node0, b->node0 + b->nn);
        add_body_velocity(rod, b, rod->rhs + 6 * c);
    }
    if (!banded) return;
    assemble(rod, diag);
    if (rod_band_cholesky(6 * nc, kd, rod->band)) return;
    rod_band_solve(6 * nc, kd, rod->band, rod->rhs);
    scatter(rod, 0, nc, rod->rhs);
    add_node_velocity(rod, 0, rod->nnode);
    for (int c = 0; c < nc; c++) add_body_velocity(rod, &rod->blocks[c], rod->rhs + 6 * c);
}

/* Inertial prediction (eqs. 46–48) per node, as for an XPBD body. */
static void predict(xpbd_rod *rod, double h, const double g[3])
{
    for (int j = 0; j < rod->nnode; j++) {
        double *p = rod->p + 3 * j, *R = rod->R + 9 * j, *v = rod->v + 3 * j, *w = rod->w + 3 * j;
        const double *tau = rod->fext + 6 * j, *f = tau + 3, *J = rod->inertia + 3 * j;
        double Jw[3] = { J[0] * w[0], J[1] * w[1], J[2] * w[2] }, gyro[3], tb[3], hw[3];
        memcpy(rod->p_prev + 3 * j, p, 3 * sizeof(double));
        memcpy(rod->R_prev + 9 * j, R, 9 * sizeof(double));
        for (int k = 0; k < 3; k++) {
            v[k] += h * (g[k] + f[k] / rod->mass[j]);
            p[k] += h * v[k];
        }
        v3_cross(w, Jw, gyro);
        m3_tmulv(R, tau, tb);
        for (int k = 0; k < 3; k++) {
            w[k] += h * (tb[k] - gyro[k]) / J[k];
            hw[k] = h * w[k];
        }
        so3_plus(R, hw, R);
    }
}

void xpbd_rod_substep_begin(xpbd_rod *rod, double h, const double gravity[3])
{
    predict(rod, h, gravity);
    rod->t += h; /* clamp targets at the end of the substep */
    memset(rod->lambda, 0, 6 * (size_t)rod->ncon * sizeof(double));
}

void xpbd_rod_iterate(xpbd_rod *rod, double h)
{
    if (rod->desc.solver == XPBD_ROD_BANDED) iterate_banded(rod, 1.0 / (h * h));
    else iterate_gauss_seidel(rod, 1.0 / (h * h));
}

/* v = Δp/h, ω = (R⁺ ⊟ R)/h (§4.2); returns the largest |Δp|. */
static double update_velocities(xpbd_rod *rod, double h)
{
    double moved = 0;
    for (int j = 0; j < rod->nnode; j++) {
        double th[3], dp[3];
        for (int k = 0; k < 3; k++) {
            dp[k] = rod->p[3 * j + k] - rod->p_prev[3 * j + k];
            rod->v[3 * j + k] = dp[k] / h;
        }
        so3_minus(rod->R + 9 * j, rod->R_prev + 9 * j, th);
        for (int k = 0; k < 3; k++) rod->w[3 * j + k] = th[k] / h;
        moved = fmax(moved, v3_norm(dp));
    }
    return moved;
}

void xpbd_rod_substep_end(xpbd_rod *rod, double h)
{
    update_velocities(rod, h);
    if (rod->desc.damping > 0) damp(rod, h);
}

/* A substep of a rod on its own; returns the largest node displacement. */
static double substep(xpbd_rod *rod, double h)
{
    xpbd_rod_substep_begin(rod, h, rod->desc.gravity);
    for (int it = 0; it < rod->desc.iterations; it++) xpbd_rod_iterate(rod, h);
    double moved = update_velocities(rod, h);
    if (rod->desc.damping > 0) damp(rod, h);
    return moved;
}

void xpbd_rod_step(xpbd_rod *rod)
{
    double h = rod->desc.dt / rod->desc.substeps;
    for (int s = 0; s < rod->desc.substeps; s++) substep(rod, h);
}

int xpbd_rod_attach(xpbd_rod *rod, const xpbd_model *m, xpbd_data *d, char *err, int errlen)
{
    const xpbd_rod_end *e0 = &rod->desc.end[0], *e1 = &rod->desc.end[1];
    if (e0->hold && e1->hold && e0->on_body && e1->on_body && e0->body == e1->body) {
        snprintf(err, (size_t)errlen, "rod: both ends on body %d would couple the ends outside the band", e0->body);
        return -1;
    }
    for (int e = 0; e < 2; e++) {
        const xpbd_rod_end *end = &rod->desc.end[e];
        if (!end->hold || !end->on_body) continue;
        if (end->body < 0 || end->body >= m->nbody) {
            snprintf(err, (size_t)errlen, "rod: end %d on body %d of %d", e, end->body, m->nbody);
            return -1;
        }
        /* r = R_bᵀ(p_end − p_b), R_J = R_bᵀ R_end at the current poses. */
        int node = e ? rod->nnode - 1 : 0;
        const double *pb = d->p + 3 * end->body, *Rb = d->R + 9 * end->body;
        double dp[3];
        for (int k = 0; k < 3; k++) dp[k] = rod->p[3 * node + k] - pb[k];
        m3_tmulv(Rb, dp, rod->attach_r[e]);
        double Rbt[9];
        m3_transpose(Rb, Rbt);
        m3_mul(Rbt, rod->R + 9 * node, rod->attach_R[e]);
    }
    rod->world = m;
    rod->world_data = d;
    return 0;
}

double xpbd_rod_settle(xpbd_rod *rod, double h, int max_steps, double tol)
{
    double moved = 0;
    for (int s = 0; s < max_steps; s++) {
        memset(rod->v, 0, 3 * (size_t)rod->nnode * sizeof(double));
        memset(rod->w, 0, 3 * (size_t)rod->nnode * sizeof(double));
        moved = substep(rod, h);
        if (moved < tol) break;
    }
    memset(rod->v, 0, 3 * (size_t)rod->nnode * sizeof(double));
    memset(rod->w, 0, 3 * (size_t)rod->nnode * sizeof(double));
    return moved;
}
