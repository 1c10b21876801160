/* parse_block.c — the block driver (parse_block.h): a block's lines read
 * against its table of keys, and the readers of the common rows. */
#include "model/parse_internal.h"

#include "spatial/spatial.h"

#include <stdio.h>
#include <string.h>

void block_open(parser *p, const block_kind *kind, void *raw, block_seen *seen, const char *name, int col)
{
    open_block *b = &p->open;
    b->kind = kind;
    b->raw = raw;
    b->seen = seen;
    memset(seen, 0, sizeof *seen);
    if (name) snprintf(b->title, sizeof b->title, "%s '%s'", kind->name, name);
    else snprintf(b->title, sizeof b->title, "the %s block", kind->name);
    b->line = p->ln.no;
    b->col = col;
}

void *block_new(parser *p, const block_kind *kind, const char *noun, const lex_tok *kw, void **arr, int *n, int *cap,
                int max, const char *plural)
{
    char name[MECH_NAME_MAX];
    int name_col;
    if (mp_read_name(p, kind->name, name, &name_col)) return NULL;
    for (int i = 0; i < *n; i++) {
        const char *other = (const char *)*arr + (size_t)i * kind->size;
        if (strcmp(other + kind->name_off, name) == 0) {
            mp_fail(p, p->ln.no, name_col, "duplicate %s name '%s' (first on line %d)", noun, name,
                    *(const int *)(other + kind->line_off));
            return NULL;
        }
    }
    if (mp_end_of_line(p, kind->name, "1") || mp_grow(p, arr, cap, *n, kind->size, max, plural, kw->col)) return NULL;
    char *raw = (char *)*arr + (size_t)*n * kind->size;
    memset(raw, 0, kind->size);
    memcpy(raw + kind->name_off, name, sizeof name);
    *(int *)(raw + kind->line_off) = p->ln.no;
    p->cur = (*n)++;
    block_open(p, kind, raw, (block_seen *)(raw + kind->seen_off), name, name_col);
    return raw;
}

int block_find(const block_kind *kind, const lex_tok *kw)
{
    for (int k = 0; k < kind->nkeys; k++)
        if (lex_is(kw, kind->keys[k].word)) return k;
    return -1;
}

void block_words(const block_kind *kind, const char *tail, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k <= kind->nkeys && len < size; k++) {
        const char *w = k < kind->nkeys ? kind->keys[k].word : tail;
        if (w) len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", w);
    }
}

void block_join_or(const char *const *words, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
}

static int close_block(parser *p)
{
    open_block *b = &p->open;
    if (mp_end_of_line(p, "end", "no values")) return -1;
    for (int k = 0; k < b->kind->nkeys; k++)
        if (b->kind->keys[k].required && !b->seen->line[k])
            return mp_fail(p, b->line, b->col, "%s has no '%s'", b->title, b->kind->keys[k].word);
    if (b->kind->finish && b->kind->finish(p, b->raw)) return -1;
    b->kind = NULL;
    p->cur = -1;
    return 0;
}

/* The column of the next token, or of the end of the line: where a key's value is. */
static int value_col(const lex_line *ln)
{
    lex_line ahead = *ln;
    lex_tok t;
    return lex_next(&ahead, &t) ? t.col : lex_end_col(ln);
}

int block_key_line(parser *p, const block_kind *kind, void *raw, block_seen *seen, const char *where, const lex_tok *kw)
{
    int k = block_find(kind, kw);
    if (k < 0) return 1;
    const block_key *key = &kind->keys[k];
    if (seen->line[k] && !key->repeats && where)
        return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' in %s (first on line %d)", key->word, where, seen->line[k]);
    if (seen->line[k] && !key->repeats)
        return mp_fail(p, p->ln.no, kw->col, "duplicate '%s' (first on line %d): one per file", key->word, seen->line[k]);
    if (!seen->line[k]) {
        seen->line[k] = p->ln.no;
        seen->col[k] = kw->col;
        seen->val_col[k] = value_col(&p->ln);
    }
    return key->read(p, raw, key, kw);
}

