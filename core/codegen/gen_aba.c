/* gen_aba.c — qdd = H^-1 (tau + tau_e - C) by the articulated-body algorithm
 * (RBDA Table 7.1), in O(n) operations and without ever forming H.
 *
 * Table 7.1 splits into what depends on q alone and what each right-hand side
 * adds.  gen_aba_factor is the first: pass 2's articulated inertias
 *
 *   U_i = I^A_i S_i,  D_i = S_i^T U_i,  I^a_i = I^A_i - U_i D_i^-1 U_i^T,
 *   I^A_lambda(i) += lambda_X_i^* I^a_i i_X_lambda       (Table 7.1, second loop)
 *
 * from I^A_i = I_i (the inertias gen_kinematics regrouped: H is unchanged).
 * A right-hand side b (a generalized force) then takes pass 2's force half and
 * pass 3, at qd = 0 without gravity (c_i = 0, p^A_i = 0 at the start):
 *
 *   backward  u_i = b_i - S_i^T p_i,  p_lambda(i) += lambda_X_i^* (p_i + U_i D_i^-1 u_i)
 *   forward   qdd_i = D_i^-1 (u_i - U_i^T a'_i),  a'_i = i_X_lambda a_lambda(i),
 *             a_i = a'_i + S_i qdd_i                     (Table 7.1, second and third loops)
 *
 * which is H^-1 b.  The velocity, gravity and fext terms that Table 7.1
 * carries in c_i and p^A_i reach it instead through b = tau + tau_e - C, C by
 * the RNEA (gen_rnea), so every right-hand side — this one and the loop
 * columns K_r^T of method 2 — goes through the same two passes on the one
 * factorization.  The backward pass is the first half of a solve,
 * H^-1 = B^T D^-1 B with B unit upper triangular (a multi-freedom joint's block
 * D_i split by its own L^T D L into scalar pivots): by the uniqueness of that
 * factorization B = L^-T and the pivots are those of gen_ltdl, so method 2
 * (gen_method2.c) runs on it unchanged. */
#include "codegen/gen.h"

#include <stdlib.h>

/* Per body: U_i's columns and, for a joint of several freedoms, the unit
 * lower factor of its D_i block (row-major nv x nv; its coordinates chain as
 * in gen_ltdl's expanded parent array) and W_i = U_i L_i^-1. */
typedef struct gen_aba {
    sv6 (*U)[6], (*W)[6];
    ex (*L)[36];
    ex *d, *dinv; /* nv: scalar pivots and their inverses            */
    sv6 *p, *a;   /* nb: scratch of the passes                       */
} gen_aba;

void gen_aba_free(gen *g)
{
    if (!g->aba) return;
    free(g->aba->U);
    free(g->aba->W);
    free(g->aba->L);
    free(g->aba->d);
    free(g->aba->dinv);
    free(g->aba->p);
    free(g->aba->a);
    free(g->aba);
    g->aba = NULL;
}

/* i_X_lambda^T I^a i_X_lambda in its two sparse factors, xj then xt. */
static sartic up_articulated(gen *g, int i, sartic Ia)
{
    sartic J = sa_transform(&g->p, &Ia, g->b[i].xj);
    return sa_transform(&g->p, &J, g->b[i].xt);
}

/* The index k when S is +-e_k (a joint about or along a coordinate axis), else -1. */
static int unit_axis(const ex_pool *p, sv6 S)
{
    int k = -1;
    for (int c = 0; c < 6; c++)
        if (S.e[c] != p->zero) {
            if (k >= 0) return -1;
            k = c;
        }
    return k;
}

/* D = L^T diag(d) L in place for a symmetric n x n block (lower triangle
 * read), eliminating its last coordinate first (RBDA Table 6.3 on a chain). */
static void block_ltdl(ex_pool *p, ex *D, int n, ex *d, ex *dinv)
{
    for (int k = n - 1; k >= 0; k--) {
        dinv[k] = ex_div(p, p->one, D[k * n + k]);
        for (int i = k - 1; i >= 0; i--) {
            ex a = ex_mul(p, D[k * n + i], dinv[k]);
            for (int j = i; j >= 0; j--) D[i * n + j] = ex_fms(p, D[i * n + j], a, D[k * n + j]);
            D[k * n + i] = a;
        }
        d[k] = D[k * n + k];
    }
}

/* x <- L^-T x and x <- L^-1 x for a block's unit lower factor (Table 6.5). */
static void block_half(ex_pool *p, const ex *L, int n, ex *x)
{
    for (int i = n - 1; i >= 0; i--)
        for (int j = i - 1; j >= 0; j--) x[j] = ex_fms(p, x[j], L[i * n + j], x[i]);
}

