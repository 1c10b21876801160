/* featherstone_engine.c — the reduced-coordinate engines behind mech/sim.h
 * (mech/featherstone.h): the runtime articulated-body algorithm, a
 * model's generated code, and the dense reference that validates both.  They
 * differ only in forward dynamics and
 * observe; stepping (the integrator over their forward dynamics), poses and
 * energy are the same code, reading the model through the run's gravity
 * (mech_data.eval).  A run with contacts, limits, friction loss or the
 * floor steps through the constraint solve (contact/constraint.h) on top of
 * whichever forward dynamics, evaluated at the step's starting velocity as
 * the contact stage is (no predictor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech/featherstone.h"
#include "rbda/aba.h"
#include "rbda/dense.h"
#include "rbda/elements.h"
#include "rbda/energy.h"
#include "rbda/loop_rank.h"
#include "rbda/loops.h"
#include "sim/data.h"
#include "sim/generated.h"
#include "sim/integrate.h"

/* ---- shared by both ---- */

/* The model's integrator over the engine's forward dynamics, the external
 * force taken where it evaluates forces, the fext of bodies that do not
 * read it as joint forces from the step's start.  Contact models step
 * Verlet with no velocity predictor (integrate.h). */
static int step(mech_data *d, double dt)
{
    const double *tau = mech_data_step_tau(d);
    if (!tau) return -1;
    if (d->model->integrator == MECH_INTEGRATOR_IMPLICIT) d->act[d->nact] = dt; /* H + dt D (model.h) */
    int constrained = mech_data_constrained(d);
    mech_fd_fn fd = constrained ? mech_data_constrained_fd : d->fd;
    d->cs_failed = 0;
    int r;
    if (d->model->integrator != MECH_INTEGRATOR_VERLET)
        r = mech_step_euler_forced(d->model, fd, d, mech_data_step_forces, d, d->q, d->qd, tau, d->qdd, dt);
    else
        r = mech_step_verlet_forced(d->model, fd, d, mech_data_step_forces, d, d->q, d->qd, tau, d->qdd, d->vmid,
                                    !d->contact && !constrained, dt);
    if (!r && d->cs_failed) return mech_data_fail(d, "step: out of memory for the constraint solve");
    return r;
}

static void poses(mech_data *d, double *out) { mech_body_poses(d->model, d->q, out); }

static int energy(mech_data *d, double e[2])
{
    const mech_body_kin *k = mech_data_kinematics(d, d->qd);
    if (!k) return -1;
    mech_energy_bodies(&d->eval, k, d->qd, &e[0], &e[1]);
    if (d->contact) e[1] += contact_potential(d->contact, d->model, d->q);
    return 0;
}

/* Each body's origin velocity and angular velocity from the kinematics pass. */
static int velocities(mech_data *d, double *out)
{
    const mech_body_kin *k = mech_data_kinematics(d, d->qd);
    if (!k) return -1;
    for (int i = 0; i < d->nb; i++) {
        memcpy(out + 6 * i, k[i].pd, 3 * sizeof *out);
        memcpy(out + 6 * i + 3, k[i].w, 3 * sizeof *out);
    }
    return 0;
}

/* One dynamics call per step: a pass over the bodies, the loop rows and the
 * force elements; with loops (RBDA §8.5) a solve H⁻¹ Kᵀ of nc passes over
 * the bodies, the nc × nc matrix K H⁻¹ Kᵀ (nc² nv multiply-adds) and its LU
 * factors (nc³/3), LOOP_FLOPS multiply-adds a unit (calibrated by
 * bench/work_units.mjs, docs/architecture.md "Work per call"). */
#define LOOP_FLOPS 256.0
static double step_work(const mech_data *d)
{
    const mech_model *m = d->model;
    double nc = m->nc;
    return 1.0 + m->nb + nc + m->ntsda + m->nrsda + m->nu + nc * m->nb + nc * nc * (m->nv + nc / 3) / LOOP_FLOPS;
}

/* ---- the articulated-body algorithm ---- */

typedef struct {
    aba_ws *aws;
    dense_ws *dws; /* for loops and force elements, else NULL */
} aba_state;

/* mech_fd_fn (sim/integrate.h) with ctx the run. */
static void aba_fd_run(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    mech_data *d = ctx;
    const aba_state *s = d->state;
    if (s->dws) aba_fd_full(&d->eval, s->aws, s->dws, q, qd, tau, fext, d->act, qdd);
    else aba_fd(&d->eval, s->aws, q, qd, tau, fext, qdd);
}


