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

int rod_band_cholesky(int n, int kd, double *band)
{
    for (int i = 0; i < n; i++) {
        double *Li = band + (size_t)(i + 1) * kd;
        int j0 = i - kd > 0 ? i - kd : 0;
        for (int j = j0; j <= i; j++) {
            const double *Lj = band + (size_t)(j + 1) * kd;
            double s = Li[j];
            for (int k = j0; k < j; k++) s -= Li[k] * Lj[k]; /* L(j,k) = 0 for k < j − kd ≤ i − kd */
            if (j < i) Li[j] = s / Lj[j];
            else {
                if (!(s > 0)) return -1;
                Li[i] = sqrt(s);
            }
        }
    }
    return 0;
}

void rod_band_solve(int n, int kd, const double *band, double *b)
{
    for (int i = 0; i < n; i++) { /* L y = b */
        const double *Li = band + (size_t)(i + 1) * kd;
        double s = b[i];
        for (int k = i - kd > 0 ? i - kd : 0; k < i; k++) s -= Li[k] * b[k];
        b[i] = s / Li[i];
    }
    for (int i = n - 1; i >= 0; i--) { /* Lᵀ x = y */
        double s = b[i];
        int k1 = i + kd < n - 1 ? i + kd : n - 1;
        for (int k = i + 1; k <= k1; k++) s -= band[(size_t)(k + 1) * kd + i] * b[k];
        b[i] = s / band[(size_t)(i + 1) * kd + i];
    }
}
