/* test_mesh_collider.c — a mesh shape collides through the convex hull the
 * caller gives (mech_model_set_mesh_hull; docs/mech-format.md, "Meshes"), on
 * the runtime Featherstone engine with its constraint solve and on XPBD:
 *   a body whose mesh is a box's eight corners, dropped tilted on a plane,
 *   comes to rest and follows the body with a box shape of the same size
 *   (the narrow phase gives the same contacts, so the same run: 1e-9 m),
 *   also when the file's points are twice as large and offset, placed by
 *   the mesh line's scale and refpos;
 *   a triangular prism comes to rest on its face: its lowest vertex on the
 *   plane within the solve's penetration (≤ 1 mm) and no higher;
 *   without the hull the mesh shape is drawn only and the body falls
 *   through (mech_model_mesh_hull_missing names it);
 *   hulls that are too small, flat, repeated or too large are refused
 *   naming the mesh and its line.
 * Exit 0 on pass, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech/mech.h"

#include "check.h"
#include "test_support.h"

static const char *const head = "contact\nstatic plane friction 0.8 0.8\nmesh hb box.obj\nmesh prism prism.stl\n"
                                "mesh big big.obj scale 0.5 0.5 0.5 refpos 0 0 0.2\n";

/* A free body of mass 3 at 0.5 m, tilted 30° about x and spinning, with `shape`. */
static void body_text(char *out, size_t cap, const char *shape)
{
    snprintf(out, cap,
             "%sbody b\n parent base\n joint floating\n mass 3\n inertia 0.02 0.03 0.04\n q0 0 0 0.5 x 30\n"
             " qd0 0.5 1 0 0.5 0 0\n shape %s\nend\n",
             head, shape);
}

static const double box_corners[24] = { -0.2, -0.15, -0.1, 0.2, -0.15, -0.1, -0.2, 0.15, -0.1, 0.2, 0.15, -0.1,
                                        -0.2, -0.15, 0.1,  0.2, -0.15, 0.1,  -0.2, 0.15, 0.1,  0.2, 0.15, 0.1 };
/* The same box in a file twice as large, its base at z = 0: placed by `scale 0.5 0.5 0.5 refpos 0 0 0.2`. */
static const double big_corners[24] = { -0.4, -0.3, 0,   0.4, -0.3, 0,   -0.4, 0.3, 0,   0.4, 0.3, 0,
                                        -0.4, -0.3, 0.4, 0.4, -0.3, 0.4, -0.4, 0.3, 0.4, 0.4, 0.3, 0.4 };
/* A prism along y: the triangle (±0.2, 0, −0.1), (0, 0, 0.2) in x z, 0.3 long. */
static const double prism[18] = { -0.2, -0.15, -0.1, 0.2, -0.15, -0.1, 0, -0.15, 0.2,
                                  -0.2, 0.15,  -0.1, 0.2, 0.15,  -0.1, 0, 0.15,  0.2 };

static mech_model *model(const char *text, int hulls)
{
    mech_model *m = test_parse_text(text, "mesh_collider");
    mech_error err;
    if (hulls && (mech_model_set_mesh_hull(m, 0, box_corners, 8, &err) || mech_model_set_mesh_hull(m, 1, prism, 6, &err) ||
                  mech_model_set_mesh_hull(m, 2, big_corners, 8, &err))) {
        printf("FAIL: %s\n", err.message);
        exit(1);
    }
    return m;
}

static mech_data *open_run(mech_model *m, int xpbd)
{
    mech_error err;
    mech_data *d = xpbd ? mech_data_new_xpbd(m, &err) : mech_data_new_aba(m, &err);
    if (!d) {
        printf("FAIL: %s\n", err.message);
        exit(1);
    }
    mech_data_adopt_model(d, m);
    return d;
}

static void run(mech_data *d, double dt, int n)
{
    if (mech_data_step(d, dt, n)) {
        printf("FAIL: %s\n", mech_data_error(d)->message);
        exit(1);
    }
}

/* The lowest world height of body points p (n) at the floating pose q = [w x y z, px py pz]: pz + (R p)_z. */
static double lowest(const double *q, const double *p, int n)
{
    double w = q[0], x = q[1], y = q[2], z = q[3], low = INFINITY;
    double r[3] = { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) };
    for (int i = 0; i < n; i++) low = fmin(low, q[6] + r[0] * p[3 * i] + r[1] * p[3 * i + 1] + r[2] * p[3 * i + 2]);
    return low;
}

