/* test_parser.c — the .mech parser: every model parses, values round-trip,
 * every tests/bad file fails with exactly its expected message, and no input
 * makes the parser read past `len`.
 *
 * usage: test_parser <models dir> <bad dir>
 */
#define _POSIX_C_SOURCE 200809L
#include "model/model.h"
#include "model/inertia.h"
#include "spatial/spatial.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)

static int check(int ok, const char *what, const char *file, int line)
{
    if (!ok) {
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
        failures++;
    }
    return ok;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (1.0 + fabs(b)); }

/* Whole file into an exact-size buffer (no terminator); NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    *len = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    return buf;
}

/* Parse `s` from an exact-size heap copy, so ASan catches any over-read. */
static mech_model *parse_exact(const char *s, size_t len, mech_error *err)
{
    char *buf = malloc(len ? len : 1);
    memcpy(buf, s, len);
    mech_model *m = mech_model_parse(buf, len, "t.mech", err);
    free(buf);
    return m;
}

static mech_model *parse_str(const char *s, mech_error *err) { return parse_exact(s, strlen(s), err); }

/* The formatted error of `s`, which must fail. */
static const char *error_of(const char *s)
{
    static char msg[512];
    mech_error err;
    mech_model *m = parse_str(s, &err);
    if (m) {
        mech_model_free(m);
        return "(parsed)";
    }
    mech_error_format(&err, msg, sizeof msg);
    return msg;
}

static int expect_error(const char *s, const char *want, int line)
{
    const char *got = error_of(s);
    if (strcmp(got, want) == 0) return 1;
    fprintf(stderr, "%s:%d: want '%s'\n  got '%s'\n", __FILE__, line, want, got);
    failures++;
    return 0;
}

/* ---- models ---- */

/* models/<sub><name>.mech, or NULL with its error reported and counted. */
static mech_model *load_shipped(const char *dir, const char *sub, const char *name)
{
    char path[1024], msg[512];
    snprintf(path, sizeof path, "%s/%s%s.mech", dir, sub, name);
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    if (!m) {
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "model %s: %s\n", name, msg);
        failures++;
    }
    return m;
}

