/* emit_wasm.c — the planned functions (plan.h) lowered to WebAssembly: the
 * same statements in the same order as the C emitter prints them (emit.c),
 * each temporary an f64 local reused by liveness (a linear scan over the
 * straight-line code), a staged copy one function whose stages pass their
 * long-lived temporaries through the scratch area, sin and cos inline with
 * mech_sincos.h's reduction, polynomials and table.  The arithmetic is
 * operation for operation what emcc -O2 makes of the generated C (no FMA
 * and no reassociation in WebAssembly), so the results are bit-identical
 * (docs/codegen.md, "WebAssembly back end"). */
#include "codegen/emit_wasm.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbda/elements.h"
#include "spatial/mech_sincos.h"

/* Parameters of a part (a stage or a whole copy): generated.h's fwd_dyn. */
enum { P_Q, P_QD, P_TAU, P_FEXT, P_ACT, P_GRAVITY, P_OUT, NPARAM_PART };

/* Function types, function imports, the imported global. */
enum { T_PART, T_OWN, T_OBSERVE, T_LIBM, T_START, T_FORWARD, NTYPE };
enum { F_SIN, F_COS, NIMPORT_FUNC };
enum { G_SCRATCH, G_SCRATCH_BYTES };

/* Byte offsets in the scratch area. */
typedef struct {
    uint32_t table; /* mech_sincos_table, filled by the start function  */
    uint32_t fext;  /* zeros: fext when the caller passes NULL          */
    uint32_t act;   /* zeros: act when the caller passes NULL           */
    uint32_t dg;    /* gravity - the model's, for the shift             */
    uint32_t tau_g; /* tau - G(q) dg                                    */
    uint32_t w;     /* the temporaries a later stage reads              */
    uint32_t bytes;
} scratch_layout;

/* sin/cos work locals: the argument, the reduction and polynomials, the
 * table entries, the results; as f64 for one angle, as v128 (f64x2) for two. */
enum { W_X, W_T, W_KD, W_Y, W_Z, W_Z2, W_SY, W_CM1, W_SK, W_CK, W_S, W_C, NWORK };

/* One function body being written. */
typedef struct {
    const emitter *em;
    const scratch_layout *sl;
    wasm_buf code;
    int param[NPARAM_PART]; /* the local of each input array and of out, -1: none */
    int nparam;
    int npseudo; /* of the nparam, i32 locals standing in for parameters (forward's arrays) */
    int nv128;   /* v128 locals (the paired sin/cos), after the three i32 locals */
    int nf64;    /* f64 locals, after those                        */
    int *freel, nfree, freecap;
    int *local; /* per node defined here: its local               */
    int *cache; /* per input or earlier stage's temporary read here: its local once loaded */
    int *last;  /* per node defined or cached here: its last reading statement here */
    int stage;
    int at;   /* the statement being written                    */
    int near; /* sin and cos without the range check (the near half) */
    int failed;
} body;

static void op(body *b, unsigned code) { wasm_byte(&b->code, code); }
static void local_op(body *b, unsigned code, int l)
{
    op(b, code);
    wasm_u32(&b->code, (uint32_t)l);
}
static void f64_const(body *b, double v)
{
    op(b, WASM_F64_CONST);
    wasm_f64(&b->code, v);
}
static void i32_const(body *b, int32_t v)
{
    op(b, WASM_I32_CONST);
    wasm_s32(&b->code, v);
}
static void f64_load(body *b, uint32_t offset)
{
    op(b, WASM_F64_LOAD);
    wasm_memarg(&b->code, 3, offset);
}
static void f64_store(body *b, uint32_t offset)
{
    op(b, WASM_F64_STORE);
    wasm_memarg(&b->code, 3, offset);
}
/* The i32 locals: two table entries' addresses, and the scratch area's,
 * read from the imported global once at the function's start; then the
 * v128 work locals of the paired sin/cos. */
enum { NI32 = 3 };
static int i32_local(const body *b) { return b->nparam; }
static int i32_local2(const body *b) { return b->nparam + 2; }
static int scratch_local(const body *b) { return b->nparam + 1; }
static int v128_local(const body *b, int k) { return b->nparam + NI32 + k; }
static void scratch(body *b) { local_op(b, WASM_LOCAL_GET, scratch_local(b)); }
/* The address scratch + offset. */
static void scratch_at(body *b, uint32_t offset)
{
    scratch(b);
    i32_const(b, (int32_t)offset);
    op(b, WASM_I32_ADD);
}

static int local_new(body *b)
{
    if (b->nfree) return b->freel[--b->nfree];
    return b->nparam + NI32 + b->nv128 + b->nf64++;
}

static void local_free(body *b, int l)
{
    if (b->nfree == b->freecap) {
        int cap = b->freecap ? 2 * b->freecap : 64;
        int *f = realloc(b->freel, (size_t)cap * sizeof *f);
        if (!f) {
            b->failed = 1;
            return;
        }
        b->freel = f;
        b->freecap = cap;
    }
    b->freel[b->nfree++] = l;
}

static int defined_here(const body *b, ex id)
{
    int d = b->em->st.stmt_of[id];
    return d >= 0 && gen_stages_stage_of(&b->em->st, d) == b->stage;
}

/* Pushes the value of node id: a constant, a temporary's local, or an input
 * or a slot of w, loaded into a local at its first read here (a store to w
 * or out would otherwise make V8 load it again at every read). */
static void push(body *b, ex id)
{
    const ex_node *n = &b->em->g->p.nodes[id];
    if (n->op == EX_CONST) {
        f64_const(b, n->c);
    } else if (defined_here(b, id)) {
        local_op(b, WASM_LOCAL_GET, b->local[id]);
    } else if (b->cache[id] >= 0) {
        local_op(b, WASM_LOCAL_GET, b->cache[id]);
    } else {
        if (n->op == EX_INPUT && b->param[n->array] < 0) {
            b->failed = 1; /* a function reading an input its signature lacks */
            return;
        }
        if (n->op == EX_INPUT) {
            local_op(b, WASM_LOCAL_GET, b->param[n->array]);
            f64_load(b, 8u * (uint32_t)n->index);
        } else {
            scratch(b);
            f64_load(b, b->sl->w + 8u * (uint32_t)b->em->st.slot[id]);
        }
        b->cache[id] = local_new(b);
        local_op(b, WASM_LOCAL_TEE, b->cache[id]);
    }
}

