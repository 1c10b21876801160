/* gen_rnea.c — the bias force C(q, qd, fext, g) = ID(q, qd, 0, fext) by the
 * recursive Newton-Euler algorithm (RBDA Table 5.1), gravity entering as the
 * fictitious base acceleration a_0 = -[0; g] (RBDA sec 5.3).  g is the
 * generated function's gravity argument, or with fold_gravity the model's own
 * as constants, whose zeros drop out; it enters nowhere else. */
#include "codegen/gen.h"

#include <stdlib.h>

/* The base-coordinate external force on body i, carried into body
 * coordinates by i_X_0* (eq. 2.25). */
static sv6 external_force(gen *g, int i)
{
    sv6 f;
    for (int k = 0; k < 6; k++) f.e[k] = gen_input(g, EX_IN_FEXT, 6 * i + k);
    return sx_apply_force(&g->p, g->b[i].x0, f);
}

int gen_rnea(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    sv6 *a = malloc((size_t)m->nb * sizeof *a), *f = malloc((size_t)m->nb * sizeof *f);
    sv3 *ao = malloc((size_t)m->nb * sizeof *ao);
    if (!a || !f || !ao) {
        free(a);
        free(f);
        free(ao);
        return gen_fail(g, 0, "out of memory");
    }
    g->section[SEC_BIAS] = p->n;

    /* Forward pass: a_i = i_X_parent a_parent + c_i (qdd = 0);
     * f_i = I_i a_i + v_i x* I_i v_i - i_X_0* fext_i.
     * Beside the spatial a_i, each body carries ao_i, the classical
     * acceleration of its origin (a_lin + w x v_lin).  Across a revolute or
     * fixed joint, whose child origin is fixed in the parent, it follows the
     * classical recursion ao_i = E (ao_p + wd_p x r + w_p x (w_p x r)), which
     * needs no linear velocity; the force of a non-root body is then formed
     * from w, wd and ao and its constant inertia (si_body_force_const):
     * about the origin when gen_kinematics has moved the body's mass to its
     * parent (every revolute body: F then does not read ao), else about the
     * centre of mass.  A root body keeps the spatial form at its origin: only
     * S^T f is read there. */
    sv6 a0 = sv_zero(p);
    for (int k = 0; k < 3; k++)
        a0.e[3 + k] = g->fold_gravity ? ex_const(p, -m->gravity[k]) : ex_neg(p, gen_input(g, EX_IN_GRAVITY, k));
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        const gen_body *gb = &g->b[i];
        a[i] = sv_add(p, gen_up_motion(g, i, b->parent < 0 ? a0 : a[b->parent]), gb->c);
        sv3 w = sv_angular(gb->v), wd = sv_angular(a[i]);
        if (b->parent >= 0 && (b->joint == MECH_JOINT_REVOLUTE || b->joint == MECH_JOINT_FIXED)) {
            const gen_body *pb = &g->b[b->parent];
            sv3 wp = sv_angular(pb->v), wdp = sv_angular(a[b->parent]);
            /* xt carries the offset r; a revolute or fixed xj has r = 0, so only
             * its rotation acts (the w, wd passed to it multiply zeros). */
            ao[i] = sx_point_accel(p, gb->xj, sx_point_accel(p, gb->xt, ao[b->parent], wp, wdp), wp, wdp);
        } else {
            ao[i] = sv3_add(p, sv_linear(a[i]), sv3_cross(p, w, sv_linear(gb->v)));
        }
        if (b->parent < 0) {
            sv6 Ia = si_apply(p, gb->I, a[i]);
            f[i] = sv_add(p, Ia, si_velocity_product(p, gb->I, gb->v));
        } else {
            f[i] = si_body_force_const(p, gb->I, wd, w, ao[i]);
        }
        if (b->fext) f[i] = sv_sub(p, f[i], external_force(g, i));
        gen_name_sv6(g, a[i], 0, "a%d", i);
        for (int k = 0; k < 3; k++) gen_name(g, ao[i].e[k], "ao%d_%c", i, "xyz"[k]);
    }

    /* Backward pass: C_i = S_i^T f_i, f_parent += i_X_parent^T f_i. */
    for (int i = m->nb - 1; i >= 0; i--) {
        const mech_body *b = &m->bodies[i];
        gen_name_sv6(g, f[i], 1, "f%d", i);
        for (int k = 0; k < b->nv; k++) {
            g->C[b->vidx + k] = sv_dot(p, g->b[i].S[k], f[i]);
            gen_name(g, g->C[b->vidx + k], "C_%d", b->vidx + k);
        }
        if (b->parent >= 0) f[b->parent] = sv_add(p, f[b->parent], gen_up_transpose_force(g, i, f[i]));
    }
    free(a);
    free(f);
    free(ao);
    return 0;
}