static void test_models(const char *dir)
{
    static const struct {
        const char *name;
        int nb, nq, nv;
    } want[] = {
        { "threelink", 3, 3, 3 }, { "fourlink", 4, 4, 4 },  { "elbow", 6, 6, 6 },   { "stanford", 6, 6, 6 },
        { "gantry", 3, 3, 3 },    { "pendulums", 4, 4, 4 }, { "bintree", 7, 7, 7 }, { "satellite", 4, 10, 9 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        mech_model *m = load_shipped(dir, "", want[i].name);
        if (!m) continue;
        CHECK(strcmp(m->name, want[i].name) == 0);
        CHECK(m->nb == want[i].nb && m->nq == want[i].nq && m->nv == want[i].nv);
        CHECK(m->description[0] != '\0');
        CHECK(m->gravity[0] == 0.0 && m->gravity[1] == 0.0 && m->gravity[2] == -9.81);
        for (int b = 0; b < m->nb; b++) CHECK(m->bodies[b].parent < b);
        for (int b = 0; b < m->nb; b++) {
            int shapes = 0;
            for (int s = 0; s < m->nshape; s++) shapes += m->shapes[s].body == b;
            CHECK(shapes > 0);
        }
        printf("model %-10s nb=%d nq=%d nv=%d shapes=%d\n", m->name, m->nb, m->nq, m->nv, m->nshape);
        mech_model_free(m);
    }
}

/* models/loops: sizes as in each model's header (the dynamics README's where it gives them). */
static void test_loop_models(const char *dir)
{
    static const struct {
        const char *name;
        int nb, nq, nv, nc, nloop, ntsda, nrsda, nact;
    } want[] = {
        { "fourbar", 3, 3, 3, 2, 1, 0, 0, 0 },        { "rrrs", 4, 4, 4, 3, 1, 0, 0, 0 },
        { "slidercrank", 2, 2, 2, 1, 1, 1, 0, 0 },    { "springpend", 2, 2, 2, 0, 0, 1, 1, 2 },
        { "quartercar", 5, 11, 10, 8, 4, 2, 1, 1 },   { "halfcar", 10, 22, 20, 16, 8, 4, 2, 2 },
        { "hmmwv", 18, 48, 43, 28, 12, 8, 1, 1 },     { "hmmwv_pitman", 19, 49, 44, 29, 13, 8, 1, 1 },
        { "hmmwv_rig", 18, 48, 43, 32, 16, 8, 5, 5 }, { "hmmwv_pitman_rig", 19, 49, 44, 33, 17, 8, 5, 5 },
        { "looptypes", 4, 22, 19, 14, 3, 1, 1, 2 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        mech_model *m = load_shipped(dir, "loops/", want[i].name);
        if (!m) continue;
        CHECK(m->nb == want[i].nb && m->nq == want[i].nq && m->nv == want[i].nv && m->nc == want[i].nc);
        CHECK(m->nloop == want[i].nloop && m->ntsda == want[i].ntsda && m->nrsda == want[i].nrsda &&
              m->nact == want[i].nact);
        int rows = 0;
        for (int l = 0; l < m->nloop; l++) {
            CHECK(m->loops[l].cidx == rows && m->loops[l].pred != m->loops[l].succ);
            rows += m->loops[l].nc;
        }
        CHECK(rows == m->nc);
        for (int b = 0; b < m->nb; b++) {
            int shapes = 0;
            for (int s = 0; s < m->nshape; s++) shapes += m->shapes[s].body == b;
            CHECK(shapes > 0);
        }
        printf("model loops/%-12s nb=%d nq=%d nv=%d nc=%d nact=%d\n", m->name, m->nb, m->nq, m->nv, m->nc, m->nact);
        mech_model_free(m);
    }
}

/* Loop and element values land where docs/mech-format.md says. */
static void test_loop_values(void)
{
    const char *text = "body a\n parent base\n joint revolute y\n mass 1\n inertia 1 1 1\nend\n"
                       "body b\n parent a\n joint prismatic x\n mass 1\n inertia 1 1 1\nend\n"
                       "poi pa a 1 0 0\npoi pw base 0 0 2\n"
                       "loop l1\n type distance\n pred b\n succ base\n ppos 1 2 3\n spos 4 5 6\n length 2.5\nend\n"
                       "loop l2\n type revolute\n pred base\n succ a\n paxis x\n srot z 90\n stab 0.05\nend\n"
                       "rsda r\n joint a\n k 2\n c 0.5\n q0 90\n input\nend\n"
                       "tsda t\n from pw\n to pa\n k 3\n c 0\n l0 1\nend\n"
                       "rsda s\n joint b\n k 1\n c 0\n q0 0.25\n input\nend\n";
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    CHECK(m->nloop == 2 && m->nc == 6 && m->ntsda == 1 && m->nrsda == 2 && m->nact == 2);
    const mech_loop *l = &m->loops[0];
    CHECK(l->type == MECH_LOOP_DISTANCE && l->pred == 1 && l->succ == -1 && l->nc == 1 && l->cidx == 0);
    CHECK(near(l->ppos[2], 3) && near(l->spos[0], 4) && near(l->length, 2.5) && near(l->stab, 0.1));
    l = &m->loops[1];
    CHECK(l->type == MECH_LOOP_REVOLUTE && l->pred == -1 && l->succ == 0 && l->nc == 5 && l->cidx == 1);
    CHECK(near(l->prot[2], 1) && near(l->prot[5], 0) && near(l->prot[8], 0));  /* z column = x */
    CHECK(near(l->srot[3], 1) && near(l->srot[1], -1) && near(l->stab, 0.05)); /* rot z 90 */
    CHECK(m->rsdas[0].act == 0 && m->tsdas[0].act == -1 && m->rsdas[1].act == 1);
    CHECK(near(m->rsdas[0].q0, 3.14159265358979323846 / 2) && near(m->rsdas[1].q0, 0.25));
    CHECK(m->tsdas[0].poi_a == 1 && m->tsdas[0].poi_b == 0 && near(m->tsdas[0].k, 3) && near(m->tsdas[0].l0, 1));
    mech_model_free(m);
}

/* Every prefix of every model, from exact-size buffers: never crash or over-read. */
static void test_prefixes(const char *dir)
{
    DIR *d = opendir(dir);
    if (!CHECK(d != NULL)) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name), len;
        if (n < 6 || strcmp(e->d_name + n - 5, ".mech") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = slurp(path, &len);
        if (!CHECK(text != NULL)) continue;
        for (size_t k = 0; k <= len; k++) {
            mech_error err;
            mech_model_free(parse_exact(text, k, &err));
        }
        free(text);
    }
    closedir(d);
}

/* ---- bad files ---- */

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void first_line(char *s) { s[strcspn(s, "\r\n")] = '\0'; }

static int run_bad(const char *dir, const char *file)
{
    char path[1024], want[512] = "", got[512];
    size_t n = strlen(file) - 5;
    snprintf(path, sizeof path, "%s/%.*s.expected", dir, (int)n, file);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(want, sizeof want, f)) want[0] = '\0';
        fclose(f);
    }
    first_line(want);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    if (m) {
        mech_model_free(m);
        snprintf(got, sizeof got, "(parsed without error)");
    } else {
        mech_error_format(&err, got, sizeof got);
    }
    int ok = want[0] != '\0' && strcmp(want, got) == 0;
    printf("%s %s\n", ok ? "ok  " : "FAIL", file);
    if (!ok) printf("    want: %s\n    got:  %s\n", want[0] ? want : "(no .expected file)", got);
    return ok;
}

