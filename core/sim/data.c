/* data.c — a mech_data's life and the verbs every engine shares (mech/sim.h):
 * the input checks before an engine runs, the output checks after it, the
 * producers stage of a step and the work cap.  The engines (data.h) only
 * compute. */
#include "sim/data.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "spatial/spatial.h"

mech_data *mech_data_new(const mech_model *m, const mech_engine *engine, void *state, mech_error *err)
{
    mech_data *d = calloc(1, sizeof *d);
    /* One block for every array: q qd tau act (and h, the implicit step: model.h)
     * fext qdd poses energy fstep vmid tstep. */
    size_t n = (size_t)m->nq + 5 * (size_t)m->nv + (size_t)m->nact + 1 + 19 * (size_t)m->nb + 2;
    double *buf = d ? calloc(n, sizeof(double)) : NULL;
    if (!buf) {
        free(d);
        if (engine->free) {
            mech_data tmp = { .model = m, .state = state };
            engine->free(&tmp);
        }
        return mech_error_fail(err, m, "out of memory");
    }
    d->nq = m->nq;
    d->nv = m->nv;
    d->nb = m->nb;
    d->nact = m->nact;
    d->q = buf;
    d->qd = d->q + m->nq;
    d->tau = d->qd + m->nv;
    d->act = d->tau + m->nv;
    d->fext = d->act + m->nact + 1;
    d->qdd = d->fext + 6 * m->nb;
    d->poses = d->qdd + m->nv;
    d->energy = d->poses + 7 * m->nb;
    d->fstep = d->energy + 2;
    d->vmid = d->fstep + 6 * m->nb;
    d->tstep = d->vmid + m->nv;
    d->model = m;
    d->eval = *m;
    d->gravity = d->eval.gravity;
    d->engine = engine;
    d->fd = engine->fd;
    d->state = state;
    if (mech_model_has_contact(m) && !(d->contact = contact_new(m))) {
        mech_data_free(d);
        return mech_error_fail(err, m, "out of memory");
    }
    if (engine->fd && constraint_model_needs(m) && !(d->cs = constraint_new(m))) {
        mech_data_free(d);
        return mech_error_fail(err, m, "out of memory");
    }
    mech_data_reset(d);
    return d;
}

void mech_data_adopt_model(mech_data *d, mech_model *m) { d->owned = m; }

void mech_data_free(mech_data *d)
{
    if (!d) return;
    if (d->engine->free) d->engine->free(d);
    dense_ws_free(d->dense);
    free(d->kin);
    contact_free(d->contact);
    constraint_free(d->cs);
    free(d->cforces);
    free(d->cpoints);
    mech_model_free(d->owned);
    free(d->q);
    free(d);
}

void mech_data_reset(mech_data *d)
{
    mech_model_initial_state(d->model, d->q, d->qd);
    memset(d->tau, 0, sizeof(double) * (size_t)d->nv);
    memset(d->act, 0, sizeof(double) * (size_t)d->nact);
    const mech_model *m = d->model;
    if (m->initial_key >= 0 && m->initial_key < m->nkey)
        memcpy(mech_data_ctrl(d), m->keys[m->initial_key].ctrl, (size_t)m->nu * sizeof *d->act);
    memset(d->fext, 0, sizeof(double) * 6 * (size_t)d->nb);
    memset(d->qdd, 0, sizeof(double) * (size_t)d->nv);
    d->time = 0;
    if (d->contact) contact_reset(d->contact);
    if (d->engine->reset) d->engine->reset(d);
}

double *mech_data_q(mech_data *d) { return d->q; }
double *mech_data_qd(mech_data *d) { return d->qd; }
double *mech_data_tau(mech_data *d) { return d->tau; }
double *mech_data_act(mech_data *d) { return d->act; }
double *mech_data_fext(mech_data *d) { return d->fext; }
double *mech_data_ctrl(mech_data *d) { return d->act + d->model->nact - d->model->nu; }

