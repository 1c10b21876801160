/* model_info.c — the read-only description of a model the bindings read
 * (mech/model.h): bodies, track bands and their rollers, rods. */
#include "model/model.h"

#include <string.h>

int mech_model_body(const mech_model *m, int i, mech_body_info *out)
{
    if (i < 0 || i >= m->nb) return -1;
    const mech_body *b = &m->bodies[i];
    *out = (mech_body_info){
        .name = b->name, .parent = b->parent, .qidx = b->qidx, .vidx = b->vidx, .nq = b->nq, .nv = b->nv, .mass = b->mass
    };
    return 0;
}

int mech_model_track(const mech_model *m, int i, mech_track_info *out)
{
    if (i < 0 || i >= m->ntrack) return -1;
    const mech_track *t = &m->tracks[i];
    *out = (mech_track_info){
        .name = t->name, .root = t->root, .shoe0 = t->shoe0, .nshoe = t->nshoe, .nroller = t->nroller, .shoe_mass = t->shoe_mass
    };
    return 0;
}

int mech_model_roller(const mech_model *m, int i, int j, mech_roller_info *out)
{
    if (i < 0 || i >= m->ntrack || j < 0 || j >= m->tracks[i].nroller) return -1;
    const mech_roller *r = &m->tracks[i].rollers[j];
    *out = (mech_roller_info){ .body = r->body, .radius = r->radius, .end = r->end, .drive = r->drive };
    return 0;
}

const char *mech_model_description(const mech_model *m) { return m->description; }

int mech_model_rod(const mech_model *m, int i, mech_rod_def *out)
{
    if (i < 0 || i >= m->nrod) return -1;
    const mech_rod *r = &m->rods[i];
    *out =
        (mech_rod_def){ .name = r->name, .density = r->rho, .rgba = { r->rgba[0], r->rgba[1], r->rgba[2], r->rgba[3] } };
    return 0;
}

int mech_model_actuator(const mech_model *m, int i, mech_actuator_info *out)
{
    static const char *const kinds[] = { "motor", "position", "velocity", "general" };
    if (i < 0 || i >= m->nu) return -1;
    const mech_actuator *a = &m->actuators[i];
    *out = (mech_actuator_info){ .name = a->name,
                                 .kind = kinds[a->kind],
                                 .body = a->body,
                                 .act = a->act,
                                 .tendon = a->tendon,
                                 .gear = a->gear,
                                 .gain = a->gain,
                                 .bias = { a->bias[0], a->bias[1], a->bias[2] },
                                 .kp = a->kp,
                                 .kv = a->kv,
                                 .ctrllimited = a->ctrllimited,
                                 .forcelimited = a->forcelimited,
                                 .ctrlrange = { a->ctrlrange[0], a->ctrlrange[1] },
                                 .forcerange = { a->forcerange[0], a->forcerange[1] } };
    return 0;
}

int mech_model_keyframe(const mech_model *m, int i, mech_keyframe_info *out)
{
    if (i < 0 || i >= m->nkey) return -1;
    const mech_keyframe *k = &m->keys[i];
    *out = (mech_keyframe_info){ .name = k->name, .q = k->q, .qd = k->qd, .ctrl = k->ctrl };
    return 0;
}

int mech_model_keyframe_find(const mech_model *m, const char *name)
{
    for (int i = 0; i < m->nkey; i++)
        if (strcmp(m->keys[i].name, name) == 0) return i;
    return -1;
}
