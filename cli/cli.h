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

/* Write s as a CSV field (quoted when needed; a text a spreadsheet would
 * run as a formula, starting with = + - @, gets a leading '). */
void cli_csv_field(FILE *fp, const char *s);

/* 0 when out may be written; else prints why and returns 2: out is the
 * database db or its -wal, -shm or -journal file (an output never
 * replaces an input). */
int cli_check_output(const char *cmd, const char *out, const char *db);

/* A JSON string of s (json_null for NULL); bytes that are not UTF-8 are
 * written as \xHH. Caller owns the reference. */
typedef struct json_t json_t;
json_t *cli_json_str(const char *s);

#endif