/* Node id's value is in `local`: stored to w when a later stage reads it;
 * the local is free again at once when nothing here reads it. */
static void define(body *b, ex id, int local, int i)
{
    b->local[id] = local;
    int slot = b->em->st.slot[id];
    if (slot >= 0) {
        scratch(b);
        local_op(b, WASM_LOCAL_GET, local);
        f64_store(b, b->sl->w + 8u * (uint32_t)slot);
    }
    if (b->last[id] <= i) local_free(b, local);
}

/* After statement b->at: the local of an operand it read last (once, for x * x),
 * a temporary's or a loaded input's or w slot's, free for the statements after
 * it (the later stages of a staged copy included). */
static void release(void *ctx, ex id)
{
    body *b = ctx;
    int *l = defined_here(b, id) ? &b->local[id] : &b->cache[id];
    if (b->last[id] != b->at || *l < 0) return;
    local_free(b, *l);
    *l = -1;
}

/* An input or an earlier stage's temporary (or a constant: unused) is loaded
 * again at its first read in each stage, as the C's stage functions do. */
static void note_use(void *ctx, ex id)
{
    body *b = ctx;
    if (!defined_here(b, id)) b->cache[id] = -1;
    b->last[id] = b->at;
}

static int is_trig(const ex_node *n) { return n->op == EX_SIN || n->op == EX_COS; }

static void simd(body *b, unsigned code)
{
    op(b, WASM_PREFIX_FD);
    wasm_u32(&b->code, code);
}

static void simd_lane(body *b, unsigned code, unsigned lane)
{
    simd(b, code);
    wasm_byte(&b->code, lane);
}

/* The sin/cos arithmetic on one angle (f64) or two (f64x2 lanes, vec): the
 * same operations either way, as mech_sincos_near and mech_sincos2_near. */
static void arith(body *b, int vec, unsigned scalar)
{
    if (!vec) {
        op(b, scalar);
        return;
    }
    simd(b, scalar == WASM_F64_ADD ? WASM_F64X2_ADD : scalar == WASM_F64_SUB ? WASM_F64X2_SUB : WASM_F64X2_MUL);
}

static void arith_const(body *b, int vec, double c)
{
    f64_const(b, c);
    if (vec) simd(b, WASM_F64X2_SPLAT);
}

/* local x  op  c */
static void local_op_const(body *b, int vec, int x, unsigned scalar, double c)
{
    local_op(b, WASM_LOCAL_GET, x);
    arith_const(b, vec, c);
    arith(b, vec, scalar);
}

/* The table entry's address of angle `lane` (k in the low bits of t) into i32 local ka. */
static void table_address(body *b, int vec, int t, unsigned lane, int ka)
{
    local_op(b, WASM_LOCAL_GET, t);
    if (vec) simd_lane(b, WASM_I64X2_EXTRACT_LANE, lane);
    else op(b, WASM_I64_REINTERPRET_F64);
    op(b, WASM_I32_WRAP_I64);
    i32_const(b, 127);
    op(b, WASM_I32_AND);
    i32_const(b, 4);
    op(b, WASM_I32_SHL);
    scratch(b);
    op(b, WASM_I32_ADD);
    local_op(b, WASM_LOCAL_SET, ka);
}

/* mech_sincos.h's steps on the angle(s) in w[W_X], in its order: the table
 * addresses into the i32 locals, then S_k and C_k into w[W_SK], w[W_CK], and
 * s = S_k + (S_k cm1 + C_k sy), c = C_k + (C_k cm1 - S_k sy) into ls and lc. */
static void sincos_steps(body *b, int vec, const int *w, int ls, int lc)
{
    int ka[2] = { i32_local(b), i32_local2(b) };
    /* 1. t = x 64/pi + 1.5 2^52, kd = t - 1.5 2^52, k the low bits of t, y = ((x - kd Q1) - kd Q2) - (kd Q3 + kd Q4) */
    local_op_const(b, vec, w[W_X], WASM_F64_MUL, mech_sincos_k_scale);
    arith_const(b, vec, mech_sincos_magic);
    arith(b, vec, WASM_F64_ADD);
    local_op(b, WASM_LOCAL_TEE, w[W_T]);
    arith_const(b, vec, mech_sincos_magic);
    arith(b, vec, WASM_F64_SUB);
    local_op(b, WASM_LOCAL_SET, w[W_KD]);
    for (int lane = 0; lane < 1 + vec; lane++) table_address(b, vec, w[W_T], (unsigned)lane, ka[lane]);
    local_op(b, WASM_LOCAL_GET, w[W_X]);
    local_op_const(b, vec, w[W_KD], WASM_F64_MUL, mech_sincos_Q1);
    arith(b, vec, WASM_F64_SUB);
    local_op_const(b, vec, w[W_KD], WASM_F64_MUL, mech_sincos_Q2);
    arith(b, vec, WASM_F64_SUB);
    local_op_const(b, vec, w[W_KD], WASM_F64_MUL, mech_sincos_Q3);
    local_op_const(b, vec, w[W_KD], WASM_F64_MUL, mech_sincos_Q4);
    arith(b, vec, WASM_F64_ADD);
    arith(b, vec, WASM_F64_SUB);
    local_op(b, WASM_LOCAL_SET, w[W_Y]);
    /* 2. z = y^2, z2 = z^2, sy = y + (y z)((-1/6 + z/120) - z2/5040), cm1 = z((-1/2 + z/24) - z2/720) */
    local_op(b, WASM_LOCAL_GET, w[W_Y]);
    local_op(b, WASM_LOCAL_GET, w[W_Y]);
    arith(b, vec, WASM_F64_MUL);
    local_op(b, WASM_LOCAL_TEE, w[W_Z]);
    local_op(b, WASM_LOCAL_GET, w[W_Z]);
    arith(b, vec, WASM_F64_MUL);
    local_op(b, WASM_LOCAL_SET, w[W_Z2]);
    local_op(b, WASM_LOCAL_GET, w[W_Y]);
    local_op(b, WASM_LOCAL_GET, w[W_Y]);
    local_op(b, WASM_LOCAL_GET, w[W_Z]);
    arith(b, vec, WASM_F64_MUL);
    arith_const(b, vec, -1.0 / 6.0);
    local_op_const(b, vec, w[W_Z], WASM_F64_MUL, 1.0 / 120.0);
    arith(b, vec, WASM_F64_ADD);
    local_op_const(b, vec, w[W_Z2], WASM_F64_MUL, 1.0 / 5040.0);
    arith(b, vec, WASM_F64_SUB);
    arith(b, vec, WASM_F64_MUL);
    arith(b, vec, WASM_F64_ADD);
    local_op(b, WASM_LOCAL_SET, w[W_SY]);
    local_op(b, WASM_LOCAL_GET, w[W_Z]);
    arith_const(b, vec, -0.5);
    local_op_const(b, vec, w[W_Z], WASM_F64_MUL, 1.0 / 24.0);
    arith(b, vec, WASM_F64_ADD);
    local_op_const(b, vec, w[W_Z2], WASM_F64_MUL, 1.0 / 720.0);
    arith(b, vec, WASM_F64_SUB);
    arith(b, vec, WASM_F64_MUL);
    local_op(b, WASM_LOCAL_SET, w[W_CM1]);
    /* 3. S_k and C_k (of each lane), then the angle sums */
    for (int k = 0; k < 2; k++) {
        for (int lane = 0; lane < 1 + vec; lane++) {
            local_op(b, WASM_LOCAL_GET, ka[lane]);
            f64_load(b, b->sl->table + 8u * (uint32_t)k);
            if (vec && lane == 0) simd(b, WASM_F64X2_SPLAT);
            if (lane == 1) simd_lane(b, WASM_F64X2_REPLACE_LANE, 1);
        }
        local_op(b, WASM_LOCAL_SET, w[k ? W_CK : W_SK]);
    }
    for (int k = 0; k < 2; k++) {
        int big = k ? w[W_CK] : w[W_SK], other = k ? w[W_SK] : w[W_CK];
        local_op(b, WASM_LOCAL_GET, big);
        local_op(b, WASM_LOCAL_GET, big);
        local_op(b, WASM_LOCAL_GET, w[W_CM1]);
        arith(b, vec, WASM_F64_MUL);
        local_op(b, WASM_LOCAL_GET, other);
        local_op(b, WASM_LOCAL_GET, w[W_SY]);
        arith(b, vec, WASM_F64_MUL);
        arith(b, vec, k ? WASM_F64_SUB : WASM_F64_ADD);
        arith(b, vec, WASM_F64_ADD);
        local_op(b, WASM_LOCAL_SET, k ? lc : ls);
    }
}

