/* expr.c — see expr.h. */
#include "codegen/expr.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ull;
}

static uint64_t node_hash(const ex_node *n)
{
    uint64_t h = mix(mix(mix(0, (uint64_t)n->op), (uint64_t)(int64_t)n->a), (uint64_t)(int64_t)n->b);
    uint64_t bits;
    memcpy(&bits, &n->c, sizeof bits);
    h = mix(h, bits);
    return mix(mix(h, (uint64_t)n->array), (uint64_t)(int64_t)n->index);
}

static int node_equal(const ex_node *x, const ex_node *y)
{
    if (x->op != y->op || x->a != y->a || x->b != y->b) return 0;
    if (memcmp(&x->c, &y->c, sizeof x->c) != 0) return 0;
    return x->array == y->array && x->index == y->index;
}

static int table_grow(ex_pool *p)
{
    int tcap = p->tcap ? 2 * p->tcap : 1024;
    int *t = malloc((size_t)tcap * sizeof *t);
    if (!t) return -1;
    for (int i = 0; i < tcap; i++) t[i] = -1;
    for (int id = 0; id < p->n; id++) {
        size_t k = (size_t)(node_hash(&p->nodes[id]) & (uint64_t)(tcap - 1));
        while (t[k] >= 0) k = (k + 1) & (size_t)(tcap - 1);
        t[k] = id;
    }
    free(p->table);
    p->table = t;
    p->tcap = tcap;
    return 0;
}

/* Hash-consing: return the existing node equal to *n, or append it. */
static ex intern(ex_pool *p, const ex_node *n)
{
    if (p->failed) return p->zero;
    if (2 * (p->n + 1) > p->tcap && table_grow(p) != 0) goto oom;
    uint64_t h = node_hash(n);
    size_t k = (size_t)(h & (uint64_t)(p->tcap - 1));
    for (; p->table[k] >= 0; k = (k + 1) & (size_t)(p->tcap - 1))
        if (node_equal(&p->nodes[p->table[k]], n)) return p->table[k];
    if (p->n == p->cap) {
        if (p->cap >= EX_MAX_NODES) goto oom;
        int cap = p->cap ? 2 * p->cap : 1024;
        ex_node *nodes = realloc(p->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) goto oom;
        p->nodes = nodes;
        p->cap = cap;
    }
    p->nodes[p->n] = *n;
    p->table[k] = p->n;
    return p->n++;
oom:
    p->failed = 1;
    return p->zero;
}

static ex make(ex_pool *p, ex_op op, ex a, ex b)
{
    ex_node n = { op, a, b, 0.0, 0, 0 };
    return intern(p, &n);
}

int ex_pool_init(ex_pool *p)
{
    memset(p, 0, sizeof *p); /* zero = 0: intern()'s fallback, the node built next */
    p->zero = ex_const(p, 0.0);
    p->one = ex_const(p, 1.0);
    return p->failed ? -1 : 0;
}

void ex_pool_free(ex_pool *p)
{
    free(p->nodes);
    free(p->table);
    memset(p, 0, sizeof *p);
}

static int is_const(const ex_pool *p, ex a) { return p->nodes[a].op == EX_CONST; }
static double cval(const ex_pool *p, ex a) { return p->nodes[a].c; }
static int is_value(const ex_pool *p, ex a, double c) { return is_const(p, a) && cval(p, a) == c; }

ex ex_const(ex_pool *p, double c)
{
    ex_node n = { EX_CONST, -1, -1, c == 0.0 ? 0.0 : c, 0, 0 }; /* one zero, not two */
    return intern(p, &n);
}

ex ex_input(ex_pool *p, ex_input_array array, int index)
{
    ex_node n = { EX_INPUT, -1, -1, 0.0, array, index };
    return intern(p, &n);
}

const char *ex_input_name(ex_input_array array)
{
    static const char *const name[EX_IN_COUNT] = { "q", "qd", "tau", "fext", "act", "gravity" };
    return name[array];
}

ex ex_sin(ex_pool *p, ex a)
{
    if (is_const(p, a)) return ex_const(p, sin(cval(p, a)));
    return make(p, EX_SIN, a, -1);
}

ex ex_cos(ex_pool *p, ex a)
{
    if (is_const(p, a)) return ex_const(p, cos(cval(p, a)));
    return make(p, EX_COS, a, -1);
}

/* -c -> const, -(-x) -> x, -(x - y) -> y - x. */
ex ex_neg(ex_pool *p, ex a)
{
    const ex_node *n = &p->nodes[a];
    if (n->op == EX_CONST) return ex_const(p, -n->c);
    if (n->op == EX_NEG) return n->a;
    if (n->op == EX_SUB) return make(p, EX_SUB, n->b, n->a);
    return make(p, EX_NEG, a, -1);
}

/* Canonical forms: x + x is 2x (so (c x) + (c x) is (2c) x, and 0.5 y +
 * 0.5 y is y), negations are pulled outward, a constant term is written
 * c + x or x - c with c > 0, and constant terms of nested sums are combined
 * (c1 + (c2 + x) -> (c1 + c2) + x), so the emitted code carries few explicit
 * minus nodes and no chains of constant additions. */
