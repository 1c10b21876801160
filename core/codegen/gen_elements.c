/* gen_elements.c — force elements, actuators and observation values (docs/mech-format.md,
 * "Force elements"; the dense counterparts are in core/rbda/elements.c).
 *
 *   tsda  tension f = k (l - l0) + c ldot + act[slot] between two points of
 *         interest: the spatial force [x_a x f u; f u] on a's body and its
 *         opposite on b's (u the unit vector a -> b), mapped to joints by
 *         the path walk, which touches only joints between the anchors;
 *   rsda  tau_e = -k (q - q0) - c qd + act[slot] on its joint's coordinate;
 *   tendon    f = -stiffness (L - springlength) - damping Ld along a fixed
 *             tendon L = sum_j coef_j q_j: tau_e_j += coef_j f;
 *   actuator  tau_e = gear force, MuJoCo's affine law (model.h, mech_actuator),
 *             on its joint or along its tendon.
 *
 * gen_observe builds the values mech_observe returns, in its layout: every
 * POI's world position and velocity, each tsda's l and ldot, each rsda's
 * q and qd. */
#include "codegen/gen.h"

/* Length l, unit direction u from a to b (zero if they coincide) and rate. */
static ex tsda_state(gen *g, const mech_tsda *t, ex xa[3], ex xb[3], ex u[3], ex *ldot)
{
    ex_pool *p = &g->p;
    const mech_poi *pa = &g->m->pois[t->poi_a], *pb = &g->m->pois[t->poi_b];
    ex va[3], vb[3], d[3], dd = p->zero;
    gen_world_point(g, pa->body, pa->pos, xa, va);
    gen_world_point(g, pb->body, pb->pos, xb, vb);
    for (int k = 0; k < 3; k++) {
        d[k] = ex_sub(p, xb[k], xa[k]);
        dd = ex_fma(p, dd, d[k], d[k]);
    }
    ex l = ex_sqrt(p, dd), inv = ex_recip0(p, l);
    *ldot = p->zero;
    for (int k = 0; k < 3; k++) {
        u[k] = ex_mul(p, d[k], inv);
        *ldot = ex_fma(p, *ldot, u[k], ex_sub(p, vb[k], va[k]));
    }
    return l;
}

static ex input_or_zero(gen *g, int slot) { return slot >= 0 ? gen_input(g, EX_IN_ACT, slot) : g->p.zero; }

static ex clamp(ex_pool *p, ex x, const double range[2])
{
    return ex_min(p, ex_max(p, x, ex_const(p, range[0])), ex_const(p, range[1]));
}

/* mech_actuator_force (rbda/elements.h): the ctrl and the force clamped
 * where limited, as the dense reference computes it. */
static ex actuator_force(gen *g, const mech_actuator *a, ex q, ex qd)
{
    ex_pool *p = &g->p;
    ex ctrl = gen_input(g, EX_IN_ACT, a->act);
    if (a->ctrllimited) ctrl = clamp(p, ctrl, a->ctrlrange);
    ex f = ex_mul(p, ex_const(p, a->gain), ctrl);
    f = ex_add(p, f, ex_const(p, a->bias[0]));
    f = ex_fma(p, f, ex_const(p, a->bias[1]), ex_mul(p, ex_const(p, a->gear), q));
    f = ex_fma(p, f, ex_const(p, a->bias[2]), ex_mul(p, ex_const(p, a->gear), qd));
    return a->forcelimited ? clamp(p, f, a->forcerange) : f;
}

/* A tendon's length and rate (mech_tendon_length), a zero coefficient skipped. */
static ex tendon_length(gen *g, const mech_tendon *t, ex *ld)
{
    ex_pool *p = &g->p;
    ex l = p->zero;
    *ld = p->zero;
    for (int k = 0; k < t->njoint; k++) {
        const mech_body *b = &g->m->bodies[t->body[k]];
        if (t->coef[k] == 0) continue;
        ex c = ex_const(p, t->coef[k]);
        l = ex_fma(p, l, c, gen_input(g, EX_IN_Q, b->qidx));
        *ld = ex_fma(p, *ld, c, gen_input(g, EX_IN_QD, b->vidx));
    }
    return l;
}

/* tau_e_j += coef_j f over the tendon's joints. */
static void tendon_apply(gen *g, const mech_tendon *t, ex f)
{
    ex_pool *p = &g->p;
    for (int k = 0; k < t->njoint; k++) {
        int j = g->m->bodies[t->body[k]].vidx;
        if (t->coef[k] != 0) g->tau_e[j] = ex_fma(p, g->tau_e[j], ex_const(p, t->coef[k]), f);
    }
}

