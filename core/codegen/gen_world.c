/* gen_world.c — base-coordinate kinematics of the bodies that loops, force
 * elements and points of interest read (the frame core/rbda/elements.h works
 * in), from the body-coordinate quantities gen_kinematics left:
 *
 *   R = E^T, p = r                  of i_X_0 = [E 0; -E rx E]   (eq. 2.24)
 *   0_X_i m = [E^T w; E^T v + p x E^T w]                        (eq. 2.26)
 *   v^0_i = 0_X_i v_i,  S^0_i = 0_X_i S_i,  a^0_i = 0_X_i a_i with
 *   a_i = i_X_p a_p + c_i, the velocity-product acceleration at qdd = 0
 *   without gravity (RBDA Table 5.1's forward pass).
 *
 * Only bodies flagged need_world (and, through mark_world, their ancestors)
 * get these; expressions nothing reads are never emitted. */
#include "codegen/gen.h"

#include <stdlib.h>

/* 0_X_i m for i_X_0 = X. */
static sv6 to_world(ex_pool *p, const gen_world *w, sv6 m)
{
    sv6 r;
    for (int i = 0; i < 3; i++) {
        r.e[i] = p->zero;
        r.e[3 + i] = p->zero;
        for (int k = 0; k < 3; k++) {
            r.e[i] = ex_fma(p, r.e[i], w->R[3 * i + k], m.e[k]);
            r.e[3 + i] = ex_fma(p, r.e[3 + i], w->R[3 * i + k], m.e[3 + k]);
        }
    }
    sv3 ang = sv_angular(r), pos = { { w->p[0], w->p[1], w->p[2] } };
    sv3 px = sv3_cross(p, pos, ang);
    for (int i = 0; i < 3; i++) r.e[3 + i] = ex_add(p, r.e[3 + i], px.e[i]);
    return r;
}

int gen_world_kinematics(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    sv6 *a = malloc((size_t)m->nb * sizeof *a);
    if (!a) return gen_fail(g, 0, "out of memory");
    g->section[SEC_WORLD] = p->n;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        gen_body *gb = &g->b[i];
        if (!gb->need_world) continue;
        a[i] = sv_add(p, gen_up_motion(g, i, b->parent < 0 ? sv_zero(p) : a[b->parent]), gb->c);
        for (int r = 0; r < 3; r++) {
            gb->w.p[r] = gb->x0.r[r];
            for (int c = 0; c < 3; c++) gb->w.R[3 * r + c] = gb->x0.E[3 * c + r];
        }
        gb->w.v = to_world(p, &gb->w, gb->v);
        gb->w.a = to_world(p, &gb->w, a[i]);
        for (int k = 0; k < b->nv; k++) gb->w.S[k] = to_world(p, &gb->w, gb->S[k]);
        gen_name_sv6(g, gb->w.v, 0, "v%d_0", i);
        gen_name_sv6(g, gb->w.a, 0, "a%d_0", i);
    }
    free(a);
    return 0;
}

void gen_world_point(gen *g, int b, const double pos[3], ex x[3], ex xd[3])
{
    ex_pool *p = &g->p;
    if (b < 0) {
        for (int k = 0; k < 3; k++) {
            x[k] = ex_const(p, pos[k]);
            xd[k] = p->zero;
        }
        return;
    }
    const gen_world *w = &g->b[b].w;
    for (int r = 0; r < 3; r++) {
        x[r] = w->p[r];
        for (int c = 0; c < 3; c++) x[r] = ex_fma(p, x[r], w->R[3 * r + c], ex_const(p, pos[c]));
    }
    sv3 xv = { { x[0], x[1], x[2] } }, wx = sv3_cross(p, sv_angular(w->v), xv);
    for (int k = 0; k < 3; k++) xd[k] = ex_add(p, w->v.e[3 + k], wx.e[k]);
}

/* Is body a on body b's path to the root (b itself included)? */
static int on_path(const mech_model *m, int a, int b)
{
    for (; b >= 0; b = m->bodies[b].parent)
        if (b == a) return 1;
    return 0;
}

void gen_path_project(gen *g, int b, int other, sv6 F, int sign, ex *row)
{
    const mech_model *m = g->m;
    for (; b >= 0 && !on_path(m, b, other); b = m->bodies[b].parent) {
        const mech_body *bb = &m->bodies[b];
        for (int c = 0; c < bb->nv; c++) {
            ex s = sv_dot(&g->p, g->b[b].w.S[c], F);
            row[bb->vidx + c] = sign > 0 ? ex_add(&g->p, row[bb->vidx + c], s) : ex_sub(&g->p, row[bb->vidx + c], s);
        }
    }
}
