/* lex.h — lines, tokens and numbers for the .mech parser (internal to core/model).
 *
 * The text is never NUL-terminated: every read is bounded by its length.
 * A line ends at LF, CRLF or a lone CR (old Mac OS files), so line numbers
 * are an editor's for any of the three; a UTF-8 byte-order mark before the
 * first line is skipped, so line 1's columns start after it.
 * Spaces and tabs separate tokens; `#` starts a comment, except at the
 * start of the word directly after `color` (so `color #ff8000` is a value).
 */
#ifndef MECH_LEX_H
#define MECH_LEX_H

#include <stddef.h>

#define LEX_NUM_MAX 64 /* longest accepted number token */

typedef struct {
    const char *text;
    size_t len, off; /* off: start of the next line */
    int lineno;      /* number of the line last read */
} lex_src;

typedef struct {
    const char *s; /* line content without its line ending */
    int len;
    int no;          /* 1-based line number */
    int pos;         /* cursor into s */
    int last_end;    /* index just past the last token read */
    int after_color; /* the last token was `color` */
} lex_line;

typedef struct {
    const char *s;
    int n;
    int col; /* 1-based */
} lex_tok;

typedef enum { LEX_LINE, LEX_EOF, LEX_NUL, LEX_TOO_LONG } lex_status;
typedef enum { NUM_OK, NUM_BAD, NUM_NONFINITE, NUM_TOO_LONG } lex_num;

/* A source over `len` bytes of text (NULL: empty), past a leading BOM. */
void lex_init(lex_src *src, const char *text, size_t len);
/* Next line into *ln; on LEX_NUL / LEX_TOO_LONG *col is where the problem is. */
lex_status lex_read_line(lex_src *src, lex_line *ln, int *col);
/* Next token of the line: 1, or 0 at the end of the line or a comment. */
int lex_next(lex_line *ln, lex_tok *t);
/* 1 if another token follows, without consuming it. */
int lex_more(const lex_line *ln);
/* Column just past the last token read (where a missing value belongs). */
int lex_end_col(const lex_line *ln);
/* The rest of the line up to a comment, trimmed; *col is its column. */
const char *lex_rest(lex_line *ln, int *n, int *col);
int lex_is(const lex_tok *t, const char *word);
/* Strict decimal number: [+-]digits[.digits][e[+-]digits], finite; any C locale. */
lex_num lex_number(const lex_tok *t, double *out);

#endif
