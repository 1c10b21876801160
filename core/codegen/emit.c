/* emit.c — prints the expression DAG as C functions: forward dynamics, and
 * the observation function when the model declares anything to observe.
 *
 * Each function keeps only the nodes reachable from its outputs.  Each kept operation node becomes
 * one named temporary, `const double name = a op b;`, in node order (operands
 * always precede their users), so a shared subexpression is computed once
 * and later sections refer to it by name: the name the generator gave it for
 * its role (gen_name: `v3_wz`, `H_2_1`), `s1`/`c1` for the sine and cosine of
 * q[1], else `tN`.  Constants and inputs are written inline.  Temporaries are grouped under the heading of the algorithm
 * section that first built them.  The forward dynamics comes at the model's
 * own gravity (folded into constants) and, for another gravity, as a second
 * copy with gravity an input (a small model) or as the generalized gravity
 * force that shifts tau into the first copy (a staged one); fwd_dyn
 * dispatches on the gravity argument.  A large copy is cut into
 * stages (stages.c); a small one with joint angles comes as two copies, with
 * checked and unchecked sin/cos (docs/codegen.md). */
#include "codegen/plan.h"

#include "rbda/elements.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_title[SEC_COUNT] = {
    "kinematics: joint and tree transforms, E = R^T (RBDA Table 4.1)",
    "velocities: v_i = i_X_p v_p + S_i qd_i, c_i = v_i x S_i qd_i (RBDA eq. 5.7)",
    "bias forces: C = RNEA(q, qd, 0, fext), gravity as base acceleration (RBDA Table 5.1)",
    "CRBA: composite inertias, lower triangle of H (RBDA Table 6.2)",
    "base-coordinate kinematics of loop, POI and tsda bodies (RBDA eq. 2.26)",
    "force elements: tsda path walk, rsda on its joint (tau_e)",
    "loops: K (RBDA eqs. 8.18-8.20), k (Table 8.4) + kstab (sec. 8.3), exact position errors",
    "L^T D L: in-place factorization over the expanded parent array (RBDA Table 6.3)",
    "solve, first half: u = L^-T (tau + tau_e - C) (RBDA Table 6.5)",
    "method 2 (RBDA sec. 8.5): z = L^-T K^T, A = K H^-1 K^T = L D L^T, u += z lambda",
    "solve, second half: qdd = L^-1 D^-1 u (RBDA Table 6.5)",
    "observation values",
};

/* The sections the articulated-body algorithm writes in place of the CRBA and the solve. */
static const char *section_heading(const gen *g, int s)
{
    if (g->algorithm != GEN_ABA) return section_title[s];
    switch (s) {
    case SEC_CRBA: return "articulated inertias I^A, U = I^A S, D = S^T U (RBDA Table 7.1 pass 2, q only)";
    case SEC_SOLVE: return "backward pass: u = tau + tau_e - C - S^T p, p += X^T (p + U D^-1 u) (Table 7.1 pass 2)";
    case SEC_CONSTRAINT:
        return "method 2 (RBDA sec. 8.5): z = backward pass of K^T, A = K H^-1 K^T = L D L^T, u += z lambda";
    case SEC_BACKSUB: return "forward pass: qdd = D^-1 (u - U^T X a), a = X a + S qdd (Table 7.1 pass 3)";
    default: return section_title[s];
    }
}


/* Shortest %g form that reads back exactly, always with a '.' or exponent. */
static void format_double(char *buf, size_t cap, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    if (!strpbrk(buf, ".e")) strncat(buf, ".0", cap - strlen(buf) - 1);
}

/* An operand; a negative constant after an operator is parenthesized. */
static void atom(FILE *f, const emitter *em, ex id, int leading)
{
    const ex_node *n = &em->g->p.nodes[id];
    char buf[40];
    switch (n->op) {
    case EX_CONST:
        format_double(buf, sizeof buf, n->c);
        fprintf(f, !leading && n->c < 0 ? "(%s)" : "%s", buf);
        break;
    case EX_INPUT: fprintf(f, "%s[%d]", ex_input_name(n->array), n->index); break;
    default: fputs(em->name[id], f); break;
    }
}


/* The output names of trig node `id`'s angle: its sin and cos temporaries,
 * or a scratch name for a half nothing reads (the compiler drops it). */
static void trig_names(const emitter *em, ex id, char *sname, char *cname, size_t cap)
{
    const ex_node *n = &em->g->p.nodes[id];
    int other = plan_trig_partner(em, id);
    ex s = n->op == EX_SIN ? id : other, c = n->op == EX_COS ? id : other;
    char base[GEN_LABEL_LEN];
    if (s >= 0) snprintf(sname, cap, "%s", em->name[s]);
    else plan_trig_name(em, id, EX_SIN, base, sizeof base), snprintf(sname, cap, "%s_unused", base);
    if (c >= 0) snprintf(cname, cap, "%s", em->name[c]);
    else plan_trig_name(em, id, EX_COS, base, sizeof base), snprintf(cname, cap, "%s_unused", base);
}


