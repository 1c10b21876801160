/* lookup.c — find a generated model by name in the build's registry. */
#include <string.h>

#include "generated.h"

const mech_generated *mechgen_find(const char *name)
{
    for (int i = 0; i < mechgen_count; i++)
        if (strcmp(mechgen_all[i]->name, name) == 0) return mechgen_all[i];
    return NULL;
}
