/* model.h — the immutable mechanism model every consumer shares.
 *
 * One parser (parse.c and its parse_*.c) turns `.mech` text into a mech_model; the code
 * generator, the dense reference, the engines and the WASM modules all read
 * this struct and never re-parse.  Conventions (frames, signs, layouts) are
 * normative in docs/conventions.md; the grammar is docs/mech-format.md.
 *
 * Frames.  Every body's frame is its joint frame: the joint sits at the body
 * origin.  At q = 0 the body frame is its parent frame moved by the tree
 * transform (translation `pos`, then fixed rotation `rot`, both expressed in
 * the parent frame).  The joint then rotates about / slides along `axis`
 * (a unit vector in the body frame).  CoM and inertia are in the body frame.
 */
#ifndef MECH_MODEL_H
#define MECH_MODEL_H

#include <stddef.h>

#include "mech/model.h"

#define MECH_NAME_MAX 48     /* names, including the terminating NUL */
#define MECH_MAX_BODIES 1024 /* resource caps: a hostile file cannot   */
#define MECH_MAX_POIS 4096   /* exhaust memory                        */
#define MECH_MAX_SHAPES 4096
#define MECH_MAX_LOOPS 256
#define MECH_MAX_ELEMENTS 4096 /* tsda + rsda                            */
#define MECH_MAX_RODS 256
#define MECH_MAX_ROD_ELEMENTS 4096 /* elements (segments) of one rod        */
#define MECH_MAX_ROD_POINTS 4096   /* `point` lines of one rod              */
#define MECH_MAX_TEXT (4u << 20)   /* bytes of .mech text accepted     */
#define MECH_MAX_LINE 4096         /* characters in one line            */
#define MECH_MAX_TRACKS 8
#define MECH_MAX_ROLLERS 32     /* rollers of one band                */
#define MECH_MAX_SHOES 512      /* shoes of one band                  */
#define MECH_MAX_GRID (1 << 20) /* samples of a ground height grid    */
#define MECH_MAX_WARNINGS 16    /* kept; later ones are dropped       */
#define MECH_MAX_MESHES 1024    /* `mesh` assets                      */
#define MECH_PATH_MAX 256       /* a mesh file's path, with its NUL   */
#define MECH_MAX_ACTUATORS 1024
#define MECH_MAX_KEYFRAMES 256
#define MECH_MAX_TENDONS 1024
#define MECH_MAX_TENDON_JOINTS 32 /* `joint` lines of one tendon          */
#define MECH_MAX_EQUALITIES 1024

typedef enum {
    MECH_JOINT_REVOLUTE,   /* nq = nv = 1: angle about +axis (rad)          */
    MECH_JOINT_PRISMATIC,  /* nq = nv = 1: displacement along +axis (m)     */
    MECH_JOINT_FLOATING,   /* nq = 7 [qw qx qy qz x y z], nv = 6 [w; v] body */
    MECH_JOINT_FIXED,      /* nq = nv = 0                                   */
    MECH_JOINT_SPHERICAL,  /* nq = 4 [qw qx qy qz], nv = 3 w, body frame    */
    MECH_JOINT_CYLINDRICAL /* nq = nv = 2: angle about, then slide along, +axis */
} mech_joint_type;

typedef enum {
    MECH_SHAPE_BOX,      /* size = full lengths x y z                     */
    MECH_SHAPE_SPHERE,   /* size[0] = radius                              */
    MECH_SHAPE_CYLINDER, /* size[0] = radius, size[1] = length along z    */
    MECH_SHAPE_CAPSULE,  /* size[0] = radius, size[1] = length of the straight part, along z */
    MECH_SHAPE_PLANE,    /* static colliders only: the z = 0 plane of the shape frame, solid below */
    MECH_SHAPE_MESH      /* body shapes only: the mesh asset mech_model.meshes[mesh], colliding through its hull */
} mech_shape_type;

