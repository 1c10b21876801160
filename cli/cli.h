/* cli.h — what the `mech` commands share (cli/mech.c) and the `sim`
 * command (cli/sim.c). */
#ifndef MECH_CLI_H
#define MECH_CLI_H

#include "mech/mech.h"

/* "mech CMD: <message>" and the --help hint on stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, const char *arg);
int cli_is_help(const char *a);
/* "--name value" or "--name=value": the value (advancing *i), or NULL when
 * argv[*i] is not this option; *missing is set when the value is absent. */
const char *cli_option(int argc, char **argv, int *i, const char *name, int *missing);
/* A finite number and nothing else. */
int cli_parse_double(const char *s, double *out);
/* A model, or NULL with its error on stderr. */
mech_model *cli_load(const char *path);
/* Wall-clock seconds. */
double cli_now(void);

/* `mech sim` (cli/sim.c) and its help text. */
int cli_sim(int argc, char **argv);
extern const char cli_sim_help[];

#endif
