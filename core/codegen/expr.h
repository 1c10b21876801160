/* expr.h — the generator's hash-consed expression DAG.
 *
 * The generator runs the dynamics algorithms on expressions instead of
 * numbers.  Every node is built through the constructors below, which fold
 * constants and apply structural simplification (x*0, x*1, x+0, -(-x), ...)
 * before looking the node up in a hash table, so an expression that is built
 * twice is stored once (common subexpressions are shared for free).  Nodes
 * are only ever appended, and a node's operands always precede it, so the
 * node order is a valid dependency order for emission.
 */
#ifndef MECHGEN_EXPR_H
#define MECHGEN_EXPR_H

typedef int ex; /* a node: index into the pool */

/* A pool stops growing here (about 300 MB) and reports failure rather than
 * exhausting memory on an absurdly large model. */
#define EX_MAX_NODES (1 << 23)

typedef enum {
    EX_CONST, /* numeric constant (c)                     */
    EX_INPUT, /* runtime input array[index], e.g. q[3]    */
    EX_SIN,
    EX_COS, /* of an input (a)                          */
    EX_NEG, /* -a                                       */
    EX_ADD,
    EX_SUB, /* a + b, a - b                             */
    EX_MUL,
    EX_DIV,    /* a * b, a / b                             */
    EX_SQRT,   /* sqrt(a)                                  */
    EX_RECIP0, /* a > 0 ? 1 / a : 0                        */
    EX_MIN,
    EX_MAX /* min(a, b), max(a, b) of finite values    */
} ex_op;

/* The arrays a generated function reads, in the order of its parameters. */
typedef enum { EX_IN_Q, EX_IN_QD, EX_IN_TAU, EX_IN_FEXT, EX_IN_ACT, EX_IN_GRAVITY, EX_IN_COUNT } ex_input_array;

typedef struct {
    ex_op op;
    ex a, b;              /* operands, -1 when unused                 */
    double c;             /* EX_CONST value                           */
    ex_input_array array; /* EX_INPUT: which array ...                */
    int index;            /* ... and which entry of it (else 0)       */
} ex_node;

typedef struct ex_pool {
    ex_node *nodes;
    int n, cap;
    int *table; /* open-addressed hash of node ids, -1 empty */
    int tcap;
    ex zero, one;
    int failed; /* set when an allocation failed or the pool is full */
} ex_pool;

/* 0 on success, -1 when out of memory. */
int ex_pool_init(ex_pool *p);
void ex_pool_free(ex_pool *p);

ex ex_const(ex_pool *p, double c);
ex ex_input(ex_pool *p, ex_input_array array, int index);
/* The C parameter name of an input array ("q", "qd", ...). */
const char *ex_input_name(ex_input_array array);
ex ex_sin(ex_pool *p, ex a);
ex ex_cos(ex_pool *p, ex a);
ex ex_neg(ex_pool *p, ex a);
ex ex_add(ex_pool *p, ex a, ex b);
ex ex_sub(ex_pool *p, ex a, ex b);
ex ex_mul(ex_pool *p, ex a, ex b);
ex ex_div(ex_pool *p, ex a, ex b);
ex ex_sqrt(ex_pool *p, ex a);
/* 1/a for a > 0 and 0 otherwise: a direction d * recip0(|d|) that is zero,
 * not NaN, when the two points coincide. */
ex ex_recip0(ex_pool *p, ex a);
/* min(a, b), max(a, b): a clamp (an actuator's ranges) */
ex ex_min(ex_pool *p, ex a, ex b);
ex ex_max(ex_pool *p, ex a, ex b);

/* a*b + c*d and friends, built from the constructors above. */
ex ex_fma(ex_pool *p, ex acc, ex a, ex b); /* acc + a*b */
ex ex_fms(ex_pool *p, ex acc, ex a, ex b); /* acc - a*b */

#endif
