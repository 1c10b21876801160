/* inertia.c — see inertia.h. */
#include "model/inertia.h"

#include <math.h>
#include <string.h>

#define JACOBI_SWEEPS 50

/* One Jacobi rotation in the (p, q) plane: A <- J^T A J zeroes A[p][q]. */
static void jacobi_rotate(double a[9], int p, int q)
{
    double apq = a[3 * p + q];
    if (apq == 0.0) return;
    double theta = (a[3 * q + q] - a[3 * p + p]) / (2.0 * apq);
    double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
    double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
    double J[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, AJ[9], out[9];
    J[3 * p + p] = c;
    J[3 * q + q] = c;
    J[3 * p + q] = s;
    J[3 * q + p] = -s;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) AJ[3 * r + k] = a[3 * r] * J[k] + a[3 * r + 1] * J[3 + k] + a[3 * r + 2] * J[6 + k];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) out[3 * r + k] = J[r] * AJ[k] + J[3 + r] * AJ[3 + k] + J[6 + r] * AJ[6 + k];
    out[3 * p + q] = out[3 * q + p] = 0.0;
    memcpy(a, out, sizeof out);
}

static void sort3(double v[3])
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (v[j] > v[j + 1]) {
                double t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
}

void sym3_eigenvalues(const double A[9], double ev[3])
{
    double a[9];
    memcpy(a, A, sizeof a);
    for (int sweep = 0; sweep < JACOBI_SWEEPS; sweep++) {
        double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        double diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
        if (!(off > 1e-32 * diag)) break;
        jacobi_rotate(a, 0, 1);
        jacobi_rotate(a, 0, 2);
        jacobi_rotate(a, 1, 2);
    }
    ev[0] = a[0];
    ev[1] = a[4];
    ev[2] = a[8];
    sort3(ev);
}

inertia_status inertia_check(const double I[9], double ev[3])
{
    double scale = 0.0, a[9];
    for (int i = 0; i < 9; i++) scale = fmax(scale, fabs(I[i]));
    ev[0] = ev[1] = ev[2] = 0.0;
    if (!(scale > 0.0)) return INERTIA_NOT_PD;
    for (int i = 0; i < 9; i++) a[i] = I[i] / scale;
    sym3_eigenvalues(a, ev);
    int pd = ev[0] > 1e-12 * ev[2];
    int triangle = ev[2] <= (ev[0] + ev[1]) + 1e-9 * ev[2];
    for (int i = 0; i < 3; i++) ev[i] *= scale;
    if (!pd) return INERTIA_NOT_PD;
    return triangle ? INERTIA_OK : INERTIA_TRIANGLE;
}