static void block_back(ex_pool *p, const ex *L, int n, ex *x)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) x[i] = ex_fms(p, x[i], L[i * n + j], x[j]);
}

/* I^a = I^A - U D^-1 U^T for a joint of n > 1 freedoms below another body:
 * with D = L^T diag(d) L, U D^-1 U^T = sum_k W_k W_k^T / d_k for W = U L^-1
 * (W L = U, solved from the last column).  The rows and columns of the axes
 * e_k among S's columns are zero outright (I^a S = 0), unless armature. */
static void articulated_block(gen *g, int i, const sartic *IAi, sartic *Ia)
{
    const mech_body *b = &g->m->bodies[i];
    ex_pool *p = &g->p;
    gen_aba *f = g->aba;
    int n = b->nv, zero[6] = { 0 };
    const ex *L = f->L[i];
    sv6 *W = f->W[i];
    for (int j = n - 1; j >= 0; j--) {
        W[j] = f->U[i][j];
        for (int k = j + 1; k < n; k++) W[j] = sv_sub(p, W[j], sv_scale(p, W[k], L[k * n + j]));
        int k = b->armature == 0.0 ? unit_axis(p, g->b[i].S[j]) : -1;
        if (k >= 0) zero[k] = 1;
    }
    for (int r = 0; r < 6; r++)
        for (int c = 0; c <= r; c++) {
            ex e = IAi->M[6 * r + c];
            for (int k = 0; k < n && !zero[r] && !zero[c]; k++)
                e = ex_fms(p, e, ex_mul(p, W[k].e[r], f->dinv[b->vidx + k]), W[k].e[c]);
            Ia->M[6 * r + c] = Ia->M[6 * c + r] = zero[r] || zero[c] ? p->zero : e;
        }
}

int gen_aba_factor(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    size_t nb = (size_t)m->nb, nv = (size_t)(m->nv ? m->nv : 1);
    gen_aba *f = calloc(1, sizeof *f);
    sartic *IA = malloc(nb * sizeof *IA);
    g->aba = f;
    if (f) {
        f->U = malloc(nb * sizeof *f->U);
        f->W = malloc(nb * sizeof *f->W);
        f->L = malloc(nb * sizeof *f->L);
        f->d = malloc(nv * sizeof *f->d);
        f->dinv = malloc(nv * sizeof *f->dinv);
        f->p = malloc(nb * sizeof *f->p);
        f->a = malloc(nb * sizeof *f->a);
    }
    if (!f || !IA || !f->U || !f->W || !f->L || !f->d || !f->dinv || !f->p || !f->a) {
        free(IA);
        return gen_fail(g, 0, "out of memory");
    }
    g->section[SEC_CRBA] = p->n;
    for (int i = 0; i < m->nb; i++) IA[i] = sa_from_inertia(p, g->b[i].I);
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        const gen_body *gb = &g->b[i];
        int n = b->nv;
        sartic Ia = IA[i];
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) gen_name(g, IA[i].M[6 * r + c], "IA%d_%d%d", i, r < c ? r : c, r < c ? c : r);
        if (n > 0) {
            ex D[36], *d = f->d + b->vidx, *dinv = f->dinv + b->vidx;
            for (int k = 0; k < n; k++) f->U[i][k] = sa_apply(p, &IA[i], gb->S[k]); /* U = I^A S */
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) D[r * n + c] = sv_dot(p, gb->S[r], f->U[i][c]); /* D = S^T U */
            if (n == 1) D[0] = ex_add(p, D[0], gen_rotor(g, b)); /* + rotor inertia (and h D) */
            else if (b->armature != 0.0)
                for (int k = 0; k < n; k++) D[k * n + k] = ex_add(p, D[k * n + k], ex_const(p, b->armature));
            block_ltdl(p, D, n, d, dinv);
            for (int k = 0; k < n * n; k++) f->L[i][k] = D[k];
            for (int k = 0; k < n; k++) {
                gen_name(g, d[k], "D_%d", b->vidx + k);
                gen_name(g, dinv[k], "Dinv_%d", b->vidx + k);
                gen_name_sv6(g, f->U[i][k], 0, "U%d", b->vidx + k);
            }
        }
        if (b->parent < 0) continue;
        /* I^a = I^A - U D^-1 U^T = I^A - U (U / D)^T, with the row and column of
         * an axis e_k zero outright (I^a S = U - U D^-1 D = 0) unless the joint
         * has armature (then D != S^T U); a fixed joint passes I^A on whole. */
        if (n == 1) {
            sv6 U = f->U[i][0], w = sv_scale(p, U, f->dinv[b->vidx]);
            int k = gen_rotor(g, b) == p->zero ? unit_axis(p, gb->S[0]) : -1;
            for (int r = 0; r < 6; r++)
                for (int c = 0; c <= r; c++) {
                    ex e = r == k || c == k ? p->zero : ex_fms(p, IA[i].M[6 * r + c], w.e[r], U.e[c]);
                    Ia.M[6 * r + c] = Ia.M[6 * c + r] = e;
                }
        } else if (n > 1) {
            articulated_block(g, i, &IA[i], &Ia);
        }
        IA[b->parent] = sa_add(p, IA[b->parent], up_articulated(g, i, Ia));
    }
    free(IA);
    return 0;
}