/* A mesh asset (docs/mech-format.md, "Meshes"): an OBJ or STL file the text
 * names but does not hold, placed as MuJoCo places a mesh: a file vertex v
 * is at scale ⊙ R(refquat)ᵀ (v − refpos) in the frame of each shape using it. */
typedef struct {
    char name[MECH_NAME_MAX];
    char file[MECH_PATH_MAX]; /* relative to the model file's folder */
    double scale[3];          /* no zero factor                      */
    double refpos[3];
    double refquat[4]; /* unit, w x y z */
    int line;
    double *hull; /* its convex hull's points in the mesh frame (x y z each), NULL until   */
    int nhull;    /* mech_model_set_mesh_hull gives them: what `shape mesh` collides with */
} mech_mesh;

/* Contact material defaults of a collider (docs/mech-format.md, "Colliders"). */
#define MECH_DEFAULT_MU_STATIC 0.5
#define MECH_DEFAULT_MU_DYNAMIC 0.4
#define MECH_DEFAULT_RESTITUTION 0.0

typedef struct {
    mech_shape_type type;
    int body; /* index into mech_model.bodies                  */
    double size[3];
    double pos[3];        /* shape origin in the body frame                */
    double rot[9];        /* shape axes in the body frame, row-major R     */
    float rgba[4];        /* display colour; alpha 0 = let the page choose */
    int visual;           /* 1: display only; else a collider (mech_shape_collides) */
    int mesh;             /* MECH_SHAPE_MESH: index into mech_model.meshes */
    double mu_s, mu_d;    /* static and dynamic friction coefficients      */
    double restitution;   /* coefficient of restitution, in [0, 1]         */
    unsigned contype;     /* Featherstone contact filter (MuJoCo's contype/conaffinity): */
    unsigned conaffinity; /* A and B collide when (A.contype & B.conaffinity) | (B.contype & A.conaffinity); 1, 1 */
    int line;
} mech_shape;

/* XPBD-only joint options (docs/mech-format.md, "XPBD scenes"), on a tree
 * joint (mech_body.xj) or a loop (mech_loop.xj).  core/xpbd/xpbd_from_model.c
 * reads them; the Featherstone engines ignore them.  Values are SI in our
 * sign convention: q, target and limits are the joint coordinate of
 * docs/conventions.md (revolute rad about +axis, prismatic m along +axis;
 * loops: the successor frame relative to the predecessor frame). */
typedef enum { MECH_SIGNAL_CONST, MECH_SIGNAL_SIN, MECH_SIGNAL_RAMP } mech_signal_type;

/* s(t) = offset + amp sin(2 pi freq t + phase): a[0..3] = amp, freq, phase
 * (rad), offset; MECH_SIGNAL_CONST uses a[3] only; MECH_SIGNAL_RAMP is
 * s(t) = offset + rate t with a[0] = rate, a[3] = offset (a motor: a
 * revolute target that turns at a constant rate). */
typedef struct {
    mech_signal_type type;
    double a[4];
} mech_signal;

typedef struct {
    int has_limit; /* revolute / prismatic: q in [lower, upper]; spherical: twist */
    double lower, upper;
    int has_swing; /* spherical: swing angle <= swing (rad)          */
    double swing;
    int drive; /* spring towards target: stiffness (0 = rigid), damping */
    double stiffness, damping;
    mech_signal target[3]; /* revolute/prismatic [0]; spherical rotation x y z */
    int has_compliance;    /* compliance of the equality rows (SI, 1/stiffness) */
    double compliance;
    int line, col; /* first XPBD key's line and column, 0 if none      */
} mech_xjoint;