/* sin and cos of the angle in wk[W_X] into locals ls and lc, as
 * mech_sincos_near, and, unless this is a near half, beyond
 * +-MECH_SINCOS_MAX or for a non-finite angle by the imported sin and cos,
 * as mech_sincos falls back to libm. */
static void sincos(body *b, const int *wk, int ls, int lc)
{
    if (b->near) {
        sincos_steps(b, 0, wk, ls, lc);
        return;
    }
    local_op(b, WASM_LOCAL_GET, wk[W_X]);
    op(b, WASM_F64_ABS);
    f64_const(b, MECH_SINCOS_MAX);
    op(b, WASM_F64_LE);
    op(b, WASM_IF);
    op(b, WASM_VOID);
    sincos_steps(b, 0, wk, ls, lc);
    op(b, WASM_ELSE);
    for (int k = 0; k < 2; k++) {
        local_op(b, WASM_LOCAL_GET, wk[W_X]);
        op(b, WASM_CALL);
        wasm_u32(&b->code, k ? F_COS : F_SIN);
        local_op(b, WASM_LOCAL_SET, k ? lc : ls);
    }
    op(b, WASM_END);
}

/* The sines and cosines of the angles in f64 locals x0 and x1 at once, in
 * f64x2 lanes, as mech_sincos2_near: the same operations in the same order
 * as two mech_sincos_near, so bit-identical to them; into ls[0..1], lc[0..1]. */
static void sincos2(body *b, int x0, int x1, const int *ls, const int *lc)
{
    int v[NWORK];
    for (int k = 0; k < NWORK; k++) v[k] = v128_local(b, k);
    local_op(b, WASM_LOCAL_GET, x0);
    simd(b, WASM_F64X2_SPLAT);
    local_op(b, WASM_LOCAL_GET, x1);
    simd_lane(b, WASM_F64X2_REPLACE_LANE, 1);
    local_op(b, WASM_LOCAL_SET, v[W_X]);
    sincos_steps(b, 1, v, v[W_S], v[W_C]);
    for (int lane = 0; lane < 2; lane++)
        for (int k = 0; k < 2; k++) {
            local_op(b, WASM_LOCAL_GET, v[k ? W_C : W_S]);
            simd_lane(b, WASM_F64X2_EXTRACT_LANE, (unsigned)lane);
            local_op(b, WASM_LOCAL_SET, k ? lc[lane] : ls[lane]);
        }
}

/* One angle of the trig group: its kept sin and cos nodes (-1: a half
 * nothing reads), their locals, the gravity components it only multiplies
 * (plan_gravity_only), and the local holding it while it waits for a pair. */
typedef struct {
    ex angle, s, c;
    int ls, lc, mask, x;
} trig_angle;

/* `gravity[k] != 0.0 || ...` over the components in mask. */
static void gravity_nonzero(body *b, int mask)
{
    int first = 1;
    for (int k = 0; k < 3; k++) {
        if (!(mask & 1 << k)) continue;
        if (b->param[P_GRAVITY] < 0) b->failed = 1;
        local_op(b, WASM_LOCAL_GET, b->param[P_GRAVITY]);
        f64_load(b, 8u * (uint32_t)k);
        f64_const(b, 0.0);
        op(b, WASM_F64_NE);
        if (!first) op(b, WASM_I32_OR);
        first = 0;
    }
}

/* Statement i when it is the trig group: every angle's sin and cos, as
 * emit.c's trig_statements — in a near half two angles at a time (sincos2),
 * else one by one with the range check; an angle that only multiplies
 * gravity components the model lacks only when one of them is nonzero (else
 * sin 0, cos 1).  Each angle is read before any branch (its first read
 * loads it into a local the rest of the function reuses). */
