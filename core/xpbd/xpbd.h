/* xpbd.h — XPBD with oriented particles (Tobin & Rucker §4–5, §8.1).
 *
 * MuJoCo-style split: an xpbd_model is the immutable scene (bodies, joints,
 * parameters) that a parser or a C scene builder fills and then finalizes;
 * an xpbd_data is the mutable state of one run (p, R, v, ω, multipliers,
 * time-varying targets, residuals).
 *
 * Each body carries a position p (its centre of mass, world) and a rotation R
 * (body-to-world, row-major).  v is the world velocity of p, ω the body-frame
 * angular velocity (left-trivialized, §3.1).  Rotations are perturbed on the
 * right, R ⊞ δ = R Exp(δ) (core/spatial/so3.h), so every rotational gradient
 * and the rotational mass block (the body-frame inertia J) live in the body frame.
 *
 * Joints (§5) connect body1 to body2; body index −1 is the ground.  Joint
 * frames are p̄_i = p_i + R_i r_i, R̄_i = R_i R_iJ (§5.2.1), joint axis e3.
 * Every joint is a selection of rows of the six-vector
 *     g = [ pos ; R̄1 ⊟ R̄2 ] − [ p_target ; θ_target ]
 * with pos = p̄1 − p̄2 (fixed, revolute, spherical: §5.2.2, §5.3.1, §5.4.1) or
 * pos = R̄1ᵀ(p̄2 − p̄1) (prismatic §5.5.1 and the target forms of §5.6).
 */
#ifndef MECH_XPBD_H
#define MECH_XPBD_H

#include "xpbd/xpbd_collide.h"

typedef enum {
    XPBD_FIXED,     /* rows 0-5, world pos (§5.2.2)                         */
    XPBD_REVOLUTE,  /* rows 0-4, world pos (§5.3.1); limits on θ_rev (§5.3.2) */
    XPBD_SPHERICAL, /* rows 0-2, world pos (§5.4.1); swing/twist limits     */
    XPBD_PRISMATIC, /* rows 0,1,3,4,5, local pos (§5.5.1); limits on d_pr  */
    XPBD_TARGET     /* §5.6 form with an explicit row mask and compliances  */
} xpbd_joint_type;

typedef enum {
    XPBD_VECTOR_ROWS,  /* (a) each row of each vector constraint solved alone (eq. 56) */
    XPBD_VECTOR_BLOCK, /* (b) one SPD block solve per joint (§8.1)                */
    XPBD_SCALAR        /* (c) normed constraints with Müller et al. 2020 updates    */
} xpbd_mode;

typedef struct {
    double mass;
    double inertia[9]; /* body frame, about the centre of mass */
    double p[3], R[9]; /* initial pose */
    double v[3], w[3]; /* initial world linear / body angular velocity */
} xpbd_body;

typedef struct {
    xpbd_joint_type type;
    int body1, body2;    /* −1: the ground (a one-sided joint, §5.2.1) */
    double r1[3], R1[9]; /* joint frame in body1 (or world) coordinates */
    double r2[3], R2[9]; /* joint frame in body2 coordinates */
    /* §5.6 drives: revolute, spherical and prismatic joints switch to the full
     * six-row target form, with compliance 1/k on the driven rows
     * (stiffness[0] for revolute/prismatic, stiffness[0..2] for spherical;
     * k = 0 means rigid).  target = [p_target; θ_target]. */
    int drive;
    double stiffness[3];
    double target[6];
    /* XPBD_TARGET: which of the six rows are constrained, and their α. */
    unsigned target_rows;
    double target_compliance[6];
    /* Limits (inequalities, own multipliers): revolute θ_rev (§5.3.2),
     * prismatic d_pr (§5.5.2), spherical twist; spherical swing ≤ swing_max. */
    int has_lower, has_upper, has_swing;
    double lower, upper, swing_max;
    /* Velocity-level damping β per row of g (§4.4), free rows included. */
    double damping[6];

    /* Resolved by xpbd_model_finalize: */
    unsigned rows;         /* bit k: row k of g is an equality constraint */
    int local_pos;         /* pos = R̄1ᵀ(p̄2 − p̄1) rather than p̄1 − p̄2 */
    double alpha[6];       /* compliance per row */
    int frame_identity[2]; /* R1, R2 are the identity (skips products) */
} xpbd_joint;

typedef struct {
    double dt;      /* step */
    int substeps;   /* h = dt / substeps */
    int iterations; /* constraint sweeps per substep */
    double gravity[3];
} xpbd_params;