typedef struct {
    char name[MECH_NAME_MAX];
    int parent; /* index of the parent body, -1 = base; always < own index */
    mech_joint_type joint;
    double axis[3];      /* unit joint axis in the body frame (revolute, prismatic, cylindrical) */
    double pos[3];       /* tree translation: body origin in parent frame at q = 0 */
    double rot[9];       /* tree rotation R (row-major): body axes in parent frame at q = 0 */
    double mass;         /* kg, > 0                                       */
    double com[3];       /* centre of mass, body frame                    */
    double inertia[9];   /* rotational inertia about the CoM, body frame, symmetric PD */
    double armature;     /* revolute/prismatic: rotor inertia added to H's diagonal
                              (kg m^2 revolute, kg prismatic), >= 0; 0 by default */
    double frictionloss; /* revolute/prismatic: dry friction bound of the joint (N m or N), >= 0; 0 by default */
    int fext;            /* 1 = reads its fext slots                      */
    int qidx, vidx;      /* first slot in q and in qd/tau                 */
    int nq, nv;          /* per joint type, see mech_joint_type           */
    double q0[7];        /* initial joint position (nq entries)          */
    double qd0[6];       /* initial joint velocity (nv entries)          */
    mech_xjoint xj;      /* XPBD limit, drive, compliance of the tree joint */
    int line;            /* line of the `body` keyword                    */
    int col;             /* column of its name                            */
} mech_body;

typedef struct {
    char name[MECH_NAME_MAX];
    int body;
    double pos[3]; /* in the body frame                             */
    int line;
} mech_poi;

/* A loop-closing joint (RBDA ch. 8): constraints, never coordinates.  Each
 * side carries a loop frame fixed in its body (origin pos, axes rot: columns
 * in body coordinates); the joint axis is the frames' z.  The constraint rows
 * (docs/conventions.md, "Closed loops") in order:
 *   revolute     3 translations (pred x, y, z), 2 rotations (zs . xp, zs . yp)
 *   prismatic    2 translations (pred x, y),    3 rotations (zs . xp, zs . yp, ys . xp)
 *   cylindrical  2 translations (pred x, y),    2 rotations (zs . xp, zs . yp)
 *   spherical    3 translations (pred x, y, z)
 *   point-on-line 2 translations (pred x, y): the successor's origin on the
 *                predecessor's z line
 *   distance     1: (|ps - pp|^2 - length^2) / 2                           */
typedef enum {
    MECH_LOOP_REVOLUTE,
    MECH_LOOP_PRISMATIC,
    MECH_LOOP_CYLINDRICAL,
    MECH_LOOP_SPHERICAL,
    MECH_LOOP_POINT_ON_LINE,
    MECH_LOOP_DISTANCE
} mech_loop_type;

typedef struct {
    char name[MECH_NAME_MAX];
    mech_loop_type type;
    int pred, succ;          /* body indices, -1 = base; never equal         */
    double ppos[3], prot[9]; /* loop frame on the predecessor, its body frame */
    double spos[3], srot[9]; /* loop frame on the successor                  */
    double length;           /* distance loops: rod length (m), > 0           */
    double stab;             /* Baumgarte time constant T (s): alpha = beta = 1/T */
    int nc, cidx;            /* constraint rows and the first row in K        */
    mech_xjoint xj;          /* XPBD options (revolute, prismatic, spherical) */
    int line, col;           /* of the `loop` line and its name               */
} mech_loop;

/* Translational spring-damper-actuator between two POIs.  Tension (pulls the
 * anchors together): f = k (l - l0) + c ldot + act[act]. */
typedef struct {
    char name[MECH_NAME_MAX];
    int poi_a, poi_b; /* indices into mech_model.pois, on different bodies */
    double k, c, l0;
    int act;       /* slot in act[], or -1 (no input)               */
    int line, col; /* of the `tsda` line and its name               */
} mech_tsda;

/* Rotational (or, on a prismatic joint, translational) spring-damper-actuator
 * on a tree joint's own coordinate: tau_e = -k (q - q0) - c qd + act[act]. */
typedef struct {
    char name[MECH_NAME_MAX];
    int body;        /* its revolute or prismatic joint               */
    double k, c, q0; /* q0 in rad (revolute) or m (prismatic)         */
    int act;
    int line, col; /* of the `rsda` line and its name               */
} mech_rsda;

