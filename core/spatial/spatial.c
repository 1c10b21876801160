/* spatial.c — see spatial.h.  Equation numbers are RBDA (Featherstone 2008). */
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

void m3_identity(double m[9])
{
    static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    memcpy(m, I, sizeof I);
}

void m3_transpose(const double a[9], double out[9])
{
    double t[9] = { a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8] };
    memcpy(out, t, sizeof t);
}

/* 3x3 inverse by the adjugate; returns the determinant. */
double m3_inverse(const double a[9], double out[9])
{
    double c[9] = {
        a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
        a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
        a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
    };
    double det = a[0] * c[0] + a[1] * c[3] + a[2] * c[6];
    for (int i = 0; i < 9; i++) out[i] = c[i] / det;
    return det;
}

void m3_skew(const double v[3], double out[9])
{
    double t[9] = { 0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0 };
    memcpy(out, t, sizeof t);
}

/* Rodrigues: R = I + sin(a) K + (1 - cos(a)) K^2, K = axis x. */
void rot_axis_angle(const double axis[3], double angle, double R[9])
{
    rot_axis_sincos(axis, sin(angle), cos(angle), R);
}

void rot_axis_sincos(const double axis[3], double s, double cos_angle, double R[9])
{
    double K[9], K2[9];
    double c = 1.0 - cos_angle;
    m3_skew(axis, K);
    m3_mul(K, K, K2);
    m3_identity(R);
    for (int i = 0; i < 9; i++) R[i] += s * K[i] + c * K2[i];
}

void quat_to_rot(const double q[4], double R[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y - w * z);
    R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);
    R[7] = 2 * (y * z + w * x);
    R[8] = 1 - 2 * (x * x + y * y);
}

/* Shepperd's method: pick the largest of 4w^2, 4x^2, 4y^2, 4z^2 to divide by. */
void rot_to_quat(const double R[9], double q[4])
{
    double tr = R[0] + R[4] + R[8];
    if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q[0] = 0.25 * s;
        q[1] = (R[7] - R[5]) / s;
        q[2] = (R[2] - R[6]) / s;
        q[3] = (R[3] - R[1]) / s;
    } else if (R[0] >= R[4] && R[0] >= R[8]) {
        double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (R[1] + R[3]) / s;
        q[3] = (R[2] + R[6]) / s;
    } else if (R[4] >= R[8]) {
        double s = 2.0 * sqrt(1.0 - R[0] + R[4] - R[8]);
        q[0] = (R[2] - R[6]) / s;
        q[1] = (R[1] + R[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 - R[0] - R[4] + R[8]);
        q[0] = (R[3] - R[1]) / s;
        q[1] = (R[2] + R[6]) / s;
        q[2] = (R[5] + R[7]) / s;
        q[3] = 0.25 * s;
    }
    if (q[0] < 0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
}

void quat_mul(const double a[4], const double b[4], double out[4])
{
    double t[4] = {
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    };
    memcpy(out, t, sizeof t);
}

/* q = [cos(t/2), sin(t/2) u], t = |phi|; sin(t/2)/t by its series below 1e-4. */
void quat_from_rotvec(const double phi[3], double out[4])
{
    double t = v3_norm(phi);
    double h = 0.5 * t;
    double k = t < 1e-4 ? 0.5 - t * t / 48.0 : sin(h) / t;
    out[0] = cos(h);
    out[1] = k * phi[0];
    out[2] = k * phi[1];
    out[3] = k * phi[2];
}

void quat_normalize(const double q[4], double out[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) out[i] = q[i] / n;
}

void m6_identity(double m[36])
{
    memset(m, 0, 36 * sizeof(double));
    for (int i = 0; i < 6; i++) m[7 * i] = 1.0;
}

void m6_mul(const double a[36], const double b[36], double out[36])
{
    double t[36];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            double s = 0;
            for (int k = 0; k < 6; k++) s += a[6 * r + k] * b[6 * k + c];
            t[6 * r + c] = s;
        }
    memcpy(out, t, sizeof t);
}

void m6_transpose(const double a[36], double out[36])
{
    double t[36];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) t[6 * c + r] = a[6 * r + c];
    memcpy(out, t, sizeof t);
}

void m6_mulv(const double a[36], const double v[6], double out[6])
{
    double t[6];
    for (int r = 0; r < 6; r++) {
        double s = 0;
        for (int k = 0; k < 6; k++) s += a[6 * r + k] * v[k];
        t[r] = s;
    }
    memcpy(out, t, sizeof t);
}

