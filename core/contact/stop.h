/* stop.h — bump stops on tsdas (internal to core/contact): after Project
 * Chrono's HMMWV shock (HMMWV_ShockForce), the tsda's damping rate c becomes
 * the stop's rate while it compresses at or below the bump length and while
 * it extends at or above the rebound length.  Equations: docs/contact.md
 * "Stops". */
#ifndef MECH_STOP_H
#define MECH_STOP_H

#include "rbda/kinematics.h"

/* The stop's tension (pulls the ends together, as a tsda's) beside the
 * tsda's own c ldot at length l and rate ldot:
 * (bump_rate - c) ldot when ldot < 0 and l <= bump_length,
 * (rebound_rate - c) ldot when ldot > 0 and l >= rebound_length, else 0. */
double stop_tension(const mech_stop *s, double c, double l, double ldot);

/* Add every stop's force at k into fext: the tension along the tsda's line,
 * equal and opposite on its two bodies at its two points. */
void stop_stage_forces(const mech_model *m, const mech_body_kin *k, double *fext);

#endif
