/* test_track_parse.c — the `track` and `ground` blocks' model data: the belt
 * around the rollers against closed forms, the design pose (closure, pins on
 * the end rollers' pitch circles, the pin line tangent to the road wheels),
 * the warnings, and the ground's stored terrain.
 *
 *   test_track_parse <models/tracks directory> [more vehicle files]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/track_belt.h"
#include "rbda/dense.h"
#include "rbda/energy.h"
#include "rbda/loops.h"
#include "spatial/spatial.h"

#define PI 3.14159265358979323846

static int failures;

static void check(int ok, const char *what, double got, double want, int line)
{
    if (!ok) {
        fprintf(stderr, "%s:%d: %s: got %.17g, want %.17g\n", __FILE__, line, what, got, want);
        failures++;
    }
}
#define CHECK_NEAR(got, want, tol, what) check(fabs((got) - (want)) <= (tol), what, got, want, __LINE__)

/* A hull on the base (fixed, so the root frame is the world) carrying the
 * given rollers as revolute-y bodies with fext 1, and one band. */
static mech_model *band(int n, const double (*xzr)[3], const int *end, int shoes, const char *extra)
{
    static char text[16384];
    int len = snprintf(text, sizeof text, "body hull\n parent base\n joint fixed\n mass 100\n inertia 1 1 1\nend\n");
    for (int i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "body r%d\n parent hull\n joint revolute y\n"
                        " pos %.17g 0 %.17g\n mass 1\n inertia 1 1 1\n fext 1\nend\n",
                        i, xzr[i][0], xzr[i][1]);
    len += snprintf(text + len, sizeof text - (size_t)len,
                    "track band\n root hull\n shoes %d\n mass 1\n"
                    " inertia 1 1 1\n pad -0.05 0.1 0.3\n thickness 0.05\n kn 1e6\n mu 0.5\n%s",
                    shoes, extra);
    for (int i = 0; i < n; i++)
        len +=
            snprintf(text + len, sizeof text - (size_t)len, " roller r%d %.17g%s\n", i, xzr[i][2], end[i] ? " end" : "");
    snprintf(text + len, sizeof text - (size_t)len, "end\n");
    mech_error err;
    mech_model *m = mech_model_parse(text, strlen(text), "band.mech", &err);
    if (!m) {
        char buf[1024];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        failures++;
    }
    return m;
}

/* Two pulleys r1, r2 at distance d: L = 2 sqrt(d^2 - (r1 - r2)^2) + pi (r1 + r2)
 * + 2 (r1 - r2) asin((r1 - r2) / d) (the open belt). */
static void two_pulleys(void)
{
    const double r1 = 0.3, r2 = 0.2, d = 1.5, a = 0.4;
    const double xzr[2][3] = { { 0.0, 0.0, r1 }, { d * cos(a), d * sin(a), r2 } };
    const int end[2] = { 1, 1 };
    mech_model *m = band(2, xzr, end, 30, "");
    if (!m) return;
    double L = 2.0 * sqrt(d * d - (r1 - r2) * (r1 - r2)) + PI * (r1 + r2) + 2.0 * (r1 - r2) * asin((r1 - r2) / d);
    CHECK_NEAR(m->tracks[0].perimeter, L, 1e-12, "two-pulley belt length");
    printf("two pulleys: perimeter %.15g, closed form %.15g\n", m->tracks[0].perimeter, L);
    mech_model_free(m);
}

/* Shortest distance from c to the path: sampled, then golden-section refined. */
static double path_distance(const belt_path *bp, const double c[2])
{
    int ns = 20000;
    double best = INFINITY, bs = 0.0, p[2];
    for (int i = 0; i < ns; i++) {
        double s = bp->perimeter * i / ns;
        belt_point(bp, s, p);
        double dd = hypot(p[0] - c[0], p[1] - c[1]);
        if (dd < best) best = dd, bs = s;
    }
    double lo = bs - bp->perimeter / ns, hi = bs + bp->perimeter / ns, g = 0.5 * (sqrt(5.0) - 1.0);
    for (int i = 0; i < 100; i++) {
        double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), p1[2], p2[2];
        belt_point(bp, x1, p1);
        belt_point(bp, x2, p2);
        if (hypot(p1[0] - c[0], p1[1] - c[1]) < hypot(p2[0] - c[0], p2[1] - c[1])) hi = x2;
        else lo = x1;
    }
    belt_point(bp, 0.5 * (lo + hi), p);
    return hypot(p[0] - c[0], p[1] - c[1]);
}

