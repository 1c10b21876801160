/* model.h — the model layer: `.mech` text in, an immutable mech_model out
 * (the language: docs/mech-format.md; frames and signs: docs/conventions.md). */
#ifndef MECH_PUBLIC_MODEL_H
#define MECH_PUBLIC_MODEL_H

#include "mech/common.h"

/* How the Featherstone engines advance a step (sim.h). */
typedef enum {
    MECH_INTEGRATOR_VERLET,  /* Störmer–Verlet, one dynamics call per step (default) */
    MECH_INTEGRATOR_EULER,   /* semi-implicit Euler */
    MECH_INTEGRATOR_IMPLICIT /* semi-implicit Euler with joint damping and actuator velocity gains implicit:
                              * (H + dt D) qdd = tau - C + tau_e (MuJoCo's implicitfast) */
} mech_integrator;

/* A model's options, as its file sets them (or their defaults).  An engine
 * starts from them; gravity is then an input of each run (mech_data_gravity). */
typedef struct {
    double gravity[3]; /* m/s², base frame */
    double dt;         /* s: the file's step (its `xpbd` block's dt, default 0.01); a model
                              * with a band or a ground: a fixed fraction of its contact period */
    mech_integrator integrator;
    int substeps, iterations; /* XPBD: per step, per substep */
} mech_options;

/* Sizes: bodies (without the base), coordinates, velocities, inputs (the
 * force elements' inputs, then each actuator's ctrl), actuators, keyframes. */
typedef struct {
    int nb, nq, nv, nact, nu, nkey;
    int nc; /* closed-loop constraint rows */
    int npoi, nshape, nrod;
    int observe_len; /* values of mech_data_observe */
    int ntrack;      /* track bands (mech_model_track) */
    int ground;      /* 1 when the model stands on a ground (its `ground` block) */
} mech_sizes;

/* Parse `len` bytes of .mech text labelled `name` (errors say name:line:col,
 * the model is called name).  NULL with *err filled on any error; never aborts. */
MECH_API mech_model *mech_model_parse(const char *text, size_t len, const char *name, mech_error *err);
/* Read and parse a file; the model is named after the file's stem. */
MECH_API mech_model *mech_model_load(const char *path, mech_error *err);
/* NULL is fine. */
MECH_API void mech_model_free(mech_model *m);

MECH_API const char *mech_model_name(const mech_model *m);
/* The file's `description` line ("" without one). */
MECH_API const char *mech_model_description(const mech_model *m);
MECH_API mech_sizes mech_model_sizes(const mech_model *m);
MECH_API mech_options mech_model_options(const mech_model *m);
/* Body i's name ("" when i is out of range), the index of the body called
 * `name` (-1 when none). */
MECH_API const char *mech_model_body_name(const mech_model *m, int i);
MECH_API int mech_model_body_find(const mech_model *m, const char *name);
/* What the bindings read of a model, read only (docs/mech-format.md). */

/* Body i's tree joint and mass: its parent (-1: the base), its joint's
 * coordinates q[qidx .. qidx + nq) and velocities qd[vidx .. vidx + nv). */
typedef struct {
    const char *name;
    int parent;
    int qidx, vidx, nq, nv;
    double mass; /* kg */
} mech_body_info;
/* Body i into *out: 0, or -1 when i is out of range. */
MECH_API int mech_model_body(const mech_model *m, int i, mech_body_info *out);

/* Track band i (docs/mech-format.md, "Tracks"): its shoes are the bodies
 * shoe0 .. shoe0 + nshoe - 1, its geometry in the frame of body root (-1:
 * the base), and it wraps nroller rollers (mech_model_roller). */
typedef struct {
    const char *name;
    int root, shoe0, nshoe, nroller;
    double shoe_mass; /* kg per shoe */
} mech_track_info;
/* A band's roller: its body, pitch radius (end rollers) or rim radius (road
 * wheels, m), and whether it is an end roller (sprocket, idler) and a drive
 * sprocket. */
typedef struct {
    int body;
    double radius;
    int end, drive;
} mech_roller_info;
/* Band i, and roller j of band i, into *out: 0, or -1 when out of range. */
MECH_API int mech_model_track(const mech_model *m, int i, mech_track_info *out);
MECH_API int mech_model_roller(const mech_model *m, int i, int j, mech_roller_info *out);

/* Rod i's name, density (kg/m^3) and display colour (alpha 0: the viewer's
 * choice); its discretization is the run's (mech_data_rod_info). */
