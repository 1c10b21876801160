/* sym_spatial.c — see sym_spatial.h.  Equation numbers are RBDA (Featherstone 2008). */
#include "codegen/sym_spatial.h"

/* ---- 3-vectors ---- */

static sv3 v3(ex x, ex y, ex z)
{
    sv3 v = { { x, y, z } };
    return v;
}
static sv3 v3_ang(sv6 s) { return v3(s.e[0], s.e[1], s.e[2]); }
static sv3 v3_lin(sv6 s) { return v3(s.e[3], s.e[4], s.e[5]); }

static sv6 sv_join(sv3 a, sv3 l)
{
    sv6 s = { { a.e[0], a.e[1], a.e[2], l.e[0], l.e[1], l.e[2] } };
    return s;
}

/* A note that holds for the whole generator: the nodes of an expression are
 * numbered in the order they are built, and the emitted code follows that
 * numbering.  C leaves the order in which a call's arguments are evaluated
 * unspecified (gcc goes right to left, clang left to right), so a constructor
 * never takes two arguments that build nodes: they are built into locals, or
 * in a loop, one statement after the other.  That is what makes the code the
 * jit's generator writes (compiled by clang) byte-identical to mechgen's. */

static sv3 v3_add(ex_pool *p, sv3 a, sv3 b)
{
    sv3 o;
    for (int k = 0; k < 3; k++) o.e[k] = ex_add(p, a.e[k], b.e[k]);
    return o;
}

static sv3 v3_sub(ex_pool *p, sv3 a, sv3 b)
{
    sv3 o;
    for (int k = 0; k < 3; k++) o.e[k] = ex_sub(p, a.e[k], b.e[k]);
    return o;
}

/* (a x b)_k = a_i b_j - a_j b_i with (k, i, j) cyclic. */
static sv3 v3_cross(ex_pool *p, sv3 a, sv3 b)
{
    sv3 o;
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        o.e[k] = ex_fms(p, ex_mul(p, a.e[i], b.e[j]), a.e[j], b.e[i]);
    }
    return o;
}

/* Three constants as a 3-vector, built x, y, z in that order. */
static sv3 v3_const(ex_pool *p, const double c[3])
{
    sv3 o;
    for (int k = 0; k < 3; k++) o.e[k] = ex_const(p, c[k]);
    return o;
}

static sv3 m3_mulv(ex_pool *p, const ex E[9], sv3 v) /* E v   */
{
    sv3 o;
    for (int r = 0; r < 3; r++)
        o.e[r] = ex_fma(p, ex_fma(p, ex_mul(p, E[3 * r], v.e[0]), E[3 * r + 1], v.e[1]), E[3 * r + 2], v.e[2]);
    return o;
}

static sv3 m3_tmulv(ex_pool *p, const ex E[9], sv3 v) /* E^T v */
{
    sv3 o;
    for (int c = 0; c < 3; c++)
        o.e[c] = ex_fma(p, ex_fma(p, ex_mul(p, E[c], v.e[0]), E[3 + c], v.e[1]), E[6 + c], v.e[2]);
    return o;
}

/* ---- 6-vectors ---- */

sv6 sv_zero(ex_pool *p)
{
    sv6 s;
    for (int k = 0; k < 6; k++) s.e[k] = p->zero;
    return s;
}

sv6 sv_add(ex_pool *p, sv6 a, sv6 b)
{
    for (int k = 0; k < 6; k++) a.e[k] = ex_add(p, a.e[k], b.e[k]);
    return a;
}

sv6 sv_sub(ex_pool *p, sv6 a, sv6 b)
{
    for (int k = 0; k < 6; k++) a.e[k] = ex_sub(p, a.e[k], b.e[k]);
    return a;
}

ex sv_dot(ex_pool *p, sv6 a, sv6 b)
{
    ex acc = p->zero;
    for (int k = 0; k < 6; k++) acc = ex_fma(p, acc, a.e[k], b.e[k]);
    return acc;
}

sv6 sv_scale(ex_pool *p, sv6 a, ex s)
{
    for (int k = 0; k < 6; k++) a.e[k] = ex_mul(p, a.e[k], s);
    return a;
}

/* ---- Plücker transforms ---- */

sxform sx_identity(ex_pool *p)
{
    sxform X;
    for (int k = 0; k < 9; k++) X.E[k] = k % 4 == 0 ? p->one : p->zero;
    for (int k = 0; k < 3; k++) X.r[k] = p->zero;
    return X;
}

