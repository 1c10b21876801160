/* stages.h — the statements of a generated function in emission order, and
 * their cut into stages that pass long-lived temporaries through a scratch
 * array (docs/codegen.md, "Stages"). */
#ifndef MECH_CODEGEN_STAGES_H
#define MECH_CODEGEN_STAGES_H

#include "codegen/gen.h"

typedef struct {
    int n;        /* statements, in emission order                              */
    ex *stmt;     /* the node each prints; all sines and cosines are one         */
                  /* statement, at the first of them                             */
    int *stmt_of; /* per node: the statement that defines it, or -1              */
    int nstage;
    int *start; /* first statement of each stage; start[nstage] = n            */
    int *slot;  /* per node: its w[] slot when a later stage reads it, else -1 */
    int nslot;
} gen_stages;

/* The statements of the kept nodes (tnum[id] >= 0) writing `out`; cut into
 * stages when `staged`, else one stage.  0, or -1 when out of memory. */
int gen_stages_plan(gen_stages *st, const ex_pool *p, const int *tnum, const int section[SEC_COUNT], const ex *out,
                    int nout, int staged);
void gen_stages_free(gen_stages *st);

/* The stage of statement i. */
int gen_stages_stage_of(const gen_stages *st, int i);

/* Calls use(ctx, id) for each operand node of statement i (constants and inputs included). */
void gen_stages_uses(const gen_stages *st, const ex_pool *p, int i, void (*use)(void *ctx, ex id), void *ctx);

#endif
