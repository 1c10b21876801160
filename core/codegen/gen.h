/* gen.h — the generator's state, shared by its stages.
 *
 * Forward dynamics qdd = H(q)^-1 (tau - C(q, qd, fext)) is generated in the
 * order the emitted function runs it, each stage reading the expressions the
 * previous ones left here:
 *
 *   gen_kinematics  joint and tree transforms, body velocities  (RBDA 4.1, 5.3)
 *   gen_rnea        bias forces C, gravity as base acceleration (RBDA Table 5.1)
 *   gen_crba        lower triangle of H                          (RBDA Table 6.2)
 *   gen_world_kinematics  base-coordinate kinematics of the bodies that loops,
 *                   force elements and points of interest need
 *   gen_elements    tsda and rsda generalized forces tau_e, observation values
 *   gen_loops       loop Jacobian K and k + kstab              (RBDA 8.18-8.20, Table 8.4)
 *   gen_ltdl        sparse L^T D L factor and solve, method 2 for loops
 *                                                                (RBDA Tables 6.3-6.5, sec 8.5)
 *
 * or, with algorithm GEN_ABA, the articulated-body algorithm in place of the
 * CRBA and the L^T D L:
 *
 *   gen_aba_factor  articulated inertias, U, D: configuration only  (RBDA Table 7.1, pass 2)
 *   gen_aba_solve   the right-hand sides through passes 2 and 3, method 2 for loops
 *
 * Every stage returns 0, or -1 with g->err filled in ("file:line: message").
 */
#ifndef MECHGEN_GEN_H
#define MECHGEN_GEN_H

#include "codegen/expr.h"
#include "codegen/sym_spatial.h"
#include "model/model.h"

#define MECHGEN_VERSION "mechgen 1.0"

/* Sections of the emitted function, in order; nodes first built during a
 * stage are emitted under its heading. */
enum {
    SEC_KINEMATICS,
    SEC_VELOCITIES,
    SEC_BIAS,
    SEC_CRBA,
    SEC_WORLD,
    SEC_ELEMENTS,
    SEC_LOOPS,
    SEC_LTDL,
    SEC_SOLVE,
    SEC_CONSTRAINT,
    SEC_BACKSUB,
    SEC_OBSERVE,
    SEC_COUNT
};

/* A body's kinematics in base coordinates (the frame rbda/elements.h works in). */
typedef struct {
    ex R[9];  /* attitude, row-major: columns are the body axes (E^T)  */
    ex p[3];  /* origin                                                */
    sv6 v;    /* spatial velocity 0_X_i v_i                            */
    sv6 a;    /* velocity-product acceleration (qdd = 0, no gravity)   */
    sv6 S[6]; /* motion subspace columns 0_X_i S_i                     */
} gen_world;

typedef struct {
    sxform xt;      /* tree transform: joint frame at q = 0 from parent      */
    sxform xj;      /* joint transform: body from joint frame; i_X_p = xj xt */
    int need_x0;    /* body or a descendant reads fext                        */
    sxform x0;      /* body from base, only where need_x0                     */
    sv6 S[6];       /* motion subspace columns (nv of them)                  */
    sv6 v;          /* body velocity                                          */
    sv6 c;          /* velocity-product acceleration v x (S qd)              */
    sinertia I;     /* inertia the dynamics sees, body coordinates: the body's own
                            * after regroup_inertias moved its joint-invariant part
                            * to the parent (gen_kinematics.c); not the physical one */
    int need_world; /* a loop, POI or tsda reads w (set on ancestors too)    */
    gen_world w;    /* only where need_world                                  */
} gen_body;

/* A name for the temporary of node id, given by the stage that knows its
 * role (e.g. "v3_wz", "H_2_1"); the emitter uses the first name a node got. */
#define GEN_LABEL_LEN 24
typedef struct {
    ex id;
    char name[GEN_LABEL_LEN];
} gen_label;

/* The two ways to H^-1: composite inertias and a sparse factorization of H,
 * or articulated inertias (O(n), never forming H). */
typedef enum { GEN_CRBA, GEN_ABA } gen_algorithm;

/* Operations in the emitted function (one per temporary). */
typedef struct {
    int mul, add, div, neg, trig, sqrt, total;
} gen_ops;