/* Three equal collinear road wheels between two end pulleys of the same
 * radius: every roller is touched and L = 2 (x_idler - x_sprocket) + 2 pi R. */
static void collinear_wheels(void)
{
    const double R = 0.25;
    const double xzr[5][3] = { { -1.5, 0, R }, { -0.5, 0, R }, { 0.0, 0, R }, { 0.5, 0, R }, { 1.5, 0, R } };
    const int end[5] = { 1, 0, 0, 0, 1 };
    mech_model *m = band(5, xzr, end, 60, "");
    if (!m) return;
    CHECK_NEAR(m->tracks[0].perimeter, 2.0 * 3.0 + 2.0 * PI * R, 1e-12, "collinear wheels' belt length");
    belt_circle c[5];
    for (int i = 0; i < 5; i++) c[i] = (belt_circle){ { xzr[i][0], xzr[i][1] }, R };
    belt_path bp;
    if (belt_wrap(c, 5, &bp)) {
        fprintf(stderr, "collinear wheels: no wrap\n");
        failures++;
    } else {
        for (int i = 0; i < 5; i++) CHECK_NEAR(path_distance(&bp, c[i].c), R, 1e-9, "roller touched by the path");
    }
    mech_model_free(m);
}

/* The design pose of a loaded model: the loop closes, no pin sits inside an
 * end roller, every roller centre is on the inside (shoe-local z > 0) of the
 * shoes under it, and on a straight run under a road wheel that z is R. */