int mech_data_reset_keyframe(mech_data *d, int k)
{
    const mech_model *m = d->model;
    if (k < 0 || k >= m->nkey) return mech_data_fail(d, "reset_keyframe: no keyframe %d: the model has %d", k, m->nkey);
    const mech_keyframe *key = &m->keys[k];
    if (d->engine->state_copy && k != m->initial_key) /* its bodies are its state, built from the initial one */
        return mech_data_fail(d,
                              "reset_keyframe: engine '%s' starts only from the model's initial state: name keyframe "
                              "'%s' in the model's 'initial' line, or open the model on a Featherstone engine",
                              d->engine->name, key->name);
    mech_data_reset(d);
    memcpy(d->q, key->q, (size_t)m->nq * sizeof *d->q);
    memcpy(d->qd, key->qd, (size_t)m->nv * sizeof *d->qd);
    memcpy(mech_data_ctrl(d), key->ctrl, (size_t)m->nu * sizeof *d->act);
    return 0;
}
double *mech_data_gravity(mech_data *d) { return d->gravity; }
const double *mech_data_qdd(const mech_data *d) { return d->qdd; }
const mech_model *mech_data_model(const mech_data *d) { return d->model; }
const char *mech_data_engine(const mech_data *d) { return d->engine->name; }
double mech_data_time(const mech_data *d) { return d->time; }
const mech_error *mech_data_error(const mech_data *d) { return &d->error; }

void *mech_error_fail(mech_error *err, const mech_model *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    *err = (mech_error){ .line = 0 };
    snprintf(err->file, sizeof err->file, "%s", m->name);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return NULL;
}

int mech_data_fail(mech_data *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->error.line = d->error.col = 0;
    snprintf(d->error.file, sizeof d->error.file, "%s", d->model->name);
    vsnprintf(d->error.message, sizeof d->error.message, fmt, ap);
    va_end(ap);
    return -1;
}

int mech_data_producer_add(mech_data *d, mech_producer_fn fn, void *user)
{
    if (d->nproducer == MECH_MAX_PRODUCERS)
        return mech_data_fail(d, "producers: at most %d per run", MECH_MAX_PRODUCERS);
    d->producer[d->nproducer].fn = fn;
    d->producer[d->nproducer++].user = user;
    return 0;
}

dense_ws *mech_data_dense(mech_data *d)
{
    if (!d->dense && !(d->dense = dense_ws_new(d->model))) mech_data_fail(d, "out of memory");
    return d->dense;
}

const mech_body_kin *mech_data_kinematics(mech_data *d, const double *qd)
{
    if (!d->kin && !(d->kin = malloc((size_t)(d->nb ? d->nb : 1) * sizeof *d->kin))) {
        mech_data_fail(d, "out of memory");
        return NULL;
    }
    mech_world_kinematics(d->model, d->q, qd, d->kin);
    return d->kin;
}

/* tau += S^T f for body b's joint at its kinematics k, f a wrench in base
 * coordinates [moment about the base origin; force]: the joint's share of
 * a force on b or a body it carries. */
static void joint_force(const mech_body *b, const mech_body_kin *k, const double f[6], double *tau)
{
    double pxf[3], n[3], a[3];
    v3_cross(k->p, f + 3, pxf);
    for (int i = 0; i < 3; i++) n[i] = f[i] - pxf[i]; /* the moment about the body origin */
    double *t = tau + b->vidx;
    switch (b->joint) {
    case MECH_JOINT_REVOLUTE: /* the origin is on the axis */
        m3_mulv(k->R, b->axis, a);
        t[0] += v3_dot(a, n);
        break;
    case MECH_JOINT_PRISMATIC:
        m3_mulv(k->R, b->axis, a);
        t[0] += v3_dot(a, f + 3);
        break;
    case MECH_JOINT_FLOATING: /* body-frame [moment; force] */
        m3_tmulv(k->R, n, a);
        m3_tmulv(k->R, f + 3, t + 3);
        for (int i = 0; i < 3; i++) t[i] += a[i];
        break;
    case MECH_JOINT_FIXED: break;
    case MECH_JOINT_SPHERICAL: /* body-frame moment */
        m3_tmulv(k->R, n, a);
        for (int i = 0; i < 3; i++) t[i] += a[i];
        break;
    case MECH_JOINT_CYLINDRICAL: /* the origin is on the axis */
        m3_mulv(k->R, b->axis, a);
        t[0] += v3_dot(a, n);
        t[1] += v3_dot(a, f + 3);
        break;
    }
}

