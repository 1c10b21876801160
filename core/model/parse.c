/* parse.c — the one .mech parser: text -> mech_model.
 *
 * Grammar and semantics: docs/mech-format.md.  The parser reads line by line,
 * stops at the first error (mech_error: file, line, column, message) and
 * never reads past `len`.  A line at top level is a statement of the table
 * below; a statement that opens a block hands the lines up to its `end` to
 * the block driver (parse_block.c) and the block kind's table (parse_body.c,
 * parse_loop.c, parse_springs.c, parse_xpbd.c, parse_rod.c, parse_track.c, parse_tire.c, parse_stop.c,
 * parse_ground.c).  Once the file is read, the bodies are stored parents
 * first and everything that names a body is resolved. */
#include "model/parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int description_top(parser *p, void *raw, const block_key *key, const lex_tok *kw);

/* Featherstone integrators, mech_integrator's order. */
static const char *const integrators[] = { "verlet", "euler", "implicit", NULL };
_Static_assert(sizeof(mech_integrator) == sizeof(int), "block_word stores an int");

/* The top-level statements, in the order "expected one of" lists them; the
 * ones that may stand only once in a file do not repeat. */
static const block_key top_keys[] = {
    { .word = "description", .read = description_top },
    { NUMBERS("gravity", mech_model, gravity, 3, BOUND_ANY) },
    { .word = "integrator",
      .read = block_word,
      .off = offsetof(mech_model, integrator),
      .words = integrators,
      .what = "integrator" },
    { .word = "body", .read = body_top, .repeats = 1 },
    { .word = "poi", .read = poi_top, .repeats = 1 },
    { .word = "loop", .read = loop_top, .repeats = 1 },
    { .word = "tsda", .read = springs_top, .repeats = 1 },
    { .word = "rsda", .read = springs_top, .repeats = 1 },
    { .word = "xpbd", .read = xp_top_xpbd },
    { .word = "servo", .read = xp_top_servo, .repeats = 1 },
    { .word = "rod", .read = rod_top, .repeats = 1 },
    { .word = "track", .read = track_top, .repeats = 1 },
    { .word = "ground", .read = ground_top },
    { .word = "tire", .read = tire_top, .repeats = 1 },
    { .word = "stop", .read = stop_top, .repeats = 1 },
    { .word = "static", .read = static_top, .repeats = 1 },
    { .word = "mesh", .read = mesh_top, .repeats = 1 },
    { .word = "contact", .read = contact_top },
    { .word = "exclude", .read = exclude_top, .repeats = 1 },
    { .word = "actuator", .read = actuator_top, .repeats = 1 },
    { .word = "keyframe", .read = keyframe_top, .repeats = 1 },
    { .word = "initial", .read = initial_top },
    { .word = "tendon", .read = tendon_top, .repeats = 1 },
    { .word = "equality", .read = equality_top, .repeats = 1 },
};
static const block_kind top_kind = { BLOCK_KIND("the file", top_keys, NULL, NULL) };

/* Every block kind, for a key given outside its block. */
static const block_kind *const block_kinds[] = { &body_block,     &loop_block,   &tsda_block,    &rsda_block,
                                                 &xpbd_block,     &servo_block,  &rod_block,     &track_block,
                                                 &ground_block,   &tire_block,   &stop_block,    &actuator_block,
                                                 &keyframe_block, &tendon_block, &equality_block };

int mp_is_top_keyword(const lex_tok *kw) { return block_find(&top_kind, kw) >= 0; }

/* description <text to the end of the line> */
static int description_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    (void)kw;
    int n, col;
    const char *s = lex_rest(&p->ln, &n, &col);
    if ((size_t)n >= sizeof p->m->description)
        return mp_fail(p, p->ln.no, col, "description too long: at most %d characters",
                       (int)sizeof p->m->description - 1);
    memcpy(p->m->description, s, (size_t)n);
    p->m->description[n] = '\0';
    return 0;
}

/* A key of some block kinds given at top level: "'compliance' outside a
 * body, loop or servo block". */