static void test_bad(const char *dir)
{
    DIR *d = opendir(dir);
    if (!CHECK(d != NULL)) return;
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".mech") != 0) continue;
        names = realloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n > 0) qsort(names, (size_t)n, sizeof *names, by_name);
    int passed = 0;
    for (int i = 0; i < n; i++) {
        passed += run_bad(dir, names[i]);
        free(names[i]);
    }
    free(names);
    printf("bad files: %d/%d as expected\n", passed, n);
    CHECK(n >= 45);
    failures += n - passed;
}

/* ---- values ---- */

static const char *body_text(const char *name, const char *parent, const char *extra)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "body %s\n parent %s\n joint revolute z\n mass 1\n inertia 1 1 1\n%send\n", name, parent,
             extra);
    return buf;
}

static void test_forward_reference(void)
{
    char text[2048] = "";
    strcat(text, body_text("c", "b", ""));
    strcat(text, body_text("a", "base", ""));
    strcat(text, body_text("b", "a", ""));
    strcat(text, body_text("d", "base", ""));
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    /* earliest body whose parent is placed: a, b, c, d */
    CHECK(m->nb == 4);
    CHECK(strcmp(m->bodies[0].name, "a") == 0 && m->bodies[0].parent == -1);
    CHECK(strcmp(m->bodies[1].name, "b") == 0 && m->bodies[1].parent == 0);
    CHECK(strcmp(m->bodies[2].name, "c") == 0 && m->bodies[2].parent == 1);
    CHECK(strcmp(m->bodies[3].name, "d") == 0 && m->bodies[3].parent == -1);
    CHECK(mech_model_body_find(m, "c") == 2 && mech_model_body_find(m, "zz") == -1);
    CHECK(m->bodies[2].qidx == 2 && m->bodies[2].vidx == 2);
    mech_model_free(m);
}

