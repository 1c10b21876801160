/* rod_element.c — strains of the rod discretizations and their gradients:
 * the rigid chain (§6.2, Appendix F.4–F.5), the finite element with rotations
 * interpolated on the manifold about a reference node (§6.3.2, Crisfield &
 * Jelenić 1999), the element strains (§6.3.3), the Gauss-point constraints
 * (§6.3.4) and the end clamps.  docs/rods.md derives each gradient;
 * tests/xpbd/test_rod_gradients.c checks each against central differences. */
#include "xpbd/rod_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

/* Rigid chain, joint j between bodies j and j+1 (F.4, F.5):
 *   v = (1/2l)(R_jᵀ + R_{j+1}ᵀ)(p_{j+1} − p_j),   u = (1/l)(R_{j+1} ⊟ R_j). */
static void chain_strain(const xpbd_rod *rod, int j, const double *p, const double *R, rod_block *b)
{
    const double *R0 = R + 9 * j, *R1 = R + 9 * (j + 1), il = 1.0 / rod->l;
    double d[3], a[3], c[3], th[3], Gi[9], D[9];
    memset(b, 0, sizeof *b);
    b->node0 = j;
    b->nn = 2;
    for (int k = 0; k < 3; k++) d[k] = p[3 * (j + 1) + k] - p[3 * j + k];
    m3_tmulv(R0, d, a);
    m3_tmulv(R1, d, c);
    so3_minus(R1, R0, th);
    for (int r = 0; r < 3; r++) {
        b->C[r] = 0.5 * il * (a[r] + c[r]);
        b->C[3 + r] = il * th[r];
        for (int k = 0; k < 3; k++) {
            double s = 0.5 * il * (R0[3 * k + r] + R1[3 * k + r]); /* ∂v/∂p_{j+1} = (R_jᵀ + R_{j+1}ᵀ)/2l */
            b->G[1][r][k] = s;
            b->G[0][r][k] = -s;
        }
    }
    so3_d_rot_tvec(R0, d, D); /* D_R(Rᵀd) = (Rᵀd)^ */
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) b->G[0][r][3 + k] = 0.5 * il * D[3 * r + k];
    so3_d_rot_tvec(R1, d, D);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) b->G[1][r][3 + k] = 0.5 * il * D[3 * r + k];
    so3_d_minus_first(th, Gi); /* D_{R_{j+1}} =  Γ⁻¹(θ)  (E.5) */
    so3_d_minus_second(th, D); /* D_{R_j}     = −Γ⁻¹(θ)ᵀ (D.2) */
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) {
            b->G[1][3 + r][3 + k] = il * Gi[3 * r + k];
            b->G[0][3 + r][3 + k] = il * D[3 * r + k];
        }
}

void rod_element_frames_eval(const xpbd_rod *rod, int e, const double *R, rod_element_frames *f)
{
    int m = rod->order, n0 = e * m, r = m / 2;
    const double *Rr = R + 9 * (n0 + r);
    f->e = e;
    memset(f->psi_a, 0, sizeof f->psi_a);
    for (int a = 0; a <= m; a++)
        if (a != r) {
            so3_minus(R + 9 * (n0 + a), Rr, f->psi_a[a]);
            so3_jr_inv(f->psi_a[a], f->Gi[a]);
        }
}

/* Finite element e at ξ (§6.3.2–6.3.3), from its frames f (rod_element_frames_eval at R) and the bases'
 * values phi, dphi at ξ.  Reference node r = ⌊m/2⌋ and
 *   ψ_a = R_a ⊟ R_r,  ψ(ξ) = Σ φ_a ψ_a,  R(ξ) = R_r Exp(ψ)            (interpolation)
 *   p′ = Σ φ′_a p_a / l,  v = Rᵀ p′                                  (eq. 100)
 *   ψ′ = Σ φ′_a ψ_a / l,  u = Rᵀ R′ = Γ(ψ) ψ′.
 * Gradients, with T_a the Jacobian of R(ξ) by R_a (⊟ on both sides):
 *   T_a = φ_a Γ(ψ) Γ⁻¹(ψ_a)   (a ≠ r),
 *   T_r = Exp(ψ)ᵀ − Σ_{a≠r} φ_a Γ(ψ) Γ⁻¹(ψ_a)ᵀ,
 *   ∂v/∂p_a = φ′_a Rᵀ / l,  D_{R_a} v = v^ T_a,
 *   U_a = [φ_a Q + φ′_a Γ(ψ) / l],  Q = d(Γ(ψ)ψ′)/dψ,
 *   D_{R_a} u = U_a Γ⁻¹(ψ_a) (a ≠ r),  D_{R_r} u = −Σ_{a≠r} U_a Γ⁻¹(ψ_a)ᵀ. */