/* 1 when body i does not read its fext but has some. */
static int pushed(const mech_data *d, int i)
{
    const double *f = d->fext + 6 * i;
    return !d->model->bodies[i].fext && (f[0] != 0 || f[1] != 0 || f[2] != 0 || f[3] != 0 || f[4] != 0 || f[5] != 0);
}

const double *mech_data_step_tau_pushed(mech_data *d)
{
    const mech_body_kin *k = mech_data_kinematics(d, NULL);
    if (!k) return NULL;
    memcpy(d->tstep, d->tau, sizeof(double) * (size_t)d->nv);
    for (int i = 0; i < d->nb; i++)
        for (int j = pushed(d, i) ? i : -1; j >= 0; j = d->model->bodies[j].parent)
            joint_force(&d->model->bodies[j], &k[j], d->fext + 6 * i, d->tstep);
    return d->tstep;
}

__attribute__((noinline)) int mech_data_fail_finite(mech_data *d, const char *what, const char *name, const double *v)
{
    int i = 0;
    while (isfinite(v[i])) i++;
    return mech_data_fail(d, "%s: %s[%d] is %s", what, name, i, isnan(v[i]) ? "NaN" : "infinite");
}

/* 0 unless a floating or spherical joint's quaternion in q is zero: -1 naming it. */
static int check_quaternions(mech_data *d, const char *what, const double *q)
{
    for (int i = 0; i < d->nb; i++) {
        const mech_body *b = &d->model->bodies[i];
        const double *Q = q + b->qidx;
        if ((b->joint == MECH_JOINT_FLOATING || b->joint == MECH_JOINT_SPHERICAL) &&
            Q[0] * Q[0] + Q[1] * Q[1] + Q[2] * Q[2] + Q[3] * Q[3] < 1e-12)
            return mech_data_fail(d, "%s: the quaternion q[%d..%d] of body '%s' is zero", what, b->qidx, b->qidx + 3,
                                  b->name);
    }
    return 0;
}

/* 0 when the state can be evaluated: q and qd finite, no floating body
 * with a zero quaternion. */
static int check_state(mech_data *d, const char *what)
{
    if (mech_data_check_finite(d, what, "q", d->q, d->nq) || mech_data_check_finite(d, what, "qd", d->qd, d->nv))
        return -1;
    return check_quaternions(d, what, d->q);
}

/* act finite: a bad ctrl is named by its actuator (a clamped ctrl would
 * hide a NaN in the dynamics). */
static int check_act(mech_data *d, const char *what)
{
    const mech_model *m = d->model;
    if (mech_all_finite(d->act, d->nact)) return 0;
    int i = 0, first = m->nact - m->nu;
    while (isfinite(d->act[i])) i++;
    if (i < first) return mech_data_fail_finite(d, what, "act", d->act);
    return mech_data_fail(d, "%s: ctrl[%d] (actuator '%s') is %s", what, i - first, m->actuators[i - first].name,
                          isnan(d->act[i]) ? "NaN" : "infinite");
}

/* check_state, then every other input a step reads: tau, act, gravity and
 * fext. */
static int check_inputs(mech_data *d, const char *what)
{
    if (check_state(d, what) || mech_data_check_finite(d, what, "tau", d->tau, d->nv) || check_act(d, what) ||
        mech_data_check_finite(d, what, "gravity", d->gravity, 3))
        return -1;
    for (int i = 0; i < d->nb; i++) {
        const mech_body *b = &d->model->bodies[i];
        const double *f = d->fext + 6 * i;
        for (int k = 0; k < 6; k++)
            if (!isfinite(f[k]))
                return mech_data_fail(d, "%s: fext[%d] (body '%s') is %s", what, 6 * i + k, b->name,
                                      isnan(f[k]) ? "NaN" : "infinite");
    }
    return 0;
}