/* An actuator on a tree joint's coordinate, MuJoCo's affine law
 * (MuJoCo docs, "Actuation model"): with length l = gear q and velocity
 * ld = gear qd,
 *   force = clamp(gain clamp(ctrl, ctrlrange) + bias[0] + bias[1] l + bias[2] ld, forcerange)
 *   tau_e += gear force
 * each clamp only where limited.  The kinds are shorthands for gain and bias:
 *   motor     gain 1,  bias 0 0 0
 *   position  gain kp, bias 0 -kp -kv    (ctrl: the target coordinate)
 *   velocity  gain kv, bias 0 0 -kv      (ctrl: the target velocity)
 *   general   gain and bias as given. */
typedef enum { MECH_ACT_MOTOR, MECH_ACT_POSITION, MECH_ACT_VELOCITY, MECH_ACT_GENERAL } mech_actuator_kind;

typedef struct {
    char name[MECH_NAME_MAX];
    mech_actuator_kind kind;
    int body;             /* its revolute or prismatic joint, or -1: on a tendon */
    int tendon;           /* its tendon (mech_model.tendons), or -1: on a joint; then
                           * l = gear L, ld = gear Ld and tau_e_j += coef_j gear force */
    double gear;          /* != 0                                          */
    double kp, kv;        /* position, velocity: as given (else 0)         */
    double gain, bias[3]; /* the law above, from the kind                  */
    int ctrllimited, forcelimited;
    double ctrlrange[2], forcerange[2]; /* SI: N m, N, rad, m, rad/s as ctrl reads */
    int act;                            /* its ctrl: slot in act[]        */
    int line, col;                      /* of the `actuator` line and its name */
} mech_actuator;

/* A fixed tendon (`tendon` block, docs/mech-format.md "Tendons"; MuJoCo
 * docs, "Tendons", fixed): a length L = sum_j coef_j q_j over revolute or
 * prismatic joints, its rate Ld = sum_j coef_j qd_j; the passive force
 * f = -stiffness (L - springlength) - damping Ld acts as tau_e_j += coef_j f,
 * and a limited tendon keeps lo <= L <= hi through the constraint solve. */
typedef struct {
    char name[MECH_NAME_MAX];
    int njoint;
    int body[MECH_MAX_TENDON_JOINTS]; /* revolute or prismatic, each once */
    double coef[MECH_MAX_TENDON_JOINTS];
    double stiffness, damping, springlength; /* >= 0, >= 0; 0 by default */
    int limited;
    double range[2]; /* limited: lo < hi */
    int line, col;   /* of the `tendon` line and its name */
} mech_tendon;

/* An equality constraint (`equality` block, docs/mech-format.md
 * "Equality constraints"; MuJoCo docs, "Equality"), bilateral rows of the
 * constraint solve with their own soft-constraint parameters:
 *   joint    q_a = c0 + c1 q_b + c2 q_b^2 + c3 q_b^3 + c4 q_b^4 (b may be
 *            absent, b = -1: q_a = c0), both revolute or prismatic; 1 row;
 *   connect  the point anchor of body a (its frame) and the same point of
 *            body b (-1: the world) at the initial state coincide; 3 rows. */
typedef enum { MECH_EQ_JOINT, MECH_EQ_CONNECT } mech_equality_type;

typedef struct {
    char name[MECH_NAME_MAX];
    mech_equality_type type;
    int a, b;                    /* body indices; b may be -1              */
    double polycoef[5];          /* joint                                   */
    double anchor[3];            /* connect: on a, in its frame              */
    double solref[2], solimp[3]; /* MuJoCo's defaults 0.02 1, 0.9 0.95 0.001 */
    int line, col;               /* of the `equality` line and its name     */
} mech_equality;

/* A named state (`keyframe` block): q (nq), qd (nv) and ctrl (nu), each
 * entry the model's initial state (or ctrl 0) unless the block sets it. */
typedef struct {
    char name[MECH_NAME_MAX];
    double *q, *qd, *ctrl; /* owned by the model */
    int line, col;
} mech_keyframe;

