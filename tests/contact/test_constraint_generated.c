/* test_constraint_generated.c — the constraint solve on a model's generated code agrees with the dense reference
 * (docs/contact.md, "The constraint solve"): shipped models dropped onto the floor (the satellite, a floating body
 * with panels, onto a floor 8 m up; the four-link pendulum swinging onto a floor 1.5 m below its base), stepped on
 * both engines, the states agreeing to 1e-8 after every 0.1 s; and with the floor off, the generated run is bitwise
 * the run without a solve (the shipped results stay).  Exit 0 on pass, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech/mech.h"
#include "sim/generated.h"

#include "check.h"
#include "test_support.h"

static void agree(const char *name, const char *path, double floor)
{
    mech_model *m = test_load_model(path);
    const mech_generated *g = mech_generated_find(name);
    mech_error err;
    mech_data *gen = g ? mech_data_new_generated(m, g, &err) : NULL, *dense = mech_data_new_dense(m, &err);
    if (!gen || !dense) {
        printf("FAIL %s: no run (%s)\n", name, err.message);
        failures++;
        return;
    }
    CHECK(!mech_data_set_floor(gen, 1, floor) && !mech_data_set_floor(dense, 1, floor), "%s: floor refused", name);
    double worst = 0, rows = 0;
    for (int k = 0; k < 15; k++) {
        CHECK(!mech_data_step(gen, 1e-3, 100), "%s: %s", name, mech_data_error(gen)->message);
        CHECK(!mech_data_step(dense, 1e-3, 100), "%s: %s", name, mech_data_error(dense)->message);
        for (int i = 0; i < m->nq; i++) worst = fmax(worst, fabs(mech_data_q(gen)[i] - mech_data_q(dense)[i]));
        double st[3];
        mech_data_solver_stats(gen, st);
        rows = fmax(rows, st[0]);
    }
    printf("%s on the floor at %g m: generated vs dense, largest q difference over 1.5 s %.3g (up to %g rows)\n", name,
           floor, worst, rows);
    CHECK(rows > 0, "%s never touched the floor", name);
    CHECK(worst < 1e-8, "%s: generated and dense differ by %g", name, worst);
    mech_data_free(gen);
    mech_data_free(dense);

    /* the floor off again: bitwise the plain run */
    mech_data *a = mech_data_new_generated(m, g, &err), *b = mech_data_new_generated(m, g, &err);
    mech_data_set_floor(b, 1, floor);
    mech_data_set_floor(b, 0, 0);
    mech_data_step(a, 1e-3, 500);
    mech_data_step(b, 1e-3, 500);
    CHECK(memcmp(mech_data_q(a), mech_data_q(b), sizeof(double) * (size_t)m->nq) == 0, "%s: floor off changed the run",
          name);
    mech_data_free(a);
    mech_data_free(b);
    mech_model_free(m);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_constraint_generated MODELS_DIR\n");
        return 2;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/satellite.mech", argv[1]);
    agree("satellite", path, 8.0);
    snprintf(path, sizeof path, "%s/fourlink.mech", argv[1]);
    agree("fourlink", path, -1.5);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
