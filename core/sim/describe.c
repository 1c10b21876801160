/* describe.c — the parsed model as JSON (mech_model_describe, mech/model.h),
 * for the page to draw: bodies (tree frames, joint, mass properties), points
 * of interest, shapes and the force elements that read act[] (inputs, one per
 * slot), the track bands and the ground, exactly as the one parser read them
 * (fields as in core/model/model.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "mech/contact.h"
#include "model/model.h"

typedef struct {
    char *s;
    size_t n, cap;
    int failed;
} json_buf;

__attribute__((format(printf, 2, 3))) static void put(json_buf *b, const char *fmt, ...)
{
    for (int attempt = 0; attempt < 2 && !b->failed; attempt++) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->failed = 1;
        } else if (b->s && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        } else {
            size_t cap = 2 * (b->cap + (size_t)k) + 64;
            char *s = realloc(b->s, cap);
            if (!s) b->failed = 1;
            else b->s = s, b->cap = cap;
        }
    }
}

static void put_string(json_buf *b, const char *key, const char *s)
{
    put(b, "\"%s\":\"", key);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') put(b, "\\%c", c);
        else if (c < 0x20) put(b, "\\u%04x", c);
        else put(b, "%c", c);
    }
    put(b, "\"");
}

static void put_array(json_buf *b, const char *key, const double *v, int n)
{
    put(b, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) put(b, "%s%.17g", i ? "," : "", v[i]);
    put(b, "]");
}

static void put_body(json_buf *b, const mech_body *x)
{
    put(b, "{");
    put_string(b, "name", x->name);
    put(b, ",\"parent\":%d,\"joint\":\"%s\"", x->parent, mech_joint_name(x->joint));
    put_array(b, "axis", x->axis, 3);
    put_array(b, "pos", x->pos, 3);
    put_array(b, "rot", x->rot, 9);
    put(b, ",\"mass\":%.17g", x->mass);
    put_array(b, "com", x->com, 3);
    put_array(b, "inertia", x->inertia, 9);
    put(b, ",\"fext\":%d,\"qidx\":%d,\"vidx\":%d,\"nq\":%d,\"nv\":%d}", x->fext, x->qidx, x->vidx, x->nq, x->nv);
}

static void put_shape(json_buf *b, const mech_shape *x)
{
    static const char *const types[] = { "box", "sphere", "cylinder", "capsule", "plane", "mesh" };
    const double rgba[4] = { x->rgba[0], x->rgba[1], x->rgba[2], x->rgba[3] };
    put(b, "{\"type\":\"%s\",\"body\":%d,\"visual\":%s", types[x->type], x->body, x->visual ? "true" : "false");
    if (x->type == MECH_SHAPE_MESH) put(b, ",\"mesh\":%d", x->mesh);
    put_array(b, "size", x->size, 3);
    put_array(b, "pos", x->pos, 3);
    put_array(b, "rot", x->rot, 9);
    put_array(b, "rgba", rgba, 4);
    put(b, "}");
}

/* A band: its shoes (bodies shoe0 ..), geometry and rollers, for the page
 * to draw the shoes instanced and the rollers as wheels; each roller's
 * brake gains [k, c] (contact_brake_gains: N m/rad, N m s/rad). */
static void put_track(json_buf *b, const mech_model *m, const mech_track *x)
{
    put(b, "{");
    put_string(b, "name", x->name);
    put(b,
        ",\"root\":%d,\"shoe0\":%d,\"nshoe\":%d,\"link\":%.17g,\"padZ\":%.17g,\"padLength\":%.17g,"
        "\"padWidth\":%.17g,\"thickness\":%.17g,\"rollers\":[",
        x->root, x->shoe0, x->nshoe, x->link, x->pad_z, x->pad_length, x->pad_width, x->thickness);
    for (int i = 0; i < x->nroller; i++) {
        const mech_roller *r = &x->rollers[i];
        double k, c;
        contact_brake_gains(m, x, r, &k, &c);
        put(b, "%s{\"body\":%d,\"radius\":%.17g,\"end\":%d,\"drive\":%d,\"teeth\":%d,\"brake\":[%.17g,%.17g]}",
            i ? "," : "", r->body, r->radius, r->end, r->drive, r->teeth, k, c);
    }
    put(b, "]}");
}

/* A tire: its wheel body, size, friction and the wheel brake's gains [k, c]
 * (mech_model_brake_gains: N m/rad, N m s/rad), for the wheeled driver and
 * the page. */
static void put_tire(json_buf *b, const mech_model *m, const mech_tire *x)
{
    double k = 0, c = 0;
    mech_model_brake_gains(m, x->body, &k, &c);
    put(b, "{");
    put_string(b, "name", x->name);
    put(b, ",\"body\":%d,\"radius\":%.17g,\"width\":%.17g,\"umin\":%.17g,\"umax\":%.17g,\"mu\":%.17g", x->body,
        x->radius, x->width, x->umin, x->umax, x->mu);
    put(b, ",\"rolling\":%.17g,\"brake\":[%.17g,%.17g]}", x->rolling, k, c);
}