void m6_tmulv(const double a[36], const double v[6], double out[6])
{
    double t[6];
    for (int c = 0; c < 6; c++) {
        double s = 0;
        for (int k = 0; k < 6; k++) s += a[6 * k + c] * v[k];
        t[c] = s;
    }
    memcpy(out, t, sizeof t);
}

void mat_mul(int r, int k, int c, const double *A, const double *B, double *out)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int l = 0; l < k; l++) s += A[k * i + l] * B[c * l + j];
            out[c * i + j] = s;
        }
}

void mat_tmul(int r, int k, int c, const double *A, const double *B, double *out)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int l = 0; l < k; l++) s += A[r * l + i] * B[c * l + j];
            out[c * i + j] = s;
        }
}

/* Writes the 3x3 block (br, bc) of a 6x6 matrix. */
static void m6_set_block(double X[36], int br, int bc, const double B[9])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) X[6 * (3 * br + r) + 3 * bc + c] = B[3 * r + c];
}

static void m6_get_block(const double X[36], int br, int bc, double B[9])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) B[3 * r + c] = X[6 * (3 * br + r) + 3 * bc + c];
}

/* eq. 2.24: X = [E 0; -E rx E]. */
void plux(const double E[9], const double r[3], double X[36])
{
    double rx[9], Erx[9], Z[9] = { 0 };
    m3_skew(r, rx);
    m3_mul(E, rx, Erx);
    for (int i = 0; i < 9; i++) Erx[i] = -Erx[i];
    m6_set_block(X, 0, 0, E);
    m6_set_block(X, 0, 1, Z);
    m6_set_block(X, 1, 0, Erx);
    m6_set_block(X, 1, 1, E);
}

/* X = [E 0; -E rx E]: rx = -E^T B, and A_X_B = plux(E^T, -E r). */
void plux_inverse(const double X[36], double Xinv[36])
{
    double E[9], B[9], Et[9], M[9], r[3], Er[3];
    m6_get_block(X, 0, 0, E);
    m6_get_block(X, 1, 0, B);
    m3_transpose(E, Et);
    m3_mul(Et, B, M); /* M = -rx */
    r[0] = -M[7];
    r[1] = -M[2];
    r[2] = -M[3];
    m3_mulv(E, r, Er);
    Er[0] = -Er[0];
    Er[1] = -Er[1];
    Er[2] = -Er[2];
    plux(Et, Er, Xinv);
}

/* eq. 2.25: X* = [E -E rx; 0 E] = X^{-T}. */
void plux_force(const double X[36], double Xf[36])
{
    double E[9], B[9], Z[9] = { 0 };
    m6_get_block(X, 0, 0, E);
    m6_get_block(X, 1, 0, B);
    m6_set_block(Xf, 0, 0, E);
    m6_set_block(Xf, 0, 1, B);
    m6_set_block(Xf, 1, 0, Z);
    m6_set_block(Xf, 1, 1, E);
}

/* eq. 2.31: v x = [wx 0; vx wx]. */
void crm(const double v[6], double out[36])
{
    double wx[9], vx[9], Z[9] = { 0 };
    m3_skew(v, wx);
    m3_skew(v + 3, vx);
    m6_set_block(out, 0, 0, wx);
    m6_set_block(out, 0, 1, Z);
    m6_set_block(out, 1, 0, vx);
    m6_set_block(out, 1, 1, wx);
}

/* eq. 2.32: v x* = -(v x)^T. */
void crf(const double v[6], double out[36])
{
    double m[36];
    crm(v, m);
    m6_transpose(m, out);
    for (int i = 0; i < 36; i++) out[i] = -out[i];
}

/* eq. 2.63: I = [Ic + m cx cx^T, m cx; m cx^T, m 1]. */
void mcI(double m, const double c[3], const double Ic[9], double I[36])
{
    double cx[9], cxcxT[9], mcx[9], mcxT[9], m1[9] = { 0 };
    m3_skew(c, cx);
    double cxT[9];
    m3_transpose(cx, cxT);
    m3_mul(cx, cxT, cxcxT);
    double tl[9];
    for (int i = 0; i < 9; i++) {
        tl[i] = Ic[i] + m * cxcxT[i];
        mcx[i] = m * cx[i];
        mcxT[i] = m * cxT[i];
    }
    m1[0] = m1[4] = m1[8] = m;
    m6_set_block(I, 0, 0, tl);
    m6_set_block(I, 0, 1, mcx);
    m6_set_block(I, 1, 0, mcxT);
    m6_set_block(I, 1, 1, m1);
}

