/* xpbd_joints.c — joint constraints of §5 and their analytic gradients
 * (Appendix F), built from the Jacobian blocks of §3.4 (core/spatial/so3.h). */
#include "xpbd/xpbd_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

/* Rows r0..r0+2 of G[i] get the 3x3 block B in columns c0..c0+2. */
static void put_block(double G[6][6], int r0, int c0, const double B[9], double sign)
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) G[r0 + r][c0 + c] = sign * B[3 * r + c];
}

/* out = R_iJᵀ B (left) or B R_iJᵀ (right), skipped for an identity frame. */
static void chain(const xpbd_joint *jt, int i, const xpbd_jeval *e, const double B[9], double out[9], int left)
{
    if (jt->frame_identity[i]) memcpy(out, B, 9 * sizeof(double));
    else if (left) m3_mul(e->Rbar_t[i], B, out);
    else m3_mul(B, e->Rbar_t[i], out);
}

void xpbd_joint_eval(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e)
{
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, zero3[3] = { 0, 0, 0 };
    const xpbd_joint *jt = &m->joints[j];
    const int body[2] = { jt->body1, jt->body2 };
    const double *rJ[2] = { jt->r1, jt->r2 }, *RJ[2] = { jt->R1, jt->R2 };
    const double *p[2], *R[2];
    double pbar[2][3], q[6];
    double(*Rbar)[9] = e->Rbar;

    /* Joint frames p̄_i = p_i + R_i r_i, R̄_i = R_i R_iJ (§5.2.1). */
    for (int i = 0; i < 2; i++) {
        p[i] = body[i] < 0 ? zero3 : d->p + 3 * body[i];
        R[i] = body[i] < 0 ? I3 : d->R + 9 * body[i];
        m3_mulv(R[i], rJ[i], pbar[i]);
        for (int k = 0; k < 3; k++) pbar[i][k] += p[i][k];
        if (jt->frame_identity[i]) {
            memcpy(Rbar[i], R[i], sizeof Rbar[i]);
            memcpy(e->Rbar_t[i], I3, sizeof I3);
        } else {
            m3_mul(R[i], RJ[i], Rbar[i]);
            m3_transpose(RJ[i], e->Rbar_t[i]);
        }
    }
    memset(e->G, 0, sizeof e->G);

    double B[9], T[9], Rb0t[9], u[3];
    m3_transpose(Rbar[0], Rb0t);
    if (!jt->local_pos) {
        /* p̄1 − p̄2: ∂/∂p1 = I, D_R1 = −R1 r1^, ∂/∂p2 = −I, D_R2 = R2 r2^ (§3.4). */
        for (int k = 0; k < 3; k++) q[k] = pbar[0][k] - pbar[1][k];
        put_block(e->G[0], 0, 0, I3, 1.0);
        put_block(e->G[1], 0, 0, I3, -1.0);
        so3_d_rot_vec(R[0], rJ[0], B);
        put_block(e->G[0], 0, 3, B, 1.0);
        so3_d_rot_vec(R[1], rJ[1], B);
        put_block(e->G[1], 0, 3, B, -1.0);
    } else {
        /* R̄1ᵀ(p̄2 − p̄1) (F.3): ∂/∂p1 = −R̄1ᵀ, ∂/∂p2 = R̄1ᵀ,
         * D_R1 = R1Jᵀ (R1ᵀ(p̄2 − p1))^, D_R2 = R̄1ᵀ (−R2 r2^). */
        double dp[3];
        for (int k = 0; k < 3; k++) dp[k] = pbar[1][k] - pbar[0][k];
        m3_mulv(Rb0t, dp, q);
        put_block(e->G[0], 0, 0, Rb0t, -1.0);
        put_block(e->G[1], 0, 0, Rb0t, 1.0);
        for (int k = 0; k < 3; k++) u[k] = pbar[1][k] - p[0][k];
        so3_d_rot_tvec(R[0], u, B);
        chain(jt, 0, e, B, T, 1);
        put_block(e->G[0], 0, 3, T, 1.0);
        so3_d_rot_vec(R[1], rJ[1], B);
        m3_mul(Rb0t, B, T);
        put_block(e->G[1], 0, 3, T, 1.0);
    }

    /* θ = R̄1 ⊟ R̄2: D_R1 = Γ⁻¹(θ) R1Jᵀ (E.5, E.3), D_R2 = −Γ⁻¹(θ)ᵀ R2Jᵀ (D.2). */
    so3_minus(Rbar[0], Rbar[1], q + 3);
    so3_d_minus_first(q + 3, B);
    chain(jt, 0, e, B, T, 0);
    put_block(e->G[0], 3, 3, T, 1.0);
    m3_transpose(B, T);
    chain(jt, 1, e, T, B, 0);
    put_block(e->G[1], 3, 3, B, -1.0);

    const double *tgt = d->target + 6 * j;
    for (int k = 0; k < 6; k++) {
        e->q[k] = q[k];
        e->g[k] = q[k] - tgt[k];
    }
    for (int i = 0; i < 2; i++)
        if (body[i] < 0) memset(e->G[i], 0, sizeof e->G[i]);
}

