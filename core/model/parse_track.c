/* parse_track.c — `track` blocks (docs/mech-format.md, "Tracks"): the keys
 * of one band.  track_expand.c turns a parsed band into shoe bodies and a
 * closing loop once the hand-written bodies are placed. */
#include "model/parse_internal.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int plane_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int shoes_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int inertia_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int fext_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int roller_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int pad_key(parser *p, void *raw, const block_key *key, const lex_tok *kw);
static int finish_track(parser *p, void *raw);
static int ground_inside(parser *p, void *raw, const lex_tok *kw);

#define POSITIVE(w, field) NUMBERS(w, raw_track, t.field, 1, BOUND_POSITIVE)
_Static_assert(TK_COUNT <= BLOCK_MAX_KEYS, "block_seen holds every row");
static const block_key track_keys[TK_COUNT] = {
    [TK_ROOT] = { .word = "root", .read = block_body_ref, .off = offsetof(raw_track, root), .required = 1 },
    [TK_PLANE] = { .word = "plane", .read = plane_key },
    [TK_SHOES] = { .word = "shoes", .read = shoes_key, .required = 1 },
    [TK_PITCH] = { POSITIVE("pitch", pitch) },
    [TK_MASS] = { POSITIVE("mass", shoe_mass), .required = 1 },
    [TK_COM] = { NUMBERS("com", raw_track, t.shoe_com, 3, BOUND_ANY) },
    [TK_INERTIA] = { .word = "inertia", .read = inertia_key, .required = 1 },
    [TK_FEXT] = { .word = "fext", .read = fext_key },
    [TK_ROLLER] = { .word = "roller", .read = roller_key, .repeats = 1 },
    [TK_PAD] = { .word = "pad", .read = pad_key, .required = 1 },
    [TK_THICKNESS] = { POSITIVE("thickness", thickness), .required = 1 },
    [TK_KN] = { POSITIVE("kn", kn), .required = 1 },
    [TK_KT] = { POSITIVE("kt", kt) },
    [TK_MU] = { NUMBERS("mu", raw_track, t.mu, 1, BOUND_NONNEGATIVE), .required = 1 },
    [TK_ZETA] = { NUMBERS("zeta", raw_track, t.zeta, 1, BOUND_NONNEGATIVE) },
    [TK_VEPS] = { POSITIVE("veps", veps) },
};
const block_kind track_block = { BLOCK_KIND("track", track_keys, finish_track, ground_inside),
                                 BLOCK_RAW(raw_track, t.name, t.line) };

int track_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_track *rt = block_new(p, &track_block, "track", kw, (void **)&p->tracks, &p->ntracks, &p->cap_tracks,
                              MECH_MAX_TRACKS, "tracks");
    if (!rt) return -1;
    rt->t.col = p->open.col;
    rt->t.zeta = 0.2;
    rt->t.veps = 0.01;
    return 0;
}

static int shoes_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    raw_track *rt = raw;
    lex_tok t;
    double v;
    if (mp_next_tok(p, &t, "shoes", "1") || mp_to_number(p, &t, "shoes", &v)) return -1;
    if (v != floor(v) || v < 3.0 || v > MECH_MAX_SHOES)
        return mp_fail(p, p->ln.no, t.col, "'shoes' must be a whole number from 3 to %d: got %g", MECH_MAX_SHOES, v);
    rt->t.nshoe = (int)v;
    return mp_end_of_line(p, "shoes", "1");
}

static int plane_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    (void)kw;
    lex_tok t;
    if (mp_next_tok(p, &t, "plane", "xz")) return -1;
    if (!lex_is(&t, "xz"))
        return mp_fail_at(p, &t, "unknown band plane ", ": expected xz (the pin axis is the root's y)");
    return mp_end_of_line(p, "plane", "1");
}

static int fext_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    (void)kw;
    lex_tok t;
    if (mp_next_tok(p, &t, "fext", "1")) return -1;
    if (lex_is(&t, "0"))
        return mp_fail(p, p->ln.no, t.col,
                       "'fext 0' in a track: the contact forces reach the shoes only "
                       "through fext, so they must read it (fext 1, the default)");
    if (!lex_is(&t, "1")) return mp_fail_at(p, &t, "bad value ", " for 'fext': expected 1");
    return mp_end_of_line(p, "fext", "1");
}

static int pad_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    mech_track *t = &((raw_track *)raw)->t;
    lex_tok tok;
    if (mp_next_tok(p, &tok, "pad", "Z LENGTH WIDTH") || mp_to_number(p, &tok, "pad", &t->pad_z)) return -1;
    if (block_number(p, "pad length", "1", BOUND_POSITIVE, &t->pad_length) ||
        block_number(p, "pad width", "1", BOUND_POSITIVE, &t->pad_width))
        return -1;
    return mp_end_of_line(p, "pad", "3");
}