/* An XPBD pose target (`servo` block): drives rows of the successor frame
 * relative to the predecessor frame, pos = R_pᵀ(x_s − x_p) (rows x y z) and
 * the rotation vector of R_pᵀ R_s (rows rx ry rz).  XPBD only. */
typedef struct {
    char name[MECH_NAME_MAX];
    int pred, succ; /* body indices, -1 = base                   */
    double ppos[3], prot[9], spos[3], srot[9];
    unsigned rows; /* bit k: row k (x y z rx ry rz) is driven    */
    mech_signal value[6];
    double compliance;
    int line, col; /* of the `servo` line and its name          */
} mech_xtarget;

typedef enum { MECH_XPBD_ROWS, MECH_XPBD_BLOCK, MECH_XPBD_SCALAR } mech_xpbd_mode;

/* Work caps of the `xpbd` block (docs/mech-format.md, "XPBD scenes"), so no
 * file asks for a step that runs for minutes: substeps x iterations x
 * (bodies + joints + MECH_XPBD_ROD_ELEMENT_WORK x rod elements) <= MECH_XPBD_MAX_WORK. */
#define MECH_XPBD_MAX_SUBSTEPS 10000
#define MECH_XPBD_MAX_ITERATIONS 1000
#define MECH_XPBD_ROD_ELEMENT_WORK 128
#define MECH_XPBD_MAX_WORK 1e7

/* `xpbd` block: step settings of an XPBD run (defaults when absent). */
typedef struct {
    int line;                 /* 0: no block, the defaults                  */
    double dt;                /* s, default 0.01                            */
    int substeps, iterations; /* default 10, 1                              */
    mech_xpbd_mode mode;      /* default block                              */
} mech_xpbd_settings;

/* A Cosserat rod (`rod` block, docs/mech-format.md "Rods"; XPBD only, see
 * core/xpbd/rod.h and docs/rods.md).  Values SI.  The rest shape is given in
 * a local frame and placed by x_world = origin + frame x_local. */
typedef enum { MECH_ROD_RIGID, MECH_ROD_LINEAR, MECH_ROD_QUADRATIC, MECH_ROD_CUBIC } mech_rod_disc;
typedef enum { MECH_ROD_STRAIGHT, MECH_ROD_HELIX, MECH_ROD_POINTS } mech_rod_shape;

/* mech_rod_end.hold: what holds the end (the values of rod.h's
 * XPBD_ROD_CLAMP and XPBD_ROD_PIN, copied as they are). */
enum {
    MECH_ROD_CLAMP = 1, /* `clamp`: position and orientation held    */
    MECH_ROD_PIN = 2
}; /* `pin`: position held, orientation free    */

typedef struct {
    int hold;       /* 0: free end, MECH_ROD_CLAMP or MECH_ROD_PIN */
    int body;       /* held by: body index, −1 = the ground        */
    double move[3]; /* ground clamp or pin: prescribed displacement (world, m) */
    double twist;   /* ground clamp: rotation about the end's rest tangent (rad) */
    double ramp;    /* s: move and twist ramp linearly from 0 over ramp, then hold (0 = at once) */
    int line;       /* line of its `clamp` or `pin`, 0 if free   */
} mech_rod_end;

typedef struct {
    char name[MECH_NAME_MAX];
    mech_rod_disc disc;                   /* default linear                             */
    int elements;                         /* default 1                                  */
    int full_integration;                 /* 0: reduced (default), 1: full              */
    int gauss_seidel;                     /* solver: 0 block-banded (default), 1 Gauss–Seidel */
    double length;                        /* m (straight; helix and points derive it)   */
    double diameter, E, nu, rho, damping; /* m, Pa, -, kg/m^3, Pa s         */
    mech_rod_shape shape;
    double coil_radius, pitch, turns; /* helix: m, m per turn, turns   */
    int npoints;                      /* points: >= 2, 3 each (local frame, m)     */
    double *points;                   /* owned by the model                        */
    double origin[3], frame[9];       /* placement, frame row-major    */
    mech_rod_end end[2];              /* [0] start (s = 0), [1] end (s = L)        */
    int visual;                       /* 1: display only; else it collides as a swept circle of its diameter */
    double mu_s, mu_d;                /* static and dynamic friction (MECH_DEFAULT_MU_*) */
    double restitution;               /* in [0, 1], default MECH_DEFAULT_RESTITUTION */
    float rgba[4];                    /* display colour; alpha 0 = viewer's choice */
    int line, col;                    /* of the `rod` line and its name            */
} mech_rod;

