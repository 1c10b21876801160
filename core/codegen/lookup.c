/* lookup.c — find a generated model by name in the build's registry, and
 * an element's observation offset or input slot by its name. */
#include <string.h>

#include "sim/generated.h"
#include "mech/featherstone.h"

const mech_generated *mech_generated_find(const char *name)
{
    for (int i = 0; i < mechgen_count; i++)
        if (strcmp(mechgen_all[i]->name, name) == 0) return mechgen_all[i];
    return NULL;
}

/* The index of `name` among names[from .. from + n), or -1. */
static int index_of(const char *const *names, int from, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[from + i], name) == 0) return i;
    return -1;
}

int mechgen_find_signal(const mech_generated *g, const char *kind, const char *name)
{
    int i;
    if (strcmp(kind, "poi") == 0) {
        i = index_of(g->names, 0, g->npoi, name);
        return i < 0 ? -1 : 6 * i;
    }
    if (strcmp(kind, "tsda") == 0) {
        i = index_of(g->names, g->npoi, g->ntsda, name);
        return i < 0 ? -1 : 6 * g->npoi + 2 * i;
    }
    if (strcmp(kind, "rsda") == 0) {
        i = index_of(g->names, g->npoi + g->ntsda, g->nrsda, name);
        return i < 0 ? -1 : 6 * g->npoi + 2 * g->ntsda + 2 * i;
    }
    if (strcmp(kind, "act") == 0) {
        i = index_of(g->names, g->npoi, g->ntsda, name);
        if (i >= 0 && g->act_slot[i] >= 0) return g->act_slot[i];
        i = index_of(g->names, g->npoi + g->ntsda, g->nrsda, name);
        if (i >= 0 && g->act_slot[g->ntsda + i] >= 0) return g->act_slot[g->ntsda + i];
    }
    return -1;
}