/* The terrain: null, a plane (z0, sx, sy) or a grid of heights. */
static void put_ground(json_buf *b, const mech_ground *g)
{
    if (g->type == MECH_GROUND_NONE) {
        put(b, "null");
        return;
    }
    put(b, "{\"type\":\"%s\",\"z0\":%.17g,\"sx\":%.17g,\"sy\":%.17g,\"mu\":%.17g",
        g->type == MECH_GROUND_PLANE ? "plane" : "grid", g->z0, g->sx, g->sy, g->mu);
    if (g->type == MECH_GROUND_GRID) {
        put(b, ",\"nx\":%d,\"ny\":%d,\"x0\":%.17g,\"y0\":%.17g,\"dx\":%.17g,\"dy\":%.17g", g->nx, g->ny, g->x0, g->y0,
            g->dx, g->dy);
        put_array(b, "h", g->h, g->nx * g->ny);
    }
    put(b, "}");
}

/* What an actuator's ctrl measures: rad on a revolute joint or a tendon of
 * revolute joints only, else m. */
static const char *actuator_unit(const mech_model *m, const mech_actuator *a)
{
    if (a->tendon < 0) return m->bodies[a->body].joint == MECH_JOINT_REVOLUTE ? "rad" : "m";
    const mech_tendon *t = &m->tendons[a->tendon];
    for (int k = 0; k < t->njoint; k++)
        if (m->bodies[t->body[k]].joint != MECH_JOINT_REVOLUTE) return "m";
    return "rad";
}

/* The fixed tendons (joints: body indices) and the equality constraints. */
static void put_tendons(json_buf *b, const mech_model *m)
{
    static const char *const types[] = { "joint", "connect" };
    put(b, ",\"tendons\":[");
    for (int i = 0; i < m->ntendon; i++) {
        const mech_tendon *t = &m->tendons[i];
        put(b, "%s{", i ? "," : "");
        put_string(b, "name", t->name);
        put(b, ",\"joints\":[");
        for (int k = 0; k < t->njoint; k++) put(b, "%s%d", k ? "," : "", t->body[k]);
        put(b, "]");
        put_array(b, "coef", t->coef, t->njoint);
        put(b, ",\"stiffness\":%.17g,\"damping\":%.17g,\"springlength\":%.17g", t->stiffness, t->damping,
            t->springlength);
        if (t->limited) put_array(b, "range", t->range, 2);
        else put(b, ",\"range\":null");
        put(b, "}");
    }
    put(b, "],\"equalities\":[");
    for (int i = 0; i < m->nequality; i++) {
        const mech_equality *e = &m->equalities[i];
        put(b, "%s{", i ? "," : "");
        put_string(b, "name", e->name);
        put(b, ",\"type\":\"%s\",\"body1\":%d,\"body2\":%d", types[e->type], e->a, e->b);
        if (e->type == MECH_EQ_JOINT) put_array(b, "polycoef", e->polycoef, 5);
        else put_array(b, "anchor", e->anchor, 3);
        put_array(b, "solref", e->solref, 2);
        put_array(b, "solimp", e->solimp, 3);
        put(b, "}");
    }
    put(b, "]");
}

/* The actuators (their ctrl is act[act]), the keyframes and the integrator. */
static void put_actuators(json_buf *b, const mech_model *m)
{
    static const char *const kinds[] = { "motor", "position", "velocity", "general" };
    static const char *const integrators[] = { "verlet", "euler", "implicit" };
    put(b, ",\"actuators\":[");
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        put(b, "%s{", i ? "," : "");
        put_string(b, "name", a->name);
        put(b, ",\"joint\":%d,\"tendon\":%d,\"kind\":\"%s\",\"act\":%d,\"gear\":%.17g,\"gain\":%.17g", a->body,
            a->tendon, kinds[a->kind], a->act, a->gear, a->gain);
        put_array(b, "bias", a->bias, 3);
        put(b, ",\"kp\":%.17g,\"kv\":%.17g,\"unit\":\"%s\"", a->kp, a->kv, actuator_unit(m, a));
        if (a->ctrllimited) put_array(b, "ctrlrange", a->ctrlrange, 2);
        else put(b, ",\"ctrlrange\":null");
        if (a->forcelimited) put_array(b, "forcerange", a->forcerange, 2);
        else put(b, ",\"forcerange\":null");
        put(b, "}");
    }
    put(b, "],\"keyframes\":[");
    for (int i = 0; i < m->nkey; i++) {
        const mech_keyframe *k = &m->keys[i];
        put(b, "%s{", i ? "," : "");
        put_string(b, "name", k->name);
        put_array(b, "q", k->q, m->nq);
        put_array(b, "qd", k->qd, m->nv);
        put_array(b, "ctrl", k->ctrl, m->nu);
        put(b, "}");
    }
    put(b, "],\"initialKeyframe\":%d,\"integrator\":\"%s\"",
        m->initial_key >= 0 && m->initial_key < m->nkey ? m->initial_key : -1, integrators[m->integrator]);
}

