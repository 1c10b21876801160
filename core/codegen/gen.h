/* gen.h — the generator's state, shared by its stages.
 *
 * Forward dynamics qdd = H(q)^-1 (tau - C(q, qd, fext)) is generated in the
 * order the emitted function runs it, each stage reading the expressions the
 * previous ones left here:
 *
 *   gen_kinematics  joint and tree transforms, body velocities  (RBDA 4.1, 5.3)
 *   gen_rnea        bias forces C, gravity as base acceleration (RBDA Table 5.1)
 *   gen_crba        lower triangle of H                          (RBDA Table 6.2)
 *   gen_ltdl        sparse L^T D L factor and solve              (RBDA Tables 6.3-6.5)
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
    SEC_KINEMATICS, SEC_VELOCITIES, SEC_BIAS, SEC_CRBA, SEC_LTDL, SEC_SOLVE, SEC_COUNT
};

typedef struct {
    sxform xt;             /* tree transform: joint frame at q = 0 from parent      */
    sxform xj;             /* joint transform: body from joint frame; i_X_p = xj xt */
    int need_x0;           /* body or a descendant reads fext                        */
    sxform x0;             /* body from base, only where need_x0                     */
    sv6 S[6];              /* motion subspace columns (nv of them)                  */
    sv6 v;                 /* body velocity                                          */
    sv6 c;                 /* velocity-product acceleration v x (S qd)              */
    sinertia I;            /* body inertia, body coordinates                         */
} gen_body;

/* Operations in the emitted function (one per temporary). */
typedef struct { int mul, add, div, neg, trig, total; } gen_ops;

typedef struct gen {
    const mech_model *m;
    const char *path;      /* model file, for messages and the header comment */
    const char *name;      /* model name for the output: the file stem         */
    ex_pool p;
    gen_body *b;           /* nb */
    ex *C;                 /* nv bias forces                                   */
    ex *H;                 /* nv x nv, lower triangle used; L after gen_ltdl   */
    unsigned char *Hpat;   /* nv x nv, 1 where the CRBA writes H               */
    int *lambda;           /* nv: expanded parent array (RBDA Table 6.4)       */
    ex *qdd;               /* nv outputs                                       */
    int section[SEC_COUNT];/* first node built in each section                 */
    gen_ops ops;           /* filled by gen_emit                               */
    char err[512];
} gen;

int gen_init(gen *g, const mech_model *m, const char *path, const char *name);
void gen_free(gen *g);

/* The whole pipeline: kinematics, RNEA, CRBA, L^T D L. */
int gen_fwd_dyn(gen *g);

int gen_kinematics(gen *g);
int gen_rnea(gen *g);
int gen_crba(gen *g);
int gen_ltdl(gen *g);

/* i_X_parent(i) applied in its two sparse factors, xj after xt. */
sv6 gen_up_motion(gen *g, int i, sv6 m);
sv6 gen_up_transpose_force(gen *g, int i, sv6 f);
sinertia gen_up_inertia(gen *g, int i, sinertia I);

/* Formats "path:line: message" into g->err; returns -1. */
int gen_fail(gen *g, int line, const char *fmt, ...);

/* Writes the generated source and header for model `cname` (a C identifier
 * fragment).  Returns 0, or -1 with g->err set. */
int gen_emit(gen *g, const char *cname, const char *c_path, const char *h_path);

#endif