/* A roller a band wraps (`roller` line of a `track` block): a body whose
 * centre lies in the band plane, turning about the pin axis. */
typedef struct {
    int body;         /* the roller body                               */
    double radius;    /* m: pitch radius (end rollers), rim radius (road wheels) */
    int end;          /* 1: a path-defining end pulley (sprocket, idler): the pin law;
                            * 0: a road wheel on the shoes' running face: the face law */
    int drive;        /* 1: the drive sprocket: the tooth law, no Coulomb friction */
    int teeth;        /* drive: tooth count N (> 0), else 0            */
    double centre[2]; /* x, z of its centre in the root frame at the design pose */
    int line;
} mech_roller;

/* A track band (`track` block, docs/mech-format.md "Tracks"), expanded by
 * the parser into nshoe ordinary bodies shoe0 .. shoe0 + nshoe - 1 (a
 * floating anchor shoe, then a chain of revolute pins about the pin axis,
 * all `fext 1`) and one point-on-line loop closing the last shoe's trailing
 * pin onto the anchor's.  A shoe's frame is at its leading pin: x along
 * the band to the next pin (at x = link), y the pin axis (the root's +y),
 * z = x × y towards the rollers; the ground pad is the plate z = pad_z, the
 * running face z = pad_z + thickness.  The design pose (the belt laid around
 * the convex hull of the roller circles) is the shoes' q0. */
typedef struct {
    char name[MECH_NAME_MAX];
    int root;                                       /* body whose frame holds the band geometry (the hull) */
    int nshoe, shoe0;                               /* shoe count and the first shoe's body index    */
    int loop;                                       /* index of the closing loop in mech_model.loops */
    double pitch;                                   /* declared pin-to-pin distance (advisory), m    */
    double link;                                    /* pin-to-pin used: perimeter / nshoe            */
    double perimeter;                               /* belt length around the hull, m               */
    double plane_y;                                 /* root-frame y of the band plane (the rollers' common y) */
    double shoe_mass, shoe_com[3], shoe_inertia[9]; /* per shoe, shoe frame */
    double pad_z, pad_length, pad_width; /* ground plate: shoe-local z, footprint along x (centred on link/2) and y */
    double thickness;                    /* shoe plate thickness: the running face is at pad_z + thickness */
    double kn, kt, mu;                   /* pair stiffness N/m, tangential stiffness, friction coefficient */
    double zeta;                         /* damping as a fraction of critical (default 0.2) */
    double veps;                         /* regularized Coulomb's slip scale, m/s (default 0.01) */
    int nroller;
    mech_roller rollers[MECH_MAX_ROLLERS];
    int line, col; /* of the `track` line and its name              */
} mech_track;

/* The terrain the ground law reads (`ground` block): a height field
 * z = h(x, y) in the base frame, with its first derivatives. */
typedef enum {
    MECH_GROUND_NONE,  /* no ground block                              */
    MECH_GROUND_PLANE, /* h = z0 + sx x + sy y (a sloped plane)         */
    MECH_GROUND_GRID   /* bicubic (C1) interpolation of samples on a regular grid */
} mech_ground_type;

typedef enum { MECH_FRICTION_REGULARIZED, MECH_FRICTION_ANCHORED } mech_friction;