/* E = R^T: the transpose is this index swap, free at run time. */
sxform sx_from_rot(const ex R[9], const ex r[3])
{
    sxform X;
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) X.E[3 * row + col] = R[3 * col + row];
    for (int k = 0; k < 3; k++) X.r[k] = r[k];
    return X;
}

/* E_ca = E_cb E_ba; r_ca = r_ba + E_ba^T r_cb (C's origin, seen from A). */
sxform sx_compose(ex_pool *p, sxform cb, sxform ba)
{
    sxform X;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            X.E[3 * r + c] = ex_fma(p, ex_fma(p, ex_mul(p, cb.E[3 * r], ba.E[c]), cb.E[3 * r + 1], ba.E[3 + c]),
                                    cb.E[3 * r + 2], ba.E[6 + c]);
    sv3 r = v3_add(p, v3(ba.r[0], ba.r[1], ba.r[2]), m3_tmulv(p, ba.E, v3(cb.r[0], cb.r[1], cb.r[2])));
    for (int k = 0; k < 3; k++) X.r[k] = r.e[k];
    return X;
}

/* eq. 2.24: [E w; E (v - r x w)]. */
sv6 sx_apply_motion(ex_pool *p, sxform X, sv6 m)
{
    sv3 r = v3(X.r[0], X.r[1], X.r[2]), w = v3_ang(m);
    sv3 ang = m3_mulv(p, X.E, w);
    sv3 rw = v3_cross(p, r, w);
    sv3 lin = m3_mulv(p, X.E, v3_sub(p, v3_lin(m), rw));
    return sv_join(ang, lin);
}

/* eq. 2.25: [E (n - r x f); E f]. */
sv6 sx_apply_force(ex_pool *p, sxform X, sv6 f)
{
    sv3 r = v3(X.r[0], X.r[1], X.r[2]), fl = v3_lin(f);
    sv3 rf = v3_cross(p, r, fl);
    sv3 ang = m3_mulv(p, X.E, v3_sub(p, v3_ang(f), rf));
    sv3 lin = m3_mulv(p, X.E, fl);
    return sv_join(ang, lin);
}

/* X^T = [E^T  rx E^T; 0  E^T]: carries a force from B back to A. */
sv6 sx_apply_transpose_force(ex_pool *p, sxform X, sv6 f)
{
    sv3 r = v3(X.r[0], X.r[1], X.r[2]);
    sv3 fa = m3_tmulv(p, X.E, v3_lin(f));
    sv3 na = m3_tmulv(p, X.E, v3_ang(f));
    sv3 rfa = v3_cross(p, r, fa);
    return sv_join(v3_add(p, na, rfa), fa);
}

/* eq. 2.31: v x m = [w x mw; w x mv + vv x mw]. */
sv6 sv_crm(ex_pool *p, sv6 v, sv6 m)
{
    sv3 w = v3_ang(v), vv = v3_lin(v);
    sv3 ang = v3_cross(p, w, v3_ang(m));
    sv3 wl = v3_cross(p, w, v3_lin(m));
    sv3 va = v3_cross(p, vv, v3_ang(m));
    return sv_join(ang, v3_add(p, wl, va));
}

/* ---- Rigid-body inertias ---- */

/* Symmetric storage index of (i, j): xx yy zz xy xz yz. */
static int sym(int i, int j)
{
    static const int idx[9] = { 0, 3, 4, 3, 1, 5, 4, 5, 2 };
    return idx[3 * i + j];
}

/* eq. 2.63: Ibar = Ic + m (|c|^2 1 - c c^T), h = m c. */
sinertia si_from_body(ex_pool *p, double m, const double c[3], const double Ic[9])
{
    sinertia I;
    double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    I.m = ex_const(p, m);
    for (int k = 0; k < 3; k++) I.h[k] = ex_const(p, m * c[k]);
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++)
            I.I[sym(i, j)] = ex_const(p, Ic[3 * i + j] + m * ((i == j ? cc : 0.0) - c[i] * c[j]));
    return I;
}

sinertia si_add(ex_pool *p, sinertia a, sinertia b)
{
    a.m = ex_add(p, a.m, b.m);
    for (int k = 0; k < 3; k++) a.h[k] = ex_add(p, a.h[k], b.h[k]);
    for (int k = 0; k < 6; k++) a.I[k] = ex_add(p, a.I[k], b.I[k]);
    return a;
}

