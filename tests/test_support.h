/* test_support.h — small helpers shared by the ctest programs. */
#ifndef MECH_TEST_SUPPORT_H
#define MECH_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"

/* The model at `path`, or its parse error as file:line:col on stderr and exit status 2. */
static inline mech_model *test_load_model(const char *path)
{
    mech_error err;
    mech_model *m = mech_load(path, &err);
    if (!m) {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        exit(2);
    }
    return m;
}

#endif
