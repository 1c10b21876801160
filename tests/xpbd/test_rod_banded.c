/* test_rod_banded.c — the banded Cholesky solve (§8.2) against a dense
 * Gaussian elimination on random SPD banded systems, and the block bandwidth
 * of real rod systems: derived from the connectivity, equal to 2m − 1 for m
 * Gauss points per element (1 for the rigid chain), clamps included, with
 * every block of ∇C M⁻¹ ∇Cᵀ beyond it exactly zero. */
#include "xpbd/rod_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* Dense solve with partial pivoting (A overwritten). */
static void dense_solve(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[n * r + c]) > fabs(A[n * piv + c])) piv = r;
        for (int k = 0; k < n; k++) {
            double t = A[n * c + k];
            A[n * c + k] = A[n * piv + k];
            A[n * piv + k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < n; r++) {
            double f = A[n * r + c] / A[n * c + c];
            for (int k = c; k < n; k++) A[n * r + k] -= f * A[n * c + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        for (int k = r + 1; k < n; k++) b[r] -= A[n * r + k] * b[k];
        b[r] /= A[n * r + r];
    }
}

/* A = B Bᵀ + 0.1 I with B lower banded: SPD, half-bandwidth kd, and as
 * ill-conditioned as B makes it. */
static double random_system(int n, int kd)
{
    double *B = calloc((size_t)n * n, sizeof *B), *A = calloc((size_t)n * n, sizeof *A);
    double *band = calloc((size_t)n * (kd + 1), sizeof *band);
    double *b1 = malloc((size_t)n * sizeof *b1), *b2 = malloc((size_t)n * sizeof *b2);
    int half = kd / 2;
    for (int i = 0; i < n; i++)
        for (int j = i - half > 0 ? i - half : 0; j <= i; j++) B[n * i + j] = urand();
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? 0.1 : 0;
            for (int k = 0; k < n; k++) s += B[n * i + k] * B[n * j + k];
            A[n * i + j] = s;
            if (j <= i && i - j <= kd) band[(size_t)(i + 1) * kd + j] = s;
            else if (j <= i && s != 0) {
                printf("FAIL test matrix wider than kd\n");
                failures++;
            }
        }
    for (int i = 0; i < n; i++) b1[i] = b2[i] = urand();
    double err = 0, scale = 0;
    if (rod_band_cholesky(n, kd, band)) {
        printf("FAIL cholesky n=%d kd=%d\n", n, kd);
        failures++;
    }
    rod_band_solve(n, kd, band, b1);
    dense_solve(n, A, b2);
    for (int i = 0; i < n; i++) {
        err = fmax(err, fabs(b1[i] - b2[i]));
        scale = fmax(scale, fabs(b2[i]));
    }
    free(B);
    free(A);
    free(band);
    free(b1);
    free(b2);
    return err / scale;
}

/* Dense ∇C M⁻¹ ∇Cᵀ block (c, d) from the evaluated blocks. */
static double block_norm(const xpbd_rod *rod, const rod_block *bc, const rod_block *bd)
{
    double s = 0;
    for (int k = 0; k < bc->nn; k++)
        for (int q = 0; q < bd->nn; q++) {
            if (bc->node0 + k != bd->node0 + q) continue;
            int j = bc->node0 + k;
            for (int a = 0; a < 6; a++)
                for (int b = 0; b < 6; b++) {
                    double t = 0;
                    for (int r = 0; r < 6; r++)
                        t += bc->G[k][a][r] * bd->G[q][b][r] / (r < 3 ? rod->mass[j] : rod->inertia[3 * j + r - 3]);
                    s += fabs(t);
                }
        }
    return s;
}

static void check_rod_band(xpbd_rod_discretization disc, int full)
{
    xpbd_rod_desc d;
    xpbd_rod rod;
    char err[128];
    xpbd_rod_desc_default(&d);
    d.disc = disc;
    d.full_integration = full;
    d.elements = 6;
    d.end[0].hold = d.end[1].hold = 1;
    if (xpbd_rod_init(&rod, &d, err, sizeof err)) {
        printf("FAIL init: %s\n", err);
        failures++;
        return;
    }
    int m = rod.ngauss, want = disc == XPBD_ROD_RIGID ? 1 : 2 * m - 1, beyond = 0, at_edge = 0;
    for (int c = 0; c < rod.ncon; c++) rod_block_eval(&rod, c, &rod.blocks[c]);
    for (int c = 0; c < rod.ncon; c++)
        for (int e = c + 1; e < rod.ncon; e++) {
            double s = block_norm(&rod, &rod.blocks[c], &rod.blocks[e]);
            if (e - c > rod.bandwidth && s != 0) beyond++;
            if (e - c == rod.bandwidth && s != 0) at_edge++;
        }
    printf("order %d %-7s: %d Gauss points/element, block bandwidth %d (2m-1 = %d), %d nonzero blocks on the "
           "outer band, %d beyond\n",
           rod.order, full ? "full" : "reduced", m, rod.bandwidth, want, at_edge, beyond);
    if (rod.bandwidth != want || beyond || !at_edge) {
        printf("FAIL bandwidth\n");
        failures++;
    }
    xpbd_rod_free(&rod);
}

int main(void)
{
    const int ns[] = { 1, 7, 30, 97, 240 }, kds[] = { 0, 1, 5, 11, 35 };
    double worst = 0;
    srand(3);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++)
            for (int trial = 0; trial < 3; trial++) worst = fmax(worst, random_system(ns[i], kds[k]));
    printf("banded Cholesky vs dense elimination: worst relative difference %.2e\n", worst);
    if (!(worst < 1e-9)) {
        printf("FAIL banded solve\n");
        failures++;
    }
    for (int disc = XPBD_ROD_RIGID; disc <= XPBD_ROD_CUBIC; disc++)
        for (int full = 0; full <= (disc != XPBD_ROD_RIGID); full++)
            check_rod_band((xpbd_rod_discretization)disc, full);
    printf(failures ? "%d FAILURES\n" : "all passed\n", failures);
    return failures != 0;
}
