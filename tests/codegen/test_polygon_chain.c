/* test_polygon_chain.c — generated forward dynamics of a long curled chain
 * against the dense reference, at its design pose and near it.
 *
 *   test_polygon_chain FILE      FILE: tests/codegen/polygon_chain.mech, the model
 *                                the linked mechgen_polygon_chain was made from
 *
 * A tracked vehicle's band laid on its rollers is a serial chain of 16 to 40
 * links curled back on itself, where the trailing pivots of L^T D L nearly
 * cancel (tests/codegen/polygon_chain.mech).  There a factorization that is not
 * backward stable shows up at once, while random states (a chain that does
 * not curl) hide it.  Compared in free fall (qd = 0, tau = 0, no fext), the
 * case whose answer is mostly exact zeros, at the design pose and at random
 * offsets of every q of 1e-9 to 0.1 (rad, m; quaternions renormalized by both
 * sides): an error that stays flat over the offsets is the arithmetic of one
 * side, one that appears only at the exact pose is a degenerate case.  The
 * gate is validate_generated's for nv <= 64: both sides solve with H, whose
 * condition here keeps their difference near 1e-12, so 1e-9 leaves room for
 * roundoff and none for a wrong or unstable factorization.
 * Exit 0 on pass, 1 on failure, 2 on usage or load errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "sim/generated.h"

#include "test_support.h"

#define GATE 1e-9
#define DRAWS 20

extern const mech_generated mechgen_polygon_chain;

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s polygon_chain.mech\n", argv[0]);
        return 2;
    }
    const mech_generated *gen = &mechgen_polygon_chain;
    mech_model *m = test_load_model(argv[1]);
    if (gen->nq != m->nq || gen->nv != m->nv || m->nc != 0) {
        fprintf(stderr, "test_polygon_chain: generated for nq %d nv %d, the file has nq %d nv %d nc %d\n", gen->nq,
                gen->nv, m->nq, m->nv, m->nc);
        return 2;
    }
    dense_ws *ws = dense_ws_new(m);
    double *q0 = malloc((size_t)m->nq * sizeof *q0), *q = malloc((size_t)m->nq * sizeof *q);
    double *qd = calloc((size_t)m->nv, sizeof *qd), *tau = calloc((size_t)m->nv, sizeof *tau);
    double *qdd_gen = malloc((size_t)m->nv * sizeof *qdd_gen), *qdd_dense = malloc((size_t)m->nv * sizeof *qdd_dense);
    if (!ws || !q0 || !q || !qd || !tau || !qdd_gen || !qdd_dense) {
        fprintf(stderr, "test_polygon_chain: out of memory\n");
        return 2;
    }
    mech_model_initial_state(m, q0, NULL);
    static const double offsets[] = { 0.0, 1e-9, 1e-6, 1e-3, 0.1 };
    mech_rng rng;
    mech_rng_seed(&rng, 32);
    int fail = 0;
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
        double worst = 0.0;
        for (int d = 0; d < (offsets[o] > 0 ? DRAWS : 1); d++) {
            for (int i = 0; i < m->nq; i++) q[i] = q0[i] + mech_rng_uniform(&rng, -offsets[o], offsets[o]);
            gen->fwd_dyn(q, qd, tau, NULL, NULL, m->gravity, qdd_gen);
            dense_fd_full(m, ws, q, qd, tau, NULL, NULL, qdd_dense);
            double e = mech_scaled_error(qdd_gen, qdd_dense, m->nv);
            if (!(e <= worst)) worst = e;
        }
        int ok = worst <= GATE;
        fail |= !ok;
        printf("%s  polygon_chain: q0 offset %-6g max scaled |qdd_generated - qdd_dense| = %.2g (gate %g)\n",
               ok ? "PASS" : "FAIL", offsets[o], worst, GATE);
    }
    free(q0);
    free(q);
    free(qd);
    free(tau);
    free(qdd_gen);
    free(qdd_dense);
    dense_ws_free(ws);
    mech_model_free(m);
    return fail;
}
