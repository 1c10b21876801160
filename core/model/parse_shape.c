/* parse_shape.c — a body's `shape` lines, the top-level `static`
 * colliders (docs/mech-format.md): a type, its dimensions, then options;
 * and the top-level `mesh` assets that `shape mesh` lines draw. */
#include "model/parse_internal.h"
#include "spatial/spatial.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Options of a body shape (all six) or a static collider (no `visual`). */
enum { SO_POS, SO_ROT, SO_COLOR, SO_FRICTION, SO_RESTITUTION, SO_CONTYPE, SO_CONAFFINITY, SO_VISUAL, SO_COUNT };

/* contype / conaffinity <bits>: a whole number in [0, 2^31). */
static int read_bits(parser *p, const char *key, unsigned *out)
{
    lex_tok t;
    double v;
    if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, &v)) return -1;
    if (!(v >= 0 && v < 2147483648.0 && v == (double)(long)v))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be a whole number in [0, 2^31): got %g", key, v);
    *out = (unsigned)v;
    return 0;
}
static int shape_option(parser *p, mech_shape *s, const lex_tok *t, int line[SO_COUNT], int col[SO_COUNT], int is_static)
{
    static const char *const opts[SO_COUNT] = { "pos",         "rot",     "color",       "friction",
                                                "restitution", "contype", "conaffinity", "visual" };
    int n = is_static ? SO_VISUAL : SO_COUNT, o = 0;
    while (o < n && !lex_is(t, opts[o])) o++;
    if (o == n)
        return mp_fail_at(p, t, "unknown shape option ",
                          is_static
                              ? ": expected pos, rot, color, friction, restitution, contype or conaffinity"
                              : ": expected pos, rot, color, friction, restitution, contype, conaffinity or visual");
    if (line[o]) return mp_fail(p, p->ln.no, t->col, "duplicate '%s' in shape", opts[o]);
    line[o] = p->ln.no;
    col[o] = t->col;
    switch (o) {
    case SO_POS: return mp_read_numbers(p, "shape pos", "3", s->pos, 3);
    case SO_ROT: return mp_read_rotation(p, "shape rot", s->rot);
    case SO_COLOR: return mp_read_color(p, s->rgba);
    case SO_FRICTION: return mp_read_friction(p, &s->mu_s, &s->mu_d);
    case SO_RESTITUTION: return mp_read_restitution(p, &s->restitution);
    case SO_CONTYPE: return read_bits(p, "contype", &s->contype);
    case SO_CONAFFINITY: return read_bits(p, "conaffinity", &s->conaffinity);
    default: s->visual = 1; return 0;
    }
}

/* A `shape` line of the open body, or a top-level `static` collider line
 * (plane or box, body -1). */

/* The mesh a `shape mesh` line names: a `mesh` line above it declares it. */
static int shape_mesh(parser *p, mech_shape *s)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "shape mesh", "the name of a mesh") || mp_check_name(p, &t, "shape mesh")) return -1;
    for (int i = 0; i < p->m->nmesh; i++)
        if ((int)strlen(p->m->meshes[i].name) == t.n && memcmp(p->m->meshes[i].name, t.s, (size_t)t.n) == 0) {
            s->mesh = i; /* collides through the mesh's hull unless `visual` (mesh_hull.c) */
            return 0;
        }
    return mp_fail_at(p, &t, "unknown mesh ", ": declare it with a top-level 'mesh' line above this body");
}

static int key_shape(parser *p, int col, int is_static)
{
    static const char *const types[] = { "box", "sphere", "cylinder", "capsule", "plane", "mesh" };
    static const int ndims[] = { 3, 1, 2, 2, 0, 0 };
    static const char *const dims[] = { "lx ly lz", "r", "r length", "r length", "", "" };
    mech_model *m = p->m;
    mech_shape **arr = is_static ? &m->statics : &m->shapes;
    int *count = is_static ? &m->nstatic : &m->nshape;
    if (mp_grow(p, (void **)arr, is_static ? &p->cap_statics : &p->cap_shapes, *count, sizeof **arr, MECH_MAX_SHAPES,
                is_static ? "static colliders" : "shapes", col))
        return -1;
    mech_shape *s = &(*arr)[*count];
    memset(s, 0, sizeof *s);
    m3_identity(s->rot);
    s->body = is_static ? -1 : p->cur;
    s->line = p->ln.no;
    s->mu_s = MECH_DEFAULT_MU_STATIC;
    s->mu_d = MECH_DEFAULT_MU_DYNAMIC;
    s->restitution = MECH_DEFAULT_RESTITUTION;
    s->contype = s->conaffinity = 1;
    const char *what = is_static ? "static" : "shape";
    lex_tok t;
    if (mp_next_tok(p, &t, what, is_static ? "plane or box" : "box, sphere, cylinder, capsule or mesh")) return -1;
    int ty = 0;
    while (ty < 6 && !lex_is(&t, types[ty])) ty++;
    if (is_static && ty != MECH_SHAPE_PLANE && ty != MECH_SHAPE_BOX)
        return mp_fail_at(p, &t, "unknown static collider ", ": expected plane or box");
    if (!is_static && (ty == MECH_SHAPE_PLANE || ty == 6))
        return mp_fail_at(p, &t, "unknown shape type ",
                          ty == MECH_SHAPE_PLANE
                              ? ": expected box, sphere, cylinder, capsule or mesh (a plane is a 'static' collider)"
                              : ": expected box, sphere, cylinder, capsule or mesh");
    s->type = (mech_shape_type)ty;
    if (ty == MECH_SHAPE_MESH && shape_mesh(p, s)) return -1;
    char key[24];
    snprintf(key, sizeof key, "%s %s", what, types[ty]);
    for (int i = 0; i < ndims[ty]; i++) {
        if (mp_next_tok(p, &t, key, dims[ty]) || mp_to_number(p, &t, key, &s->size[i])) return -1;
        if (!(s->size[i] > 0.0))
            return mp_fail(p, p->ln.no, t.col, "shape dimensions must be positive: got %g", s->size[i]);
    }
    int line[SO_COUNT] = { 0 }, ocol[SO_COUNT] = { 0 };
    while (lex_next(&p->ln, &t))
        if (shape_option(p, s, &t, line, ocol, is_static)) return -1;
    if (s->visual && (line[SO_FRICTION] || line[SO_RESTITUTION])) {
        int o = line[SO_FRICTION] ? SO_FRICTION : SO_RESTITUTION;
        return mp_fail(p, p->ln.no, ocol[o], "'%s' on a visual shape: a visual shape never collides",
                       o == SO_FRICTION ? "friction" : "restitution");
    }
    (*count)++;
    return 0;
}

