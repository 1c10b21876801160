/* laws.h — the contact stage's point laws, one function each, exposed so
 * the checks can drive every law directly at a chosen state (internal to
 * core/contact; the stage is contact.h).  Equations: docs/contact.md. */
#ifndef MECH_CONTACT_LAWS_H
#define MECH_CONTACT_LAWS_H

#include <math.h>

#include "model/model.h"

/* Constants the model format does not carry (docs/contact.md "Constants"). */
#define CONTACT_GATE_FADE 0.03 /* m: tooth and guide gate width outside the pitch circle */
#define CONTACT_RAMP 1e-3      /* m: penetration over which a damper fades in            */

/* Smoothstep 3t^2 - 2t^3 on t clamped to [0, 1], and its t-derivative. */
static inline double contact_smoothstep(double t, double *ds)
{
    if (t <= 0) {
        *ds = 0;
        return 0;
    }
    if (t >= 1) {
        *ds = 0;
        return 1;
    }
    *ds = 6 * t * (1 - t);
    return t * t * (3 - 2 * t);
}

/* The damper's fade-in ramp(d) = clamp(d / CONTACT_RAMP, 0, 1). */
static inline double contact_ramp(double d) { return d <= 0 ? 0 : d >= CONTACT_RAMP ? 1 : d / CONTACT_RAMP; }

/* Implicit regularized friction: the backward-Euler slope of m u' = -k u
 * over dt, k / (1 + k dt / m) (docs/contact.md "Implicit friction"); dt = 0
 * is the explicit k exactly. */
static inline double contact_implicit_slope(double k, double dt, double m) { return k / (1.0 + k * dt / m); }

/* ---- the pin law: a shoe pin against an end roller (roller frame) ---- */
typedef struct {
    double R;         /* pitch radius                              */
    double kn, c;     /* radial stiffness, damper (from zeta, shoe mass) */
    double kg, cg;    /* lateral guide stiffness and damper         */
    double mu, veps;  /* Coulomb (non-drive rollers only)           */
    double m_pair;    /* the pair's reduced mass, for implicit friction */
    int drive, teeth; /* the tooth law instead of friction          */
    double theta0;    /* a pocket centre, rad                       */
    double fskip;     /* tooth-skip force, N                        */
} pin_params;

/* Force on the shoe pin at d (pin minus roller centre, roller frame: x, z
 * the band plane, y the axle) moving at u (pin against the roller's material
 * point there, roller frame), friction held over dt. */
void pin_force(const pin_params *P, const double d[3], const double u[3], double dt, double f[3]);
/* Its stored energy: 1/2 kn delta^2 + g(delta) (1/2 kg y^2 + U0(theta)). */
double pin_potential(const pin_params *P, const double d[3]);
/* The engagement gate g(delta) = smoothstep((delta + fade) / fade), g'. */
double pin_gate(double delta, double *dg);
/* The tooth potential U0(theta) = (fskip R / N) (1 - cos N (theta - theta0)), dU0/dtheta. */
double tooth_potential(const pin_params *P, double theta, double *dU);

/* ---- the face law: a road wheel on a shoe's running face (shoe frame) ---- */
typedef struct {
    double radius;     /* wheel rim radius                          */
    double zf;         /* running face z = pad_z + thickness        */
    double link, fade; /* face length, and the weight's reach past each end */
    double kn, c;
    double mu, veps, m_pair;
} face_params;

/* Face weight w(x) = S((x + fade) / 2fade) (1 - S((x - link + fade) / 2fade)),
 * partition of unity along the band, and w'(x). */
double face_weight(const face_params *P, double x, double *dw);
/* a: the axle centre, ua: its velocity against the shoe's material point
 * there, us: the wheel's slip at the foot against the shoe (all shoe frame).
 * fa: force on the shoe at the axle; ff: friction on the shoe at the foot. */
void face_force(const face_params *P, const double a[3], const double ua[3], const double us[3], double dt,
                double fa[3], double ff[3]);
/* U = 1/2 w(a_x) kn delta^2, delta = radius - (a_z - zf). */
double face_potential(const face_params *P, const double a[3]);

/* ---- the ground law: a pad corner against the terrain (base frame) ---- */
typedef struct {
    const mech_ground *g;
    double kn, c; /* c: against the supported mass share        */
    double mu, veps;
    double m_eff;  /* implicit friction: a quarter of the shoe    */
    double kt, ct; /* anchored mode: tangential spring, damper    */
} ground_params;

/* The regularized law at p moving at u: force F on the pad.  Returns the
 * gap g = h(p) - p_z (> 0 in contact). */
double ground_force(const ground_params *P, const double p[3], const double u[3], double dt, double F[3]);
/* 1/2 kn g^2 where g > 0. */
double ground_potential(const ground_params *P, const double p[3]);

/* One anchored corner: anchor a and its tangent-plane unit normal n. */
typedef struct {
    double a[3], n[3];
    int on;
} ground_anchor;
/* The anchored law: normal part as ground_force, tangential the
 * elastoplastic anchor (docs/contact.md "Holding").  dt > 0 moves *A
 * (sets it on touchdown, drops it on lift-off, returns it on slide). */
double ground_force_anchored(const ground_params *P, ground_anchor *A, const double p[3], const double u[3], double dt,
                             double F[3]);
/* 1/2 kt |P_a (p - a)|^2 of an anchor that is on. */
double ground_anchor_potential(const ground_params *P, const ground_anchor *A, const double p[3]);

#endif