static void test_values(void)
{
    const char *text = "description  a test model   # trailing comment\n"
                       "gravity 0 -9.81 0\n"
                       "poi tip arm 1 0 0\n"
                       "body arm\n"
                       "  parent base\n"
                       "  joint revolute 0 0 2   # normalised\n"
                       "  pos 1 2 3\n"
                       "  rot z 90\n"
                       "  mass 2.5#comment right after a value\n"
                       "  com 0.1 0 0\n"
                       "  inertia 1 2 2.5 0.1 0.2 0.3\n"
                       "  fext 1\n"
                       "  q0 90\n"
                       "  qd0 -1.5\n"
                       "  shape box 1 2 3 pos 0 0 1 rot x 90 color #ff8000\n"
                       "  shape sphere 0.5\n"
                       "end\n"
                       "body slider\n  qd0 0.25\n  q0 0.5\n  parent arm\n  joint prismatic -y\n"
                       "  mass 1\n  inertia 1 1 1\nend\n";
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    const mech_body *b = &m->bodies[0];
    CHECK(strcmp(m->description, "a test model") == 0);
    CHECK(m->gravity[1] == -9.81 && m->gravity[2] == 0.0);
    CHECK(b->axis[0] == 0.0 && b->axis[1] == 0.0 && b->axis[2] == 1.0);
    CHECK(b->pos[0] == 1.0 && b->pos[1] == 2.0 && b->pos[2] == 3.0);
    /* rot z 90: body x axis = parent y, i.e. column 0 of R is (0, 1, 0) */
    CHECK(near(b->rot[0], 0) && near(b->rot[3], 1) && near(b->rot[6], 0));
    CHECK(near(b->rot[1], -1) && near(b->rot[4], 0) && near(b->rot[8], 1));
    CHECK(b->mass == 2.5 && b->com[0] == 0.1 && b->fext == 1);
    const double I[9] = { 1, 0.1, 0.2, 0.1, 2, 0.3, 0.2, 0.3, 2.5 };
    for (int i = 0; i < 9; i++) CHECK(b->inertia[i] == I[i]);
    CHECK(near(b->q0[0], 3.14159265358979323846 / 2) && b->qd0[0] == -1.5);
    const mech_body *s = &m->bodies[1];
    CHECK(s->joint == MECH_JOINT_PRISMATIC && s->axis[1] == -1.0);
    CHECK(s->q0[0] == 0.5 && s->qd0[0] == 0.25 && s->parent == 0);
    CHECK(m->nshape == 2 && m->shapes[0].body == 0 && m->shapes[0].type == MECH_SHAPE_BOX);
    CHECK(m->shapes[0].size[2] == 3.0 && m->shapes[0].pos[2] == 1.0 && near(m->shapes[0].rot[7], 1));
    CHECK(m->shapes[0].rgba[0] == 1.0f && fabs(m->shapes[0].rgba[1] - 128.0 / 255) < 1e-6 && m->shapes[0].rgba[3] == 1.0f);
    CHECK(m->shapes[1].rgba[3] == 0.0f && m->shapes[1].size[0] == 0.5);
    CHECK(m->npoi == 1 && m->pois[0].body == 0 && m->pois[0].pos[0] == 1.0);
    double q[2], qd[2];
    mech_model_initial_state(m, q, qd);
    CHECK(q[1] == 0.5 && qd[0] == -1.5 && qd[1] == 0.25);
    mech_model_free(m);
}

/* Colliders: shape materials, visual shapes, static plane and box. */
static void test_colliders(void)
{
    const char *text = "body ball\n  parent base\n  joint floating\n  mass 1\n  inertia 1 1 1\n"
                       "  shape sphere 0.1 friction 0.8 0.6 restitution 0.7\n"
                       "  shape box 1 1 1 visual\n"
                       "end\n"
                       "static plane rot y 10 friction 0.3 0.2\n"
                       "static box 1 2 3 pos 0 0 5 color #ffffff restitution 1\n";
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    const mech_shape *s = m->shapes;
    CHECK(m->nshape == 2 && s[0].mu_s == 0.8 && s[0].mu_d == 0.6 && s[0].restitution == 0.7 && !s[0].visual);
    CHECK(s[1].visual && s[1].mu_s == MECH_DEFAULT_MU_STATIC && s[1].mu_d == MECH_DEFAULT_MU_DYNAMIC &&
          s[1].restitution == MECH_DEFAULT_RESTITUTION);
    CHECK(m->nstatic == 2 && m->statics[0].type == MECH_SHAPE_PLANE && m->statics[0].body == -1);
    CHECK(m->statics[0].mu_s == 0.3 && m->statics[0].mu_d == 0.2 &&
          near(m->statics[0].rot[2], sin(10 * 3.14159265358979323846 / 180)));
    CHECK(m->statics[1].type == MECH_SHAPE_BOX && m->statics[1].pos[2] == 5.0 && m->statics[1].restitution == 1.0 &&
          m->statics[1].size[1] == 2.0);
    mech_model_free(m);
}

