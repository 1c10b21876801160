/* parse_internal.h — the parser's state and helpers, shared by parse.c (the
 * mechanism: bodies, POIs, loops, force elements) and parse_xpbd.c (the XPBD
 * keys, the `xpbd` settings block and `servo` blocks).  Internal to
 * core/model; the public interface is model.h. */
#ifndef MECH_PARSE_INTERNAL_H
#define MECH_PARSE_INTERNAL_H

#include "model/lex.h"
#include "model/model.h"

#define DEG (3.14159265358979323846 / 180.0)
#define QUOTE_MAX 40            /* characters of a token shown in a message */
#define AXIS_EXPECT "an axis (x, y, z, -x, -y, -z or 3 numbers)"

enum { K_PARENT, K_JOINT, K_POS, K_ROT, K_MASS, K_COM, K_INERTIA, K_ARMATURE, K_FEXT, K_Q0, K_QD0, K_COUNT };
enum { L_TYPE, L_PRED, L_SUCC, L_PPOS, L_PROT, L_PAXIS, L_SPOS, L_SROT, L_SAXIS, L_LENGTH, L_STAB, L_COUNT };
enum { E_FROM, E_TO, E_JOINT, E_K, E_C, E_L0, E_Q0, E_INPUT, E_COUNT };

enum { B_NONE, B_BODY, B_LOOP, B_ELEM, B_XPBD, B_SERVO, B_ROD, B_TRACK, B_GROUND };   /* the open block */

/* XPBD joint keys (body and loop blocks): where each was seen, 0 = not. */
enum { XJ_LIMIT, XJ_SWING, XJ_DRIVE, XJ_TARGET, XJ_COMPLIANCE, XJ_COUNT };
typedef struct {
    int line[XJ_COUNT], col[XJ_COUNT];
    int ntarget;                /* signals on the target line */
} raw_xj;

/* `xpbd` block keys. */
enum { XP_DT, XP_SUBSTEPS, XP_ITERATIONS, XP_MODE, XP_SET_COUNT };

/* `servo` block keys: the frames of a loop, then the six rows and compliance. */
enum { T_PRED, T_SUCC, T_PPOS, T_PROT, T_SPOS, T_SROT, T_X, T_Y, T_Z, T_RX, T_RY, T_RZ, T_COMPLIANCE, T_COUNT };
typedef struct {
    mech_xtarget t;
    char pred[MECH_NAME_MAX], succ[MECH_NAME_MAX];
    int name_col;
    int key_line[T_COUNT], key_col[T_COUNT], val_col[T_COUNT];
} raw_servo;

typedef struct {
    mech_body b;
    char parent[MECH_NAME_MAX];
    int parent_col, name_col;
    int key_line[K_COUNT], key_col[K_COUNT];   /* line 0 = key not seen */
    lex_line q0, qd0;           /* kept until the joint type is known */
    raw_xj xj;
} raw_body;

typedef struct {
    mech_poi p;
    char body[MECH_NAME_MAX];
    int body_col;
} raw_poi;

typedef struct {
    mech_loop l;
    char pred[MECH_NAME_MAX], succ[MECH_NAME_MAX];
    int name_col, type_set;
    int key_line[L_COUNT], key_col[L_COUNT], val_col[L_COUNT];
    raw_xj xj;
} raw_loop;

typedef struct {
    int rsda;                   /* 0 tsda, 1 rsda */
    char name[MECH_NAME_MAX];
    char ref[3][MECH_NAME_MAX]; /* from, to (POIs) / joint (a body), by E_FROM..E_JOINT */
    double val[E_COUNT];        /* k, c, l0, q0 by their E_ index */
    int name_col, line;
    int key_line[E_COUNT], key_col[E_COUNT], val_col[E_COUNT];
} raw_elem;

typedef struct {
    lex_src src;
    lex_line ln;
    mech_error *err;
    int failed;
    mech_model *m;
    raw_body *bodies;
    int nbodies, cap_bodies, cur;               /* cur: open block's index, or -1 */
    int block;                                  /* B_NONE, B_BODY, ... */
    raw_poi *pois;
    int cap_pois, cap_shapes, cap_statics;
    raw_loop *loops;
    int nloops, cap_loops;
    raw_elem *elems;
    int nelems, cap_elems;
    raw_servo *servos;
    int nservos, cap_servos;
    int desc_line, grav_line, integrator_line;
    int xpbd_key_line[XP_SET_COUNT];           /* keys seen in the xpbd block */
    int xpbd_val_col[XP_SET_COUNT];            /* and their values' columns */
    struct raw_rod *rods;                      /* parse_rod.c */
    int nrods, cap_rods;
    struct raw_track *tracks;                  /* parse_track.c */
    int ntracks, cap_tracks;
    struct raw_ground *ground;                 /* parse_ground.c */
} parser;