/* x <- B x: pass 2's force half at qd = 0 without gravity (RBDA Table 7.1),
 * from the leaves; a multi-freedom joint's u_i leaves through L_i^-T. */
static void aba_backward(gen *g, ex *x)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    gen_aba *f = g->aba;
    for (int i = 0; i < m->nb; i++) f->p[i] = sv_zero(p);
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        const gen_body *gb = &g->b[i];
        ex *u = x + b->vidx;
        int zero = 1; /* nothing in, nothing out: a loop's row costs only the bodies it reaches */
        for (int k = 0; k < 6; k++) zero &= f->p[i].e[k] == p->zero;
        for (int k = 0; k < b->nv; k++) zero &= u[k] == p->zero;
        if (zero) continue;
        for (int k = 0; k < b->nv; k++) u[k] = ex_sub(p, u[k], sv_dot(p, gb->S[k], f->p[i])); /* u = b - S^T p */
        if (b->nv > 1) block_half(p, f->L[i], b->nv, u); /* a multi-freedom joint's u through L^-T */
        if (b->parent < 0) continue;
        sv6 pa = f->p[i]; /* p^a = p + U D^-1 u = p + sum_k W_k u'_k / d_k, u' = L^-T u */
        if (b->nv == 1) pa = sv_add(p, pa, sv_scale(p, f->U[i][0], ex_mul(p, u[0], f->dinv[b->vidx])));
        for (int k = 0; k < b->nv && b->nv > 1; k++)
            pa = sv_add(p, pa, sv_scale(p, f->W[i][k], ex_mul(p, u[k], f->dinv[b->vidx + k])));
        f->p[b->parent] = sv_add(p, f->p[b->parent], gen_up_transpose_force(g, i, pa));
    }
}

/* qdd = B^T D^-1 x: pass 3 from the root, a'_i = i_X_lambda a_lambda(i) with a = 0
 * at the base, qdd_i = D_i^-1 (u_i - U_i^T a'_i), a_i = a'_i + S_i qdd_i. */
static void aba_forward(gen *g, const ex *x, ex *qdd)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    gen_aba *f = g->aba;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const gen_body *gb = &g->b[i];
        int n = b->nv;
        sv6 a = b->parent < 0 ? sv_zero(p) : gen_up_motion(g, i, f->a[b->parent]);
        ex t[6];
        for (int k = 0; k < n; k++) t[k] = sv_dot(p, f->U[i][k], a);
        if (n > 1) block_half(p, f->L[i], n, t);
        for (int k = 0; k < n; k++) qdd[b->vidx + k] = ex_mul(p, ex_sub(p, x[b->vidx + k], t[k]), f->dinv[b->vidx + k]);
        if (n > 1) block_back(p, f->L[i], n, qdd + b->vidx);
        for (int k = 0; k < n; k++) a = sv_add(p, a, sv_scale(p, gb->S[k], qdd[b->vidx + k]));
        f->a[i] = a;
        gen_name_sv6(g, a, 0, "acc%d", i);
    }
}

int gen_aba_solve(gen *g)
{
    int n = g->m->nv;
    ex_pool *p = &g->p;
    ex *x = malloc((size_t)(n ? n : 1) * sizeof *x);
    if (!x) return gen_fail(g, 0, "out of memory");
    g->section[SEC_LTDL] = p->n; /* nothing to factor here */
    g->section[SEC_SOLVE] = p->n;
    for (int i = 0; i < n; i++) x[i] = ex_sub(p, ex_add(p, gen_input(g, EX_IN_TAU, i), g->tau_e[i]), g->C[i]);
    aba_backward(g, x);
    for (int i = 0; i < n; i++) gen_name(g, x[i], "u_%d", i);
    g->section[SEC_CONSTRAINT] = p->n;
    if (g->m->nc > 0 && gen_method2(g, aba_backward, g->aba->d, g->aba->dinv, x) != 0) {
        free(x);
        return -1;
    }
    g->section[SEC_BACKSUB] = p->n;
    aba_forward(g, x, g->qdd);
    for (int i = 0; i < n; i++) gen_name(g, g->qdd[i], "qdd_%d", i);
    free(x);
    return 0;
}
