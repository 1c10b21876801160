/* rod_basis.c — Lagrange bases of order 1-3 (§6.3.1, Fig. 7), Gauss–Legendre
 * rules on [0, 1], and the derivative of the right Jacobian Γ(ψ) applied to a
 * vector, which the bend/twist strain of an element needs. */
#include "xpbd/rod_internal.h"

#include "spatial/spatial.h"

#include <math.h>

void rod_lagrange(int m, double xi, double phi[4], double dphi[4])
{
    for (int a = 0; a <= m; a++) {
        double xa = (double)a / m, num = 1, den = 1, d = 0;
        for (int k = 0; k <= m; k++) {
            if (k == a) continue;
            double xk = (double)k / m, prod = 1;
            for (int q = 0; q <= m; q++)
                if (q != a && q != k) prod *= xi - (double)q / m;
            d += prod; /* product rule: drop one factor (ξ − ξ_k) at a time */
            num *= xi - xk;
            den *= xa - xk;
        }
        phi[a] = num / den;
        dphi[a] = d / den;
    }
}

void rod_gauss(int n, double xi[4], double w[4])
{
    /* Gauss–Legendre on [−1, 1], mapped by ξ = (1 + x)/2, w = w_x/2. */
    static const double x[4][4] = {
        { 0 },
        { -0.57735026918962576, 0.57735026918962576 },
        { -0.77459666924148338, 0, 0.77459666924148338 },
        { -0.86113631159405258, -0.33998104358485626, 0.33998104358485626, 0.86113631159405258 },
    };
    static const double wx[4][4] = {
        { 2 },
        { 1, 1 },
        { 5.0 / 9, 8.0 / 9, 5.0 / 9 },
        { 0.34785484513745386, 0.65214515486254614, 0.65214515486254614, 0.34785484513745386 },
    };
    for (int k = 0; k < n; k++) {
        xi[k] = 0.5 * (1 + x[n - 1][k]);
        w[k] = 0.5 * wx[n - 1][k];
    }
}

/* Γ(ψ) = I − b(t) ψ^ + c(t) ψ^², t = |ψ|, b = (1 − cos t)/t², c = (t − sin t)/t³,
 * so Γa = a − b ψ×a + c ψ×(ψ×a) and, with b′ = db/dt, c′ = dc/dt,
 *   d(Γa)/dψ = b a^ − (b′/t)(ψ×a)ψᵀ + (c′/t)(ψ×(ψ×a))ψᵀ + c[(ψ·a)I + ψaᵀ − 2aψᵀ].
 * b, c, b′/t, c′/t by Taylor series below t = 0.1 (the closed forms cancel). */
void rod_jr_apply_derivative(const double psi[3], const double a[3], double Q[9])
{
    double t2 = v3_dot(psi, psi), t = sqrt(t2), b, c, bt, ct;
    if (t < 0.1) {
        double t4 = t2 * t2, t6 = t4 * t2;
        b = 0.5 - t2 / 24 + t4 / 720 - t6 / 40320;
        c = 1.0 / 6 - t2 / 120 + t4 / 5040 - t6 / 362880;
        bt = -1.0 / 12 + t2 / 180 - t4 / 6720 + t6 / 453600;
        ct = -1.0 / 60 + t2 / 1260 - t4 / 60480 + t6 / 4989600;
    } else {
        double s = sin(t), co = cos(t);
        b = (1 - co) / t2;
        c = (t - s) / (t2 * t);
        bt = (t * s - 2 * (1 - co)) / (t2 * t2);
        ct = ((1 - co) * t - 3 * (t - s)) / (t2 * t2 * t);
    }
    double pa[3], ppa[3], A[9], pd = v3_dot(psi, a);
    v3_cross(psi, a, pa);
    v3_cross(psi, pa, ppa);
    m3_skew(a, A);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            Q[3 * r + k] = b * A[3 * r + k] - bt * pa[r] * psi[k] + ct * ppa[r] * psi[k] +
                           c * ((r == k ? pd : 0) + psi[r] * a[k] - 2 * a[r] * psi[k]);
}
