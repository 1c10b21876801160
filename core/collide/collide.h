/* collide.h — collision detection for any engine (docs/xpbd.md, "Contact"):
 * shapes fixed in a body at a local pose, placed at the body's world pose;
 * the narrow phase between two placed shapes; their signed distance and
 * bounding box.  Shapes, poses and points in, contact points out: nothing
 * here knows an engine's bodies or solver.  The broad phase is broadphase.h.
 *
 * A manifold between shapes A and B is one world unit normal n, pointing
 * from B towards A (the direction A must move to separate), and up to
 * COLLIDE_MAX_MANIFOLD point pairs: pa on A's surface, pb on B's surface, with
 * separation s = (pa − pb)·n, negative when they overlap (depth = −s).
 * Points are reported while s < margin, so a contact that a step's motion
 * will close is already known when the solve starts. */
#ifndef MECH_COLLIDE_H
#define MECH_COLLIDE_H

typedef enum {
    COLLIDE_SPHERE,   /* size[0] = r                                  */
    COLLIDE_CAPSULE,  /* size[0] = r, size[1] = half the straight part (along z) */
    COLLIDE_BOX,      /* size = half extents                          */
    COLLIDE_CYLINDER, /* size[0] = r, size[1] = half length (along z) */
    COLLIDE_PLANE,    /* the z = 0 plane of its frame, solid below (static only) */
    COLLIDE_HULL      /* the convex hull of hull[0 .. nhull) (points in its frame) */
} collide_kind;

/* A hull's vertex count: at least 4 spanning a volume, at most this. */
#define COLLIDE_HULL_MAX 64

/* A shape at its local pose in its owner's frame: centre pos, axes R (columns). */
typedef struct {
    collide_kind kind;
    double size[3];
    double pos[3], R[9];
    const double *hull; /* COLLIDE_HULL: nhull points x y z, not owned */
    int nhull;
} collide_shape;

/* A body's world pose: position and unit quaternion [w x y z]. */
typedef struct {
    double p[3], q[4];
} collide_pose;

/* A shape at its world pose: centre c, axes R (columns). */
typedef struct {
    collide_kind kind;
    double c[3], R[9], size[3];
    const double *hull; /* COLLIDE_HULL: the shape's points, in its frame */
    int nhull;
} collide_placed;

/* The shape on a body at world position p, rotation R: c = p + R pos,
 * axes R R_shape. */
void collide_shape_place(const collide_shape *s, const double p[3], const double R[9], collide_placed *out);
/* The same at a pose given by its quaternion. */
void collide_shape_place_pose(const collide_shape *s, const collide_pose *pose, collide_placed *out);

#define COLLIDE_MAX_MANIFOLD 8

typedef struct {
    int n_points;
    double n[3];
    double pa[COLLIDE_MAX_MANIFOLD][3], pb[COLLIDE_MAX_MANIFOLD][3];
    double depth[COLLIDE_MAX_MANIFOLD]; /* −(pa − pb)·n */
} collide_manifold;

/* The manifold of A against B within `margin`; 0 when the pair has no
 * narrow phase (a cylinder against a box, capsule or cylinder; two planes)
 * or no point is closer than margin.  Returns the point count. */
int collide_pair(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *out);

/* The pair functions (A of the first kind, B of the second); collide_pair
 * orders the pair and flips the result. */
int collide_sphere_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_capsule_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_box_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_cylinder_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_sphere_sphere(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_sphere_capsule(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_capsule_capsule(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_sphere_cylinder(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_sphere_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_capsule_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_box_box(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
/* A hull against a plane (every vertex closer than margin, at most
 * COLLIDE_MAX_MANIFOLD deep and spread ones), and against any convex shape
 * (GJK and EPA, then the touching features clipped: narrow_hull.c). */
int collide_hull_plane(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);
int collide_hull_convex(const collide_placed *a, const collide_placed *b, double margin, collide_manifold *o);

/* ---- support mapping (gjk.c) ---- */

/* A convex shape as a core and a radius: a sphere is a point, a capsule a
 * segment, each swollen by size[0]; a box, cylinder or hull is its own core
 * (radius 0). */
double collide_radius(const collide_placed *s);
/* The point of s's core farthest along d (world): its support point. */
void collide_support(const collide_placed *s, const double d[3], double out[3]);

/* Closest points of two cores: the distance (0 when they overlap, then the
 * points are a penetration's deepest pair from EPA and depth its length);
 * n the unit normal from B to A.  Returns 0, or -1 when the iteration caps
 * ended it (the best estimate is still written). */
typedef struct {
    double dist, depth; /* one of them is 0 */
    double n[3], pa[3], pb[3];
} collide_gjk;
int collide_gjk_epa(const collide_placed *a, const collide_placed *b, collide_gjk *out);

/* Small geometry shared by the pair files. */
/* Closest points of segments p1 + s d1, p2 + t d2 (s, t in [0, 1]). */
void collide_segment_closest(const double p1[3], const double d1[3], const double p2[3], const double d2[3], double *s,
                             double *t);
/* Append pa, pb to o if (pa − pb)·o->n < margin. */
void collide_manifold_add(collide_manifold *o, const double pa[3], const double pb[3], double margin);

/* Signed distance of the world point x to a placed shape (negative inside)
 * and the shape's outward unit normal there (sdf.c). */
double collide_sdf(const collide_placed *s, const double x[3], double n[3]);

/* Axis-aligned box of a placed shape (planes: unbounded, not asked). */
void collide_placed_aabb(const collide_placed *s, double lo[3], double hi[3]);

#endif
