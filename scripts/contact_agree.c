/* contact_agree.c — the contact stage's results at fixed states, and two such
 * dumps compared (scripts/contact_agree.sh builds it against two revisions).
 *
 *   contact_agree dump OUT [--ulp] <model.mech>...
 *   contact_agree compare A B
 *
 * dump: per model, four ground variants (as loaded; anchored friction; a
 * 0.15/-0.05 slope, anchored; a bumpy grid), each over 300 states near the
 * design pose (the hull lifted by up to 1 cm, every tenth by 10 cm; rollers at
 * any angle, some past 60 rad; everything moving; every fifth at dt 0, the
 * others at dt 1e-4 so anchors move), in one contact state: the kinematics,
 * fext, the ground reaction and the potential.  --ulp moves every q by one
 * ulp first: the floor a change of evaluation order cannot go below.
 * compare: the largest difference of each quantity relative to the largest
 * entry of its vector in that state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "rbda/kinematics.h"
#include "rbda/sample.h"

#define STATES 300
enum { KIN, FEXT, REACTION, POTENTIAL, NQTY };
static const char *qty_names[NQTY] = { "kinematics", "fext", "ground reaction", "potential" };

static void put(FILE *f, int qty, const double *v, int n)
{
    fwrite(&qty, sizeof qty, 1, f);
    fwrite(&n, sizeof n, 1, f);
    fwrite(v, sizeof *v, (size_t)n, f);
}

static int is_shoe(const mech_model *m, int i)
{
    for (int t = 0; t < m->ntrack; t++)
        if (i >= m->tracks[t].shoe0 && i < m->tracks[t].shoe0 + m->tracks[t].nshoe) return 1;
    return 0;
}

static void near_design(const mech_model *m, mech_rng *r, int s, double *q, double *qd)
{
    double lift = mech_rng_uniform(r, -0.01, 0.01) + (s % 10 == 9 ? 0.1 : 0);
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        double *qi = q + b->qidx;
        memcpy(qi, b->q0, (size_t)b->nq * sizeof *qi);
        if (b->joint == MECH_JOINT_FLOATING) {
            for (int j = 0; j < 4; j++) qi[j] += mech_rng_uniform(r, -0.01, 0.01);
            for (int j = 4; j < 7; j++) qi[j] += mech_rng_uniform(r, -0.004, 0.004);
            if (i == 0) qi[6] += lift;
        } else if (b->nq == 1) {
            qi[0] +=
                is_shoe(m, i) ? mech_rng_uniform(r, -0.003, 0.003) : mech_rng_uniform(r, -4, 4) + (s % 7 == 3 ? 60 : 0);
        }
        for (int j = 0; j < b->nv; j++) qd[b->vidx + j] = mech_rng_uniform(r, -0.5, 0.5);
    }
}

static void variant(mech_model *m, int v)
{
    mech_ground *g = &m->ground;
    if (v >= 1) g->friction = MECH_FRICTION_ANCHORED;
    if (v == 2) {
        g->sx = 0.15;
        g->sy = -0.05;
    }
    if (v == 3) {
        g->friction = MECH_FRICTION_REGULARIZED;
        g->type = MECH_GROUND_GRID;
        g->nx = 21;
        g->ny = 9;
        g->x0 = -3;
        g->y0 = -1;
        g->dx = 0.3;
        g->dy = 0.25;
        g->h = malloc(sizeof(double) * (size_t)(g->nx * g->ny));
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++)
                g->h[j * g->nx + i] = 0.01 * sin(1.3 * i + 0.7 * j) + 0.004 * cos(2.1 * i * j);
    }
}

static int dump(FILE *out, const char *path, int ulp)
{
    for (int v = 0; v < 4; v++) {
        mech_error err;
        mech_model *m = mech_model_load(path, &err);
        if (!m) return 1;
        variant(m, v);
        double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
        double *fext = calloc(6 * (size_t)m->nb, sizeof *fext);
        mech_body_kin *k = calloc((size_t)m->nb, sizeof *k);
        contact_state *c = contact_new(m);
        mech_rng r;
        mech_rng_seed(&r, 7);
        for (int s = 0; s < STATES; s++) {
            near_design(m, &r, s, q, qd);
            if (ulp)
                for (int j = 0; j < m->nq; j++) q[j] = nextafter(q[j], INFINITY);
            mech_world_kinematics(m, q, qd, k);
            put(out, KIN, (const double *)k, (int)(sizeof *k / sizeof(double)) * m->nb);
            memset(fext, 0, 6 * (size_t)m->nb * sizeof *fext);
            contact_forces(c, m, q, qd, s % 5 == 4 ? 0 : 1e-4, fext);
            put(out, FEXT, fext, 6 * m->nb);
            double re[3], U = contact_potential(c, m, q);
            contact_ground_reaction(c, re);
            put(out, REACTION, re, 3);
            put(out, POTENTIAL, &U, 1);
        }
        contact_free(c);
        free(q);
        free(qd);
        free(fext);
        free(k);
        mech_model_free(m);
    }
    return 0;
}

static double *get(FILE *f, int *qty, int *n)
{
    if (fread(qty, sizeof *qty, 1, f) != 1 || fread(n, sizeof *n, 1, f) != 1) return NULL;
    double *v = malloc(sizeof *v * (size_t)(*n ? *n : 1));
    if (fread(v, sizeof *v, (size_t)*n, f) != (size_t)*n) {
        free(v);
        return NULL;
    }
    return v;
}

static int compare(FILE *a, FILE *b)
{
    double worst[NQTY] = { 0 };
    int qa, qb, na, nb;
    double *va, *vb;
    while ((va = get(a, &qa, &na)) && (vb = get(b, &qb, &nb))) {
        if (qa != qb || na != nb) {
            fprintf(stderr, "the dumps differ in shape\n");
            return 1;
        }
        double scale = 0, d = 0;
        for (int i = 0; i < na; i++) {
            scale = fmax(scale, fmax(fabs(va[i]), fabs(vb[i])));
            d = fmax(d, fabs(va[i] - vb[i]));
        }
        if (scale > 0) worst[qa] = fmax(worst[qa], d / scale);
        free(va);
        free(vb);
    }
    for (int i = 0; i < NQTY; i++) printf("  %-16s %.2e\n", qty_names[i], worst[i]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "dump") == 0) {
        FILE *out = fopen(argv[2], "wb");
        int ulp = strcmp(argv[3], "--ulp") == 0, rc = !out;
        for (int i = 3 + ulp; i < argc && !rc; i++) rc = dump(out, argv[i], ulp);
        if (out) fclose(out);
        return rc;
    }
    if (argc == 4 && strcmp(argv[1], "compare") == 0) {
        FILE *a = fopen(argv[2], "rb"), *b = fopen(argv[3], "rb");
        return a && b ? compare(a, b) : 2;
    }
    fprintf(stderr, "usage: contact_agree dump OUT [--ulp] <model.mech>... | contact_agree compare A B\n");
    return 2;
}
