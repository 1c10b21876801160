/* xpbd_world.c — model and data lifetime, and the XPBD time step with
 * oriented particles (§4.2): inertial prediction with ⊞, substeps,
 * constraint projection, velocities from ⊟, damping. */
#include "xpbd/xpbd_internal.h"
#include "xpbd/rod.h"

#include "spatial/so3.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xpbd_model_alloc(xpbd_model *m, int nbody, int njoint)
{
    memset(m, 0, sizeof *m);
    m->bodies = calloc((size_t)(nbody > 0 ? nbody : 1), sizeof *m->bodies);
    m->joints = calloc((size_t)(njoint > 0 ? njoint : 1), sizeof *m->joints);
    m->inv_inertia = calloc((size_t)(9 * (nbody > 0 ? nbody : 1)), sizeof(double));
    if (!m->bodies || !m->joints || !m->inv_inertia) {
        xpbd_model_free(m);
        return -1;
    }
    m->nbody = nbody;
    m->njoint = njoint;
    for (int b = 0; b < nbody; b++) m3_identity(m->bodies[b].R);
    for (int j = 0; j < njoint; j++) {
        m3_identity(m->joints[j].R1);
        m3_identity(m->joints[j].R2);
    }
    m->params.dt = 0.01;
    m->params.substeps = 1;
    m->params.iterations = 1;
    return 0;
}

int xpbd_model_colliders(xpbd_model *m, int n)
{
    xpbd_collider *c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
    if (!c) return -1;
    free(m->colliders);
    m->colliders = c;
    m->ncollider = n;
    for (int i = 0; i < n; i++) m3_identity(c[i].shape.R);
    return 0;
}

void xpbd_model_free(xpbd_model *m)
{
    free(m->bodies);
    free(m->joints);
    free(m->inv_inertia);
    free(m->colliders);
    free(m->exclude);
    memset(m, 0, sizeof *m);
}