static void mesh_like_box(int xpbd, const char *mesh, double dt, int steps)
{
    const char *engine = xpbd ? "XPBD" : "Featherstone";
    char tm[1024], tb[1024], shape[64];
    snprintf(shape, sizeof shape, "mesh %s", mesh);
    body_text(tm, sizeof tm, shape);
    body_text(tb, sizeof tb, "box 0.4 0.3 0.2");
    mech_data *dm = open_run(model(tm, 1), xpbd), *db = open_run(model(tb, 0), xpbd);
    run(dm, dt, steps);
    run(db, dt, steps);
    const double *qm = mech_data_q(dm), *qb = mech_data_q(db);
    double diff = 0, v[6];
    for (int k = 0; k < 7; k++) diff = fmax(diff, fabs(qm[k] - qb[k]));
    mech_data_velocities(dm, v);
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), spin = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    double low = lowest(qm, box_corners, 8);
    printf("%s: box-like mesh '%s' after %g s: lowest corner %.4g mm, speed %.2g m/s, spin %.2g rad/s, |q - q_box| %.3g\n",
           engine, mesh, dt * steps, 1e3 * low, speed, spin, diff);
    CHECK(speed < 1e-3 && spin < 1e-3, "%s: mesh body still moving (%g m/s, %g rad/s)", engine, speed, spin);
    CHECK(low <= 1e-9 && low >= -1e-3, "%s: lowest corner at %g m, not on the plane", engine, low);
    CHECK(diff <= 1e-9, "%s: mesh body and box body differ by %g", engine, diff);
    mech_data_free(dm);
    mech_data_free(db);
}

static void prism_rests(int xpbd, double dt, int steps)
{
    const char *engine = xpbd ? "XPBD" : "Featherstone";
    char t[1024];
    body_text(t, sizeof t, "mesh prism");
    mech_data *d = open_run(model(t, 1), xpbd);
    run(d, dt, steps);
    const double *q = mech_data_q(d);
    double low = lowest(q, prism, 6), v[6];
    mech_data_velocities(d, v);
    double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    printf("%s: prism after %g s: lowest vertex %.4g mm, centre %.5g m, speed %.2g m/s\n", engine, dt * steps,
           1e3 * low, q[6], speed);
    CHECK(low <= 1e-9 && low >= -1e-3, "%s: prism's lowest vertex at %g m, not on the plane", engine, low);
    CHECK(fabs(q[6] - (0.1 + low)) < 1e-6, "%s: prism not on its face (centre %g m)", engine, q[6]);
    CHECK(speed < 1e-3, "%s: prism still moving (%g m/s)", engine, speed);
    mech_data_free(d);
}

static void without_hull(void)
{
    char t[1024];
    body_text(t, sizeof t, "mesh hb");
    mech_model *m = model(t, 0);
    CHECK(mech_model_mesh_hull_missing(m) == 0, "the mesh without a hull is named: %d", mech_model_mesh_hull_missing(m));
    mech_data *d = open_run(m, 0);
    run(d, 1e-3, 1000);
    CHECK(mech_data_q(d)[6] < -3, "without its hull the mesh body falls through: z %g", mech_data_q(d)[6]);
    mech_data_free(d);
    body_text(t, sizeof t, "mesh hb visual");
    m = model(t, 0);
    CHECK(mech_model_mesh_hull_missing(m) == -1, "a visual mesh shape needs no hull");
    mech_model_free(m);
}

static void refused(const double *p, int n, const char *want)
{
    char t[1024];
    body_text(t, sizeof t, "mesh hb");
    mech_model *m = model(t, 0);
    mech_error err;
    int r = mech_model_set_mesh_hull(m, 0, p, n, &err);
    char msg[512];
    mech_error_format(&err, msg, sizeof msg);
    printf("refused: %s\n", r ? msg : "(accepted)");
    CHECK(r == -1 && strstr(msg, want) && strstr(msg, "mesh hull 'hb'") && err.line == 3, "%s: got '%s'", want,
          r ? msg : "accepted");
    mech_model_free(m);
}

static void bad_hulls(void)
{
    double flat[15] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0 };
    double line[12] = { 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0 };
    double twice[15] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0 };
    double many[3 * 65];
    for (int i = 0; i < 65; i++) many[3 * i] = cos(i), many[3 * i + 1] = sin(i), many[3 * i + 2] = 0.01 * i;
    double nan[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN };
    refused(box_corners, 3, "at least 4");
    refused(flat, 5, "one plane");
    refused(line, 4, "one line");
    refused(twice, 5, "coincide");
    refused(many, 65, "at most 64");
    refused(nan, 4, "not finite");
}

int main(void)
{
    mesh_like_box(0, "hb", 1e-3, 4000);
    mesh_like_box(1, "hb", 1e-3, 4000);
    mesh_like_box(0, "big", 1e-3, 4000); /* placed by the mesh line's scale and refpos */
    prism_rests(0, 1e-3, 4000);
    prism_rests(1, 1e-3, 4000);
    without_hull();
    bad_hulls();
    return failures ? 1 : 0;
}
