/* plan.c — see plan.h: the analysis both back ends emit from. */
#include "codegen/plan.h"

#include "rbda/elements.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Forward dynamics of more operations than this is written in stages
 * (docs/codegen.md, "Stages"); below it one function is faster. */
#define STAGED_OPS 300

/* The kept sin or cos node of the same argument as trig node `id`, or -1. */
int plan_trig_partner(const emitter *em, ex id)
{
    const ex_pool *p = &em->g->p;
    ex_node probe = p->nodes[id];
    probe.op = probe.op == EX_SIN ? EX_COS : EX_SIN;
    for (int k = 0; k < p->n; k++) /* generation-time only; trig nodes are few */
        if (p->nodes[k].op == probe.op && p->nodes[k].a == probe.a) return em->tnum[k] >= 0 ? k : -1;
    return -1;
}

/* The name of the sine (op EX_SIN) or cosine of trig node id's angle: s3 and
 * c3 for q[3], else after id's number. */
void plan_trig_name(const emitter *em, ex id, ex_op op, char *buf, size_t cap)
{
    const ex_pool *p = &em->g->p;
    const ex_node *x = &p->nodes[p->nodes[id].a];
    const char *sc = op == EX_SIN ? "s" : "c";
    if (x->op == EX_INPUT && x->array == EX_IN_Q) snprintf(buf, cap, "%s%d", sc, x->index);
    else if (x->op == EX_INPUT) snprintf(buf, cap, "%s_%s%d", sc, ex_input_name(x->array), x->index);
    else snprintf(buf, cap, "t%d_%s", em->tnum[id], op == EX_SIN ? "sin" : "cos");
}

#define GM_OTHER 0x80

/* The gravity components trig node id's angle (its sin and cos) multiplies,
 * when they are all zero in the model's own gravity; 0 when something else
 * reads the angle, or a component the model has. */
int plan_gravity_only(const emitter *em, ex id)
{
    int other = plan_trig_partner(em, id), mask = em->gmask[id] | (other >= 0 ? em->gmask[other] : 0);
    for (int k = 0; k < 3; k++)
        if (mask & 1 << k && em->g->m->gravity[k] != 0.0) return 0;
    return mask & GM_OTHER ? 0 : mask;
}

/* Marks, for every kept sin and cos, what reads it (gmask). */
static void find_gravity_angles(emitter *em, const ex *out, int nout)
{
    const ex_pool *p = &em->g->p;
    memset(em->gmask, 0, (size_t)p->n);
    for (int i = 0; i < nout; i++) em->gmask[out[i]] |= GM_OTHER;
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if (em->tnum[id] < 0) continue;
        for (int k = 0; k < 2; k++) {
            ex x = k ? n->b : n->a, y = k ? n->a : n->b;
            if (x < 0 || (p->nodes[x].op != EX_SIN && p->nodes[x].op != EX_COS)) continue;
            const ex_node *ny = y >= 0 ? &p->nodes[y] : NULL;
            if (n->op == EX_MUL && ny->op == EX_INPUT && ny->array == EX_IN_GRAVITY) em->gmask[x] |= 1 << ny->index;
            else em->gmask[x] |= GM_OTHER;
        }
    }
}

typedef struct {
    const char *name;
    ex id;
} named;

