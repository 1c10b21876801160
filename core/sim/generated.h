/* generated.h — the interface of generated forward dynamics.
 *
 * The build runs mechgen on every .mech file in models/ and compiles the results into
 * the mech_generated library; each model exports one descriptor, so any
 * number of models link into one binary (tests, benchmarks, the WASM build).
 * See docs/codegen.md. */
#ifndef MECH_GENERATED_H
#define MECH_GENERATED_H

/* qdd = FD(q, qd, tau, fext, act, gravity).  Layouts are docs/conventions.md:
 * q has nq entries, qd/tau/qdd nv; fext is 6*nb doubles, per body a
 * base-coordinate spatial force [moment about the base origin; force], read
 * only for bodies flagged in fext_bodies; act has nact entries; gravity is 3
 * doubles, the physical gravity vector in base coordinates, m/s^2 (the
 * model's own is the descriptor's gravity).  fext and act may be NULL (no
 * external force, no actuation); gravity may not.  A floating body's
 * quaternion need not be exactly unit: it is normalized on entry. */
typedef void (*mech_fwd_dyn_fn)(const double *q, const double *qd, const double *tau, const double *fext,
                                const double *act, const double *gravity, double *qdd);

/* FD(q, qd, tau, fext, act) at the model's own gravity. */
typedef void (*mech_fwd_dyn_own_fn)(const double *q, const double *qd, const double *tau, const double *fext,
                                    const double *act, double *qdd);

/* out = the observation values at (q, qd), mech_observe's layout
 * (core/rbda/elements.h): every POI's world x y z, vx vy vz, then each tsda's
 * length and rate, then each rsda's q and qd. */
typedef void (*mech_observe_fn)(const double *q, const double *qd, double *out);

typedef struct mech_generated {
    const char *name;                 /* model name (file stem) */
    const char *generator;            /* generator version string */
    int nq, nv, nb, nact, nc;         /* nact: force-element inputs; nc: loop constraint rows */
    const unsigned char *fext_bodies; /* nb flags: 1 = body reads fext[6i..6i+5] */
    double gravity[3];                /* the model file's gravity, m/s^2, base coordinates; fwd_dyn
                                * is specialized on it (bit-identical to it folded in) and
                                * exact for any other (docs/codegen.md, "Gravity, an input") */
    mech_fwd_dyn_fn fwd_dyn;
    /* fwd_dyn at the model's own gravity, without the check for it: for a
     * caller that checks the gravity once for many calls (an engine, per
     * step(dt, n)).  Bit-identical to fwd_dyn there. */
    mech_fwd_dyn_own_fn fwd_dyn_own_gravity;
    /* NULL, or fwd_dyn_own_gravity without its range check, for a caller
     * that has checked that every q[i] is within +-MECH_SINCOS_MAX
     * (mech_sincos.h) and fext and act are not NULL: the own copy's near half
     * in a small model (docs/codegen.md, "Two copies for small models"). */
    mech_fwd_dyn_own_fn fwd_dyn_own_gravity_near;
    int npoi, ntsda, nrsda, observe_len;
    const char *const *names; /* npoi + ntsda + nrsda: POI, tsda, rsda names */
    const int *act_slot;      /* ntsda + nrsda: each element's act[] slot or -1 */
    mech_observe_fn observe;  /* NULL when observe_len is 0 */
} mech_generated;

/* Every model generated into this build, in models/ file-name order. */
extern const mech_generated *const mechgen_all[];
extern const int mechgen_count;

/* mech_generated_find (mech/featherstone.h): the model called `name`, or NULL. */

/* mech_find for a generated model: kind "poi", "tsda" or "rsda" gives the
 * offset of that element's first value in observe's out, "act" the act[]
 * slot of an element declared input; -1 for an unknown kind or name. */
int mechgen_find_signal(const mech_generated *g, const char *kind, const char *name);

#endif