int block_line(parser *p, const lex_tok *kw)
{
    open_block *b = &p->open;
    if (lex_is(kw, "end")) return close_block(p);
    int r = block_key_line(p, b->kind, b->raw, b->seen, b->title, kw);
    if (r <= 0) return r;
    if (b->kind->misplaced && b->kind->misplaced(p, b->raw, kw)) return -1;
    if (mp_is_top_keyword(kw))
        return mp_fail(p, p->ln.no, kw->col, "'%.*s' inside %s: missing 'end'", kw->n, kw->s, b->title);
    char words[256], rest[MECH_ERROR_MAX];
    block_words(b->kind, "end", words, sizeof words);
    snprintf(rest, sizeof rest, " in %s: expected one of: %s", b->kind->name, words);
    return mp_fail_at(p, kw, "unknown keyword ", rest);
}

int block_unclosed(parser *p)
{
    open_block *b = &p->open;
    if (!b->kind) return 0;
    return mp_fail(p, b->line, b->col, "%s has no 'end' before the end of the file", b->title);
}

/* ---- readers of the common rows ---- */

static void *field(void *raw, const block_key *key) { return (char *)raw + key->off; }

int block_number(parser *p, const char *key, const char *expect, block_bound bound, double *v)
{
    lex_tok t;
    if (mp_next_tok(p, &t, key, expect) || mp_to_number(p, &t, key, v)) return -1;
    if (bound == BOUND_POSITIVE && !(*v > 0.0))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be positive: got %g", key, *v);
    if (bound == BOUND_NONNEGATIVE && !(*v >= 0.0))
        return mp_fail(p, p->ln.no, t.col, "'%s' must not be negative: got %g", key, *v);
    return 0;
}

int block_numbers(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    double *v = field(raw, key);
    char expect[16];
    snprintf(expect, sizeof expect, "%d", key->n);
    for (int i = 0; i < key->n; i++)
        if (block_number(p, key->word, expect, key->bound, &v[i])) return -1;
    return mp_end_of_line(p, key->word, expect);
}

int block_count(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    lex_tok t;
    double v;
    if (mp_next_tok(p, &t, key->word, "1") || mp_to_number(p, &t, key->word, &v)) return -1;
    if (!(v >= 1 && v <= key->arg && v == (double)(int)v))
        return mp_fail(p, p->ln.no, t.col, "'%s' must be a whole number from 1 to %d: got %g", key->word, key->arg, v);
    *(int *)field(raw, key) = (int)v;
    return mp_end_of_line(p, key->word, "1");
}

int block_rotation(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    return mp_read_rotation(p, key->word, field(raw, key)) || mp_end_of_line(p, key->word, "<axis> <degrees>") ? -1 : 0;
}

int block_axis_frame(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    double axis[3];
    if (mp_read_axis(p, key->word, axis) || mp_end_of_line(p, key->word, AXIS_EXPECT)) return -1;
    mp_frame_from_axis(axis, field(raw, key));
    return 0;
}

int block_body_ref(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    char *out = field(raw, key);
    lex_tok t;
    if (mp_next_tok(p, &t, key->word, "a body name or 'base'")) return -1;
    if (!lex_is(&t, "base") && mp_check_name(p, &t, key->word)) return -1;
    memcpy(out, t.s, (size_t)t.n);
    out[t.n] = '\0';
    return mp_end_of_line(p, key->word, "1");
}

int block_name(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    return mp_read_name(p, key->word, field(raw, key), NULL) || mp_end_of_line(p, key->word, "1") ? -1 : 0;
}

int block_word(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    char expect[160], rest[200], what[48];
    int n = 0;
    while (key->words[n]) n++;
    block_join_or(key->words, n, expect, sizeof expect);
    lex_tok t;
    if (mp_next_tok(p, &t, key->word, expect)) return -1;
    for (int i = 0; i < n; i++)
        if (lex_is(&t, key->words[i])) {
            *(int *)field(raw, key) = i;
            return mp_end_of_line(p, key->word, "1");
        }
    snprintf(what, sizeof what, "unknown %s ", key->what);
    snprintf(rest, sizeof rest, ": expected %s", expect);
    return mp_fail_at(p, &t, what, rest);
}

int block_flag(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)kw;
    *(int *)field(raw, key) = 1;
    return mp_end_of_line(p, key->word, "no values");
}
