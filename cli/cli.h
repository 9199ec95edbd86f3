/* Private to cli/: the subcommand entry points and small helpers they
 * share (option parsing of --db, filters, output). */
#ifndef PB_CLI_H
#define PB_CLI_H

#include "common/pb.h"

int cmd_ingest(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);

/* Print "poolbench: msg" to stderr and return exit status 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) PB_PRINTF(2, 3);

/* Print an error and return the exit status DESIGN.md gives its code. */
int cli_fail(const struct pb_err *err);

/* Write s as a CSV field (quoted when needed). */
void cli_csv_field(FILE *fp, const char *s);

#endif
