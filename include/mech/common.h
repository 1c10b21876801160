/* common.h — what every layer of the public API shares: the export macro,
 * the two object types and the error record.
 *
 * The API follows MuJoCo's split: a mech_model is built once from `.mech`
 * text and never written again; a mech_data is one run of it (state,
 * inputs, outputs and every workspace), made by one of the engines
 * (featherstone.h, xpbd.h) and driven through the verbs of sim.h.  Names
 * are object-then-verb: mech_model_load, mech_data_step.  Only what these
 * headers declare is visible outside the library (docs/architecture.md). */
#ifndef MECH_COMMON_H
#define MECH_COMMON_H

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define MECH_API __attribute__((visibility("default")))
#else
#define MECH_API
#endif

#define MECH_ERROR_MAX 320

typedef struct mech_model mech_model; /* immutable: model.h */
typedef struct mech_data mech_data;   /* one run of a model: sim.h */

/* Where and what went wrong.  line and col are 1-based, 0 when the error has
 * no place in the text (out of memory, a blown-up step). */
typedef struct mech_error {
    char file[128];
    int line, col;
    char message[MECH_ERROR_MAX]; /* what was expected, without the place */
} mech_error;

/* "file:line:col: message" (or "file: message", or the message alone) into
 * buf, always NUL-terminated. */
MECH_API void mech_error_format(const mech_error *err, char *buf, size_t cap);

#endif
