/* parse_stop.c — `stop` blocks (docs/mech-format.md, "Stops"): a bump stop
 * on a tsda, after Project Chrono's HMMWV shock (its damping rate changes
 * beyond a bump and a rebound length).  Stored here; core/contact/stop.c
 * evaluates the law. */
#include "model/parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_TSDA, ST_BUMP, ST_REBOUND, ST_COUNT };

typedef struct raw_stop {
    mech_stop s;
    char tsda[MECH_NAME_MAX];
    block_seen seen;
} raw_stop;

static int finish_stop(parser *p, void *raw);

_Static_assert(ST_COUNT <= BLOCK_MAX_KEYS, "block_seen holds every row");
static const block_key stop_keys[ST_COUNT] = {
    [ST_TSDA] = { .word = "tsda", .read = block_name, .off = offsetof(raw_stop, tsda), .required = 1 },
    [ST_BUMP] = { NUMBERS("bump", raw_stop, s.bump_length, 2, BOUND_POSITIVE) },
    [ST_REBOUND] = { NUMBERS("rebound", raw_stop, s.rebound_length, 2, BOUND_POSITIVE) },
};
_Static_assert(offsetof(mech_stop, bump_rate) == offsetof(mech_stop, bump_length) + sizeof(double), "bump L C");
_Static_assert(offsetof(mech_stop, rebound_rate) == offsetof(mech_stop, rebound_length) + sizeof(double), "rebound L C");
const block_kind stop_block = { BLOCK_KIND("stop", stop_keys, finish_stop, NULL), BLOCK_RAW(raw_stop, s.name, s.line) };

int stop_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    raw_stop *rs =
        block_new(p, &stop_block, "stop", kw, (void **)&p->stops, &p->nstops, &p->cap_stops, MECH_MAX_STOPS, "stops");
    if (!rs) return -1;
    rs->s.col = p->open.col;
    return 0;
}

static int finish_stop(parser *p, void *raw)
{
    raw_stop *rs = raw;
    mech_stop *s = &rs->s;
    s->bump = rs->seen.line[ST_BUMP] != 0;
    s->rebound = rs->seen.line[ST_REBOUND] != 0;
    if (!s->bump && !s->rebound)
        return mp_fail(p, s->line, s->col, "stop '%s' has no side: give 'bump LENGTH RATE' or 'rebound LENGTH RATE'",
                       s->name);
    if (s->bump && s->rebound && !(s->bump_length < s->rebound_length))
        return mp_fail(p, rs->seen.line[ST_REBOUND], rs->seen.col[ST_REBOUND],
                       "stop '%s': the rebound length %g must be above the bump length %g", s->name, s->rebound_length,
                       s->bump_length);
    return 0;
}

/* The tsda by name; both its bodies must read their fext (the stop's force
 * reaches them only through fext). */
static int tsda_check(parser *p, raw_stop *rs)
{
    mech_stop *s = &rs->s;
    const mech_model *m = p->m;
    int line = rs->seen.line[ST_TSDA], col = rs->seen.val_col[ST_TSDA];
    s->tsda = -1;
    for (int i = 0; i < m->ntsda; i++)
        if (!strcmp(m->tsdas[i].name, rs->tsda)) s->tsda = i;
    if (s->tsda < 0) return mp_fail(p, line, col, "stop '%s': no tsda named '%s'", s->name, rs->tsda);
    const mech_tsda *t = &m->tsdas[s->tsda];
    int ends[2] = { m->pois[t->poi_a].body, m->pois[t->poi_b].body };
    for (int e = 0; e < 2; e++) {
        if (ends[e] < 0 || m->bodies[ends[e]].fext) continue;
        return mp_fail(p, line, col,
                       "the body '%s' of tsda '%s' must read its fext ('fext 1'): stop '%s' reaches it only through fext",
                       m->bodies[ends[e]].name, t->name, s->name);
    }
    for (int i = 0; i < m->nstop; i++)
        if (m->stops[i].tsda == s->tsda)
            return mp_fail(p, line, col, "tsda '%s' already has stop '%s'", t->name, m->stops[i].name);
    return 0;
}

int stop_store(parser *p)
{
    mech_model *m = p->m;
    if (p->nstops == 0) return 0;
    m->stops = calloc((size_t)p->nstops, sizeof *m->stops);
    if (!m->stops) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nstops; i++) {
        if (tsda_check(p, &p->stops[i])) return -1;
        m->stops[m->nstop++] = p->stops[i].s;
    }
    return 0;
}
