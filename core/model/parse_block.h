/* parse_block.h — the one block driver of the .mech parser.
 *
 * Every block kind (body, loop, tsda, rsda, xpbd, servo, rod, track, ground)
 * is a table of keys: each row names a keyword and how its line is read.  The
 * driver reads the block's lines against its table and reports, with the
 * place of the error, a duplicate key, a missing required key, an unknown
 * keyword (the "expected one of" list is the table's words, then `end`) and
 * a block left without `end`.  Adding a keyword to a block is one row in its
 * table.  Internal to core/model. */
#ifndef MECH_PARSE_BLOCK_H
#define MECH_PARSE_BLOCK_H

#include "model/lex.h"
#include "model/model.h"

#include <stddef.h>

typedef struct parser parser;
typedef struct block_key block_key;

#define BLOCK_MAX_KEYS 32

/* Where each key of the open block was first given: line 0 = not given. */
typedef struct {
    int line[BLOCK_MAX_KEYS];
    int col[BLOCK_MAX_KEYS];     /* the keyword's column */
    int val_col[BLOCK_MAX_KEYS]; /* its first value's (the end of the line if none) */
} block_seen;

/* What a number must be (each of a row's numbers). */
typedef enum { BOUND_ANY, BOUND_POSITIVE, BOUND_NONNEGATIVE } block_bound;

/* Reads the rest of a key's line into the open block's raw struct. */
typedef int (*block_read)(parser *p, void *raw, const block_key *key, const lex_tok *kw);

struct block_key {
    const char *word;
    block_read read;
    int required;             /* the block needs it */
    int repeats;              /* may stand more than once (no duplicate check) */
    size_t off;               /* where the value goes in the raw struct */
    int n;                    /* block_numbers: how many */
    block_bound bound;        /* block_numbers: each one's bound */
    const char *const *words; /* block_word: the choices, NULL-terminated, */
    const char *what;         /* named in "unknown <what> 'x'" */
    int arg;                  /* for the block's own readers */
};

typedef struct {
    const char *name; /* "body": "unknown keyword 'x' in body" */
    const block_key *keys;
    int nkeys;
    /* At `end`, after the required keys are checked; NULL: nothing more. */
    int (*finish)(parser *p, void *raw);
    /* A word that is no key of the block and deserves its own message:
     * -1 with the error set, 0 to leave it to the driver; NULL: none. */
    int (*misplaced)(parser *p, void *raw, const lex_tok *kw);
    /* A named kind's raw struct: its size, the offsets of its name, line
     * and block_seen (block_new). */
    size_t size, name_off, line_off, seen_off;
} block_kind;

/* The fields of a block_kind: its name, table and hooks; a named kind's raw struct. */
#define BLOCK_KIND(kname, table, on_finish, on_misplaced) \
    .name = kname, .keys = table, .nkeys = (int)(sizeof table / sizeof table[0]), .finish = on_finish, \
    .misplaced = on_misplaced
#define BLOCK_RAW(type, name_field, line_field) \
    .size = sizeof(type), .name_off = offsetof(type, name_field), .line_off = offsetof(type, line_field), \
    .seen_off = offsetof(type, seen)

/* The block being read. */
typedef struct {
    const block_kind *kind; /* NULL: at top level */
    void *raw;
    block_seen *seen;
    char title[MECH_NAME_MAX + 16]; /* "body 'arm'", "the xpbd block" */
    int line, col;                  /* where it opened */
} open_block;

/* Open a block of `kind` on the current line: its name (NULL for the one
 * block of its kind in a file) at column col.  seen is cleared. */
void block_open(parser *p, const block_kind *kind, void *raw, block_seen *seen, const char *name, int col);
/* `<kind> <name>` at kw: a new raw block at the end of *arr (*n of them,
 * room for *cap, at most max `plural`), zeroed but for its name and line,
 * its name unique among them ("duplicate <noun> name"), and open; NULL with
 * the error set.  p->cur is its index, p->open.col its name's column. */
void *block_new(parser *p, const block_kind *kind, const char *noun, const lex_tok *kw, void **arr, int *n, int *cap,
                int max, const char *plural);
/* One line inside the open block, kw its first word. */
int block_line(parser *p, const lex_tok *kw);
/* A line whose first word kw may be a key of `kind` (its values into raw,
 * its place into seen): 0 read, -1 failed, 1 not a key of kind.  A second
 * line of a key that does not repeat is an error naming `where` (the open
 * block's title; NULL at top level: one per file). */
int block_key_line(parser *p, const block_kind *kind, void *raw, block_seen *seen, const char *where, const lex_tok *kw);
/* At the end of the file: an open block has no `end`. */
int block_unclosed(parser *p);
/* Row index of kw in kind's table, or -1. */
int block_find(const block_kind *kind, const lex_tok *kw);
/* "a b c" from the table's words, then `tail` ("end"; NULL: none). */
void block_words(const block_kind *kind, const char *tail, char *buf, size_t size);
/* "a, b or c": n words for a message. */
void block_join_or(const char *const *words, int n, char *buf, size_t size);

/* One number of a line, within bound (the error names key). */
int block_number(parser *p, const char *key, const char *expect, block_bound bound, double *v);

/* Readers for the common rows (the key's word names the value in messages). */
int block_numbers(parser *p, void *raw, const block_key *key, const lex_tok *kw);    /* n doubles, bounded */
int block_count(parser *p, void *raw, const block_key *key, const lex_tok *kw);      /* an int, 1 to arg */
int block_rotation(parser *p, void *raw, const block_key *key, const lex_tok *kw);   /* <axis> <degrees> */
int block_axis_frame(parser *p, void *raw, const block_key *key, const lex_tok *kw); /* an axis as the z of R */
int block_body_ref(parser *p, void *raw, const block_key *key, const lex_tok *kw);   /* a body name or base */
int block_name(parser *p, void *raw, const block_key *key, const lex_tok *kw);       /* a name */
int block_word(parser *p, void *raw, const block_key *key, const lex_tok *kw);       /* one of words, an int */
int block_flag(parser *p, void *raw, const block_key *key, const lex_tok *kw);       /* no values: int 1 */

/* The fields of a block_numbers row: count numbers, each within bound b. */
#define NUMBERS(w, type, field, count, b) \
    .word = w, .read = block_numbers, .off = offsetof(type, field), .n = count, .bound = b

#endif
