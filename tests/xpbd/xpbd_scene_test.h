/* xpbd_scene_test.h — what the XPBD contact tests share: a pass/fail
 * line per check, and a scene from .mech text run on the XPBD engine's own
 * structures (core/xpbd/xpbd_from_model.h). */
#ifndef MECH_XPBD_SCENE_TEST_H
#define MECH_XPBD_SCENE_TEST_H

#include "expect.h"
#include "model/model.h"
#include "xpbd/xpbd_from_model.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    mech_model *mm;
    xpbd_mech x;
    xpbd_data d;
} scene;

static int scene_open(scene *s, const char *text)
{
    mech_error err;
    s->mm = mech_model_parse(text, strlen(text), "scene", &err);
    if (!s->mm || xpbd_from_model(s->mm, &s->x, &err) || xpbd_mech_data(&s->x, s->x.mode, &s->d)) {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        printf("FAIL scene: %s\n", buf);
        failures++;
        return -1;
    }
    return 0;
}

static void scene_close(scene *s)
{
    xpbd_data_free(&s->d);
    xpbd_mech_free(&s->x);
    mech_model_free(s->mm);
}

/* One step of the scene's dt; −1 (a failure) when contact storage could not grow. */
static int step(scene *s)
{
    if (xpbd_step(&s->x.m, &s->d)) {
        printf("FAIL step: out of memory\n");
        failures++;
        return -1;
    }
    return 0;
}

#endif
