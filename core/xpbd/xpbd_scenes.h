/* xpbd_scenes.h — the two rigid-body scenes of Tobin & Rucker §9.1, built in
 * C.  models/xpbd/triple_pendulum.mech and rps3.mech write the same scenes in
 * the model language (what bench/xpbd_results runs); tests/xpbd/xpbd_scene_files.c
 * checks them against these.  The paper gives no geometry or masses; the
 * values chosen are listed in docs/xpbd.md. */
#ifndef MECH_XPBD_SCENES_H
#define MECH_XPBD_SCENES_H

#include "xpbd/xpbd.h"

/* Three 1 m, 1 kg links on revolute joints (axes along world y), released
 * at rest, straight, 80° from the downward vertical.  Returns 0 or −1. */
int xpbd_scene_triple_pendulum(xpbd_model *m);

/* 3-RPS parallel robot: three revolute–prismatic–spherical legs carry a
 * platform whose height and tilt follow xpbd_3rps_target (joint index
 * XPBD_3RPS_TARGET_JOINT).  Returns 0 or −1. */
int xpbd_scene_3rps(xpbd_model *m);
#define XPBD_3RPS_TARGET_JOINT 9
void xpbd_3rps_target(double t, int joint, double target[6], void *user);

#endif
