/* model.c — model lifetime, lookups, error formatting and file loading. */
#include "model/model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mech_model_free(mech_model *m)
{
    if (!m) return;
    free(m->bodies);
    free(m->pois);
    free(m->shapes);
    free(m->statics);
    for (int i = 0; i < m->nmesh; i++) free(m->meshes[i].hull);
    free(m->meshes);
    free(m->loops);
    free(m->tsdas);
    free(m->rsdas);
    free(m->xtargets);
    for (int i = 0; i < m->nrod; i++) free(m->rods[i].points);
    free(m->rods);
    free(m->tracks);
    free(m->ground.h);
    free(m->exclude);
    free(m->tires);
    free(m->stops);
    free(m->actuators);
    free(m->tendons);
    free(m->equalities);
    for (int i = 0; i < m->nkey; i++) free(m->keys[i].q);
    free(m->keys);
    free(m);
}

void mech_error_format(const mech_error *err, char *buf, size_t cap)
{
    if (!buf || cap == 0) return;
    if (err->line > 0) snprintf(buf, cap, "%s:%d:%d: %s", err->file, err->line, err->col, err->message);
    else if (err->file[0]) snprintf(buf, cap, "%s: %s", err->file, err->message);
    else snprintf(buf, cap, "%s", err->message); /* e.g. the generator's, which names its file itself */
}

const char *mech_joint_name(mech_joint_type j)
{
    static const char *const names[] = { [MECH_JOINT_REVOLUTE] = "revolute",   [MECH_JOINT_PRISMATIC] = "prismatic",
                                         [MECH_JOINT_FLOATING] = "floating",   [MECH_JOINT_FIXED] = "fixed",
                                         [MECH_JOINT_SPHERICAL] = "spherical", [MECH_JOINT_CYLINDRICAL] = "cylindrical" };
    return names[j];
}

int mech_model_body_find(const mech_model *m, const char *name)
{
    for (int i = 0; i < m->nb; i++)
        if (strcmp(m->bodies[i].name, name) == 0) return i;
    return -1;
}

void mech_model_initial_state(const mech_model *m, double *q, double *qd)
{
    if (m->initial_key >= 0 && m->initial_key < m->nkey) {
        const mech_keyframe *k = &m->keys[m->initial_key];
        if (q) memcpy(q, k->q, (size_t)m->nq * sizeof *q);
        if (qd) memcpy(qd, k->qd, (size_t)m->nv * sizeof *qd);
        return;
    }
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        if (q) memcpy(q + b->qidx, b->q0, (size_t)b->nq * sizeof *q);
        if (qd) memcpy(qd + b->vidx, b->qd0, (size_t)b->nv * sizeof *qd);
    }
}

static const char *base_name(const char *path)
{
    const char *s = path;
    for (const char *c = path; *c; c++)
        if (*c == '/' || *c == '\\') s = c + 1;
    return s;
}

/* Whole file, at most MECH_MAX_TEXT + 1 bytes (one more shows it is too large). */
static char *read_file(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap > MECH_MAX_TEXT) break;
        size_t ncap = cap * 2 > MECH_MAX_TEXT + 1 ? MECH_MAX_TEXT + 1 : cap * 2;
        char *b = realloc(buf, ncap);
        if (!b) free(buf);
        buf = b;
        cap = ncap;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    *len = n;
    return buf;
}

static void load_error(mech_error *err, const char *file, const char *what)
{
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", file);
    snprintf(err->message, sizeof err->message, "%s", what);
}

mech_model *mech_model_load(const char *path, mech_error *err)
{
    mech_error scratch;
    if (!err) err = &scratch;
    const char *file = base_name(path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        char msg[MECH_ERROR_MAX];
        snprintf(msg, sizeof msg, "cannot open file: %s", strerror(errno));
        load_error(err, file, msg);
        return NULL;
    }
    size_t len;
    char *text = read_file(f, &len);
    fclose(f);
    if (!text) {
        load_error(err, file, "cannot read file");
        return NULL;
    }
    mech_model *m = mech_model_parse(text, len, file, err);
    free(text);
    if (m) {
        const char *dot = strrchr(file, '.');
        size_t stem = dot && dot != file ? (size_t)(dot - file) : strlen(file);
        if (stem >= sizeof m->name) stem = sizeof m->name - 1;
        memcpy(m->name, file, stem);
        m->name[stem] = '\0';
    }
    return m;
}

const char *mech_model_name(const mech_model *m) { return m->name; }

int mech_model_warning_count(const mech_model *m) { return m->nwarning; }

const mech_error *mech_model_warning(const mech_model *m, int i)
{
    return i >= 0 && i < m->nwarning ? &m->warnings[i] : NULL;
}

