/* xpbd_collide.h — rigid contact for XPBD (docs/xpbd.md, "Contact"): the
 * colliders, the narrow phase between two placed shapes, the broad phase
 * (a spatial hash over AABBs, Teschner et al. 2003) and the contact record
 * the solver reads (Müller et al. 2020 §3.5–3.6).
 *
 * A manifold between shapes A and B is one world unit normal n, pointing
 * from B towards A (the direction A must move to separate), and up to
 * XPBD_MAX_MANIFOLD point pairs: pa on A's surface, pb on B's surface, with
 * separation s = (pa − pb)·n, negative when they overlap.  Points are
 * reported while s < margin, so a contact that the substep's motion will
 * close is already known when the solve starts. */
#ifndef MECH_XPBD_COLLIDE_H
#define MECH_XPBD_COLLIDE_H

typedef enum {
    XPBD_SHAPE_SPHERE,   /* size[0] = r                                  */
    XPBD_SHAPE_CAPSULE,  /* size[0] = r, size[1] = half the straight part (along z) */
    XPBD_SHAPE_BOX,      /* size = half extents                          */
    XPBD_SHAPE_CYLINDER, /* size[0] = r, size[1] = half length (along z) */
    XPBD_SHAPE_PLANE     /* the z = 0 plane of its frame, solid below (static only) */
} xpbd_shape_type;

/* A collider fixed in a body (pos, R relative to the body's CoM frame) or,
 * body −1, static in the world (pos, R world). */
typedef struct {
    xpbd_shape_type type;
    int body;
    double pos[3], R[9];
    double size[3];
    double mu_s, mu_d, e;   /* static and dynamic friction, restitution */
} xpbd_collider;

/* A shape at its world pose: centre c, axes R (columns). */
typedef struct {
    xpbd_shape_type type;
    double c[3], R[9], size[3];
} xpbd_placed;

#define XPBD_MAX_MANIFOLD 8

typedef struct {
    int n_points;
    double n[3];
    double pa[XPBD_MAX_MANIFOLD][3], pb[XPBD_MAX_MANIFOLD][3];
} xpbd_manifold;

/* The manifold of A against B within `margin`; 0 when the pair has no
 * narrow phase (a cylinder against anything but a plane or a sphere, two
 * planes) or no
 * point is closer than margin.  Returns the point count. */
int xpbd_collide(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *out);

/* The pair functions (A of the first type, B of the second); xpbd_collide
 * orders the pair and flips the result. */
int xpbd_collide_sphere_plane(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_capsule_plane(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_box_plane(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_cylinder_plane(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_sphere_sphere(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_sphere_capsule(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_capsule_capsule(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_sphere_cylinder(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_sphere_box(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_capsule_box(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);
int xpbd_collide_box_box(const xpbd_placed *a, const xpbd_placed *b, double margin, xpbd_manifold *o);

/* Small geometry shared by the pair files. */
/* Closest points of segments p1 + s d1, p2 + t d2 (s, t in [0, 1]). */
void xpbd_segment_closest(const double p1[3], const double d1[3], const double p2[3], const double d2[3],
                          double *s, double *t);
/* Append pa, pb to o if (pa − pb)·o->n < margin. */
void xpbd_manifold_add(xpbd_manifold *o, const double pa[3], const double pb[3], double margin);

/* Signed distance of the world point x to a placed shape (negative inside)
 * and the shape's outward unit normal there (xpbd_sdf.c). */
double xpbd_sdf(const xpbd_placed *s, const double x[3], double n[3]);

/* Rod elements in the narrow phase (xpbd_narrow_rod.c, Tobin & Rucker
 * §7.1): the centreline x(ξ) = Σ_a N_a(ξ) p_a, ξ ∈ [0, 1], over the
 * element's order + 1 nodes p (Lagrange bases of order 1–3; the rigid chain
 * is order 1 between its bodies), swept by a circle of radius r. */
typedef struct {
    int order;
    const double *p;            /* 3 per node, order + 1 nodes */
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
int xpbd_collide_rod_shape(const xpbd_rod_curve *a, const xpbd_placed *b, double margin, xpbd_rod_hit out[3]);
/* Rod–rod (§7.1.2): the closest points of two centrelines by
 * Levenberg–Marquardt on (ξ1, ξ2) within [0, 1]², from several pairs of a
 * grid of samples.  Returns 1 when they are closer than margin, 0 when not;
 * *out is filled unless the grid alone shows them farther than margin. */
int xpbd_collide_rod_rod(const xpbd_rod_curve *a, const xpbd_rod_curve *b, double margin, xpbd_rod_hit *out);

/* Axis-aligned box of a placed shape (planes: unbounded, not asked). */
void xpbd_placed_aabb(const xpbd_placed *s, double lo[3], double hi[3]);

/* Broad phase: candidate collider pairs (i < j) whose AABBs, each grown by
 * its own `grow` (≥ 0), overlap.  Dynamic colliders are hashed into cubic
 * cells of the mean AABB size (Teschner et al. 2003's hash of the cell
 * coordinates, a prime table of at least twice the entries); each pair is
 * reported once, from the lowest cell both boxes cover.  Planes pair with
 * every dynamic collider whose box reaches below them; a static box larger
 * than the whole hash is tested against every dynamic box; static
 * colliders never pair with each other (is_static); `skip(i, j)` removes
 * pairs (same body, jointed bodies).  Pairs come sorted by (i, j).
 * Expected O(n) for colliders of similar size. */
typedef struct {
    int n, cap;                 /* pairs, and the capacity of `pairs` in ints */
    int *pairs;                 /* 2 per pair, lower index first */
    int *count, *start, *entry; /* the hash table: bucket sizes, offsets, collider ids */
    int ntable, cap_count, cap_start, cap_entry;
} xpbd_broadphase;

typedef int (*xpbd_pair_skip)(int i, int j, const void *user);

int xpbd_broadphase_run(xpbd_broadphase *bp, int n, const xpbd_placed *shapes, const int *is_static,
                        const double *grow, xpbd_pair_skip skip, const void *user);
void xpbd_broadphase_free(xpbd_broadphase *bp);

/* One contact of a substep between two sides: side 0 is pushed along +n,
 * side 1 along −n.  A side is a body (index ≥ 0, its point a in the body
 * frame about the CoM), the world (−1, a world point) or a rod element
 * (rod ≥ 0, body −1): its point is x(ξ) + a, x(ξ) = Σ_j N_j p_j over the
 * element's nodes node0 .. node0 + nn − 1 and a the fixed world offset
 * ∓r n from the centreline to the swept circle (no rotation gradient). */
typedef struct {
    int body[2];
    int collider[2];            /* broad-phase entries: colliders, then rod elements */
    double a[2][3];             /* contact points: body frame about the CoM, or world, or the rod's offset */
    double n[3];                /* world unit normal, from side 1 towards side 0 */
    double mu_s, mu_d, e;       /* the pair's material (means of the two sides') */
    double vn0;                 /* normal velocity after the prediction, before the solve (restitution) */
    double lambda_n;            /* normal positional multiplier of this substep */
    double lambda_t[3];         /* on a manifold's first contact (or a rod contact): its static friction multiplier, times its direction, */
    double lambda_twist;        /* and its torsional static friction multiplier */
    int rod[2];                 /* −1, or the side's rod (index in xpbd_data.rods) */
    int node0[2], nn[2];        /* a rod side's element nodes */
    double N[2][4];             /* and their weights N_j(ξ) */
} xpbd_contact;

#endif