static void test_floating(void)
{
    const char *text = "body bus\n parent base\n joint floating\n mass 10\n inertia 1 1 1\n"
                       " q0 1 2 3 z 90\n qd0 1 2 3 4 5 6\nend\n"
                       "body free\n parent base\n joint floating\n mass 1\n inertia 1 1 1\nend\n";
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    const double *q = m->bodies[0].q0;
    CHECK(near(q[0], sqrt(0.5)) && near(q[3], sqrt(0.5)) && q[1] == 0.0 && q[4] == 1.0 && q[6] == 3.0);
    CHECK(m->bodies[0].qd0[5] == 6.0);
    CHECK(m->bodies[1].q0[0] == 1.0 && m->bodies[1].qidx == 7 && m->bodies[1].vidx == 6);
    CHECK(m->nq == 14 && m->nv == 12);
    mech_model_free(m);
}

/* The XPBD keys, the xpbd block and a servo, stored in SI; defaults without them. */
static void test_xpbd_values(void)
{
    mech_error err;
    const double d = 3.14159265358979323846 / 180.0;
    mech_model *m = parse_str("xpbd\n dt 0.005\n substeps 20\n iterations 2\n mode scalar\nend\n"
                              "body a\n limit -30 60\n drive 50 0.5\n target sin 10 2 90 5\n parent base\n"
                              " joint revolute y\n mass 1\n inertia 1 1 1\nend\n"
                              "body b\n parent a\n joint prismatic z\n mass 1\n inertia 1 1 1\n compliance 1e-6\nend\n"
                              "loop s\n type spherical\n pred b\n succ base\n swing 30\n limit -10 10\n drive 0\n"
                              " target 1 2 3\nend\n"
                              "servo t\n succ b\n z 0.5\n rx sin 1 0.5 0 0\n compliance 1e-3\nend\n",
                              &err);
    CHECK(m != NULL);
    if (!m) return;
    CHECK(m->xpbd.line == 1 && m->xpbd.dt == 0.005 && m->xpbd.substeps == 20 && m->xpbd.iterations == 2 &&
          m->xpbd.mode == MECH_XPBD_SCALAR);
    const mech_xjoint *a = &m->bodies[0].xj, *b = &m->bodies[1].xj, *s = &m->loops[0].xj;
    CHECK(a->has_limit && fabs(a->lower + 30 * d) < 1e-15 && fabs(a->upper - 60 * d) < 1e-15);
    CHECK(a->drive && a->stiffness == 50 && a->damping == 0.5 && a->line == 8);
    CHECK(a->target[0].type == MECH_SIGNAL_SIN && fabs(a->target[0].a[0] - 10 * d) < 1e-15 && a->target[0].a[1] == 2 &&
          fabs(a->target[0].a[2] - 90 * d) < 1e-15 && fabs(a->target[0].a[3] - 5 * d) < 1e-15);
    CHECK(b->has_compliance && b->compliance == 1e-6 && !b->has_limit && !b->drive);
    CHECK(s->has_swing && fabs(s->swing - 30 * d) < 1e-15 && s->has_limit && fabs(s->upper - 10 * d) < 1e-15);
    CHECK(s->drive && s->stiffness == 0 && s->target[2].type == MECH_SIGNAL_CONST &&
          fabs(s->target[2].a[3] - 3 * d) < 1e-15);
    CHECK(m->nxtarget == 1 && m->xtargets[0].pred == -1 && m->xtargets[0].succ == 1);
    CHECK(m->xtargets[0].value[3].type == MECH_SIGNAL_SIN);
    CHECK(m->xtargets[0].rows == (1u << 2 | 1u << 3) && m->xtargets[0].value[2].a[3] == 0.5 &&
          fabs(m->xtargets[0].value[3].a[0] - d) < 1e-15 && m->xtargets[0].compliance == 1e-3);
    mech_model_free(m);

    m = parse_str(
        "body a\n parent base\n joint revolute x\n mass 1\n inertia 1 1 1\n drive 0\n target ramp 36000 -90\nend\n",
        &err);
    CHECK(m && m->bodies[0].xj.target[0].type == MECH_SIGNAL_RAMP &&
          fabs(m->bodies[0].xj.target[0].a[0] - 36000 * d) < 1e-12 &&
          fabs(m->bodies[0].xj.target[0].a[3] + 90 * d) < 1e-15);
    mech_model_free(m);

    m = parse_str("body a\n parent base\n joint fixed\n mass 1\n inertia 1 1 1\nend\n", &err);
    CHECK(m && m->xpbd.line == 0 && m->xpbd.dt == 0.01 && m->xpbd.substeps == 10 && m->xpbd.iterations == 1 &&
          m->xpbd.mode == MECH_XPBD_BLOCK && m->nxtarget == 0 && !m->bodies[0].xj.line);
    mech_model_free(m);
}

