/* plan.h — what every back end emits from: the kept nodes of each generated
 * function, their statements and stages, and the choices the C emitter
 * (emit.c) and the WebAssembly emitter (emit_wasm.c) share — which angles
 * only multiply gravity, whether another gravity takes the general copy or
 * the shift, which copies have near and far halves (docs/codegen.md). */
#ifndef MECH_CODEGEN_PLAN_H
#define MECH_CODEGEN_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "codegen/gen.h"
#include "codegen/stages.h"

/* One generated function's plan. */
typedef struct {
    gen *g;
    const char *variant;         /* "_own" or "_g": the copy's part of its function names */
    int *tnum;                   /* temporary number of a kept operation node, or -1 */
    gen_ops ops;                 /* operation counts, one per temporary           */
    char (*name)[GEN_LABEL_LEN]; /* per kept operation node: its C name */
    unsigned char *gmask;        /* per trig node: bit k when it multiplies gravity[k], */
                                 /* GM_OTHER when anything else reads it           */
    int uses[EX_IN_COUNT];       /* which input arrays the function reads        */
    gen_stages st;               /* statements and stages                         */
    int near;                    /* writing the copy with unchecked sin/cos       */
    int *loaded;                 /* per node: 1 + the stage that last read it from w */
} emitter;

/* The functions of one generated file: forward dynamics at the model's own
 * gravity and at any gravity, the gravity shift, and observe. */
typedef struct {
    emitter own, general, shift, obs;
} emitters;

/* Plans the four functions from three runs of the pipeline over the same
 * model: `own` with fold_gravity set, `general` with gravity an input and
 * `shift` by gen_gravity_tau.  0, or -1 with own->err set; free with
 * gen_plan_free either way. */
int gen_plan(emitters *em, gen *own, gen *general, gen *shift);
void gen_plan_free(emitters *em);

/* Writes the generated source and header for model `cname` (a C identifier
 * fragment) from the plan: a small model takes the general copy for any other
 * gravity, a staged one the own copy after the shift (docs/codegen.md,
 * "Gravity, an input").  Returns 0, or -1 with the own run's err set. */
int gen_emit(emitters *em, const char *cname, const char *c_path, const char *h_path);

/* The generated source alone into f, including the header h_name. */
void gen_write_source(FILE *f, emitters *em, const char *cname, const char *h_name);

/* The kept sin or cos node of the same argument as trig node `id`, or -1. */
int plan_trig_partner(const emitter *em, ex id);

/* The C name of the sine (op EX_SIN) or cosine of trig node id's angle. */
void plan_trig_name(const emitter *em, ex id, ex_op op, char *buf, size_t cap);

/* The gravity components (bit k: gravity[k]) trig node id's angle only
 * multiplies, all zero in the model's own gravity; 0 when anything else
 * reads it.  Such an angle is computed only when one of them is nonzero. */
int plan_gravity_only(const emitter *em, ex id);

/* Whether another gravity takes the general copy (1) or the shift into the own copy (0). */
int plan_general_in_full(const emitters *em);

/* Whether a copy is one function whose angles are all inputs: written as near and far halves. */
int plan_has_halves(const emitter *em);

#endif
