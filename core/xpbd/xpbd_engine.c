/* xpbd_engine.c — XPBD behind mech/sim.h (mech/xpbd.h): a model run as
 * maximal-coordinate bodies (xpbd_from_model.h) with its rods in the same
 * substeps.
 *
 * step() is one XPBD step of dt under the run's gravity with the file's
 * substeps, iterations and solve mode; tau and the step's external forces
 * (fext on every body) are applied as body wrenches, and the rsdas and
 * actuators as joint forces at every substep's joint state
 * (xpbd_mech_joint_forces); q and qd are then read back from the bodies
 * (xpbd_mech_joint_state).  poses(), observe() and energy() are the XPBD
 * bodies' own.  XPBD has no accelerations: it has no forward(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech/xpbd.h"
#include "sim/data.h"
#include "spatial/spatial.h"
#include "xpbd/xpbd_from_model.h"

typedef struct {
    xpbd_mech x;
    xpbd_data d;
    double residuals[2]; /* primal, constraint of the last substep */
    double *contacts;    /* mech_data_contacts' buffer, 6 per contact */
    int cap_contacts;
    double *jq, *jqd, *jtau; /* the rsdas' and actuators' joint state and forces (nq, nv, nv) */
    double *jdamping;        /* their implicit damping, 6 per joint (xpbd_data.damping) */
} xpbd_state;

/* The substep's rsda and actuator forces (xpbd_data.force_fn) at the run's act. */
static void joint_forces(void *user, double *f)
{
    mech_data *d = user;
    xpbd_state *e = d->state;
    xpbd_mech_joint_forces(d->model, &e->x, &e->d, d->act, e->jq, e->jqd, e->jtau, f);
}

static int step(mech_data *d, double dt)
{
    const double *fext;
    if (mech_data_step_forces(d, d->q, d->qd, dt, &fext)) return -1;
    xpbd_state *e = d->state;
    e->d.dt = dt;
    memcpy(e->d.gravity, d->gravity, sizeof e->d.gravity);
    xpbd_mech_forces(d->model, &e->d, d->tau, fext, e->d.fext);
    if (xpbd_step(&e->x.m, &e->d)) return mech_data_fail(d, "step: out of memory for contacts");
    e->residuals[0] = e->d.primal;
    e->residuals[1] = e->d.constraint;
    xpbd_mech_joint_state(d->model, &e->d, d->q, d->qd);
    return 0;
}

static void poses(mech_data *d, double *out)
{
    const xpbd_state *e = d->state;
    xpbd_mech_poses(d->model, &e->d, out);
}

/* Each POI's world position and velocity from its XPBD body (centre of mass
 * p, rotation R, world v, body-frame ω): x = p + R(r − c), ẋ = v + R(ω × (r − c)).
 * Then each rsda's joint coordinate and rate (XPBD runs no tsda). */
static int observe(mech_data *d, double *out)
{
    const xpbd_state *e = d->state;
    if (d->model->nrsda > 0) {
        xpbd_mech_joint_state(d->model, &e->d, e->jq, e->jqd);
        for (int i = 0; i < d->model->nrsda; i++) {
            const mech_body *b = &d->model->bodies[d->model->rsdas[i].body];
            out[6 * d->model->npoi + 2 * i] = e->jq[b->qidx];
            out[6 * d->model->npoi + 2 * i + 1] = e->jqd[b->vidx];
        }
    }
    const mech_model *m = d->model;
    for (int i = 0; i < m->npoi; i++) {
        const mech_poi *poi = &m->pois[i];
        double *x = out + 6 * i, *xd = x + 3;
        if (poi->body < 0) {
            memcpy(x, poi->pos, 3 * sizeof *x);
            xd[0] = xd[1] = xd[2] = 0;
            continue;
        }
        const mech_body *b = &m->bodies[poi->body];
        const double *p = e->d.p + 3 * poi->body, *R = e->d.R + 9 * poi->body;
        const double *v = e->d.v + 3 * poi->body, *w = e->d.w + 3 * poi->body;
        double r[3], wr[3], Rr[3], Rwr[3];
        for (int k = 0; k < 3; k++) r[k] = poi->pos[k] - b->com[k];
        v3_cross(w, r, wr);
        m3_mulv(R, r, Rr);
        m3_mulv(R, wr, Rwr);
        for (int k = 0; k < 3; k++) {
            x[k] = p[k] + Rr[k];
            xd[k] = v[k] + Rwr[k];
        }
    }
    return 0;
}

