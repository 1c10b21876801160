/* rod_fixtures.h — the rods of Tobin & Rucker §9, written once and shared by
 * the rod tests, bench/rod_benchmarks.c and its WebAssembly build
 * (bench/rod_wasm.c), so all of them use the same rods.  Step size and
 * iterations stay the caller's unless the paper gives them. */
#ifndef MECH_ROD_FIXTURES_H
#define MECH_ROD_FIXTURES_H

#include "xpbd/rod.h"

/* §9.2: the cantilever (E = 5 MPa, d = 0.1 m, L = 1 m, ρ = 1000), along
 * world x, clamped at x = 0, gravity −z. */
void rod_cantilever_desc(xpbd_rod_desc *d, xpbd_rod_discretization disc, int nel);

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

#endif