/* Every angle's sin and cos are emitted together, where the first trig node
 * would be (they depend on inputs only): two angles per inline mech_sincos2,
 * whose packed arithmetic does both at the cost of about one, and a last odd
 * angle by mech_sincos (mech_sincos1_near in the unchecked copy; mech_sincos.h).
 * An angle whose sin and cos only multiply gravity components — a root joint
 * about the model's own gravity axis, which matters only for a gravity with
 * a component across that axis — is computed only when one of those
 * components is nonzero; otherwise its products are zero whatever the
 * angle, and it is taken as 0. */
static void trig_statements(FILE *f, const emitter *em)
{
    const ex_pool *p = &em->g->p;
    ex pending = -1;
    char s0[40], c0[40], s1[40], c1[40];
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if ((n->op != EX_SIN && n->op != EX_COS) || em->tnum[id] < 0) continue;
        int other = plan_trig_partner(em, id);
        if (other >= 0 && other < id) continue; /* same angle as an earlier node */
        if (plan_gravity_only(em, id)) continue;
        if (pending < 0) {
            pending = id;
            continue;
        }
        trig_names(em, pending, s0, c0, sizeof s0);
        trig_names(em, id, s1, c1, sizeof s1);
        fprintf(f, "    double %s, %s, %s, %s;\n    mech_sincos2%s(", s0, c0, s1, c1, em->near ? "_near" : "");
        atom(f, em, p->nodes[pending].a, 1);
        fputs(", ", f);
        atom(f, em, n->a, 1);
        fprintf(f, ", &%s, &%s, &%s, &%s);\n", s0, c0, s1, c1);
        pending = -1;
    }
    if (pending >= 0) {
        trig_names(em, pending, s0, c0, sizeof s0);
        fprintf(f, "    double %s, %s;\n    %s(", s0, c0, em->near ? "mech_sincos1_near" : "mech_sincos");
        atom(f, em, p->nodes[pending].a, 1);
        fprintf(f, ", &%s, &%s);\n", s0, c0);
    }
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if ((n->op != EX_SIN && n->op != EX_COS) || em->tnum[id] < 0) continue;
        int other = plan_trig_partner(em, id), mask = plan_gravity_only(em, id);
        if ((other >= 0 && other < id) || !mask) continue;
        trig_names(em, id, s0, c0, sizeof s0);
        fputs("    double ", f);
        fprintf(f, "%s, %s;\n    if (", s0, c0);
        for (int k = 0, first = 1; k < 3; k++)
            if (mask & 1 << k) fprintf(f, "%sgravity[%d] != 0.0", first ? "" : " || ", k), first = 0;
        fprintf(f, ")\n        %s(", em->near ? "mech_sincos1_near" : "mech_sincos");
        atom(f, em, n->a, 1);
        fprintf(f, ", &%s, &%s);\n    else\n        %s = 0.0, %s = 1.0;\n", s0, c0, s0, c0);
    }
}

static void statement(FILE *f, const emitter *em, ex id)
{
    const ex_node *n = &em->g->p.nodes[id];
    static const char *const infix[] = { [EX_ADD] = " + ", [EX_SUB] = " - ", [EX_MUL] = " * ", [EX_DIV] = " / " };
    if (n->op == EX_SIN || n->op == EX_COS) {
        trig_statements(f, em);
        return;
    }
    fprintf(f, "    const double %s = ", em->name[id]);
    switch (n->op) {
    case EX_NEG:
        fputc('-', f);
        atom(f, em, n->a, 0);
        break;
    case EX_SQRT:
        fputs("sqrt(", f);
        atom(f, em, n->a, 1);
        fputc(')', f);
        break;
    case EX_MIN: /* a compare and select (one minsd), not a call of fmin: the inputs are finite */
    case EX_MAX:
        atom(f, em, n->a, 1);
        fputs(n->op == EX_MIN ? " < " : " > ", f);
        atom(f, em, n->b, 0);
        fputs(" ? ", f);
        atom(f, em, n->a, 0);
        fputs(" : ", f);
        atom(f, em, n->b, 0);
        break;
    case EX_RECIP0:
        atom(f, em, n->a, 1);
        fputs(" > 0.0 ? 1.0 / ", f);
        atom(f, em, n->a, 0);
        fputs(" : 0.0", f);
        break;
    default:
        atom(f, em, n->a, 1);
        fputs(infix[n->op], f);
        atom(f, em, n->b, 0);
        break;
    }
    fputs(";\n", f);
}