/* Kinetic ½ m v·v + ½ ω·Jω and gravitational −m g·p of the bodies (xpbd_energy). */
static int energy(mech_data *d, double en[2])
{
    xpbd_state *e = d->state;
    memcpy(e->d.gravity, d->gravity, sizeof e->d.gravity); /* the run's, as the next step will use */
    xpbd_energy(&e->x.m, &e->d, &en[0], &en[1]);
    return 0;
}

/* The body origin's velocity v − R(ω × c) (v the centre of mass's, ω
 * body-frame, c the centre of mass in the body frame) and the world Rω. */
static int velocities(mech_data *d, double *out)
{
    const xpbd_state *e = d->state;
    for (int i = 0; i < d->nb; i++) {
        const double *R = e->d.R + 9 * i, *v = e->d.v + 3 * i, *w = e->d.w + 3 * i;
        double wc[3], Rwc[3];
        v3_cross(w, d->model->bodies[i].com, wc);
        m3_mulv(R, wc, Rwc);
        for (int k = 0; k < 3; k++) out[6 * i + k] = v[k] - Rwc[k];
        m3_mulv(R, w, out + 6 * i + 3);
    }
    return 0;
}

/* What a step reads beyond the inputs (mech_data_state_save): the time,
 * bodies, joint targets and multipliers, every rod's; then the residuals,
 * reports of the last substep (REPORTS values, unchecked on restore). */
#define REPORTS 4
static int state_copy(mech_data *d, double *buf, int save)
{
    xpbd_state *e = d->state;
    xpbd_data *x = &e->d;
    int nb = e->x.m.nbody, nj = e->x.m.njoint;
    int at = mech_state_copy(buf, 0, &x->t, 1, save);
    at = mech_state_copy(buf, at, x->p, 3 * nb, save);
    at = mech_state_copy(buf, at, x->R, 9 * nb, save);
    at = mech_state_copy(buf, at, x->v, 3 * nb, save);
    at = mech_state_copy(buf, at, x->w, 3 * nb, save);
    at = mech_state_copy(buf, at, x->target, 6 * nj, save);
    at = mech_state_copy(buf, at, x->lambda, 6 * nj, save);
    at = mech_state_copy(buf, at, x->lambda_limit, 3 * nj, save);
    for (int i = 0; i < e->x.nrod; i++) {
        xpbd_rod *r = &e->x.rods[i];
        at = mech_state_copy(buf, at, &r->t, 1, save);
        at = mech_state_copy(buf, at, r->p, 3 * r->nnode, save);
        at = mech_state_copy(buf, at, r->R, 9 * r->nnode, save);
        at = mech_state_copy(buf, at, r->v, 3 * r->nnode, save);
        at = mech_state_copy(buf, at, r->w, 3 * r->nnode, save);
        at = mech_state_copy(buf, at, r->lambda, 6 * r->ncon, save);
    }
    at = mech_state_copy(buf, at, &x->primal, 1, save);
    at = mech_state_copy(buf, at, &x->constraint, 1, save);
    at = mech_state_copy(buf, at, e->residuals, 2, save);
    if (!save) xpbd_mech_ramps_follow(&e->x, x);
    return at;
}

static void reset(mech_data *d)
{
    xpbd_state *e = d->state;
    xpbd_mech_reset(&e->x, &e->d);
    e->d.record_residuals = 1;
    e->residuals[0] = e->residuals[1] = 0;
}

/* Every value of the XPBD state: the bodies' poses and velocities, the
 * joints' multipliers, the rods' nodes, frames and multipliers. */
