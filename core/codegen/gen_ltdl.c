/* gen_ltdl.c — qdd = H^-1 (tau - C) by Featherstone's sparse L^T D L
 * factorization (RBDA sec 6.5).
 *
 * The expanded parent array lambda (Table 6.4) is the parent relation over
 * velocity coordinates: a body's first coordinate points at the last
 * coordinate of its nearest ancestor that has one (fixed joints have none),
 * and the coordinates within a multi-DOF body chain.  L then has exactly H's
 * sparsity pattern — zero fill-in — and walking lambda visits only the
 * nonzeros, so branch-induced zeros are never touched.  L is unit lower
 * triangular: no square roots, and each pivot is inverted once. */
#include "codegen/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table 6.4, extended to fixed and floating joints as described above. */
static int expand_parents(gen *g, int *body_of)
{
    const mech_model *m = g->m;
    int *last = malloc((size_t)m->nb * sizeof *last);   /* last coordinate at or above body i */
    if (!last) return gen_fail(g, 0, "out of memory");
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        int above = b->parent < 0 ? -1 : last[b->parent];
        for (int k = 0; k < b->nv; k++) {
            g->lambda[b->vidx + k] = k == 0 ? above : b->vidx + k - 1;
            body_of[b->vidx + k] = i;
        }
        last[i] = b->nv > 0 ? b->vidx + b->nv - 1 : above;
    }
    free(last);
    return 0;
}

/* The sparsity lambda implies must be the one the CRBA produced, on every
 * (i, j) pair: otherwise the factorization would skip a nonzero or fill in. */
static int check_pattern(gen *g, const int *body_of)
{
    int n = g->m->nv;
    unsigned char *anc = calloc((size_t)n * (size_t)(n ? n : 1), 1);
    if (!anc) return gen_fail(g, 0, "out of memory");
    for (int i = 0; i < n; i++)
        for (int j = i; j >= 0; j = g->lambda[j]) anc[i * n + j] = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            if (anc[i * n + j] != g->Hpat[i * n + j]) {
                const mech_body *bi = &g->m->bodies[body_of[i]], *bj = &g->m->bodies[body_of[j]];
                free(anc);
                return gen_fail(g, bi->line,
                                "internal error: H(%d,%d) (bodies '%s' and '%s') is %s by the CRBA but %s by the "
                                "expanded parent array",
                                i, j, bi->name, bj->name, g->Hpat[i * n + j] ? "written" : "not written",
                                anc[i * n + j] ? "expected" : "not expected");
            }
    free(anc);
    return 0;
}

/* x <- L^-T x: each coordinate's value carried up its ancestors. */
static void half_solve(ex_pool *p, const ex *L, const int *lambda, int n, ex *x)
{
    for (int i = n - 1; i >= 0; i--)
        for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] = ex_fms(p, x[j], L[i * n + j], x[i]);
}

/* Method 2 (RBDA sec 8.5) on the factor H = L^T D L, with u = L^-T b in x:
 *   z_r = L^-T K_r^T                      (as sparse as K_r's ancestors)
 *   A   = K H^-1 K^T,  A_rs = sum_i z_ri z_si / D_i
 *   A lambda = k + kstab - K H^-1 b,  (K H^-1 b)_r = sum_i z_ri u_i / D_i
 *   x  <- u + sum_r z_r lambda_r           (= L^-T (b + K^T lambda))
 * so one factorization serves all 1 + nc right-hand sides and only the
 * nc x nc system A is solved densely, by an unpivoted L D L^T (A is
 * symmetric positive definite when rank(K) = nc). */
