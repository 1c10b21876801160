/* scene.c — a terrain scene on a per-model module (docs/wasm.md, "Terrain
 * scenes"): the module's model with another ground, run on the module's
 * generated dynamics.  The dynamics do not read the ground (the contact
 * stage does, from the parsed model), so one generated module serves every
 * ground; the scene's text is accepted only when, apart from its
 * `description` line, its `ground` block, blank lines and comments, it is
 * the module's own text line for line.
 * cmake/wasm_modules.cmake compiles it into every per-model module with the
 * module's -DMW_GEN=mechgen_<model>. */
#include <emscripten.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

extern const struct mech_generated MW_GEN;
extern const unsigned char mw_model_text[];
extern const size_t mw_model_text_len;
const char *mw_model_name(void); /* model.c */

/* A reader of significant lines: not blank, not a comment, not the
 * description, not inside (or opening or closing) the ground block. */
typedef struct {
    const char *s, *end;
    int line; /* 1-based line of the last line returned */
} lines;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The first word of [a, b): its length, *w its start. */
static size_t first_word(const char *a, const char *b, const char **w)
{
    while (a < b && is_space(*a)) a++;
    const char *e = a;
    while (e < b && !is_space(*e) && *e != '#') e++;
    *w = a;
    return (size_t)(e - a);
}

static int word_is(const char *w, size_t n, const char *k) { return n == strlen(k) && memcmp(w, k, n) == 0; }

/* The next significant line as [*a, *b) (trailing blanks cut), 0 at the end. */
static int next_line(lines *r, const char **a, const char **b)
{
    int in_ground = 0;
    while (r->s < r->end) {
        const char *s = r->s, *e = memchr(s, '\n', (size_t)(r->end - s));
        if (!e) e = r->end;
        r->s = e < r->end ? e + 1 : e;
        r->line++;
        const char *w;
        size_t n = first_word(s, e, &w);
        if (in_ground) {
            if (word_is(w, n, "end")) in_ground = 0;
            continue;
        }
        if (n == 0 || word_is(w, n, "description")) continue;
        if (word_is(w, n, "ground")) {
            in_ground = 1;
            continue;
        }
        while (e > s && is_space(e[-1])) e--;
        *a = s;
        *b = e;
        return 1;
    }
    return 0;
}

/* 0 when `text` is the module's model apart from description and ground;
 * else the scene line (or 1 past its end) where it first differs. */
static int differs(const char *text, size_t len, int *base_line)
{
    lines x = { (const char *)mw_model_text, (const char *)mw_model_text + mw_model_text_len, 0 };
    lines y = { text, text + len, 0 };
    for (;;) {
        const char *xa, *xb, *ya, *yb;
        int hx = next_line(&x, &xa, &xb), hy = next_line(&y, &ya, &yb);
        *base_line = x.line;
        if (!hx && !hy) return 0;
        if (hx != hy || xb - xa != yb - ya || memcmp(xa, ya, (size_t)(xb - xa)) != 0) return hy ? y.line : y.line + 1;
    }
}

/* A handle running `len` bytes of scene text labelled `name` on this
 * module's generated dynamics, or NULL with the error set: a parse error
 * (file:line:col), or the first line where the text is not this module's
 * model with another ground. */
EMSCRIPTEN_KEEPALIVE mw_sim *mw_open_scene(const char *text, size_t len, const char *name)
{
    int base_line = 0;
    int at = differs(text, len, &base_line);
    if (at) {
        mech_error err = { .line = at, .col = 1 };
        snprintf(err.file, sizeof err.file, "%s", name);
        snprintf(err.message, sizeof err.message,
                 "not the model of this module ('%s', its line %d) with another ground: a scene may change only "
                 "'description' and the 'ground' block; open other text on the runtime engine",
                 mw_model_name(), base_line);
        mw_fail_parse(&err);
        return NULL;
    }
    mech_model *m = mw_parse(text, len, name);
    if (!m) return NULL;
    mech_error err;
    return mw_sim_adopt(mech_data_new_generated(m, &MW_GEN, &err), m, &err);
}