int gen_elements(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    g->section[SEC_ELEMENTS] = p->n;
    for (int j = 0; j < m->nv; j++) g->tau_e[j] = p->zero;
    for (int i = 0; i < m->ntsda; i++) {
        const mech_tsda *t = &m->tsdas[i];
        ex xa[3], xb[3], u[3], ldot;
        ex l = tsda_state(g, t, xa, xb, u, &ldot);
        ex stiff = ex_const(p, t->k), l0 = ex_const(p, t->l0);
        ex f = ex_mul(p, stiff, ex_sub(p, l, l0));
        f = ex_fma(p, f, ex_const(p, t->c), ldot);
        f = ex_add(p, f, input_or_zero(g, t->act));
        sv6 Fa, Fb;
        for (int k = 0; k < 3; k++) Fa.e[3 + k] = ex_mul(p, f, u[k]);
        sv3 fu = sv_linear(Fa), xav = { { xa[0], xa[1], xa[2] } }, xbv = { { xb[0], xb[1], xb[2] } };
        sv3 na = sv3_cross(p, xav, fu), nb = sv3_cross(p, xbv, fu);
        for (int k = 0; k < 3; k++) {
            Fa.e[k] = na.e[k];
            Fb.e[k] = nb.e[k];
            Fb.e[3 + k] = fu.e[k];
        }
        int ba = m->pois[t->poi_a].body, bb = m->pois[t->poi_b].body;
        gen_path_project(g, ba, bb, Fa, +1, g->tau_e);
        gen_path_project(g, bb, ba, Fb, -1, g->tau_e); /* Fb above is -(force on b) */
    }
    for (int i = 0; i < m->nrsda; i++) {
        const mech_rsda *r = &m->rsdas[i];
        const mech_body *b = &m->bodies[r->body];
        ex q = gen_input(g, EX_IN_Q, b->qidx), qd = gen_input(g, EX_IN_QD, b->vidx);
        ex stiff = ex_const(p, -r->k), q0 = ex_const(p, r->q0);
        ex t = ex_mul(p, stiff, ex_sub(p, q, q0));
        t = ex_fms(p, t, ex_const(p, r->c), qd);
        t = ex_add(p, t, input_or_zero(g, r->act));
        g->tau_e[b->vidx] = ex_add(p, g->tau_e[b->vidx], t);
    }
    for (int i = 0; i < m->ntendon; i++) {
        const mech_tendon *t = &m->tendons[i];
        if (t->stiffness == 0 && t->damping == 0) continue;
        ex ld, l = tendon_length(g, t, &ld);
        ex f = ex_mul(p, ex_const(p, -t->stiffness), ex_sub(p, l, ex_const(p, t->springlength)));
        tendon_apply(g, t, ex_fms(p, f, ex_const(p, t->damping), ld));
    }
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        if (a->tendon >= 0) {
            const mech_tendon *t = &m->tendons[a->tendon];
            ex ld, l = tendon_length(g, t, &ld);
            tendon_apply(g, t, ex_mul(p, ex_const(p, a->gear), actuator_force(g, a, l, ld)));
            continue;
        }
        const mech_body *b = &m->bodies[a->body];
        ex f = actuator_force(g, a, gen_input(g, EX_IN_Q, b->qidx), gen_input(g, EX_IN_QD, b->vidx));
        g->tau_e[b->vidx] = ex_fma(p, g->tau_e[b->vidx], ex_const(p, a->gear), f);
    }
    for (int j = 0; j < m->nv; j++) gen_name(g, g->tau_e[j], "tau_e_%d", j);
    return 0;
}

int gen_observe(gen *g)
{
    const mech_model *m = g->m;
    ex_pool *p = &g->p;
    ex *out = g->obs;
    g->section[SEC_OBSERVE] = p->n;
    for (int i = 0; i < m->npoi; i++, out += 6) gen_world_point(g, m->pois[i].body, m->pois[i].pos, out, out + 3);
    for (int i = 0; i < m->ntsda; i++, out += 2) {
        ex xa[3], xb[3], u[3];
        out[0] = tsda_state(g, &m->tsdas[i], xa, xb, u, &out[1]);
    }
    for (int i = 0; i < m->nrsda; i++, out += 2) {
        const mech_body *b = &m->bodies[m->rsdas[i].body];
        out[0] = gen_input(g, EX_IN_Q, b->qidx);
        out[1] = gen_input(g, EX_IN_QD, b->vidx);
    }
    return 0;
}