static void trig_statement(body *b, int i)
{
    const emitter *em = b->em;
    const ex_pool *p = &em->g->p;
    int wk[NWORK], na = 0, pending = -1;
    for (int k = 0; k < NWORK; k++) wk[k] = local_new(b);
    trig_angle *a = malloc((size_t)(p->n - em->st.stmt[i]) * sizeof *a);
    if (!a) {
        b->failed = 1;
        return;
    }
    for (ex id = em->st.stmt[i]; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if (em->st.stmt_of[id] != i || !is_trig(n)) continue;
        int other = plan_trig_partner(em, id);
        if (other >= 0 && other < id) continue;
        trig_angle *t = &a[na++];
        t->angle = n->a;
        t->s = n->op == EX_SIN ? id : other;
        t->c = n->op == EX_COS ? id : other;
        t->ls = local_new(b);
        t->lc = local_new(b);
        t->mask = plan_gravity_only(em, id);
    }
    for (int k = 0; k < na; k++) {
        trig_angle *t = &a[k];
        push(b, t->angle);
        if (b->near && !t->mask) { /* paired with the previous such angle, or waiting for the next */
            t->x = local_new(b);
            local_op(b, WASM_LOCAL_SET, t->x);
            if (pending < 0) {
                pending = k;
                continue;
            }
            int ls[2] = { a[pending].ls, t->ls }, lc[2] = { a[pending].lc, t->lc };
            sincos2(b, a[pending].x, t->x, ls, lc);
            local_free(b, a[pending].x);
            local_free(b, t->x);
            pending = -1;
            continue;
        }
        local_op(b, WASM_LOCAL_SET, wk[W_X]);
        if (t->mask) {
            gravity_nonzero(b, t->mask);
            op(b, WASM_IF);
            op(b, WASM_VOID);
        }
        sincos(b, wk, t->ls, t->lc);
        if (t->mask) {
            op(b, WASM_ELSE);
            f64_const(b, 0.0);
            local_op(b, WASM_LOCAL_SET, t->ls);
            f64_const(b, 1.0);
            local_op(b, WASM_LOCAL_SET, t->lc);
            op(b, WASM_END);
        }
    }
    if (pending >= 0) { /* a last odd angle */
        local_op(b, WASM_LOCAL_GET, a[pending].x);
        local_op(b, WASM_LOCAL_SET, wk[W_X]);
        sincos(b, wk, a[pending].ls, a[pending].lc);
        local_free(b, a[pending].x);
    }
    for (int k = 0; k < na; k++) {
        if (a[k].s >= 0) define(b, a[k].s, a[k].ls, i);
        else local_free(b, a[k].ls);
        if (a[k].c >= 0) define(b, a[k].c, a[k].lc, i);
        else local_free(b, a[k].lc);
    }
    free(a);
    for (int k = 0; k < NWORK; k++) local_free(b, wk[k]);
}

/* Statement i: its node's operation on its operands, into a local. */
static void statement(body *b, int i)
{
    const ex_pool *p = &b->em->g->p;
    ex id = b->em->st.stmt[i];
    const ex_node *n = &p->nodes[id];
    static const unsigned char binary[] = {
        [EX_ADD] = WASM_F64_ADD, [EX_SUB] = WASM_F64_SUB, [EX_MUL] = WASM_F64_MUL,
        [EX_DIV] = WASM_F64_DIV, [EX_MIN] = WASM_F64_MIN, [EX_MAX] = WASM_F64_MAX,
    };
    b->at = i;
    if (is_trig(n)) {
        trig_statement(b, i);
    } else {
        switch (n->op) {
        case EX_NEG:
            push(b, n->a);
            op(b, WASM_F64_NEG);
            break;
        case EX_SQRT:
            push(b, n->a);
            op(b, WASM_F64_SQRT);
            break;
        case EX_RECIP0: /* a > 0 ? 1 / a : 0 */
            f64_const(b, 1.0);
            push(b, n->a);
            op(b, WASM_F64_DIV);
            f64_const(b, 0.0);
            push(b, n->a);
            f64_const(b, 0.0);
            op(b, WASM_F64_GT);
            op(b, WASM_SELECT);
            break;
        default:
            push(b, n->a);
            push(b, n->b);
            op(b, binary[n->op]);
            break;
        }
    }
    gen_stages_uses(&b->em->st, p, i, release, b);
    if (is_trig(n)) return;
    int l = local_new(b);
    local_op(b, WASM_LOCAL_SET, l);
    define(b, id, l, i);
}

/* Liveness over stage k: each temporary defined here, its last reading
 * statement here (INT_MAX for an output the stage writes). */
static void liveness(body *b, const ex *out, int nout)
{
    const gen_stages *st = &b->em->st;
    const ex_pool *p = &b->em->g->p;
    for (int i = st->start[b->stage]; i < st->start[b->stage + 1]; i++) {
        ex first = st->stmt[i], end = is_trig(&p->nodes[first]) ? p->n : first + 1;
        for (ex id = first; id < end; id++)
            if (st->stmt_of[id] == i) b->last[id] = -1, b->local[id] = -1;
    }
    for (b->at = st->start[b->stage]; b->at < st->start[b->stage + 1]; b->at++)
        gen_stages_uses(st, p, b->at, note_use, b);
    for (int k = 0; k < nout; k++) {
        b->at = INT_MAX;
        note_use(b, out[k]);
    }
}

/* The statements of stage k of em, then, from the last stage, its outputs out[0..nout) to the out parameter. */
static void write_stage(body *b, int k, const ex *out, int nout)
{
    const gen_stages *st = &b->em->st;
    b->stage = k;
    int last_stage = k == st->nstage - 1;
    liveness(b, out, last_stage ? nout : 0);
    for (int i = st->start[k]; i < st->start[k + 1]; i++) statement(b, i);
    if (!last_stage) return;
    for (int j = 0; j < nout; j++) {
        local_op(b, WASM_LOCAL_GET, b->param[P_OUT]);
        push(b, out[j]);
        f64_store(b, 8u * (uint32_t)j);
    }
}

/* A body with `nparam` parameters, param[] mapping the inputs and out to them. */
static int body_init(body *b, const emitter *em, const scratch_layout *sl, int nparam, const int *param)
{
    *b = (body){ .em = em, .sl = sl, .nparam = nparam };
    memcpy(b->param, param, sizeof b->param);
    size_t n = em ? (size_t)em->g->p.n : 1;
    b->local = malloc(n * sizeof *b->local);
    b->last = malloc(n * sizeof *b->last);
    b->cache = malloc(n * sizeof *b->cache);
    op(b, WASM_GLOBAL_GET);
    wasm_u32(&b->code, G_SCRATCH);
    local_op(b, WASM_LOCAL_SET, scratch_local(b));
    return b->local && b->last && b->cache ? 0 : -1;
}

