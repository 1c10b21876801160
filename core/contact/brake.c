/* brake.c — the brake of a band's roller or a tire's wheel (mech/contact.h):
 * a torsional spring-damper on the body's joint, locked at the angle where
 * it went on, with the gains of contact_brake_gains (a roller) or
 * tire_brake_gains (a wheel).  The one law `mech sim --slope` parks on and
 * the JavaScript drivers (wasm/drive.mjs) apply. */
#include <math.h>

#include "contact/contact.h"
#include "mech/contact.h"
#include "mech/sim.h"

/* The band roller on body `body`, or NULL (and *t untouched). */
static const mech_roller *find_roller(const mech_model *m, int body, const mech_track **t)
{
    for (int i = 0; i < m->ntrack; i++)
        for (int j = 0; j < m->tracks[i].nroller; j++)
            if (m->tracks[i].rollers[j].body == body) {
                *t = &m->tracks[i];
                return &m->tracks[i].rollers[j];
            }
    return NULL;
}

/* A wheel's brake: as stiff as the tire's relaxed slip spring at rest,
 * k = CSLIP R^2 / sigma_x about the axle (the wheel then turns against the
 * brake as far as the patch moves against the tire), critically damped
 * against the wheel's axial inertia. */
static int tire_brake_gains(const mech_model *m, int body, double *k, double *c)
{
    for (int i = 0; i < m->ntire; i++) {
        const mech_tire *t = &m->tires[i];
        if (t->body != body) continue;
        *k = t->cslip * t->radius * t->radius / t->relax_x;
        *c = 2 * sqrt(*k * contact_axial_inertia(&m->bodies[body]));
        return 0;
    }
    return -1;
}

int mech_model_brake_gains(const mech_model *m, int body, double *k, double *c)
{
    const mech_track *t;
    const mech_roller *r = find_roller(m, body, &t);
    if (!r) return tire_brake_gains(m, body, k, c);
    contact_brake_gains(m, t, r, k, c);
    return 0;
}

double mech_data_brake_torque(mech_data *d, int body, double level, double lock)
{
    const mech_model *m = mech_data_model(d);
    double k, c;
    if (mech_model_brake_gains(m, body, &k, &c)) return NAN;
    const mech_body *b = &m->bodies[body];
    return level * (k * (lock - mech_data_q(d)[b->qidx]) - c * mech_data_qd(d)[b->vidx]);
}