static int check(mech_data *d, const char *what)
{
    xpbd_state *e = d->state;
    const xpbd_model *m = &e->x.m;
    int nb = m->nbody, nj = m->njoint;
    if (mech_data_check_finite(d, what, "XPBD body position p", e->d.p, 3 * nb) ||
        mech_data_check_finite(d, what, "XPBD body rotation R", e->d.R, 9 * nb) ||
        mech_data_check_finite(d, what, "XPBD body velocity v", e->d.v, 3 * nb) ||
        mech_data_check_finite(d, what, "XPBD body angular velocity w", e->d.w, 3 * nb) ||
        mech_data_check_finite(d, what, "XPBD joint multiplier lambda", e->d.lambda, 6 * nj) ||
        mech_data_check_finite(d, what, "XPBD limit multiplier lambda", e->d.lambda_limit, 3 * nj))
        return -1;
    for (int i = 0; i < e->x.nrod; i++) {
        const xpbd_rod *r = &e->x.rods[i];
        const double *v[3] = { r->p, r->R, r->lambda };
        const int n[3] = { 3 * r->nnode, 9 * r->nnode, 6 * r->ncon };
        static const char *const part[3] = { "node position", "node frame", "multiplier" };
        for (int k = 0; k < 3; k++) {
            if (mech_all_finite(v[k], n[k])) continue; /* the name is formatted only for a failure */
            char name[MECH_NAME_MAX + 32];
            snprintf(name, sizeof name, "rod '%s' %s", d->model->rods[i].name, part[k]);
            return mech_data_fail_finite(d, what, name, v[k]);
        }
    }
    return 0;
}

/* Per substep: each iteration's pass over bodies and joints, and over the
 * rods' nodes and constraint blocks (their banded solve, RODS_WEIGHT units
 * each); and the contact sides (colliders and the elements of rods that are
 * not visual) in the narrow phase once and in the contact solve every
 * iteration, CONTACT_WEIGHT units each (touching spheres press on ground and
 * neighbours: two manifolds a sphere).  Calibrated by bench/work_units.mjs
 * (docs/architecture.md, "Work per call"). */
#define ROD_WEIGHT 8.0
#define CONTACT_WEIGHT 50.0
static double step_work(const mech_data *d)
{
    const xpbd_state *e = d->state;
    const xpbd_model *m = &e->x.m;
    double solve = m->nbody + m->njoint, sides = m->ncollider;
    for (int i = 0; i < e->x.nrod; i++) {
        const xpbd_rod *r = &e->x.rods[i];
        solve += ROD_WEIGHT * (r->nnode + r->ncon);
        if (!r->desc.visual) sides += r->nel;
    }
    double iterations = m->params.iterations;
    return m->params.substeps * (iterations * (solve > 0 ? solve : 1) + CONTACT_WEIGHT * (1 + iterations) * sides);
}

static void state_free(mech_data *d)
{
    xpbd_state *e = d->state;
    if (!e) return;
    xpbd_data_free(&e->d);
    xpbd_mech_free(&e->x);
    free(e->contacts);
    free(e->jq);
    free(e->jqd);
    free(e->jtau);
    free(e->jdamping);
    free(e);
}

static const mech_engine xpbd_engine = {
    .name = "xpbd",
    .step = step,
    .poses = poses,
    .observe = observe,
    .energy = energy,
    .reset = reset,
    .check = check,
    .velocities = velocities,
    .state_copy = state_copy,
    .reports = REPORTS,
    .step_work = step_work,
    .free = state_free,
};

mech_data *mech_data_new_xpbd(const mech_model *m, mech_error *err)
{
    xpbd_state *e = calloc(1, sizeof *e);
    if (!e) return mech_error_fail(err, m, "out of memory");
    *err = (mech_error){ .line = 0 };
    if (xpbd_from_model(m, &e->x, err)) { /* what XPBD cannot run, at its line */
        if (err->line == 0) {
            char why[MECH_ERROR_MAX];
            memcpy(why, err->message, sizeof why);
            mech_error_fail(err, m, "XPBD: %.*s", MECH_ERROR_MAX - 7, why);
        }
        free(e);
        return NULL;
    }
    if (xpbd_mech_data(&e->x, e->x.mode, &e->d)) {
        mech_data tmp = { .state = e };
        state_free(&tmp);
        return mech_error_fail(err, m, "out of memory");
    }
    e->d.record_residuals = 1;
    int joint_elements = m->nrsda > 0 || m->nu > 0;
    if (joint_elements) {
        e->jq = calloc((size_t)m->nq + 1, sizeof *e->jq);
        e->jqd = calloc((size_t)m->nv + 1, sizeof *e->jqd);
        e->jtau = calloc((size_t)m->nv + 1, sizeof *e->jtau);
        e->jdamping = calloc(6 * (size_t)e->x.m.njoint + 1, sizeof *e->jdamping);
        if (!e->jq || !e->jqd || !e->jtau || !e->jdamping) {
            mech_data tmp = { .state = e };
            state_free(&tmp);
            return mech_error_fail(err, m, "out of memory");
        }
    }
    mech_data *d = mech_data_new(m, &xpbd_engine, e, err);
    if (d && joint_elements) {
        e->d.force_fn = joint_forces;
        e->d.force_user = d;
        e->d.damping = e->jdamping;
    }
    return d;
}