typedef struct {
    mech_ground_type type;
    double z0, sx, sy;      /* plane: height at the origin and slopes dh/dx, dh/dy */
    int nx, ny;             /* grid: samples along x and y (each >= 2)       */
    double x0, y0, dx, dy;  /* grid: first sample's position and spacing, m  */
    double *h;              /* grid: nx * ny heights, row-major by y (h[j * nx + i]), owned */
    double kn, kt, mu;      /* per pad corner: N/m, N/m (anchored, default kn), - */
    double zeta, veps;      /* damping fraction of critical, slip scale m/s  */
    mech_friction friction; /* default regularized                           */
    int line;               /* of the `ground` line, 0 if none               */
} mech_ground;

/* The Featherstone constraint solve (`contact` line, docs/contact.md "The
 * constraint solve"): MuJoCo's soft-constraint parameters and the
 * projected Gauss–Seidel's budget. */
typedef struct {
    int line;         /* of the `contact` line; 0: none, body colliders do not collide on Featherstone */
    double solref[2]; /* time constant (s) and damping ratio; default 0.02 1 */
    double solimp[3]; /* impedance d0, dwidth and width (m); default 0.9 0.95 0.001 */
    double impratio;  /* friction rows' impedance ratio; default 1 */
    int iterations;   /* Gauss–Seidel sweeps at most; default 100 */
    double tolerance; /* stop when no force changes more than this (N, N m); default 1e-10 */
} mech_solver;

#define MECH_MAX_EXCLUDES 4096
#define MECH_MAX_SOLVER_ITERATIONS 10000

/* A tire on a wheel (`tire` block, docs/mech-format.md "Tires"): the
 * wheel is a revolute body whose joint axis is the spin axis and whose
 * origin is the wheel centre; the contact stage (core/contact/tire.c) runs
 * the Fiala law after Project Chrono's Fiala tire against the ground. */
#define MECH_MAX_TIRES 16
#define MECH_MAX_TIRE_CURVE 32 /* points of the vertical force curve */
typedef struct {
    char name[MECH_NAME_MAX];
    int body;                             /* the wheel body (revolute)                    */
    double radius, width;                 /* unloaded radius, width, m                    */
    int ncurve;                           /* vertical curve points (0: the linear kz)      */
    double curve[MECH_MAX_TIRE_CURVE][2]; /* deflection m, force N; increasing from (0, 0) */
    double kz, cz;                        /* linear vertical stiffness N/m, damping N s/m */
    double cslip, calpha;                 /* dFx/dkappa N, dFy/dalpha N/rad               */
    double umin, umax;                    /* friction at full and at no slip              */
    double mu;                            /* the ground friction they were measured on    */
    double rolling;                       /* rolling resistance: My = rolling Fz          */
    double relax_x, relax_y;              /* relaxation lengths, m                        */
    int line, col;                        /* of the `tire` line and its name              */
} mech_tire;

/* A bump stop on a tsda (`stop` block, docs/mech-format.md "Stops"): after
 * Project Chrono's HMMWV shock, the tsda's damping rate c becomes `rate`
 * while it compresses at or below the bump length and while it extends at or
 * above the rebound length; the contact stage (core/contact/stop.c) adds the
 * difference along the tsda's line. */
#define MECH_MAX_STOPS 64
typedef struct {
    char name[MECH_NAME_MAX];
    int tsda;                            /* index into mech_model.tsdas; both its bodies read fext */
    int bump, rebound;                   /* 1 when the side is given                               */
    double bump_length, bump_rate;       /* m, N s/m */
    double rebound_length, rebound_rate; /* m, N s/m */
    int line, col;                       /* of the `stop` line and its name                        */
} mech_stop;