/* ---- efficient forms ---- */

void sxform_compose(const sxform *cb, const sxform *ba, sxform *out)
{
    double t[3];
    if (ba->rot == SXFORM_ROT_NONE) m3_copy(cb->E, out->E);
    else if (cb->rot == SXFORM_ROT_NONE) m3_copy(ba->E, out->E);
    else m3_mul(cb->E, ba->E, out->E);
    out->rot = ba->rot == SXFORM_ROT_NONE                       ? cb->rot
             : cb->rot == SXFORM_ROT_NONE || cb->rot == ba->rot ? ba->rot
                                                                : SXFORM_ROT_GENERAL;
    sxform_rotate(ba, 1, cb->r, t);
    out->r[0] = ba->r[0] + t[0];
    out->r[1] = ba->r[1] + t[1];
    out->r[2] = ba->r[2] + t[2];
}

/* Packed symmetric [xx xy xz yy yz zz] to full 3x3. */
static void sym_unpack(const double p[6], double m[9])
{
    m[0] = p[0];
    m[1] = p[1];
    m[2] = p[2];
    m[3] = p[1];
    m[4] = p[3];
    m[5] = p[4];
    m[6] = p[2];
    m[7] = p[4];
    m[8] = p[5];
}

/* E^T S E for a packed symmetric S, into full 3x3: M = S E, then the upper
 * triangle of E^T M (45 multiplications). */
static void sym_rotate(const double E[9], const double s[6], double o[9])
{
    double m0 = s[0] * E[0] + s[1] * E[3] + s[2] * E[6], m1 = s[0] * E[1] + s[1] * E[4] + s[2] * E[7];
    double m2 = s[0] * E[2] + s[1] * E[5] + s[2] * E[8], m3 = s[1] * E[0] + s[3] * E[3] + s[4] * E[6];
    double m4 = s[1] * E[1] + s[3] * E[4] + s[4] * E[7], m5 = s[1] * E[2] + s[3] * E[5] + s[4] * E[8];
    double m6 = s[2] * E[0] + s[4] * E[3] + s[5] * E[6], m7 = s[2] * E[1] + s[4] * E[4] + s[5] * E[7];
    double m8 = s[2] * E[2] + s[4] * E[5] + s[5] * E[8];
    o[0] = E[0] * m0 + E[3] * m3 + E[6] * m6;
    o[1] = o[3] = E[0] * m1 + E[3] * m4 + E[6] * m7;
    o[2] = o[6] = E[0] * m2 + E[3] * m5 + E[6] * m8;
    o[4] = E[1] * m1 + E[4] * m4 + E[7] * m7;
    o[5] = o[7] = E[1] * m2 + E[4] * m5 + E[7] * m8;
    o[8] = E[2] * m2 + E[5] * m5 + E[8] * m8;
}

/* E^T M E for E a rotation about coordinate axis k alone (E_kk = 1): row
 * and column k keep, the other two mix (24 multiplications). */
SPATIAL_INLINE void axis_rotate(int k, const double E[9], const double M[9], double out[9])
{
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const double eii = E[3 * i + i], eij = E[3 * i + j], eji = E[3 * j + i], ejj = E[3 * j + j];
    double N[9];
#define MECH_AXIS_COLS(r) /* N = M E, row r: column k keeps, i and j mix */ \
    N[3 * r + k] = M[3 * r + k]; \
    N[3 * r + i] = M[3 * r + i] * eii + M[3 * r + j] * eji; \
    N[3 * r + j] = M[3 * r + i] * eij + M[3 * r + j] * ejj;
#define MECH_AXIS_ROWS(c) /* out = E^T N, column c: row k keeps, i and j mix */ \
    out[3 * k + c] = N[3 * k + c]; \
    out[3 * i + c] = eii * N[3 * i + c] + eji * N[3 * j + c]; \
    out[3 * j + c] = eij * N[3 * i + c] + ejj * N[3 * j + c];
    MECH_AXIS_COLS(0) MECH_AXIS_COLS(1) MECH_AXIS_COLS(2) MECH_AXIS_ROWS(0) MECH_AXIS_ROWS(1) MECH_AXIS_ROWS(2)
#undef MECH_AXIS_COLS
#undef MECH_AXIS_ROWS
}

SPATIAL_INLINE void axis_rotate3(int k, const double E[9], const sinertia *I, double A[9], double B[9], double C[9])
{
    double M[9];
    sym_unpack(I->A, M);
    axis_rotate(k, E, M, A);
    axis_rotate(k, E, I->B, B);
    sym_unpack(I->C, M);
    axis_rotate(k, E, M, C);
}

