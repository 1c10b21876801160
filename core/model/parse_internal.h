/* parse_internal.h — the parser's state and helpers, shared by its files:
 * parse.c (the entry point and top-level statements), parse_block.c (the
 * block driver), parse_values.c (errors and values) and one file per block
 * kind (parse_body.c, parse_loop.c, parse_springs.c, parse_xpbd.c,
 * parse_rod.c, parse_track.c, parse_ground.c, parse_tire.c).  Internal to core/model; the
 * public interface is model.h. */
#ifndef MECH_PARSE_INTERNAL_H
#define MECH_PARSE_INTERNAL_H

#include "model/lex.h"
#include "model/model.h"
#include "model/parse_block.h"

#define DEG (3.14159265358979323846 / 180.0)
#define QUOTE_MAX 40 /* characters of a token shown in a message */
#define AXIS_EXPECT "an axis (x, y, z, -x, -y, -z or 3 numbers)"

/* XPBD joint keys, rows of the body and loop tables from K_XJ / L_XJ on. */
enum { XJ_LIMIT, XJ_SWING, XJ_DRIVE, XJ_TARGET, XJ_COMPLIANCE, XJ_COUNT };
/* clang-format off */
#define XJ_KEY_ROWS(first, reader) \
    [first + XJ_LIMIT] = { .word = "limit", .read = reader, .arg = XJ_LIMIT }, \
    [first + XJ_SWING] = { .word = "swing", .read = reader, .arg = XJ_SWING }, \
    [first + XJ_DRIVE] = { .word = "drive", .read = reader, .arg = XJ_DRIVE }, \
    [first + XJ_TARGET] = { .word = "target", .read = reader, .arg = XJ_TARGET }, \
    [first + XJ_COMPLIANCE] = { .word = "compliance", .read = reader, .arg = XJ_COMPLIANCE }
/* clang-format on */

/* `xpbd` block keys. */
enum { XP_DT, XP_SUBSTEPS, XP_ITERATIONS, XP_MODE, XP_SET_COUNT };

/* `track` block keys, in the order of its table. */
enum {
    TK_ROOT,
    TK_PLANE,
    TK_SHOES,
    TK_PITCH,
    TK_MASS,
    TK_COM,
    TK_INERTIA,
    TK_FEXT,
    TK_ROLLER,
    TK_PAD,
    TK_THICKNESS,
    TK_KN,
    TK_KT,
    TK_MU,
    TK_ZETA,
    TK_VEPS,
    TK_COUNT
};
typedef struct raw_track {
    mech_track t;
    char root[MECH_NAME_MAX];
    char roller[MECH_MAX_ROLLERS][MECH_NAME_MAX];
    int roller_col[MECH_MAX_ROLLERS]; /* of each roller's body name */
    block_seen seen;
} raw_track;

struct parser {
    lex_src src;
    lex_line ln;
    mech_error *err;
    int failed;
    mech_model *m;
    open_block open;         /* the block being read */
    block_seen top_seen;     /* top-level statements given */
    int cur;                 /* open block's index, or -1 */
    struct raw_body *bodies; /* parse_body.c */
    int nbodies, cap_bodies;
    struct raw_poi *pois;
    int cap_pois, cap_shapes, cap_statics, cap_meshes;
    struct raw_loop *loops; /* parse_loop.c */
    int nloops, cap_loops;
    struct raw_elem *elems; /* parse_springs.c */
    int nelems, cap_elems;
    struct raw_servo *servos; /* parse_xpbd.c */
    int nservos, cap_servos;
    block_seen xpbd_seen; /* keys of the xpbd block */
    struct raw_rod *rods; /* parse_rod.c */
    int nrods, cap_rods;
    struct raw_track *tracks; /* parse_track.c */
    int ntracks, cap_tracks;
    struct raw_ground *ground; /* parse_ground.c */
    struct raw_exclude {       /* parse_contact.c */
        char name[2][MECH_NAME_MAX];
        int line, col[2];
    } * excludes;
    int nexcludes, cap_excludes;
    struct raw_tire *tires; /* parse_tire.c */
    int ntires, cap_tires;
    struct raw_stop *stops; /* parse_stop.c */
    int nstops, cap_stops;
    struct raw_actuator *actuators; /* parse_actuator.c */
    int nactuators, cap_actuators;
    struct raw_tendon *tendons; /* parse_tendon.c */
    int ntendons, cap_tendons;
    struct raw_equality *equalities; /* parse_equality.c */
    int nequalities, cap_equalities;
    struct raw_keyframe *keyframes;
    int nkeyframes, cap_keyframes;
    struct key_line *key_lines; /* every keyframe's q, qd and ctrl lines */
    int nkey_lines, cap_key_lines;
    char initial[MECH_NAME_MAX]; /* `initial`: a keyframe's name, or "" */
    int initial_line, initial_col;
};