const char *mech_model_body_name(const mech_model *m, int i) { return i >= 0 && i < m->nb ? m->bodies[i].name : ""; }

mech_sizes mech_model_sizes(const mech_model *m)
{
    return (mech_sizes){ .nb = m->nb,
                         .nq = m->nq,
                         .nv = m->nv,
                         .nact = m->nact,
                         .nu = m->nu,
                         .nkey = m->nkey,
                         .nc = m->nc,
                         .npoi = m->npoi,
                         .nshape = m->nshape,
                         .nrod = m->nrod,
                         .observe_len = 6 * m->npoi + 2 * m->ntsda + 2 * m->nrsda,
                         .ntrack = m->ntrack,
                         .ground = m->ground.type != MECH_GROUND_NONE };
}

mech_options mech_model_options(const mech_model *m)
{
    /* A model with contact steps at a fixed fraction of its contact period;
     * one whose only contact is its stops keeps the default step. */
    double contact_dt = mech_model_has_contact(m) ? mech_model_contact_step(m) : 0;
    mech_options o = { .dt = contact_dt > 0 ? contact_dt : m->xpbd.dt,
                       .integrator = m->integrator,
                       .substeps = m->xpbd.substeps,
                       .iterations = m->xpbd.iterations };
    memcpy(o.gravity, m->gravity, sizeof o.gravity);
    return o;
}

int mech_model_has_contact(const mech_model *m)
{
    return m->ntrack > 0 || m->ground.type != MECH_GROUND_NONE || m->ntire > 0 || m->nstop > 0;
}

/* A tire's stiffest vertical rate: the steepest segment of its curve, or kz. */
static double tire_stiffness(const mech_tire *t)
{
    double k = t->ncurve ? 0 : t->kz;
    for (int i = 1; i < t->ncurve; i++) {
        double s = (t->curve[i][1] - t->curve[i - 1][1]) / (t->curve[i][0] - t->curve[i - 1][0]);
        if (s > k) k = s;
    }
    return k;
}

/* 2 pi sqrt(m / kn) / MECH_CONTACT_SAMPLES, m the mass one contact spring moves:
 * a shoe against a band's kn, the supported share M / (pads / 4) against
 * the ground's (when there are pads), a wheel against its tire's vertical
 * stiffness.  The tightest wins; 0 for a model without contact. */
double mech_model_contact_step(const mech_model *m)
{
    double dt = 0, M = 0;
    int corners = 0;
    for (int i = 0; i < m->nb; i++) M += m->bodies[i].mass;
    for (int t = 0; t < m->ntrack; t++) {
        const mech_track *tr = &m->tracks[t];
        corners += 4 * tr->nshoe;
        if (tr->kn <= 0 || tr->shoe_mass <= 0) continue;
        double s = 6.283185307179586 * sqrt(tr->shoe_mass / tr->kn) / MECH_CONTACT_SAMPLES;
        if (dt == 0 || s < dt) dt = s;
    }
    for (int i = 0; i < m->ntire; i++) {
        double k = tire_stiffness(&m->tires[i]);
        if (k <= 0) continue;
        double s = 6.283185307179586 * sqrt(m->bodies[m->tires[i].body].mass / k) / MECH_CONTACT_SAMPLES;
        if (dt == 0 || s < dt) dt = s;
    }
    if (m->ground.type != MECH_GROUND_NONE && m->ground.kn > 0 && (corners || !m->ntire)) {
        double share = corners ? M / (0.25 * corners) : M;
        double s = 6.283185307179586 * sqrt(share / m->ground.kn) / MECH_CONTACT_SAMPLES;
        if (dt == 0 || s < dt) dt = s;
    }
    return dt;
}

double mech_tendon_coef2(const mech_tendon *t, const mech_model *m, int j)
{
    double c = 0.0;
    for (int k = 0; k < t->njoint; k++)
        if (m->bodies[t->body[k]].vidx == j) c += t->coef[k] * t->coef[k];
    return c;
}

double mech_model_joint_damping(const mech_model *m, int j)
{
    double c = 0.0;
    for (int i = 0; i < m->nrsda; i++)
        if (m->bodies[m->rsdas[i].body].vidx == j) c += m->rsdas[i].c;
    for (int i = 0; i < m->nu; i++) {
        const mech_actuator *a = &m->actuators[i];
        if (a->tendon >= 0) c -= a->gear * a->gear * a->bias[2] * mech_tendon_coef2(&m->tendons[a->tendon], m, j);
        else if (m->bodies[a->body].vidx == j) c -= a->gear * a->gear * a->bias[2];
    }
    for (int i = 0; i < m->ntendon; i++) c += m->tendons[i].damping * mech_tendon_coef2(&m->tendons[i], m, j);
    return c;
}
