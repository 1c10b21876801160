/* linsolve.c — general dense LU with partial pivoting (Golub & Van Loan,
 * Algorithm 3.4.1), used by the dense reference for H qdd = tau - C. */
#include "rbda/dense.h"

#include <math.h>

int dense_lu(int n, double *A, int *piv)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int r = k + 1; r < n; r++)
            if (fabs(A[n * r + k]) > fabs(A[n * p + k])) p = r;
        piv[k] = p;
        if (A[n * p + k] == 0.0) return -1;
        if (p != k)
            for (int c = 0; c < n; c++) {
                double t = A[n * k + c];
                A[n * k + c] = A[n * p + c];
                A[n * p + c] = t;
            }
        for (int r = k + 1; r < n; r++) {
            double l = A[n * r + k] /= A[n * k + k];
            for (int c = k + 1; c < n; c++) A[n * r + c] -= l * A[n * k + c];
        }
    }
    return 0;
}

void dense_lu_solve(int n, const double *LU, const int *piv, double *b)
{
    for (int k = 0; k < n; k++) {                       /* b = P b, then L y = b */
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++) b[r] -= LU[n * r + c] * b[c];
    for (int r = n - 1; r >= 0; r--) {                  /* U x = y */
        for (int c = r + 1; c < n; c++) b[r] -= LU[n * r + c] * b[c];
        b[r] /= LU[n * r + r];
    }
}
