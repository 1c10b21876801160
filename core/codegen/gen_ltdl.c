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

/* Table 6.4, extended to fixed and floating joints as described above. */
static int expand_parents(gen *g, int *body_of)
{
    const mech_model *m = g->m;
    int *last = malloc((size_t)m->nb * sizeof *last); /* last coordinate at or above body i */
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

void gen_half_solve(gen *g, ex *x)
{
    int n = g->m->nv;
    for (int i = n - 1; i >= 0; i--)
        for (int j = g->lambda[i]; j >= 0; j = g->lambda[j]) x[j] = ex_fms(&g->p, x[j], g->H[i * n + j], x[i]);
}

int gen_ltdl(gen *g)
{
    int n = g->m->nv;
    ex_pool *p = &g->p;
    ex *H = g->H, *x = g->qdd;
    const int *lambda = g->lambda;
    int *body_of = malloc((size_t)(n ? n : 1) * sizeof *body_of);
    ex *dinv = malloc((size_t)(n ? n : 1) * sizeof *dinv);
    if (!body_of || !dinv) {
        free(body_of);
        free(dinv);
        return gen_fail(g, 0, "out of memory");
    }
    if (expand_parents(g, body_of) || check_pattern(g, body_of)) {
        free(body_of);
        free(dinv);
        return -1;
    }

    /* Table 6.3 (L^T D L), in place: for k = n-1 .. 0 and each ancestor i of k,
     * a = H_ki / H_kk; H_ij -= a H_kj for j = i, lambda(i), ...; H_ki = a. */
    g->section[SEC_LTDL] = p->n;
    /* On a serial stretch — k's parent in lambda is j = k - 1 and k is j's
     * only child — j's pivot inverse is formed one step early from the
     * trailing 2x2 block, 1/D_j = D_k / N_j with N_j = H_jj D_k - H_kj^2, so
     * that it does not wait for 1/D_k: consecutive divisions overlap in pairs
     * instead of forming one chain (elbow: five divisions in series -> three).
     * The pivot itself is then D_j = N_j (1/D_k), from the same N_j and the
     * 1/D_k that k's multipliers used, not H_jj - (H_kj / D_k) H_kj: with the
     * latter, 1/D_j and D_j would each be rounded from a different 1/D_k,
     * and D_j (1/D_j) - 1 would grow by the factor H_kj^2 / (D_k D_j) at every
     * link — geometrically along a long chain whose pivots cancel (a band of
     * shoes curled around its rollers: 1e-5 relative error at 16 links, NaN
     * at 32).  With one N_j for both, the error only adds up, a rounding per
     * link.  Where j has other children, H_jj is the late input and the early
     * form would only add a product to the chain. */
    ex *early = calloc((size_t)(n ? n : 1), sizeof *early);
    int *nchild = calloc((size_t)(n ? n : 1), sizeof *nchild);
    if (!early || !nchild) {
        free(early);
        free(nchild);
        free(body_of);
        free(dinv);
        return gen_fail(g, 0, "out of memory");
    }
    for (int k = 0; k < n; k++)
        if (lambda[k] >= 0) nchild[lambda[k]]++;
    for (int k = n - 1; k >= 0; k--) {
        dinv[k] = ex_div(p, p->one, H[k * n + k]);
        if (early[k] && p->nodes[dinv[k]].op != EX_CONST) dinv[k] = early[k];
        int serial = k > 0 && lambda[k] == k - 1 && nchild[k - 1] == 1;
        ex N = p->zero;
        if (serial) {
            int j = k - 1;
            N = ex_fms(p, ex_mul(p, H[j * n + j], H[k * n + k]), H[k * n + j], H[k * n + j]);
            early[j] = ex_div(p, H[k * n + k], N);
        }
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            ex a = ex_mul(p, H[k * n + i], dinv[k]);
            for (int j = i; j >= 0; j = lambda[j]) H[i * n + j] = ex_fms(p, H[i * n + j], a, H[k * n + j]);
            H[k * n + i] = a;
            gen_name(g, a, "L_%d_%d", k, i);
        }
        /* A constant pivot keeps its folded inverse (above), so the early form and this D_j go together. */
        if (serial && p->nodes[H[(k - 1) * n + k - 1]].op != EX_CONST) H[(k - 1) * n + k - 1] = ex_mul(p, N, dinv[k]);
        gen_name(g, H[k * n + k], "D_%d", k);
        gen_name(g, dinv[k], "Dinv_%d", k);
    }
    free(early);
    free(nchild);

    /* Table 6.5: H x = b with b = tau + tau_e - C, as x = L^-1 D^-1 L^-T b;
     * with loops, method 2 (sec 8.5) between the two halves. */
    g->section[SEC_SOLVE] = p->n;
    /* C_i, whose RNEA backward pass ends last at the root, is subtracted
     * last: just before x_i is carried up (the same operations as
     * b = tau + tau_e - C followed by gen_half_solve). */
    for (int i = 0; i < n; i++) x[i] = ex_add(p, gen_input(g, EX_IN_TAU, i), g->tau_e[i]);
    for (int i = n - 1; i >= 0; i--) {
        x[i] = ex_sub(p, x[i], g->C[i]);
        for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] = ex_fms(p, x[j], H[i * n + j], x[i]);
    }
    for (int i = 0; i < n; i++) gen_name(g, x[i], "u_%d", i);
    g->section[SEC_CONSTRAINT] = p->n; /* empty without loops */
    if (g->m->nc > 0) {
        ex *d = malloc((size_t)n * sizeof *d);
        for (int i = 0; d && i < n; i++) d[i] = H[i * n + i];
        int rc = d ? gen_method2(g, gen_half_solve, d, dinv, x) : gen_fail(g, 0, "out of memory");
        free(d);
        if (rc != 0) {
            free(body_of);
            free(dinv);
            return -1;
        }
    }
    g->section[SEC_BACKSUB] = p->n;
    for (int i = 0; i < n; i++) x[i] = ex_mul(p, x[i], dinv[i]);
    /* x_i -= L_ij x_j over the ancestors from the root down, so the nearest
     * ancestor's x_j, the last to be ready, comes last: one product and one
     * subtraction per level of the back-substitution chain instead of one
     * per ancestor. */
    for (int i = 0; i < n; i++) {
        int anc[64], c = 0;
        for (int j = lambda[i]; j >= 0 && c < 64; j = lambda[j]) anc[c++] = j;
        if (c == 64) { /* deeper than 64: plain order */
            for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] = ex_fms(p, x[i], H[i * n + j], x[j]);
            continue;
        }
        while (c-- > 0) x[i] = ex_fms(p, x[i], H[i * n + anc[c]], x[anc[c]]);
    }
    for (int i = 0; i < n; i++) gen_name(g, x[i], "qdd_%d", i);
    free(body_of);
    free(dinv);
    return 0;
}