static int by_name_then_id(const void *x, const void *y)
{
    const named *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* Each kept operation node's C name: s<k>/c<k> for a trig node of q[k], the
 * first name the generator gave it (gen_name), or t<number>.  A name two nodes
 * would share stays with the earlier one; the other falls back to its number
 * (a given name is never t<digits>, so the fallback is unique too). */
static int name_temporaries(emitter *em)
{
    gen *g = em->g;
    const ex_pool *p = &g->p;
    int *first = malloc((size_t)p->n * sizeof *first);
    named *list = malloc((size_t)(em->ops.total ? em->ops.total : 1) * sizeof *list);
    if (!first || !list) {
        free(first);
        free(list);
        return gen_fail(g, 0, "out of memory");
    }
    for (ex id = 0; id < p->n; id++) first[id] = -1;
    for (int k = g->nlabel - 1; k >= 0; k--) first[g->labels[k].id] = k;
    int n = 0;
    for (ex id = 0; id < p->n; id++) {
        if (em->tnum[id] < 0) continue;
        ex_op op = p->nodes[id].op;
        if (op == EX_SIN || op == EX_COS) plan_trig_name(em, id, op, em->name[id], sizeof em->name[id]);
        else if (first[id] >= 0) snprintf(em->name[id], sizeof em->name[id], "%s", g->labels[first[id]].name);
        else snprintf(em->name[id], sizeof em->name[id], "t%d", em->tnum[id]);
        list[n++] = (named){ em->name[id], id };
    }
    qsort(list, (size_t)n, sizeof *list, by_name_then_id);
    for (int k = 1; k < n; k++)
        if (strcmp(list[k].name, list[k - 1].name) == 0) first[list[k].id] = -2; /* a duplicate */
    for (ex id = 0; id < p->n; id++)
        if (em->tnum[id] >= 0 && first[id] == -2) snprintf(em->name[id], sizeof em->name[id], "t%d", em->tnum[id]);
    free(first);
    free(list);
    return 0;
}

/* Marks what the outputs need, numbers the temporaries and counts the operations. */
static int analyse(emitter *em, unsigned char *keep, const ex *out, int nout)
{
    gen *g = em->g;
    const ex_pool *p = &g->p;
    memset(keep, 0, (size_t)p->n);
    for (int i = 0; i < nout; i++) keep[out[i]] = 1;
    for (int id = p->n - 1; id >= 0; id--) {
        const ex_node *n = &p->nodes[id];
        if (!keep[id]) continue;
        if (n->a >= 0) keep[n->a] = 1;
        if (n->b >= 0) keep[n->b] = 1;
    }
    for (int id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        em->tnum[id] = -1;
        if (!keep[id]) continue;
        switch (n->op) {
        case EX_CONST:
            if (!isfinite(n->c)) return gen_fail(g, 0, "a constant evaluates to %g (degenerate model data?)", n->c);
            continue;
        case EX_INPUT: em->uses[n->array] = 1; continue;
        case EX_SIN:
        case EX_COS: em->ops.trig++; break;
        case EX_NEG: em->ops.neg++; break;
        case EX_ADD:
        case EX_SUB:
        case EX_MIN:
        case EX_MAX: em->ops.add++; break;
        case EX_MUL: em->ops.mul++; break;
        case EX_DIV:
        case EX_RECIP0: em->ops.div++; break;
        case EX_SQRT: em->ops.sqrt++; break;
        }
        em->tnum[id] = em->ops.total++;
    }
    find_gravity_angles(em, out, nout);
    return name_temporaries(em);
}

/* Whether another gravity takes the general copy, else the shift into the
 * own copy: the copy in full only where it is one function, so that the
 * large models are not written twice (docs/codegen.md, "Gravity, an input"). */
int plan_general_in_full(const emitters *em) { return em->own.st.nstage == 1; }

/* Whether every angle of a sine or cosine is an input (a joint coordinate),
 * so that fwd_dyn can check them all before choosing the unchecked copy. */
static int angles_are_inputs(const emitter *em)
{
    const ex_pool *p = &em->g->p;
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if (em->tnum[id] >= 0 && (n->op == EX_SIN || n->op == EX_COS) && p->nodes[n->a].op != EX_INPUT) return 0;
    }
    return em->ops.trig > 0;
}

/* A copy small enough for one function, with the near and far halves. */
int plan_has_halves(const emitter *em) { return em->st.nstage == 1 && angles_are_inputs(em); }

static int emitter_init(emitter *em, gen *g, const char *variant)
{
    size_t n = (size_t)g->p.n;
    *em = (emitter){ .g = g, .variant = variant };
    em->tnum = malloc(n * sizeof *em->tnum);
    em->name = malloc(n * sizeof *em->name);
    em->gmask = malloc(n);
    em->loaded = calloc(n, sizeof *em->loaded);
    return em->tnum && em->name && em->gmask && em->loaded ? 0 : gen_fail(g, 0, "out of memory");
}

static void emitter_free(emitter *em)
{
    gen_stages_free(&em->st);
    free(em->tnum);
    free(em->name);
    free(em->gmask);
    free(em->loaded);
}

/* Analyses the outputs qdd of g into em, staged when it is large and `stages`. */
static int plan_fwd_dyn(emitter *em, unsigned char *keep, int stages)
{
    gen *g = em->g;
    if (analyse(em, keep, g->qdd, g->m->nv)) return -1;
    if (gen_stages_plan(&em->st, &g->p, em->tnum, g->section, g->qdd, g->m->nv, stages && em->ops.total > STAGED_OPS))
        return gen_fail(g, 0, "out of memory");
    g->ops = em->ops;
    return 0;
}

int gen_plan(emitters *em, gen *own, gen *general, gen *shift)
{
    size_t n = (size_t)own->p.n;
    if ((size_t)general->p.n > n) n = (size_t)general->p.n;
    if ((size_t)shift->p.n > n) n = (size_t)shift->p.n;
    *em = (emitters){ 0 };
    unsigned char *keep = malloc(n);
    int rc = keep ? 0 : gen_fail(own, 0, "out of memory");
    if (rc == 0) rc = emitter_init(&em->own, own, "_own");
    if (rc == 0) rc = emitter_init(&em->general, general, "_g");
    if (rc == 0) rc = emitter_init(&em->shift, shift, "");
    if (rc == 0) rc = emitter_init(&em->obs, own, "");
    int nobs = mech_observe_len(own->m);
    if (rc == 0) rc = plan_fwd_dyn(&em->own, keep, 1);
    if (rc == 0 && (rc = plan_fwd_dyn(&em->general, keep, 1)) != 0)
        snprintf(own->err, sizeof own->err, "%s", general->err);
    if (rc == 0 && (rc = plan_fwd_dyn(&em->shift, keep, 0)) != 0) snprintf(own->err, sizeof own->err, "%s", shift->err);
    if (rc == 0) rc = analyse(&em->obs, keep, own->obs, nobs);
    if (rc == 0 && gen_stages_plan(&em->obs.st, &own->p, em->obs.tnum, own->section, own->obs, nobs, 0))
        rc = gen_fail(own, 0, "out of memory");
    free(keep);
    return rc;
}

void gen_plan_free(emitters *em)
{
    emitter_free(&em->own);
    emitter_free(&em->general);
    emitter_free(&em->shift);
    emitter_free(&em->obs);
}
