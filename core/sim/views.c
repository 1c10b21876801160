/* views.c — what the bindings read of a run and its model that lives above
 * the model layer (mech/sim.h, mech/model.h): the run's arrays at once,
 * element names (the observation layout of rbda/elements.h) and the ground's
 * height (contact/terrain.h). */
#include "contact/terrain.h"
#include "rbda/elements.h"
#include "sim/data.h"

void mech_data_arrays_get(mech_data *d, mech_data_arrays *out)
{
    *out = (mech_data_arrays){ .nq = d->nq,
                               .nv = d->nv,
                               .nb = d->nb,
                               .nact = d->nact,
                               .q = d->q,
                               .qd = d->qd,
                               .tau = d->tau,
                               .act = d->act,
                               .fext = d->fext,
                               .qdd = d->qdd,
                               .poses = d->poses,
                               .energy = d->energy,
                               .gravity = d->gravity };
}

int mech_model_find(const mech_model *m, const char *kind, const char *name) { return mech_find(m, kind, name); }

double mech_model_ground_height(const mech_model *m, double x, double y)
{
    double h, hx, hy;
    terrain_eval(&m->ground, x, y, &h, &hx, &hy);
    return h;
}
