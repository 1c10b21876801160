/* validate_generated.c — generated forward dynamics against the dense
 * reference (core/rbda/dense.h, loops.h, elements.h), which shares no code with the
 * generator.
 *
 *   validate_generated <model> <model.mech>
 *
 * <model> names the descriptor in mechgen_all; the .mech file is parsed again
 * here so the comparison runs on the model as the dense side sees it.
 * Tree models are compared at random states; models with loops at states
 * near the closure manifold, torn a little so the Baumgarte terms are live
 * (mech_sample_loop_state), with rank(K) = nc checked at every trial.  Force
 * elements and actuators get random act[] (and an implicit model a random
 * step h, act[nact]); observe and find are checked against
 * mech_observe and mech_find.  Gravity is an input of the generated code:
 * it is also run with gravities other than the model's (one far from it, and
 * the model's with one component moved by 1e-3), against the dense
 * reference on a copy of the model with that gravity.  Exit status 0 = PASS,
 * 1 = FAIL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech/featherstone.h"
#include "model/model.h"
#include "rbda/dense.h"
#include "rbda/elements.h"
#include "rbda/loop_project.h"
#include "rbda/loop_rank.h"
#include "rbda/loop_sample.h"
#include "rbda/loops.h"
#include "rbda/sample.h"
#include "sim/generated.h"

#define TRIALS 1000
#define GRAVITY_TRIALS 200

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
    if (gen->nq != m->nq || gen->nv != m->nv || gen->nb != m->nb || gen->nc != m->nc || gen->nact != m->nact ||
        gen->npoi != m->npoi || gen->ntsda != m->ntsda || gen->nrsda != m->nrsda ||
        gen->observe_len != mech_observe_len(m) || (gen->observe_len > 0) != (gen->observe != NULL)) {
        fprintf(stderr,
                "validate: %s: generated for nq %d nv %d nb %d nc %d nact %d but the model has nq %d nv %d "
                "nb %d nc %d nact %d (or its POIs and elements differ) -- regenerate\n",
                gen->name, gen->nq, gen->nv, gen->nb, gen->nc, gen->nact, m->nq, m->nv, m->nb, m->nc, m->nact);
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

/* mechgen_find_signal agrees with mech_find on every name and kind, and
 * rejects a bogus name and a bogus kind. */
