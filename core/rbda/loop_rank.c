/* loop_rank.c — the rank of K and the open-time check.  See loop_rank.h. */
#include "rbda/loop_rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbda/dense.h"
#include "rbda/loops.h"

/* The columns [*lo, *hi) outside which v (n long) is zero; empty (0, 0) if all of it is. */
static void span_of(const double *v, int n, int *lo, int *hi)
{
    *lo = *hi = 0;
    for (int j = 0; j < n; j++)
        if (v[j] != 0) {
            if (*hi == 0) *lo = j;
            *hi = j + 1;
        }
}

/* Each kept row of Y remembers its span, and a row is projected only on the
 * rows whose span meets its own: elsewhere the dot product is an exact zero
 * and the projection leaves the row as it is, so independent loops (say,
 * mechanisms side by side) cost each its own rows, not all the rows before. */
int mech_loop_rank(const mech_model *m, dense_ws *ws, const double *K, int *short_loop, double *margin)
{
    int nv = m->nv, rank = 0;
    double kept_min = 1, scale = 0;
    int *span = malloc(2 * (size_t)(m->nc ? m->nc : 1) * sizeof *span); /* [lo, hi) of each row of Y */
    if (short_loop) *short_loop = -1;
    if (!span) return -1;
    for (int r = 0; r < m->nc; r++) {
        double n = 0;
        for (int j = 0; j < nv; j++) n += K[(size_t)r * nv + j] * K[(size_t)r * nv + j];
        scale = fmax(scale, sqrt(n));
    }
    for (int i = 0; i < m->nloop; i++) {
        const mech_loop *l = &m->loops[i];
        int before = rank;
        for (int r = l->cidx; r < l->cidx + l->nc; r++) {
            double *v = ws->dnu, n = 0;
            int lo, hi;
            memcpy(v, K + (size_t)r * nv, (size_t)nv * sizeof *v);
            span_of(v, nv, &lo, &hi);
            for (int pass = 0; pass < 2; pass++) /* Gram-Schmidt, twice */
                for (int b = 0; b < rank; b++) {
                    const double *qb = ws->Y + (size_t)b * nv;
                    int blo = span[2 * b], bhi = span[2 * b + 1];
                    if (blo >= hi || lo >= bhi) continue;
                    double d = 0;
                    for (int j = blo > lo ? blo : lo; j < (bhi < hi ? bhi : hi); j++) d += qb[j] * v[j];
                    for (int j = blo; j < bhi; j++) v[j] -= d * qb[j];
                    lo = blo < lo ? blo : lo;
                    hi = bhi > hi ? bhi : hi;
                }
            for (int j = 0; j < nv; j++) n += v[j] * v[j];
            n = sqrt(n);
            if (!(n > 1e-8 * scale)) continue;
            kept_min = fmin(kept_min, n / scale);
            for (int j = 0; j < nv; j++) ws->Y[(size_t)rank * nv + j] = v[j] / n;
            span[2 * rank] = lo;
            span[2 * rank + 1] = hi;
            rank++;
        }
        if (short_loop && *short_loop < 0 && rank - before < l->nc) *short_loop = i;
    }
    free(span);
    if (margin) *margin = kept_min;
    return rank;
}

/* What is wrong with loop `bad`, without a place: the redundant rows and the fix. */
static void over_constrained(const mech_model *m, int bad, int rank, char *msg, size_t cap)
{
    snprintf(msg, cap,
             "loop '%s' is over-constrained: rank(K) = %d < nc = %d, %d redundant row%s (they repeat "
             "constraints the tree already imposes, as a planar loop closed by a revolute does); close a planar "
             "loop with point-on-line instead",
             m->loops[bad].name, rank, m->nc, m->nc - rank, m->nc - rank == 1 ? "" : "s");
}

int mech_loop_check(const mech_model *m, dense_ws *ws, const double *q, char *msg, size_t cap)
{
    int bad;
    mech_loop_terms(m, ws, q, NULL, NULL, NULL, ws->K, NULL);
    int rank = mech_loop_rank(m, ws, ws->K, &bad, NULL);
    if (bad >= 0 && msg && cap) {
        char why[MECH_ERROR_MAX];
        over_constrained(m, bad, rank, why, sizeof why);
        snprintf(msg, cap, "%s: %s", m->name, why);
    }
    return rank;
}

int mech_loops_check(const mech_model *m, mech_error *err)
{
    if (m->nc == 0) return 0;
    dense_ws *ws = dense_ws_new(m);
    double *q = malloc(((size_t)m->nq + 1) * sizeof *q);
    int rc = -1, bad = -1, rank = 0;
    if (ws && q) {
        mech_model_initial_state(m, q, NULL);
        mech_loop_terms(m, ws, q, NULL, NULL, NULL, ws->K, NULL);
        rank = mech_loop_rank(m, ws, ws->K, &bad, NULL);
        rc = rank == m->nc ? 0 : -1;
    }
    if (rc) {
        if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", m->name);
        err->line = bad >= 0 ? m->loops[bad].line : 0;
        err->col = bad >= 0 ? m->loops[bad].col : 0;
        if (bad >= 0) over_constrained(m, bad, rank, err->message, sizeof err->message);
        else snprintf(err->message, sizeof err->message, "out of memory");
    }
    free(q);
    dense_ws_free(ws);
    return rc;
}
