/* tire.h — tires on wheels against the terrain (internal to core/contact):
 * the Fiala law after Project Chrono's Fiala tire (itself after the MSC
 * Adams transient Fiala model), with first-order relaxation of the slips
 * (Pacejka, "Tyre and Vehicle Dynamics", the single-contact-point transient
 * model).  Equations: docs/contact.md "Tires". */
#ifndef MECH_TIRE_H
#define MECH_TIRE_H

#include "rbda/kinematics.h"

/* The Fiala patch forces at longitudinal slip kappa, tan(slip angle) tana
 * and normal load fz >= 0, the friction U scaled by `scale` (the ground's mu
 * over the tire's) and taken at a combined slip of at least ssa_min (0:
 * Fiala's; 1: the full-slip UMIN): fx along the wheel's heading, fy lateral
 * (towards the spin axis' side of the contact frame), mz the aligning
 * moment about the normal. */
void tire_fiala(const mech_tire *t, double scale, double ssa_min, double kappa, double tana, double fz, double *fx,
                double *fy, double *mz);
/* The vertical law's elastic force at deflection d >= 0 (the curve,
 * piecewise linear and continued along its last segment, or kz d), and its
 * energy, the integral of that force from 0 to d. */
double tire_vertical_force(const mech_tire *t, double d);
double tire_vertical_energy(const mech_tire *t, double d);

/* A tire's transient state: the relaxed slip kappa' and tan(alpha'). */
typedef struct {
    double kappa, tana;
} tire_slip;

/* Where a tire touches (tire_patch): the contact frame x (heading), y
 * (lateral), n (terrain normal), the ground point g, the deflection d and
 * the wheel centre's velocity in that frame, the spin rate about the axis. */
typedef struct {
    double x[3], y[3], n[3], g[3];
    double d;
    double vx, vy, vz, omega;
} tire_contact;

/* The disc of tire t on wheel kinematics k against ground gr: 1 in contact
 * (d > 0), with *c filled. */
int tire_patch(const mech_ground *gr, const mech_tire *t, const mech_body *b, const mech_body_kin *k, tire_contact *c);

typedef struct {
    const mech_model *m;
    double scale[MECH_MAX_TIRES]; /* ground mu / tire mu                      */
    double cx[MECH_MAX_TIRES];    /* low-speed slip dampers, N s/m (docs/contact.md) */
    double cy[MECH_MAX_TIRES];
} tire_stage;

void tire_stage_init(tire_stage *s, const mech_model *m);
/* Add every tire's force at k into fext (its wheel's slots) and their sum
 * into reaction and body_force (3 per body; NULL: not kept); the slips are
 * relaxed over dt when dt > 0 (dt 0 reads them as they are).  patch_force,
 * when not NULL, gets per tire the ground point and the force (6 each; zero
 * off the ground). */
void tire_stage_forces(const tire_stage *s, const mech_body_kin *k, double dt, tire_slip *slip, double *fext,
                       double reaction[3], double *body_force, double *patch_force);
/* The tires' stored vertical energy at k. */
double tire_stage_potential(const tire_stage *s, const mech_body_kin *k);

#endif
