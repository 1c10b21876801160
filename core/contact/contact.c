/* contact.c — the contact stage (contact.h): one kinematics pass, every
 * band's pin and face laws, every bump stop, the ground law at every pad
 * corner, every tire. */
#include "contact/contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/ground_contact.h"
#include "contact/stop.h"
#include "contact/tire.h"
#include "contact/track_contact.h"

struct contact_state {
    int nb;
    mech_kin_joint *joints; /* nb                                 */
    mech_body_kin *kin;     /* nb, scratch                        */
    int nband;
    track_band *bands; /* ntrack                             */
    ground_stage ground;
    int has_ground;
    ground_anchor *anchors; /* ground.ncorner (anchored mode only) */
    tire_stage tires;
    tire_slip *slips; /* ntire: the tires' relaxed slips */
    double *patch;    /* 6 ntire: each tire's ground point and force */
    double reaction[3];
    double *body_force; /* 3 nb: the ground's force on each body (its shoes' corners, its tire) */
};

/* The design pose: every body's q0 in one vector. */
static double *design_q(const mech_model *m)
{
    double *q = calloc((size_t)(m->nq ? m->nq : 1), sizeof *q);
    if (!q) return NULL;
    for (int i = 0; i < m->nb; i++) memcpy(q + m->bodies[i].qidx, m->bodies[i].q0, (size_t)m->bodies[i].nq * sizeof *q);
    return q;
}

contact_state *contact_new(const mech_model *m)
{
    contact_state *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->nb = m->nb;
    c->joints = calloc((size_t)(m->nb ? m->nb : 1), sizeof *c->joints);
    c->kin = calloc((size_t)(m->nb ? m->nb : 1), sizeof *c->kin);
    c->bands = calloc((size_t)(m->ntrack ? m->ntrack : 1), sizeof *c->bands);
    c->body_force = calloc(3 * (size_t)(m->nb ? m->nb : 1), sizeof *c->body_force);
    c->slips = calloc((size_t)(m->ntire ? m->ntire : 1), sizeof *c->slips);
    c->patch = calloc(6 * (size_t)(m->ntire ? m->ntire : 1), sizeof *c->patch);
    double *q0 = design_q(m);
    if (!c->joints || !c->kin || !c->bands || !c->body_force || !c->slips || !c->patch || !q0) goto fail;
    c->nband = m->ntrack;
    mech_kin_joints(m, c->joints);
    mech_world_kinematics_joints(m, c->joints, q0, NULL, c->kin);
    for (int t = 0; t < m->ntrack; t++) track_band_init(&c->bands[t], m, &m->tracks[t], c->kin);
    free(q0);
    tire_stage_init(&c->tires, m);
    c->has_ground = m->ground.type != MECH_GROUND_NONE;
    if (c->has_ground) {
        ground_stage_init(&c->ground, m);
        if (m->ground.friction == MECH_FRICTION_ANCHORED && c->ground.ncorner) {
            c->anchors = calloc((size_t)c->ground.ncorner, sizeof *c->anchors);
            if (!c->anchors) goto fail;
        }
    }
    return c;
fail:
    free(q0);
    contact_free(c);
    return NULL;
}

void contact_free(contact_state *c)
{
    if (!c) return;
    free(c->joints);
    free(c->kin);
    free(c->bands);
    free(c->anchors);
    free(c->body_force);
    free(c->slips);
    free(c->patch);
    free(c);
}

void contact_reset(contact_state *c)
{
    if (c->anchors) memset(c->anchors, 0, (size_t)c->ground.ncorner * sizeof *c->anchors);
    memset(c->reaction, 0, sizeof c->reaction);
    memset(c->body_force, 0, 3 * (size_t)c->nb * sizeof *c->body_force);
    memset(c->slips, 0, (size_t)c->tires.m->ntire * sizeof *c->slips);
    memset(c->patch, 0, 6 * (size_t)c->tires.m->ntire * sizeof *c->patch);
}

