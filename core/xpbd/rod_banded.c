/* rod_banded.c — Cholesky factorization and solve of a symmetric positive
 * definite banded matrix (§8.2, after Meurant 1992).  The rod system has
 * blocks of p = 6 rows and block bandwidth b, so the scalar half-bandwidth is
 * kd = p(b + 1) − 1 and the work is O(n kd²) = O(n_blocks p³ b²): linear in
 * the rod's length, never a dense solve.
 *
 * Storage: row i holds A(i, j), i − kd ≤ j ≤ i, at band[(i + 1) kd + j], so a
 * row's entries are contiguous and the dot products below run over memory. */
#include "xpbd/rod_internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The first column of row i that is not an exact zero (i when all are):
 * the rod's rows are zero far out in the band (a Gauss point couples only
 * with the blocks of its own and the neighbouring elements). */
static int row_start(const double *Li, int j0, int i)
{
    while (j0 < i && Li[j0] == 0) j0++;
    return j0;
}

/* Two consecutive doubles, at any alignment. */
static inline rod_v2 load2(const double *p)
{
    rod_v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Σ x_k y_k, k < n, in four interleaved partial sums s_0..s_3 (s_m takes
 * the k ≡ m mod 4, s_0 also the tail): independent chains of additions,
 * where one running sum would wait on each addition in turn.  The sums run
 * as two pairs, (s_0, s_1) and (s_2, s_3). */
static inline double dot(const double *x, const double *y, int n)
{
    rod_v2 s01 = { 0, 0 }, s23 = { 0, 0 };
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        s01 += load2(x + k) * load2(y + k);
        s23 += load2(x + k + 2) * load2(y + k + 2);
    }
    double s0 = s01[0];
    for (; k < n; k++) s0 += x[k] * y[k];
    return (s0 + s01[1]) + (s23[0] + s23[1]);
}

/* y_k −= a x_k, k < n, two at a time. */
static inline void axpy_sub(double a, const double *x, double *y, int n)
{
    int k = 0;
    for (; k + 2 <= n; k += 2) {
        rod_v2 v = load2(y + k) - load2(x + k) * a;
        memcpy(y + k, &v, sizeof v);
    }
    for (; k < n; k++) y[k] -= x[k] * a;
}

#define ROW(i) (band + (size_t)((i) + 1) * kd)

/* Row i of L, within the row's profile: L(i, k) = 0 for k before A's first
 * nonzero of row i (no fill-in ahead of it), so the dot products start at
 * the later of the two rows' first columns.  The diagonal is kept as
 * 1/L(i, i): one division per row. */
static int factor_row(int kd, double *band, int i)
{
    double *Li = ROW(i);
    int ji = row_start(Li, i - kd > 0 ? i - kd : 0, i);
    for (int j = ji; j <= i; j++) {
        const double *Lj = ROW(j);
        double s = Li[j];
        int k0 = ji;
        while (k0 < j && Lj[k0] == 0) k0++;
        s -= dot(Li + k0, Lj + k0, j - k0);
        if (j < i) Li[j] = s * Lj[j]; /* Lj[j] holds 1/L(j, j) */
        else {
            if (!(s > 0)) return -1;
            Li[i] = 1 / sqrt(s);
        }
    }
    return 0;
}

/* T = A_DC − Σ_K L_DK L_CKᵀ over the tiles K = F..C−1, with L_DK from X
 * (X[K − F], by columns); each product's six terms summed in three pairs,
 * the tiles K one after another. */
static void tile_update(int kd, const double *band, int D, int C, int F, rod_v2 (*X)[6][3], rod_v2 T[6][3])
{
    for (int b = 0; b < 6; b++) {
        const double *y = ROW(6 * C + b);
        rod_v2 s[3] = { { 0 } };
        for (int K = F; K < C; K++) {
            const double *yk = y + 6 * K;
            rod_v2(*x)[3] = X[K - F];
            for (int p = 0; p < 3; p++)
                s[p] += ((x[0][p] * yk[0] + x[1][p] * yk[1]) + (x[2][p] * yk[2] + x[3][p] * yk[3])) +
                        (x[4][p] * yk[4] + x[5][p] * yk[5]);
        }
        for (int p = 0; p < 3; p++)
            T[b][p] = (rod_v2){ ROW(6 * D + 2 * p)[6 * C + b], ROW(6 * D + 2 * p + 1)[6 * C + b] } - s[p];
    }
}

