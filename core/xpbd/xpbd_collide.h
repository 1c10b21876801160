/* xpbd_collide.h — XPBD's side of contact (docs/xpbd.md, "Contact"): the
 * colliders (a shape of core/collide on a body, with its material), the
 * narrow phase of rod elements, and the contact record the solver reads
 * (Müller et al. 2020 §3.5–3.6).  Shapes, their narrow phase and the broad
 * phase are the engine-neutral core/collide. */
#ifndef MECH_XPBD_COLLIDE_H
#define MECH_XPBD_COLLIDE_H

#include "collide/broadphase.h"
#include "collide/collide.h"

/* A collider: a shape fixed in a body (its local pose relative to the
 * body's CoM frame) or, body −1, static in the world (its pose world). */
typedef struct {
    collide_shape shape;
    int body;
    double mu_s, mu_d, e; /* static and dynamic friction, restitution */
} xpbd_collider;

/* Rod elements in the narrow phase (xpbd_narrow_rod.c, Tobin & Rucker
 * §7.1): the centreline x(ξ) = Σ_a N_a(ξ) p_a, ξ ∈ [0, 1], over the
 * element's order + 1 nodes p (Lagrange bases of order 1–3; the rigid chain
 * is order 1 between its bodies), swept by a circle of radius r. */
typedef struct {
    int order;
    const double *p; /* 3 per node, order + 1 nodes */
    double r;
} xpbd_rod_curve;

/* x(ξ) and dx/dξ (dx may be NULL). */
void xpbd_rod_curve_eval(const xpbd_rod_curve *c, double xi, double x[3], double dx[3]);

/* A contact of a rod element (side A) with a shape or another element
 * (side B): the parameters ξ of the rod sides, the unit normal n from B
 * towards A, the points pa, pb on the two surfaces and the separation
 * s = (pa − pb)·n. */
typedef struct {
    double xi[2];
    double n[3];
    double pa[3], pb[3];
    double s;
} xpbd_rod_hit;

/* Rigid–rod (§7.1.1): the deepest point of the element against shape b,
 * ψ(ξ) = φ_b(x(ξ)) − r sampled and minimized by golden-section search
 * about each sample at least as deep as its neighbours; and the element's
 * ends, when they lie within margin away from it (an element lying on a
 * face rests on a line).  Returns the hits closer than margin (≤ 3). */
int xpbd_collide_rod_shape(const xpbd_rod_curve *a, const collide_placed *b, double margin, xpbd_rod_hit out[3]);
/* Rod–rod (§7.1.2): the closest points of two centrelines by
 * Levenberg–Marquardt on (ξ1, ξ2) within [0, 1]², from several pairs of a
 * grid of samples.  Returns 1 when they are closer than margin, 0 when not;
 * *out is filled unless the grid alone shows them farther than margin. */
int xpbd_collide_rod_rod(const xpbd_rod_curve *a, const xpbd_rod_curve *b, double margin, xpbd_rod_hit *out);

/* One contact of a substep between two sides: side 0 is pushed along +n,
 * side 1 along −n.  A side is a body (index ≥ 0, its point a in the body
 * frame about the CoM), the world (−1, a world point) or a rod element
 * (rod ≥ 0, body −1): its point is x(ξ) + a, x(ξ) = Σ_j N_j p_j over the
 * element's nodes node0 .. node0 + nn − 1 and a the fixed world offset
 * ∓r n from the centreline to the swept circle (no rotation gradient). */
typedef struct {
    int body[2];
    int collider[2];      /* broad-phase entries: colliders, then rod elements */
    double a[2][3];       /* contact points: body frame about the CoM, or world, or the rod's offset */
    double n[3];          /* world unit normal, from side 1 towards side 0 */
    double mu_s, mu_d, e; /* the pair's material (means of the two sides') */
    double vn0;           /* normal velocity after the prediction, before the solve (restitution) */
    double lambda_n;      /* normal positional multiplier of this substep */
    double lambda_t[3]; /* on a manifold's first contact (or a rod contact): its static friction multiplier, times its direction, */
    double lambda_twist; /* and its torsional static friction multiplier */
    int rod[2];          /* −1, or the side's rod (index in xpbd_data.rods) */
    int node0[2], nn[2]; /* a rod side's element nodes */
    double N[2][4];      /* and their weights N_j(ξ) */
} xpbd_contact;

#endif