typedef struct {
    int nbody, njoint;
    xpbd_body *bodies;
    xpbd_joint *joints;
    xpbd_params params;
    double *inv_inertia; /* 9 per body, from finalize */
    /* Colliders (xpbd_collide.h, docs/xpbd.md "Contact"), none by default:
     * set with xpbd_model_colliders before finalize. */
    int ncollider;
    xpbd_collider *colliders;
    /* From finalize: the body pairs a joint connects, which never collide
     * (b1 · nbody + b2, b1 < b2, sorted). */
    int nexclude;
    long long *exclude;
} xpbd_model;

struct xpbd_rod; /* core/xpbd/rod.h */

/* Time-varying targets: called at the end time of every substep. */
typedef void (*xpbd_target_fn)(double t, int joint, double target[6], void *user);

/* Forces that follow the state (joint springs, dampers, actuators): called
 * at the start of every substep, after the targets, to fill f (6 per body,
 * as fext), which the prediction adds to fext, and xpbd_data.damping. */
typedef void (*xpbd_force_fn)(void *user, double *f);

typedef struct {
    xpbd_mode mode;
    double t;
    /* Step and gravity of this run: the model's params.dt and params.gravity
     * when allocated, then the caller's to change (the model stays as built). */
    double dt, gravity[3];
    double *p, *R, *v, *w; /* 3, 9, 3, 3 per body */
    double *fext;          /* 6 per body, world: [torque about the CoM; force] */
    double *target;        /* 6 per joint, initialised from the model */
    xpbd_target_fn target_fn;
    void *target_user;
    xpbd_force_fn force_fn; /* NULL: none */
    void *force_user;
    double *fstate; /* 6 per body: force_fn's f of the current substep */
    /* 6 per joint, added to the joints' damping β (§4.4) for the substep;
     * a force_fn's to set, owned by the caller; NULL: none. */
    double *damping;
    /* Multipliers of the current substep (eq. 57): 6 per joint (rows, or
     * scalar groups in XPBD_SCALAR), 3 per joint for the limits. */
    double *lambda, *lambda_limit;
    /* Inertial prediction and previous pose of the current substep. */
    double *p_pred, *R_pred, *p_prev, *R_prev;
    /* Residuals (2-norms) of the last substep, when record_residuals is set:
     * primal = |M Δx̃ − ∇Cᵀλ| (eq. 51), constraint = |C + α̃λ| (eq. 52). */
    int record_residuals;
    double primal, constraint;
    /* Cosserat rods stepped inside the substeps (rod.h, xpbd_rod_attach);
     * owned by the caller, none by default. */
    int nrod;
    struct xpbd_rod **rods;
    /* Contact (xpbd_contact.c): the colliders' world poses, the broad
     * phase's candidate pairs of this step and the contacts of the current
     * substep. */
    collide_placed *placed;
    int *collider_static;
    double *collider_grow;
    collide_broadphase broad;
    int ncontact, cap_contact;
    xpbd_contact *contacts;
    /* Rod contact (xpbd_rod_contact.c): the colliding rods' elements, which
     * follow the colliders in placed, collider_static and collider_grow
     * (room for cap_placed entries there), 2 per element: its rod and its
     * index in the rod. */
    int nelem, cap_elem, cap_placed;
    int *elem;
} xpbd_data;

/* Model lifetime: alloc zero-fills bodies and joints (rotations and joint
 * frames set to the identity) for the caller to fill; finalize resolves rows,
 * compliances and J⁻¹.
 * finalize returns 0, or −1 with a message in err for an inconsistent scene. */
int xpbd_model_alloc(xpbd_model *m, int nbody, int njoint);
int xpbd_model_finalize(xpbd_model *m, char *err, int errlen);
void xpbd_model_free(xpbd_model *m);
/* Room for n colliders (zeroed, rotations the identity) for the caller to
 * fill; 0 or −1. */
int xpbd_model_colliders(xpbd_model *m, int n);

int xpbd_data_alloc(xpbd_data *d, const xpbd_model *m, xpbd_mode mode);
void xpbd_data_reset(xpbd_data *d, const xpbd_model *m);
void xpbd_data_free(xpbd_data *d);

/* One step of d->dt under d->gravity: the broad phase, then substeps ×
 * (contacts, predict, solve, update velocities, contact velocities, damp).
 * Contact runs when the model has colliders or a listed rod is not visual.
 * Returns 0, or −1 when contact storage could not grow (the state is then
 * part-way through the step). */
int xpbd_step(const xpbd_model *m, xpbd_data *d);

/* Kinetic and gravitational potential energy (−m g·p under d->gravity) into
 * *kinetic and *potential (either may be NULL); returns their sum. */
double xpbd_energy(const xpbd_model *m, const xpbd_data *d, double *kinetic, double *potential);

/* The active contacts of the last substep (λ_n > 0) for drawing: 6 per
 * contact, [point on side 0 (world); normal n], into out (room for
 * d->ncontact); returns their count. */
int xpbd_contact_points(const xpbd_model *m, const xpbd_data *d, double *out);

#endif
