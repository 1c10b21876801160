/* aba.c — the articulated-body algorithm, RBDA Table 7.1.  See aba.h.
 *
 * In the efficient forms of core/spatial (RBDA §2.8): transforms as (E, r),
 * inertias as symmetric blocks, and per joint type the motion subspace's
 * own shape: a revolute or prismatic S is one 6-vector (U one column, D a
 * scalar), a floating S is the identity (U = D = IA), a fixed one is empty;
 * a cylindrical or spherical S has 2 or 3 columns (U 6 x nv, D by its
 * Cholesky factor). */
#include "rbda/aba.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rbda/jcalc.h"
#include "spatial/linalg.h"
#include "spatial/spatial.h"

typedef struct {
    /* constant */
    sxform XT;   /* tree transform                                   */
    sinertia I;  /* spatial inertia                                  */
    double s[3]; /* 1 DOF: S = [s; 0] (revolute) or [0; s] (prismatic) */
    int off;     /* 0 revolute, 3 prismatic: where s sits in S       */
    int parent, nv, vidx;
    int x0;         /* iX0 wanted: this body or a descendant reads fext */
    double damping; /* 1 DOF: what an implicit step adds to D per unit h */
    /* at q (aba_factor) */
    sxform X, X0;      /* iX_lambda, iX0                                   */
    sinertia IA;       /* IA_i, then Ia_i = IA_i - U D^-1 U^T              */
    sinertia IC;       /* aba_mass_matrix: the composite inertia            */
    double U[6], Dinv; /* 1 DOF: U = IA S, 1 / D                           */
    double L[36];      /* floating: D = IA = L L^T (lower triangle); 2-3 DOF: D = L L^T */
    double S[3][6];    /* 2-3 DOF: the columns of S                         */
    double Uc[3][6];   /* 2-3 DOF: the columns of U = IA S                  */
    /* per right-hand side (aba_solve) */
    double v[6], c[6], pA[6], a[6], u[6];
} aba_body;

struct aba_ws {
    int nb;
    double h; /* the implicit step (aba_set_implicit_step), else 0 */
    aba_body *b;
};

aba_ws *aba_ws_new(const mech_model *m)
{
    aba_ws *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    ws->nb = m->nb;
    ws->b = calloc((size_t)(m->nb ? m->nb : 1), sizeof *ws->b);
    if (!ws->b) {
        aba_ws_free(ws);
        return NULL;
    }
    for (int i = 0; i < m->nb; i++) {
        const mech_body *mb = &m->bodies[i];
        aba_body *B = &ws->b[i];
        sxform_xtree(mb, &B->XT);
        sinertia_mcI(mb->mass, mb->com, mb->inertia, &B->I);
        B->off = mb->joint == MECH_JOINT_PRISMATIC ? 3 : 0;
        memcpy(B->s, mb->axis, sizeof mb->axis);
        B->parent = mb->parent;
        B->nv = mb->nv;
        B->vidx = mb->vidx;
        if (mb->nv == 1) B->damping = mech_model_joint_damping(m, mb->vidx);
        if (B->nv == 2 || B->nv == 3) {
            double XJ[36], S[18];
            body_jcalc_normalized(mb, mb->q0, XJ, S); /* S is constant */
            for (int k = 0; k < B->nv; k++)
                for (int r = 0; r < 6; r++) B->S[k][r] = S[B->nv * r + k];
        }
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        aba_body *B = &ws->b[i];
        B->x0 |= m->bodies[i].fext;
        if (B->parent >= 0) ws->b[B->parent].x0 |= B->x0;
    }
    return ws;
}

void aba_set_implicit_step(aba_ws *ws, double h) { ws->h = h; }

void aba_ws_free(aba_ws *ws)
{
    if (!ws) return;
    free(ws->b);
    free(ws);
}

/* A joint of 2 or 3 freedoms (cylindrical, spherical): U = IA S,
 * D = S^T U + rotor = L L^T, and Ia = IA - U D^-1 U^T as the sum of the
 * rank-one steps W_k W_k^T, W = U L^-T. */
