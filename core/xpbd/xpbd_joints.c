/* xpbd_joints.c — joint constraints of §5 and their analytic gradients
 * (Appendix F), built from the Jacobian blocks of §3.4 (core/spatial/so3.h). */
#include "xpbd/xpbd_internal.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

/* θ = Log(D) and Γ⁻¹(θ) (so3_log, so3_jr_inv) from one quaternion: with
 * q = (w, v), w ≥ 0, t/2 = atan2(|v|, w), so cot(t/2) = w/|v| and Γ⁻¹ needs
 * no further trigonometry. */
static void log_jrinv(const double D[9], double th[3], double Ji[9])
{
    double q[4];
    rot_to_quat(D, q);
    quat_log(q, th);
    double x = th[0], y = th[1], z = th[2], d2 = x * x + y * y + z * z, t = sqrt(d2), t2 = t * t, b;
    if (t < 1e-2) b = 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0;
    else {
        double n = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        b = (1.0 - 0.5 * t * q[0] / n) / t2;
    }
    /* I + ½θ^ + b θ^² (so3_poly) */
    Ji[0] = 1.0 + b * (x * x - d2);
    Ji[1] = b * x * y - 0.5 * z;
    Ji[2] = b * x * z + 0.5 * y;
    Ji[3] = b * x * y + 0.5 * z;
    Ji[4] = 1.0 + b * (y * y - d2);
    Ji[5] = b * y * z - 0.5 * x;
    Ji[6] = b * x * z - 0.5 * y;
    Ji[7] = b * y * z + 0.5 * x;
    Ji[8] = 1.0 + b * (z * z - d2);
}

/* Rows r0..r0+2, columns c0..c0+2 of G get sign·B. */
static inline void put_block(double G[6][6], int r0, int c0, const double B[9], double sign)
{
    double *g0 = G[r0] + c0, *g1 = G[r0 + 1] + c0, *g2 = G[r0 + 2] + c0;
    g0[0] = sign * B[0], g0[1] = sign * B[1], g0[2] = sign * B[2];
    g1[0] = sign * B[3], g1[1] = sign * B[4], g1[2] = sign * B[5];
    g2[0] = sign * B[6], g2[1] = sign * B[7], g2[2] = sign * B[8];
}

void xpbd_joint_eval(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e)
{
    xpbd_joint_eval_rows(m, d, j, e, 0x3Fu);
}

