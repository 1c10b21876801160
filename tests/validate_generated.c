/* validate_generated.c — generated forward dynamics against the dense
 * reference (core/rbda/dense.h), which shares no code with the generator.
 *
 *   validate_generated <model> <model.mech>
 *
 * <model> names the descriptor in mechgen_all; the .mech file is parsed again
 * here so the comparison runs on the model as the dense side sees it.  Exit
 * status 0 = PASS, 1 = FAIL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "generated.h"
#include "model/model.h"
#include "rbda/dense.h"
#include "sim/sample.h"

#define TRIALS 1000

/* Both sides end in a factorization of H (L^T D L here, LU in the dense
 * reference), so their noise floor is eps * cond(H), and for a serial chain
 * cond(H) grows like the fourth power of its length.  Above nv = 64 the gate
 * follows that growth rather than failing on arithmetic; every model at or
 * below 64 coordinates is held to exactly 1e-9.  A real bug shows up as a
 * large relative error, not as a few ulps of solve noise. */
static double gate(int nv)
{
    double grow = nv > 64 ? nv / 64.0 : 1.0;
    return 1e-9 * grow * grow * grow * grow;
}

/* Scales every floating body's quaternion off the unit sphere: both sides
 * must normalize it on entry. */
static void denormalize_quaternions(const mech_model *m, double *q, double scale)
{
    for (int i = 0; i < m->nb; i++)
        if (m->bodies[i].joint == MECH_JOINT_FLOATING)
            for (int k = 0; k < 4; k++) q[m->bodies[i].qidx + k] *= scale;
}

static int check_descriptor(const mech_generated *gen, const mech_model *m)
{
    if (gen->nq != m->nq || gen->nv != m->nv || gen->nb != m->nb) {
        fprintf(stderr, "validate: %s: generated for nq %d nv %d nb %d but the model has nq %d nv %d nb %d -- regenerate\n",
                gen->name, gen->nq, gen->nv, gen->nb, m->nq, m->nv, m->nb);
        return -1;
    }
    for (int i = 0; i < m->nb; i++)
        if (gen->fext_bodies[i] != (m->bodies[i].fext != 0)) {
            fprintf(stderr, "validate: %s: fext flag of body '%s' differs from the model\n", gen->name,
                    m->bodies[i].name);
            return -1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <model> <model.mech>\n", argv[0]);
        return 2;
    }
    const mech_generated *gen = mechgen_find(argv[1]);
    if (!gen) {
        fprintf(stderr, "validate: no generated model '%s' in this build\n", argv[1]);
        return 1;
    }
    mech_error err;
    mech_model *m = mech_load(argv[2], &err);
    if (!m) {
        char msg[512];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "validate: %s\n", msg);
        return 1;
    }
    dense_ws *ws = dense_ws_new(m);
    size_t nq = (size_t)m->nq + 1, nv = (size_t)m->nv + 1, nf = 6 * (size_t)m->nb;
    double *q = malloc(nq * sizeof *q), *qd = malloc(nv * sizeof *qd), *tau = malloc(nv * sizeof *tau);
    double *fext = malloc(nf * sizeof *fext), *qdd_gen = malloc(nv * sizeof *qdd_gen);
    double *qdd_dense = malloc(nv * sizeof *qdd_dense);
    int fail = !ws || !q || !qd || !tau || !fext || !qdd_gen || !qdd_dense;
    if (fail) fprintf(stderr, "validate: out of memory\n");
    else fail = check_descriptor(gen, m) != 0;

    if (!fail) {
        /* 1000 random states: q, qd, tau and fext on the bodies that read it;
         * every other one with non-unit floating quaternions. */
        mech_rng rng;
        mech_rng_seed(&rng, 20261129);
        double worst = 0.0;
        int worst_trial = 0;
        for (int t = 0; t < TRIALS; t++) {
            mech_sample_state(m, &rng, q, qd, tau, fext);
            if (t % 2) denormalize_quaternions(m, q, 0.5 + t / (double)TRIALS);
            gen->fwd_dyn(q, qd, tau, fext, NULL, qdd_gen);
            dense_fd(m, ws, q, qd, tau, fext, qdd_dense);
            double e = mech_scaled_error(qdd_gen, qdd_dense, m->nv);
            if (!(e <= worst)) { worst = e; worst_trial = t; }
        }
        printf("validate: %s: %d trials, max scaled |qdd_generated - qdd_dense| = %.2g (worst at trial %d)\n",
               gen->name, TRIALS, worst, worst_trial);
        fail |= !(worst <= gate(m->nv));

        /* The model's initial pose at rest, unactuated, fext NULL. */
        mech_initial_state(m, q, qd);
        for (int i = 0; i < m->nv; i++) qd[i] = tau[i] = 0.0;
        gen->fwd_dyn(q, qd, tau, NULL, NULL, qdd_gen);
        dense_fd(m, ws, q, qd, tau, NULL, qdd_dense);
        double e = mech_scaled_error(qdd_gen, qdd_dense, m->nv);
        printf("validate: %s: initial pose, qd = 0, tau = 0, fext = NULL: scaled error %.2g\n", gen->name, e);
        fail |= !(e <= gate(m->nv));
        printf("validate: %s (gate %.3g)\n", fail ? "FAIL" : "PASS", gate(m->nv));
    }
    free(q); free(qd); free(tau); free(fext); free(qdd_gen); free(qdd_dense);
    dense_ws_free(ws);
    mech_model_free(m);
    return fail ? 1 : 0;
}