static void test_crlf_and_blank(void)
{
    const char *text = "# header\r\n\r\n\tgravity 0 0 -1\r\nbody a\r\n parent base\r\n joint fixed\r\n"
                       " mass 1 \r\n inertia 1 1 1\r\nend\r\n   \r\n";
    mech_error err;
    mech_model *m = parse_str(text, &err);
    if (!CHECK(m != NULL)) return;
    CHECK(m->gravity[2] == -1.0 && m->nb == 1 && m->nq == 0 && m->nv == 0);
    mech_model_free(m);
}

/* The text of `lf` with each '\n' made `eol`, after `prefix`; caller frees. */
static char *with_endings(const char *lf, size_t len, const char *prefix, const char *eol, size_t *out_len)
{
    size_t np = strlen(prefix), ne = strlen(eol), k = np;
    char *out = malloc(np + 2 * len + 1);
    memcpy(out, prefix, np);
    for (size_t i = 0; i < len; i++) {
        if (lf[i] != '\n') out[k++] = lf[i];
        else
            for (size_t j = 0; j < ne; j++) out[k++] = eol[j];
    }
    *out_len = k;
    return out;
}

/* Two parses of one model agree: sizes, names, values and source lines. */
static int same_model(const mech_model *a, const mech_model *b)
{
    if (a->nb != b->nb || a->nq != b->nq || a->nv != b->nv || a->nc != b->nc || a->nloop != b->nloop ||
        a->nshape != b->nshape || a->npoi != b->npoi || a->ntsda != b->ntsda || a->nrsda != b->nrsda ||
        strcmp(a->description, b->description) != 0 || memcmp(a->gravity, b->gravity, sizeof a->gravity) != 0)
        return 0;
    for (int i = 0; i < a->nb; i++) {
        const mech_body *x = &a->bodies[i], *y = &b->bodies[i];
        if (strcmp(x->name, y->name) != 0 || x->line != y->line || x->mass != y->mass || x->parent != y->parent ||
            memcmp(x->pos, y->pos, sizeof x->pos) != 0 || memcmp(x->rot, y->rot, sizeof x->rot) != 0 ||
            memcmp(x->inertia, y->inertia, sizeof x->inertia) != 0 || memcmp(x->q0, y->q0, sizeof x->q0) != 0)
            return 0;
    }
    for (int i = 0; i < a->nloop; i++) {
        const mech_loop *x = &a->loops[i], *y = &b->loops[i];
        if (strcmp(x->name, y->name) != 0 || x->line != y->line || x->type != y->type ||
            memcmp(x->ppos, y->ppos, sizeof x->ppos) != 0 || memcmp(x->srot, y->srot, sizeof x->srot) != 0)
            return 0;
    }
    for (int i = 0; i < a->nshape; i++)
        if (a->shapes[i].line != b->shapes[i].line ||
            memcmp(a->shapes[i].rgba, b->shapes[i].rgba, sizeof a->shapes[i].rgba) != 0)
            return 0;
    for (int i = 0; i < a->ntsda; i++)
        if (a->tsdas[i].line != b->tsdas[i].line || a->tsdas[i].k != b->tsdas[i].k) return 0;
    return 1;
}