char *mech_model_describe(const mech_model *m)
{
    json_buf b = { 0 };
    put(&b, "{");
    put_string(&b, "name", m->name);
    put(&b, ",");
    put_string(&b, "description", m->description);
    put_array(&b, "gravity", m->gravity, 3);
    put(&b, ",\"bodies\":[");
    for (int i = 0; i < m->nb; i++) {
        put(&b, i ? "," : "");
        put_body(&b, &m->bodies[i]);
    }
    put(&b, "],\"pois\":[");
    for (int i = 0; i < m->npoi; i++) {
        put(&b, "%s{", i ? "," : "");
        put_string(&b, "name", m->pois[i].name);
        put(&b, ",\"body\":%d", m->pois[i].body);
        put_array(&b, "pos", m->pois[i].pos, 3);
        put(&b, "}");
    }
    /* Force elements, in observe()'s order; joint is an rsda's body. */
    put(&b, "],\"tsdas\":[");
    for (int i = 0; i < m->ntsda; i++) {
        put(&b, "%s{", i ? "," : "");
        put_string(&b, "name", m->tsdas[i].name);
        put(&b, "}");
    }
    put(&b, "],\"rsdas\":[");
    for (int i = 0; i < m->nrsda; i++) {
        put(&b, "%s{", i ? "," : "");
        put_string(&b, "name", m->rsdas[i].name);
        put(&b, ",\"body\":%d}", m->rsdas[i].body);
    }
    put(&b, "],\"shapes\":[");
    for (int i = 0; i < m->nshape; i++) {
        put(&b, i ? "," : "");
        put_shape(&b, &m->shapes[i]);
    }
    /* XPBD's static colliders (body -1, world pose): planes and boxes. */
    put(&b, "],\"statics\":[");
    for (int i = 0; i < m->nstatic; i++) {
        put(&b, i ? "," : "");
        put_shape(&b, &m->statics[i]);
    }
    /* Mesh assets (`shape mesh` draws meshes[mesh]): the file beside the text and its placement. */
    put(&b, "],\"meshes\":[");
    for (int i = 0; i < m->nmesh; i++) {
        const mech_mesh *x = &m->meshes[i];
        put(&b, "%s{", i ? "," : "");
        put_string(&b, "name", x->name);
        put(&b, ",");
        put_string(&b, "file", x->file);
        put_array(&b, "scale", x->scale, 3);
        put_array(&b, "refpos", x->refpos, 3);
        put_array(&b, "refquat", x->refquat, 4);
        put(&b, "}");
    }
    put(&b, "],\"tracks\":[");
    for (int i = 0; i < m->ntrack; i++) {
        put(&b, i ? "," : "");
        put_track(&b, m, &m->tracks[i]);
    }
    put(&b, "],\"tires\":[");
    for (int i = 0; i < m->ntire; i++) {
        put(&b, i ? "," : "");
        put_tire(&b, m, &m->tires[i]);
    }
    put(&b, "],\"ground\":");
    put_ground(&b, &m->ground);
    /* The step a model with contact takes (mech_model_contact_step), else 0. */
    put(&b, ",\"contactDt\":%.17g", mech_model_has_contact(m) ? mech_model_contact_step(m) : 0.0);
    /* Whether the file has a `contact` line: its body colliders touch on the Featherstone engines. */
    put(&b, ",\"contact\":%s", m->solver.line ? "true" : "false");
    /* The file's step: its `xpbd` block's dt (0.01 without one), what an XPBD run of it steps at. */
    put(&b, ",\"dt\":%.17g", mech_model_options(m).dt);
    /* One entry per act[] slot of a force element, in slot order: the (first) element that reads it. */
    put(&b, ",\"inputs\":[");
    for (int a = 0; a < m->nact - m->nu; a++) {
        const mech_tsda *t = NULL;
        const mech_rsda *r = NULL;
        for (int i = 0; i < m->ntsda && !t; i++)
            if (m->tsdas[i].act == a) t = &m->tsdas[i];
        for (int i = 0; i < m->nrsda && !t && !r; i++)
            if (m->rsdas[i].act == a) r = &m->rsdas[i];
        const char *unit = r && m->bodies[r->body].joint == MECH_JOINT_REVOLUTE ? "rad" : "m";
        put(&b, "%s{", a ? "," : "");
        put_string(&b, "name", t ? t->name : r ? r->name : "");
        put(&b, ",\"act\":%d,\"element\":\"%s\",\"body\":%d,\"unit\":\"%s\",\"k\":%.17g,\"c\":%.17g}", a,
            t   ? "tsda"
            : r ? "rsda"
                : "",
            r ? r->body : -1, unit,
            t   ? t->k
            : r ? r->k
                : 0,
            t   ? t->c
            : r ? r->c
                : 0);
    }
    put(&b, "]");
    put_tendons(&b, m);
    put_actuators(&b, m);
    put(&b, "}");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