/* L_DC = T L_CC⁻ᵀ for C < D, by forward substitution along each row a of D:
 * L(a, b) = (T(a, b) − Σ_{k<b} L(a, k) L_CC(b, k)) / L_CC(b, b), on the
 * pairs of rows (the diagonal holds 1/L(j, j)). */
static void tile_solve(int kd, double *band, int D, int C, rod_v2 T[6][3])
{
    for (int b = 0; b < 6; b++) {
        const double *Lj = ROW(6 * C + b) + 6 * C;
        for (int p = 0; p < 3; p++) {
            rod_v2 s = T[b][p];
            for (int k = 0; k < b; k++) s -= T[k][p] * Lj[k];
            T[b][p] = s * Lj[b];
            ROW(6 * D + 2 * p)[6 * C + b] = T[b][p][0];
            ROW(6 * D + 2 * p + 1)[6 * C + b] = T[b][p][1];
        }
    }
}

/* L_DD, the Cholesky factor of the diagonal tile T, row by row. */
static int tile_cholesky(int kd, double *band, int D, rod_v2 T[6][3])
{
    for (int a = 0; a < 6; a++) {
        double *Li = ROW(6 * D + a) + 6 * D;
        for (int b = 0; b <= a; b++) {
            const double *Lj = ROW(6 * D + b) + 6 * D;
            double s = T[b][a / 2][a % 2];
            for (int k = 0; k < b; k++) s -= Li[k] * Lj[k];
            if (b < a) Li[b] = s * Lj[b];
            else {
                if (!(s > 0)) return -1;
                Li[a] = 1 / sqrt(s);
            }
        }
    }
    return 0;
}

/* Rows 6D..6D+5 of L by 6 × 6 tiles, L_DC = (A_DC − Σ_K L_DK L_CKᵀ) L_CC⁻ᵀ
 * for the tiles C, K from F on, the first tile column where the rows are
 * not zero (the rod's systems: blocks of six rows, F within the band of all
 * six).  The tiles of these rows are kept by columns as they are found:
 * X[C − F][b][p] holds rows 2p and 2p + 1 of column b of tile C. */
static int factor_tiles(int kd, double *band, int D, int F)
{
    rod_v2 X[D - F + 1][6][3];
    for (int C = F; C <= D; C++) {
        tile_update(kd, band, D, C, F, X, X[C - F]);
        if (C < D) tile_solve(kd, band, D, C, X[C - F]);
        else if (tile_cholesky(kd, band, D, X[C - F])) return -1;
    }
    return 0;
}

int rod_band_cholesky(int n, int kd, double *band)
{
    for (int i = 0; i < n;) {
        int F = i / 6;
        for (int a = 0; a < 6 && i % 6 == 0 && i + 6 <= n; a++) {
            int f = row_start(ROW(i + a), i + a - kd > 0 ? i + a - kd : 0, i + a) / 6;
            F = f < F ? f : F;
        }
        if (i % 6 == 0 && i + 6 <= n && 6 * F >= i + 5 - kd) {
            if (factor_tiles(kd, band, i / 6, F)) return -1;
            i += 6;
        } else if (factor_row(kd, band, i++)) return -1;
    }
    return 0;
}

#undef ROW

void rod_band_solve(int n, int kd, const double *band, double *b)
{
    for (int i = 0; i < n; i++) { /* L y = b */
        const double *Li = band + (size_t)(i + 1) * kd;
        int k0 = row_start(Li, i - kd > 0 ? i - kd : 0, i);
        b[i] = (b[i] - dot(Li + k0, b + k0, i - k0)) * Li[i];
    }
    for (int i = n - 1; i >= 0; i--) { /* Lᵀ x = y, by rows of L: x_i known, taken out of the rows above */
        const double *Li = band + (size_t)(i + 1) * kd;
        int k0 = row_start(Li, i - kd > 0 ? i - kd : 0, i);
        b[i] *= Li[i];
        axpy_sub(b[i], Li + k0, b + k0, i - k0);
    }
}
