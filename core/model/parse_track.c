/* parse_track.c — `track` blocks (docs/mech-format.md, "Tracks"): the keys
 * of one band.  track_expand.c turns a parsed band into shoe bodies and a
 * closing loop once the hand-written bodies are placed. */
#include "model/parse_internal.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const track_keys[TK_COUNT] = {
    "root", "plane", "shoes", "pitch", "mass", "com", "inertia", "fext", "pad", "thickness",
    "kn", "kt", "mu", "zeta", "veps"
};
#define TRACK_KEYS "root plane shoes pitch mass com inertia fext roller pad thickness kn kt mu zeta veps end"

int track_top(parser *p, const lex_tok *kw)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, "track", name, &name_col)) return -1;
    for (int i = 0; i < p->ntracks; i++)
        if (strcmp(p->tracks[i].t.name, name) == 0)
            return mp_fail(p, p->ln.no, name_col, "duplicate track name '%s' (first on line %d)", name,
                           p->tracks[i].t.line);
    if (mp_end_of_line(p, "track", "1") ||
        mp_grow(p, (void **)&p->tracks, &p->cap_tracks, p->ntracks, sizeof *p->tracks, MECH_MAX_TRACKS, "tracks",
                kw->col))
        return -1;
    raw_track *rt = &p->tracks[p->ntracks];
    memset(rt, 0, sizeof *rt);
    memcpy(rt->t.name, name, sizeof name);
    rt->t.line = p->ln.no;
    rt->t.col = name_col;
    rt->t.zeta = 0.2;
    rt->t.veps = 0.01;
    rt->name_col = name_col;
    p->cur = p->ntracks++;
    p->block = B_TRACK;
    return 0;
}

/* One number with a sign rule: 1 positive, 0 non-negative. */
static int checked_number(parser *p, const char *key, int positive, double *v)
{
    lex_tok t;
    if (mp_next_tok(p, &t, key, "1") || mp_to_number(p, &t, key, v)) return -1;
    if (positive ? !(*v > 0.0) : !(*v >= 0.0))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be %s: got %g", key, positive ? "positive" : "non-negative",
                       *v);
    return 0;
}

static int shoes_key(parser *p, raw_track *rt)
{
    lex_tok t;
    double v;
    if (mp_next_tok(p, &t, "shoes", "1") || mp_to_number(p, &t, "shoes", &v)) return -1;
    if (v != floor(v) || v < 3.0 || v > MECH_MAX_SHOES)
        return mp_fail(p, p->ln.no, t.col, "'shoes' must be a whole number from 3 to %d: got %g", MECH_MAX_SHOES,
                       v);
    rt->t.nshoe = (int)v;
    return mp_end_of_line(p, "shoes", "1");
}

static int plane_key(parser *p)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "plane", "xz")) return -1;
    if (!lex_is(&t, "xz"))
        return mp_fail_at(p, &t, "unknown band plane ", ": expected xz (the pin axis is the root's y)");
    return mp_end_of_line(p, "plane", "1");
}

static int fext_key(parser *p)
{
    lex_tok t;
    if (mp_next_tok(p, &t, "fext", "1")) return -1;
    if (lex_is(&t, "0"))
        return mp_fail(p, p->ln.no, t.col, "'fext 0' in a track: the contact forces reach the shoes only "
                       "through fext, so they must read it (fext 1, the default)");
    if (!lex_is(&t, "1")) return mp_fail_at(p, &t, "bad value ", " for 'fext': expected 1");
    return mp_end_of_line(p, "fext", "1");
}

static int pad_key(parser *p, raw_track *rt)
{
    mech_track *t = &rt->t;
    lex_tok tok;
    if (mp_next_tok(p, &tok, "pad", "Z LENGTH WIDTH") || mp_to_number(p, &tok, "pad", &t->pad_z)) return -1;
    if (checked_number(p, "pad length", 1, &t->pad_length) || checked_number(p, "pad width", 1, &t->pad_width))
        return -1;
    return mp_end_of_line(p, "pad", "3");
}

