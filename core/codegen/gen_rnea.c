/* gen_rnea.c — the bias force C(q, qd, fext) = ID(q, qd, 0, fext) by the
 * recursive Newton-Euler algorithm (RBDA Table 5.1), gravity entering as the
 * fictitious base acceleration a_0 = -[0; g] (RBDA sec 5.3). */
#include "codegen/gen.h"

#include <stdio.h>
#include <stdlib.h>

/* The base-coordinate external force on body i, carried into body
 * coordinates by i_X_0* (eq. 2.25). */
static sv6 external_force(gen *g, int i)
{
    sv6 f;
    for (int k = 0; k < 6; k++) {
        char name[32];
        snprintf(name, sizeof name, "fext[%d]", 6 * i + k);
        f.e[k] = ex_input(&g->p, name);
    }
    return sx_apply_force(&g->p, g->b[i].x0, f);
}

int gen_rnea(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    sv6 *a = malloc((size_t)m->nb * sizeof *a), *f = malloc((size_t)m->nb * sizeof *f);
    if (!a || !f) {
        free(a);
        free(f);
        return gen_fail(g, 0, "out of memory");
    }
    g->section[SEC_BIAS] = p->n;

    /* Forward pass: a_i = i_X_parent a_parent + c_i (qdd = 0);
     * f_i = I_i a_i + v_i x* I_i v_i - i_X_0* fext_i. */
    sv6 a0 = sv_zero(p);
    for (int k = 0; k < 3; k++) a0.e[3 + k] = ex_const(p, -m->gravity[k]);
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const gen_body *gb = &g->b[i];
        a[i] = sv_add(p, gen_up_motion(g, i, b->parent < 0 ? a0 : a[b->parent]), gb->c);
        f[i] = sv_add(p, si_apply(p, gb->I, a[i]), si_velocity_product(p, gb->I, gb->v));
        if (b->fext) f[i] = sv_sub(p, f[i], external_force(g, i));
    }

    /* Backward pass: C_i = S_i^T f_i, f_parent += i_X_parent^T f_i. */
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        for (int k = 0; k < b->nv; k++) g->C[b->vidx + k] = sv_dot(p, g->b[i].S[k], f[i]);
        if (b->parent >= 0) f[b->parent] = sv_add(p, f[b->parent], gen_up_transpose_force(g, i, f[i]));
    }
    free(a);
    free(f);
    return 0;
}
