/* rod_scenes.c — the Table 2 timing cases (rod_scenes.h). */
#include "rod_scenes.h"

#include <string.h>

const char *const rod_disc_name[4] = { "rigid", "linear", "quadratic", "cubic" };

const rod_timing_case rod_timing_cases[ROD_TIMING_CASES] = {
    { "spring", XPBD_ROD_RIGID, 120, 0.09 },        { "spring", XPBD_ROD_LINEAR, 120, 0.10 },
    { "spring", XPBD_ROD_LINEAR, 250, 0.22 },       { "spring", XPBD_ROD_QUADRATIC, 66, 0.22 },
    { "spring", XPBD_ROD_CUBIC, 40, 0.28 },         { "plectoneme", XPBD_ROD_LINEAR, 30, 0.06 },
    { "plectoneme", XPBD_ROD_LINEAR, 60, 0.11 },    { "plectoneme", XPBD_ROD_LINEAR, 120, 0.23 },
    { "plectoneme", XPBD_ROD_QUADRATIC, 15, 0.11 }, { "plectoneme", XPBD_ROD_QUADRATIC, 30, 0.23 },
    { "plectoneme", XPBD_ROD_QUADRATIC, 60, 0.43 }, { "plectoneme", XPBD_ROD_CUBIC, 10, 0.17 },
    { "plectoneme", XPBD_ROD_CUBIC, 20, 0.35 },     { "plectoneme", XPBD_ROD_CUBIC, 40, 0.68 },
};

int rod_timing_scene(int i, xpbd_rod *rod, char *err, int errlen)
{
    const rod_timing_case *c = &rod_timing_cases[i];
    xpbd_rod_desc d;
    if (strcmp(c->scene, "spring") == 0) {
        rod_spring_desc(&d, c->disc, c->elements);
        d.end[1].move[2] = -0.4;
        d.end[1].ramp_time = 10;
    } else {
        rod_plectoneme_desc(&d, c->disc, c->elements);
    }
    if (xpbd_rod_init(rod, &d, err, errlen)) return -1;
    xpbd_rod_step(rod);
    return 0;
}
