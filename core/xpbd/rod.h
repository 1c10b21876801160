/* rod.h — Cosserat rods in XPBD (Tobin & Rucker §6, §8.2): a chain of rigid
 * bodies (§6.2) or finite elements with linear, quadratic or cubic Lagrange
 * bases (§6.3), shear/stretch and bend/twist constraints at Gauss points,
 * and one block-banded direct solve of all of a rod's elastic constraints and
 * end clamps per iteration (§8.2).  Derivations: docs/rods.md.
 *
 * Each node j carries a position p_j (world) and a rotation R_j (material
 * frame {d1, d2, d3} to world, row-major, d3 the rest tangent), perturbed on
 * the right (R ⊞ δ = R Exp(δ), core/spatial/so3.h) exactly like an XPBD body
 * (xpbd.h).  ω is body-frame, fext world [torque; force] per node.
 *
 * An xpbd_rod_desc is what a parser fills; xpbd_rod_init turns it into an
 * xpbd_rod, which holds the discretization (rest shape, masses, Gauss points,
 * compliances) and the state of one run. */
#ifndef MECH_ROD_H
#define MECH_ROD_H

#include "xpbd/xpbd.h"

typedef enum {
    XPBD_ROD_RIGID,  /* §6.2: N − 1 segments → N bodies, half-length end bodies */
    XPBD_ROD_LINEAR, /* §6.3 Lagrange bases of order 1, 2, 3 */
    XPBD_ROD_QUADRATIC,
    XPBD_ROD_CUBIC
} xpbd_rod_discretization;

typedef enum {
    XPBD_ROD_STRAIGHT, /* along the local e3 from the local origin */
    XPBD_ROD_HELIX,    /* about the local e3, starting at (coil_radius, 0, 0) */
    XPBD_ROD_POINTS    /* a polyline, resampled by arc length */
} xpbd_rod_shape;

typedef enum {
    XPBD_ROD_BANDED,      /* §8.2: one SPD block-banded solve per iteration */
    XPBD_ROD_GAUSS_SEIDEL /* each Gauss-point / clamp constraint solved alone (§8.1) */
} xpbd_rod_solver;

/* A boundary condition at one end of the rod (`hold`):
 *   0               free;
 *   XPBD_ROD_CLAMP  position and orientation held: six rows C = [p − p_t; R ⊟ R_t];
 *   XPBD_ROD_PIN    position held, orientation free (a ball joint): the three
 *                   rows C = p − p_t only.
 * Both have zero compliance and are part of the banded system.  The target is
 * the end's rest pose moved by `move` (world, m) and, for a clamp, rotated by
 * `twist` (rad) about its own rest d3 (a pin refuses a twist); both ramp
 * linearly from 0 at t = 0 to their full value at t = ramp_time (at once
 * when ramp_time = 0) and then stay.  With on_body the rest pose is carried
 * by xpbd_model body `body` (two-way coupled, see xpbd_rod_attach) and move
 * and twist are not used.  The values of `hold` are those of
 * mech_rod_end.hold (model.h), which xpbd_rod_desc_from_model copies. */
enum { XPBD_ROD_CLAMP = 1, XPBD_ROD_PIN = 2 };
typedef struct {
    int hold;
    int on_body, body;
    double move[3];
    double twist;
    double ramp_time;
} xpbd_rod_end;

typedef struct {
    xpbd_rod_discretization disc;
    int elements;         /* elements (segments for the rigid chain) */
    int full_integration; /* 0: uniformly reduced, m Gauss points; 1: m + 1 */
    double length;        /* XPBD_ROD_STRAIGHT; helix and points derive it */
    double diameter;      /* circular section */
    double E, nu, rho;
    double damping; /* β (Pa·s): viscous analogue of E, §4.4 */
    xpbd_rod_shape shape;
    double coil_radius, pitch, turns; /* XPBD_ROD_HELIX */
    int npoints;                      /* XPBD_ROD_POINTS: ≥ 2 points, */
    const double *points;             /* 3 per point (copied by init) */
    double origin[3], frame[9];       /* placement of the local frame: x_world = origin + frame x */
    xpbd_rod_end end[2];              /* s = 0 and s = L */
    /* Contact in a world (docs/xpbd.md, "Contact", "Rods"): unless visual,
     * the rod collides as the swept circle of its diameter about its
     * centreline, with colliders, other rods and itself, with static and
     * dynamic friction mu_s >= mu_d >= 0 and restitution e in [0, 1]. */
    int visual;
    double mu_s, mu_d, e;
    double dt;
    int substeps, iterations;
    double gravity[3];
    xpbd_rod_solver solver;
} xpbd_rod_desc;