mech_fd_fn mech_data_fd(const mech_data *d)
{
    const double *g = d->gravity, *g0 = d->model->gravity;
    if (d->engine->fd_own_gravity && g[0] == g0[0] && g[1] == g0[1] && g[2] == g0[2]) return d->engine->fd_own_gravity;
    return d->engine->fd;
}

/* Why forward() failed, once the fast path has seen a non-finite state or
 * result: the error names the first bad input, or says none was. */
__attribute__((noinline)) static int forward_failed(mech_data *d)
{
    if (!check_inputs(d, "forward"))
        mech_data_fail(d, "forward: the dynamics gave a non-finite qdd from finite inputs");
    return -1;
}

/* The state is checked before, the result after: a bad tau, act, fext (on a
 * body that reads it: forward() reads no other), gravity or quaternion always shows in qdd, and only
 * then are the inputs scanned to name it. */
int mech_data_forward(mech_data *d)
{
    if (!d->engine->fd)
        return mech_data_fail(d,
                              "forward: engine '%s' has no forward dynamics (it steps positions); "
                              "open the model on a Featherstone engine for accelerations",
                              d->engine->name);
    if (!mech_all_finite(d->q, d->nq + d->nv)) return forward_failed(d); /* q, qd: one block */
    if (d->model->nu && check_act(d, "forward")) return -1;
    d->act[d->nact] = 0.0; /* the explicit dynamics (model.h, mech_model_implicit_step) */
    mech_data_fd(d)(d, d->q, d->qd, d->tau, d->fext, d->qdd);
    if (mech_all_finite(d->qdd, d->nv)) return 0;
    return forward_failed(d);
}

/* The engine's work, plus the contact stage's: every shoe against every
 * roller of its band, and four pad corners per shoe on a ground. */
double mech_data_step_work(const mech_data *d)
{
    const mech_model *m = d->model;
    double pairs = 0;
    for (int i = 0; i < m->ntrack; i++)
        pairs += (double)m->tracks[i].nshoe * (m->tracks[i].nroller + (m->ground.type != MECH_GROUND_NONE ? 4 : 0));
    return d->engine->step_work(d) + pairs;
}

void mech_data_ground_reaction(const mech_data *d, double f[3])
{
    if (d->contact) contact_ground_reaction(d->contact, f);
    else f[0] = f[1] = f[2] = 0;
}

void mech_data_ground_forces(const mech_data *d, double *f)
{
    if (d->contact) memcpy(f, contact_ground_forces(d->contact), 3 * (size_t)d->nb * sizeof *f);
    else memset(f, 0, 3 * (size_t)d->nb * sizeof *f);
}

int mech_data_step_forces(void *d, const double *q, const double *qd, double dt, const double **fext)
{
    return mech_data_step_forces_inline(d, q, qd, dt, fext);
}

const double *mech_data_step_fstep(mech_data *d, const double *q, const double *qd, double dt)
{
    memcpy(d->fstep, d->fext, sizeof(double) * 6 * (size_t)d->nb);
    if (d->contact) {
        double t0 = mech_clock_ms();
        contact_forces(d->contact, &d->eval, q, qd, dt, d->fstep);
        d->stage_ms[0] += mech_clock_ms() - t0;
    }
    for (int i = 0; i < d->nproducer; i++) {
        mech_error why = { .line = 0 };
        if (d->producer[i].fn(d->model, d, d->time, d->fstep, d->producer[i].user, &why)) {
            mech_data_fail(d, "step: producer %d failed: %s", i, why.message);
            return NULL;
        }
    }
    if (!mech_all_finite(d->fstep, 6 * d->nb)) {
        mech_data_fail_finite(d, "step", d->contact ? "contact and producer fext" : "producer fext", d->fstep);
        return NULL;
    }
    return d->fstep;
}

int mech_data_step(mech_data *d, double dt, int n) { return mech_data_step_part(d, dt, 0, n, n); }