/* Gradient of f(R_Δ), R_Δ = R̄1ᵀR̄2, given ∂f/∂R_Δ (dfdR, 3x3): right
 * perturbations of R̄2 move R_Δ by R_Δ ê_k, of R̄1 by −ê_k R_Δ; then
 * D_Ri = D_R̄i R_iJᵀ (E.3). */
static void rel_rot_grad(const xpbd_jeval *e, const double Rrel[9], const double dfdR[9], double gl[2][6])
{
    double g[2][3];
    for (int k = 0; k < 3; k++) {
        double ek[3] = { 0 }, K[9], dR2[9], dR1[9];
        ek[k] = 1.0;
        m3_skew(ek, K);
        m3_mul(Rrel, K, dR2);
        m3_mul(K, Rrel, dR1);
        g[0][k] = g[1][k] = 0;
        for (int i = 0; i < 9; i++) {
            g[1][k] += dfdR[i] * dR2[i];
            g[0][k] -= dfdR[i] * dR1[i];
        }
    }
    for (int i = 0; i < 2; i++) {
        memset(gl[i], 0, 6 * sizeof(double));
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) gl[i][3 + c] += g[i][k] * e->Rbar_t[i][3 * k + c];
    }
}

/* θ_twist = atan2(R_Δ(2,1) − R_Δ(1,2), R_Δ(1,1) + R_Δ(2,2)) (F.2), with ∂/∂R_Δ. */
static double twist_angle(const double Rr[9], double dfdR[9])
{
    double y = Rr[3] - Rr[1], x = Rr[0] + Rr[4], n = x * x + y * y;
    memset(dfdR, 0, 9 * sizeof(double));
    dfdR[3] = x / n;
    dfdR[1] = -x / n;
    dfdR[0] = dfdR[4] = -y / n;
    return atan2(y, x);
}

/* θ_swing = angle between e3 and R_Δ e3 = atan2(|(R13, R23)|, R33), with ∂/∂R_Δ. */
static double swing_angle(const double Rr[9], double dfdR[9])
{
    double u1 = Rr[2], u2 = Rr[5], u3 = Rr[8];
    double rho = sqrt(u1 * u1 + u2 * u2), n = rho * rho + u3 * u3;
    memset(dfdR, 0, 9 * sizeof(double));
    if (rho > 0) {
        dfdR[2] = u3 * u1 / (rho * n);
        dfdR[5] = u3 * u2 / (rho * n);
    }
    dfdR[8] = -rho / n;
    return atan2(rho, u3);
}

int xpbd_limit_eval(const xpbd_joint *jt, const xpbd_jeval *e, int s, double *C, double gl[2][6])
{
    double dfdR[9], val, Rrel[9], Rb0t[9];
    if (jt->type == XPBD_SPHERICAL) {
        m3_transpose(e->Rbar[0], Rb0t);
        m3_mul(Rb0t, e->Rbar[1], Rrel); /* R_Δ = R̄1ᵀ R̄2 */
    }
    if (s == 2) {
        if (!jt->has_swing) return 0;
        /* θ_max − θ_swing ≥ 0 (F.2) */
        *C = jt->swing_max - swing_angle(Rrel, dfdR);
        rel_rot_grad(e, Rrel, dfdR, gl);
        for (int i = 0; i < 2; i++)
            for (int c = 0; c < 6; c++) gl[i][c] = -gl[i][c];
        return 1;
    }
    if (!(s == 0 ? jt->has_lower : jt->has_upper)) return 0;
    if (jt->type == XPBD_SPHERICAL) {
        val = twist_angle(Rrel, dfdR);
        rel_rot_grad(e, Rrel, dfdR, gl);
    } else {
        /* θ_rev = [R̄1 ⊟ R̄2]_3 (§5.3.2), d_pr = [R̄1ᵀ(p̄2 − p̄1)]_3 (§5.5.2) */
        int row = jt->type == XPBD_REVOLUTE ? 5 : 2;
        val = e->q[row];
        for (int i = 0; i < 2; i++) memcpy(gl[i], e->G[i][row], 6 * sizeof(double));
    }
    /* C_min = v − v_min ≥ 0, C_max = v_max − v ≥ 0 (§5.3.2) */
    double sign = s == 0 ? 1.0 : -1.0;
    *C = s == 0 ? val - jt->lower : jt->upper - val;
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 6; c++) gl[i][c] *= sign;
    return 1;
}

