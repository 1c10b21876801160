/* stages.c — the statements of a generated function, in emission order, and
 * their cut into stages (docs/codegen.md, "Stages").
 *
 * A stage boundary falls between the algorithm's phases — {kinematics,
 * velocities}, {bias forces}, {CRBA}, {the rest} — and inside any phase
 * longer than STAGE_MAX statements, at the point in its second half-window
 * where the fewest temporaries are live.  A temporary read by a later stage
 * gets a slot of the scratch array w[]. */
#include "codegen/stages.h"

#include <stdlib.h>
#include <string.h>

#define STAGE_MIN 60  /* statements a cut inside a phase leaves behind it, at least */
#define STAGE_MAX 120 /* and at most */

static int is_trig(const ex_node *n) { return n->op == EX_SIN || n->op == EX_COS; }

/* The phase of a statement's section: the stage boundaries every staged function keeps. */
static int phase(int sec)
{
    switch (sec) {
    case SEC_KINEMATICS:
    case SEC_VELOCITIES: return 0;
    case SEC_BIAS: return 1;
    case SEC_CRBA: return 2;
    default: return 3;
    }
}

/* Statements in emission order: every kept operation node, except that all
 * sines and cosines are one statement at the first of them (emit.c prints
 * them together, two angles per mech_sincos2). */
static void list_statements(gen_stages *st, const ex_pool *p, const int *tnum)
{
    int trig = -1;
    for (ex id = 0; id < p->n; id++) {
        st->stmt_of[id] = -1;
        if (tnum[id] < 0) continue;
        if (is_trig(&p->nodes[id])) {
            if (trig >= 0) {
                st->stmt_of[id] = trig;
                continue;
            }
            trig = st->n;
        }
        st->stmt_of[id] = st->n;
        st->stmt[st->n++] = id;
    }
}

void gen_stages_uses(const gen_stages *st, const ex_pool *p, int i, void (*use)(void *ctx, ex id), void *ctx)
{
    const ex_node *n = &p->nodes[st->stmt[i]];
    if (!is_trig(n)) {
        if (n->a >= 0) use(ctx, n->a);
        if (n->b >= 0) use(ctx, n->b);
        return;
    }
    for (ex id = st->stmt[i]; id < p->n; id++)
        if (st->stmt_of[id] == i) use(ctx, p->nodes[id].a);
}

typedef struct {
    const gen_stages *st;
    int *last; /* per node: the last statement reading it */
    int at;
} last_use;

static void note_last_use(void *ctx, ex id)
{
    last_use *lu = ctx;
    if (lu->st->stmt_of[id] >= 0) lu->last[id] = lu->at;
}

/* live[c]: temporaries defined before statement c and read at or after it. */
static void count_live(const gen_stages *st, const ex_pool *p, const ex *out, int nout, int *last, int *live)
{
    last_use lu = { st, last, 0 };
    for (ex id = 0; id < p->n; id++) last[id] = -1;
    for (lu.at = 0; lu.at < st->n; lu.at++) gen_stages_uses(st, p, lu.at, note_last_use, &lu);
    for (int k = 0; k < nout; k++)
        if (st->stmt_of[out[k]] >= 0) last[out[k]] = st->n;
    memset(live, 0, (size_t)(st->n + 2) * sizeof *live);
    for (ex id = 0; id < p->n; id++) {
        int d = st->stmt_of[id];
        if (d < 0 || last[id] <= d) continue;
        live[d + 1]++; /* live at the cuts d+1 .. last */
        live[last[id] + 1]--;
    }
    for (int c = 1; c <= st->n; c++) live[c] += live[c - 1];
}

/* Splits the phase run [b, e) into stages of at most STAGE_MAX statements,
 * each cut at the fewest live temporaries STAGE_MIN..STAGE_MAX statements
 * on (the later one on a tie). */
static void cut_run(gen_stages *st, int b, int e, const int *live)
{
    int s = b;
    while (e - s > STAGE_MAX) {
        st->start[st->nstage++] = s;
        int best = s + STAGE_MIN;
        for (int c = best; c <= s + STAGE_MAX; c++)
            if (live[c] <= live[best]) best = c;
        s = best;
    }
    st->start[st->nstage++] = s;
}

/* Stage starts: every phase change, and the cuts inside long phases. */
static void cut(gen_stages *st, const int section[SEC_COUNT], const int *live)
{
    int sec = 0, b = 0, run_phase = -1;
    st->nstage = 0;
    for (int i = 0; i < st->n; i++) {
        while (sec + 1 < SEC_COUNT && section[sec + 1] <= st->stmt[i]) sec++;
        if (phase(sec) == run_phase) continue;
        if (i > b) cut_run(st, b, i, live);
        b = i;
        run_phase = phase(sec);
    }
    if (st->n > b) cut_run(st, b, st->n, live);
    st->start[st->nstage] = st->n;
}

typedef struct {
    gen_stages *st;
    int stage;
} slot_need;

static void need_slot(void *ctx, ex id)
{
    slot_need *sn = ctx;
    gen_stages *st = sn->st;
    int d = st->stmt_of[id];
    if (d >= 0 && st->slot[id] < 0 && gen_stages_stage_of(st, d) < sn->stage) st->slot[id] = st->nslot++;
}

int gen_stages_stage_of(const gen_stages *st, int i)
{
    int k = 0;
    while (k + 1 < st->nstage && st->start[k + 1] <= i) k++;
    return k;
}

int gen_stages_plan(gen_stages *st, const ex_pool *p, const int *tnum, const int section[SEC_COUNT], const ex *out,
                    int nout, int staged)
{
    size_t n = (size_t)p->n;
    *st = (gen_stages){ 0 };
    st->stmt = malloc(n * sizeof *st->stmt);
    st->stmt_of = malloc(n * sizeof *st->stmt_of);
    st->slot = malloc(n * sizeof *st->slot);
    st->start = malloc((n + 2) * sizeof *st->start);
    int *last = malloc(n * sizeof *last), *live = malloc((n + 2) * sizeof *live);
    int ok = st->stmt && st->stmt_of && st->slot && st->start && last && live;
    if (ok) {
        list_statements(st, p, tnum);
        for (ex id = 0; id < p->n; id++) st->slot[id] = -1;
        if (staged) {
            count_live(st, p, out, nout, last, live);
            cut(st, section, live);
        } else {
            st->nstage = 1;
            st->start[0] = 0;
            st->start[1] = st->n;
        }
        slot_need sn = { st, 0 };
        for (int i = 0; i < st->n; i++) {
            sn.stage = gen_stages_stage_of(st, i);
            gen_stages_uses(st, p, i, need_slot, &sn);
        }
        sn.stage = st->nstage - 1; /* the outputs are written by the last stage */
        for (int k = 0; k < nout; k++) need_slot(&sn, out[k]);
    }
    free(last);
    free(live);
    if (!ok) gen_stages_free(st);
    return ok ? 0 : -1;
}

void gen_stages_free(gen_stages *st)
{
    free(st->stmt);
    free(st->stmt_of);
    free(st->slot);
    free(st->start);
    *st = (gen_stages){ 0 };
}