typedef struct gen {
    const mech_model *m;
    const char *path; /* model file, for messages and the header comment */
    const char *name; /* model name for the output: the file stem         */
    ex_pool p;
    gen_body *b;            /* nb */
    ex *C;                  /* nv bias forces                                   */
    ex *H;                  /* nv x nv, lower triangle used; L after gen_ltdl   */
    unsigned char *Hpat;    /* nv x nv, 1 where the CRBA writes H               */
    int *lambda;            /* nv: expanded parent array (RBDA Table 6.4)       */
    ex *tau_e;              /* nv: generalized force of tsda and rsda           */
    ex *K;                  /* nc x nv loop Jacobian                            */
    ex *kc;                 /* nc: k + kstab                                    */
    ex *qdd;                /* nv outputs (of gen_gravity_tau: its tau_g)       */
    ex *obs;                /* mech_observe_len outputs of the observe function */
    int section[SEC_COUNT]; /* first node built in each section                 */
    gen_label *labels;      /* nlabel names of temporaries, in the order given  */
    int nlabel, labelcap;
    int fold_gravity; /* the model's gravity as constants, not the input  */
    int gravity_only; /* qd and fext read as zero (gen_gravity_tau)       */
    gen_algorithm algorithm;
    int other_ops;       /* the other algorithm's operations at the model's
                            * gravity when both were built, else -1           */
    struct gen_aba *aba; /* gen_aba_factor's factor, for the solves          */
    gen_ops ops;         /* filled by gen_emit                               */
    char err[512];
} gen;

int gen_init(gen *g, const mech_model *m, const char *path, const char *name);
void gen_free(gen *g);

/* The whole pipeline: kinematics, RNEA, CRBA (or the articulated inertias),
 * world kinematics, force elements, loops, L^T D L (or the articulated-body
 * solve), then the observation values. */
int gen_fwd_dyn(gen *g);

/* Operations reachable from qdd: what gen_emit will count.  -1 when out of memory. */
int gen_count_ops(const gen *g);

/* tau_g = tau - G(q) gravity into qdd, G(q) gravity = RNEA(q, 0, 0, no fext): the
 * generalized gravity force alone, linear in the gravity argument; sets
 * gravity_only.  With the argument g - g0, FD(tau, g) = FD(tau_g, g0)
 * (docs/codegen.md, "Gravity, an input"). */
int gen_gravity_tau(gen *g);

int gen_kinematics(gen *g);
int gen_rnea(gen *g);
int gen_crba(gen *g);
int gen_world_kinematics(gen *g);
int gen_elements(gen *g);
int gen_loops(gen *g);
int gen_ltdl(gen *g);
int gen_aba_factor(gen *g);
int gen_aba_solve(gen *g);
void gen_aba_free(gen *g);
int gen_observe(gen *g);

/* x <- L^-T x on the factor gen_ltdl left in H (RBDA Table 6.5's first half). */
void gen_half_solve(gen *g, ex *x);

/* Method 2 (RBDA sec 8.5) between the halves of a solve H^-1 = B^T D^-1 B
 * with B unit upper triangular: half_solve(g, x) sets x <- B x (L^-T of the
 * L^T D L, or the articulated-body backward pass); d the pivots of D and dinv
 * their inverses; u = B b in, B (b + K^T lambda) out. */
int gen_method2(gen *g, void (*half_solve)(gen *g, ex *x), const ex *d, const ex *dinv, ex *u);

/* Runtime input array[k], e.g. q[3]. */
ex gen_input(gen *g, ex_input_array array, int k);
/* What the 1-DOF joint of body b adds to its diagonal entry of H: its
 * armature, plus under integrator implicit h times its damping
 * (mech_model_joint_damping), h = act[nact] the step (an input). */
ex gen_rotor(gen *g, const mech_body *b);

/* World position x and velocity xd of the point `pos` fixed in body b (-1:
 * the base, where the point is fixed). */
void gen_world_point(gen *g, int b, const double pos[3], ex x[3], ex xd[3]);

/* row[j] += sign (S^0_j . F) for the joints on body b's path to the root
 * that are not also on body `other`'s (-1: the base): F's share of a
 * generalized force or a loop Jacobian row.  Shared ancestors are skipped,
 * where the two sides' terms cancel exactly (RBDA eqs. 8.18-8.20). */
void gen_path_project(gen *g, int b, int other, sv6 F, int sign, ex *row);

/* The coordinate axis (0, 1, 2) a revolute joint turns about, with its sign
 * in *sign (may be NULL), or -1 for any other joint or axis. */
int gen_revolute_axis(const mech_body *b, int *sign);

/* i_X_parent(i) applied in its two sparse factors, xj after xt. */
sv6 gen_up_motion(gen *g, int i, sv6 m);
sv6 gen_up_transpose_force(gen *g, int i, sv6 f);
sinertia gen_up_inertia(gen *g, int i, sinertia I);

/* Names node id's temporary (printf-style; a C identifier that is not t<digits>).
 * Constants and inputs are printed inline and ignore it; a node named before
 * keeps its first name. */
void gen_name(gen *g, ex id, const char *fmt, ...);
/* Names the six entries of a spatial vector prefix_wx .. prefix_wz, prefix_vx .. prefix_vz
 * (angular, linear: "n" and "f" for a force). */
void gen_name_sv6(gen *g, sv6 v, int force, const char *fmt, int i);

/* Formats "path:line: message" into g->err; returns -1. */
int gen_fail(gen *g, int line, const char *fmt, ...);
/* Why `text` cannot be quoted in generated C (a comment, a string, an #include line), or NULL. */
const char *gen_unquotable(const char *text);

#endif
