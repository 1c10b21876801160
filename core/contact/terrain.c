/* terrain.c — plane and bicubic-grid height fields (terrain.h).
 *
 * The grid is a tensor-product (bicubic) Hermite interpolant with
 * Catmull–Rom tangents (Catmull & Rom 1974): per axis a sample
 * tangent is the central difference (h[i+1] - h[i-1]) / 2 of its neighbours
 * inside and 0 on the first and last sample.  The cross tangents are the
 * same rule applied to the tangents.  Value and first derivatives match
 * across every cell edge, so the ground force's direction (-h_x, -h_y, 1) is
 * continuous; outside the grid the coordinate is clamped onto it, where the
 * zero edge tangents make the surface meet the flat continuation C1. */
#include "contact/terrain.h"

#include <math.h>

/* Cubic Hermite basis on t in [0, 1] and its t-derivative (h00 h10 h01 h11). */
static void hermite(double t, double b[4], double db[4])
{
    double t2 = t * t, t3 = t2 * t;
    b[0] = 2 * t3 - 3 * t2 + 1;
    db[0] = 6 * t2 - 6 * t;
    b[1] = t3 - 2 * t2 + t;
    db[1] = 3 * t2 - 4 * t + 1;
    b[2] = -2 * t3 + 3 * t2;
    db[2] = -6 * t2 + 6 * t;
    b[3] = t3 - t2;
    db[3] = 3 * t2 - 2 * t;
}

static double sample(const mech_ground *g, int i, int j) { return g->h[j * g->nx + i]; }

/* Catmull–Rom tangent along x at sample (i, j), in height per sample spacing. */
static double tan_x(const mech_ground *g, int i, int j)
{
    if (i == 0 || i == g->nx - 1) return 0.0;
    return 0.5 * (sample(g, i + 1, j) - sample(g, i - 1, j));
}

static double tan_y(const mech_ground *g, int i, int j)
{
    if (j == 0 || j == g->ny - 1) return 0.0;
    return 0.5 * (sample(g, i, j + 1) - sample(g, i, j - 1));
}

static double tan_xy(const mech_ground *g, int i, int j)
{
    if (j == 0 || j == g->ny - 1) return 0.0;
    return 0.5 * (tan_x(g, i, j + 1) - tan_x(g, i, j - 1));
}

/* The cell index and local coordinate of u on n samples spaced 1 apart from
 * 0; *inside 0 when u was clamped onto the grid. */
static int cell(double u, int n, double *t, int *inside)
{
    *inside = 1;
    if (u <= 0) {
        *inside = u == 0;
        *t = 0;
        return 0;
    }
    if (u >= n - 1) {
        *inside = u == n - 1;
        *t = 1;
        return n - 2;
    }
    int c = (int)u;
    if (c > n - 2) c = n - 2;
    *t = u - c;
    return c;
}

void terrain_grid_eval(const mech_ground *g, double x, double y, double *h, double *hx, double *hy)
{
    int inx, iny;
    double tx, ty;
    int i = cell((x - g->x0) / g->dx, g->nx, &tx, &inx);
    int j = cell((y - g->y0) / g->dy, g->ny, &ty, &iny);
    double bx[4], dbx[4], by[4], dby[4];
    hermite(tx, bx, dbx);
    hermite(ty, by, dby);
    /* Per corner (a, b): value, x-, y- and cross tangents, weighted by the
     * basis functions of that corner (h00/h10 at 0, h01/h11 at 1). */
    double v = 0, vx = 0, vy = 0;
    for (int b = 0; b < 2; b++)
        for (int a = 0; a < 2; a++) {
            int ci = i + a, cj = j + b;
            double f = sample(g, ci, cj), fx = tan_x(g, ci, cj), fy = tan_y(g, ci, cj), fxy = tan_xy(g, ci, cj);
            double ux = bx[2 * a], uxt = bx[2 * a + 1], dux = dbx[2 * a], duxt = dbx[2 * a + 1];
            double uy = by[2 * b], uyt = by[2 * b + 1], duy = dby[2 * b], duyt = dby[2 * b + 1];
            v += f * ux * uy + fx * uxt * uy + fy * ux * uyt + fxy * uxt * uyt;
            vx += f * dux * uy + fx * duxt * uy + fy * dux * uyt + fxy * duxt * uyt;
            vy += f * ux * duy + fx * uxt * duy + fy * ux * duyt + fxy * uxt * duyt;
        }
    *h = v;
    *hx = inx ? vx / g->dx : 0.0;
    *hy = iny ? vy / g->dy : 0.0;
}

/* Per cell the interpolant is sum over its corners of f ux uy + fx uxt uy +
 * fy ux uyt + fxy uxt uyt, where ux, uy >= 0 sum to 1 and |uxt|, |uyt| sum
 * to t (1 - t) <= 1/4: h <= max f + (max |fx| + max |fy|) / 4 + max |fxy| / 16
 * over the samples, and the flat continuation outside stays below max f. */
double terrain_grid_top(const mech_ground *g)
{
    double f = -INFINITY, fx = 0, fy = 0, fxy = 0;
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) {
            f = fmax(f, sample(g, i, j));
            fx = fmax(fx, fabs(tan_x(g, i, j)));
            fy = fmax(fy, fabs(tan_y(g, i, j)));
            fxy = fmax(fxy, fabs(tan_xy(g, i, j)));
        }
    return f + 0.25 * (fx + fy) + fxy / 16;
}