static void write_header(FILE *f, const gen *g, const char *cname)
{
    char guard[96];
    size_t k = 0;
    for (const char *s = cname; *s && k + 1 < sizeof guard; s++) guard[k++] = (char)toupper((unsigned char)*s);
    guard[k] = '\0';
    fprintf(f,
            "/* %s.h — forward dynamics generated from %s by %s.\n"
            " * Do not edit: it is regenerated from the model at build time. */\n"
            "#ifndef MECHGEN_%s_H\n#define MECHGEN_%s_H\n\n#include \"sim/generated.h\"\n\n"
            "/* nq = %d, nv = %d, nb = %d, nc = %d, nact = %d; see mech_fwd_dyn_fn in generated.h. */\n"
            "void mechgen_%s_fwd_dyn(const double *q, const double *qd, const double *tau,\n"
            "                        const double *fext, const double *act, const double *gravity, double *qdd);\n",
            g->name, g->path, MECHGEN_VERSION, guard, guard, g->m->nq, g->m->nv, g->m->nb, g->m->nc, g->m->nact, cname);
    if (mech_observe_len(g->m) > 0)
        fprintf(f,
                "/* %d observation values; see mech_observe_fn in generated.h. */\n"
                "void mechgen_%s_observe(const double *q, const double *qd, double *out);\n",
                mech_observe_len(g->m), cname);
    fprintf(f, "extern const mech_generated mechgen_%s;\n\n#endif\n", cname);
}

typedef struct {
    FILE *f;
    emitter *em;
    int stage;
} loader;

/* Before a stage's first read of a temporary an earlier stage built: `const double name = w[slot];`. */
static void load(void *ctx, ex id)
{
    loader *l = ctx;
    emitter *em = l->em;
    int d = em->st.stmt_of[id];
    if (em->st.slot[id] < 0 || em->loaded[id] == l->stage + 1 || gen_stages_stage_of(&em->st, d) == l->stage) return;
    em->loaded[id] = l->stage + 1;
    fprintf(l->f, "    const double %s = w[%d];\n", em->name[id], em->st.slot[id]);
}

/* After the statement that builds them: `w[slot] = name;` for what later stages read. */
static void store_defs(FILE *f, const emitter *em, int i)
{
    const gen_stages *st = &em->st;
    const ex_pool *p = &em->g->p;
    ex first = st->stmt[i], end = first + 1;
    if (p->nodes[first].op == EX_SIN || p->nodes[first].op == EX_COS) end = p->n; /* the trig group */
    for (ex id = first; id < end; id++)
        if (st->stmt_of[id] == i && st->slot[id] >= 0) fprintf(f, "    w[%d] = %s;\n", st->slot[id], em->name[id]);
}

/* The statements of stage k, under the heading of the section that built them. */
static void write_body(FILE *f, emitter *em, int k)
{
    const gen *g = em->g;
    const gen_stages *st = &em->st;
    loader l = { f, em, k };
    int sec = -1;
    for (int i = st->start[k]; i < st->start[k + 1]; i++) {
        ex id = st->stmt[i];
        int s = sec < 0 ? 0 : sec;
        while (s + 1 < SEC_COUNT && g->section[s + 1] <= id) s++;
        if (s != sec) {
            fprintf(f, "\n    /* ---- %s ---- */\n", section_heading(g, s));
            sec = s;
        }
        gen_stages_uses(st, &g->p, i, load, &l);
        statement(f, em, id);
        store_defs(f, em, i);
    }
}

static void write_outputs(FILE *f, emitter *em, const char *array, const ex *out, int n)
{
    loader l = { f, em, em->st.nstage - 1 };
    fputs("\n    /* ---- result ---- */\n", f);
    for (int i = 0; i < n; i++) load(&l, out[i]);
    for (int i = 0; i < n; i++) {
        fprintf(f, "    %s[%d] = ", array, i);
        atom(f, em, out[i], 1);
        fputs(";\n", f);
    }
}

