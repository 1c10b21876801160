/* stop.c — bump stops on tsdas (stop.h; docs/contact.md "Stops"), after
 * Project Chrono's HMMWV shock: a damping rate change beyond the bump and
 * rebound lengths, as its HMMWV_ShockForce. */
#include "contact/stop.h"

#include <math.h>

#include "contact/track_contact.h"

double stop_tension(const mech_stop *s, double c, double l, double ldot)
{
    if (s->bump && ldot < 0 && l <= s->bump_length) return (s->bump_rate - c) * ldot;
    if (s->rebound && ldot > 0 && l >= s->rebound_length) return (s->rebound_rate - c) * ldot;
    return 0;
}

/* A point on its body (or the base) in the base frame, and its velocity. */
static void anchor(const mech_body_kin *k, const mech_poi *poi, double x[3], double v[3])
{
    if (poi->body < 0) {
        for (int i = 0; i < 3; i++) x[i] = poi->pos[i], v[i] = 0;
        return;
    }
    const mech_body_kin *kb = &k[poi->body];
    for (int i = 0; i < 3; i++)
        x[i] = kb->p[i] + kb->R[3 * i] * poi->pos[0] + kb->R[3 * i + 1] * poi->pos[1] + kb->R[3 * i + 2] * poi->pos[2];
    mech_point_velocity(kb, x, v);
}

void stop_stage_forces(const mech_model *m, const mech_body_kin *k, double *fext)
{
    for (int i = 0; i < m->nstop; i++) {
        const mech_stop *s = &m->stops[i];
        const mech_tsda *t = &m->tsdas[s->tsda];
        const mech_poi *pa = &m->pois[t->poi_a], *pb = &m->pois[t->poi_b];
        double xa[3], va[3], xb[3], vb[3];
        anchor(k, pa, xa, va);
        anchor(k, pb, xb, vb);
        double d[3] = { xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2] };
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(l > 0)) continue;
        double u[3] = { d[0] / l, d[1] / l, d[2] / l };
        double ldot = u[0] * (vb[0] - va[0]) + u[1] * (vb[1] - va[1]) + u[2] * (vb[2] - va[2]);
        double f = stop_tension(s, t->c, l, ldot);
        if (f == 0) continue;
        double F[3] = { f * u[0], f * u[1], f * u[2] };
        if (pa->body >= 0) contact_add_wrench(fext, pa->body, xa, F, 1.0);
        if (pb->body >= 0) contact_add_wrench(fext, pb->body, xb, F, -1.0);
    }
}
