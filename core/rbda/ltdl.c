/* ltdl.c — see ltdl.h. */
#include "rbda/ltdl.h"

void ltdl_parents(const mech_model *m, int *lambda)
{
    for (int b = 0; b < m->nb; b++) {
        const mech_body *mb = &m->bodies[b];
        int up = -1;
        for (int p = mb->parent; p >= 0 && up < 0; p = m->bodies[p].parent)
            if (m->bodies[p].nv) up = m->bodies[p].vidx + m->bodies[p].nv - 1;
        for (int k = 0; k < mb->nv; k++) lambda[mb->vidx + k] = k ? mb->vidx + k - 1 : up;
    }
}

/* Table 6.3: from the last dof up, each row k scaled by its pivot and
 * subtracted from its ancestors' rows, along the ancestor chain only. */
int ltdl_factor(int n, const int *lambda, double *H)
{
    for (int k = n - 1; k >= 0; k--) {
        const double hkk = H[(size_t)k * n + k];
        if (!(hkk > 0)) return -1;
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            const double a = H[(size_t)k * n + i] / hkk;
            for (int j = i; j >= 0; j = lambda[j]) H[(size_t)i * n + j] -= a * H[(size_t)k * n + j];
            H[(size_t)k * n + i] = a;
        }
    }
    return 0;
}

void ltdl_solve_lt(int n, const int *lambda, const double *LD, double *x)
{
    for (int k = n - 1; k >= 0; k--) {
        const double xk = x[k];
        if (xk == 0) continue; /* nothing to pass up: a branch the vector does not reach */
        for (int i = lambda[k]; i >= 0; i = lambda[i]) x[i] -= LD[(size_t)k * n + i] * xk;
    }
}

void ltdl_solve_l(int n, const int *lambda, const double *LD, double *x)
{
    for (int k = 0; k < n; k++)
        for (int i = lambda[k]; i >= 0; i = lambda[i]) x[k] -= LD[(size_t)k * n + i] * x[i];
}