/* [Ibar w + h x v; m v - h x w]. */
sv6 si_apply(ex_pool *p, sinertia I, sv6 v)
{
    sv3 w = v3_ang(v), vl = v3_lin(v), h = v3(I.h[0], I.h[1], I.h[2]);
    sv3 n;
    for (int i = 0; i < 3; i++)
        n.e[i] = ex_fma(p, ex_fma(p, ex_mul(p, I.I[sym(i, 0)], w.e[0]), I.I[sym(i, 1)], w.e[1]), I.I[sym(i, 2)], w.e[2]);
    sv3 hw = v3_cross(p, h, w), f;
    for (int i = 0; i < 3; i++) f.e[i] = ex_sub(p, ex_mul(p, I.m, vl.e[i]), hw.e[i]);
    return sv_join(v3_add(p, n, v3_cross(p, h, vl)), f);
}

/* v x* I v = [w x n + vv x f; w x f] with [n; f] = I v and f = m vv - h x w;
 * since vv x (m vv) = 0, the vv x f term is written -vv x (h x w), which is
 * structurally zero for a body whose CoM is at its origin (eq. 2.32). */
sv6 si_velocity_product(ex_pool *p, sinertia I, sv6 v)
{
    sv3 w = v3_ang(v), vv = v3_lin(v), h = v3(I.h[0], I.h[1], I.h[2]);
    sv6 Iv = si_apply(p, I, v);
    sv3 wn = v3_cross(p, w, v3_ang(Iv));
    sv3 vhw = v3_cross(p, vv, v3_cross(p, h, w));
    sv3 ang = v3_sub(p, wn, vhw);
    sv3 lin = v3_cross(p, w, v3_lin(Iv));
    return sv_join(ang, lin);
}

/* X^T I X for X = B_X_A (the rigid-body form of eq. 2.66).  With y = E^T h:
 *   m_A = m,  h_A = y + m r,
 *   Ibar_A = E^T Ibar E - (y r^T + r y^T) + (2 y.r + m |r|^2) 1 - m r r^T,
 * written entrywise so nothing is added and subtracted again:
 *   off the diagonal  Ibar_A(i,j) = (E^T Ibar E)(i,j) - y_i r_j - r_i h_A(j),
 *   on it             Ibar_A(i,i) = (E^T Ibar E)(i,i) + sum over k != i of r_k (y_k + h_A(k)). */
sinertia si_transform(ex_pool *p, sinertia I, sxform X)
{
    sinertia o;
    sv3 r = v3(X.r[0], X.r[1], X.r[2]);
    sv3 y = m3_tmulv(p, X.E, v3(I.h[0], I.h[1], I.h[2]));
    ex z[3];
    o.m = I.m;
    for (int k = 0; k < 3; k++) {
        o.h[k] = ex_fma(p, y.e[k], I.m, r.e[k]);
        z[k] = ex_mul(p, r.e[k], ex_add(p, y.e[k], o.h[k]));
    }
    ex IE[9]; /* Ibar E */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            IE[3 * i + j] = ex_fma(p, ex_fma(p, ex_mul(p, I.I[sym(i, 0)], X.E[j]), I.I[sym(i, 1)], X.E[3 + j]),
                                   I.I[sym(i, 2)], X.E[6 + j]);
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            ex e = ex_fma(p, ex_fma(p, ex_mul(p, X.E[i], IE[j]), X.E[3 + i], IE[3 + j]), X.E[6 + i], IE[6 + j]);
            if (i == j) e = ex_add(p, e, ex_add(p, z[(i + 1) % 3], z[(i + 2) % 3]));
            else e = ex_fms(p, ex_fms(p, e, y.e[i], r.e[j]), r.e[i], o.h[j]);
            o.I[sym(i, j)] = e;
        }
    return o;
}

/* w x (Ic w).  For a diagonal Ic it is ((Izz - Iyy) wy wz, (Ixx - Izz) wz wx,
 * (Iyy - Ixx) wx wy): six products instead of twelve operations, and a
 * component vanishes outright for a body symmetric about an axis. */
static sv3 gyroscopic(ex_pool *p, const double Ic[9], sv3 w)
{
    if (Ic[1] != 0.0 || Ic[2] != 0.0 || Ic[3] != 0.0 || Ic[5] != 0.0 || Ic[6] != 0.0 || Ic[7] != 0.0) {
        ex I[9];
        for (int k = 0; k < 9; k++) I[k] = ex_const(p, Ic[k]);
        return v3_cross(p, w, m3_mulv(p, I, w));
    }
    sv3 o;
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        ex d = ex_const(p, Ic[4 * j] - Ic[4 * i]);
        o.e[k] = ex_mul(p, d, ex_mul(p, w.e[i], w.e[j]));
    }
    return o;
}

