/* test_support.h — small helpers shared by the ctest programs. */
#ifndef MECH_TEST_SUPPORT_H
#define MECH_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* m, or (m NULL) err as file:line:col on stderr and exit status 2. */
static inline mech_model *test_model_or_exit(mech_model *m, const mech_error *err)
{
    if (!m) {
        char buf[512];
        mech_error_format(err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        exit(2);
    }
    return m;
}

/* The model at `path`, or its parse error and exit status 2. */
static inline mech_model *test_load_model(const char *path)
{
    mech_error err;
    mech_model *m = mech_model_load(path, &err);
    return test_model_or_exit(m, &err);
}

/* The model in `text` (labelled name), or its parse error and exit status 2. */
static inline mech_model *test_parse_text(const char *text, const char *name)
{
    mech_error err;
    mech_model *m = mech_model_parse(text, strlen(text), name, &err);
    return test_model_or_exit(m, &err);
}

#endif
