/* broadphase.h — candidate pairs of placed shapes (collide.h) whose AABBs,
 * each grown by its own `grow` (≥ 0), overlap.  Dynamic shapes are hashed
 * into cubic cells of the mean AABB size (Teschner et al. 2003's hash of the
 * cell coordinates, a prime table of at least twice the entries); each pair
 * is reported once, from the lowest cell both boxes cover.  Planes pair with
 * every dynamic shape whose box reaches below them; a static box larger
 * than the whole hash is tested against every dynamic box; static shapes
 * never pair with each other (is_static); `skip(i, j)` removes pairs (same
 * body, jointed bodies).  Pairs come sorted by (i, j).  Expected O(n) for
 * shapes of similar size. */
#ifndef MECH_COLLIDE_BROADPHASE_H
#define MECH_COLLIDE_BROADPHASE_H

#include "collide/collide.h"

typedef struct {
    int n, cap;                 /* pairs, and the capacity of `pairs` in ints */
    int *pairs;                 /* 2 per pair, lower index first */
    int *count, *start, *entry; /* the hash table: bucket sizes, offsets, shape ids */
    int ntable, cap_count, cap_start, cap_entry;
} collide_broadphase;

typedef int (*collide_pair_skip)(int i, int j, const void *user);

/* 0, or −1 when storage could not grow. */
int collide_broadphase_run(collide_broadphase *bp, int n, const collide_placed *shapes, const int *is_static,
                           const double *grow, collide_pair_skip skip, const void *user);
void collide_broadphase_free(collide_broadphase *bp);

#endif