static void block_factor(aba_body *B, double armature)
{
    int n = B->nv;
    double W[3][6];
    for (int k = 0; k < n; k++) sinertia_mulv(&B->IA, B->S[k], B->Uc[k]);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) B->L[n * r + c] = v6_dot(B->S[r], B->Uc[c]) + (r == c ? armature : 0.0);
    spd_cholesky(n, B->L);
    if (B->parent < 0) return;
    for (int c = 0; c < n; c++) {
        for (int e = 0; e < 6; e++) {
            double w = B->Uc[c][e];
            for (int k = 0; k < c; k++) w -= W[k][e] * B->L[n * c + k];
            W[c][e] = w / B->L[n * c + c];
        }
        sinertia_sub_outer(&B->IA, W[c], 1.0);
    }
}

/* v += S qd and c = v x (S qd) (eq. 2.31) for a joint of 2 or 3 freedoms. */
static void block_velocity(aba_body *B, const double *qd, double *v, double *c)
{
    double vJ[6] = { 0, 0, 0, 0, 0, 0 }, a[3], b[3];
    for (int k = 0; k < B->nv; k++)
        for (int e = 0; e < 6; e++) vJ[e] += B->S[k][e] * qd[B->vidx + k];
    for (int e = 0; e < 6; e++) v[e] += vJ[e];
    v3_cross(v, vJ, c);
    v3_cross(v, vJ + 3, a);
    v3_cross(v + 3, vJ, b);
    for (int e = 0; e < 3; e++) c[3 + e] = a[e] + b[e];
}

/* Table 7.1 per right-hand side.  Pass 1: v_i: iX_lambda = XJ XT, iX0,
 * and backward U_i = IA_i S_i, D_i = S_i^T U_i, Ia_i = IA_i - U_i D_i^-1 U_i^T,
 * IA_lambda += lambdaX*_i Ia_i iX_lambda (lambdaX*_i = iX_lambda^T, eq. 2.25). */
/* iX_lambda = XJ XT and, where wanted, iX0 at q. */
static void transforms(const mech_model *m, aba_ws *ws, const double *q)
{
    for (int i = 0; i < ws->nb; i++) {
        const mech_body *mb = &m->bodies[i];
        aba_body *B = &ws->b[i];
        sxform XJ;
        sxform_jcalc(mb, q + mb->qidx, &XJ);
        sxform_compose(&XJ, &B->XT, &B->X);
        if (B->x0) {
            if (B->parent < 0) sxform_copy(&B->X, &B->X0);
            else sxform_compose(&B->X, &ws->b[B->parent].X0, &B->X0);
        }
    }
}

void aba_factor(const mech_model *m, aba_ws *ws, const double *q)
{
    transforms(m, ws, q);
    for (int i = 0; i < ws->nb; i++) sinertia_copy(&ws->b[i].I, &ws->b[i].IA);
    for (int i = ws->nb - 1; i >= 0; i--) {
        aba_body *B = &ws->b[i];
        if (B->nv == 6) { /* floating, parent the base: U = D = IA */
            sinertia_full(&B->IA, B->L);
            spd_cholesky(6, B->L);
            continue;
        }
        if (B->nv == 2 || B->nv == 3) block_factor(B, m->bodies[i].armature);
        if (B->nv == 1) {
            sinertia_mul_axis(&B->IA, B->off, B->s, B->U);             /* U = IA S  */
            double rotor = m->bodies[i].armature + ws->h * B->damping; /* + h D of an implicit step */
            B->Dinv = 1.0 / (v3_dot(B->s, B->U + B->off) + rotor);     /* D = S^T U + rotor */
            if (B->parent < 0) continue;
            sinertia_sub_outer(&B->IA, B->U, B->Dinv); /* Ia = IA - U D^-1 U^T */
        }
        if (B->parent >= 0) sinertia_tcongruence_add(&B->X, &B->IA, &ws->b[B->parent].IA);
    }
}

/* Table 7.1 per right-hand side.  Pass 1: v_i = iX_lambda v_lambda + S qd,
 * c_i = v_i x vJ, pA_i = v_i x* I_i v_i - iX0* f^x_i.  Pass 2 (backward):
 * u_i = tau_i - S_i^T pA_i, pa = pA_i + Ia_i c_i + U_i D_i^-1 u_i,
 * pA_lambda += lambdaX*_i pa.  Pass 3: a' = iX_lambda a_lambda + c_i,
 * qdd_i = D_i^-1 (u_i - U_i^T a'), a_i = a' + S_i qdd_i, from a_0 = -[0; g]. */
