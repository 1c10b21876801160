/* gen_crba.c — the joint-space inertia H by the composite-rigid-body
 * algorithm (RBDA Table 6.2), lower triangle only.  Composite inertias stay in
 * the symmetric rigid-body form (m, h, Ibar), ten numbers instead of 36.  A
 * joint's armature (rotor inertia) adds to its diagonal entries only. */
#include "codegen/gen.h"

#include <stdlib.h>

static void set_h(gen *g, int row, int col, ex value)
{
    g->H[row * g->m->nv + col] = value;
    gen_name(g, value, "H_%d_%d", row, col);
    g->Hpat[row * g->m->nv + col] = 1;
}

int gen_crba(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    g->section[SEC_CRBA] = p->n;

    /* I^c_i = I_i + sum over children of i_X_c^T I^c_c i_X_c. */
    sinertia *Ic = malloc((size_t)m->nb * sizeof *Ic);
    if (!Ic) return gen_fail(g, 0, "out of memory");
    for (int i = 0; i < m->nb; i++) Ic[i] = g->b[i].I;
    for (int i = m->nb - 1; i >= 0; i--) {
        int parent = m->bodies[i].parent;
        if (parent >= 0) Ic[parent] = si_add(p, Ic[parent], gen_up_inertia(g, i, Ic[i]));
    }
    static const char *const I_name[6] = { "xx", "yy", "zz", "xy", "xz", "yz" };
    for (int i = 0; i < m->nb; i++) {
        gen_name(g, Ic[i].m, "Ic%d_m", i);
        for (int k = 0; k < 3; k++) gen_name(g, Ic[i].h[k], "Ic%d_h%c", i, "xyz"[k]);
        for (int k = 0; k < 6; k++) gen_name(g, Ic[i].I[k], "Ic%d_I%s", i, I_name[k]);
    }

    /* F = I^c_i S_i; H_ii = S_i^T F; then F = j_X_parent^T F up the ancestors j,
     * H_ij = F^T S_j (the block below the diagonal, row i, column j). */
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        sv6 F[6];
        for (int k = 0; k < b->nv; k++) F[k] = si_apply(p, Ic[i], g->b[i].S[k]);
        for (int r = 0; r < b->nv; r++)
            for (int c = 0; c <= r; c++) {
                ex h = sv_dot(p, g->b[i].S[r], F[c]);
                set_h(g, b->vidx + r, b->vidx + c, r == c ? ex_add(p, h, gen_rotor(g, b)) : h);
            }
        for (int j = i; b->nv > 0 && m->bodies[j].parent >= 0;) {
            for (int k = 0; k < b->nv; k++) F[k] = gen_up_transpose_force(g, j, F[k]);
            j = m->bodies[j].parent;
            const mech_body *bj = &m->bodies[j];
            for (int r = 0; r < b->nv; r++)
                for (int c = 0; c < bj->nv; c++) set_h(g, b->vidx + r, bj->vidx + c, sv_dot(p, F[r], g->b[j].S[c]));
        }
    }
    free(Ic);
    return 0;
}
