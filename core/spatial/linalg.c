/* linalg.c — small dense linear algebra (linalg.h): LU with partial
 * pivoting (Golub & Van Loan, Algorithm 3.4.1) and Cholesky (Algorithm 4.2.1). */
#include "spatial/linalg.h"

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
    for (int k = 0; k < n; k++) { /* b = P b, then L y = b */
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++) b[r] -= LU[n * r + c] * b[c];
    for (int r = n - 1; r >= 0; r--) { /* U x = y */
        for (int c = r + 1; c < n; c++) b[r] -= LU[n * r + c] * b[c];
        b[r] /= LU[n * r + r];
    }
}

void spd_cholesky(int n, double *A)
{
    for (int j = 0; j < n; j++) {
        double s = A[n * j + j];
        for (int k = 0; k < j; k++) s -= A[n * j + k] * A[n * j + k];
        double ljj = sqrt(s);
        A[n * j + j] = ljj;
        for (int i = j + 1; i < n; i++) {
            double t = A[n * i + j];
            for (int k = 0; k < j; k++) t -= A[n * i + k] * A[n * j + k];
            A[n * i + j] = t / ljj;
        }
    }
}

void spd_cholesky_solve(int n, const double *L, double *b)
{
    for (int i = 0; i < n; i++) { /* L y = b */
        for (int k = 0; k < i; k++) b[i] -= L[n * i + k] * b[k];
        b[i] /= L[n * i + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* Lᵀ x = y */
        for (int k = i + 1; k < n; k++) b[i] -= L[n * k + i] * b[k];
        b[i] /= L[n * i + i];
    }
}

/* The sizes XPBD's joints, contacts and rods solve (3, 5, 6), unrolled: the
 * operations of spd_cholesky and spd_cholesky_solve in the same order. */
static void spd_solve_3(double *restrict A, double *restrict b)
{
    A[0] = sqrt(A[0]);
    A[3] = (A[3]) / A[0];
    A[6] = (A[6]) / A[0];
    A[4] = sqrt(A[4] - A[3] * A[3]);
    A[7] = (A[7] - A[6] * A[3]) / A[4];
    A[8] = sqrt(A[8] - A[6] * A[6] - A[7] * A[7]);
    b[0] = (b[0]) / A[0];
    b[1] = (b[1] - A[3] * b[0]) / A[4];
    b[2] = (b[2] - A[6] * b[0] - A[7] * b[1]) / A[8];
    b[2] = (b[2]) / A[8];
    b[1] = (b[1] - A[7] * b[2]) / A[4];
    b[0] = (b[0] - A[3] * b[1] - A[6] * b[2]) / A[0];
}
static void spd_solve_5(double *restrict A, double *restrict b)
{
    A[0] = sqrt(A[0]);
    A[5] = (A[5]) / A[0];
    A[10] = (A[10]) / A[0];
    A[15] = (A[15]) / A[0];
    A[20] = (A[20]) / A[0];
    A[6] = sqrt(A[6] - A[5] * A[5]);
    A[11] = (A[11] - A[10] * A[5]) / A[6];
    A[16] = (A[16] - A[15] * A[5]) / A[6];
    A[21] = (A[21] - A[20] * A[5]) / A[6];
    A[12] = sqrt(A[12] - A[10] * A[10] - A[11] * A[11]);
    A[17] = (A[17] - A[15] * A[10] - A[16] * A[11]) / A[12];
    A[22] = (A[22] - A[20] * A[10] - A[21] * A[11]) / A[12];
    A[18] = sqrt(A[18] - A[15] * A[15] - A[16] * A[16] - A[17] * A[17]);
    A[23] = (A[23] - A[20] * A[15] - A[21] * A[16] - A[22] * A[17]) / A[18];
    A[24] = sqrt(A[24] - A[20] * A[20] - A[21] * A[21] - A[22] * A[22] - A[23] * A[23]);
    b[0] = (b[0]) / A[0];
    b[1] = (b[1] - A[5] * b[0]) / A[6];
    b[2] = (b[2] - A[10] * b[0] - A[11] * b[1]) / A[12];
    b[3] = (b[3] - A[15] * b[0] - A[16] * b[1] - A[17] * b[2]) / A[18];
    b[4] = (b[4] - A[20] * b[0] - A[21] * b[1] - A[22] * b[2] - A[23] * b[3]) / A[24];
    b[4] = (b[4]) / A[24];
    b[3] = (b[3] - A[23] * b[4]) / A[18];
    b[2] = (b[2] - A[17] * b[3] - A[22] * b[4]) / A[12];
    b[1] = (b[1] - A[11] * b[2] - A[16] * b[3] - A[21] * b[4]) / A[6];
    b[0] = (b[0] - A[5] * b[1] - A[10] * b[2] - A[15] * b[3] - A[20] * b[4]) / A[0];
}
static void spd_solve_6(double *restrict A, double *restrict b)
{
    A[0] = sqrt(A[0]);
    A[6] = (A[6]) / A[0];
    A[12] = (A[12]) / A[0];
    A[18] = (A[18]) / A[0];
    A[24] = (A[24]) / A[0];
    A[30] = (A[30]) / A[0];
    A[7] = sqrt(A[7] - A[6] * A[6]);
    A[13] = (A[13] - A[12] * A[6]) / A[7];
    A[19] = (A[19] - A[18] * A[6]) / A[7];
    A[25] = (A[25] - A[24] * A[6]) / A[7];
    A[31] = (A[31] - A[30] * A[6]) / A[7];
    A[14] = sqrt(A[14] - A[12] * A[12] - A[13] * A[13]);
    A[20] = (A[20] - A[18] * A[12] - A[19] * A[13]) / A[14];
    A[26] = (A[26] - A[24] * A[12] - A[25] * A[13]) / A[14];
    A[32] = (A[32] - A[30] * A[12] - A[31] * A[13]) / A[14];
    A[21] = sqrt(A[21] - A[18] * A[18] - A[19] * A[19] - A[20] * A[20]);
    A[27] = (A[27] - A[24] * A[18] - A[25] * A[19] - A[26] * A[20]) / A[21];
    A[33] = (A[33] - A[30] * A[18] - A[31] * A[19] - A[32] * A[20]) / A[21];
    A[28] = sqrt(A[28] - A[24] * A[24] - A[25] * A[25] - A[26] * A[26] - A[27] * A[27]);
    A[34] = (A[34] - A[30] * A[24] - A[31] * A[25] - A[32] * A[26] - A[33] * A[27]) / A[28];
    A[35] = sqrt(A[35] - A[30] * A[30] - A[31] * A[31] - A[32] * A[32] - A[33] * A[33] - A[34] * A[34]);
    b[0] = (b[0]) / A[0];
    b[1] = (b[1] - A[6] * b[0]) / A[7];
    b[2] = (b[2] - A[12] * b[0] - A[13] * b[1]) / A[14];
    b[3] = (b[3] - A[18] * b[0] - A[19] * b[1] - A[20] * b[2]) / A[21];
    b[4] = (b[4] - A[24] * b[0] - A[25] * b[1] - A[26] * b[2] - A[27] * b[3]) / A[28];
    b[5] = (b[5] - A[30] * b[0] - A[31] * b[1] - A[32] * b[2] - A[33] * b[3] - A[34] * b[4]) / A[35];
    b[5] = (b[5]) / A[35];
    b[4] = (b[4] - A[34] * b[5]) / A[28];
    b[3] = (b[3] - A[27] * b[4] - A[33] * b[5]) / A[21];
    b[2] = (b[2] - A[20] * b[3] - A[26] * b[4] - A[32] * b[5]) / A[14];
    b[1] = (b[1] - A[13] * b[2] - A[19] * b[3] - A[25] * b[4] - A[31] * b[5]) / A[7];
    b[0] = (b[0] - A[6] * b[1] - A[12] * b[2] - A[18] * b[3] - A[24] * b[4] - A[30] * b[5]) / A[0];
}

void spd_solve(int n, double *A, double *b)
{
    switch (n) {
    case 3: spd_solve_3(A, b); break;
    case 5: spd_solve_5(A, b); break;
    case 6: spd_solve_6(A, b); break;
    default:
        spd_cholesky(n, A);
        spd_cholesky_solve(n, A, b);
        break;
    }
}