/* parse_values.c: errors, tokens and values (all return 0, or -1 with the error set). */
int mp_fail(parser *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Warnings: kept in the model, never fatal (mech_model_warning). */
void mp_warn(parser *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
const char *mp_quote(const lex_tok *t, char buf[QUOTE_MAX + 4]);
int mp_fail_at(parser *p, const lex_tok *t, const char *what, const char *rest);
int mp_next_tok(parser *p, lex_tok *t, const char *key, const char *expect);
int mp_end_of_line(parser *p, const char *key, const char *expect);
int mp_to_number(parser *p, const lex_tok *t, const char *key, double *v);
int mp_read_numbers(parser *p, const char *key, const char *expect, double *v, int n);
int mp_number_line(parser *p, const char *key, double *v, int n);
int mp_read_axis(parser *p, const char *key, double axis[3]);
int mp_read_rotation(parser *p, const char *key, double R[9]);
int mp_check_name(parser *p, const lex_tok *t, const char *key);
int mp_read_name(parser *p, const char *key, char out[MECH_NAME_MAX], int *col);
/* A rotational inertia line: 3 (diagonal) or 6 numbers (xx yy zz xy xz yz), checked physical. */
int mp_read_inertia(parser *p, double I[9]);
/* #rrggbb into rgba, alpha 1. */
int mp_read_color(parser *p, float rgba[4]);
/* A collider's material: friction <static> <dynamic> (0 <= dynamic <= static)
 * and restitution <e> (in [0, 1]), the values after the keyword. */
int mp_read_friction(parser *p, double *mu_s, double *mu_d);
int mp_read_restitution(parser *p, double *e);
/* Room for one more element in a growing array of n elements of `elem`
 * bytes: at most max ("too many <what>: at most <max>" at column col). */
int mp_grow(parser *p, void **arr, int *cap, int n, size_t elem, int max, const char *what, int col);
void mp_frame_from_axis(const double a[3], double R[9]);
/* A stored body by name, -1 for base; none is an error at (line, col)
 * naming the key and its owner ("loop 'l'"). */
int mp_body_index(parser *p, const char *name, int line, int col, const char *key, const char *owner, int *b);

/* parse.c: 1 when kw opens a top-level statement: inside a block it means a missing 'end'. */
int mp_is_top_keyword(const lex_tok *kw);

/* The block kinds, each a table (parse_block.h), and the statements that open them. */
extern const block_kind body_block, loop_block, tsda_block, rsda_block, xpbd_block, servo_block, rod_block, track_block,
    ground_block, tire_block, stop_block, actuator_block, keyframe_block, tendon_block, equality_block;
int body_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int poi_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int static_top(parser *p, void *raw, const block_key *key, const lex_tok *kw); /* parse_shape.c */
int mesh_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);   /* parse_shape.c */
/* parse_shape.c: a `shape` line of the open body. */
int shape_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
/* parse_contact.c: the `contact` line, `exclude` pairs (resolved by
 * exclude_store once the bodies are stored) and the solve's defaults. */
int contact_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int exclude_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int exclude_store(parser *p);
void contact_defaults(mech_solver *s);
int loop_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int springs_top(parser *p, void *raw, const block_key *key, const lex_tok *kw); /* tsda, rsda */
int xp_top_xpbd(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int xp_top_servo(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int rod_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int track_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int ground_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int tire_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int stop_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int actuator_top(parser *p, void *raw, const block_key *key, const lex_tok *kw); /* parse_actuator.c */
int keyframe_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int initial_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);
int tendon_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);   /* parse_tendon.c */
int equality_top(parser *p, void *raw, const block_key *key, const lex_tok *kw); /* parse_equality.c */

/* parse_body.c: the bodies in tree order (parents first), the shapes' and
 * pois' bodies by name. */
int body_store(parser *p);
void body_parse_free(parser *p);
/* The rest of the line as body b's joint position (velocity 0: as its q0,
 * degrees for a revolute joint, x y z [<axis> <degrees>] for a floating
 * one) or velocity (1: as its qd0), SI into out; `key` names it in errors. */
int body_joint_values(parser *p, const mech_body *b, const char *key, int velocity, double *out);
/* parse_loop.c, parse_springs.c: loops and force elements into the model. */
int loop_store(parser *p);
int springs_store(parser *p);

/* parse_xpbd.c */
/* A limit / swing / drive / target / compliance line (a row of XJ_KEY_ROWS)
 * of a body or loop; ntarget: the signals on its target line. */
int xp_joint_key(parser *p, const block_key *key, mech_xjoint *xj, int *ntarget, const lex_tok *kw);
/* At `end` of a body / loop: the keys (rows first.. of its table) must suit
 * the joint type. */
int xp_check_body(parser *p, mech_body *b, int first, int ntarget);
int xp_check_loop(parser *p, mech_loop *l, int first, int ntarget);
/* After the bodies are stored: servo bodies by name. */
int xp_store_servos(parser *p);
/* After everything is stored: one XPBD step's work within XPBD_MAX_WORK. */
int xp_check_work(parser *p);

/* parse_rod.c: `rod` blocks (docs/mech-format.md, "Rods"). */
/* After the bodies are stored: clamp bodies by name, rods into the model. */
int rod_store(parser *p);
void rod_parse_free(parser *p);
/* Where rod i's size is given: its `elements` value, else its name. */
void rod_size_place(const parser *p, int i, int *line, int *col);

/* parse_track.c: `track` blocks (docs/mech-format.md, "Tracks"). */
/* After the hand-written bodies are stored: expand every band into its shoe
 * bodies and closing loop (track_belt.c lays the design pose), then store
 * the ground. */
int track_store(parser *p);
void track_parse_free(parser *p);
/* track_expand.c: one band's rollers located, its shoes and loop added. */
int track_expand(parser *p, raw_track *rt);

/* parse_actuator.c: after the bodies and force elements are stored, the
 * actuators (act[] slots after the elements' inputs), then the keyframes
 * and the initial one. */
int actuator_store(parser *p);
void actuator_parse_free(parser *p);

/* parse_tendon.c: after the bodies are stored, the tendons (their joints
 * by name); the index of the tendon called name, -1 when none. */
int tendon_store(parser *p);
int tendon_find(const mech_model *m, const char *name);
/* parse_equality.c: after the bodies are stored, the equality constraints
 * (connect: the anchor on the second body at the bodies' initial pose). */
int equality_store(parser *p);
/* parse_ground.c: the `ground` block (docs/mech-format.md, "Ground"). */
/* Into the model (owns the grid heights from then on). */
void ground_store(parser *p);
void ground_parse_free(parser *p);

/* parse_tire.c: `tire` blocks (docs/mech-format.md, "Tires"). */
/* After the bodies and the ground are stored: wheels by name, tires into the model. */
int tire_store(parser *p);

/* parse_stop.c: `stop` blocks (docs/mech-format.md, "Stops"). */
/* After the tsdas are stored: the tsda by name, stops into the model. */
int stop_store(parser *p);

#endif