static void write_description(FILE *f, const emitters *em, const char *h_name)
{
    const gen *g = em->own.g;
    const mech_model *m = g->m;
    const gen_ops *o = &em->own.ops, *og = plan_general_in_full(em) ? &em->general.ops : &em->shift.ops;
    int nfext = 0;
    for (int i = 0; i < m->nb; i++) nfext += m->bodies[i].fext;
    fprintf(f,
            "/* %s.c — forward dynamics generated from %s by %s.\n"
            " * Do not edit: it is regenerated from the model at build time.\n"
            " *\n"
            " * nq = %d, nv = %d, nb = %d, %d bod%s reading fext\n"
            " * %d loop%s (nc = %d), %d tsda, %d rsda, nact = %d, %d POI%s\n"
            " * %d operations at the model's own gravity: %d mul, %d add/sub, %d div, %d neg, %d sin/cos, %d sqrt\n"
            " * %d %s: %d mul, %d add/sub, %d div, %d neg, %d sin/cos, %d sqrt\n"
            " *\n",
            g->name, g->path, MECHGEN_VERSION, m->nq, m->nv, m->nb, nfext, nfext == 1 ? "y" : "ies", m->nloop,
            m->nloop == 1 ? "" : "s", m->nc, m->ntsda, m->nrsda, m->nact, m->npoi, m->npoi == 1 ? "" : "s", o->total,
            o->mul, o->add, o->div, o->neg, o->trig, o->sqrt, og->total,
            plan_general_in_full(em) ? "with gravity an input" : "more for another gravity, tau - G(q) (g - g0)",
            og->mul, og->add, og->div, og->neg, og->trig, og->sqrt);
    int aba = g->algorithm == GEN_ABA;
    const char *name[2] = { "CRBA + L^T D L", "the articulated-body algorithm" };
    if (g->other_ops >= 0)
        fprintf(f,
                " * By %s; by %s %d operations at the model's gravity (mechgen\n"
                " * keeps the articulated-body algorithm below 0.9 of the CRBA's operations, unless\n"
                " * --algorithm names one)\n",
                name[aba], name[!aba], g->other_ops);
    else fprintf(f, " * By %s, as mechgen --algorithm asked\n", name[aba]);
    if (aba) {
        fputs(" * qdd = H(q)^-1 (tau + tau_e - C(q, qd, fext, gravity)): C by RNEA, H^-1 by the\n"
              " * articulated-body algorithm (RBDA Table 7.1): articulated inertias, U and D from q alone,\n"
              " * then each right-hand side by a backward and a forward pass\n",
              f);
    } else {
        fputs(" * qdd = H(q)^-1 (tau + tau_e - C(q, qd, fext, gravity)): C by RNEA, H by CRBA, solved by\n"
              " * sparse L^T D L over the expanded parent array (RBDA sec 6.5)\n"
              " *   lambda = {",
              f);
        for (int i = 0; i < m->nv; i++)
            fprintf(f, "%s%s%d", i ? "," : "", i && i % 20 == 0 ? "\n *     " : " ", g->lambda[i]);
        fputs(" }\n", f);
    }
    if (m->nc > 0)
        fputs(" * with the loop constraints K qdd = k + kstab by method 2 (RBDA sec 8.5): the one\n"
              " * factorization serves qdd0 and all nc columns of H^-1 K^T; only A = K H^-1 K^T\n"
              " * is factorized densely.\n",
              f);
    fprintf(
        f,
        " * Structural zeros were removed at generation time; every temporary below is\n"
        " * computed once.  fwd_dyn runs the _own copy when the gravity argument is the\n"
        " * model's, bit-identical to gravity folded in; for another gravity\n"
        " * %s (docs/codegen.md, \"Gravity, an input\").\n */\n#include \"%s\"\n\n#include <math.h>\n#include <stddef.h>\n\n#include \"spatial/mech_sincos.h\"\n\n",
        plan_general_in_full(em) ? "the _g copy" : "the _own copy after gravity_tau", h_name);
}

/* One of a copy's parts (MECHGEN_PART: the whole copy, or its near or far
 * half; fext and act already defaulted), or a staged copy's driver, inlined
 * into fwd_dyn, which was the driver before there were two paths. */
typedef enum { FD_PART, FD_STAGES } fd_kind;

/* The signature and prologue of fwd_dyn + suffix. */
static void write_fwd_dyn_head(FILE *f, const emitter *em, const char *cname, const char *suffix, fd_kind kind)
{
    if (kind == FD_STAGES) fputs("static inline __attribute__((always_inline))\n", f);
    fprintf(f,
            "%svoid mechgen_%s_fwd_dyn%s(const double *q, const double *qd, const double *tau,\n"
            "%*s const double *fext, const double *act, const double *gravity, double *qdd)\n{\n",
            kind == FD_PART ? "MECHGEN_PART " : "", cname, suffix,
            (int)(strlen(cname) + strlen(suffix)) + (kind == FD_PART ? 33 : 20), "");
    if (kind == FD_STAGES) return;
    if (!em->uses[EX_IN_Q]) fputs("    (void)q;\n", f);
    if (!em->uses[EX_IN_QD]) fputs("    (void)qd;\n", f);
    if (!em->uses[EX_IN_TAU]) fputs("    (void)tau;\n", f);
    if (!em->uses[EX_IN_GRAVITY]) fputs("    (void)gravity;\n", f);
    if (em->g->m->nv == 0) fputs("    (void)qdd;\n", f);
    if (!em->uses[EX_IN_FEXT]) fputs("    (void)fext;\n", f);
    if (!em->uses[EX_IN_ACT]) fputs("    (void)act;\n", f);
}

