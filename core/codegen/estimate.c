/* estimate.c — see estimate.h.  The terms follow the algorithms' operation
 * counts (RBDA sec 6.3 and 7.3 for the tree, sec 8.5 for method 2), each
 * weighted by a factor fitted to mechgen's counts on the shipped models and
 * on generated chains with loops (tests/codegen/test_estimate.c checks the
 * estimate against the actual size within ESTIMATE_FACTOR):
 *
 *   tree, articulated-body    a per body and per velocity coordinate
 *   tree, CRBA + L^T D L      per entry of H (a coordinate and an ancestor's)
 *                             and per product of the factor (two ancestors)
 *   loops, z_r = B K_r^T      per row and coordinate it reaches (the CRBA's
 *                             back substitution: per ancestor of those)
 *   loops, A = K H^-1 K^T     per pair of rows and coordinate both reach
 *   loops, A lambda = rhs     per group of loops meeting in some coordinate:
 *                             rows^3 / 6 (a dense L D L^T, the block-arrow
 *                             solve's worst case)
 *
 * The generator keeps the cheaper algorithm, and so does the estimate. */
#include "codegen/estimate.h"

#include "codegen/emit_wasm.h"

#include <stdio.h>
#include <stdlib.h>

/* Operations per term (fitted; see above). */
#define OPS_ABA_BODY 60.0
#define OPS_ABA_DOF 120.0
#define OPS_CRBA_ENTRY 25.0
#define OPS_LTDL_PRODUCT 2.0
#define OPS_Z_ABA 20.0
#define OPS_Z_CRBA 2.0
#define OPS_A_PAIR 2.0
#define OPS_SOLVE 1.0
/* Bytes: of the C source (the three copies, own gravity, any gravity and the
 * gravity shift, with named temporaries, and the file's fixed part) and of the
 * largest WebAssembly function (the own copy, plus the module's fixed part). */
#define C_BYTES_FIXED 6000.0
#define C_BYTES_PER_OP 72.0
#define WASM_BYTES_FIXED 3000.0
#define WASM_BYTES_PER_OP 15.0

/* The lowest common ancestor of bodies a and b (-1: the base). */
static int common_ancestor(const mech_model *m, const int *depth, int a, int b)
{
    while (a != b) {
        if (a < 0 || b < 0) return -1;
        if (depth[a] >= depth[b]) a = m->bodies[a].parent;
        else b = m->bodies[b].parent;
    }
    return a;
}

/* The top-level body above body i (its ancestor whose parent is the base), or -1 for the base. */
static int top_of(const mech_model *m, int i)
{
    while (i >= 0 && m->bodies[i].parent >= 0) i = m->bodies[i].parent;
    return i;
}

static int find(int *parent, int i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

gen_estimate gen_estimate_size(const mech_model *m)
{
    gen_estimate e = { 0 };
    int nb = m->nb;
    /* depth[i]: velocity coordinates from the base to body i inclusive */
    int *depth = calloc((size_t)(nb ? nb : 1), sizeof *depth);
    double *rows = calloc((size_t)(nb ? nb : 1), sizeof *rows);   /* loop rows reaching body i's coordinates */
    double *group = calloc((size_t)(nb ? nb : 1), sizeof *group); /* rows per group, at its root */
    int *uf = malloc((size_t)(nb ? nb : 1) * sizeof *uf);
    if (!depth || !rows || !group || !uf) {
        e.ops = 1e300; /* no memory to estimate in: refused */
        goto done;
    }
    double aba = 0, crba = 0, z_aba = 0, z_crba = 0, pairs = 0, solve = 0;
    for (int i = 0; i < nb; i++) {
        const mech_body *b = &m->bodies[i];
        int up = b->parent >= 0 ? depth[b->parent] : 0;
        depth[i] = up + b->nv;
        uf[i] = i;
        aba += OPS_ABA_BODY + OPS_ABA_DOF * b->nv;
        crba += OPS_CRBA_ENTRY * (double)b->nv * depth[i] + OPS_LTDL_PRODUCT * (double)b->nv * up * up / 2;
    }
    for (int l = 0; l < m->nloop; l++) {
        const mech_loop *L = &m->loops[l];
        int lca = common_ancestor(m, depth, L->pred, L->succ);
        double reach =
            (L->pred >= 0 ? depth[L->pred] : 0) + (L->succ >= 0 ? depth[L->succ] : 0) - (lca >= 0 ? depth[lca] : 0);
        z_aba += L->nc * reach;
        z_crba += L->nc * reach * reach / 2;
        /* rows[] as subtree sums: a row reaches the coordinates of every ancestor of pred or succ */
        if (L->pred >= 0) rows[L->pred] += L->nc;
        if (L->succ >= 0) rows[L->succ] += L->nc;
        if (lca >= 0) rows[lca] -= L->nc;
        int tp = top_of(m, L->pred), ts = top_of(m, L->succ);
        if (tp >= 0 && ts >= 0) uf[find(uf, tp)] = find(uf, ts);
    }
    for (int i = nb - 1; i >= 0; i--) {
        pairs += (double)m->bodies[i].nv * rows[i] * (rows[i] + 1) / 2;
        if (m->bodies[i].parent >= 0) rows[m->bodies[i].parent] += rows[i];
    }
    for (int l = 0; l < m->nloop; l++) {
        int t = top_of(m, m->loops[l].pred);
        if (t < 0) t = top_of(m, m->loops[l].succ);
        if (t >= 0) group[find(uf, t)] += m->loops[l].nc;
    }
    for (int i = 0; i < nb; i++) solve += group[i] * group[i] * group[i] / 6;
    double loops = OPS_A_PAIR * pairs + OPS_SOLVE * solve;
    double by_aba = aba + OPS_Z_ABA * z_aba + loops, by_crba = crba + OPS_Z_CRBA * z_crba + loops;
    e.ops = by_aba < by_crba ? by_aba : by_crba;
done:
    e.c_bytes = C_BYTES_FIXED + C_BYTES_PER_OP * e.ops;
    e.wasm_function_bytes = WASM_BYTES_FIXED + WASM_BYTES_PER_OP * e.ops;
    free(depth);
    free(rows);
    free(group);
    free(uf);
    return e;
}

int gen_check_size(const mech_model *m, gen_target target, char *msg, size_t cap)
{
    gen_estimate e = gen_estimate_size(m);
    double size = target == GEN_TARGET_C ? e.c_bytes : e.wasm_function_bytes;
    double limit = target == GEN_TARGET_C ? GEN_MAX_C_BYTES : WASM_MAX_BODY_BYTES;
    if (size <= limit) return 0;
    snprintf(msg, cap,
             "the model is too large to generate: about %.0f operations, an estimated %.0f bytes of %s "
             "(at most %.0f); fewer bodies or loops, or the runtime engine",
             e.ops, size, target == GEN_TARGET_C ? "C source" : "WebAssembly in one function", limit);
    return -1;
}