int mech_data_step_part(mech_data *d, double dt, int first, int count, int n)
{
    if (!(dt > 0) || !isfinite(dt))
        return mech_data_fail(d, "step: dt must be a positive finite number of seconds, got %g", dt);
    if (n < 0) return mech_data_fail(d, "step: n must be a non-negative integer, got %d", n);
    if (first < 0 || count < 0 || count > n - first)
        return mech_data_fail(d, "step: steps %d to %d are not a part of a call of %d", first + 1, first + count, n);
    double work = (double)n * mech_data_step_work(d);
    if (work > MECH_STEP_WORK_MAX)
        return mech_data_fail(d,
                              "step: %d steps of '%s' on %s are %.3g units of work, over the %.3g one call "
                              "may do; take fewer steps per call",
                              n, d->model->name, d->engine->name, work, MECH_STEP_WORK_MAX);
    if (check_inputs(d, "step")) return -1;
    d->fd = mech_data_fd(d);
    d->pushed = 0; /* fext is an input: it stays as it is for the whole call */
    for (int i = 0; i < d->nb && !d->pushed; i++) d->pushed = pushed(d, i);
    d->part_first = first;
    d->part_n = n;
    if (d->engine->steps) return d->engine->steps(d, dt, count);
    return mech_data_run_steps(d, dt, count, d->engine->step);
}

void mech_data_constrained_fd(void *ctx, const double *q, const double *qd, const double *tau, const double *fext,
                              double *qdd)
{
    mech_data *d = ctx;
    d->fd(d, q, qd, tau, fext, qdd);
    double t0 = mech_clock_ms();
    if (constraint_apply(d->cs, &d->eval, d->fd, d, q, qd, tau, fext, d->act, qdd)) d->cs_failed = 1;
    d->stage_ms[1] += mech_clock_ms() - t0;
}

int mech_data_set_floor(mech_data *d, int on, double height)
{
    if (!d->engine->fd)
        return mech_data_fail(d, "floor: engine '%s' has no floor; give the model a 'static plane'", d->engine->name);
    if (!isfinite(height)) return mech_data_fail(d, "floor: the height must be finite, got %g", height);
    if (on && d->model->ground.type != MECH_GROUND_NONE)
        return mech_data_fail(d, "floor: model '%s' has a ground, which is its floor", d->model->name);
    if (!d->cs && !on) return 0;
    if (!d->cs && !(d->cs = constraint_new(d->model))) return mech_data_fail(d, "out of memory");
    constraint_set_floor(d->cs, on, height);
    return 0;
}

int mech_data_floor(const mech_data *d, double *height)
{
    if (height) *height = 0;
    return d->cs ? constraint_floor(d->cs, height) : 0;
}

int mech_data_featherstone_contacts(mech_data *d, const double **out, int forces)
{
    *out = NULL;
    if (!d->cs) return 0;
    const double *c;
    int n = constraint_contacts(d->cs, &c);
    if (!n) return 0;
    double **keep = forces ? &d->cforces : &d->cpoints;
    double *buf = realloc(*keep, 6 * (size_t)n * sizeof *buf);
    if (!buf) return -1;
    *keep = buf;
    for (int k = 0; k < n; k++)
        if (forces) memcpy(buf + 4 * k, c + 10 * k + 6, 4 * sizeof *buf);
        else memcpy(buf + 6 * k, c + 10 * k, 6 * sizeof *buf);
    *out = buf;
    return n;
}

int mech_data_contact_forces(mech_data *d, const double **out) { return mech_data_featherstone_contacts(d, out, 1); }

int mech_data_stage_times(const mech_data *d, double out[2])
{
    out[0] = d->stage_ms[0];
    out[1] = d->stage_ms[1];
    return 0;
}

int mech_data_solver_stats(const mech_data *d, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    if (d->cs) constraint_stats(d->cs, out);
    return 0;
}

int mech_data_blew_up(mech_data *d, int k)
{
    char why[sizeof d->error.message];
    memcpy(why, d->error.message, sizeof why);
    return mech_data_fail(d, "%s after step %d of %d: the simulation blew up (reset() recovers)", why,
                          d->part_first + k + 1, d->part_n);
}

