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
    gen_half_solve(g, x);
    if (g->m->nc > 0 && gen_method2(g, dinv, x) != 0) {
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
