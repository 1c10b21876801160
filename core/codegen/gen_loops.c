/* gen_loops.c — closed kinematic loops (RBDA ch. 8): the loop Jacobian K and
 * the acceleration right-hand side k + kstab, symbolically, in base
 * coordinates.  The rows, their exact position errors and their signs are
 * those of the dense reference (core/rbda/loops.c; docs/conventions.md,
 * "Closed loops"): a row r is a spatial force T_r with e_r' = T_r^T (v_s - v_p),
 *
 *   K_r      = T_r^T (J_s - J_p)   only joints on one of the two root paths
 *                                  (eqs. 8.18-8.20: shared ancestors cancel)
 *   k_r      = -T_r^T (a_s - a_p) - T_r'^T (v_s - v_p)          (Table 8.4)
 *   kstab_r  = -2 alpha e_r' - beta^2 e_r,  alpha = beta = 1 / stab  (sec 8.3)
 *
 * The method-2 solve that consumes them is in gen_ltdl.c. */
#include "codegen/gen.h"

/* One side of a loop: frame axes R (row-major, columns the axes), origin x,
 * angular velocity w, velocity xd of the point x; v and a the body's world
 * spatial velocity and velocity-product acceleration. */
typedef struct {
    ex R[9], x[3], w[3], xd[3];
    sv6 v, a;
} side;

static void side_of(gen *g, int b, const double pos[3], const double rot[9], side *s)
{
    ex_pool *p = &g->p;
    gen_world_point(g, b, pos, s->x, s->xd);
    if (b < 0) {
        for (int k = 0; k < 9; k++) s->R[k] = ex_const(p, rot[k]);
        s->v = s->a = sv_zero(p);
        for (int k = 0; k < 3; k++) s->w[k] = p->zero;
        return;
    }
    const gen_world *w = &g->b[b].w;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            ex e = p->zero;
            for (int k = 0; k < 3; k++) e = ex_fma(p, e, w->R[3 * r + k], ex_const(p, rot[3 * k + c]));
            s->R[3 * r + c] = e;
        }
    s->v = w->v;
    s->a = w->a;
    for (int k = 0; k < 3; k++) s->w[k] = w->v.e[k];
}

static sv3 v3(const ex a[3]) { return (sv3){ { a[0], a[1], a[2] } }; }
static sv3 axis(const side *s, int c) { return (sv3){ { s->R[c], s->R[3 + c], s->R[6 + c] } }; }

static ex dot3(ex_pool *p, sv3 a, sv3 b)
{
    return ex_fma(p, ex_fma(p, ex_mul(p, a.e[0], b.e[0]), a.e[1], b.e[1]), a.e[2], b.e[2]);
}

static sv6 join(sv3 ang, sv3 lin)
{
    sv6 r;
    for (int k = 0; k < 3; k++) {
        r.e[k] = ang.e[k];
        r.e[3 + k] = lin.e[k];
    }
    return r;
}

/* Translation along pred-fixed a: e = a . (x_s - x_p), T = [x_s x a; a],
 * T' = [x_s' x a + x_s x a'; a'], a' = w_p x a. */
static ex trans_row(ex_pool *p, const side *P, const side *S, int ax, sv6 *T, sv6 *Td)
{
    sv3 a = axis(P, ax), ad = sv3_cross(p, v3(P->w), a), rho;
    *T = join(sv3_cross(p, v3(S->x), a), a);
    sv3 xda = sv3_cross(p, v3(S->xd), a), xad = sv3_cross(p, v3(S->x), ad);
    *Td = join(sv3_add(p, xda, xad), ad);
    for (int k = 0; k < 3; k++) rho.e[k] = ex_sub(p, S->x[k], P->x[k]);
    return dot3(p, a, rho);
}

/* Alignment of pred axis a with succ axis b: e = a . b, T = [b x a; 0],
 * T' = [(w_s x b) x a + b x (w_p x a); 0]. */
static ex rot_row(ex_pool *p, const side *P, const side *S, int pa, int sb, sv6 *T, sv6 *Td)
{
    sv3 a = axis(P, pa), b = axis(S, sb), zero = { { p->zero, p->zero, p->zero } };
    sv3 ad = sv3_cross(p, v3(P->w), a), bd = sv3_cross(p, v3(S->w), b);
    *T = join(sv3_cross(p, b, a), zero);
    sv3 bda = sv3_cross(p, bd, a), bad = sv3_cross(p, b, ad);
    *Td = join(sv3_add(p, bda, bad), zero);
    return dot3(p, a, b);
}