void aba_solve(const mech_model *m, aba_ws *ws, const double g[3], const double *qd, const double *tau,
               const double *fext, double *qdd)
{
    const double a0[6] = { 0, 0, 0, -g[0], -g[1], -g[2] }; /* §5.3 */
    for (int i = 0; i < ws->nb; i++) {
        aba_body *B = &ws->b[i];
        double *v = B->v, *c = B->c, Iv[6];
        if (B->parent < 0) memset(v, 0, sizeof B->v);
        else sxform_motion(&B->X, ws->b[B->parent].v, v);
        memset(c, 0, sizeof B->c); /* c = v x vJ (cJ = 0) */
        if (B->nv == 1) {
            double x = qd[B->vidx], sq[3] = { B->s[0] * x, B->s[1] * x, B->s[2] * x };
            for (int k = 0; k < 3; k++) v[B->off + k] += sq[k]; /* v += S qd */
            v3_cross(v, sq, c + B->off);
            if (!B->off) v3_cross(v + 3, sq, c + 3);
        } else if (B->nv == 6) {
            memcpy(v, qd + B->vidx, sizeof B->v); /* parent the base: c = 0 */
        } else if (B->nv > 1) {
            block_velocity(B, qd, v, c);
        }
        sinertia_rb_mulv(&B->I, v, Iv);
        crf_mulv(v, Iv, B->pA); /* pA = v x* I v */
        if (fext && m->bodies[i].fext) {
            double fx[6];
            sxform_force(&B->X0, fext + 6 * i, fx);
            for (int k = 0; k < 6; k++) B->pA[k] -= fx[k]; /* - iX0* f^x */
        }
    }
    for (int i = ws->nb - 1; i >= 0; i--) {
        aba_body *B = &ws->b[i];
        double pa[6], Xtpa[6];
        if (B->nv == 6) { /* root: u = tau - pA */
            for (int k = 0; k < 6; k++) B->u[k] = tau[B->vidx + k] - B->pA[k];
            continue;
        }
        if (B->nv == 1) B->u[0] = tau[B->vidx] - v3_dot(B->s, B->pA + B->off); /* u = tau - S^T pA */
        else
            for (int k = 0; k < B->nv; k++) B->u[k] = tau[B->vidx + k] - v6_dot(B->S[k], B->pA);
        if (B->parent < 0) continue;
        if (B->nv == 1) {
            double Iac[6], Du = B->Dinv * B->u[0];
            sinertia_mulv(&B->IA, B->c, Iac);
            for (int k = 0; k < 6; k++) pa[k] = B->pA[k] + Iac[k] + B->U[k] * Du;
        } else if (B->nv > 1) { /* pa = pA + Ia c + U D^-1 u */
            double Iac[6], Du[3] = { B->u[0], B->u[1], B->u[2] };
            sinertia_mulv(&B->IA, B->c, Iac);
            spd_cholesky_solve(B->nv, B->L, Du);
            for (int k = 0; k < 6; k++) pa[k] = B->pA[k] + Iac[k];
            for (int j = 0; j < B->nv; j++)
                for (int k = 0; k < 6; k++) pa[k] += B->Uc[j][k] * Du[j];
        } else {
            memcpy(pa, B->pA, sizeof pa); /* fixed: c = 0, no U */
        }
        sxform_tforce(&B->X, pa, Xtpa);
        double *pp = ws->b[B->parent].pA;
        for (int k = 0; k < 6; k++) pp[k] += Xtpa[k];
    }
    for (int i = 0; i < ws->nb; i++) {
        aba_body *B = &ws->b[i];
        double *a = B->a;
        sxform_motion(&B->X, B->parent < 0 ? a0 : ws->b[B->parent].a, a);
        for (int k = 0; k < 6; k++) a[k] += B->c[k]; /* a' = X a_lambda + c */
        if (B->nv == 1) {
            double x = B->Dinv * (B->u[0] - v6_dot(B->U, a)); /* qdd = D^-1 (u - U^T a') */
            qdd[B->vidx] = x;
            for (int k = 0; k < 3; k++) a[B->off + k] += B->s[k] * x; /* a = a' + S qdd */
        } else if (B->nv > 1 && B->nv < 6) {                          /* qdd = D^-1 (u - U^T a'), a = a' + S qdd */
            double x[3];
            for (int j = 0; j < B->nv; j++) x[j] = B->u[j] - v6_dot(B->Uc[j], a);
            spd_cholesky_solve(B->nv, B->L, x);
            for (int j = 0; j < B->nv; j++) {
                qdd[B->vidx + j] = x[j];
                for (int k = 0; k < 6; k++) a[k] += B->S[j][k] * x[j];
            }
        } else if (B->nv == 6) {
            double x[6] = { B->u[0], B->u[1], B->u[2], B->u[3], B->u[4], B->u[5] };
            spd_cholesky_solve(6, B->L, x); /* qdd = IA^-1 u - a' */
            for (int k = 0; k < 6; k++) {
                qdd[B->vidx + k] = x[k] - a[k];
                a[k] = x[k];
            }
        }
    }
}