/* ---- what only XPBD has ---- */

static const xpbd_state *xpbd_of(const mech_data *d) { return d->engine == &xpbd_engine ? d->state : NULL; }

static const xpbd_rod *rod_of(const mech_data *d, int i)
{
    const xpbd_state *e = xpbd_of(d);
    return e && i >= 0 && i < e->x.nrod ? &e->x.rods[i] : NULL;
}

int mech_data_contacts(mech_data *d, const double **out)
{
    *out = NULL;
    if (d->engine != &xpbd_engine) return mech_data_featherstone_contacts(d, out, 0);
    xpbd_state *e = d->state;
    if (e->d.ncontact > e->cap_contacts) {
        double *grown = realloc(e->contacts, 6 * (size_t)e->d.ncontact * sizeof *grown);
        if (!grown) return -1;
        e->contacts = grown;
        e->cap_contacts = e->d.ncontact;
    }
    *out = e->contacts;
    return xpbd_contact_points(&e->x.m, &e->d, e->contacts);
}

const double *mech_data_xpbd_residuals(const mech_data *d)
{
    const xpbd_state *e = xpbd_of(d);
    return e ? e->residuals : NULL;
}

/* Body `body`'s ramp drive, or NULL with d's error set. */
static xpbd_signal_row *ramp_of(mech_data *d, int body, const char *what)
{
    xpbd_state *e = d->engine == &xpbd_engine ? d->state : NULL;
    xpbd_signal_row *s = e ? xpbd_mech_ramp(&e->x, d->model, body) : NULL;
    if (!s)
        mech_data_fail(d, "%s: body %d of '%s' on %s has no ramp drive", what, body, d->model->name, d->engine->name);
    return s;
}

int mech_data_xpbd_ramp_rate(mech_data *d, int body, double *rate)
{
    const xpbd_signal_row *s = ramp_of(d, body, "ramp_rate");
    if (!s) return -1;
    *rate = s->s.a[0];
    return 0;
}

int mech_data_xpbd_set_ramp_rate(mech_data *d, int body, double rate)
{
    xpbd_signal_row *s = ramp_of(d, body, "set_ramp_rate");
    if (!s) return -1;
    if (!isfinite(rate)) return mech_data_fail(d, "set_ramp_rate: the rate must be finite, got %g", rate);
    xpbd_mech_ramp_rate(s, &((xpbd_state *)d->state)->d, rate);
    return 0;
}

int mech_data_rod_count(const mech_data *d)
{
    const xpbd_state *e = xpbd_of(d);
    return e ? e->x.nrod : 0;
}

int mech_data_rod_info(const mech_data *d, int i, mech_rod_info *out)
{
    const xpbd_rod *r = rod_of(d, i);
    if (!r) return -1;
    *out = (mech_rod_info){ .order = r->order,
                            .elements = r->nel,
                            .nodes = r->nnode,
                            .gauss_points = r->ngauss,
                            .length = r->l * r->nel,
                            .diameter = r->desc.diameter,
                            .E = r->desc.E,
                            .damping = r->desc.damping };
    return 0;
}

const double *mech_data_rod_positions(const mech_data *d, int i)
{
    const xpbd_rod *r = rod_of(d, i);
    return r ? r->p : NULL;
}

const double *mech_data_rod_frames(const mech_data *d, int i)
{
    const xpbd_rod *r = rod_of(d, i);
    return r ? r->R : NULL;
}

int mech_data_rod_sample(const mech_data *d, int i, double s, double p[3], double R[9])
{
    const xpbd_rod *r = rod_of(d, i);
    if (!r) return -1;
    xpbd_rod_sample(r, s, p, R);
    return 0;
}