static void body_free(body *b)
{
    free(b->local);
    free(b->last);
    free(b->cache);
    free(b->freel);
    wasm_buf_free(&b->code);
}

/* A function of the module: its type and finished body (locals, code, end). */
typedef struct {
    int type;
    wasm_buf bytes;
} wfunc;

typedef struct {
    emitters *em;
    scratch_layout sl;
    wfunc *f;
    int nf, cap;
    int failed;
} module;

static const int part_params[NPARAM_PART] = { P_Q, P_QD, P_TAU, P_FEXT, P_ACT, P_GRAVITY, P_OUT };
/* fwd_dyn_own_gravity(q, qd, tau, fext, act, qdd) */
static const int own_params[NPARAM_PART] = { 0, 1, 2, 3, 4, -1, 5 };
/* observe(q, qd, out) */
static const int observe_params[NPARAM_PART] = { 0, 1, -1, -1, -1, -1, 2 };

/* Finishes b as the module's next function of type `type`; its index, or -1. */
static int add_function(module *mo, body *b, int type)
{
    gen *g = mo->em->own.g;
    int index = -1;
    if (b->failed || b->code.failed) {
        gen_fail(g, 0, b->failed ? "the WebAssembly back end could not lower the plan" : "out of memory");
    } else if (b->npseudo + NI32 + b->nv128 + b->nf64 > WASM_MAX_LOCALS) {
        gen_fail(g, 0, "a WebAssembly function would need %d locals (at most %d)",
                 b->npseudo + NI32 + b->nv128 + b->nf64, WASM_MAX_LOCALS);
    } else if (b->code.n > WASM_MAX_BODY_BYTES) {
        gen_fail(g, 0, "a WebAssembly function would be %zu bytes (at most %d)", b->code.n, WASM_MAX_BODY_BYTES);
    } else if (mo->nf == mo->cap) {
        int cap = mo->cap ? 2 * mo->cap : 16;
        wfunc *f = realloc(mo->f, (size_t)cap * sizeof *f);
        if (f) mo->f = f, mo->cap = cap;
        else gen_fail(g, 0, "out of memory");
    }
    if (mo->nf < mo->cap && !g->err[0]) {
        wfunc *f = &mo->f[mo->nf];
        *f = (wfunc){ .type = type };
        wasm_u32(&f->bytes, 1 + (b->nv128 > 0) + (b->nf64 > 0));
        wasm_u32(&f->bytes, (uint32_t)(b->npseudo + NI32));
        wasm_byte(&f->bytes, WASM_I32);
        if (b->nv128) {
            wasm_u32(&f->bytes, (uint32_t)b->nv128);
            wasm_byte(&f->bytes, WASM_V128);
        }
        if (b->nf64) {
            wasm_u32(&f->bytes, (uint32_t)b->nf64);
            wasm_byte(&f->bytes, WASM_F64);
        }
        wasm_bytes(&f->bytes, b->code.b, b->code.n);
        wasm_byte(&f->bytes, WASM_END);
        index = NIMPORT_FUNC + mo->nf++;
    }
    body_free(b);
    if (index < 0) mo->failed = 1;
    return index;
}

/* The function of em (out: its outputs), or of its near half: its index,
 * or -1.  A staged copy is one function too, its stages in turn passing
 * their long-lived temporaries through w: what binaryen makes of the C's
 * stage functions when it inlines each into its one caller.  Measured with
 * every function compiled by TurboFan up front (node --no-liftoff, which
 * fixes where V8 places the code): panda 1.08-1.17x the build-time
 * module's time with a function per stage, 1.04-1.07x in one. */
static int add_part(module *mo, const emitter *em, const ex *out, int nout, int near)
{
    body b;
    if (body_init(&b, em, &mo->sl, NPARAM_PART, part_params)) b.failed = 1;
    b.near = near;
    b.nv128 = near ? NWORK : 0;
    for (int k = 0; k < em->st.nstage && !b.failed; k++) write_stage(&b, k, out, nout);
    return add_function(mo, &b, T_PART);
}

/* Calls part f with the locals in args (-1: i32 0). */
static void call_part(body *b, int f, const int *args)
{
    for (int a = 0; a < NPARAM_PART; a++) {
        if (args[a] >= 0) local_op(b, WASM_LOCAL_GET, args[a]);
        else i32_const(b, 0);
    }
    op(b, WASM_CALL);
    wasm_u32(&b->code, (uint32_t)f);
}

/* A copy's functions: one (first), or its near and far halves (near >= 0),
 * the near one when every angle is within +-MECH_SINCOS_MAX (emit.c's
 * write_copy_call). */
typedef struct {
    const emitter *em;
    int first, near;
} copy;

static copy add_copy(module *mo, const emitter *em)
{
    copy c = { em, -1, -1 };
    const ex *out = em->g->qdd;
    int nv = em->g->m->nv;
    if (plan_has_halves(em)) c.near = add_part(mo, em, out, nv, 1);
    c.first = add_part(mo, em, out, nv, 0);
    return c;
}

/* `fabs(angle) <= MECH_SINCOS_MAX && ...` over em's distinct angles (inputs
 * all), read through the locals param[] maps the input arrays to. */
static void angle_check(body *b, const emitter *em, const int *param)
{
    const ex_pool *p = &em->g->p;
    int first = 1;
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if (em->tnum[id] < 0 || !is_trig(n)) continue;
        int other = plan_trig_partner(em, id);
        if (other >= 0 && other < id) continue;
        const ex_node *x = &p->nodes[n->a];
        if (param[x->array] < 0) b->failed = 1;
        local_op(b, WASM_LOCAL_GET, param[x->array]);
        f64_load(b, 8u * (uint32_t)x->index);
        op(b, WASM_F64_ABS);
        f64_const(b, MECH_SINCOS_MAX);
        op(b, WASM_F64_LE);
        if (!first) op(b, WASM_I32_AND);
        first = 0;
    }
}

/* Calls copy c with the locals in args (a part's parameters; -1: i32 0). */
static void call_copy(body *b, const copy *c, const int *args)
{
    if (c->near < 0) {
        call_part(b, c->first, args);
        return;
    }
    angle_check(b, c->em, args);
    op(b, WASM_IF);
    op(b, WASM_VOID);
    call_part(b, c->near, args);
    op(b, WASM_ELSE);
    call_part(b, c->first, args);
    op(b, WASM_END);
}