/* Fill a desc with the defaults: straight linear rod, one element, frame = I,
 * dt 0.01, one substep and iteration, banded solver, no gravity; colliding,
 * mu_s 0.5, mu_d 0.4, e 0 (the colliders' defaults). */
void xpbd_rod_desc_default(xpbd_rod_desc *desc);

typedef struct xpbd_rod {
    xpbd_rod_desc desc;               /* copy (points not kept) */
    int order;                        /* 0 rigid chain, else 1-3 */
    int nel, nnode, ngauss;           /* ngauss per element (1 for the rigid chain) */
    int ncon;                         /* constraint blocks: clamps + Gauss points */
    int bandwidth;                    /* block bandwidth, from the connectivity */
    double l;                         /* element (segment) length */
    double xi[4], wq[4];              /* Gauss points and weights on [0, 1] */
    double phi_g[4][4], dphi_g[4][4]; /* the Lagrange bases and their derivatives at the Gauss points */
    double *mass, *inertia;           /* 1 and 3 (diagonal, body frame) per node */
    double *inv_mass;                 /* 6 per node: M_j⁻¹ = [1/m (3); 1/J (3)] */
    double *p0, *R0;                  /* rest pose */
    double *rest;                     /* 6 per Gauss point: [v*; u*] */
    double *alpha, *beta;             /* 6 per Gauss point: compliance, damping */
    /* state */
    double t;
    double *p, *R, *v, *w, *fext;
    double *lambda; /* 6 per constraint block */
    /* A rod in a rigid-body world (xpbd_rod_attach): the world, and each
     * body-clamped end's frame in its body's coordinates. */
    const xpbd_model *world;
    xpbd_data *world_data;
    double attach_r[2][3], attach_R[2][9];
    double *p_prev, *R_prev;
    /* workspace of the solves */
    struct rod_block *blocks;  /* one evaluated constraint block per ncon */
    double *band, *rhs, *diag; /* banded matrix, right-hand side, its diagonal terms */
    double *dx;                /* 6 per node */
} xpbd_rod;

/* Build the rod; 0, or −1 with a message in err. */
int xpbd_rod_init(xpbd_rod *rod, const xpbd_rod_desc *desc, char *err, int errlen);
void xpbd_rod_reset(xpbd_rod *rod);
void xpbd_rod_free(xpbd_rod *rod);

/* One step of desc.dt: substeps × (predict, iterations × solve, velocities,
 * damping), for a rod on its own (no body-clamped end). */
void xpbd_rod_step(xpbd_rod *rod);

/* A rod in a rigid-body world: record the world and the body frames of the
 * body-clamped ends at the bodies' current poses (0, or −1 with a message).
 * The world's xpbd_step then runs the rod inside its substeps, with the
 * world's gravity and iteration count, once the rod is listed in
 * xpbd_data.rods.  Both ends on one body would break the band: refused. */
int xpbd_rod_attach(xpbd_rod *rod, const xpbd_model *m, xpbd_data *d, char *err, int errlen);
/* The three parts of a substep of h that xpbd_step calls for each rod:
 * prediction; one constraint iteration; velocities and damping. */
void xpbd_rod_substep_begin(xpbd_rod *rod, double h, const double gravity[3]);
void xpbd_rod_iterate(xpbd_rod *rod, double h);
void xpbd_rod_substep_end(xpbd_rod *rod, double h);
/* Quasi-static equilibrium: repeated steps of size h with the velocities
 * zeroed before each; stops when no node moves more than tol in a step.
 * Returns the last step's largest node displacement. */
double xpbd_rod_settle(xpbd_rod *rod, double h, int max_steps, double tol);

/* The interpolated centreline and frame at arc length s ∈ [0, L]
 * (eqs. 96, 99; for the rigid chain the geodesic between nodes). */
void xpbd_rod_sample(const xpbd_rod *rod, double s, double p[3], double R[9]);

#endif