static void element_strain(const xpbd_rod *rod, const rod_element_frames *f, const double phi[4], const double dphi[4],
                           const double *p, const double *R, rod_block *b, double Rxi[9])
{
    int m = rod->order, n0 = f->e * m, r = m / 2;
    double il = 1.0 / rod->l, psi[3] = { 0 }, dpsi[3] = { 0 }, dp[3] = { 0 };
    const double(*psi_a)[3] = f->psi_a, (*Gi)[9] = f->Gi;
    const double *Rr = R + 9 * (n0 + r);
    memset(b, 0, sizeof *b);
    b->node0 = n0;
    b->nn = m + 1;
    for (int a = 0; a <= m; a++)
        for (int k = 0; k < 3; k++) {
            psi[k] += phi[a] * psi_a[a][k];
            dpsi[k] += dphi[a] * il * psi_a[a][k];
            dp[k] += dphi[a] * il * p[3 * (n0 + a) + k];
        }
    double Ex[9], Rg[9], Gam[9], Q[9], v[3], u[3], vh[9];
    so3_exp(psi, Ex);
    m3_mul(Rr, Ex, Rg);
    so3_jr(psi, Gam);
    rod_jr_apply_derivative(psi, dpsi, Q);
    m3_tmulv(Rg, dp, v);
    m3_mulv(Gam, dpsi, u);
    m3_skew(v, vh);
    for (int k = 0; k < 3; k++) {
        b->C[k] = v[k];
        b->C[3 + k] = u[k];
    }
    double Tr[9], Ur[9] = { 0 };
    m3_transpose(Ex, Tr);
    for (int a = 0; a <= m; a++) {
        double(*G)[6] = b->G[a];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) G[i][k] = dphi[a] * il * Rg[3 * k + i];
        if (a == r) continue;
        double Ua[9], GG[9], UG[9], T[9], VT[9];
        for (int i = 0; i < 9; i++) Ua[i] = phi[a] * Q[i] + dphi[a] * il * Gam[i];
        m3_mul(Gam, Gi[a], GG);
        m3_mul(Ua, Gi[a], UG);
        for (int i = 0; i < 9; i++) T[i] = phi[a] * GG[i];
        m3_mul(vh, T, VT);
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                G[i][3 + k] = VT[3 * i + k];
                G[3 + i][3 + k] = UG[3 * i + k];
                /* the reference node's terms −φ_a Γ Γ⁻¹(ψ_a)ᵀ and −U_a Γ⁻¹(ψ_a)ᵀ */
                double tr = 0, ur = 0;
                for (int q = 0; q < 3; q++) {
                    tr += Gam[3 * i + q] * Gi[a][3 * k + q];
                    ur += Ua[3 * i + q] * Gi[a][3 * k + q];
                }
                Tr[3 * i + k] -= phi[a] * tr;
                Ur[3 * i + k] -= ur;
            }
    }
    double VTr[9];
    m3_mul(vh, Tr, VTr);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            b->G[r][i][3 + k] = VTr[3 * i + k];
            b->G[r][3 + i][3 + k] = Ur[3 * i + k];
        }
    if (Rxi) memcpy(Rxi, Rg, sizeof Rg);
}

/* Gauss point g's strains, with the frames of its element in f when f->e is that element (else evaluated
 * into f). */
static void gauss_strain(const xpbd_rod *rod, int g, const double *p, const double *R, rod_block *b,
                         rod_element_frames *f)
{
    if (rod->order == 0) chain_strain(rod, g, p, R, b);
    else {
        int e = g / rod->ngauss, k = g % rod->ngauss;
        if (f->e != e) rod_element_frames_eval(rod, e, R, f);
        element_strain(rod, f, rod->phi_g[k], rod->dphi_g[k], p, R, b, NULL);
    }
    b->body = -1;
}

void rod_strain(const xpbd_rod *rod, int g, const double *p, const double *R, rod_block *b)
{
    rod_element_frames f = { .e = -1 };
    gauss_strain(rod, g, p, R, b, &f);
}

int rod_first_gauss(const xpbd_rod *rod) { return rod->desc.end[0].hold ? 1 : 0; }

int rod_block_end(const xpbd_rod *rod, int c)
{
    if (c == 0 && rod->desc.end[0].hold) return 0;
    if (c == rod->ncon - 1 && rod->desc.end[1].hold) return 1;
    return -1;
}

/* The world body carrying end e, or −1. */
static int end_body(const xpbd_rod *rod, int e)
{
    return rod->desc.end[e].on_body && rod->world_data ? rod->desc.end[e].body : -1;
}

void rod_clamp_target(const xpbd_rod *rod, int e, double t, double p[3], double R[9])
{
    const xpbd_rod_end *end = &rod->desc.end[e];
    int node = e ? rod->nnode - 1 : 0, b = end_body(rod, e);
    if (b >= 0) { /* p_t = p_b + R_b r, R_t = R_b R_J */
        const double *pb = rod->world_data->p + 3 * b, *Rb = rod->world_data->R + 9 * b;
        m3_mulv(Rb, rod->attach_r[e], p);
        for (int k = 0; k < 3; k++) p[k] += pb[k];
        m3_mul(Rb, rod->attach_R[e], R);
        return;
    }
    double f = end->ramp_time > 0 ? fmin(t / end->ramp_time, 1.0) : 1.0, tw[3] = { 0, 0, f * end->twist };
    for (int k = 0; k < 3; k++) p[k] = rod->p0[3 * node + k] + f * end->move[k];
    so3_plus(rod->R0 + 9 * node, tw, R);
}