/* LF, CRLF, CR-only (old Mac OS) and BOM + CRLF texts of a shipped model parse
 * to the same model, and errors keep editor line and column numbers. */
static void test_line_endings(const char *dir)
{
    static const struct {
        const char *prefix, *eol;
    } forms[] = {
        { "", "\r\n" }, { "", "\r" }, { "\xEF\xBB\xBF", "\r\n" }, { "\xEF\xBB\xBF", "\r" }, { "\xEF\xBB\xBF", "\n" },
    };
    char path[1024];
    snprintf(path, sizeof path, "%s/loops/looptypes.mech", dir);
    size_t len;
    char *lf = slurp(path, &len);
    if (!CHECK(lf != NULL)) return;
    mech_error err;
    mech_model *ref = parse_exact(lf, len, &err);
    if (CHECK(ref != NULL))
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            size_t n;
            char *text = with_endings(lf, len, forms[f].prefix, forms[f].eol, &n);
            mech_model *m = parse_exact(text, n, &err);
            if (!CHECK(m != NULL)) {
                char msg[512];
                mech_error_format(&err, msg, sizeof msg);
                fprintf(stderr, "  line-ending form %zu: %s\n", f, msg);
            } else {
                CHECK(same_model(ref, m));
            }
            mech_model_free(m);
            free(text);
        }
    mech_model_free(ref);
    free(lf);
    const char *bad = "body a\n parent base\n mass -1\n joint fixed\n inertia 1 1 1\nend\n";
    const char *want = "t.mech:3:7: 'mass' must be positive: got -1";
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        size_t n;
        char *text = with_endings(bad, strlen(bad), forms[f].prefix, forms[f].eol, &n);
        text[n] = '\0';
        expect_error(text, want, __LINE__);
        free(text);
    }
    expect_error(
        "\xEF\xBB\xBF"
        "foo\n",
        "t.mech:1:1: unknown keyword 'foo': expected one of: description gravity "
        "integrator body poi loop tsda rsda xpbd servo rod track ground tire stop static mesh contact exclude actuator keyframe initial tendon equality",
        __LINE__);
    expect_error(
        "\r\r\rfoo",
        "t.mech:4:1: unknown keyword 'foo': expected one of: description gravity "
        "integrator body poi loop tsda rsda xpbd servo rod track ground tire stop static mesh contact exclude actuator keyframe initial tendon equality",
        __LINE__);
    expect_error(
        "\r\n\n\r\rfoo",
        "t.mech:5:1: unknown keyword 'foo': expected one of: description gravity "
        "integrator body poi loop tsda rsda xpbd servo rod track ground tire stop static mesh contact exclude actuator keyframe initial tendon equality",
        __LINE__);
}

static void test_errors_inline(void)
{
    /* a thin plate's exact triangle equality passes */
    mech_error err;
    mech_model *m = parse_str("body p\n parent base\n joint fixed\n mass 1\n inertia 1 1 2\nend\n", &err);
    CHECK(m != NULL);
    mech_model_free(m);
    expect_error("", "(parsed)", __LINE__);
    expect_error(
        "body a\n parent base\n joint fixed\n mass 1\n inertia 1 1 1\nend\nfoo",
        "t.mech:7:1: unknown keyword 'foo': expected one of: description gravity integrator body poi loop tsda rsda "
        "xpbd servo rod track ground tire stop static mesh contact exclude actuator keyframe initial tendon equality",
        __LINE__);
    expect_error("gravity 0 0 1e999\n", "t.mech:1:13: non-finite number '1e999' for 'gravity'", __LINE__);
    expect_error("gravity 0 0 0x10\n", "t.mech:1:13: bad number '0x10' for 'gravity': expected a decimal number",
                 __LINE__);
}