/* Rod of length d: rho = x_s - x_p, e = (rho.rho - d^2)/2, T = [x_s x rho; rho],
 * T' = [x_s' x rho + x_s x rho'; rho']. */
static ex dist_row(ex_pool *p, const side *P, const side *S, double d, sv6 *T, sv6 *Td)
{
    sv3 rho, rhod;
    for (int k = 0; k < 3; k++) {
        rho.e[k] = ex_sub(p, S->x[k], P->x[k]);
        rhod.e[k] = ex_sub(p, S->xd[k], P->xd[k]);
    }
    *T = join(sv3_cross(p, v3(S->x), rho), rho);
    sv3 xdr = sv3_cross(p, v3(S->xd), rho), xrd = sv3_cross(p, v3(S->x), rhod);
    *Td = join(sv3_add(p, xdr, xrd), rhod);
    ex half = ex_const(p, 0.5), rr = dot3(p, rho, rho), dd = ex_const(p, d * d);
    return ex_mul(p, half, ex_sub(p, rr, dd));
}

/* The rows of loop l in model.h's order; returns how many. */
static int loop_rows(ex_pool *p, const mech_loop *l, const side *P, const side *S, sv6 *T, sv6 *Td, ex *e)
{
    int n = 0;
    switch (l->type) {
    case MECH_LOOP_REVOLUTE:
    case MECH_LOOP_SPHERICAL:
        for (int ax = 0; ax < 3; ax++, n++) e[n] = trans_row(p, P, S, ax, &T[n], &Td[n]);
        break;
    case MECH_LOOP_PRISMATIC:
    case MECH_LOOP_CYLINDRICAL:
    case MECH_LOOP_POINT_ON_LINE:
        for (int ax = 0; ax < 2; ax++, n++) e[n] = trans_row(p, P, S, ax, &T[n], &Td[n]);
        break;
    case MECH_LOOP_DISTANCE: e[0] = dist_row(p, P, S, l->length, &T[0], &Td[0]); return 1;
    }
    if (l->type == MECH_LOOP_SPHERICAL || l->type == MECH_LOOP_POINT_ON_LINE) return n;
    for (int ax = 0; ax < 2; ax++, n++) e[n] = rot_row(p, P, S, ax, 2, &T[n], &Td[n]);
    if (l->type == MECH_LOOP_PRISMATIC) {
        e[n] = rot_row(p, P, S, 0, 1, &T[n], &Td[n]);
        n++;
    }
    return n;
}

int gen_loops(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    g->section[SEC_LOOPS] = p->n;
    for (int i = 0; i < m->nc * m->nv; i++) g->K[i] = p->zero;
    for (int i = 0; i < m->nloop; i++) {
        const mech_loop *l = &m->loops[i];
        side P, S;
        sv6 T[5], Td[5];
        ex e[5];
        side_of(g, l->pred, l->ppos, l->prot, &P);
        side_of(g, l->succ, l->spos, l->srot, &S);
        int n = loop_rows(p, l, &P, &S, T, Td, e);
        if (n != l->nc)
            return gen_fail(g, l->line, "internal error: loop '%s' has %d rows, the model %d", l->name, n, l->nc);
        sv6 dv = sv_sub(p, S.v, P.v), da = sv_sub(p, S.a, P.a);
        ex two_alpha = ex_const(p, 2.0 / l->stab), beta2 = ex_const(p, 1.0 / (l->stab * l->stab));
        for (int r = 0; r < n; r++) {
            int row = l->cidx + r;
            ex *Krow = g->K + (size_t)row * (size_t)m->nv;
            gen_path_project(g, l->succ, l->pred, T[r], +1, Krow);
            gen_path_project(g, l->pred, l->succ, T[r], -1, Krow);
            ex ed = sv_dot(p, T[r], dv);
            ex Ta = sv_dot(p, T[r], da), Tdv = sv_dot(p, Td[r], dv);
            ex k = ex_neg(p, ex_add(p, Ta, Tdv));
            g->kc[row] = ex_fms(p, ex_fms(p, k, two_alpha, ed), beta2, e[r]);
            gen_name(g, e[r], "e_%d", row);
            gen_name(g, g->kc[row], "k_%d", row);
            for (int j = 0; j < m->nv; j++) gen_name(g, Krow[j], "K_%d_%d", row, j);
        }
    }
    return 0;
}
