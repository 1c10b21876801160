/* test_public_api.c — the library as a user links it: only <mech/mech.h>
 * and libmech.a.  One model on each engine through the same verbs; a force
 * producer (mech/contact.h) is one stage of every engine's step, and gives
 * bit for bit what the same force written into fext gives; errors come back
 * through mech_data_error, never an abort. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mech/mech.h>

#include "check.h"

/* A floating box that reads fext: pushed along +x by 2 N at its centre. */
static const char text[] = "gravity 0 0 -9.81\n"
                           "body box\n  parent base\n  joint floating\n  mass 2\n  inertia 0.1 0.2 0.3\n"
                           "  fext 1\nend\n";

static int push(const mech_model *m, const mech_data *d, double t, double *fext, void *user, mech_error *err)
{
    (void)m, (void)d, (void)t, (void)err;
    const double *f = user;
    for (int k = 0; k < 6; k++) fext[k] += f[k];
    return 0;
}

static int refuse(const mech_model *m, const mech_data *d, double t, double *fext, void *user, mech_error *err)
{
    (void)m, (void)d, (void)fext, (void)user;
    snprintf(err->message, sizeof err->message, "no ground at t = %g", t);
    return -1;
}

/* Run n steps of `make`'s engine with the push as a producer and as fext;
 * the two final states must be equal bit for bit. */
static void producer_matches_fext(const mech_model *m, mech_data *(*make)(const mech_model *, mech_error *))
{
    static const double f[6] = { 0, 0, 0, 2, 0, 0 }; /* [moment about the origin; force] */
    mech_error err;
    mech_data *a = make(m, &err), *b = make(m, &err);
    CHECK(a && b, "%s", err.message);
    if (!a || !b) return;
    CHECK(mech_data_producer_add(a, push, (void *)f) == 0, "producer_add");
    memcpy(mech_data_fext(b), f, sizeof f);
    CHECK(mech_data_step(a, 1e-3, 100) == 0 && mech_data_step(b, 1e-3, 100) == 0, "%s / %s",
          mech_data_error(a)->message, mech_data_error(b)->message);
    mech_sizes z = mech_model_sizes(m);
    CHECK(memcmp(mech_data_q(a), mech_data_q(b), sizeof(double) * (size_t)z.nq) == 0, "%s: producer and fext differ",
          mech_data_engine(a));
    CHECK(fabs(mech_data_q(a)[4] - 0.005) < 1e-5, "%s: x = %g after 0.1 s of 1 m/s^2, not a t^2 / 2",
          mech_data_engine(a), mech_data_q(a)[4]);
    CHECK(fabs(mech_data_time(a) - 0.1) < 1e-12, "time %g", mech_data_time(a));
    mech_data_free(a);
    mech_data_free(b);
}

int main(void)
{
    mech_error err;
    mech_model *m = mech_model_parse(text, sizeof text - 1, "box", &err);
    CHECK(m != NULL, "parse: %s", err.message);
    if (!m) return 1;
    mech_sizes z = mech_model_sizes(m);
    CHECK(z.nb == 1 && z.nq == 7 && z.nv == 6, "sizes");
    CHECK(strcmp(mech_model_body_name(m, 0), "box") == 0 && mech_model_body_find(m, "box") == 0, "names");
    CHECK(mech_model_options(m).gravity[2] == -9.81, "options");
    /* The read-only description the bindings read. */
    mech_body_info b;
    mech_track_info t;
    mech_rod_def r;
    CHECK(mech_model_body(m, 0, &b) == 0 && strcmp(b.name, "box") == 0 && b.parent == -1 && b.nq == 7 && b.nv == 6 &&
              b.qidx == 0 && b.vidx == 0 && b.mass > 0 && mech_model_body(m, 1, &b) == -1,
          "body info");
    CHECK(z.ntrack == 0 && !z.ground && mech_model_track(m, 0, &t) == -1 && mech_model_rod(m, 0, &r) == -1,
          "no bands, no ground, no rods");
    CHECK(mech_model_find(m, "poi", "nothing") == -1 && mech_model_ground_height(m, 1, 2) == 0, "find, ground");
    double k, c;
    CHECK(mech_model_brake_gains(m, 0, &k, &c) == -1, "a brake only on a band's roller");
    char *json = mech_model_describe(m);
    CHECK(json && strstr(json, "\"name\":\"box\""), "describe");
    free(json);

    producer_matches_fext(m, mech_data_new_aba);
    producer_matches_fext(m, mech_data_new_dense);
    producer_matches_fext(m, mech_data_new_xpbd);

    /* Gravity is an input of the run: zero gravity, no push, no motion. */
    mech_data *d = mech_data_new_aba(m, &err);
    mech_data_gravity(d)[2] = 0;
    CHECK(mech_data_forward(d) == 0 && mech_data_qdd(d)[5] == 0, "no gravity, no fall");
    CHECK(mech_model_options(m).gravity[2] == -9.81, "the model is never written");

    /* A producer that fails stops the step with its reason. */
    CHECK(mech_data_producer_add(d, refuse, NULL) == 0, "producer_add");
    CHECK(mech_data_step(d, 1e-3, 1) == -1 && strstr(mech_data_error(d)->message, "no ground at t = 0"),
          "producer failure: %s", mech_data_error(d)->message);

    /* Bad input is an error, never an abort. */
    mech_data_q(d)[0] = NAN;
    double e[2];
    CHECK(mech_data_energy(d, e) == -1 && strstr(mech_data_error(d)->message, "q[0] is NaN"), "%s",
          mech_data_error(d)->message);
    mech_data_free(d);

    /* The model's integrator: one step of free fall from rest, z = -g dt^2 (semi-implicit Euler: the
     * velocity first) against -g dt^2 / 2 (Störmer–Verlet's midpoint). */
    static const char euler_text[] = "integrator euler\n"
                                     "body box\n  parent base\n  joint floating\n  mass 2\n  inertia 0.1 0.2 0.3\nend\n";
    mech_model *me = mech_model_parse(euler_text, sizeof euler_text - 1, "euler", &err);
    CHECK(me && mech_model_options(me).integrator == MECH_INTEGRATOR_EULER, "integrator euler");
    CHECK(mech_model_options(m).integrator == MECH_INTEGRATOR_VERLET, "Verlet by default");
    for (int k = 0; me && k < 2; k++) {
        mech_data *r = mech_data_new_aba(k ? m : me, &err);
        double dt = 1e-2, want = (k ? 0.5 : 1.0) * -9.81 * dt * dt;
        CHECK(r && mech_data_step(r, dt, 1) == 0 && fabs(mech_data_q(r)[6] - want) < 1e-15,
              "%s: z = %.17g after one step, want %.17g", k ? "verlet" : "euler", r ? mech_data_q(r)[6] : NAN, want);
        mech_data_free(r);
    }
    mech_model_free(me);

    mech_model *bad = mech_model_parse("body a\n  joint twisty\nend\n", 25, "bad", &err);
    char msg[MECH_ERROR_MAX + 160];
    mech_error_format(&err, msg, sizeof msg);
    CHECK(bad == NULL && err.line == 2, "bad model: %s", msg);

    mech_model_free(m);
    if (failures) return 1;
    printf("public API: ok\n");
    return 0;
}