int shape_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    return key_shape(p, kw->col, 0);
}

int static_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    return key_shape(p, kw->col, 1);
}

/* mesh <name> <file> [scale sx sy sz] [refpos x y z] [refquat w x y z]:
 * a mesh asset, its file given beside the text (docs/mech-format.md,
 * "Meshes"). */
enum { MO_SCALE, MO_REFPOS, MO_REFQUAT, MO_COUNT };
#define MESH_FORM "<name> <file.obj|file.stl> [scale sx sy sz] [refpos x y z] [refquat w x y z]"

static int mesh_file(parser *p, mech_mesh *x)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "mesh", MESH_FORM)) return -1;
    if (t.n >= MECH_PATH_MAX)
        return mp_fail(p, p->ln.no, t.col, "mesh file name too long: at most %d characters", MECH_PATH_MAX - 1);
    char ext[5] = { 0 };
    for (int i = 0; i < 4 && t.n >= 4; i++) ext[i] = (char)tolower((unsigned char)t.s[t.n - 4 + i]);
    if (strcmp(ext, ".obj") != 0 && strcmp(ext, ".stl") != 0)
        return mp_fail_at(p, &t, "mesh file ", ": expected a .obj or .stl file");
    memcpy(x->file, t.s, (size_t)t.n);
    x->file[t.n] = '\0';
    return 0;
}

static int mesh_option(parser *p, mech_mesh *x, const lex_tok *t, int seen[MO_COUNT])
{
    static const char *const opts[MO_COUNT] = { "scale", "refpos", "refquat" };
    int o = 0;
    while (o < MO_COUNT && !lex_is(t, opts[o])) o++;
    if (o == MO_COUNT) return mp_fail_at(p, t, "unknown mesh option ", ": expected scale, refpos or refquat");
    if (seen[o]) return mp_fail(p, p->ln.no, t->col, "duplicate '%s' in mesh", opts[o]);
    seen[o] = 1;
    if (o == MO_SCALE) {
        if (mp_read_numbers(p, "mesh scale", "3", x->scale, 3)) return -1;
        if (x->scale[0] == 0.0 || x->scale[1] == 0.0 || x->scale[2] == 0.0)
            return mp_fail(p, p->ln.no, t->col, "mesh scale has a zero factor: a mesh needs volume");
        return 0;
    }
    if (o == MO_REFPOS) return mp_read_numbers(p, "mesh refpos", "3", x->refpos, 3);
    if (mp_read_numbers(p, "mesh refquat", "4", x->refquat, 4)) return -1;
    double n = sqrt(x->refquat[0] * x->refquat[0] + x->refquat[1] * x->refquat[1] + x->refquat[2] * x->refquat[2] +
                    x->refquat[3] * x->refquat[3]);
    if (!(n > 0.0)) return mp_fail(p, p->ln.no, t->col, "mesh refquat is zero: not a rotation");
    for (int i = 0; i < 4; i++) x->refquat[i] /= n;
    return 0;
}

int mesh_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    mech_model *m = p->m;
    if (mp_grow(p, (void **)&m->meshes, &p->cap_meshes, m->nmesh, sizeof *m->meshes, MECH_MAX_MESHES, "meshes", kw->col))
        return -1;
    mech_mesh *x = &m->meshes[m->nmesh];
    memset(x, 0, sizeof *x);
    int col;
    if (mp_read_name(p, "mesh", x->name, &col)) return -1;
    for (int i = 0; i < m->nmesh; i++)
        if (strcmp(m->meshes[i].name, x->name) == 0)
            return mp_fail(p, p->ln.no, col, "duplicate mesh name '%s' (first on line %d)", x->name, m->meshes[i].line);
    if (mesh_file(p, x)) return -1;
    x->scale[0] = x->scale[1] = x->scale[2] = 1.0;
    x->refquat[0] = 1.0;
    x->line = p->ln.no;
    int seen[MO_COUNT] = { 0 };
    lex_tok t;
    while (lex_next(&p->ln, &t))
        if (mesh_option(p, x, &t, seen)) return -1;
    m->nmesh++;
    return 0;
}
