/* gen.c — generator state and the pipeline driver.  See gen.h. */
#include "codegen/gen.h"

#include "rbda/elements.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gen_fail(gen *g, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) snprintf(g->err, sizeof g->err, "%s:%d: %s", g->path, line, msg);
    else snprintf(g->err, sizeof g->err, "%s: %s", g->path, msg);
    return -1;
}

/* Why `text` (the model's path or name, which generated C quotes in comments, a string and an #include line)
 * cannot be written there, or NULL: a control character, a quote, a backslash or a comment's end would let it
 * end its comment or string and write code of its own. */
const char *gen_unquotable(const char *text)
{
    for (const char *s = text; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f) return "a control character";
        if (ch == '"' || ch == '\\') return ch == '"' ? "a quote" : "a backslash";
        if (ch == '*' && s[1] == '/') return "'*/'";
    }
    return NULL;
}

/* Loops, points of interest (tsda anchors among them) need their bodies'
 * base-coordinate kinematics, and with them every ancestor's joint columns. */
static void mark_world(gen *g)
{
    const mech_model *m = g->m;
    for (int i = 0; i < m->nloop; i++) {
        if (m->loops[i].pred >= 0) g->b[m->loops[i].pred].need_world = 1;
        if (m->loops[i].succ >= 0) g->b[m->loops[i].succ].need_world = 1;
    }
    for (int i = 0; i < m->npoi; i++)
        if (m->pois[i].body >= 0) g->b[m->pois[i].body].need_world = 1;
    for (int i = m->nb - 1; i >= 0; i--) {
        g->b[i].need_x0 |= g->b[i].need_world;
        if (m->bodies[i].parent >= 0) g->b[m->bodies[i].parent].need_world |= g->b[i].need_world;
    }
}

int gen_init(gen *g, const mech_model *m, const char *path, const char *name)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->path = path;
    g->name = name;
    g->other_ops = -1;
    if (m->nb < 1) return gen_fail(g, 0, "the model has no bodies");
    size_t nb = (size_t)m->nb, nv = (size_t)(m->nv ? m->nv : 1), nc = (size_t)(m->nc ? m->nc : 1);
    size_t nobs = (size_t)mech_observe_len(m) + 1;
    if (ex_pool_init(&g->p) != 0) return gen_fail(g, 0, "out of memory");
    g->b = calloc(nb, sizeof *g->b);
    g->C = calloc(nv, sizeof *g->C);
    g->H = calloc(nv * nv, sizeof *g->H);
    g->Hpat = calloc(nv * nv, 1);
    g->lambda = calloc(nv, sizeof *g->lambda);
    g->tau_e = calloc(nv, sizeof *g->tau_e);
    g->K = calloc(nc * nv, sizeof *g->K);
    g->kc = calloc(nc, sizeof *g->kc);
    g->qdd = calloc(nv, sizeof *g->qdd);
    g->obs = calloc(nobs, sizeof *g->obs);
    if (!g->b || !g->C || !g->H || !g->Hpat || !g->lambda || !g->tau_e || !g->K || !g->kc || !g->qdd || !g->obs)
        return gen_fail(g, 0, "out of memory");
    mark_world(g);
    return 0;
}

void gen_free(gen *g)
{
    gen_aba_free(g);
    free(g->labels);
    ex_pool_free(&g->p);
    free(g->b);
    free(g->C);
    free(g->H);
    free(g->Hpat);
    free(g->lambda);
    free(g->tau_e);
    free(g->K);
    free(g->kc);
    free(g->qdd);
    free(g->obs);
    memset(g, 0, sizeof *g);
}

int gen_fwd_dyn(gen *g)
{
    int aba = g->algorithm == GEN_ABA;
    if (gen_kinematics(g) || gen_rnea(g) || (aba ? gen_aba_factor(g) : gen_crba(g)) || gen_world_kinematics(g) ||
        gen_elements(g) || gen_loops(g) || (aba ? gen_aba_solve(g) : gen_ltdl(g)) || gen_observe(g))
        return -1;
    if (g->p.failed)
        return gen_fail(g, 0,
                        "out of memory building expressions (at most %d nodes): the model is too large "
                        "for straight-line code",
                        EX_MAX_NODES);
    return 0;
}