/* `if (!p) p = scratch + offset;` for pointer parameter p. */
static void default_pointer(body *b, int p, uint32_t offset)
{
    local_op(b, WASM_LOCAL_GET, p);
    op(b, WASM_I32_EQZ);
    op(b, WASM_IF);
    op(b, WASM_VOID);
    scratch_at(b, offset);
    local_op(b, WASM_LOCAL_SET, p);
    op(b, WASM_END);
}

/* fwd_dyn_own_gravity(q, qd, tau, fext, act, qdd): the own copy, inline
 * when it is unstaged and without halves, else a call of its function or
 * halves (own.first < 0: inline). */
static int add_own_gravity(module *mo, const copy *own)
{
    const emitter *em = &mo->em->own;
    body b;
    if (body_init(&b, own->first < 0 ? em : NULL, &mo->sl, 6, own_params)) b.failed = 1;
    default_pointer(&b, 3, mo->sl.fext);
    default_pointer(&b, 4, mo->sl.act);
    if (own->first < 0) write_stage(&b, 0, em->g->qdd, em->g->m->nv);
    else call_copy(&b, own, own_params);
    return add_function(mo, &b, T_OWN);
}

/* fwd_dyn(q, qd, tau, fext, act, gravity, qdd): the own copy at the model's
 * gravity (compared exactly: a zero of either sign passes); for another,
 * the general copy, or tau - G(q)(gravity - the model's) into the own copy. */
static int add_fwd_dyn(module *mo, int own_gravity, const copy *general, int shift)
{
    const mech_model *m = mo->em->own.g->m;
    body b;
    if (body_init(&b, NULL, &mo->sl, NPARAM_PART, part_params)) b.failed = 1;
    default_pointer(&b, P_FEXT, mo->sl.fext);
    default_pointer(&b, P_ACT, mo->sl.act);
    for (int k = 0; k < 3; k++) {
        local_op(&b, WASM_LOCAL_GET, P_GRAVITY);
        f64_load(&b, 8u * (uint32_t)k);
        f64_const(&b, m->gravity[k]);
        op(&b, WASM_F64_EQ);
        if (k) op(&b, WASM_I32_AND);
    }
    static const int own_args[] = { P_Q, P_QD, P_TAU, P_FEXT, P_ACT, P_OUT };
    if (general) {
        op(&b, WASM_IF);
        op(&b, WASM_VOID);
        for (int a = 0; a < 6; a++) local_op(&b, WASM_LOCAL_GET, own_args[a]);
        op(&b, WASM_CALL);
        wasm_u32(&b.code, (uint32_t)own_gravity);
        op(&b, WASM_ELSE);
        call_copy(&b, general, part_params);
        op(&b, WASM_END);
        return add_function(mo, &b, T_PART);
    }
    op(&b, WASM_I32_EQZ);
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    for (int k = 0; k < 3; k++) { /* dg = gravity - the model's */
        scratch(&b);
        local_op(&b, WASM_LOCAL_GET, P_GRAVITY);
        f64_load(&b, 8u * (uint32_t)k);
        f64_const(&b, m->gravity[k]);
        op(&b, WASM_F64_SUB);
        f64_store(&b, mo->sl.dg + 8u * (uint32_t)k);
    }
    for (int a = 0; a < P_GRAVITY; a++) local_op(&b, WASM_LOCAL_GET, a);
    scratch_at(&b, mo->sl.dg);
    scratch_at(&b, mo->sl.tau_g);
    op(&b, WASM_CALL);
    wasm_u32(&b.code, (uint32_t)shift);
    scratch_at(&b, mo->sl.tau_g);
    local_op(&b, WASM_LOCAL_SET, P_TAU);
    op(&b, WASM_END);
    for (int a = 0; a < 6; a++) local_op(&b, WASM_LOCAL_GET, own_args[a]);
    op(&b, WASM_CALL);
    wasm_u32(&b.code, (uint32_t)own_gravity);
    return add_function(mo, &b, T_PART);
}

/* observe(q, qd, out): one function. */
static int add_observe(module *mo)
{
    const emitter *obs = &mo->em->obs;
    body b;
    if (body_init(&b, obs, &mo->sl, 3, observe_params)) b.failed = 1;
    else write_stage(&b, 0, obs->g->obs, mech_observe_len(obs->g->m));
    return add_function(mo, &b, T_OBSERVE);
}

/* The address the handle (local 0) holds at byte offset `at`, into local l. */
static void handle_pointer(body *b, uint32_t at, int l)
{
    local_op(b, WASM_LOCAL_GET, 0);
    op(b, WASM_I32_LOAD);
    wasm_memarg(&b->code, 2, at);
    if (l >= 0) local_op(b, WASM_LOCAL_SET, l);
}

/* Every entry v[k], k < n, finite (v the address in local l), ANDed onto the
 * i32 on the stack: as wasm/model.c's out_of_range, each entry's magnitude
 * bits plus 2^52 carry into bit 63 exactly when it is infinite or NaN; ORed
 * over the entries and tested once, integer operations only: V8 turns a
 * floating-point compare per entry into a branch each, a visible share of a
 * small model's forward() (docs/benchmarks.md, "Measured reasons in the
 * code"). */
static void all_finite(body *b, int l, int n)
{
    op(b, WASM_I64_CONST);
    wasm_s64(&b->code, 0);
    for (int k = 0; k < n; k++) {
        local_op(b, WASM_LOCAL_GET, l);
        op(b, WASM_I64_LOAD);
        wasm_memarg(&b->code, 3, 8u * (uint32_t)k);
        op(b, WASM_I64_CONST);
        wasm_s64(&b->code, INT64_MAX);
        op(b, WASM_I64_AND);
        op(b, WASM_I64_CONST);
        wasm_s64(&b->code, (int64_t)1 << 52);
        op(b, WASM_I64_ADD);
        op(b, WASM_I64_OR);
    }
    op(b, WASM_I64_CONST);
    wasm_s64(&b->code, 63);
    op(b, WASM_I64_SHR_U);
    op(b, WASM_I64_EQZ);
    op(b, WASM_I32_AND);
}

/* forward_model_gravity(handle) -> i32 (emit_wasm.h): wasm/model.c's
 * mw_forward_model_gravity with the run's arrays read from the handle at the
 * offsets h gives, and the own copy as fwd_dyn_own_gravity runs it (inline,
 * or a call of its function or halves) without that function's call and
 * NULL checks: a run's fext is never NULL, and its act only when the model
 * has no inputs to read from it. */