/* X = [E 0; -E rx E] = [E 0; 0 E] [1 0; -rx 1], so X^T I X is I rotated,
 * A' = E^T A E, B' = E^T B E, C' = E^T C E (by the structure of E), then
 * moved by r:
 *   [A' - B' rx + rx B'^T - rx C' rx,  B' + rx C';  sym,  C']
 * with -rx C' rx folded in: A'' = A' + rx B'^T - (B' + rx C') rx. */
void sinertia_tcongruence_add(const sxform *X, const sinertia *I, sinertia *acc)
{
    const double *E = X->E, *r = X->r;
    double A[9], B[9], C[9];
    switch (X->rot) {
    case SXFORM_ROT_NONE:
        sym_unpack(I->A, A);
        m3_copy(I->B, B);
        sym_unpack(I->C, C);
        break;
    case 0: axis_rotate3(0, E, I, A, B, C); break;
    case 1: axis_rotate3(1, E, I, A, B, C); break;
    case 2: axis_rotate3(2, E, I, A, B, C); break;
    default: {
        double BE[9];
        sym_rotate(E, I->A, A);
        sym_rotate(E, I->C, C);
        m3_mul(I->B, E, BE);
        m3_tmul(E, BE, B);
    }
    }
    /* B2 = B' + rx C', column j of rx C' being r x (column j of C'). */
    double c0[3] = { C[0], C[3], C[6] }, c1[3] = { C[1], C[4], C[7] }, c2[3] = { C[2], C[5], C[8] };
    double n0[3], n1[3], n2[3];
    v3_cross(r, c0, n0);
    v3_cross(r, c1, n1);
    v3_cross(r, c2, n2);
    double B2[9] = { B[0] + n0[0], B[1] + n1[0], B[2] + n2[0], B[3] + n0[1], B[4] + n1[1],
                     B[5] + n2[1], B[6] + n0[2], B[7] + n1[2], B[8] + n2[2] };
    /* P = rx B'^T (column j: r x row j of B'), Q = B2 rx (row i: row i of B2 x r). */
    double p0[3], p1[3], p2[3], q0[3], q1[3], q2[3];
    v3_cross(r, B, p0);
    v3_cross(r, B + 3, p1);
    v3_cross(r, B + 6, p2);
    v3_cross(B2, r, q0);
    v3_cross(B2 + 3, r, q1);
    v3_cross(B2 + 6, r, q2);
    acc->A[0] += A[0] + p0[0] - q0[0];
    acc->A[1] += A[1] + p1[0] - q0[1];
    acc->A[2] += A[2] + p2[0] - q0[2];
    acc->A[3] += A[4] + p1[1] - q1[1];
    acc->A[4] += A[5] + p2[1] - q1[2];
    acc->A[5] += A[8] + p2[2] - q2[2];
    acc->C[0] += C[0];
    acc->C[1] += C[1];
    acc->C[2] += C[2];
    acc->C[3] += C[4];
    acc->C[4] += C[5];
    acc->C[5] += C[8];
    for (int k = 0; k < 9; k++) acc->B[k] += B2[k];
}

/* eq. 2.63 with cx cx^T = (c.c) 1 - c c^T. */
void sinertia_mcI(double m, const double c[3], const double Ic[9], sinertia *I)
{
    double cc = v3_dot(c, c);
    I->A[0] = Ic[0] + m * (cc - c[0] * c[0]);
    I->A[1] = Ic[1] - m * c[0] * c[1];
    I->A[2] = Ic[2] - m * c[0] * c[2];
    I->A[3] = Ic[4] + m * (cc - c[1] * c[1]);
    I->A[4] = Ic[5] - m * c[1] * c[2];
    I->A[5] = Ic[8] + m * (cc - c[2] * c[2]);
    double mc[3] = { m * c[0], m * c[1], m * c[2] };
    m3_skew(mc, I->B);
    I->C[0] = I->C[3] = I->C[5] = m;
    I->C[1] = I->C[2] = I->C[4] = 0.0;
}

void sinertia_full(const sinertia *I, double M[36])
{
    double A[9], C[9];
    sym_unpack(I->A, A);
    sym_unpack(I->C, C);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            M[6 * r + c] = A[3 * r + c];
            M[6 * r + 3 + c] = I->B[3 * r + c];
            M[6 * (3 + r) + c] = I->B[3 * c + r];
            M[6 * (3 + r) + 3 + c] = C[3 * r + c];
        }
}