/* w x (w x v) for a constant v.  When v lies on an axis k it is
 * v_k (-(w_i^2 + w_j^2), w_i w_k, w_j w_k) with (i, j) the other two axes,
 * built from the products w_a w_b, which the DAG shares with every other
 * such term and with the gyroscopic term of the same w. */
static sv3 w_cross_w_cross(ex_pool *p, sv3 w, sv3 v)
{
    int axis = -1, nonzero = 0;
    for (int k = 0; k < 3; k++)
        if (!(p->nodes[v.e[k]].op == EX_CONST && p->nodes[v.e[k]].c == 0.0)) {
            axis = k;
            nonzero++;
        }
    if (nonzero != 1 || p->nodes[v.e[axis]].op != EX_CONST) return v3_cross(p, w, v3_cross(p, w, v));
    int k = axis, i = (k + 1) % 3, j = (k + 2) % 3;
    ex vk = v.e[k];
    sv3 o;
    ex wii = ex_mul(p, w.e[i], w.e[i]);
    ex wjj = ex_mul(p, w.e[j], w.e[j]);
    o.e[k] = ex_neg(p, ex_mul(p, vk, ex_add(p, wii, wjj)));
    o.e[i] = ex_mul(p, vk, ex_mul(p, w.e[i], w.e[k]));
    o.e[j] = ex_mul(p, vk, ex_mul(p, w.e[j], w.e[k]));
    return o;
}

/* The force I a + v x* I v of one rigid body in classical (Newton-Euler)
 * form, about its centre of mass c: with w, wd the angular velocity and
 * acceleration and ao the classical acceleration of the body origin
 * (ao = a_lin + w x v_lin for spatial a, v),
 *   F = m (ao + wd x c + w x (w x c)),   n = Ic wd + w x (Ic w) + c x F.
 * It needs no linear velocity at all, and with c on an axis w x (w x c) is a
 * handful of products. */
sv6 si_body_force(ex_pool *p, double m, const double c[3], const double Ic[9], sv3 wd, sv3 w, sv3 ao)
{
    sv3 cc = v3_const(p, c);
    ex I[9];
    for (int k = 0; k < 9; k++) I[k] = ex_const(p, Ic[k]);
    sv3 t = v3_add(p, ao, v3_cross(p, wd, cc));
    t = v3_add(p, t, w_cross_w_cross(p, w, cc));
    ex mm = ex_const(p, m);
    sv3 F;
    for (int k = 0; k < 3; k++) F.e[k] = ex_mul(p, mm, t.e[k]);
    sv3 Iwd = m3_mulv(p, I, wd);
    sv3 n = v3_add(p, Iwd, gyroscopic(p, Ic, w));
    n = v3_add(p, n, v3_cross(p, cc, F));
    return sv_join(n, F);
}

/* E (ao + wd x r + w x (w x r)): the classical acceleration of B's origin in
 * B coordinates, from A's origin acceleration ao and A's w, wd (A
 * coordinates), for X = B_X_A when B's origin is fixed in A. */
sv3 sx_point_accel(ex_pool *p, sxform X, sv3 ao, sv3 w, sv3 wd)
{
    sv3 r = v3(X.r[0], X.r[1], X.r[2]);
    sv3 t = v3_add(p, ao, v3_cross(p, wd, r));
    t = v3_add(p, t, w_cross_w_cross(p, w, r));
    return m3_mulv(p, X.E, t);
}

sv3 sv_angular(sv6 s) { return v3_ang(s); }
sv3 sv_linear(sv6 s) { return v3_lin(s); }
sv3 sv3_add(ex_pool *p, sv3 a, sv3 b) { return v3_add(p, a, b); }
sv3 sv3_cross(ex_pool *p, sv3 a, sv3 b) { return v3_cross(p, a, b); }

