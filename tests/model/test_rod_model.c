/* test_rod_model.c — `rod` blocks of the .mech language, end to end: what the
 * parser stores, the xpbd_rod_desc built from it, and the scene of
 * xpbd_from_model (rods stepped inside the world) against the C API.
 *
 *   test_rod_model <models/xpbd dir>
 *
 * - models/xpbd/cantilever.mech gives exactly rod_cantilever_desc (tests/fixtures/rod_fixtures.h)
 *   (5 cubic elements, damping 1e6); 300 world steps agree with 300
 *   xpbd_rod_step of the C-API rod, and settled it reaches the §9.2 reference tip;
 * - models/xpbd/spring.mech: the prescribed end motion is applied (the top
 *   end is 0.15 m lower after the 3 s ramp), the bottom end stays;
 * - a rod clamped to a swinging body follows it (two-way, in the world);
 * - every key of a rod block lands in mech_rod;
 * - `pin` ends reach the xpbd_rod_desc as XPBD_ROD_PIN, and a rod pinned at
 *   its start swings in the world exactly like the C-API rod, its root held. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "rod_fixtures.h"
#include "spatial/so3.h"
#include "spatial/spatial.h"
#include "test_support.h"
#include "xpbd/rod.h"
#include "xpbd/xpbd_from_model.h"

static int failures;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            failures++; \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n"); \
        } \
    } while (0)

static void scene(const mech_model *mm, xpbd_mech *x, xpbd_data *d)
{
    mech_error err = { .file = "" };
    if (xpbd_from_model(mm, x, &err) || xpbd_mech_data(x, x->mode, d)) {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "xpbd_from_model: %s\n", msg);
        exit(2);
    }
}

static double dist3(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static void test_cantilever(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cantilever.mech", dir);
    mech_model *mm = test_load_model(path);
    CHECK(mm->nb == 0 && mm->nrod == 1, "cantilever: nb %d nrod %d", mm->nb, mm->nrod);

    xpbd_rod_desc fm, ref;
    xpbd_rod_desc_from_model(mm, &mm->rods[0], &fm);
    rod_cantilever_desc(&ref, XPBD_ROD_CUBIC, 5);
    ref.damping = 1e6;
    CHECK(fm.disc == ref.disc && fm.elements == ref.elements && fm.shape == ref.shape &&
              fm.full_integration == ref.full_integration && fm.solver == ref.solver,
          "cantilever: discretization");
    CHECK(fm.length == ref.length && fm.diameter == ref.diameter && fm.E == ref.E && fm.nu == ref.nu &&
              fm.rho == ref.rho && fm.damping == ref.damping,
          "cantilever: material");
    double dframe = 0;
    for (int k = 0; k < 9; k++) dframe = fmax(dframe, fabs(fm.frame[k] - ref.frame[k]));
    CHECK(dframe < 1e-15 && memcmp(fm.origin, ref.origin, sizeof ref.origin) == 0, "cantilever: placement (%g)", dframe);
    CHECK(memcmp(fm.gravity, ref.gravity, sizeof ref.gravity) == 0, "cantilever: gravity");
    CHECK(fm.end[0].hold && !fm.end[0].on_body && !fm.end[1].hold, "cantilever: ends");
    CHECK(fm.dt == 0.01 && fm.substeps == 1 && fm.iterations == 1, "cantilever: step settings");

    /* The scene of the file (rod inside an empty world) vs the C-API rod. */
    xpbd_mech x;
    xpbd_data d;
    scene(mm, &x, &d);
    xpbd_rod capi;
    char err[256];
    ref.dt = 0.01;
    if (xpbd_rod_init(&capi, &ref, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    for (int s = 0; s < 300; s++) {
        xpbd_step(&x.m, &d);
        xpbd_rod_step(&capi);
    }
    const xpbd_rod *r = &x.rods[0];
    const double *tip = r->p + 3 * (r->nnode - 1), *tip_c = capi.p + 3 * (capi.nnode - 1);
    double gap = dist3(tip, tip_c);
    printf("cantilever.mech after 3 s: tip (%.9f, %.9f, %.9f), C API (%.9f, %.9f, %.9f), |diff| %.2e m\n", tip[0],
           tip[1], tip[2], tip_c[0], tip_c[1], tip_c[2], gap);
    CHECK(gap < 1e-12, "cantilever: .mech vs C API tip after 3 s differ by %g m", gap);

    /* Statics: both settled, against the §9.2 reference (500 cubic elements). */
    xpbd_rod_settle(&x.rods[0], 0.2, 2000, 1e-14);
    xpbd_rod_settle(&capi, 0.2, 2000, 1e-14);
    const double ref_tip[2] = { 0.925498032738, -0.355301453935 };
    double e_ref = hypot(tip[0] - ref_tip[0], tip[2] - ref_tip[1]);
    gap = dist3(tip, tip_c);
    printf("cantilever.mech settled: tip (%.12f, %.12f), |diff| to C API %.2e m, to the 500-element reference %.2e m\n",
           tip[0], tip[2], gap, e_ref);
    CHECK(gap < 1e-12, "cantilever: settled tips differ by %g m", gap);
    CHECK(e_ref < 1e-6, "cantilever: settled tip %g m from the reference", e_ref);
    CHECK(fabs(tip[1]) < 1e-12, "cantilever: left its plane (y %g)", tip[1]);

    /* reset: back to the rest shape */
    xpbd_mech_reset(&x, &d);
    CHECK(fabs(x.rods[0].p[3 * (x.rods[0].nnode - 1)] - 1.0) < 1e-15 && x.rods[0].t == 0, "cantilever: reset");
    xpbd_rod_free(&capi);
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    mech_model_free(mm);
}

static void test_spring(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/spring.mech", dir);
    mech_model *mm = test_load_model(path);
    CHECK(mm->nrod == 1 && mm->rods[0].shape == MECH_ROD_HELIX, "spring: one helix rod");
    xpbd_mech x;
    xpbd_data d;
    scene(mm, &x, &d);
    xpbd_rod *r = &x.rods[0];
    int last = r->nnode - 1;
    double top0[3], bot0[3];
    memcpy(top0, r->p0 + 3 * last, sizeof top0);
    memcpy(bot0, r->p0, sizeof bot0);
    CHECK(fabs(top0[2] - 0.55) < 1e-12 && fabs(bot0[2] - 0.05) < 1e-12, "spring: rest ends at z %g, %g", bot0[2],
          top0[2]);
    int steps = (int)lround(4.0 / mm->xpbd.dt);
    double half = 0;
    for (int s = 0; s < steps; s++) {
        xpbd_step(&x.m, &d);
        if (s == steps * 3 / 8 - 1) half = r->p[3 * last + 2];
    }
    double dz = r->p[3 * last + 2] - top0[2], moved_bottom = dist3(r->p, bot0);
    int finite = 1;
    for (int k = 0; k < 3 * r->nnode; k++) finite &= isfinite(r->p[k]);
    printf("spring.mech: top end moved %.6f m at t = 1.5 s, %.6f m at t = 4 s (prescribed -0.075, -0.15); "
           "bottom end moved %.1e m\n",
           half - top0[2], dz, moved_bottom);
    CHECK(finite, "spring: non-finite state");
    CHECK(fabs(dz + 0.15) < 1e-6, "spring: top end moved %g m, not -0.15", dz);
    CHECK(fabs(half - top0[2] + 0.075) < 1e-3, "spring: top end at 1.5 s moved %g m, not -0.075", half - top0[2]);
    CHECK(moved_bottom < 1e-6, "spring: bottom end moved %g m", moved_bottom);
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    mech_model_free(mm);
}

/* A pendulum body carrying a hanging rod: the clamp holds the rod's start on
 * the body while both swing (two-way coupling inside xpbd_step). */
static void test_body_clamp(void)
{
    static const char text[] =
        "gravity 0 0 -9.81\n"
        "xpbd\n  dt 0.005\n  substeps 4\nend\n"
        "body arm\n  parent base\n  joint revolute y\n  mass 1\n  com 0.5 0 0\n  inertia 0.001 0.08 0.08\n"
        "end\n"
        "rod tail\n  disc quadratic\n  elements 4\n  length 0.5\n  diameter 0.02\n  E 1e7\n  rho 1000\n"
        "  origin 1 0 0\n  dir -z\n  clamp start arm\nend\n";
    mech_model *mm = test_parse_text(text, "inline.mech");
    CHECK(mm->rods[0].end[0].hold && mm->rods[0].end[0].body == 0, "body clamp: body index");
    xpbd_mech x;
    xpbd_data d;
    scene(mm, &x, &d);
    /* the rod's start is the arm's point (1, 0, 0) in the body frame, at rest */
    double worst = 0, start_b[3] = { 1, 0, 0 };
    for (int s = 0; s < 400; s++) {
        xpbd_step(&x.m, &d);
        const double *R = d.R, *p = d.p;
        double w[3];
        for (int k = 0; k < 3; k++)
            w[k] = p[k] + R[3 * k] * (start_b[0] - 0.5) + R[3 * k + 1] * start_b[1] + R[3 * k + 2] * start_b[2];
        double e = dist3(w, x.rods[0].p);
        if (e > worst) worst = e;
    }
    printf("rod clamped to a swinging body, 2 s: start of the rod within %.2e m of its body point\n", worst);
    CHECK(worst < 1e-6, "body clamp: rod start %g m off the body", worst);
    CHECK(fabs(d.p[2]) > 1e-3 || fabs(d.p[0] - 0.5) > 1e-3, "body clamp: the arm did not move");
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    mech_model_free(mm);
}

static void test_fields(void)
{
    static const char text[] =
        "rod a\n  disc rigid\n  elements 7\n  solver gauss-seidel\n  length 2\n  diameter 0.03\n  E 2e9\n"
        "  nu 0.25\n  rho 900\n  damping 10\n  origin 1 2 3\n  frame x 90\n  clamp start base\n"
        "  move start 0 0 0.5\n  twist start 180\n  ramp start 2\n  color #ff8000\nend\n"
        "rod b\n  disc cubic\n  integration full\n  shape points\n  point 0 0 0\n  point 1 0 0\n  point 1 1 0\n"
        "  diameter 0.01\n  E 1e6\n  rho 1000\nend\n"
        "rod c\n  disc quadratic\n  shape helix 0.1 0.02 1\n  diameter 0.01\n  E 1e6\n  rho 1000\n  dir y\nend\n";
    mech_model *mm = test_parse_text(text, "inline.mech");
    CHECK(mm->nrod == 3, "fields: %d rods", mm->nrod);
    const mech_rod *a = &mm->rods[0], *b = &mm->rods[1], *c = &mm->rods[2];
    CHECK(strcmp(a->name, "a") == 0 && a->disc == MECH_ROD_RIGID && a->elements == 7 && a->gauss_seidel &&
              a->length == 2 && a->diameter == 0.03 && a->E == 2e9 && a->nu == 0.25 && a->rho == 900 &&
              a->damping == 10 && a->line == 1,
          "fields: rod a scalars");
    CHECK(a->origin[0] == 1 && a->origin[1] == 2 && a->origin[2] == 3 && fabs(a->frame[5] + 1) < 1e-15 &&
              fabs(a->frame[7] - 1) < 1e-15,
          "fields: rod a placement");
    CHECK(a->end[0].hold && a->end[0].body == -1 && a->end[0].move[2] == 0.5 &&
              fabs(a->end[0].twist - 3.14159265358979323846) < 1e-15 && a->end[0].ramp == 2 && !a->end[1].hold,
          "fields: rod a ends");
    CHECK(a->rgba[0] == 1.0f && fabs(a->rgba[1] - 128 / 255.0f) < 1e-7 && a->rgba[2] == 0 && a->rgba[3] == 1,
          "fields: rod a colour");
    CHECK(b->disc == MECH_ROD_CUBIC && b->full_integration && b->shape == MECH_ROD_POINTS && b->npoints == 3 &&
              b->points[7] == 1 && b->nu == 0.5 && b->elements == 1 && b->rgba[3] == 0,
          "fields: rod b");
    CHECK(c->shape == MECH_ROD_HELIX && c->coil_radius == 0.1 && c->pitch == 0.02 && c->turns == 1 &&
              fabs(c->frame[5] - 1) < 1e-15,
          "fields: rod c");
    /* all three build (the helix needs enough elements: 1 quadratic element
     * over 1 turn, whose middle node is turned by pi, is refused by xpbd_rod_init, with the rod's line) */
    xpbd_mech x;
    mech_error err = { .file = "" };
    CHECK(xpbd_from_model(mm, &x, &err) == -1 && err.line == 30 &&
              strcmp(err.message, "rod 'c': an element turns "
                                  "by more than 0.9 pi; use more elements") == 0,
          "fields: helix refusal: line %d: %s", err.line, err.message);
    mech_model_free(mm);
}

_Static_assert((int)MECH_ROD_CLAMP == (int)XPBD_ROD_CLAMP && (int)MECH_ROD_PIN == (int)XPBD_ROD_PIN,
               "mech_rod_end.hold is copied into xpbd_rod_end.hold as it is");

/* `pin start base` (a pendulum) and `pin end base` with prescribed motion. */
static void test_pin(void)
{
    static const char text[] =
        "gravity 0 0 -9.81\nxpbd\n  dt 0.001\n  iterations 2\nend\n"
        "rod p\n  disc cubic\n  elements 4\n  length 1\n  diameter 0.02\n  E 1e11\n  nu 0.3\n  rho 1000\n"
        "  dir x\n  pin start base\nend\n"
        "rod q\n  length 1\n  diameter 0.01\n  E 1e6\n  rho 1000\n  origin 0 1 0\n  clamp start base\n"
        "  pin end base\n  move end 0 0 -0.1\n  ramp end 1\nend\n";
    mech_model *mm = test_parse_text(text, "pin.mech");
    const mech_rod *p = &mm->rods[0], *q = &mm->rods[1];
    CHECK(p->end[0].hold == MECH_ROD_PIN && p->end[0].body == -1 && p->end[0].line == 15 && !p->end[1].hold,
          "pin: rod p ends");
    CHECK(q->end[0].hold == MECH_ROD_CLAMP && q->end[1].hold == MECH_ROD_PIN && q->end[1].move[2] == -0.1 &&
              q->end[1].ramp == 1,
          "pin: rod q ends");
    xpbd_rod_desc dp, dq;
    xpbd_rod_desc_from_model(mm, p, &dp);
    xpbd_rod_desc_from_model(mm, q, &dq);
    CHECK(dp.end[0].hold == XPBD_ROD_PIN && !dp.end[0].on_body && dq.end[1].hold == XPBD_ROD_PIN &&
              dq.end[0].hold == XPBD_ROD_CLAMP,
          "pin: desc ends");

    xpbd_mech x;
    xpbd_data d;
    scene(mm, &x, &d);
    xpbd_rod capi;
    char err[256];
    if (xpbd_rod_init(&capi, &dp, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    for (int s = 0; s < 400; s++) {
        xpbd_step(&x.m, &d);
        xpbd_rod_step(&capi);
    }
    const xpbd_rod *r = &x.rods[0], *rq = &x.rods[1];
    double turned[3], gap = dist3(r->p + 3 * (r->nnode - 1), capi.p + 3 * (capi.nnode - 1));
    so3_minus(r->R, r->R0, turned);
    const double *qend = rq->p + 3 * (rq->nnode - 1), qwant[3] = { 0, 1, 1 - 0.1 * 0.4 }; /* ramped: 0.4 of 0.1 m */
    printf("pin.mech after 0.4 s: root at %.1e m from the origin, root frame turned %.4f rad, tip vs C API %.2e m; "
           "rod q's pinned end %.2e m from its prescribed place\n",
           dist3(r->p, r->p0), v3_norm(turned), gap, dist3(qend, qwant));
    CHECK(dist3(r->p, r->p0) < 1e-12 && v3_norm(turned) > 1, "pin: the root is held and turns");
    CHECK(gap < 1e-12, "pin: .mech vs C API tip differ by %g m", gap);
    CHECK(dist3(qend, qwant) < 1e-9, "pin: prescribed motion of a pinned end");
    xpbd_rod_free(&capi);
    xpbd_data_free(&d);
    xpbd_mech_free(&x);
    mech_model_free(mm);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <models/xpbd dir>\n", argv[0]);
        return 2;
    }
    test_fields();
    test_cantilever(argv[1]);
    test_spring(argv[1]);
    test_body_clamp();
    test_pin();
    printf(failures ? "%d FAILURES\n" : "all passed\n", failures);
    return failures != 0;
}