static int inertia_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    (void)kw;
    return mp_read_inertia(p, ((raw_track *)raw)->t.shoe_inertia);
}

/* roller BODY RADIUS [end] [drive] [teeth N] */
static int roller_key(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)key;
    raw_track *rt = raw;
    mech_track *t = &rt->t;
    if (t->nroller == MECH_MAX_ROLLERS)
        return mp_fail(p, p->ln.no, kw->col, "too many rollers in track '%s': at most %d", t->name, MECH_MAX_ROLLERS);
    int i = t->nroller;
    mech_roller *r = &t->rollers[i];
    memset(r, 0, sizeof *r);
    r->line = p->ln.no;
    if (mp_read_name(p, "roller", rt->roller[i], &rt->roller_col[i])) return -1;
    for (int j = 0; j < i; j++)
        if (strcmp(rt->roller[j], rt->roller[i]) == 0)
            return mp_fail(p, p->ln.no, rt->roller_col[i], "duplicate roller '%s' in track '%s' (first on line %d)",
                           rt->roller[i], t->name, t->rollers[j].line);
    if (block_number(p, "roller radius", "1", BOUND_POSITIVE, &r->radius)) return -1;
    lex_tok o;
    int teeth_col = 0, drive_col = 0;
    while (lex_next(&p->ln, &o)) {
        int *flag = lex_is(&o, "end") ? &r->end : lex_is(&o, "drive") ? &r->drive : NULL;
        if (lex_is(&o, "drive")) drive_col = o.col;
        if (flag) {
            if (*flag) return mp_fail_at(p, &o, "duplicate ", " in roller");
            *flag = 1;
            continue;
        }
        if (!lex_is(&o, "teeth"))
            return mp_fail_at(p, &o, "unknown roller option ", ": expected end, drive or teeth N");
        if (teeth_col) return mp_fail_at(p, &o, "duplicate ", " in roller");
        lex_tok n;
        double v;
        if (mp_next_tok(p, &n, "teeth", "N") || mp_to_number(p, &n, "teeth", &v)) return -1;
        if (v != floor(v) || v < 1.0 || v > 1000.0)
            return mp_fail(p, p->ln.no, n.col, "'teeth' must be a whole number from 1 to 1000: got %g", v);
        r->teeth = (int)v;
        teeth_col = o.col;
    }
    if (r->drive && !r->end)
        return mp_fail(p, p->ln.no, drive_col, "a drive roller must be an end roller: add 'end' (roller '%s')",
                       rt->roller[i]);
    if (r->drive && !teeth_col)
        return mp_fail(p, p->ln.no, drive_col, "a drive roller needs its tooth count: add 'teeth N' (roller '%s')",
                       rt->roller[i]);
    if (teeth_col && !r->drive)
        return mp_fail(p, p->ln.no, teeth_col, "'teeth' belongs to a drive roller: add 'drive' (roller '%s')",
                       rt->roller[i]);
    t->nroller++;
    return 0;
}

static int finish_track(parser *p, void *raw)
{
    raw_track *rt = raw;
    if (rt->t.nroller < 2)
        return mp_fail(p, rt->t.line, rt->t.col, "track '%s' has %d roller%s: a band wraps at least 2", rt->t.name,
                       rt->t.nroller, rt->t.nroller == 1 ? "" : "s");
    if (!rt->seen.line[TK_KT]) rt->t.kt = rt->t.kn;
    return 0;
}

/* The ground inside a track: its own message, for the old form of the language. */
static int ground_inside(parser *p, void *raw, const lex_tok *kw)
{
    (void)raw;
    if (!lex_is(kw, "ground")) return 0;
    return mp_fail(p, p->ln.no, kw->col,
                   "'ground' is not a track key: the ground is one top-level block for "
                   "every band (ground, plane Z, kn, mu, end), after this track's 'end'");
}

int track_store(parser *p)
{
    mech_model *m = p->m;
    if (p->ntracks > 0) {
        m->tracks = calloc((size_t)p->ntracks, sizeof *m->tracks);
        if (!m->tracks) return mp_fail(p, 0, 0, "out of memory");
    }
    for (int i = 0; i < p->ntracks; i++) {
        if (track_expand(p, &p->tracks[i])) return -1;
        m->tracks[m->ntrack++] = p->tracks[i].t;
    }
    ground_store(p);
    return 0;
}

void track_parse_free(parser *p)
{
    free(p->tracks);
    ground_parse_free(p);
}
