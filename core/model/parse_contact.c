/* parse_contact.c — the top-level `contact` line (the Featherstone
 * constraint solve's settings) and `exclude` pairs of bodies that never
 * touch (docs/mech-format.md, "Contact on the Featherstone engines"). */
#include "model/parse_internal.h"

#include <stdlib.h>
#include <string.h>

void contact_defaults(mech_solver *s)
{
    *s = (mech_solver){
        .solref = { 0.02, 1.0 }, .solimp = { 0.9, 0.95, 0.001 }, .impratio = 1.0, .iterations = 100, .tolerance = 1e-10
    };
}

/* n numbers after an option word. */
static int option_numbers(parser *p, const char *key, const char *expect, double *v, int n)
{
    lex_tok t;
    for (int i = 0; i < n; i++)
        if (mp_next_tok(p, &t, key, expect) || mp_to_number(p, &t, key, &v[i])) return -1;
    return 0;
}

/* contact [solref τ ζ] [solimp d0 dwidth width] [impratio r] [iterations n] [tolerance t] */
int contact_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    (void)kw;
    static const char *const opts[] = { "solref", "solimp", "impratio", "iterations", "tolerance" };
    mech_solver *s = &p->m->solver;
    s->line = p->ln.no;
    int seen[5] = { 0 };
    lex_tok t;
    while (lex_next(&p->ln, &t)) {
        int o = 0;
        while (o < 5 && !lex_is(&t, opts[o])) o++;
        if (o == 5)
            return mp_fail_at(p, &t, "unknown contact option ",
                              ": expected solref, solimp, impratio, iterations or tolerance");
        if (seen[o]++) return mp_fail(p, p->ln.no, t.col, "duplicate '%s' in contact", opts[o]);
        int col = lex_end_col(&p->ln) + 1;
        double v[3];
        switch (o) {
        case 0:
            if (option_numbers(p, "solref", "<time constant> <damping ratio>", v, 2)) return -1;
            if (!(v[0] > 0 && v[1] > 0))
                return mp_fail(p, p->ln.no, col, "'solref': time constant and damping ratio must be > 0: got %g %g",
                               v[0], v[1]);
            memcpy(s->solref, v, sizeof s->solref);
            break;
        case 1:
            if (option_numbers(p, "solimp", "<d0> <dwidth> <width>", v, 3)) return -1;
            if (!(v[0] > 0 && v[0] < 1 && v[1] > 0 && v[1] < 1 && v[2] > 0))
                return mp_fail(p, p->ln.no, col, "'solimp': d0 and dwidth must be in (0, 1) and width > 0: got %g %g %g",
                               v[0], v[1], v[2]);
            memcpy(s->solimp, v, sizeof s->solimp);
            break;
        case 2:
            if (option_numbers(p, "impratio", "1", v, 1)) return -1;
            if (!(v[0] > 0)) return mp_fail(p, p->ln.no, col, "'impratio' must be > 0: got %g", v[0]);
            s->impratio = v[0];
            break;
        case 3:
            if (option_numbers(p, "iterations", "1", v, 1)) return -1;
            if (!(v[0] >= 1 && v[0] <= MECH_MAX_SOLVER_ITERATIONS && v[0] == (int)v[0]))
                return mp_fail(p, p->ln.no, col, "'iterations' must be a whole number in [1, %d]: got %g",
                               MECH_MAX_SOLVER_ITERATIONS, v[0]);
            s->iterations = (int)v[0];
            break;
        default:
            if (option_numbers(p, "tolerance", "1", v, 1)) return -1;
            if (!(v[0] >= 0)) return mp_fail(p, p->ln.no, col, "'tolerance' must not be negative: got %g", v[0]);
            s->tolerance = v[0];
            break;
        }
    }
    return 0;
}

/* exclude <body> <body>: resolved once the bodies are stored. */
int exclude_top(parser *p, void *raw, const block_key *key, const lex_tok *kw)
{
    (void)raw;
    (void)key;
    if (mp_grow(p, (void **)&p->excludes, &p->cap_excludes, p->nexcludes, sizeof *p->excludes, MECH_MAX_EXCLUDES,
                "exclude pairs", kw->col))
        return -1;
    struct raw_exclude *e = &p->excludes[p->nexcludes];
    memset(e, 0, sizeof *e);
    e->line = p->ln.no;
    if (mp_read_name(p, "exclude", e->name[0], &e->col[0]) || mp_read_name(p, "exclude", e->name[1], &e->col[1]) ||
        mp_end_of_line(p, "exclude", "2"))
        return -1;
    p->nexcludes++;
    return 0;
}

int exclude_store(parser *p)
{
    if (!p->nexcludes) return 0;
    mech_model *m = p->m;
    m->exclude = calloc((size_t)p->nexcludes, sizeof *m->exclude);
    if (!m->exclude) return mp_fail(p, 0, 0, "out of memory");
    for (int i = 0; i < p->nexcludes; i++) {
        struct raw_exclude *e = &p->excludes[i];
        for (int k = 0; k < 2; k++)
            if (mp_body_index(p, e->name[k], e->line, e->col[k], "exclude", "the file", &m->exclude[i][k])) return -1;
        if (m->exclude[i][0] == m->exclude[i][1])
            return mp_fail(p, e->line, e->col[1], "'exclude' names body '%s' twice", e->name[1]);
    }
    m->nexclude = p->nexcludes;
    return 0;
}