/* Stage k of the forward dynamics: a function of the inputs, w and qdd. */
static void write_stage(FILE *f, emitter *em, const char *cname, int k)
{
    int pad = (int)(strlen(cname) + strlen(em->variant)) + 30 + (k > 9) + (k > 99);
    fprintf(
        f,
        "\nMECHGEN_PART void mechgen_%s_fwd_dyn%s_s%d(const double *q, const double *qd, const double *tau,\n"
        "%*s const double *fext, const double *act, const double *gravity, double *restrict w,\n"
        "%*s double *qdd)\n{\n"
        "    (void)q, (void)qd, (void)tau, (void)fext, (void)act, (void)gravity, (void)w, (void)qdd; /* each stage reads some */\n",
        cname, em->variant, k, pad, "", pad, "");
    write_body(f, em, k);
    if (k == em->st.nstage - 1) write_outputs(f, em, "qdd", em->g->qdd, em->g->m->nv);
    fputs("}\n", f);
}

/* A whole unstaged copy, or one of its near and far halves. */
static void write_whole(FILE *f, emitter *em, const char *cname, const char *half)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, "%s%s", em->variant, half);
    write_fwd_dyn_head(f, em, cname, suffix, FD_PART);
    write_body(f, em, 0);
    write_outputs(f, em, "qdd", em->g->qdd, em->g->m->nv);
    fputs("}\n", f);
}


/* `fabs(a) <= MECH_SINCOS_MAX && ...` over the distinct angles, indented by `in`. */
static void write_angle_check(FILE *f, const emitter *em, const char *in)
{
    const ex_pool *p = &em->g->p;
    int first = 1;
    fprintf(f, "%sif (", in);
    for (ex id = 0; id < p->n; id++) {
        const ex_node *n = &p->nodes[id];
        if (em->tnum[id] < 0 || (n->op != EX_SIN && n->op != EX_COS)) continue;
        int other = plan_trig_partner(em, id);
        if (other >= 0 && other < id) continue; /* the same angle as an earlier node */
        if (!first) fprintf(f, " &&\n%s    ", in);
        fputs("fabs(", f);
        atom(f, em, n->a, 1);
        fputs(") <= MECH_SINCOS_MAX", f);
        first = 0;
    }
    fputs(")\n", f);
}

/* MECHGEN_PART: a part of fwd_dyn (a stage, one of the two copies, or a
 * copy's near or far half) is `wasm` in WebAssembly and `native` natively:
 * stages left to gcc's judgement (plain inline), since it keeps a large w[] in
 * memory where forcing them inline is slower; the two copies always inlined
 * into the dispatcher, whose address-taken near copy otherwise stays a call
 * (docs/benchmarks.md, "Measured reasons in the code").
 * A stage or a half is a function of its own in WebAssembly; a whole copy is
 * inlined there too, so that a model with neither pays no extra call on
 * fwd_dyn's path through the gravity check. */
static void write_part_macro(FILE *f, const char *wasm, const char *native)
{
    if (!strcmp(wasm, native)) fprintf(f, "#define MECHGEN_PART %s\n", native);
    else
        fprintf(f,
                "#if defined(__wasm__)\n#define MECHGEN_PART %s\n"
                "#else\n#define MECHGEN_PART %s\n#endif\n",
                wasm, native);
    fputs("/* The code for any other gravity: out of fwd_dyn's line, natively cold, so that its path\n"
          " * at the model's gravity is what it was with gravity folded in (docs/codegen.md). */\n"
          "#if defined(__wasm__)\n#define MECHGEN_OTHER static __attribute__((noinline))\n"
          "#else\n#define MECHGEN_OTHER static __attribute__((noinline, cold))\n#endif\n",
          f);
}


/* One copy of the forward dynamics: its stages and their driver, its near
 * and far halves, or one function. */
static void write_copy(FILE *f, emitter *em, const char *cname)
{
    if (em->st.nstage > 1) {
        fprintf(f,
                "\n/* %s: %d stages; the %d temporaries a later stage reads pass through w (docs/codegen.md,\n"
                " * \"Stages\": in WebAssembly this cuts what V8 spills). */\n",
                em->variant + 1, em->st.nstage, em->st.nslot);
        for (int k = 0; k < em->st.nstage; k++) write_stage(f, em, cname, k);
        fputc('\n', f);
        write_fwd_dyn_head(f, em, cname, em->variant, FD_STAGES);
        fprintf(f, "    double w[%d];\n", em->st.nslot);
        for (int k = 0; k < em->st.nstage; k++)
            fprintf(f, "    mechgen_%s_fwd_dyn%s_s%d(q, qd, tau, fext, act, gravity, w, qdd);\n", cname, em->variant, k);
        fputs("}\n", f);
        return;
    }
    fputc('\n', f);
    if (!plan_has_halves(em)) {
        write_whole(f, em, cname, "");
        return;
    }
    write_whole(f, em, cname, "_far");
    em->near = 1;
    fputc('\n', f);
    write_whole(f, em, cname, "_near");
    em->near = 0;
}

