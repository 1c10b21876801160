/* rod_scenes.h — the rod scenes of Tobin & Rucker Table 2 (§9.4 spring,
 * §9.5 plectoneme) and the Table 2 timing cases, shared by the native
 * benchmark (bench/rod_benchmarks.c) and its WebAssembly build
 * (bench/rod_wasm.c), so both time the same rods (docs/rods.md). */
#ifndef MECH_ROD_SCENES_H
#define MECH_ROD_SCENES_H

#include "xpbd/rod.h"

/* §9.4: helix of 15 coils, radius 0.1 m, 1.4 m high, wire d = 0.01 m,
 * E = 60 GPa, ν = 0.3, ρ = 7650, both ends clamped, no load, dt = 5 ms. */
void rod_spring_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel);

/* §9.5 (Table 2: L = 10, d = 0.1, E = 5e7, ν = 0.4, ρ = 1000, β = 1e6,
 * h = 1 ms), straight along world x from x = −5 to 5, no gravity, both
 * ends clamped.  The protocol (docs/rods.md): the start is moved PLECT_SLACK
 * m towards the end over the first second and a hair (PLECT_KICK m) along
 * world z, which picks the buckling plane x–z; the end turns PLECT_TURNS
 * turns about x over PLECT_TWIST_TIME s, then holds. */
#define PLECT_SLACK 3.0
#define PLECT_KICK 1e-3
#define PLECT_TURNS 8.0
#define PLECT_TWIST_TIME 24.0
void rod_plectoneme_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel);

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
 * plectoneme: the protocol above) and one step taken: what is timed.
 * 0, or −1 with a message in err. */
int rod_timing_scene(int i, xpbd_rod *rod, char *err, int errlen);

extern const char *const rod_disc_name[4];

#endif
