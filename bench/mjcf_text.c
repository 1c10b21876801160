/* mjcf_text.c — print a .mech model as MJCF (tests/mujoco/mjcf.c's converter), for
 * bench/wasm_bench.mjs to load the same model into mujoco-js.
 *   mech-mjcf FILE */
#include <stdio.h>
#include <stdlib.h>

#include "mjcf.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mech-mjcf FILE.mech\n");
        return 2;
    }
    mech_error err;
    mech_model *m = mech_model_load(argv[1], &err);
    if (!m) {
        char msg[MECH_ERROR_MAX + 160];
        mech_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    char *xml = mjcf_write(m);
    mech_model_free(m);
    if (!xml) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    fputs(xml, stdout);
    free(xml);
    return 0;
}