static const char fd_args[] = "(q, qd, tau, fext, act, gravity, qdd);\n";
/* The own copy's arguments where there is no gravity argument: the copy never reads it. */
static const char own_args[] = "(q, qd, tau, fext, act, qdd);\n";
static const char own_copy_args[] = "(q, qd, tau, fext, act, NULL, qdd);\n";

/* The call of one copy, indented by `in`: through the angle check to its near
 * or far half when it has them. */
static void write_copy_call(FILE *f, const emitter *em, const char *cname, const char *in, const char *args)
{
    if (!plan_has_halves(em)) {
        fprintf(f, "%smechgen_%s_fwd_dyn%s%s", in, cname, em->variant, args);
        return;
    }
    write_angle_check(f, em, in);
    fprintf(f, "%s    mechgen_%s_fwd_dyn%s_near%s%selse\n%s    mechgen_%s_fwd_dyn%s_far%s", in, cname, em->variant,
            args, in, in, cname, em->variant, args);
}

/* `gravity[0] == gx && ...`: the model's own gravity, exactly (a zero of
 * either sign passes, where the folded copy is still exact). */
static void write_own_gravity(FILE *f, const mech_model *m)
{
    char gx[40];
    for (int k = 0; k < 3; k++) {
        format_double(gx, sizeof gx, m->gravity[k]);
        fprintf(f, "%sgravity[%d] == %s", k ? " && " : "", k, gx);
    }
}

static const char fd_params[] = "(const double *q, const double *qd, const double *tau,\n";

/* tau_g = tau - G(q) dg: the generalized gravity force alone (gen_gravity_tau),
 * under the argument name gravity. */
static void write_gravity_tau(FILE *f, emitter *em, const char *cname)
{
    const gen *g = em->g;
    fprintf(f,
            "\n/* tau_g = tau - G(q) gravity, the generalized force of gravity alone (RNEA with qd = 0, no\n"
            " * fext); fwd_dyn passes gravity - the model's, so FD(tau, g) = FD(tau_g, the model's g). */\n"
            "MECHGEN_OTHER void mechgen_%s_gravity_tau(const double *q, const double *tau, const double *gravity,\n"
            "%*s double *tau_g)\n{\n",
            cname, (int)strlen(cname) + 34, "");
    if (!em->uses[EX_IN_Q]) fputs("    (void)q;\n", f);
    if (!em->uses[EX_IN_GRAVITY]) fputs("    (void)gravity;\n", f);
    write_body(f, em, 0);
    write_outputs(f, em, "tau_g", g->qdd, g->m->nv);
    fputs("}\n", f);
}

/* fwd_dyn's path at the model's gravity: the own copy, or a staged one through its entry. */
static void write_own_path(FILE *f, const emitter *own, const char *cname, const char *in, int staged)
{
    if (staged) fprintf(f, "%smechgen_%s_fwd_dyn_own_gravity%s", in, cname, own_args);
    else write_copy_call(f, own, cname, in, fd_args);
}

/* fext and act NULL: the zero arrays, where a copy reads them. */
static void write_defaults(FILE *f, int fext, int act)
{
    if (fext) fputs("    if (!fext) fext = no_fext;\n", f);
    if (act) fputs("    if (!act) act = no_act;\n", f);
}

/* The copies, fwd_dyn, which defaults fext and act and picks the copy by the
 * gravity argument, and fwd_dyn_own_gravity; with halves in both copies also
 * fwd_dyn_own_gravity_near, the descriptor's unchecked entry: the own near
 * half. */