/* A body's inertia re-expressed in the frame it is rotated from by R = a
 * rotation of angle q about sign * e_k (a revolute joint about a coordinate
 * axis): m stays, h -> R h, Ibar -> R Ibar R^T.  With (i, j, k) cyclic only
 * the (i, j) block mixes, and with D = Ibar_ii - Ibar_jj and the double angle
 * (c^2 - s^2 = 1 - 2 s^2, 2 c s):
 *   A_ii = (Ibar_ii + Ibar_jj)/2 + D (1/2 - s^2) - Ibar_ij 2cs,
 *   A_jj = Ibar_ii + Ibar_jj - A_ii,   A_ij = D cs + Ibar_ij (1 - 2 s^2),
 *   A_ik = c Ibar_ik - s Ibar_jk,      A_jk = s Ibar_ik + c Ibar_jk.
 * About half the operations of the general congruence E^T Ibar E when the
 * block is full, and two products per constant diagonal block. */
sinertia si_rotate_axis(ex_pool *p, sinertia I, int k, int sign, ex s, ex c)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    if (sign < 0) s = ex_neg(p, s);
    ex ss = ex_mul(p, s, s), cs = ex_mul(p, c, s);
    ex hc2 = ex_sub(p, ex_const(p, 0.5), ss);                   /* (c^2 - s^2)/2 */
    ex c2 = ex_sub(p, p->one, ex_mul(p, ex_const(p, 2.0), ss)); /* c^2 - s^2     */
    ex s2 = ex_mul(p, ex_const(p, 2.0), cs);                    /* 2 c s         */
    sinertia o = I;
    o.h[i] = ex_fms(p, ex_mul(p, c, I.h[i]), s, I.h[j]);
    o.h[j] = ex_fma(p, ex_mul(p, s, I.h[i]), c, I.h[j]);
    ex Iii = I.I[sym(i, i)], Ijj = I.I[sym(j, j)], Iij = I.I[sym(i, j)];
    ex Iik = I.I[sym(i, k)], Ijk = I.I[sym(j, k)];
    ex D = ex_sub(p, Iii, Ijj), T = ex_add(p, Iii, Ijj);
    ex Aii = ex_fms(p, ex_fma(p, ex_mul(p, ex_const(p, 0.5), T), D, hc2), Iij, s2);
    o.I[sym(i, i)] = Aii;
    o.I[sym(j, j)] = ex_sub(p, T, Aii);
    o.I[sym(i, j)] = ex_fma(p, ex_mul(p, D, cs), Iij, c2);
    o.I[sym(i, k)] = ex_fms(p, ex_mul(p, c, Iik), s, Ijk);
    o.I[sym(j, k)] = ex_fma(p, ex_mul(p, s, Iik), c, Ijk);
    return o;
}

/* The body force of a constant inertia I (mass m, first moment h, Ibar about
 * the body origin), from w, wd and the classical acceleration ao of the
 * origin:  F = m ao + wd x h + w x (w x h),  n = Ibar wd + w x (Ibar w) + h x ao.
 * With m = 0 — every revolute body once its joint-invariant part has been
 * moved to its parent (gen_kinematics) — F does not read ao at all.  With
 * m != 0 it is the centre-of-mass form of si_body_force.  I must be numeric
 * (every body inertia is: gen_kinematics builds them from constants). */
sv6 si_body_force_const(ex_pool *p, sinertia I, sv3 wd, sv3 w, sv3 ao)
{
    double m = p->nodes[I.m].c, h[3], Ib[9];
    for (int k = 0; k < 3; k++) h[k] = p->nodes[I.h[k]].c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) Ib[3 * i + j] = p->nodes[I.I[sym(i, j)]].c;
    if (m != 0.0) {
        double c[3] = { h[0] / m, h[1] / m, h[2] / m }, cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2], Ic[9];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) Ic[3 * i + j] = Ib[3 * i + j] - m * ((i == j ? cc : 0.0) - c[i] * c[j]);
        return si_body_force(p, m, c, Ic, wd, w, ao);
    }
    sv3 hh = v3(I.h[0], I.h[1], I.h[2]);
    ex E[9];
    for (int k = 0; k < 9; k++) E[k] = ex_const(p, Ib[k]);
    sv3 wdh = v3_cross(p, wd, hh);
    sv3 F = v3_add(p, wdh, w_cross_w_cross(p, w, hh));
    sv3 Ewd = m3_mulv(p, E, wd);
    sv3 n = v3_add(p, Ewd, gyroscopic(p, Ib, w));
    n = v3_add(p, n, v3_cross(p, hh, ao));
    return sv_join(n, F);
}

/* ---- Articulated-body inertias ---- */