static int find_failures(const mech_generated *gen, const mech_model *m)
{
    static const char *const kinds[] = { "poi", "tsda", "rsda", "act" };
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < m->npoi; i++)
            bad += mechgen_find_signal(gen, kinds[k], m->pois[i].name) != mech_find(m, kinds[k], m->pois[i].name);
        for (int i = 0; i < m->ntsda; i++)
            bad += mechgen_find_signal(gen, kinds[k], m->tsdas[i].name) != mech_find(m, kinds[k], m->tsdas[i].name);
        for (int i = 0; i < m->nrsda; i++)
            bad += mechgen_find_signal(gen, kinds[k], m->rsdas[i].name) != mech_find(m, kinds[k], m->rsdas[i].name);
        bad += mechgen_find_signal(gen, kinds[k], "no_such_name") != -1;
    }
    if (m->npoi) bad += mechgen_find_signal(gen, "body", m->pois[0].name) != -1;
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <model> <model.mech>\n", argv[0]);
        return 2;
    }
    const mech_generated *gen = mech_generated_find(argv[1]);
    if (!gen) {
        fprintf(stderr, "validate: no generated model '%s' in this build\n", argv[1]);
        return 1;
    }
    mech_error err;
    mech_model *m = mech_model_load(argv[2], &err);
    if (!m) {
        char msg[512];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "validate: %s\n", msg);
        return 1;
    }
    dense_ws *ws = dense_ws_new(m);
    size_t nq = (size_t)m->nq + 1, nv = (size_t)m->nv + 1, nf = 6 * (size_t)m->nb;
    size_t nobs = (size_t)mech_observe_len(m) + 1;
    double *q = malloc(nq * sizeof *q), *qw = malloc(nq * sizeof *qw), *qd = malloc(nv * sizeof *qd);
    double *tau = malloc(nv * sizeof *tau), *fext = malloc(nf * sizeof *fext),
           *act = calloc((size_t)m->nact + 1, sizeof *act);
    double *qdd_gen = malloc(nv * sizeof *qdd_gen), *qdd_dense = malloc(nv * sizeof *qdd_dense);
    double *qdd_own = malloc(nv * sizeof *qdd_own);
    double *obs_gen = malloc(nobs * sizeof *obs_gen), *obs_dense = malloc(nobs * sizeof *obs_dense);
    int fail = !ws || !q || !qw || !qd || !tau || !fext || !act || !qdd_gen || !qdd_dense || !qdd_own || !obs_gen ||
               !obs_dense;
    if (fail) fprintf(stderr, "validate: out of memory\n");
    else fail = check_descriptor(gen, m) != 0;

    if (!fail) {
        /* 1000 states: q, qd, tau, act and fext on the bodies that read it;
         * every other one with non-unit floating quaternions. */
        mech_rng rng;
        mech_rng_seed(&rng, 20261129);
        double worst = 0.0, worst_obs = 0.0;
        int worst_trial = 0, rank_short = 0, own_differs = 0;
        mech_model_initial_state(m, qw, NULL);
        if (m->nc) mech_loop_project(m, ws, qw);
        for (int t = 0; t < TRIALS; t++) {
            mech_sample_loop_state(m, ws, &rng, qw, q, qd, tau, fext, act);
            if (m->integrator == MECH_INTEGRATOR_IMPLICIT) act[m->nact] = mech_rng_uniform(&rng, 0, 0.01); /* h */
            if (t % 2) denormalize_quaternions(m, q, 0.5 + t / (double)TRIALS);
            if (m->nc) {
                mech_loop_terms(m, ws, q, NULL, NULL, NULL, ws->K, NULL);
                rank_short += mech_loop_rank(m, ws, ws->K, NULL, NULL) != m->nc;
            }
            gen->fwd_dyn(q, qd, tau, fext, act, m->gravity, qdd_gen);
            gen->fwd_dyn_own_gravity(q, qd, tau, fext, act, qdd_own);
            own_differs += memcmp(qdd_gen, qdd_own, (size_t)m->nv * sizeof *qdd_own) != 0;
            dense_fd_full(m, ws, q, qd, tau, fext, act, qdd_dense);
            double e = mech_scaled_error(qdd_gen, qdd_dense, m->nv);
            if (!(e <= worst)) {
                worst = e;
                worst_trial = t;
            }
            if (gen->observe) {
                gen->observe(q, qd, obs_gen);
                mech_observe(m, ws, q, qd, obs_dense);
                worst_obs = fmax(worst_obs, mech_scaled_error(obs_gen, obs_dense, gen->observe_len));
            }
        }
        printf("validate: %s: %d trials, max scaled |qdd_generated - qdd_dense| = %.2g (worst at trial %d)\n",
               gen->name, TRIALS, worst, worst_trial);
        fail |= !(worst <= gate(m->nv));
        /* The entry an engine takes at the model's gravity is fwd_dyn's own path, bit for bit. */
        printf("validate: %s: fwd_dyn_own_gravity differs from fwd_dyn at %d of %d trials\n", gen->name, own_differs,
               TRIALS);
        fail |= own_differs != 0;
        if (m->nc) {
            printf("validate: %s: rank(K) < nc = %d at %d of %d trials\n", gen->name, m->nc, rank_short, TRIALS);
            fail |= rank_short != 0;
        }
        if (gen->observe) {
            printf("validate: %s: max scaled |observe_generated - observe_dense| = %.2g\n", gen->name, worst_obs);
            fail |= !(worst_obs <= 1e-9);
        }
        int bad_names = find_failures(gen, m);
        if (m->npoi + m->ntsda + m->nrsda)
            printf("validate: %s: find: %d names that do not round-trip\n", gen->name, bad_names);
        fail |= bad_names != 0;

        /* Other gravities on the generated side as the argument and on the
         * dense side as the model's (a copy sharing everything else): one
         * with all three components, then the model's own with one component
         * moved by 1e-3, which must leave the copy specialized to the model's
         * gravity (docs/codegen.md, "Gravity, an input"). */
        mech_model other = *m;
        double g_other[4][3] = { { 3.1, -4.7, 8.2 } };
        for (int j = 1; j < 4; j++)
            for (int k = 0; k < 3; k++) g_other[j][k] = m->gravity[k] + (k == j - 1 ? 1e-3 : 0.0);
        for (int j = 0; j < 4; j++) {
            for (int k = 0; k < 3; k++) other.gravity[k] = g_other[j][k];
            double worst_g = 0.0;
            for (int t = 0; t < GRAVITY_TRIALS; t++) {
                mech_sample_loop_state(m, ws, &rng, qw, q, qd, tau, fext, act);
                gen->fwd_dyn(q, qd, tau, fext, act, g_other[j], qdd_gen);
                dense_fd_full(&other, ws, q, qd, tau, fext, act, qdd_dense);
                worst_g = fmax(worst_g, mech_scaled_error(qdd_gen, qdd_dense, m->nv));
            }
            printf("validate: %s: gravity (%.10g, %.10g, %.10g): %d trials, max scaled |qdd_generated - qdd_dense| = "
                   "%.2g\n",
                   gen->name, g_other[j][0], g_other[j][1], g_other[j][2], GRAVITY_TRIALS, worst_g);
            fail |= !(worst_g <= gate(m->nv));
        }

        /* The model's initial pose at rest, unactuated, fext and act NULL. */
        mech_model_initial_state(m, q, qd);
        for (int i = 0; i < m->nv; i++) qd[i] = tau[i] = 0.0;
        gen->fwd_dyn(q, qd, tau, NULL, NULL, m->gravity, qdd_gen);
        dense_fd_full(m, ws, q, qd, tau, NULL, NULL, qdd_dense);
        double e = mech_scaled_error(qdd_gen, qdd_dense, m->nv);
        printf("validate: %s: initial pose, qd = 0, tau = 0, fext = act = NULL: scaled error %.2g\n", gen->name, e);
        fail |= !(e <= gate(m->nv));
        printf("validate: %s (gate %.3g)\n", fail ? "FAIL" : "PASS", gate(m->nv));
    }
    free(q);
    free(qw);
    free(qd);
    free(tau);
    free(fext);
    free(act);
    free(qdd_gen);
    free(qdd_dense);
    free(qdd_own);
    free(obs_gen);
    free(obs_dense);
    dense_ws_free(ws);
    mech_model_free(m);
    return fail ? 1 : 0;
}