typedef struct {
    const char *name;
    double density;
    float rgba[4];
} mech_rod_def;
/* Rod i into *out: 0, or -1 when i is out of range. */
MECH_API int mech_model_rod(const mech_model *m, int i, mech_rod_def *out);

/* The offset in mech_data_observe's values of the element called `name` of
 * `kind` "poi", "tsda" or "rsda", or the act[] slot it reads ("act"); -1
 * when there is none. */
MECH_API int mech_model_find(const mech_model *m, const char *kind, const char *name);
/* The ground's height at (x, y) (m, base frame; docs/contact.md, what the
 * ground law reads); 0 without a ground. */
MECH_API double mech_model_ground_height(const mech_model *m, double x, double y);
/* The model as a JSON object, exactly as the parser read it (bodies, points
 * of interest, force elements, shapes, static colliders, track bands with
 * their rollers' brake gains, the ground, the steps, the inputs; docs/wasm.md,
 * "describe()"): a malloc'd NUL-terminated string to free, NULL when out of
 * memory. */
MECH_API char *mech_model_describe(const mech_model *m);

/* Mesh colliders (docs/mech-format.md, "Meshes"): the text names mesh
 * files but does not hold them, so a `shape mesh` line collides through the
 * convex hull of its mesh that the caller reads from the file and gives
 * here, before any engine is made from the model: `points` x y z each, as
 * the file has them (this applies the mesh's scale, refpos and refquat),
 * 4 to MECH_MESH_HULL_MAX of them, finite, distinct and not all on one
 * plane (a point inside the others' hull is harmless).
 * Replaces an earlier hull; 0, or -1 with err naming the mesh and its line.
 * Without one, a mesh shape is drawn only (mech_model_mesh_hull_missing). */
#define MECH_MESH_HULL_MAX 64
MECH_API int mech_model_set_mesh_hull(mech_model *m, int mesh, const double *points, int n, mech_error *err);
/* 1 when a shape not marked `visual` draws mesh i: the meshes that need a hull. */
MECH_API int mech_model_mesh_collides(const mech_model *m, int mesh);
/* The first mesh that a shape not marked `visual` draws and that has no
 * hull, or -1: the mesh shapes that will not collide. */
MECH_API int mech_model_mesh_hull_missing(const mech_model *m);
/* Mesh i's name and file (as the text gives them), NULL when out of range. */
MECH_API const char *mech_model_mesh_name(const mech_model *m, int i);
MECH_API const char *mech_model_mesh_file(const mech_model *m, int i);
MECH_API int mech_model_mesh_count(const mech_model *m);

/* Warnings: what parsed but is suspect (a track's pitch against its end
 * rollers, ...), each with its place; at most 16 are kept.  Entry i, or
 * NULL when i is out of range. */
MECH_API int mech_model_warning_count(const mech_model *m);
MECH_API const mech_error *mech_model_warning(const mech_model *m, int i);
/* Actuator i (docs/mech-format.md, "Actuators"): its joint's body (-1 on
 * a tendon) or its tendon (-1 on a joint), its
 * kind ("motor", "position", "velocity", "general"), MuJoCo's affine law
 * (gear, gain, bias), the servo gains as given, the ranges (limited: 1 when
 * set) and its ctrl's slot in act. */
typedef struct {
    const char *name, *kind;
    int body, act, tendon;
    double gear, gain, bias[3], kp, kv;
    int ctrllimited, forcelimited;
    double ctrlrange[2], forcerange[2];
} mech_actuator_info;
/* Actuator i into *out: 0, or -1 when i is out of range. */
MECH_API int mech_model_actuator(const mech_model *m, int i, mech_actuator_info *out);
/* Keyframe i (docs/mech-format.md, "Keyframes"): q (nq), qd (nv), ctrl (nu). */
typedef struct {
    const char *name;
    const double *q, *qd, *ctrl;
} mech_keyframe_info;
/* Keyframe i into *out: 0, or -1 when i is out of range. */
MECH_API int mech_model_keyframe(const mech_model *m, int i, mech_keyframe_info *out);
/* The index of the keyframe called `name`, -1 when none. */
MECH_API int mech_model_keyframe_find(const mech_model *m, const char *name);
/* The initial state of the file: q (nq) and qd (nv) (its `initial` keyframe's, when it names one). */
MECH_API void mech_model_initial_state(const mech_model *m, double *q, double *qd);

#endif