static int add_forward_model_gravity(module *mo, const copy *own, const gen_wasm_handle *h)
{
    const emitter *em = &mo->em->own;
    const mech_model *m = em->g->m;
    /* After the handle (local 0), six i32 locals hold the arrays, in the order of a part's parameters. */
    static const int fwd_params[NPARAM_PART] = { 1, 2, 3, 4, 5, -1, 6 };
    static const int npointer = 6;
    body b;
    if (body_init(&b, own->first < 0 ? em : NULL, &mo->sl, 1 + npointer, fwd_params)) b.failed = 1;
    b.npseudo = npointer;
    local_op(&b, WASM_LOCAL_GET, 0); /* a disposed handle (0): the runtime names it */
    op(&b, WASM_I32_EQZ);
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    i32_const(&b, 1);
    op(&b, WASM_RETURN);
    op(&b, WASM_END);
    i32_const(&b, 1);
    handle_pointer(&b, h->q, fwd_params[P_Q]);
    all_finite(&b, fwd_params[P_Q], m->nq);
    handle_pointer(&b, h->qd, fwd_params[P_QD]);
    all_finite(&b, fwd_params[P_QD], m->nv);
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    handle_pointer(&b, h->tau, fwd_params[P_TAU]);
    handle_pointer(&b, h->fext, fwd_params[P_FEXT]);
    handle_pointer(&b, h->act, fwd_params[P_ACT]);
    handle_pointer(&b, h->qdd, fwd_params[P_OUT]);
    if (own->first < 0) write_stage(&b, 0, em->g->qdd, m->nv);
    else call_copy(&b, own, fwd_params);
    i32_const(&b, 1);
    all_finite(&b, fwd_params[P_OUT], m->nv);
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    i32_const(&b, 0);
    op(&b, WASM_RETURN);
    op(&b, WASM_END);
    op(&b, WASM_END);
    i32_const(&b, 1);
    return add_function(mo, &b, T_FORWARD);
}

/* forward(handle) -> i32 (emit_wasm.h): wasm/model.c's mw_forward, that is
 * forward_model_gravity (function fm) when the run's gravity is the model's
 * bit for bit (a zero of the other sign takes the runtime's path, as
 * there); else 1. */
static int add_forward(module *mo, const gen_wasm_handle *h, int fm)
{
    const mech_model *m = mo->em->own.g->m;
    body b;
    if (body_init(&b, NULL, &mo->sl, 1, (const int[NPARAM_PART]){ -1, -1, -1, -1, -1, -1, -1 })) b.failed = 1;
    local_op(&b, WASM_LOCAL_GET, 0); /* a disposed handle (0): the runtime names it */
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    int g = i32_local(&b);
    handle_pointer(&b, h->gravity, g);
    i32_const(&b, 1);
    for (int k = 0; k < 3; k++) {
        uint64_t bits;
        memcpy(&bits, &m->gravity[k], sizeof bits);
        local_op(&b, WASM_LOCAL_GET, g);
        op(&b, WASM_I64_LOAD);
        wasm_memarg(&b.code, 3, 8u * (uint32_t)k);
        op(&b, WASM_I64_CONST);
        wasm_s64(&b.code, (int64_t)bits);
        op(&b, WASM_I64_EQ);
        op(&b, WASM_I32_AND);
    }
    op(&b, WASM_IF);
    op(&b, WASM_VOID);
    local_op(&b, WASM_LOCAL_GET, 0);
    op(&b, WASM_CALL);
    wasm_u32(&b.code, (uint32_t)fm);
    op(&b, WASM_RETURN);
    op(&b, WASM_END);
    op(&b, WASM_END);
    i32_const(&b, 1);
    return add_function(mo, &b, T_FORWARD);
}

/* The start function: the sin/cos table from the passive data segment into
 * the scratch area, and zeros after it. */
static int add_start(module *mo)
{
    body b;
    if (body_init(&b, NULL, &mo->sl, 0, (const int[NPARAM_PART]){ -1, -1, -1, -1, -1, -1, -1 })) b.failed = 1;
    scratch_at(&b, mo->sl.table);
    i32_const(&b, 0);
    i32_const(&b, (int32_t)sizeof mech_sincos_table);
    op(&b, WASM_PREFIX_FC);
    wasm_u32(&b.code, WASM_MEMORY_INIT);
    wasm_u32(&b.code, 0);
    wasm_byte(&b.code, 0);
    op(&b, WASM_PREFIX_FC);
    wasm_u32(&b.code, WASM_DATA_DROP);
    wasm_u32(&b.code, 0);
    scratch_at(&b, mo->sl.fext);
    i32_const(&b, 0);
    i32_const(&b, (int32_t)(mo->sl.bytes - mo->sl.fext));
    op(&b, WASM_PREFIX_FC);
    wasm_u32(&b.code, WASM_MEMORY_FILL);
    wasm_byte(&b.code, 0);
    return add_function(mo, &b, T_START);
}

static uint32_t align16(uint32_t x) { return (x + 15u) & ~15u; }

static void layout(scratch_layout *sl, const emitters *em)
{
    const mech_model *m = em->own.g->m;
    int nslot = em->own.st.nslot > em->general.st.nslot ? em->own.st.nslot : em->general.st.nslot;
    sl->table = 0;
    sl->fext = (uint32_t)sizeof mech_sincos_table;
    sl->act = align16(sl->fext + 48u * (uint32_t)m->nb);
    sl->dg = align16(sl->act + 8u * ((uint32_t)m->nact + 1u)); /* act and h, the implicit step */
    sl->tau_g = align16(sl->dg + 24u);
    sl->w = align16(sl->tau_g + 8u * (uint32_t)m->nv);
    sl->bytes = align16(sl->w + 8u * (uint32_t)nslot);
}

static void write_types(wasm_buf *w)
{
    static const int nparams[NTYPE] = {
        [T_PART] = 7, [T_OWN] = 6, [T_OBSERVE] = 3, [T_LIBM] = 1, [T_START] = 0, [T_FORWARD] = 1
    };
    size_t at = wasm_section(w, WASM_SEC_TYPE);
    wasm_u32(w, NTYPE);
    for (int t = 0; t < NTYPE; t++) {
        wasm_byte(w, WASM_FUNC);
        wasm_u32(w, (uint32_t)nparams[t]);
        for (int k = 0; k < nparams[t]; k++) wasm_byte(w, t == T_LIBM ? WASM_F64 : WASM_I32);
        wasm_u32(w, t == T_LIBM || t == T_FORWARD ? 1 : 0);
        if (t == T_LIBM) wasm_byte(w, WASM_F64);
        if (t == T_FORWARD) wasm_byte(w, WASM_I32);
    }
    wasm_end(w, at);
}