static int outside_block(parser *p, const lex_tok *kw)
{
    const char *names[sizeof block_kinds / sizeof block_kinds[0]];
    int n = 0;
    for (size_t i = 0; i < sizeof block_kinds / sizeof block_kinds[0]; i++)
        if (block_find(block_kinds[i], kw) >= 0) names[n++] = block_kinds[i]->name;
    if (n == 0) return 0;
    char list[160], q[QUOTE_MAX + 4];
    block_join_or(names, n, list, sizeof list);
    const char *article = names[0][0] == 'x' ? "an" : "a"; /* an xpbd block */
    return mp_fail(p, p->ln.no, kw->col, "'%s' outside %s %s block", mp_quote(kw, q), article, list);
}

static int top_line(parser *p, const lex_tok *kw)
{
    int r = block_key_line(p, &top_kind, p->m, &p->top_seen, NULL, kw);
    if (r <= 0) return r;
    if (lex_is(kw, "end")) return mp_fail(p, p->ln.no, kw->col, "'end' outside a block");
    if (outside_block(p, kw)) return -1;
    char words[256], rest[MECH_ERROR_MAX];
    block_words(&top_kind, NULL, words, sizeof words);
    snprintf(rest, sizeof rest, ": expected one of: %s", words);
    return mp_fail_at(p, kw, "unknown keyword ", rest);
}

static int build_model(parser *p)
{
    int r = body_store(p);
    if (!r) r = loop_store(p);
    if (!r) r = springs_store(p);
    if (!r) r = tendon_store(p);
    if (!r) r = equality_store(p);
    if (!r) r = actuator_store(p);
    if (!r) r = xp_store_servos(p);
    if (!r) r = rod_store(p);
    if (!r) r = track_store(p);
    if (!r) r = exclude_store(p);
    if (!r) r = tire_store(p);
    if (!r) r = stop_store(p);
    if (!r) r = xp_check_work(p);
    return r;
}

/* ---- entry point ---- */

static int parse_lines(parser *p)
{
    for (;;) {
        int col = 0;
        lex_status st = lex_read_line(&p->src, &p->ln, &col);
        if (st == LEX_EOF) break;
        if (st == LEX_NUL) return mp_fail(p, p->ln.no, col, "NUL byte in text");
        if (st == LEX_TOO_LONG) return mp_fail(p, p->ln.no, col, "line too long: at most %d characters", MECH_MAX_LINE);
        lex_tok kw;
        if (!lex_next(&p->ln, &kw)) continue;
        if ((p->open.kind ? block_line(p, &kw) : top_line(p, &kw)) < 0) return -1;
    }
    return block_unclosed(p);
}

mech_model *mech_model_parse(const char *text, size_t len, const char *name, mech_error *err)
{
    mech_error scratch;
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err ? err : &scratch;
    memset(p.err, 0, sizeof *p.err);
    if (!name) name = "<text>";
    snprintf(p.err->file, sizeof p.err->file, "%s", name);
    p.cur = -1;
    if (len > MECH_MAX_TEXT) {
        mp_fail(&p, 0, 0, "text too large: %zu bytes, at most %u", len, (unsigned)MECH_MAX_TEXT);
        return NULL;
    }
    lex_init(&p.src, text, len);
    p.m = calloc(1, sizeof *p.m);
    if (!p.m) {
        mp_fail(&p, 0, 0, "out of memory");
        return NULL;
    }
    snprintf(p.m->name, sizeof p.m->name, "%s", name);
    p.m->gravity[2] = -9.81;
    contact_defaults(&p.m->solver);
    p.m->xpbd = (mech_xpbd_settings){ .dt = 0.01, .substeps = 10, .iterations = 1, .mode = MECH_XPBD_BLOCK };
    int r = parse_lines(&p);
    if (!r) r = build_model(&p);
    body_parse_free(&p);
    free(p.loops);
    free(p.elems);
    free(p.servos);
    free(p.excludes);
    rod_parse_free(&p);
    track_parse_free(&p);
    free(p.tires);
    free(p.stops);
    actuator_parse_free(&p);
    free(p.tendons);
    free(p.equalities);
    if (r) {
        mech_model_free(p.m);
        return NULL;
    }
    return p.m;
}