static void write_fwd_dyn(FILE *f, emitters *ems, const char *cname)
{
    emitter *own = &ems->own, *gen = &ems->general;
    const mech_model *m = own->g->m;
    int full = plan_general_in_full(ems);
    int fext = own->uses[EX_IN_FEXT] || (full && gen->uses[EX_IN_FEXT]);
    int act = own->uses[EX_IN_ACT] || (full && gen->uses[EX_IN_ACT]);
    int staged = own->st.nstage > 1 || (full && gen->st.nstage > 1),
        halves = plan_has_halves(own) && full && plan_has_halves(gen);
    if (fext) fprintf(f, "static const double no_fext[%d];\n", 6 * m->nb);
    if (act) fprintf(f, "static const double no_act[%d];\n", m->nact + 1); /* and h, the implicit step */
    if (plan_has_halves(own) || (full && plan_has_halves(gen)))
        fputs("\n/* Copies with halves (docs/codegen.md, \"Trigonometry\"): _near with the unchecked sin/cos,\n"
              " * taken when every angle is within +-MECH_SINCOS_MAX, and _far, which falls back to libm.\n"
              " * In WebAssembly a function that may call libm spills even when it never does. */\n",
              f);
    static const char always[] = "static inline __attribute__((always_inline))";
    int whole = !staged && !plan_has_halves(own) && !(full && plan_has_halves(gen));
    write_part_macro(f, whole ? always : "static __attribute__((noinline))", staged ? "static inline" : always);
    write_copy(f, own, cname);
    if (full) {
        write_copy(f, gen, cname);
        fprintf(f,
                "\n/* Any other gravity. */\n"
                "MECHGEN_OTHER void mechgen_%s_fwd_dyn_other%s%*s const double *fext, const double *act, "
                "const double *gravity, double *qdd)\n{\n",
                cname, fd_params, (int)strlen(cname) + 40, "");
        write_copy_call(f, gen, cname, "    ", fd_args);
        fputs("}\n", f);
    } else {
        write_gravity_tau(f, &ems->shift, cname);
    }
    /* A staged copy's driver has one caller, this entry, which fwd_dyn calls in turn: gcc inlines a
     * static inline stage only into a lone caller (rrrs: 2111 instructions a call that way, 2213 with
     * the driver inlined into two). */
    fprintf(f,
            "\n/* fwd_dyn at the model's own gravity, with no gravity argument: for a caller that checks\n"
            " * the gravity once for many calls (the descriptor's fwd_dyn_own_gravity). */\n"
            "static %svoid mechgen_%s_fwd_dyn_own_gravity%s%*s const double *fext, const double *act, double *qdd)\n"
            "{\n",
            staged ? "__attribute__((noinline)) " : "", cname, fd_params, (int)strlen(cname) + 44 + (staged ? 26 : 0),
            "");
    write_defaults(f, fext, act);
    write_copy_call(f, own, cname, "    ", own_copy_args);
    fputs("}\n", f);
    fprintf(f,
            "\nvoid mechgen_%s_fwd_dyn%s%*s const double *fext, const double *act, const double *gravity, "
            "double *qdd)\n{\n",
            cname, fd_params, (int)strlen(cname) + 20, "");
    write_defaults(f, fext, act);
    if (!full) {
        char gx[3][40];
        for (int k = 0; k < 3; k++) format_double(gx[k], sizeof gx[k], m->gravity[k]);
        fprintf(f, "    double tau_g[%d];\n    if (!(", m->nv);
        write_own_gravity(f, m);
        fputs(")) {\n        const double dg[3] = {", f);
        for (int k = 0; k < 3; k++) /* x - (-c) is x + c exactly */
            fprintf(f, "%s gravity[%d] %c %s", k ? "," : "", k, gx[k][0] == '-' ? '+' : '-', gx[k] + (gx[k][0] == '-'));
        fprintf(f, " };\n        mechgen_%s_gravity_tau(q, tau, dg, tau_g);\n        tau = tau_g;\n    }\n", cname);
        write_own_path(f, own, cname, "    ", staged);
        fputs("}\n", f);
        return;
    }
    fputs("    if (", f);
    write_own_gravity(f, m);
    fputs(halves ? ") {\n" : ")\n", f);
    write_own_path(f, own, cname, "        ", staged);
    fprintf(f, "    %selse\n        mechgen_%s_fwd_dyn_other%s}\n", halves ? "} " : "", cname, fd_args);
    if (!halves) return;
    fprintf(f,
            "\nstatic void mechgen_%s_fwd_dyn_own_gravity_near%s%*s const double *fext, const double *act, "
            "double *qdd)\n{\n    mechgen_%s_fwd_dyn_own_near%s}\n",
            cname, fd_params, (int)strlen(cname) + 49, "", cname, own_copy_args);
}

static void write_observe(FILE *f, emitter *em, const char *cname)
{
    const gen *g = em->g;
    fprintf(f,
            "\n/* Observation values, mech_observe's layout (core/rbda/elements.h). */\n"
            "void mechgen_%s_observe(const double *q, const double *qd, double *out)\n{\n",
            cname);
    if (!em->uses[EX_IN_Q]) fputs("    (void)q;\n", f);
    if (!em->uses[EX_IN_QD]) fputs("    (void)qd;\n", f);
    write_body(f, em, 0);
    write_outputs(f, em, "out", g->obs, mech_observe_len(g->m));
    fputs("}\n", f);
}

