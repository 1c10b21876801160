/* fuzz_parse.c — libFuzzer target for the .mech parser (scripts/fuzz.sh).
 *
 * The input is parsed from an exact-size copy, so ASan flags any read past
 * `len`.  A parsed model must satisfy the invariants every consumer relies on;
 * a failed parse must leave a well-formed message.
 */
#include "model/model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_model(const mech_model *m)
{
    int nq = 0, nv = 0;
    for (int i = 0; i < m->nb; i++) {
        const mech_body *b = &m->bodies[i];
        if (b->parent >= i || b->parent < -1 || b->qidx != nq || b->vidx != nv || !(b->mass > 0)) abort();
        nq += b->nq;
        nv += b->nv;
    }
    if (nq != m->nq || nv != m->nv) abort();
    for (int s = 0; s < m->nshape; s++)
        if (m->shapes[s].body < 0 || m->shapes[s].body >= m->nb) abort();
    for (int p = 0; p < m->npoi; p++)
        if (m->pois[p].body < -1 || m->pois[p].body >= m->nb) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    memcpy(text, data, size);
    mech_error err;
    mech_model *m = mech_model_parse(text, size, "fuzz.mech", &err);
    free(text);
    if (m) {
        check_model(m);
        mech_model_free(m);
    } else {
        char buf[512];
        mech_error_format(&err, buf, sizeof buf);
        if (err.message[0] == '\0' || memchr(err.message, '\0', sizeof err.message) == NULL) abort();
    }
    return 0;
}