static void write_imports(wasm_buf *w)
{
    size_t at = wasm_section(w, WASM_SEC_IMPORT);
    wasm_u32(w, 4);
    wasm_name(w, "env");
    wasm_name(w, "memory");
    wasm_byte(w, WASM_EXTERN_MEMORY);
    wasm_byte(w, 0); /* limits: a minimum (of 0 pages), no maximum */
    wasm_u32(w, 0);
    for (int k = 0; k < 2; k++) {
        wasm_name(w, "env");
        wasm_name(w, k ? "cos" : "sin");
        wasm_byte(w, WASM_EXTERN_FUNC);
        wasm_u32(w, T_LIBM);
    }
    wasm_name(w, "env");
    wasm_name(w, "scratch");
    wasm_byte(w, WASM_EXTERN_GLOBAL);
    wasm_byte(w, WASM_I32);
    wasm_byte(w, 0); /* immutable */
    wasm_end(w, at);
}

typedef struct {
    const char *name;
    int kind, index;
} wexport;

static void write_module(wasm_buf *w, const module *mo, const wexport *ex, int nex, int start)
{
    static const unsigned char head[8] = { 0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00 };
    wasm_bytes(w, head, sizeof head);
    write_types(w);
    write_imports(w);
    size_t at = wasm_section(w, WASM_SEC_FUNCTION);
    wasm_u32(w, (uint32_t)mo->nf);
    for (int k = 0; k < mo->nf; k++) wasm_u32(w, (uint32_t)mo->f[k].type);
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_GLOBAL); /* scratch_bytes */
    wasm_u32(w, 1);
    wasm_byte(w, WASM_I32);
    wasm_byte(w, 0);
    wasm_byte(w, WASM_I32_CONST);
    wasm_s32(w, (int32_t)mo->sl.bytes);
    wasm_byte(w, WASM_END);
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_EXPORT);
    wasm_u32(w, (uint32_t)nex);
    for (int k = 0; k < nex; k++) {
        wasm_name(w, ex[k].name);
        wasm_byte(w, (unsigned)ex[k].kind);
        wasm_u32(w, (uint32_t)ex[k].index);
    }
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_START);
    wasm_u32(w, (uint32_t)start);
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_DATACOUNT);
    wasm_u32(w, 1);
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_CODE);
    wasm_u32(w, (uint32_t)mo->nf);
    for (int k = 0; k < mo->nf; k++) {
        wasm_u32(w, (uint32_t)mo->f[k].bytes.n);
        wasm_bytes(w, mo->f[k].bytes.b, mo->f[k].bytes.n);
    }
    wasm_end(w, at);
    at = wasm_section(w, WASM_SEC_DATA); /* one passive segment: the sin/cos table */
    wasm_u32(w, 1);
    wasm_u32(w, 1);
    wasm_u32(w, (uint32_t)sizeof mech_sincos_table);
    for (int j = 0; j < 128; j++)
        for (int k = 0; k < 2; k++) wasm_f64(w, mech_sincos_table[j][k]);
    wasm_end(w, at);
}

int gen_emit_wasm(emitters *em, wasm_buf *out, uint32_t *scratch_bytes, const gen_wasm_handle *handle)
{
    module mo = { .em = em };
    layout(&mo.sl, em);
    int full = plan_general_in_full(em), whole = em->own.st.nstage == 1 && !plan_has_halves(&em->own);
    int start = add_start(&mo);
    copy own = whole ? (copy){ &em->own, -1, -1 } : add_copy(&mo, &em->own), general = { 0 };
    if (full && !mo.failed) general = add_copy(&mo, &em->general);
    int shift = !full && !mo.failed ? add_part(&mo, &em->shift, em->shift.g->qdd, em->shift.g->m->nv, 0) : -1;
    int own_gravity = mo.failed ? -1 : add_own_gravity(&mo, &own);
    int fwd_dyn = mo.failed ? -1 : add_fwd_dyn(&mo, own_gravity, full ? &general : NULL, shift);
    int nobs = mech_observe_len(em->own.g->m);
    int observe = nobs > 0 && !mo.failed ? add_observe(&mo) : -1;
    int forward_model = handle && !mo.failed ? add_forward_model_gravity(&mo, &own, handle) : -1;
    int forward = handle && !mo.failed ? add_forward(&mo, handle, forward_model) : -1;
    if (!mo.failed) {
        wexport ex[6] = {
            { "fwd_dyn", WASM_EXTERN_FUNC, fwd_dyn },
            { "fwd_dyn_own_gravity", WASM_EXTERN_FUNC, own_gravity },
            { "scratch_bytes", WASM_EXTERN_GLOBAL, G_SCRATCH_BYTES },
        };
        int nex = 3;
        if (nobs > 0) ex[nex++] = (wexport){ "observe", WASM_EXTERN_FUNC, observe };
        if (handle) {
            ex[nex++] = (wexport){ "forward", WASM_EXTERN_FUNC, forward };
            ex[nex++] = (wexport){ "forward_model_gravity", WASM_EXTERN_FUNC, forward_model };
        }
        write_module(out, &mo, ex, nex, start);
        if (scratch_bytes) *scratch_bytes = mo.sl.bytes;
        if (out->failed) mo.failed = gen_fail(em->own.g, 0, "out of memory");
    }
    for (int k = 0; k < mo.nf; k++) wasm_buf_free(&mo.f[k].bytes);
    free(mo.f);
    return mo.failed ? -1 : 0;
}

int gen_emit_wasm_file(emitters *em, const char *path)
{
    wasm_buf w = { 0 };
    int rc = gen_emit_wasm(em, &w, NULL, NULL);
    if (rc == 0) {
        FILE *f = fopen(path, "wb");
        int ok = f && fwrite(w.b, 1, w.n, f) == w.n;
        if (f && fclose(f) != 0) ok = 0;
        if (!ok) {
            remove(path);
            rc = gen_fail(em->own.g, 0, "cannot write %s", path);
        }
    }
    wasm_buf_free(&w);
    return rc;
}
