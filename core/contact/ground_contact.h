/* ground_contact.h — the shoe pads against the terrain (internal to
 * core/contact): 4 corners per shoe of every band, the vertical-gap law,
 * regularized or anchored friction.  Equations: docs/contact.md "Ground". */
#ifndef MECH_GROUND_CONTACT_H
#define MECH_GROUND_CONTACT_H

#include "contact/laws.h"
#include "rbda/kinematics.h"

typedef struct {
    const mech_model *m;
    ground_params P;
    int ncorner; /* 4 per shoe over every band */
    double top;  /* a grid's upper bound of h (terrain_grid_top) */
} ground_stage;

void ground_stage_init(ground_stage *g, const mech_model *m);
/* Shoe-local corner c (0..3) of band t's pads. */
void ground_corner_local(const mech_track *t, int c, double x[3]);
/* Add every corner's force at k into fext and their sum into reaction,
 * and, when body_force is not NULL (3 per body), each shoe's corners' sum
 * into its entry; anchors (ncorner of them, or NULL: the regularized law)
 * are used, and moved when dt > 0, under the anchored mode. */
void ground_stage_forces(const ground_stage *g, const mech_body_kin *k, double dt, ground_anchor *anchors, double *fext,
                         double reaction[3], double *body_force);
/* Normal springs plus the anchors' tangential springs (anchors may be NULL). */
double ground_stage_potential(const ground_stage *g, const mech_body_kin *k, const ground_anchor *anchors);

#endif