ex ex_add(ex_pool *p, ex a, ex b)
{
    if (is_const(p, a) && is_const(p, b)) return ex_const(p, cval(p, a) + cval(p, b));
    if (a == b) return ex_mul(p, ex_const(p, 2.0), a); /* x + x = 2x, exactly; 0.5y + 0.5y = y */
    if (is_value(p, a, 0.0)) return b;
    if (is_value(p, b, 0.0)) return a;
    if (p->nodes[b].op == EX_NEG) return ex_sub(p, a, p->nodes[b].a);
    if (p->nodes[a].op == EX_NEG) return ex_sub(p, b, p->nodes[a].a);
    if (is_const(p, b)) {
        ex t = a;
        a = b;
        b = t;
    } /* constant first */
    if (is_const(p, a)) {
        double c = cval(p, a);
        const ex_node *nb = &p->nodes[b];
        if (nb->op == EX_ADD && is_const(p, nb->a)) return ex_add(p, ex_const(p, c + cval(p, nb->a)), nb->b);
        if (nb->op == EX_SUB && is_const(p, nb->a)) return ex_sub(p, ex_const(p, c + cval(p, nb->a)), nb->b);
        if (nb->op == EX_SUB && is_const(p, nb->b)) return ex_add(p, ex_const(p, c - cval(p, nb->b)), nb->a);
        if (c < 0) return make(p, EX_SUB, b, ex_const(p, -c));
    } else if (a > b) {
        ex t = a;
        a = b;
        b = t;
    } /* commutative: canonical order */
    return make(p, EX_ADD, a, b);
}

ex ex_sub(ex_pool *p, ex a, ex b)
{
    if (a == b) return p->zero;
    if (is_const(p, a) && is_const(p, b)) return ex_const(p, cval(p, a) - cval(p, b));
    if (is_value(p, b, 0.0)) return a;
    if (is_value(p, a, 0.0)) return ex_neg(p, b);
    if (p->nodes[b].op == EX_NEG) return ex_add(p, a, p->nodes[b].a);
    if (p->nodes[a].op == EX_NEG) return ex_neg(p, ex_add(p, p->nodes[a].a, b));
    if (is_const(p, b)) return ex_add(p, ex_const(p, -cval(p, b)), a);
    if (is_const(p, a)) {
        double c = cval(p, a);
        const ex_node *nb = &p->nodes[b];
        if (nb->op == EX_ADD && is_const(p, nb->a)) return ex_sub(p, ex_const(p, c - cval(p, nb->a)), nb->b);
        if (nb->op == EX_SUB && is_const(p, nb->a)) return ex_add(p, ex_const(p, c - cval(p, nb->a)), nb->b);
        if (nb->op == EX_SUB && is_const(p, nb->b)) return ex_sub(p, ex_const(p, c + cval(p, nb->b)), nb->a);
    }
    return make(p, EX_SUB, a, b);
}

ex ex_mul(ex_pool *p, ex a, ex b)
{
    if (is_const(p, b) && !is_const(p, a)) {
        ex t = a;
        a = b;
        b = t;
    } /* constant first */
    if (is_const(p, a)) {
        double c = cval(p, a);
        if (is_const(p, b)) return ex_const(p, c * cval(p, b));
        if (c == 0.0) return p->zero;
        if (c == 1.0) return b;
        if (c == -1.0) return ex_neg(p, b);
        const ex_node *nb = &p->nodes[b];
        if (nb->op == EX_NEG) return ex_mul(p, ex_const(p, -c), nb->a);
        if (nb->op == EX_MUL && is_const(p, nb->a)) /* c1*(c2*x) */
            return ex_mul(p, ex_const(p, c * cval(p, nb->a)), nb->b);
        if (c < 0) return ex_neg(p, make(p, EX_MUL, ex_const(p, -c), b));
        return make(p, EX_MUL, a, b);
    }
    if (p->nodes[a].op == EX_NEG) return ex_neg(p, ex_mul(p, p->nodes[a].a, b));
    if (p->nodes[b].op == EX_NEG) return ex_neg(p, ex_mul(p, a, p->nodes[b].a));
    if (a > b) {
        ex t = a;
        a = b;
        b = t;
    }
    return make(p, EX_MUL, a, b);
}

ex ex_div(ex_pool *p, ex a, ex b)
{
    if (is_const(p, a) && is_const(p, b)) return ex_const(p, cval(p, a) / cval(p, b));
    if (is_value(p, a, 0.0)) return p->zero;
    if (is_value(p, b, 1.0)) return a;
    if (is_value(p, b, -1.0)) return ex_neg(p, a);
    if (p->nodes[a].op == EX_NEG) return ex_neg(p, ex_div(p, p->nodes[a].a, b));
    if (p->nodes[b].op == EX_NEG) return ex_neg(p, ex_div(p, a, p->nodes[b].a));
    return make(p, EX_DIV, a, b);
}

ex ex_sqrt(ex_pool *p, ex a)
{
    if (is_const(p, a)) return ex_const(p, sqrt(cval(p, a)));
    return make(p, EX_SQRT, a, -1);
}

ex ex_recip0(ex_pool *p, ex a)
{
    if (is_const(p, a)) return ex_const(p, cval(p, a) > 0 ? 1.0 / cval(p, a) : 0.0);
    return make(p, EX_RECIP0, a, -1);
}

ex ex_min(ex_pool *p, ex a, ex b)
{
    if (is_const(p, a) && is_const(p, b)) return ex_const(p, fmin(cval(p, a), cval(p, b)));
    return a == b ? a : make(p, EX_MIN, a, b);
}

ex ex_max(ex_pool *p, ex a, ex b)
{
    if (is_const(p, a) && is_const(p, b)) return ex_const(p, fmax(cval(p, a), cval(p, b)));
    return a == b ? a : make(p, EX_MAX, a, b);
}

ex ex_fma(ex_pool *p, ex acc, ex a, ex b) { return ex_add(p, acc, ex_mul(p, a, b)); }
ex ex_fms(ex_pool *p, ex acc, ex a, ex b) { return ex_sub(p, acc, ex_mul(p, a, b)); }