/* After poses, observe and energy: a finite state gave a non-finite
 * result (an angle or a length too large for this model, say); `entry`
 * names value i. */
static int check_output(mech_data *d, const char *what, const double *v, int n,
                        void (*entry)(const mech_data *d, int i, char *buf, size_t cap))
{
    if (mech_all_finite(v, n)) return 0;
    int i = 0;
    char name[MECH_NAME_MAX + 48];
    while (isfinite(v[i])) i++;
    entry(d, i, name, sizeof name);
    return mech_data_fail(d, "%s: %s is %s from a finite state (q or qd too large for this model?)", what, name,
                          isnan(v[i]) ? "NaN" : "infinite");
}

static void pose_entry(const mech_data *d, int i, char *buf, size_t cap)
{
    static const char *const part[7] = { "x", "y", "z", "qw", "qx", "qy", "qz" };
    snprintf(buf, cap, "the pose %s of body '%s'", part[i % 7], d->model->bodies[i / 7].name);
}

static void energy_entry(const mech_data *d, int i, char *buf, size_t cap)
{
    (void)d;
    snprintf(buf, cap, "the %s energy", i ? "potential" : "kinetic");
}

static void observe_entry(const mech_data *d, int i, char *buf, size_t cap)
{
    (void)d;
    snprintf(buf, cap, "observation value %d", i);
}

int mech_data_poses(mech_data *d, double *out)
{
    if (check_state(d, "poses")) return -1;
    d->engine->poses(d, out);
    return check_output(d, "poses", out, 7 * d->nb, pose_entry);
}

int mech_data_observe(mech_data *d, double *out)
{
    if (check_state(d, "observe")) return -1;
    if (!d->engine->observe)
        return mech_data_fail(d, "observe: engine '%s' has no observation values", d->engine->name);
    if (d->engine->observe(d, out)) return -1;
    return check_output(d, "observe", out, mech_model_sizes(d->model).observe_len, observe_entry);
}

int mech_data_energy(mech_data *d, double e[2])
{
    if (check_state(d, "energy")) return -1;
    if (d->engine->energy(d, e)) return -1;
    return check_output(d, "energy", e, 2, energy_entry);
}

static void velocity_entry(const mech_data *d, int i, char *buf, size_t cap)
{
    static const char *const part[6] = { "vx", "vy", "vz", "wx", "wy", "wz" };
    snprintf(buf, cap, "the velocity %s of body '%s'", part[i % 6], d->model->bodies[i / 6].name);
}

int mech_data_velocities(mech_data *d, double *out)
{
    if (check_state(d, "velocities")) return -1;
    if (d->engine->velocities(d, out)) return -1;
    return check_output(d, "velocities", out, 6 * d->nb, velocity_entry);
}

/* The state into buf (save) or out of it; buf NULL only counts.  Returns
 * its size in doubles. */
static int state_copy(mech_data *d, double *buf, int save)
{
    int at = mech_state_copy(buf, 0, &d->time, 1, save);
    at = mech_state_copy(buf, at, d->q, d->nq, save);
    at = mech_state_copy(buf, at, d->qd, d->nv, save);
    at = mech_state_copy(buf, at, d->qdd, d->nv, save);
    if (d->contact) at = contact_state_copy(d->contact, buf, at, save);
    if (d->engine->state_copy) at += d->engine->state_copy(d, buf ? buf + at : NULL, save);
    return at;
}

int mech_data_state_size(const mech_data *d) { return state_copy((mech_data *)d, NULL, 1); }

void mech_data_state_save(mech_data *d, double *out) { state_copy(d, out, 1); }

int mech_data_state_restore(mech_data *d, const double *in, int n)
{
    int size = mech_data_state_size(d);
    if (n != size)
        return mech_data_fail(d, "restore: a state of '%s' on %s has %d values, not %d", d->model->name,
                              d->engine->name, size, n);
    if (mech_data_check_finite(d, "restore", "state", in, n - d->engine->reports) ||
        check_quaternions(d, "restore", in + 1))
        return -1;
    state_copy(d, (double *)in, 0);
    return 0;
}
