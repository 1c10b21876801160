/* gen_method2.c — closed loops by method 2 (RBDA sec 8.5) on the one
 * factorization of H, H^-1 = B^T D^-1 B with B unit upper triangular: the
 * L^T D L's B = L^-T, or the articulated-body algorithm's backward pass
 * (gen_aba.c).  With u = B b from the first half of the solve, written here
 * for the L^T D L:
 *
 *   z_r = L^-T K_r^T                        (as sparse as K_r's ancestors)
 *   A   = K H^-1 K^T,  A_rs = sum_i z_ri z_si / D_i
 *   A lambda = k + kstab - K H^-1 b,  (K H^-1 b)_r = sum_i z_ri u_i / D_i
 *   u  <- u + sum_r z_r lambda_r             (= L^-T (b + K^T lambda))
 *
 * so one factorization serves all 1 + nc right-hand sides.  Only the
 * nc x nc system needs a dense solve, and even it has structure: loops on
 * different branches meet only in the coordinates near the root that all
 * their z reach (a vehicle's chassis).  With R such a set of coordinates,
 * A = B + Z_R^T D_R^-1 Z_R where B (the sum over the other coordinates) is
 * block diagonal over groups of loops, and
 *
 *   [ B    Z_R^T ] [lambda]   [rhs]
 *   [ Z_R  -D_R  ] [  mu  ] = [ 0 ]       (mu = D_R^-1 Z_R lambda)
 *
 * is solved by an unpivoted L D L^T that eliminates each group's block, then
 * the |R| x |R| Schur complement; the zero blocks between groups fold away at
 * generation time.  R is the set of coordinates reached by at least t loops;
 * every t is tried (t above the largest count is R empty: plain dense A) and
 * the one giving the fewest operations is kept.  A candidate is refused if
 * some group has more rows than coordinates outside R, where its block of B
 * would be singular.  The generator's own work follows the same structure:
 * B's sums run over the coordinates a row reaches and the L D L^T stays
 * inside the envelope, so independent loops cost each about its own. */
#include "codegen/gen.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    gen *g;
    const ex *d, *dinv;
    int n, nc;
    ex *z;      /* nc x n: L^-T K_r^T                       */
    ex *rhs;    /* nc: k + kstab - K H^-1 b                 */
    int *count; /* n: loops whose z reaches coordinate i    */
    int *group; /* nloop: union-find parent, then group id  */
    int *loop;  /* nc: the loop each row belongs to         */
    int *reach; /* nc x n: the coordinates row r reaches, ascending, ended by -1 */
    unsigned char *seen;
} method2;