static int dense_observe(mech_data *d, double *out)
{
    dense_ws *ws = mech_data_dense(d);
    if (!ws) return -1;
    mech_observe(&d->eval, ws, d->q, d->qd, out);
    return 0;
}

static void aba_free(mech_data *d)
{
    aba_state *s = d->state;
    if (!s) return;
    aba_ws_free(s->aws);
    dense_ws_free(s->dws);
    free(s);
}

static const mech_engine engine_aba = {
    .name = "aba",
    .fd = aba_fd_run,
    .step = step,
    .poses = poses,
    .observe = dense_observe,
    .energy = energy,
    .velocities = velocities,
    .step_work = step_work,
    .free = aba_free,
};

mech_data *mech_data_new_aba(const mech_model *m, mech_error *err)
{
    *err = (mech_error){ .line = 0 };
    if (mech_loops_check(m, err)) return NULL; /* an over-constrained loop: A would be singular */
    aba_state *s = calloc(1, sizeof *s);
    int dense = m->nc || m->ntsda || m->nrsda || m->nu || m->ntendon;
    if (s) {
        s->aws = aba_ws_new(m);
        if (dense) s->dws = dense_ws_new(m);
    }
    if (!s || !s->aws || (dense && !s->dws)) {
        mech_data tmp = { .state = s };
        aba_free(&tmp);
        return mech_error_fail(err, m, "out of memory");
    }
    return mech_data_new(m, &engine_aba, s, err);
}

/* ---- the dense reference (RNEA + CRBA + LU; method 2 for loops) ---- */

static void dense_fd_run(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    mech_data *d = ctx;
    dense_fd_full(&d->eval, d->state, q, qd, tau, fext, d->act, qdd);
}

static void dense_free(mech_data *d) { dense_ws_free(d->state); }

static const mech_engine engine_dense = {
    .name = "dense",
    .fd = dense_fd_run,
    .step = step,
    .poses = poses,
    .observe = dense_observe,
    .energy = energy,
    .velocities = velocities,
    .step_work = step_work,
    .free = dense_free,
};

mech_data *mech_data_new_dense(const mech_model *m, mech_error *err)
{
    *err = (mech_error){ .line = 0 };
    if (mech_loops_check(m, err)) return NULL;
    dense_ws *ws = dense_ws_new(m);
    if (!ws) {
        return mech_error_fail(err, m, "out of memory");
    }
    return mech_data_new(m, &engine_dense, ws, err);
}

/* ---- generated code ---- */

static void gen_fd_run(void *ctx, const double *q, const double *qd, const double *tau, const double *fext, double *qdd)
{
    const mech_data *d = ctx;
    const mech_generated *g = d->state;
    g->fwd_dyn(q, qd, tau, fext, d->act, d->gravity, qdd);
}

static void gen_fd_own_gravity_run(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                                   double *qdd)
{
    const mech_data *d = ctx;
    const mech_generated *g = d->state;
    g->fwd_dyn_own_gravity(q, qd, tau, fext, d->act, qdd);
}


static int gen_observe(mech_data *d, double *out)
{
    const mech_generated *g = d->state;
    if (g->observe) g->observe(d->q, d->qd, out);
    return 0;
}

static const mech_engine engine_generated = {
    .name = "generated",
    .fd = gen_fd_run,
    .fd_own_gravity = gen_fd_own_gravity_run,
    .step = step,
    .poses = poses,
    .observe = gen_observe,
    .energy = energy,
    .velocities = velocities,
    .step_work = step_work,
};

mech_data *mech_data_new_generated(const mech_model *m, const mech_generated *g, mech_error *err)
{
    if (m->nq != g->nq || m->nv != g->nv || m->nb != g->nb || m->nc != g->nc || m->nact != g->nact ||
        mech_observe_len(m) != g->observe_len)
        return mech_error_fail(err, m,
                               "the generated code '%s' (nq %d nv %d nb %d nc %d nact %d) does not match the model "
                               "(nq %d nv %d nb %d nc %d nact %d); rebuild",
                               g->name, g->nq, g->nv, g->nb, g->nc, g->nact, m->nq, m->nv, m->nb, m->nc, m->nact);
    return mech_data_new(m, &engine_generated, (void *)g, err);
}