void rod_clamp_rate(const xpbd_rod *rod, int e, double t, double v[3], double w[3])
{
    const xpbd_rod_end *end = &rod->desc.end[e];
    double fdot = end->ramp_time > 0 && t < end->ramp_time ? 1.0 / end->ramp_time : 0.0;
    for (int k = 0; k < 3; k++) v[k] = fdot * end->move[k];
    w[0] = w[1] = 0;
    w[2] = fdot * end->twist;
}

int rod_end_rows(const xpbd_rod *rod, int e) { return rod->desc.end[e].hold == XPBD_ROD_PIN ? 3 : 6; }

/* Clamp of an end node to its target (p_t, R_t): C = [p − p_t; R ⊟ R_t],
 * ∂C/∂p = I, D_R C = Γ⁻¹(R ⊟ R_t) (E.5).  On a body (p_t = p_b + R_b r,
 * R_t = R_b R_J): ∂C/∂p_b = [−I; 0], D_{R_b} C = [R_b r^; −Γ⁻¹(R ⊟ R_t)ᵀ R_Jᵀ]
 * (§3.4: D_R(Rr) = −R r^; D.2 and E.3).  A pin has the first three rows
 * only (rows 3–5 stay zero, rod_end_rows). */
static void clamp_eval(const xpbd_rod *rod, int e, rod_block *b)
{
    int node = e ? rod->nnode - 1 : 0, pin = rod_end_rows(rod, e) == 3;
    double pt[3], Rt[9], Gi[9];
    memset(b, 0, sizeof *b);
    b->node0 = node;
    b->nn = 1;
    b->body = end_body(rod, e);
    rod_clamp_target(rod, e, rod->t, pt, Rt);
    for (int k = 0; k < 3; k++) {
        b->C[k] = rod->p[3 * node + k] - pt[k];
        b->G[0][k][k] = 1;
    }
    if (!pin) {
        so3_minus(rod->R + 9 * node, Rt, b->C + 3);
        so3_d_minus_first(b->C + 3, Gi);
        for (int k = 0; k < 3; k++)
            for (int q = 0; q < 3; q++) b->G[0][3 + k][3 + q] = Gi[3 * k + q];
    }
    if (b->body < 0) return;
    double Rr[9], D[9], Dt[9];
    m3_skew(rod->attach_r[e], D);
    m3_mul(rod->world_data->R + 9 * b->body, D, Rr);
    so3_d_minus_second(b->C + 3, D);
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < 3; q++) {
            double s = 0;
            for (int w = 0; w < 3; w++) s += D[3 * k + w] * rod->attach_R[e][3 * q + w]; /* D R_Jᵀ */
            Dt[3 * k + q] = s;
        }
    for (int k = 0; k < 3; k++) {
        b->Gb[k][k] = -1;
        for (int q = 0; q < 3; q++) {
            b->Gb[k][3 + q] = Rr[3 * k + q];
            b->Gb[3 + k][3 + q] = pin ? 0 : Dt[3 * k + q];
        }
    }
}

void rod_block_eval_shared(const xpbd_rod *rod, int c, rod_block *b, rod_element_frames *f)
{
    int e = rod_block_end(rod, c);
    if (e >= 0) {
        clamp_eval(rod, e, b);
        return;
    }
    int g = c - rod_first_gauss(rod);
    gauss_strain(rod, g, rod->p, rod->R, b, f);
    for (int k = 0; k < 6; k++) b->C[k] -= rod->rest[6 * g + k];
}

void rod_block_eval(const xpbd_rod *rod, int c, rod_block *b)
{
    rod_element_frames f = { .e = -1 };
    rod_block_eval_shared(rod, c, b, &f);
}

void xpbd_rod_sample(const xpbd_rod *rod, double s, double p[3], double R[9])
{
    int nel = rod->nel;
    double x = fmin(fmax(s / rod->l, 0.0), (double)nel);
    int e = x >= nel ? nel - 1 : (int)x;
    double xi = x - e;
    if (rod->order == 0) {
        double th[3];
        const double *Ra = rod->R + 9 * e, *Rb = rod->R + 9 * (e + 1);
        so3_minus(Rb, Ra, th);
        for (int k = 0; k < 3; k++) {
            p[k] = (1 - xi) * rod->p[3 * e + k] + xi * rod->p[3 * (e + 1) + k];
            th[k] *= xi;
        }
        so3_plus(Ra, th, R);
        return;
    }
    rod_block b;
    rod_element_frames f;
    double phi[4], dphi[4];
    rod_lagrange(rod->order, xi, phi, dphi);
    rod_element_frames_eval(rod, e, rod->R, &f);
    element_strain(rod, &f, phi, dphi, rod->p, rod->R, &b, R);
    for (int k = 0; k < 3; k++) {
        p[k] = 0;
        for (int a = 0; a <= rod->order; a++) p[k] += phi[a] * rod->p[3 * (e * rod->order + a) + k];
    }
}
