/* mech.h — the whole public API: include this, link libmech.a. */
#ifndef MECH_H
#define MECH_H

#include "mech/common.h"
#include "mech/contact.h"
#include "mech/featherstone.h"
#include "mech/model.h"
#include "mech/sim.h"
#include "mech/xpbd.h"

#endif
