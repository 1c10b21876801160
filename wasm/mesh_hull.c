/* mesh_hull.c — opening .mech text in two calls so that mesh shapes collide
 * (docs/mech-format.md, "Meshes"): parse, give each colliding mesh the hull
 * JavaScript read from its file (wasm/index.mjs, attachMeshHulls), then make
 * the run.  Each export is one call of mech/model.h or mech/sim.h. */
#include "mech/featherstone.h"
#include "mech/xpbd.h"
#include "sim.h"

#include <emscripten.h>

EMSCRIPTEN_KEEPALIVE mech_model *mw_model_parse(const char *text, size_t len, const char *name)
{
    return mw_parse(text, len, name);
}

EMSCRIPTEN_KEEPALIVE void mw_model_free(mech_model *m) { mech_model_free(m); }

EMSCRIPTEN_KEEPALIVE int mw_model_mesh_count(const mech_model *m) { return mech_model_mesh_count(m); }
EMSCRIPTEN_KEEPALIVE const char *mw_model_mesh_name(const mech_model *m, int i) { return mech_model_mesh_name(m, i); }
EMSCRIPTEN_KEEPALIVE const char *mw_model_mesh_file(const mech_model *m, int i) { return mech_model_mesh_file(m, i); }
EMSCRIPTEN_KEEPALIVE int mw_model_mesh_collides(const mech_model *m, int i) { return mech_model_mesh_collides(m, i); }

/* 0, or -1 with the error (naming the mesh and its line) set. */
EMSCRIPTEN_KEEPALIVE int mw_model_set_mesh_hull(mech_model *m, int mesh, const double *points, int n)
{
    mech_error err;
    if (mech_model_set_mesh_hull(m, mesh, points, n, &err) == 0) return 0;
    mw_fail_parse(&err);
    return -1;
}

/* The run of m (adopted, freed on failure): ABA, or XPBD when xpbd is 1. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_model_open(mech_model *m, int xpbd)
{
    mech_error err;
    return mw_sim_adopt(xpbd ? mech_data_new_xpbd(m, &err) : mech_data_new_aba(m, &err), m, &err);
}