/* eq. 2.63: [Ibar hx; hx^T m1], hx the cross-product matrix of h. */
sartic sa_from_inertia(ex_pool *p, sinertia I)
{
    sartic A;
    for (int k = 0; k < 36; k++) A.M[k] = p->zero;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) A.M[6 * i + j] = I.I[sym(i, j)];
        A.M[6 * (3 + i) + 3 + i] = I.m;
    }
    /* hx = [0 -hz hy; hz 0 -hx; -hy hx 0] in the upper right, its transpose below */
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        A.M[6 * j + 3 + i] = A.M[6 * (3 + i) + j] = I.h[k];
        A.M[6 * k + 3 + i] = A.M[6 * (3 + i) + k] = ex_neg(p, I.h[j]);
    }
    return A;
}

sartic sa_add(ex_pool *p, sartic a, sartic b)
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j <= i; j++) a.M[6 * i + j] = a.M[6 * j + i] = ex_add(p, a.M[6 * i + j], b.M[6 * i + j]);
    return a;
}

sv6 sa_apply(ex_pool *p, const sartic *A, sv6 v)
{
    sv6 o;
    for (int i = 0; i < 6; i++) {
        o.e[i] = p->zero;
        for (int k = 0; k < 6; k++) o.e[i] = ex_fma(p, o.e[i], A->M[6 * i + k], v.e[k]);
    }
    return o;
}

/* The 3x3 block (bi, bj) of a 6x6 matrix. */
static void block_get(const ex *M, int bi, int bj, ex out[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[3 * i + j] = M[6 * (3 * bi + i) + 3 * bj + j];
}

/* out = E^T S E; only j <= i computed and mirrored when S is symmetric. */
static void m3_congruence(ex_pool *p, const ex E[9], const ex S[9], int symmetric, ex out[9])
{
    ex T[9]; /* S E */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T[3 * i + j] =
                ex_fma(p, ex_fma(p, ex_mul(p, S[3 * i], E[j]), S[3 * i + 1], E[3 + j]), S[3 * i + 2], E[6 + j]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (symmetric && j > i) continue;
            out[3 * i + j] = ex_fma(p, ex_fma(p, ex_mul(p, E[i], T[j]), E[3 + i], T[3 + j]), E[6 + i], T[6 + j]);
            if (symmetric) out[3 * j + i] = out[3 * i + j];
        }
}

/* With A = [P B; B^T C] and X = [E 0; -E rx E] = [E 0; 0 E] [1 0; -rx 1]:
 * rotate each block, P1 = E^T P E, B1 = E^T B E, C1 = E^T C E, then
 * translate, [1 rx; 0 1] [P1 B1; B1^T C1] [1 0; -rx 1]:
 *   C2 = C1,   B2 = B1 + rx C1,   P2 = P1 + rx B1^T - B2 rx.
 * A joint rotation has r = 0 and a tree offset E = 1, so each factor of
 * i_X_parent does only its half (the zeros fold away). */
sartic sa_transform(ex_pool *p, const sartic *A, sxform X)
{
    ex P[9], B[9], C[9], P1[9], B1[9], C1[9];
    block_get(A->M, 0, 0, P);
    block_get(A->M, 0, 1, B);
    block_get(A->M, 1, 1, C);
    m3_congruence(p, X.E, P, 1, P1);
    m3_congruence(p, X.E, B, 0, B1);
    m3_congruence(p, X.E, C, 1, C1);
    ex z = p->zero;
    ex nx = ex_neg(p, X.r[0]), ny = ex_neg(p, X.r[1]), nz = ex_neg(p, X.r[2]);
    ex R[9] = { z, nz, X.r[1], X.r[2], z, nx, ny, X.r[0], z };
    sartic o;
    ex B2[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            ex e = B1[3 * i + j];
            for (int k = 0; k < 3; k++) e = ex_fma(p, e, R[3 * i + k], C1[3 * k + j]);
            B2[3 * i + j] = e;
            o.M[6 * i + 3 + j] = o.M[6 * (3 + j) + i] = e;
            o.M[6 * (3 + i) + 3 + j] = C1[3 * i + j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j <= i; j++) {
            ex e = P1[3 * i + j];
            for (int k = 0; k < 3; k++) e = ex_fma(p, e, R[3 * i + k], B1[3 * j + k]);
            for (int k = 0; k < 3; k++) e = ex_fms(p, e, B2[3 * i + k], R[3 * k + j]);
            o.M[6 * i + j] = o.M[6 * j + i] = e;
        }
    return o;
}