typedef struct mech_model {
    char name[MECH_NAME_MAX];   /* file stem, or the name given       */
    char description[256];      /* `description` line, may be empty   */
    double gravity[3];          /* physical vector, m/s^2             */
    mech_integrator integrator; /* Featherstone stepping, default Verlet */
    int nb, nq, nv;             /* bodies (excluding base), coordinates */
    int npoi, nshape, nstatic;
    mech_body *bodies; /* nb, topologically ordered          */
    mech_poi *pois;
    mech_shape *shapes;
    mech_shape *statics; /* `static` colliders (plane, box): body -1, world frame */
    int nmesh;           /* `mesh` assets                       */
    mech_mesh *meshes;
    int nloop, nc;          /* loop joints, constraint rows        */
    int ntsda, nrsda, nact; /* force elements, input slots: the elements'
                               * inputs, then each actuator's ctrl        */
    int nu;                 /* actuators; their ctrl is act[nact - nu ..) */
    mech_actuator *actuators;
    int ntendon; /* fixed tendons                        */
    mech_tendon *tendons;
    int nequality; /* equality constraints                 */
    mech_equality *equalities;
    int nkey, initial_key; /* keyframes; the one the initial state is, or -1 */
    mech_keyframe *keys;
    mech_loop *loops;
    mech_tsda *tsdas;
    mech_rsda *rsdas;
    mech_xpbd_settings xpbd; /* XPBD step settings                  */
    int nxtarget;            /* XPBD pose targets                   */
    mech_xtarget *xtargets;
    int nrod; /* Cosserat rods (XPBD only)           */
    mech_rod *rods;
    int ntrack; /* track bands (their shoes are bodies) */
    mech_track *tracks;
    mech_ground ground; /* type MECH_GROUND_NONE: no ground    */
    mech_solver solver; /* the Featherstone constraint solve's settings */
    int nexclude;       /* `exclude` pairs: body indices (-1 the base) that never touch */
    int (*exclude)[2];

    int ntire; /* tires on wheel bodies (on the ground) */
    mech_tire *tires;
    int nstop; /* bump stops on tsdas */
    mech_stop *stops;
    int nwarning; /* what loads but is suspect (mech_model_warning) */
    mech_error warnings[MECH_MAX_WARNINGS];
} mech_model;

/* The damping an implicit step integrates on velocity j (MuJoCo docs,
 * "Numerical integration", implicitfast): -d(tau_e_j)/d(qd_j) of the rsdas
 * (c), the actuators' velocity bias (-gear^2 bias[2]) on that joint and of
 * the tendons through it (coef_j^2 damping, and -coef_j^2 gear^2 bias[2] of
 * their actuators): the diagonal of D.  A damped tendon over two joints
 * or more also couples them (D's off-diagonal coef_i coef_j terms), which
 * stay explicit; the parser warns of it. */
double mech_model_joint_damping(const mech_model *m, int j);
/* coef_j^2 of velocity j in tendon t (0 when the tendon does not pass it). */
double mech_tendon_coef2(const mech_tendon *t, const mech_model *m, int j);

/* The step h an implicit step integrates the damping over: act[nact] of a
 * model whose integrator is implicit (the engine sets it before each step,
 * 0 in forward()), else 0.  act may be NULL (0). */
static inline double mech_model_implicit_step(const mech_model *m, const double *act)
{
    return m->integrator == MECH_INTEGRATOR_IMPLICIT && act ? act[m->nact] : 0.0;
}

/* mech_model_parse, mech_model_load, mech_model_free and the accessors:
 * mech/model.h. */

/* A joint type's word in .mech ("revolute", ..., "cylindrical"). */
const char *mech_joint_name(mech_joint_type j);

/* 1 when m has a track band, a ground, a tire or a stop: the models the contact stage
 * (core/contact/contact.h) runs on. */
int mech_model_has_contact(const mech_model *m);

/* The step a contact model takes unless the user sets one
 * (mech_model_options): MECH_CONTACT_SAMPLES samples per contact period
 * 2 pi sqrt(m / kn), the tightest over the bands, the ground's pads and
 * the tires (a wheel against its vertical curve's stiffest slope)
 * (docs/contact.md, "The step"). */
#define MECH_CONTACT_SAMPLES 90
double mech_model_contact_step(const mech_model *m);

/* 1 when shape s is a collider: not `visual`, and a mesh shape only once
 * its mesh has a hull (mech_model_set_mesh_hull; mesh_hull.c). */
int mech_shape_collides(const mech_model *m, const mech_shape *s);

#endif