static void write_tables(FILE *f, const emitters *em, const char *cname)
{
    const gen *g = em->own.g;
    const mech_model *m = g->m;
    int nel = m->ntsda + m->nrsda, nobs = mech_observe_len(m);
    char gx[3][40];
    for (int k = 0; k < 3; k++) format_double(gx[k], sizeof gx[k], m->gravity[k]);
    fprintf(f, "\nstatic const unsigned char fext_bodies[%d] = {", m->nb);
    for (int i = 0; i < m->nb; i++)
        fprintf(f, "%s%s%d", i ? "," : "", i && i % 32 == 0 ? "\n   " : " ", m->bodies[i].fext);
    fputs(" };\n", f);
    if (m->npoi + nel > 0) {
        fprintf(f, "static const char *const names[%d] = {", m->npoi + nel);
        for (int i = 0; i < m->npoi; i++) fprintf(f, "\n    \"%s\",", m->pois[i].name);
        for (int i = 0; i < m->ntsda; i++) fprintf(f, "\n    \"%s\",", m->tsdas[i].name);
        for (int i = 0; i < m->nrsda; i++) fprintf(f, "\n    \"%s\",", m->rsdas[i].name);
        fputs("\n};\n", f);
    }
    if (nel > 0) {
        fprintf(f, "static const int act_slot[%d] = {", nel);
        for (int i = 0; i < m->ntsda; i++) fprintf(f, "%s %d", i ? "," : "", m->tsdas[i].act);
        for (int i = 0; i < m->nrsda; i++) fprintf(f, "%s %d", i || m->ntsda ? "," : "", m->rsdas[i].act);
        fputs(" };\n", f);
    }
    fprintf(f,
            "\nconst mech_generated mechgen_%s = {\n"
            "    .name = \"%s\", .generator = \"%s\",\n"
            "    .nq = %d, .nv = %d, .nb = %d, .nact = %d, .nc = %d,\n"
            "    .fext_bodies = fext_bodies, .gravity = { %s, %s, %s },\n"
            "    .fwd_dyn = mechgen_%s_fwd_dyn, .fwd_dyn_own_gravity = mechgen_%s_fwd_dyn_own_gravity,\n"
            "    .npoi = %d, .ntsda = %d, .nrsda = %d, .observe_len = %d,\n",
            cname, g->name, MECHGEN_VERSION, m->nq, m->nv, m->nb, m->nact, m->nc, gx[0], gx[1], gx[2], cname, cname,
            m->npoi, m->ntsda, m->nrsda, nobs);
    if (plan_has_halves(&em->own) && plan_general_in_full(em) && plan_has_halves(&em->general))
        fprintf(f, "    .fwd_dyn_own_gravity_near = mechgen_%s_fwd_dyn_own_gravity_near,\n", cname);
    if (m->npoi + nel > 0) fputs("    .names = names,\n", f);
    if (nel > 0) fputs("    .act_slot = act_slot,\n", f);
    if (nobs > 0) fprintf(f, "    .observe = mechgen_%s_observe,\n", cname);
    fputs("};\n", f);
}

static void write_source(FILE *f, emitters *em, const char *cname, const char *h_name)
{
    write_description(f, em, h_name);
    write_fwd_dyn(f, em, cname);
    if (mech_observe_len(em->own.g->m) > 0) write_observe(f, &em->obs, cname);
    write_tables(f, em, cname);
}

/* Writes the header (h_name NULL) or the source to `path`; on any error the partial file is removed. */
static int write_file(gen *g, const char *path, emitters *em, const char *cname, const char *h_name)
{
    FILE *f = fopen(path, "w");
    if (!f) return gen_fail(g, 0, "cannot write %s: %s", path, strerror(errno));
    if (h_name) write_source(f, em, cname, h_name);
    else write_header(f, g, cname);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        remove(path);
        return gen_fail(g, 0, "error writing %s", path);
    }
    return 0;
}


void gen_write_source(FILE *f, emitters *em, const char *cname, const char *h_name)
{
    write_source(f, em, cname, h_name);
}

int gen_emit(emitters *em, const char *cname, const char *c_path, const char *h_path)
{
    gen *own = em->own.g;
    const char *slash = strrchr(h_path, '/');
    const char *why = gen_unquotable(slash ? slash + 1 : h_path);
    if (why) return gen_fail(own, 0, "the header's name cannot be written into an #include line: it holds %s", why);
    int rc = write_file(own, h_path, em, cname, NULL);
    if (rc == 0 && (rc = write_file(own, c_path, em, cname, slash ? slash + 1 : h_path)) != 0) remove(h_path);
    return rc;
}