/* Jacobi recovers the principal moments of a rotated diagonal tensor. */
static void test_eigenvalues(void)
{
    double axis[3] = { 1 / sqrt(14.0), 2 / sqrt(14.0), 3 / sqrt(14.0) }, R[9], Rt[9], DRt[9], A[9], ev[3];
    const double D[9] = { 3, 0, 0, 0, 4, 0, 0, 0, 2 };
    rot_axis_angle(axis, 0.7, R);
    m3_transpose(R, Rt);
    m3_mul(D, Rt, DRt);
    m3_mul(R, DRt, A);
    sym3_eigenvalues(A, ev);
    CHECK(fabs(ev[0] - 2) < 1e-12 && fabs(ev[1] - 3) < 1e-12 && fabs(ev[2] - 4) < 1e-12);
    CHECK(inertia_check(A, ev) == INERTIA_OK);
    const double rod[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 0 }, flat[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 2 };
    CHECK(inertia_check(rod, ev) == INERTIA_NOT_PD);
    CHECK(inertia_check(flat, ev) == INERTIA_OK);
}

static void test_load_errors(void)
{
    mech_error err;
    char msg[512], small[8];
    CHECK(mech_model_load("/nonexistent/dir/missing.mech", &err) == NULL);
    mech_error_format(&err, msg, sizeof msg);
    CHECK(strcmp(msg, "missing.mech: cannot open file: No such file or directory") == 0);
    mech_error_format(&err, small, sizeof small);
    CHECK(strcmp(small, "missing") == 0);
}

/* Generated texts past each resource cap. */
static void test_caps(void)
{
    size_t big = (size_t)MECH_MAX_TEXT + 1;
    char *text = malloc(big);
    memset(text, ' ', big);
    mech_error err;
    CHECK(mech_model_parse(text, big, "big.mech", &err) == NULL);
    char msg[512];
    mech_error_format(&err, msg, sizeof msg);
    CHECK(strcmp(msg, "big.mech: text too large: 4194305 bytes, at most 4194304") == 0);

    size_t len = 0;
    for (int i = 0; i <= MECH_MAX_BODIES; i++)
        len += (size_t)snprintf(text + len, big - len,
                                "body b%d\n parent base\n joint fixed\n mass 1\n"
                                " inertia 1 1 1\nend\n",
                                i);
    CHECK(mech_model_parse(text, len, "t.mech", &err) == NULL);
    mech_error_format(&err, msg, sizeof msg);
    CHECK(strcmp(msg, "t.mech:6145:1: too many bodies: at most 1024") == 0);

    len = (size_t)snprintf(text, big, "body a\n parent base\n joint fixed\n mass 1\n inertia 1 1 1\n");
    for (int i = 0; i <= MECH_MAX_SHAPES; i++) len += (size_t)snprintf(text + len, big - len, " shape sphere 1\n");
    CHECK(mech_model_parse(text, len, "t.mech", &err) == NULL);
    mech_error_format(&err, msg, sizeof msg);
    CHECK(strcmp(msg, "t.mech:4102:2: too many shapes: at most 4096") == 0);

    len = 0;
    for (int i = 0; i <= MECH_MAX_POIS; i++) len += (size_t)snprintf(text + len, big - len, "poi p%d base 0 0 0\n", i);
    CHECK(mech_model_parse(text, len, "t.mech", &err) == NULL);
    mech_error_format(&err, msg, sizeof msg);
    CHECK(strcmp(msg, "t.mech:4097:1: too many pois: at most 4096") == 0);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <models dir> <bad dir>\n", argv[0]);
        return 2;
    }
    test_models(argv[1]);
    test_loop_models(argv[1]);
    test_loop_values();
    test_prefixes(argv[1]);
    char loops[1024];
    snprintf(loops, sizeof loops, "%s/loops", argv[1]);
    test_prefixes(loops);
    char xpbd[1024];
    snprintf(xpbd, sizeof xpbd, "%s/xpbd", argv[1]);
    test_prefixes(xpbd);
    test_prefixes(argv[2]);
    test_forward_reference();
    test_values();
    test_floating();
    test_colliders();
    test_xpbd_values();
    test_crlf_and_blank();
    test_line_endings(argv[1]);
    test_errors_inline();
    test_caps();
    test_load_errors();
    test_eigenvalues();
    test_bad(argv[2]);
    if (failures) printf("%d failure(s)\n", failures);
    else printf("parser: all tests passed\n");
    return failures ? 1 : 0;
}