int contact_state_copy(contact_state *c, double *buf, int at, int save)
{
    int nanchor = c->anchors ? c->ground.ncorner : 0;
    for (int i = 0; buf && i < nanchor; i++) {
        ground_anchor *A = &c->anchors[i];
        double *v = buf + at + 7 * i;
        if (save) {
            memcpy(v, A->a, sizeof A->a);
            memcpy(v + 3, A->n, sizeof A->n);
            v[6] = A->on;
        } else {
            memcpy(A->a, v, sizeof A->a);
            memcpy(A->n, v + 3, sizeof A->n);
            A->on = v[6] != 0;
        }
    }
    at += 7 * nanchor;
    int ntire = c->tires.m->ntire;
    for (int i = 0; buf && i < ntire; i++) {
        double *v = buf + at + 2 * i;
        if (save) {
            v[0] = c->slips[i].kappa;
            v[1] = c->slips[i].tana;
        } else {
            c->slips[i] = (tire_slip){ v[0], v[1] };
        }
    }
    at += 2 * ntire;
    int n = 3 + 3 * c->nb;
    if (buf && save) {
        memcpy(buf + at, c->reaction, sizeof c->reaction);
        memcpy(buf + at + 3, c->body_force, 3 * (size_t)c->nb * sizeof *buf);
    } else if (buf) {
        memcpy(c->reaction, buf + at, sizeof c->reaction);
        memcpy(c->body_force, buf + at + 3, 3 * (size_t)c->nb * sizeof *buf);
    }
    return at + n;
}

void contact_forces(contact_state *c, const mech_model *m, const double *q, const double *qd, double dt, double *fext)
{
    mech_world_kinematics_joints(m, c->joints, q, qd, c->kin);
    for (int t = 0; t < c->nband; t++) track_band_forces(&c->bands[t], c->kin, dt, fext);
    stop_stage_forces(m, c->kin, fext);
    memset(c->reaction, 0, sizeof c->reaction);
    if (!c->has_ground) return;
    memset(c->body_force, 0, 3 * (size_t)c->nb * sizeof *c->body_force);
    ground_stage_forces(&c->ground, c->kin, dt, c->anchors, fext, c->reaction, c->body_force);
    tire_stage_forces(&c->tires, c->kin, dt, c->slips, fext, c->reaction, c->body_force, c->patch);
}

void contact_ground_reaction(const contact_state *c, double f[3]) { memcpy(f, c->reaction, sizeof c->reaction); }

const double *contact_ground_forces(const contact_state *c) { return c->body_force; }

const double *contact_tire_forces(const contact_state *c) { return c->patch; }

double contact_potential(contact_state *c, const mech_model *m, const double *q)
{
    mech_world_kinematics_joints(m, c->joints, q, NULL, c->kin);
    double U = 0;
    for (int t = 0; t < c->nband; t++) U += track_band_potential(&c->bands[t], c->kin);
    if (c->has_ground) U += ground_stage_potential(&c->ground, c->kin, c->anchors);
    U += tire_stage_potential(&c->tires, c->kin);
    return U;
}


double contact_axial_inertia(const mech_body *b)
{
    const double *a = b->axis, *com = b->com, *I = b->inertia;
    /* About the axle: a' I a plus the parallel-axis term m |com x a|^2. */
    double Iaxis = 0;
    for (int u = 0; u < 3; u++)
        for (int v = 0; v < 3; v++) Iaxis += a[u] * I[3 * u + v] * a[v];
    double cxa[3] = { com[1] * a[2] - com[2] * a[1], com[2] * a[0] - com[0] * a[2], com[0] * a[1] - com[1] * a[0] };
    Iaxis += b->mass * (cxa[0] * cxa[0] + cxa[1] * cxa[1] + cxa[2] * cxa[2]);
    return Iaxis;
}

void contact_brake_gains(const mech_model *m, const mech_track *t, const mech_roller *r, double *k, double *c)
{
    const double pi = 3.14159265358979323846;
    double Iaxis = contact_axial_inertia(&m->bodies[r->body]);
    double period = 2 * 2 * pi * sqrt(t->shoe_mass / t->kn);
    *k = Iaxis * pow(2 * pi / period, 2);
    *c = 2 * sqrt(*k * Iaxis);
}