void xpbd_joint_eval_rows(const xpbd_model *m, const xpbd_data *d, int j, xpbd_jeval *e, unsigned need)
{
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, zero3[3] = { 0, 0, 0 };
    const xpbd_joint *jt = &m->joints[j];
    const int body[2] = { jt->body1, jt->body2 };
    const double *rJ[2] = { jt->r1, jt->r2 }, *RJ[2] = { jt->R1, jt->R2 };
    const double *p[2], *R[2];
    double pbar[2][3], q[6];
    double(*Rbar)[9] = e->Rbar;
    const int need_rot = (need & 0x38u) != 0;

    /* Joint frames p̄_i = p_i + R_i r_i, R̄_i = R_i R_iJ (§5.2.1). */
    for (int i = 0; i < 2; i++) {
        e->RJ[i] = RJ[i];
        if (body[i] < 0) {
            p[i] = zero3;
            R[i] = I3;
            for (int k = 0; k < 3; k++) pbar[i][k] = rJ[i][k];
            for (int k = 0; k < 9; k++) Rbar[i][k] = RJ[i][k];
            continue;
        }
        p[i] = d->p + 3 * body[i];
        R[i] = d->R + 9 * body[i];
        m3_mulv(R[i], rJ[i], pbar[i]);
        for (int k = 0; k < 3; k++) pbar[i][k] += p[i][k];
        if (!need_rot && !(i == 0 && jt->local_pos)) continue; /* R̄_i unused */
        if (jt->frame_identity[i])
            for (int k = 0; k < 9; k++) Rbar[i][k] = R[i][k];
        else m3_mul(R[i], RJ[i], Rbar[i]);
    }
    if (need == 0x3Fu) /* a full evaluation zeroes a ground side; the solvers never read it */
        for (int i = 0; i < 2; i++)
            if (body[i] < 0) memset(e->G[i], 0, sizeof e->G[i]);

    /* θ = R̄1 ⊟ R̄2: D_R1 = Γ⁻¹(θ) R1Jᵀ (E.5, E.3), D_R2 = −Γ⁻¹(θ)ᵀ R2Jᵀ (D.2). */
    double D[9], Ji[9], B[9], T[9];
    if (need_rot) {
        m3_tmul(Rbar[1], Rbar[0], D); /* R̄2ᵀ R̄1 */
        log_jrinv(D, q + 3, Ji);
    } else q[3] = q[4] = q[5] = 0.0;

    for (int i = 0; i < 2 && need_rot; i++) {
        if (body[i] < 0) continue;
        double(*G)[6] = e->G[i];
        G[3][0] = G[3][1] = G[3][2] = 0.0;
        G[4][0] = G[4][1] = G[4][2] = 0.0;
        G[5][0] = G[5][1] = G[5][2] = 0.0;
        if (i == 0) {
            if (jt->frame_identity[0]) put_block(G, 3, 3, Ji, 1.0);
            else {
                m3_mult(Ji, RJ[0], T);
                put_block(G, 3, 3, T, 1.0);
            }
        } else {
            if (jt->frame_identity[1]) /* −Γ⁻¹ᵀ */
                for (int r = 0; r < 3; r++)
                    for (int c = 0; c < 3; c++) G[3 + r][3 + c] = -Ji[3 * c + r];
            else {
                m3_mul(RJ[1], Ji, T); /* Γ⁻¹ᵀ R2Jᵀ = (R2J Γ⁻¹)ᵀ */
                G[3][3] = -T[0], G[3][4] = -T[3], G[3][5] = -T[6];
                G[4][3] = -T[1], G[4][4] = -T[4], G[4][5] = -T[7];
                G[5][3] = -T[2], G[5][4] = -T[5], G[5][5] = -T[8];
            }
        }
    }

    if (!(need & 7u)) q[0] = q[1] = q[2] = 0.0;
    else if (!jt->local_pos) {
        /* p̄1 − p̄2: ∂/∂p1 = I, D_R1 = −R1 r1^, ∂/∂p2 = −I, D_R2 = R2 r2^ (§3.4);
         * row r of −R p^ is p × (row r of R). */
        for (int k = 0; k < 3; k++) q[k] = pbar[0][k] - pbar[1][k];
        for (int i = 0; i < 2; i++) {
            if (body[i] < 0) continue;
            const double sg = i == 0 ? 1.0 : -1.0, *r = rJ[i], *Ri = R[i];
            double(*G)[6] = e->G[i];
            G[0][0] = sg, G[0][1] = 0.0, G[0][2] = 0.0;
            G[1][0] = 0.0, G[1][1] = sg, G[1][2] = 0.0;
            G[2][0] = 0.0, G[2][1] = 0.0, G[2][2] = sg;
            for (int k = 0; k < 3; k++) { /* row k: sg · (r × row k of R) */
                const double *Rk = Ri + 3 * k;
                G[k][3] = sg * (r[1] * Rk[2] - r[2] * Rk[1]);
                G[k][4] = sg * (r[2] * Rk[0] - r[0] * Rk[2]);
                G[k][5] = sg * (r[0] * Rk[1] - r[1] * Rk[0]);
            }
        }
    } else {
        /* R̄1ᵀ(p̄2 − p̄1) (F.3): ∂/∂p1 = −R̄1ᵀ, ∂/∂p2 = R̄1ᵀ,
         * D_R1 = R1Jᵀ (R1ᵀ(p̄2 − p1))^, D_R2 = R̄1ᵀ (−R2 r2^). */
        double dp[3], u[3], w[3];
        for (int k = 0; k < 3; k++) dp[k] = pbar[1][k] - pbar[0][k];
        m3_tmulv(Rbar[0], dp, q);
        if (body[0] >= 0) {
            double(*G)[6] = e->G[0];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) G[r][c] = -Rbar[0][3 * c + r];
            for (int k = 0; k < 3; k++) u[k] = pbar[1][k] - p[0][k];
            m3_tmulv(R[0], u, w);
            m3_skew(w, B);
            if (jt->frame_identity[0]) put_block(G, 0, 3, B, 1.0);
            else {
                m3_tmul(RJ[0], B, T);
                put_block(G, 0, 3, T, 1.0);
            }
        }
        if (body[1] >= 0) {
            double(*G)[6] = e->G[1];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) G[r][c] = Rbar[0][3 * c + r];
            for (int r = 0; r < 3; r++) v3_cross(rJ[1], R[1] + 3 * r, B + 3 * r);
            m3_tmul(Rbar[0], B, T);
            put_block(G, 0, 3, T, 1.0);
        }
    }

    /* A rotational row's value is an angle: taken in (−π, π], so a target
     * that keeps turning (a `ramp` motor) stays one turn from the joint. */
    const double *tgt = d->target + 6 * j;
    for (int k = 0; k < 6; k++) {
        e->q[k] = q[k];
        e->g[k] = q[k] - tgt[k];
        if (k >= 3 && fabs(e->g[k]) > XPBD_PI) e->g[k] = remainder(e->g[k], 2.0 * XPBD_PI);
    }
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
            for (int k = 0; k < 3; k++) gl[i][3 + c] += g[i][k] * e->RJ[i][3 * c + k];
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
        } else memcpy(s->c, cm, sizeof cm);
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