static void design_pose_band(const mech_model *m, const mech_track *t)
{
    double *q = malloc((size_t)m->nq * sizeof *q), *pose = malloc(7 * (size_t)m->nb * sizeof *pose);
    double *e = malloc((size_t)m->nc * sizeof *e);
    dense_ws *ws = dense_ws_new(m);
    mech_model_initial_state(m, q, NULL);
    mech_loop_terms(m, ws, q, NULL, e, NULL, NULL, NULL);
    double emax = 0.0;
    for (int i = 0; i < m->nc; i++) emax = fmax(emax, fabs(e[i]));
    check(emax <= 1e-12, "closure residual at q0", emax, 0.0, __LINE__);
    mech_body_poses(m, q, pose);
    double Rroot[9], *xr = pose + 7 * t->root;
    quat_to_rot(xr + 3, Rroot);
    int tangent_checked = 0;
    double worst_inside = 0.0, nearest[MECH_MAX_ROLLERS];
    for (int k = 0; k < MECH_MAX_ROLLERS; k++) nearest[k] = INFINITY;
    for (int i = 0; i < t->nshoe; i++) {
        const double *ps = pose + 7 * (t->shoe0 + i);
        double Rs[9], Rl[9], d[3], pin[3];
        quat_to_rot(ps + 3, Rs);
        m3_transpose(Rroot, Rl);
        double rel[3] = { ps[0] - xr[0], ps[1] - xr[1], ps[2] - xr[2] };
        m3_mulv(Rl, rel, pin);
        for (int k = 0; k < t->nroller; k++) {
            const mech_roller *r = &t->rollers[k];
            double dc = hypot(pin[0] - r->centre[0], pin[2] - r->centre[1]);
            if (r->end) worst_inside = fmax(worst_inside, r->radius - dc);
            const double *pr = pose + 7 * r->body;
            double w[3] = { pr[0] - ps[0], pr[1] - ps[1], pr[2] - ps[2] };
            m3_tmulv(Rs, w, d);
            if (d[0] < 0.0 || d[0] > t->link) continue;
            check(d[2] > 0.0, "roller centre inside the shoe (shoe-local z > 0)", d[2], 0.0, __LINE__);
            const double *pn = pose + 7 * (t->shoe0 + (i + 1) % t->nshoe);
            if (!r->end) {
                /* Straight run here: the next and previous shoes point the same way. */
                const double *pp = pose + 7 * (t->shoe0 + (i + t->nshoe - 1) % t->nshoe);
                double qa[4] = { ps[3], ps[4], ps[5], ps[6] }, qb[4] = { pn[3], pn[4], pn[5], pn[6] },
                       qc[4] = { pp[3], pp[4], pp[5], pp[6] };
                double dot1 = fabs(qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3]);
                double dot2 = fabs(qa[0] * qc[0] + qa[1] * qc[1] + qa[2] * qc[2] + qa[3] * qc[3]);
                if (dot1 > 1.0 - 1e-15 && dot2 > 1.0 - 1e-15) nearest[k] = fmin(nearest[k], d[2]);
            }
        }
    }
    /* No straight run passes inside a road wheel, and a wheel whose nearest straight run is within a
     * nanometre of its radius rests on it (a wheel where the band turns, such as the first and last of
     * five, has only a turning shoe under it; another run, such as an upper run sloping from sprocket to
     * idler over the wheels, may pass farther away). */
    for (int k = 0; k < t->nroller; k++) {
        if (t->rollers[k].end || !isfinite(nearest[k])) continue;
        check(nearest[k] >= t->rollers[k].radius - 1e-9, "straight run inside a road wheel: its shoe-local z",
              nearest[k], t->rollers[k].radius, __LINE__);
        if (fabs(nearest[k] - t->rollers[k].radius) <= 1e-9) tangent_checked++;
    }
    check(worst_inside <= 1e-9, "pin inside an end roller by", worst_inside, 0.0, __LINE__);
    check(tangent_checked > 0, "shoes on a straight run under a road wheel", tangent_checked, 1, __LINE__);
    /* The pads' corners against a plane ground: none more than 0.1 mm below it (a design pose resting on
     * the ground; track_min's polygonal lower run dips 5.3e-5 m). */
    double lowest = INFINITY;
    if (m->ground.type == MECH_GROUND_PLANE) {
        for (int i = 0; i < t->nshoe; i++) {
            const double *ps = pose + 7 * (t->shoe0 + i);
            double Rs[9];
            quat_to_rot(ps + 3, Rs);
            for (int c = 0; c < 4; c++) {
                double corner[3] = { 0.5 * t->link + (c & 1 ? 0.5 : -0.5) * t->pad_length,
                                     (c & 2 ? 0.5 : -0.5) * t->pad_width, t->pad_z },
                       w[3];
                m3_mulv(Rs, corner, w);
                double gap =
                    ps[2] + w[2] - (m->ground.z0 + m->ground.sx * (ps[0] + w[0]) + m->ground.sy * (ps[1] + w[1]));
                lowest = fmin(lowest, gap);
            }
        }
        check(lowest >= -1e-4, "pad corner below the ground at q0 by", -lowest, 0.0, __LINE__);
    }
    printf("%s/%s: nq %d nv %d nc %d, perimeter %.6f m, link %.6f m (perimeter / N %.6f), closure %.1e, "
           "deepest pin inside an end roller %.1e m, %d road wheels tangent, lowest pad corner %.3g m above the "
           "ground\n",
           m->name, t->name, m->nq, m->nv, m->nc, t->perimeter, t->link, t->perimeter / t->nshoe, emax, worst_inside,
           tangent_checked, lowest);
    dense_ws_free(ws);
    free(q);
    free(pose);
    free(e);
}

static void design_pose(const mech_model *m)
{
    for (int i = 0; i < m->ntrack; i++) design_pose_band(m, &m->tracks[i]);
}

/* The shipped vehicles: track_min, track_demo and m113 in the directory, then
 * any further files named on the command line (models kept out of the
 * generated set, models/tracks/large/). */
static void shipped(const char *dir, int nextra, char **extra)
{
    static const char *const names[] = { "track_min", "track_demo", "m113" };
    for (int i = 0; i < 3 + nextra; i++) {
        char path[1024];
        if (i < 3) snprintf(path, sizeof path, "%s/%s.mech", dir, names[i]);
        else snprintf(path, sizeof path, "%s", extra[i - 3]);
        mech_error err;
        mech_model *m = mech_model_load(path, &err);
        if (!m) {
            char buf[1024];
            mech_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "%s\n", buf);
            failures++;
            continue;
        }
        check(mech_model_warning_count(m) == 0, "warnings of a shipped model", mech_model_warning_count(m), 0, __LINE__);
        check(m->ground.type == MECH_GROUND_PLANE, "shipped ground is a plane", m->ground.type, 1, __LINE__);
        design_pose(m);
        mech_model_free(m);
    }
}

/* Few shoes around small end rollers, a sprocket with the wrong tooth count
 * and a pitch off the link: the three warnings. */