void aba_fd(const mech_model *m, aba_ws *ws, const double *q, const double *qd, const double *tau, const double *fext,
            double *qdd)
{
    aba_factor(m, ws, q);
    aba_solve(m, ws, m->gravity, qd, tau, fext, qdd);
}

void aba_engine_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    aba_engine *e = ctx;
    aba_fd(e->m, e->ws, q, qd, tau, fext, qdd);
}

/* The columns F = IC S of body i's joint (nv of them, 6 each). */
static void composite_columns(const aba_body *B, double F[6][6])
{
    if (B->nv == 1) sinertia_mul_axis(&B->IC, B->off, B->s, F[0]);
    else if (B->nv == 6) { /* S = 1: F = IC, its columns its rows (symmetric) */ double M[36];
        sinertia_full(&B->IC, M);
        for (int k = 0; k < 6; k++) memcpy(F[k], M + 6 * k, sizeof F[k]);
    } else
        for (int k = 0; k < B->nv; k++) sinertia_mulv(&B->IC, B->S[k], F[k]);
}

/* S_jᵀ f for body j's joint, its nv values into out. */
static void subspace_dot(const aba_body *B, const double f[6], double *out)
{
    if (B->nv == 1) out[0] = v3_dot(B->s, f + B->off);
    else if (B->nv == 6) memcpy(out, f, 6 * sizeof *out);
    else
        for (int k = 0; k < B->nv; k++) out[k] = v6_dot(B->S[k], f);
}

/* RBDA Table 6.2 in the efficient forms: IC_i = I_i + Σ children λX*_c IC_c cX_λ,
 * then per joint F = IC_i S_i, H_ii = S_iᵀ F (+ rotor), and up the chain
 * F = jX*_λ F, H_ij = S_jᵀ F.  The rotor terms are the ones aba_factor
 * adds to D (armature, an implicit step's h D), so H is what ABA inverts. */
void aba_mass_matrix(const mech_model *m, aba_ws *ws, const double *q, double *H)
{
    const int nv = m->nv;
    transforms(m, ws, q);
    memset(H, 0, (size_t)nv * (size_t)nv * sizeof *H);
    for (int i = 0; i < ws->nb; i++) sinertia_copy(&ws->b[i].I, &ws->b[i].IC);
    for (int i = ws->nb - 1; i >= 0; i--) {
        aba_body *B = &ws->b[i];
        if (B->parent >= 0) sinertia_tcongruence_add(&B->X, &B->IC, &ws->b[B->parent].IC);
        if (!B->nv) continue;
        double F[6][6], col[6];
        composite_columns(B, F);
        for (int k = 0; k < B->nv; k++) {
            const int r = B->vidx + k;
            subspace_dot(B, F[k], col);
            for (int c = 0; c < B->nv; c++) H[(size_t)r * nv + B->vidx + c] = col[c];
        }
        if (B->nv == 1) H[(size_t)B->vidx * nv + B->vidx] += m->bodies[i].armature + ws->h * B->damping;
        else if (B->nv < 6)
            for (int k = 0; k < B->nv; k++) H[(size_t)(B->vidx + k) * nv + B->vidx + k] += m->bodies[i].armature;
        for (int j = i; ws->b[j].parent >= 0;) {
            const aba_body *Bj = &ws->b[j];
            for (int k = 0; k < B->nv; k++) {
                double t[6];
                sxform_tforce(&Bj->X, F[k], t);
                memcpy(F[k], t, sizeof t);
            }
            j = Bj->parent;
            const aba_body *P = &ws->b[j];
            for (int k = 0; k < B->nv; k++) {
                subspace_dot(P, F[k], col);
                for (int c = 0; c < P->nv; c++)
                    H[(size_t)(B->vidx + k) * nv + P->vidx + c] = H[(size_t)(P->vidx + c) * nv + B->vidx + k] = col[c];
            }
        }
    }
}