int xpbd_scalar_groups(const xpbd_joint *jt, unsigned masks[6])
{
    int n = 0;
    unsigned used = 0;
    for (int k = 0; k < 6; k++) {
        if (!(jt->rows >> k & 1u) || (used >> k & 1u)) continue;
        unsigned mask = 0;
        for (int l = k; l < 6; l++)
            if ((jt->rows >> l & 1u) && (l < 3) == (k < 3) && jt->alpha[l] == jt->alpha[k]) mask |= 1u << l;
        used |= mask;
        masks[n++] = mask;
    }
    return n;
}

void xpbd_scalar_eval(const xpbd_model *m, const xpbd_data *d, int j, const xpbd_jeval *e, unsigned mask,
                      xpbd_scalar_row *s)
{
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    const xpbd_joint *jt = &m->joints[j];
    const double *R1 = jt->body1 < 0 ? I3 : d->R + 9 * jt->body1;
    const double *R2 = jt->body2 < 0 ? I3 : d->R + 9 * jt->body2;
    const double *Rbar1 = e->Rbar[0];
    double cm[3];
    memset(s, 0, sizeof *s);
    s->rot = (mask & 7u) == 0;
    int base = s->rot ? 3 : 0;
    for (int k = 0; k < 3; k++) cm[k] = (mask >> (base + k) & 1u) ? e->g[base + k] : 0.0;

    if (mask == (1u << 3 | 1u << 4)) {
        /* Hinge alignment: b1, b2 are the aligned axes in body coordinates. */
        const double *tgt = d->target + 6 * j;
        double th[3] = { -tgt[3], -tgt[4], 0 }, E[9], b1[3], b2[3], a1[3], a2[3], e3[3] = { 0, 0, 1 };
        double D1[9], D2[9], A[9], T[9];
        so3_exp(th, E);
        m3_mulv(E, e3, b1);
        m3_mulv(jt->R1, b1, b1);
        m3_mulv(jt->R2, e3, b2);
        m3_mulv(R1, b1, a1);
        m3_mulv(R2, b2, a2);
        v3_cross(a2, a1, s->c);
        s->C = v3_norm(s->c);
        if (s->C == 0) return;
        /* dc = a2^ da1 − a1^ da2, da_i = −R_i b_i^ δ_i (§3.4) */
        so3_d_rot_vec(R1, b1, D1);
        so3_d_rot_vec(R2, b2, D2);
        m3_skew(a2, A);
        m3_mul(A, D1, T);
        for (int c = 0; c < 3; c++) s->g[0][3 + c] = (s->c[0] * T[c] + s->c[1] * T[3 + c] + s->c[2] * T[6 + c]) / s->C;
        m3_skew(a1, A);
        m3_mul(A, D2, T);
        for (int c = 0; c < 3; c++) s->g[1][3 + c] = -(s->c[0] * T[c] + s->c[1] * T[3 + c] + s->c[2] * T[6 + c]) / s->C;
    } else {
        if (s->rot || jt->local_pos) {
            m3_mulv(Rbar1, cm, s->c);
            if (!s->rot)
                for (int k = 0; k < 3; k++) s->c[k] = -s->c[k];
        } else
            memcpy(s->c, cm, sizeof cm);
        s->C = v3_norm(s->c);
        if (s->C == 0) return;
        for (int k = 0; k < 6; k++)
            if (mask >> k & 1u)
                for (int i = 0; i < 2; i++)
                    for (int c = 0; c < 6; c++) s->g[i][c] += e->g[k] / s->C * e->G[i][k][c];
    }
    for (int i = 0; i < 2; i++)
        if ((i ? jt->body2 : jt->body1) < 0) memset(s->g[i], 0, sizeof s->g[i]);
}