/* Rows, position form and compliances of each joint type (§5.2–5.6). */
static void resolve_joint(xpbd_joint *jt)
{
    static const unsigned rows[] = { 0x3Fu, 0x1Fu, 0x07u, 0x3Bu };
    static const double I3[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    jt->frame_identity[0] = memcmp(jt->R1, I3, sizeof I3) == 0;
    jt->frame_identity[1] = memcmp(jt->R2, I3, sizeof I3) == 0;
    memset(jt->alpha, 0, sizeof jt->alpha);
    if (jt->type == XPBD_TARGET) {
        jt->rows = jt->target_rows & 0x3Fu;
        jt->local_pos = 1;
        memcpy(jt->alpha, jt->target_compliance, sizeof jt->alpha);
        return;
    }
    jt->rows = rows[jt->type];
    jt->local_pos = jt->type == XPBD_PRISMATIC;
    if (!jt->drive || jt->type == XPBD_FIXED) return;
    /* §5.6: the full target form, compliance 1/k on the driven rows. */
    jt->rows = 0x3Fu;
    jt->local_pos = 1;
    if (jt->type == XPBD_REVOLUTE && jt->stiffness[0] > 0) jt->alpha[5] = 1.0 / jt->stiffness[0];
    if (jt->type == XPBD_PRISMATIC && jt->stiffness[0] > 0) jt->alpha[2] = 1.0 / jt->stiffness[0];
    if (jt->type == XPBD_SPHERICAL)
        for (int k = 0; k < 3; k++)
            if (jt->stiffness[k] > 0) jt->alpha[3 + k] = 1.0 / jt->stiffness[k];
}

static int cmp_key(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The jointed body pairs (xpbd_model.exclude), and each collider's sense. */
static int resolve_colliders(xpbd_model *m, char *err, int errlen)
{
    for (int i = 0; i < m->ncollider; i++) {
        const xpbd_collider *c = &m->colliders[i];
        if (c->body < -1 || c->body >= m->nbody || (c->shape.kind == COLLIDE_PLANE && c->body >= 0)) {
            snprintf(err, (size_t)errlen, "collider %d: body %d (planes are static)", i, c->body);
            return -1;
        }
    }
    free(m->exclude);
    m->exclude = malloc((size_t)(m->njoint > 0 ? m->njoint : 1) * sizeof *m->exclude);
    if (!m->exclude) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    m->nexclude = 0;
    for (int j = 0; j < m->njoint; j++) {
        int b1 = m->joints[j].body1, b2 = m->joints[j].body2;
        if (b1 < 0 || b2 < 0) continue;
        m->exclude[m->nexclude++] = b1 < b2 ? (long long)b1 * m->nbody + b2 : (long long)b2 * m->nbody + b1;
    }
    qsort(m->exclude, (size_t)m->nexclude, sizeof *m->exclude, cmp_key);
    return 0;
}

int xpbd_model_finalize(xpbd_model *m, char *err, int errlen)
{
    const xpbd_params *pp = &m->params;
    if (!(pp->dt > 0) || pp->substeps < 1 || pp->iterations < 1) {
        snprintf(err, (size_t)errlen, "params: dt must be > 0, substeps and iterations >= 1");
        return -1;
    }
    for (int b = 0; b < m->nbody; b++) {
        if (!(m->bodies[b].mass > 0) || !(fabs(m3_inverse(m->bodies[b].inertia, m->inv_inertia + 9 * b)) > 0)) {
            snprintf(err, (size_t)errlen, "body %d: mass and inertia must be positive", b);
            return -1;
        }
    }
    for (int j = 0; j < m->njoint; j++) {
        xpbd_joint *jt = &m->joints[j];
        if (jt->body1 < -1 || jt->body1 >= m->nbody || jt->body2 < -1 || jt->body2 >= m->nbody || jt->body1 == jt->body2) {
            snprintf(err, (size_t)errlen, "joint %d: bodies %d and %d", j, jt->body1, jt->body2);
            return -1;
        }
        if ((jt->type == XPBD_FIXED || jt->type == XPBD_TARGET) && (jt->has_lower || jt->has_upper)) {
            snprintf(err, (size_t)errlen, "joint %d: this joint type has no limits", j);
            return -1;
        }
        if (jt->has_swing && jt->type != XPBD_SPHERICAL) {
            snprintf(err, (size_t)errlen, "joint %d: a swing limit needs a spherical joint", j);
            return -1;
        }
        resolve_joint(jt);
        if (jt->rows == 0) {
            snprintf(err, (size_t)errlen, "joint %d: no constrained rows", j);
            return -1;
        }
    }
    return resolve_colliders(m, err, errlen);
}

int xpbd_data_alloc(xpbd_data *d, const xpbd_model *m, xpbd_mode mode)
{
    size_t nb = (size_t)(m->nbody > 0 ? m->nbody : 1), nj = (size_t)(m->njoint > 0 ? m->njoint : 1);
    memset(d, 0, sizeof *d);
    d->mode = mode;
    d->dt = m->params.dt;
    memcpy(d->gravity, m->params.gravity, sizeof d->gravity);
    d->p = calloc(3 * nb, sizeof(double));
    d->R = calloc(9 * nb, sizeof(double));
    d->v = calloc(3 * nb, sizeof(double));
    d->w = calloc(3 * nb, sizeof(double));
    d->fext = calloc(6 * nb, sizeof(double));
    d->fstate = calloc(6 * nb, sizeof(double));
    d->target = calloc(6 * nj, sizeof(double));
    d->lambda = calloc(6 * nj, sizeof(double));
    d->lambda_limit = calloc(3 * nj, sizeof(double));
    d->p_pred = calloc(3 * nb, sizeof(double));
    d->R_pred = calloc(9 * nb, sizeof(double));
    d->p_prev = calloc(3 * nb, sizeof(double));
    d->R_prev = calloc(9 * nb, sizeof(double));
    size_t nc = (size_t)(m->ncollider > 0 ? m->ncollider : 1);
    d->placed = calloc(nc, sizeof *d->placed);
    d->collider_static = calloc(nc, sizeof *d->collider_static);
    d->collider_grow = calloc(nc, sizeof *d->collider_grow);
    if (!d->p || !d->R || !d->v || !d->w || !d->fext || !d->fstate || !d->target || !d->lambda || !d->lambda_limit ||
        !d->p_pred || !d->R_pred || !d->p_prev || !d->R_prev || !d->placed || !d->collider_static || !d->collider_grow) {
        xpbd_data_free(d);
        return -1;
    }
    d->cap_placed = (int)nc;
    for (int i = 0; i < m->ncollider; i++) d->collider_static[i] = m->colliders[i].body < 0;
    xpbd_data_reset(d, m);
    return 0;
}

void xpbd_data_reset(xpbd_data *d, const xpbd_model *m)
{
    d->t = 0;
    d->ncontact = 0;
    d->primal = d->constraint = 0;
    for (int b = 0; b < m->nbody; b++) {
        const xpbd_body *bd = &m->bodies[b];
        memcpy(d->p + 3 * b, bd->p, sizeof bd->p);
        memcpy(d->R + 9 * b, bd->R, sizeof bd->R);
        memcpy(d->v + 3 * b, bd->v, sizeof bd->v);
        memcpy(d->w + 3 * b, bd->w, sizeof bd->w);
    }
    memset(d->fext, 0, 6 * (size_t)m->nbody * sizeof(double));
    for (int j = 0; j < m->njoint; j++) memcpy(d->target + 6 * j, m->joints[j].target, 6 * sizeof(double));
}

void xpbd_data_free(xpbd_data *d)
{
    double *all[] = {
        d->p,      d->R,      d->v,      d->w,      d->fext,         d->fstate, d->target, d->lambda, d->lambda_limit,
        d->p_pred, d->R_pred, d->p_prev, d->R_prev, d->collider_grow
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    free(d->placed);
    free(d->collider_static);
    free(d->contacts);
    free(d->elem);
    collide_broadphase_free(&d->broad);
    memset(d, 0, sizeof *d);
}

/* Inertial prediction (eqs. 46–48): v ← v + h(g + f/m), p̃ = p + h v;
 * ω ← ω + h J⁻¹(Rᵀτ − ω × Jω) with the gyroscopic term explicit (as in
 * Müller et al. 2020), R̃ = R ⊞ hω.  [τ; f] is fext, plus fstate when a
 * force_fn fills it. */
static void predict(const xpbd_model *m, xpbd_data *d, double h)
{
    const double *g = d->gravity;
    for (int b = 0; b < m->nbody; b++) {
        const xpbd_body *bd = &m->bodies[b];
        double *p = d->p + 3 * b, *R = d->R + 9 * b, *v = d->v + 3 * b, *w = d->w + 3 * b;
        double tau[3], f[3], Jw[3], gyro[3], tb[3], acc[3], hw[3];
        memcpy(tau, d->fext + 6 * b, sizeof tau);
        memcpy(f, d->fext + 6 * b + 3, sizeof f);
        if (d->force_fn)
            for (int k = 0; k < 3; k++) {
                tau[k] += d->fstate[6 * b + k];
                f[k] += d->fstate[6 * b + 3 + k];
            }
        memcpy(d->p_prev + 3 * b, p, 3 * sizeof(double));
        memcpy(d->R_prev + 9 * b, R, 9 * sizeof(double));
        for (int k = 0; k < 3; k++) {
            v[k] += h * (g[k] + f[k] / bd->mass);
            p[k] += h * v[k];
        }
        m3_mulv(bd->inertia, w, Jw);
        v3_cross(w, Jw, gyro);
        m3_tmulv(R, tau, tb);
        for (int k = 0; k < 3; k++) tb[k] -= gyro[k];
        m3_mulv(m->inv_inertia + 9 * b, tb, acc);
        for (int k = 0; k < 3; k++) {
            w[k] += h * acc[k];
            hw[k] = h * w[k];
        }
        so3_plus_inplace(R, hw);
        memcpy(d->p_pred + 3 * b, p, 3 * sizeof(double));
        memcpy(d->R_pred + 9 * b, R, 9 * sizeof(double));
    }
}

/* v = (p⁺ − p)/h and ω = (R⁺ ⊟ R)/h (§4.2). */
static void update_velocities(const xpbd_model *m, xpbd_data *d, double h)
{
    for (int b = 0; b < m->nbody; b++) {
        double th[3];
        for (int k = 0; k < 3; k++) d->v[3 * b + k] = (d->p[3 * b + k] - d->p_prev[3 * b + k]) / h;
        so3_minus(d->R + 9 * b, d->R_prev + 9 * b, th);
        for (int k = 0; k < 3; k++) d->w[3 * b + k] = th[k] / h;
    }
}

/* Contacts are found at the substep's start pose, before the prediction
 * (Müller et al. 2020 §3.5); their normal velocities are read after it (the
 * rods' too).  Rod contacts are solved after the rods' elastic solve, outside
 * its block (Tobin & Rucker §8.2), and their velocity pass follows the rods'
 * velocity update.  The residuals are the step's last substep's (xpbd_data),
 * so only that one computes them. */
static int substep(const xpbd_model *m, xpbd_data *d, double h, int contact, int last)
{
    double t1 = d->t + h;
    if (contact && xpbd_contacts_find(m, d, h)) return -1;
    if (d->target_fn)
        for (int j = 0; j < m->njoint; j++) d->target_fn(t1, j, d->target + 6 * j, d->target_user);
    if (d->force_fn) d->force_fn(d->force_user, d->fstate);
    predict(m, d, h);
    for (int r = 0; r < d->nrod; r++) xpbd_rod_substep_begin(d->rods[r], h, d->gravity);
    if (contact) xpbd_contacts_approach(d);
    memset(d->lambda, 0, 6 * (size_t)m->njoint * sizeof(double));
    memset(d->lambda_limit, 0, 3 * (size_t)m->njoint * sizeof(double));
    for (int it = 0; it < m->params.iterations; it++) {
        xpbd_solve_positions(m, d, h);
        for (int r = 0; r < d->nrod; r++) xpbd_rod_iterate(d->rods[r], h);
        if (contact) xpbd_contacts_solve_positions(m, d);
    }
    update_velocities(m, d, h);
    for (int r = 0; r < d->nrod; r++) xpbd_rod_substep_end(d->rods[r], h);
    if (last && d->record_residuals) xpbd_residuals(m, d, h, &d->primal, &d->constraint);
    if (contact) xpbd_contacts_solve_velocities(m, d, h);
    xpbd_solve_damping(m, d, h);
    d->t = t1;
    return 0;
}

int xpbd_step(const xpbd_model *m, xpbd_data *d)
{
    double h = d->dt / m->params.substeps;
    int contact = m->ncollider > 0 || xpbd_rod_contact_any(d);
    if (contact && xpbd_contacts_broadphase(m, d)) return -1;
    for (int s = 0; s < m->params.substeps; s++)
        if (substep(m, d, h, contact, s == m->params.substeps - 1)) return -1;
    return 0;
}

double xpbd_energy(const xpbd_model *m, const xpbd_data *d, double *kinetic, double *potential)
{
    double T = 0, V = 0;
    for (int b = 0; b < m->nbody; b++) {
        const xpbd_body *bd = &m->bodies[b];
        const double *v = d->v + 3 * b, *w = d->w + 3 * b;
        double Jw[3];
        m3_mulv(bd->inertia, w, Jw);
        T += 0.5 * bd->mass * v3_dot(v, v) + 0.5 * v3_dot(w, Jw);
        V -= bd->mass * v3_dot(d->gravity, d->p + 3 * b);
    }
    if (kinetic) *kinetic = T;
    if (potential) *potential = V;
    return T + V;
}
