/* collide_broadphase.c — candidate pairs by a spatial hash over AABBs
 * (Teschner et al. 2003, "Optimized spatial hashing"): the dynamic
 * colliders' boxes are entered in every cubic cell they cover, cell size the
 * mean box size; the table is counting-sorted by the hash of the cell
 * coordinates, so a pass over each box's cells finds its neighbours in
 * expected O(1) each.  See broadphase.h for the contract. */
#include "collide/broadphase.h"

#include <math.h>
#include <stdlib.h>

/* Teschner et al.'s hash: (x p1 xor y p2 xor z p3) mod n, large primes. */
static int cell_hash(long long x, long long y, long long z, int n)
{
    unsigned long long h = ((unsigned long long)x * 73856093ull) ^ ((unsigned long long)y * 19349663ull) ^
                           ((unsigned long long)z * 83492791ull);
    return (int)(h % (unsigned long long)n);
}

static int next_prime(int n)
{
    for (;; n++) {
        int prime = n > 1;
        for (int d = 2; prime && (long long)d * d <= n; d++) prime = n % d != 0;
        if (prime) return n;
    }
}

static int grow_int(int **a, int *cap, int need)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    int *g = realloc(*a, (size_t)c * sizeof **a);
    if (!g) return -1;
    *a = g;
    *cap = c;
    return 0;
}

typedef struct {
    double lo[3], hi[3];
    long long clo[3], chi[3];
} box;

static int add_pair(collide_broadphase *bp, int i, int j)
{
    int cap = bp->cap;
    if (grow_int(&bp->pairs, &cap, 2 * (bp->n + 1))) return -1;
    bp->cap = cap;
    bp->pairs[2 * bp->n] = i < j ? i : j;
    bp->pairs[2 * bp->n + 1] = i < j ? j : i;
    bp->n++;
    return 0;
}

static int overlap(const box *a, const box *b)
{
    for (int k = 0; k < 3; k++)
        if (a->hi[k] < b->lo[k] || b->hi[k] < a->lo[k]) return 0;
    return 1;
}

/* Pair i with the colliders in cell (x, y, z)'s bucket that truly cover the
 * cell, once: only from the lowest cell the two boxes share, and (between
 * dynamic ones) only j < i. */
static int visit_cell(collide_broadphase *bp, const box *bx, int i, const long long c[3], int dynamic_only_lower,
                      collide_pair_skip skip, const void *user)
{
    int bucket = cell_hash(c[0], c[1], c[2], bp->ntable);
    for (int e = bp->start[bucket]; e < bp->start[bucket] + bp->count[bucket]; e++) {
        int j = bp->entry[e];
        if (dynamic_only_lower && j >= i) continue;
        const box *a = &bx[i], *b = &bx[j];
        int lowest = 1;
        for (int k = 0; k < 3 && lowest; k++) {
            long long l = a->clo[k] > b->clo[k] ? a->clo[k] : b->clo[k];
            lowest = c[k] == l && c[k] <= b->chi[k];
        }
        if (!lowest || !overlap(a, b) || (skip && skip(i, j, user))) continue;
        if (add_pair(bp, i, j)) return -1;
    }
    return 0;
}

