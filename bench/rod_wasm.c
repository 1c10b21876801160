/* rod_wasm.c — the Table 2 rods (bench/rod_scenes.c) as a WebAssembly module
 * for bench/rod_wasm.mjs: open a case, take steps, read the state.  The
 * module reads no clock; the caller times rw_steps from JS with the process's
 * CPU time (docs/rods.md, "Table 2: time per step"; the figures: docs/benchmarks.md). */
#include "rod_scenes.h"

#include <emscripten.h>

static xpbd_rod rod;
static int is_open;

EMSCRIPTEN_KEEPALIVE int rw_cases(void) { return ROD_TIMING_CASES; }
EMSCRIPTEN_KEEPALIVE int rw_elements(int i) { return rod_timing_cases[i].elements; }
EMSCRIPTEN_KEEPALIVE int rw_disc(int i) { return (int)rod_timing_cases[i].disc; }
EMSCRIPTEN_KEEPALIVE int rw_is_spring(int i) { return rod_timing_cases[i].scene[0] == 's'; }
EMSCRIPTEN_KEEPALIVE double rw_paper_ms(int i) { return rod_timing_cases[i].paper_ms; }

/* Case i, loaded and one step taken (rod_timing_scene); 0 or −1. */
EMSCRIPTEN_KEEPALIVE int rw_open(int i)
{
    char err[160];
    if (is_open) xpbd_rod_free(&rod);
    is_open = rod_timing_scene(i, &rod, err, sizeof err) == 0;
    return is_open ? 0 : -1;
}

EMSCRIPTEN_KEEPALIVE void rw_steps(int n)
{
    for (int s = 0; s < n; s++) xpbd_rod_step(&rod);
}

/* Coordinate k of the last node (0-2): the caller checks that the run stayed finite. */
EMSCRIPTEN_KEEPALIVE double rw_tip(int k) { return rod.p[3 * (rod.nnode - 1) + k]; }