/* parse.c: errors, tokens and values (all return 0, or -1 with the error set). */
int mp_fail(parser *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
const char *mp_quote(const lex_tok *t, char buf[QUOTE_MAX + 4]);
int mp_fail_at(parser *p, const lex_tok *t, const char *what, const char *rest);

/* 1 when kw opens a top-level statement: inside a block it means a missing 'end'. */
int mp_is_top_keyword(const lex_tok *kw);
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
/* A collider's material: friction <static> <dynamic> (0 <= dynamic <= static)
 * and restitution <e> (in [0, 1]), the values after the keyword. */
int mp_read_friction(parser *p, double *mu_s, double *mu_d);
int mp_read_restitution(parser *p, double *e);
int mp_read_body_ref(parser *p, const char *key, char out[MECH_NAME_MAX], int *col);
/* Room for one more element in a growing array of n elements of `elem`
 * bytes: at most max ("too many <what>: at most <max>" at column col). */
int mp_grow(parser *p, void **arr, int *cap, int n, size_t elem, int max, const char *what, int col);
void mp_frame_from_axis(const double a[3], double R[9]);

/* parse_xpbd.c */
/* A limit / swing / drive / target / compliance line in a body or loop
 * block: 1 if kw is one of them (handled, or failed with the error set:
 * check p->failed), 0 if not. */
int xp_joint_line(parser *p, const lex_tok *kw, mech_xjoint *xj, raw_xj *rx, const char *block, const char *name);
/* At `end` of a body / loop: the keys must suit the joint type. */
int xp_check_body(parser *p, mech_body *b, const raw_xj *rx);
int xp_check_loop(parser *p, mech_loop *l, const raw_xj *rx);
/* 1 if kw is one of those keys (for the message outside a block). */
int xp_is_joint_key(const lex_tok *kw);
/* `xpbd` and `servo` blocks: open, one line inside, end of file inside. */
int xp_top_xpbd(parser *p, const lex_tok *kw);
int xp_xpbd_line(parser *p, const lex_tok *kw);
int xp_top_servo(parser *p, const lex_tok *kw);
int xp_servo_line(parser *p, const lex_tok *kw);
int xp_unclosed(parser *p);
/* After the bodies are stored: servo bodies by name. */
int xp_store_servos(parser *p);
/* After everything is stored: one XPBD step's work within XPBD_MAX_WORK. */
int xp_check_work(parser *p);

/* parse_rod.c: `rod` blocks (docs/mech-format.md, "Rods"). */
int rod_top(parser *p, const lex_tok *kw);
int rod_line(parser *p, const lex_tok *kw);
int rod_unclosed(parser *p);
/* After the bodies are stored: clamp bodies by name, rods into the model. */
int rod_store(parser *p);
void rod_parse_free(parser *p);
/* Where rod i's size is given: its `elements` value, else its name. */
void rod_size_place(const parser *p, int i, int *line, int *col);

/* `track` block keys (the `roller` lines aside, which repeat). */
enum { TK_ROOT, TK_PLANE, TK_SHOES, TK_PITCH, TK_MASS, TK_COM, TK_INERTIA, TK_FEXT, TK_PAD, TK_THICKNESS,
       TK_KN, TK_KT, TK_MU, TK_ZETA, TK_VEPS, TK_COUNT };
typedef struct raw_track {
    mech_track t;
    char root[MECH_NAME_MAX];
    char roller[MECH_MAX_ROLLERS][MECH_NAME_MAX];
    int roller_col[MECH_MAX_ROLLERS];          /* of each roller's body name */
    int name_col, root_col;
    int key_line[TK_COUNT], key_col[TK_COUNT], val_col[TK_COUNT];
} raw_track;

/* parse_track.c: `track` blocks (docs/mech-format.md, "Tracks"). */
int track_top(parser *p, const lex_tok *kw);
int track_line(parser *p, const lex_tok *kw);
/* An unclosed track or ground block at the end of the file. */
int track_unclosed(parser *p);
/* After the hand-written bodies are stored: expand every band into its shoe
 * bodies and closing loop (track_belt.c lays the design pose), then store
 * the ground. */
int track_store(parser *p);
void track_parse_free(parser *p);
/* track_expand.c: one band's rollers located, its shoes and loop added. */
int track_expand(parser *p, raw_track *rt);

/* parse_ground.c: the `ground` block (docs/mech-format.md, "Ground"). */
int ground_top(parser *p, const lex_tok *kw);
int ground_line(parser *p, const lex_tok *kw);
int ground_unclosed(parser *p);
/* Into the model (owns the grid heights from then on). */
void ground_store(parser *p);
void ground_parse_free(parser *p);

/* Warnings: kept in the model, never fatal (mech_model_warning). */
void mp_warn(parser *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
