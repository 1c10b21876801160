/* rod_scenes.h — the Table 2 timing cases of Tobin & Rucker on the rods of
 * tests/fixtures/rod_fixtures.h (§9.4 spring, §9.5 plectoneme), shared by the native
 * benchmark (bench/rod_benchmarks.c) and its WebAssembly build
 * (bench/rod_wasm.c), so both time the same rods (docs/rods.md). */
#ifndef MECH_ROD_SCENES_H
#define MECH_ROD_SCENES_H

#include "rod_fixtures.h"

/* Table 2's rows: scene, discretization, elements, the paper's ms/step. */
typedef struct {
    const char *scene;
    xpbd_rod_discretization disc;
    int elements;
    double paper_ms;
} rod_timing_case;

enum { ROD_TIMING_CASES = 14 };
extern const rod_timing_case rod_timing_cases[ROD_TIMING_CASES];

/* The rod of case i, loaded (spring: top pushed 0.4 m down over 10 s;
 * plectoneme: the protocol of rod_fixtures.h) and one step taken: what is timed.
 * 0, or −1 with a message in err. */
int rod_timing_scene(int i, xpbd_rod *rod, char *err, int errlen);

extern const char *const rod_disc_name[4];

#endif
