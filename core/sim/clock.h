/* clock.h — a wall clock in milliseconds for the stage times a run reports
 * (mech_data_stage_times, mech/sim.h).  It is only read into reports: no
 * step result depends on it, so runs stay bitwise reproducible.
 *
 * Native builds read CLOCK_MONOTONIC; WebAssembly modules import
 * env.mech_now_ms, which the JavaScript shim supplies from
 * performance.now() (wasm/module.mjs). */
#ifndef MECH_CLOCK_H
#define MECH_CLOCK_H

/* Milliseconds since an arbitrary fixed origin, never decreasing. */
double mech_clock_ms(void);

#endif