static int plane_pairs(collide_broadphase *bp, int n, const collide_placed *s, const int *is_static, const box *bx,
                       int p, collide_pair_skip skip, const void *user)
{
    const double N[3] = { s[p].R[2], s[p].R[5], s[p].R[8] };
    for (int j = 0; j < n; j++) {
        if (is_static[j]) continue;
        /* the box's lowest corner along N */
        double low = 0;
        for (int k = 0; k < 3; k++) low += N[k] * ((N[k] > 0 ? bx[j].lo[k] : bx[j].hi[k]) - s[p].c[k]);
        if (low <= 0 && !(skip && skip(p, j, user)) && add_pair(bp, p, j)) return -1;
    }
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

int collide_broadphase_run(collide_broadphase *bp, int n, const collide_placed *shapes, const int *is_static,
                           const double *grow, collide_pair_skip skip, const void *user)
{
    bp->n = 0;
    box *bx = malloc((size_t)(n > 0 ? n : 1) * sizeof *bx);
    if (!bx) return -1;
    int ndyn = 0, r = 0;
    double cell = 0;
    for (int i = 0; i < n; i++) {
        if (shapes[i].kind == COLLIDE_PLANE) continue;
        collide_placed_aabb(&shapes[i], bx[i].lo, bx[i].hi);
        double ext = 0;
        for (int k = 0; k < 3; k++) {
            bx[i].lo[k] -= grow[i];
            bx[i].hi[k] += grow[i];
            ext = fmax(ext, bx[i].hi[k] - bx[i].lo[k]);
        }
        if (!is_static[i]) cell += ext, ndyn++;
    }
    if (ndyn == 0) goto done;
    cell /= ndyn;
    long long nentry = 0;
    for (int i = 0; i < n; i++) {
        if (shapes[i].kind == COLLIDE_PLANE) continue;
        long long cells = 1;
        for (int k = 0; k < 3; k++) {
            bx[i].clo[k] = (long long)floor(bx[i].lo[k] / cell);
            bx[i].chi[k] = (long long)floor(bx[i].hi[k] / cell);
            cells *= bx[i].chi[k] - bx[i].clo[k] + 1;
        }
        if (!is_static[i]) nentry += cells;
    }
    /* the table: a prime of at least twice the entries */
    int ntable = next_prime((int)(2 * nentry + 1));
    if (grow_int(&bp->count, &bp->cap_count, ntable) || grow_int(&bp->start, &bp->cap_start, ntable) ||
        grow_int(&bp->entry, &bp->cap_entry, (int)nentry)) {
        r = -1;
        goto done;
    }
    bp->ntable = ntable;
    for (int t = 0; t < ntable; t++) bp->count[t] = 0;
    long long c[3];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            int acc = 0;
            for (int t = 0; t < ntable; t++) {
                bp->start[t] = acc;
                acc += bp->count[t];
                bp->count[t] = 0;
            }
        }
        for (int i = 0; i < n; i++) {
            if (is_static[i] || shapes[i].kind == COLLIDE_PLANE) continue;
            for (c[0] = bx[i].clo[0]; c[0] <= bx[i].chi[0]; c[0]++)
                for (c[1] = bx[i].clo[1]; c[1] <= bx[i].chi[1]; c[1]++)
                    for (c[2] = bx[i].clo[2]; c[2] <= bx[i].chi[2]; c[2]++) {
                        int h = cell_hash(c[0], c[1], c[2], ntable);
                        if (pass == 1) bp->entry[bp->start[h] + bp->count[h]] = i;
                        bp->count[h]++;
                    }
        }
    }
    for (int i = 0; i < n && !r; i++) {
        if (shapes[i].kind == COLLIDE_PLANE) {
            r = plane_pairs(bp, n, shapes, is_static, bx, i, skip, user);
            continue;
        }
        long long cells = 1;
        for (int k = 0; k < 3; k++) cells *= bx[i].chi[k] - bx[i].clo[k] + 1;
        if (is_static[i] && cells > nentry + 64) {
            /* a static box larger than the whole hash: against every dynamic box */
            for (int j = 0; j < n && !r; j++)
                if (!is_static[j] && shapes[j].kind != COLLIDE_PLANE && overlap(&bx[i], &bx[j]) &&
                    !(skip && skip(i, j, user)))
                    r = add_pair(bp, i, j);
            continue;
        }
        for (c[0] = bx[i].clo[0]; c[0] <= bx[i].chi[0] && !r; c[0]++)
            for (c[1] = bx[i].clo[1]; c[1] <= bx[i].chi[1] && !r; c[1]++)
                for (c[2] = bx[i].clo[2]; c[2] <= bx[i].chi[2] && !r; c[2]++)
                    r = visit_cell(bp, bx, i, c, !is_static[i], skip, user);
    }
    /* in collider order, so the solve's order does not depend on the table;
     * two cells of one box that hash to one bucket list its pair twice: once */
    if (!r && bp->n) {
        qsort(bp->pairs, (size_t)bp->n, 2 * sizeof *bp->pairs, cmp_pair);
        int kept = 0;
        for (int q = 0; q < bp->n; q++)
            if (kept == 0 || cmp_pair(&bp->pairs[2 * q], &bp->pairs[2 * (kept - 1)])) {
                bp->pairs[2 * kept] = bp->pairs[2 * q];
                bp->pairs[2 * kept + 1] = bp->pairs[2 * q + 1];
                kept++;
            }
        bp->n = kept;
    }
done:
    free(bx);
    return r;
}

void collide_broadphase_free(collide_broadphase *bp)
{
    free(bp->pairs);
    free(bp->count);
    free(bp->start);
    free(bp->entry);
    *bp = (collide_broadphase){ 0 };
}