static int track_key(parser *p, raw_track *rt, int k)
{
    mech_track *t = &rt->t;
    switch (k) {
    case TK_ROOT: return mp_read_body_ref(p, "root", rt->root, &rt->root_col);
    case TK_PLANE: return plane_key(p);
    case TK_SHOES: return shoes_key(p, rt);
    case TK_COM: return mp_number_line(p, "com", t->shoe_com, 3);
    case TK_INERTIA: return mp_read_inertia(p, t->shoe_inertia);
    case TK_FEXT: return fext_key(p);
    case TK_PAD: return pad_key(p, rt);
    default: break;
    }
    double *dst[TK_COUNT] = { [TK_PITCH] = &t->pitch, [TK_MASS] = &t->shoe_mass, [TK_THICKNESS] = &t->thickness,
                              [TK_KN] = &t->kn, [TK_KT] = &t->kt, [TK_MU] = &t->mu, [TK_ZETA] = &t->zeta,
                              [TK_VEPS] = &t->veps };
    int positive = k != TK_MU && k != TK_ZETA;
    return checked_number(p, track_keys[k], positive, dst[k]) || mp_end_of_line(p, track_keys[k], "1") ? -1 : 0;
}

/* roller BODY RADIUS [end] [drive] [teeth N] */
static int roller_line(parser *p, raw_track *rt, const lex_tok *kw)
{
    mech_track *t = &rt->t;
    if (t->nroller == MECH_MAX_ROLLERS)
        return mp_fail(p, p->ln.no, kw->col, "too many rollers in track '%s': at most %d", t->name,
                       MECH_MAX_ROLLERS);
    int i = t->nroller;
    mech_roller *r = &t->rollers[i];
    memset(r, 0, sizeof *r);
    r->line = p->ln.no;
    if (mp_read_name(p, "roller", rt->roller[i], &rt->roller_col[i])) return -1;
    for (int j = 0; j < i; j++)
        if (strcmp(rt->roller[j], rt->roller[i]) == 0)
            return mp_fail(p, p->ln.no, rt->roller_col[i], "duplicate roller '%s' in track '%s' (first on line %d)",
                           rt->roller[i], t->name, t->rollers[j].line);
    if (checked_number(p, "roller radius", 1, &r->radius)) return -1;
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

static int finish_track(parser *p, raw_track *rt)
{
    static const int required[] = { TK_ROOT, TK_SHOES, TK_MASS, TK_INERTIA, TK_PAD, TK_THICKNESS, TK_KN, TK_MU };
    if (mp_end_of_line(p, "end", "no values")) return -1;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rt->key_line[required[i]])
            return mp_fail(p, rt->t.line, rt->name_col, "track '%s' has no '%s'", rt->t.name,
                           track_keys[required[i]]);
    if (rt->t.nroller < 2)
        return mp_fail(p, rt->t.line, rt->name_col, "track '%s' has %d roller%s: a band wraps at least 2",
                       rt->t.name, rt->t.nroller, rt->t.nroller == 1 ? "" : "s");
    if (!rt->key_line[TK_KT]) rt->t.kt = rt->t.kn;
    p->cur = -1;
    p->block = B_NONE;
    return 0;
}

int track_line(parser *p, const lex_tok *kw)
{
    raw_track *rt = &p->tracks[p->cur];
    if (lex_is(kw, "end")) return finish_track(p, rt);
    if (lex_is(kw, "roller")) return roller_line(p, rt, kw);
    for (int k = 0; k < TK_COUNT; k++) {
        if (!lex_is(kw, track_keys[k])) continue;
        if (rt->key_line[k])
            return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in track '%s' (first on line %d)", track_keys[k],
                           rt->t.name, rt->key_line[k]);
        rt->key_line[k] = p->ln.no;
        rt->key_col[k] = kw->col;
        return track_key(p, rt, k);
    }
    if (lex_is(kw, "ground"))
        return mp_fail(p, p->ln.no, kw->col, "'ground' is not a track key: the ground is one top-level block for "
                       "every band (ground, plane Z, kn, mu, end), after this track's 'end'");
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside track '%s': missing 'end'", kw->n, kw->s, rt->t.name);
    return mp_fail_at(p, kw, "unknown keyword ", " in track: expected one of: " TRACK_KEYS);
}

int track_unclosed(parser *p)
{
    if (p->block == B_TRACK) {
        raw_track *rt = &p->tracks[p->cur];
        return mp_fail(p, rt->t.line, rt->name_col, "track '%s' has no 'end' before the end of the file",
                       rt->t.name);
    }
    return ground_unclosed(p);
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