static int root(int *parent, int i)
{
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

static int reaches(const method2 *s, int r, int i) { return s->z[(size_t)r * s->n + i] != s->g->p.zero; }

/* M x = b for symmetric M (N x N, lower triangle read) by an unpivoted
 * L D L^T in place: t_ij = M_ij - sum_k<j t_ik L_jk (t_ij = L_ij D_j),
 * D_j = t_jj, L_ij = t_ij / D_j; the upper triangle keeps t.  b becomes x.
 * Row i's entries left of its first nonzero, first[i], stay zero in L (no
 * fill outside the envelope: George and Liu, Computer Solution of Large
 * Sparse Positive Definite Systems, sec 4.2), so the sums start there: the
 * terms skipped are products with the folded zero, which add nothing. */
static void ldl_solve(ex_pool *p, ex *M, int N, const int *first, ex *b)
{
    for (int j = 0; j < N; j++) {
        for (int i = j; i < N; i++) {
            int k0 = first[i] > first[j] ? first[i] : first[j];
            for (int k = k0; k < j; k++) M[i * N + j] = ex_fms(p, M[i * N + j], M[k * N + i], M[j * N + k]);
        }
        ex dinv = ex_div(p, p->one, M[j * N + j]);
        for (int i = j + 1; i < N; i++) {
            M[j * N + i] = M[i * N + j];
            M[i * N + j] = ex_mul(p, M[i * N + j], dinv);
        }
        M[j * N + j] = dinv; /* the diagonal keeps 1 / D_j */
    }
    for (int i = 0; i < N; i++)
        for (int k = first[i]; k < i; k++) b[i] = ex_fms(p, b[i], M[i * N + k], b[k]);
    for (int i = 0; i < N; i++) b[i] = ex_mul(p, b[i], M[i * N + i]);
    for (int i = N - 1; i >= 0; i--)
        for (int k = i + 1; k < N; k++)
            if (first[k] <= i) b[i] = ex_fms(p, b[i], M[k * N + i], b[k]);
}

/* Nodes reachable from out[0..n) built at or after `mark`: the cost of a candidate. */
static int cost_since(method2 *s, const ex *out, int n, int mark)
{
    const ex_pool *p = &s->g->p;
    int cost = 0, top = 0;
    /* every visited node pushes at most its two operands */
    int *stack = malloc((size_t)(2 * (p->n - mark) + n + 1) * sizeof *stack);
    if (!stack) return -1;
    memset(s->seen, 0, (size_t)p->n);
    for (int i = 0; i < n; i++) stack[top++] = out[i];
    while (top > 0) {
        ex id = stack[--top];
        if (id < mark || s->seen[id]) continue;
        s->seen[id] = 1;
        cost++;
        if (p->nodes[id].a >= mark) stack[top++] = p->nodes[id].a;
        if (p->nodes[id].b >= mark) stack[top++] = p->nodes[id].b;
    }
    free(stack);
    return cost;
}

/* Groups the loops for R = { i : count[i] >= t } into s->group (ids 0..);
 * returns the number of groups, or -1 if some group's block would be singular. */
static int partition(method2 *s, int t)
{
    const mech_model *m = s->g->m;
    int *rows = calloc((size_t)m->nloop, sizeof *rows), *cols = calloc((size_t)m->nloop, sizeof *cols);
    int ngroup = -1;
    if (!rows || !cols) goto done;
    for (int l = 0; l < m->nloop; l++) s->group[l] = l;
    for (int i = 0; i < s->n; i++) {
        if (s->count[i] >= t) continue;
        int first = -1;
        for (int r = 0; r < s->nc; r++)
            if (reaches(s, r, i)) {
                int l = root(s->group, s->loop[r]);
                if (first < 0) first = l;
                else s->group[l] = root(s->group, first);
            }
    }
    for (int i = 0; i < s->n; i++) { /* coordinates outside R per group */
        if (s->count[i] >= t || s->count[i] == 0) continue;
        for (int r = 0; r < s->nc; r++)
            if (reaches(s, r, i)) {
                cols[root(s->group, s->loop[r])]++;
                break;
            }
    }
    for (int r = 0; r < s->nc; r++) { /* a row only in R: a zero row of B */
        int outside = 0;
        for (int i = 0; i < s->n && !outside; i++) outside = s->count[i] < t && reaches(s, r, i);
        if (!outside) goto done;
    }
    for (int l = 0; l < m->nloop; l++) rows[root(s->group, l)] += m->loops[l].nc;
    for (int l = 0; l < m->nloop; l++)
        if (root(s->group, l) == l && rows[l] > cols[l]) goto done;
    ngroup = 0;
    for (int l = 0; l < m->nloop; l++)
        if (root(s->group, l) == l) rows[l] = ngroup++;
    for (int l = 0; l < m->nloop; l++) s->group[l] = rows[root(s->group, l)];
done:
    free(rows);
    free(cols);
    return ngroup;
}

/* lambda for the candidate R = { count >= t }: 0, 1 if refused, -1 on error. */
static int solve_candidate(method2 *s, int t, ex *lambda)
{
    gen *g = s->g;
    ex_pool *p = &g->p;
    int ngroup = partition(s, t);
    if (ngroup < 0) return 1;
    int nR = 0, *order = malloc((size_t)(s->nc + s->n) * sizeof *order);
    if (!order) return gen_fail(g, 0, "out of memory");
    int N = 0;
    for (int grp = 0; grp < ngroup; grp++) /* rows by group, then R */
        for (int r = 0; r < s->nc; r++)
            if (s->group[s->loop[r]] == grp) order[N++] = r;
    for (int i = 0; i < s->n; i++)
        if (s->count[i] >= t) order[N + nR++] = i;
    N += nR;
    ex *M = malloc((size_t)N * (size_t)N * sizeof *M), *b = malloc((size_t)N * sizeof *b);
    int *first = malloc((size_t)N * sizeof *first);
    if (!M || !b || !first) {
        free(order);
        free(M);
        free(b);
        free(first);
        return gen_fail(g, 0, "out of memory");
    }
    for (int a = 0; a < N; a++) {
        b[a] = a < s->nc ? s->rhs[order[a]] : p->zero;
        first[a] = a;
        for (int c = 0; c <= a; c++) {
            ex e = p->zero;
            if (a < s->nc) { /* B: the sum outside R, over the coordinates row a reaches */
                const ex *za = s->z + (size_t)order[a] * s->n, *zc = s->z + (size_t)order[c] * s->n;
                const int *reach = s->reach + (size_t)order[a] * (s->n + 1);
                for (int i = *reach; i >= 0; i = *++reach)
                    if (s->count[i] < t) e = ex_fma(p, e, ex_mul(p, za[i], s->dinv[i]), zc[i]);
            } else if (c < s->nc) { /* Z_R */
                e = s->z[(size_t)order[c] * s->n + order[a]];
            } else if (c == a) { /* -D_R */
                e = ex_neg(p, s->d[order[a]]);
            }
            M[a * N + c] = e;
            if (e != p->zero && c < first[a]) first[a] = c;
        }
    }
    ldl_solve(p, M, N, first, b);
    for (int a = 0; a < s->nc; a++) lambda[order[a]] = b[a];
    free(order);
    free(M);
    free(b);
    free(first);
    return 0;
}

int gen_method2(gen *g, void (*half_solve)(gen *g, ex *x), const ex *d, const ex *dinv, ex *u)
{
    ex_pool *p = &g->p;
    const mech_model *m = g->m;
    int n = m->nv, nc = m->nc, rc = 0;
    method2 s = { .g = g, .d = d, .dinv = dinv, .n = n, .nc = nc };
    s.z = malloc((size_t)nc * (size_t)n * sizeof *s.z);
    s.rhs = malloc((size_t)nc * sizeof *s.rhs);
    s.count = calloc((size_t)n, sizeof *s.count);
    s.group = malloc((size_t)m->nloop * sizeof *s.group);
    s.loop = malloc((size_t)nc * sizeof *s.loop);
    s.reach = malloc((size_t)nc * (size_t)(n + 1) * sizeof *s.reach);
    ex *lambda = malloc((size_t)nc * sizeof *lambda), *best = malloc((size_t)nc * sizeof *best);
    if (!s.z || !s.rhs || !s.count || !s.group || !s.loop || !s.reach || !lambda || !best) {
        rc = gen_fail(g, 0, "out of memory");
        goto done;
    }

    for (int r = 0; r < nc; r++) {
        ex *zr = s.z + (size_t)r * n;
        memcpy(zr, g->K + (size_t)r * n, (size_t)n * sizeof *zr);
        half_solve(g, zr);
        s.rhs[r] = g->kc[r];
        for (int i = 0; i < n; i++) s.rhs[r] = ex_fms(p, s.rhs[r], ex_mul(p, zr[i], dinv[i]), u[i]);
        for (int i = 0; i < n; i++) gen_name(g, zr[i], "z_%d_%d", r, i);
    }
    for (int l = 0; l < m->nloop; l++)
        for (int r = m->loops[l].cidx; r < m->loops[l].cidx + m->loops[l].nc; r++) s.loop[r] = l;
    for (int r = 0; r < nc; r++) {
        int *reach = s.reach + (size_t)r * (n + 1);
        for (int i = 0; i < n; i++)
            if (reaches(&s, r, i)) *reach++ = i;
        *reach = -1;
    }
    for (int i = 0; i < n; i++)
        for (int l = 0; l < m->nloop; l++)
            for (int r = m->loops[l].cidx; r < m->loops[l].cidx + m->loops[l].nc; r++)
                if (reaches(&s, r, i)) {
                    s.count[i]++;
                    break;
                }

    /* Every threshold t from 1 to nloop + 1 (R empty: the dense A). */
    int mark = p->n, best_cost = -1;
    for (int t = m->nloop + 1; t >= 1; t--) {
        int any = t == m->nloop + 1;
        for (int i = 0; i < n && !any; i++) any = s.count[i] == t;
        int refused = any ? solve_candidate(&s, t, lambda) : 1;
        if (refused < 0) {
            rc = -1;
            goto done;
        }
        if (refused) continue;
        s.seen = realloc(s.seen, (size_t)p->n);
        int cost = s.seen ? cost_since(&s, lambda, nc, mark) : -1;
        if (cost < 0) {
            rc = gen_fail(g, 0, "out of memory");
            goto done;
        }
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            memcpy(best, lambda, (size_t)nc * sizeof *best);
        }
    }
    if (best_cost < 0) {
        rc = gen_fail(g, 0, "internal error: no method-2 partition");
        goto done;
    }
    for (int r = 0; r < nc; r++) gen_name(g, best[r], "lambda_%d", r);
    for (int r = 0; r < nc; r++)
        for (int i = 0; i < n; i++) u[i] = ex_fma(p, u[i], s.z[(size_t)r * n + i], best[r]);
done:
    free(s.z);
    free(s.rhs);
    free(s.count);
    free(s.group);
    free(s.loop);
    free(s.reach);
    free(s.seen);
    free(lambda);
    free(best);
    return rc;
}