static void warnings(void)
{
    static const char text[] =
        "body hull\n parent base\n joint fixed\n mass 100\n inertia 1 1 1\nend\n"
        "body a\n parent hull\n joint revolute y\n mass 1\n inertia 1 1 1\n fext 1\nend\n"
        "body b\n parent hull\n joint revolute y\n pos 1 0 0\n mass 1\n inertia 1 1 1\n fext 1\nend\n"
        "track band\n root hull\n shoes 6\n pitch 0.2\n mass 1\n inertia 1 1 1\n pad -0.05 0.1 0.3\n"
        " thickness 0.05\n kn 1e6\n mu 0.5\n roller a 0.1 end drive teeth 20\n roller b 0.1 end\nend\n";
    mech_error err;
    mech_model *m = mech_model_parse(text, strlen(text), "warn.mech", &err);
    if (!m) {
        fprintf(stderr, "warn.mech: %s\n", err.message);
        failures++;
        return;
    }
    int n = mech_model_warning_count(m);
    check(n == 4, "warnings (link >= 2R on both end rollers, tooth pitch, declared pitch)", n, 4, __LINE__);
    for (int i = 0; i < n; i++) {
        const mech_error *w = mech_model_warning(m, i);
        printf("warning %s:%d:%d: %s\n", w->file, w->line, w->col, w->message);
    }
    check(n >= 4 && mech_model_warning(m, 0)->line == 32, "first warning's line (the drive roller)",
          n ? mech_model_warning(m, 0)->line : 0, 32, __LINE__);
    check(mech_model_warning(m, n) == NULL, "warning out of range is NULL", 0, 0, __LINE__);
    mech_model_free(m);
}

static void ground(void)
{
    static const char plane[] = "ground\n plane 0.5 slope 10 y\n kn 1e5\n mu 0.7\nend\n";
    static const char grid[] = "ground\n grid 3 2 0.5 0.25 origin -1 2\n row 0 0.1 0.2\n row 1 1.1 1.2\n"
                               " kn 1e5\n kt 2e4\n mu 0.7\n zeta 0.3\n friction anchored\nend\n";
    mech_error err;
    mech_model *m = mech_model_parse(plane, strlen(plane), "plane.mech", &err);
    if (!m) {
        failures++;
        return;
    }
    CHECK_NEAR(m->ground.z0, 0.5, 0.0, "plane z0");
    CHECK_NEAR(m->ground.sy, tan(10.0 * PI / 180.0), 1e-15, "plane slope dh/dy");
    CHECK_NEAR(m->ground.sx, 0.0, 0.0, "plane slope dh/dx");
    CHECK_NEAR(m->ground.kt, 1e5, 0.0, "kt defaults to kn");
    CHECK_NEAR(m->ground.zeta, 0.5, 0.0, "zeta default");
    CHECK_NEAR(m->ground.veps, 0.01, 0.0, "veps default");
    check(m->ground.friction == MECH_FRICTION_REGULARIZED, "friction default", m->ground.friction, 0, __LINE__);
    mech_model_free(m);
    m = mech_model_parse(grid, strlen(grid), "grid.mech", &err);
    if (!m) {
        fprintf(stderr, "grid.mech: %s\n", err.message);
        failures++;
        return;
    }
    check(m->ground.type == MECH_GROUND_GRID && m->ground.nx == 3 && m->ground.ny == 2, "grid sizes", m->ground.nx, 3,
          __LINE__);
    CHECK_NEAR(m->ground.h[1 * 3 + 2], 1.2, 0.0, "grid h[j nx + i] (row j = 1, i = 2)");
    CHECK_NEAR(m->ground.x0, -1.0, 0.0, "grid x0");
    CHECK_NEAR(m->ground.y0, 2.0, 0.0, "grid y0");
    CHECK_NEAR(m->ground.dy, 0.25, 0.0, "grid dy");
    CHECK_NEAR(m->ground.kt, 2e4, 0.0, "grid kt");
    check(m->ground.friction == MECH_FRICTION_ANCHORED, "friction anchored", m->ground.friction, 1, __LINE__);
    mech_model_free(m);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_track_parse <models/tracks directory> [more vehicle files]\n");
        return 2;
    }
    two_pulleys();
    collinear_wheels();
    shipped(argv[1], argc - 2, argv + 2);
    warnings();
    ground();
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