int gen_count_ops(const gen *g)
{
    const ex_pool *p = &g->p;
    unsigned char *keep = calloc((size_t)p->n + 1, 1);
    if (!keep) return -1;
    for (int i = 0; i < g->m->nv; i++) keep[g->qdd[i]] = 1;
    int ops = 0;
    for (int id = p->n - 1; id >= 0; id--) {
        const ex_node *n = &p->nodes[id];
        if (!keep[id]) continue;
        if (n->a >= 0) keep[n->a] = 1;
        if (n->b >= 0) keep[n->b] = 1;
        ops += n->op != EX_CONST && n->op != EX_INPUT;
    }
    free(keep);
    return ops;
}

int gen_gravity_tau(gen *g)
{
    g->gravity_only = 1;
    if (gen_kinematics(g) || gen_rnea(g)) return -1;
    for (int i = 0; i < g->m->nv; i++) {
        g->qdd[i] = ex_sub(&g->p, gen_input(g, EX_IN_TAU, i), g->C[i]);
        gen_name(g, g->qdd[i], "tau_g_%d", i);
    }
    for (int s = SEC_CRBA; s < SEC_COUNT; s++) g->section[s] = g->p.n; /* the stages that do not run */
    if (g->p.failed) return gen_fail(g, 0, "out of memory building expressions (at most %d nodes)", EX_MAX_NODES);
    return 0;
}

void gen_name(gen *g, ex id, const char *fmt, ...)
{
    ex_op op = g->p.nodes[id].op;
    if (op == EX_CONST || op == EX_INPUT) return;
    if (g->nlabel == g->labelcap) {
        int cap = g->labelcap ? 2 * g->labelcap : 256;
        gen_label *l = realloc(g->labels, (size_t)cap * sizeof *l);
        if (!l) return; /* the temporary keeps its number */
        g->labels = l;
        g->labelcap = cap;
    }
    gen_label *l = &g->labels[g->nlabel++];
    l->id = id;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->name, sizeof l->name, fmt, ap);
    va_end(ap);
}

void gen_name_sv6(gen *g, sv6 v, int force, const char *fmt, int i)
{
    char prefix[GEN_LABEL_LEN - 4];
    snprintf(prefix, sizeof prefix, fmt, i);
    for (int k = 0; k < 6; k++) gen_name(g, v.e[k], "%s_%c%c", prefix, "wvnf"[(k >= 3) + 2 * force], "xyz"[k % 3]);
}

ex gen_input(gen *g, ex_input_array array, int k)
{
    if (g->gravity_only && (array == EX_IN_QD || array == EX_IN_FEXT)) return g->p.zero;
    return ex_input(&g->p, array, k);
}

ex gen_rotor(gen *g, const mech_body *b)
{
    ex_pool *p = &g->p;
    ex rotor = ex_const(p, b->armature);
    double c = g->m->integrator == MECH_INTEGRATOR_IMPLICIT ? mech_model_joint_damping(g->m, b->vidx) : 0.0;
    if (c == 0.0) return rotor;
    return ex_fma(p, rotor, ex_input(p, EX_IN_ACT, g->m->nact), ex_const(p, c));
}

sv6 gen_up_motion(gen *g, int i, sv6 m)
{
    return sx_apply_motion(&g->p, g->b[i].xj, sx_apply_motion(&g->p, g->b[i].xt, m));
}

sv6 gen_up_transpose_force(gen *g, int i, sv6 f)
{
    return sx_apply_transpose_force(&g->p, g->b[i].xt, sx_apply_transpose_force(&g->p, g->b[i].xj, f));
}

int gen_revolute_axis(const mech_body *b, int *sign)
{
    if (b->joint != MECH_JOINT_REVOLUTE) return -1;
    for (int k = 0; k < 3; k++)
        if (fabs(b->axis[k]) == 1.0 && b->axis[(k + 1) % 3] == 0.0 && b->axis[(k + 2) % 3] == 0.0) {
            if (sign) *sign = b->axis[k] > 0 ? 1 : -1;
            return k;
        }
    return -1;
}

sinertia gen_up_inertia(gen *g, int i, sinertia I)
{
    const mech_body *b = &g->m->bodies[i];
    int sign = 1, k = gen_revolute_axis(b, &sign);
    if (k >= 0) {
        ex q = gen_input(g, EX_IN_Q, b->qidx);
        ex s = ex_sin(&g->p, q), c = ex_cos(&g->p, q);
        I = si_rotate_axis(&g->p, I, k, sign, s, c);
    } else {
        I = si_transform(&g->p, I, g->b[i].xj);
    }
    return si_transform(&g->p, I, g->b[i].xt);
}
