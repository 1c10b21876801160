/* clock.c — the wall clock of the stage times (clock.h). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "sim/clock.h"

#ifdef __EMSCRIPTEN__
/* Imported from the JavaScript shim (wasm/module.mjs); declared to the
 * linker by cmake/mech_now_ms.js. */
extern double mech_now_ms(void);

double mech_clock_ms(void) { return mech_now_ms(); }
#else
#include <time.h>

double mech_clock_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}
#endif
