/* lex.c — see lex.h. */
#include "model/lex.h"
#include "model/model.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c) { return c == ' ' || c == '\t'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

void lex_init(lex_src *src, const char *text, size_t len)
{
    static const char bom[3] = { '\xEF', '\xBB', '\xBF' }; /* U+FEFF in UTF-8 */
    memset(src, 0, sizeof *src);
    src->text = text;
    src->len = text ? len : 0;
    if (src->len >= 3 && memcmp(text, bom, 3) == 0) src->off = 3;
}

lex_status lex_read_line(lex_src *src, lex_line *ln, int *col)
{
    if (src->off >= src->len) return LEX_EOF;
    const char *s = src->text + src->off;
    size_t rest = src->len - src->off, n = 0;
    while (n < rest && s[n] != '\n' && s[n] != '\r') n++;
    size_t ending = n == rest ? 0 : s[n] == '\r' && n + 1 < rest && s[n + 1] == '\n' ? 2 : 1;
    src->off += n + ending;
    src->lineno++;
    memset(ln, 0, sizeof *ln);
    ln->s = s;
    ln->no = src->lineno;
    if (n > MECH_MAX_LINE) {
        *col = MECH_MAX_LINE + 1;
        return LEX_TOO_LONG;
    }
    ln->len = (int)n;
    const char *nul = memchr(s, '\0', n);
    if (nul) {
        *col = (int)(nul - s) + 1;
        return LEX_NUL;
    }
    return LEX_LINE;
}

static void skip_space(lex_line *ln)
{
    while (ln->pos < ln->len && is_space(ln->s[ln->pos])) ln->pos++;
}

int lex_next(lex_line *ln, lex_tok *t)
{
    skip_space(ln);
    if (ln->pos >= ln->len || (ln->s[ln->pos] == '#' && !ln->after_color)) return 0;
    int start = ln->pos;
    while (ln->pos < ln->len && !is_space(ln->s[ln->pos]) && (ln->s[ln->pos] != '#' || ln->pos == start)) ln->pos++;
    t->s = ln->s + start;
    t->n = ln->pos - start;
    t->col = start + 1;
    ln->last_end = ln->pos;
    ln->after_color = lex_is(t, "color");
    return 1;
}

int lex_more(const lex_line *ln)
{
    lex_line copy = *ln;
    lex_tok t;
    return lex_next(&copy, &t);
}

int lex_end_col(const lex_line *ln) { return ln->last_end + 1; }

const char *lex_rest(lex_line *ln, int *n, int *col)
{
    skip_space(ln);
    int start = ln->pos, end = start;
    while (end < ln->len && ln->s[end] != '#') end++;
    ln->pos = end;
    while (end > start && is_space(ln->s[end - 1])) end--;
    *n = end - start;
    *col = start + 1;
    return ln->s + start;
}

int lex_is(const lex_tok *t, const char *word)
{
    size_t n = strlen(word);
    return (size_t)t->n == n && memcmp(t->s, word, n) == 0;
}

/* nan, inf or infinity in any case, optionally signed. */
static int is_nonfinite_word(const lex_tok *t)
{
    static const char *const words[] = { "nan", "inf", "infinity" };
    int skip = t->n > 0 && (t->s[0] == '+' || t->s[0] == '-');
    int n = t->n - skip;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        if ((size_t)n != strlen(words[w])) continue;
        int i = 0;
        while (i < n && tolower((unsigned char)t->s[skip + i]) == words[w][i]) i++;
        if (i == n) return 1;
    }
    return 0;
}

static int digits(const char *s, int n, int *i)
{
    int start = *i;
    while (*i < n && is_digit(s[*i])) (*i)++;
    return *i - start;
}

static int decimal_syntax(const char *s, int n)
{
    int i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    int m = digits(s, n, &i);
    if (i < n && s[i] == '.') {
        i++;
        m += digits(s, n, &i);
    }
    if (m == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (digits(s, n, &i) == 0) return 0;
    }
    return i == n;
}

lex_num lex_number(const lex_tok *t, double *out)
{
    if (is_nonfinite_word(t)) return NUM_NONFINITE;
    if (!decimal_syntax(t->s, t->n)) return NUM_BAD;
    if (t->n > LEX_NUM_MAX) return NUM_TOO_LONG;
    char buf[LEX_NUM_MAX + 1];
    memcpy(buf, t->s, (size_t)t->n);
    buf[t->n] = '\0';
    /* strtod reads the current locale's decimal point: hand it that one. */
    char point = localeconv()->decimal_point[0];
    char *dot = memchr(buf, '.', (size_t)t->n);
    if (dot && point) *dot = point;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + t->n) return NUM_BAD;
    if (!isfinite(v)) return NUM_NONFINITE;
    *out = v;
    return NUM_OK;
}