static int constraint_solve(gen *g, const ex *dinv, ex *x)
{
    ex_pool *p = &g->p;
    int n = g->m->nv, nc = g->m->nc;
    ex *z = malloc((size_t)nc * (size_t)n * sizeof *z), *A = malloc((size_t)nc * (size_t)nc * sizeof *A);
    ex *lam = malloc((size_t)nc * sizeof *lam), *ad = malloc((size_t)nc * sizeof *ad);
    if (!z || !A || !lam || !ad) {
        free(z); free(A); free(lam); free(ad);
        return gen_fail(g, 0, "out of memory");
    }
    g->section[SEC_CONSTRAINT] = p->n;
    for (int r = 0; r < nc; r++) {
        ex *zr = z + (size_t)r * n;
        memcpy(zr, g->K + (size_t)r * n, (size_t)n * sizeof *zr);
        half_solve(p, g->H, g->lambda, n, zr);
        lam[r] = g->kc[r];
        for (int i = 0; i < n; i++) lam[r] = ex_fms(p, lam[r], ex_mul(p, zr[i], dinv[i]), x[i]);
        for (int s = 0; s <= r; s++) {
            const ex *zs = z + (size_t)s * n;
            ex a = p->zero;
            for (int i = 0; i < n; i++) a = ex_fma(p, a, ex_mul(p, zr[i], dinv[i]), zs[i]);
            A[r * nc + s] = a;
        }
    }
    /* A = L D L^T, L unit lower triangular: t_ij = A_ij - sum_k<j t_ik L_jk
     * (t_ij = L_ij D_j), D_j = t_jj, L_ij = t_ij / D_j.  Column j done, the
     * lower triangle holds L_ij and the upper A[j][i] keeps t_ij. */
    for (int j = 0; j < nc; j++) {
        for (int i = j; i < nc; i++)
            for (int k = 0; k < j; k++) A[i * nc + j] = ex_fms(p, A[i * nc + j], A[k * nc + i], A[j * nc + k]);
        ad[j] = ex_div(p, p->one, A[j * nc + j]);
        for (int i = j + 1; i < nc; i++) {
            ex t = A[i * nc + j];
            A[i * nc + j] = ex_mul(p, t, ad[j]);
            A[j * nc + i] = t;
        }
    }
    /* L y = rhs, y /= D, L^T lambda = y. */
    for (int i = 0; i < nc; i++)
        for (int k = 0; k < i; k++) lam[i] = ex_fms(p, lam[i], A[i * nc + k], lam[k]);
    for (int i = 0; i < nc; i++) lam[i] = ex_mul(p, lam[i], ad[i]);
    for (int i = nc - 1; i >= 0; i--)
        for (int k = i + 1; k < nc; k++) lam[i] = ex_fms(p, lam[i], A[k * nc + i], lam[k]);
    for (int r = 0; r < nc; r++)
        for (int i = 0; i < n; i++) x[i] = ex_fma(p, x[i], z[(size_t)r * n + i], lam[r]);
    free(z); free(A); free(lam); free(ad);
    return 0;
}

int gen_ltdl(gen *g)
{
    int n = g->m->nv;
    ex_pool *p = &g->p;
    ex *H = g->H, *x = g->qdd;
    const int *lambda = g->lambda;
    int *body_of = malloc((size_t)(n ? n : 1) * sizeof *body_of);
    ex *dinv = malloc((size_t)(n ? n : 1) * sizeof *dinv);
    if (!body_of || !dinv) { free(body_of); free(dinv); return gen_fail(g, 0, "out of memory"); }
    if (expand_parents(g, body_of) || check_pattern(g, body_of)) { free(body_of); free(dinv); return -1; }

    /* Table 6.3 (L^T D L), in place: for k = n-1 .. 0 and each ancestor i of k,
     * a = H_ki / H_kk; H_ij -= a H_kj for j = i, lambda(i), ...; H_ki = a. */
    g->section[SEC_LTDL] = p->n;
    for (int k = n - 1; k >= 0; k--) {
        dinv[k] = ex_div(p, p->one, H[k * n + k]);
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            ex a = ex_mul(p, H[k * n + i], dinv[k]);
            for (int j = i; j >= 0; j = lambda[j]) H[i * n + j] = ex_fms(p, H[i * n + j], a, H[k * n + j]);
            H[k * n + i] = a;
        }
    }

    /* Table 6.5: H x = b with b = tau + tau_e - C, as x = L^-1 D^-1 L^-T b;
     * with loops, method 2 (sec 8.5) between the two halves. */
    g->section[SEC_SOLVE] = p->n;
    for (int i = 0; i < n; i++) x[i] = ex_sub(p, ex_add(p, gen_input(g, "tau", i), g->tau_e[i]), g->C[i]);
    half_solve(p, H, lambda, n, x);
    if (g->m->nc > 0 && constraint_solve(g, dinv, x) != 0) {
        free(body_of);
        free(dinv);
        return -1;
    }
    g->section[SEC_BACKSUB] = p->n;
    for (int i = 0; i < n; i++) x[i] = ex_mul(p, x[i], dinv[i]);
    for (int i = 0; i < n; i++)
        for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] = ex_fms(p, x[i], H[i * n + j], x[j]);
    free(body_of);
    free(dinv);
    return 0;
}
