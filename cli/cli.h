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
int cmd_best(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_relabel(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_db(int argc, char **argv);

/* poolbench --version (version.c): argv[0] is "--version". */
int cli_version(int argc, char **argv);
/* The version lines; probe: also ask fio and ZFS (runs commands). */
void cli_version_print(FILE *fp, int probe);

/* Print "poolbench: msg" to stderr and return exit status 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) PB_PRINTF(2, 3);

/* Print an error and return the exit status docs/model.md gives its code. */
int cli_fail(const struct pb_err *err);

/* Write s as a CSV field (quoted when needed; a text a spreadsheet would
 * run as a formula, starting with = + - @, gets a leading '). */
void cli_csv_field(FILE *fp, const char *s);

/* 0 when out may be written; else prints why and returns 2: out is the
 * database db or its -wal, -shm or -journal file (an output never
 * replaces an input; pb_keep_check, which the writers check again). */
int cli_check_output(const char *cmd, const char *out, const char *db);

/* A JSON string of s (json_null for NULL); bytes that are not UTF-8 are
 * written as \xHH. Caller owns the reference. */
typedef struct json_t json_t;
json_t *cli_json_str(const char *s);

/* A parameter value as JSON: a number when the text is a JSON number
 * ("131072", "-1.5", "2e3"), else a string (json_null for NULL). */
json_t *cli_json_value(const char *s);

/* export --wide: one row per source, host, config, test and job; config
 * dimensions, test parameters and metrics as columns (docs/model.md).
 * CSV, or JSON objects when json. PB_OK, PB_EUSAGE (bad pattern), PB_EDB. */
struct pb_db;
struct pb_db_filter;
int cli_export_wide(struct pb_db *db, const struct pb_db_filter *f, int json,
                    FILE *fp, struct pb_err *err);

/* The report of db as ro says (cmd_report.c, also for run's report): the
 * analysis step (pb_an_report_load) over db, then pb_render_report; *sum
 * (zeroed first) gets what was written. PB_OK or the error (err filled; *why,
 * when not NULL, gets a --x/--series error in full, one line, which the
 * caller frees; else NULL). */
struct pb_render_opts;
struct pb_render_summary;
int cli_report_write(struct pb_db *db, const struct pb_render_opts *ro,
                     struct pb_render_summary *sum, char **why,
                     struct pb_err *err);

/* Parse --ignore-param LIST (comma-separated keys, or "none"; NULL text =
 * not given) into *out: NULL for the default, else a NULL-terminated
 * list in one allocation the caller frees with free(). 0, or 2 (printed)
 * for a bad list. */
int cli_ignore_params(const char *cmd, const char *text,
                      const char *const **out);

/* ==== "did you mean" (suggest.c) ==== */

/* The dimensions --x and --series take: "config" and every config and
 * test parameter key of db, sorted, each once. *n gets how many; free
 * with cli_strv_free. */
struct pb_db;
char **cli_sweep_keys(struct pb_db *db, size_t *n);
void cli_strv_free(char **v, size_t n);

/* The candidate of cands nearest to word (edit distance, ignoring case)
 * when near enough to be a typo of it, else NULL. */
const char *cli_nearest(const char *word, const char *const *cands, size_t n);

/* The same, fed one candidate at a time; best is an owned copy, with
 * control characters escaped (pb_term_str) for the terminal. */
struct cli_nearest {
    const char *word;
    char *best; /* NULL = none near enough yet */
    size_t dist;
};
void cli_nearest_init(struct cli_nearest *n, const char *word);
void cli_nearest_add(struct cli_nearest *n, const char *cand);
void cli_nearest_release(struct cli_nearest *n);

/* After getopt_long returned '?' (main sets opterr = 0): print what was
 * wrong with the option (unknown, with the nearest option; ambiguous;
 * missing its value) and return 2. */
struct option;
int cli_bad_option(const char *cmd, const char *shortopts,
                   const struct option *opts, char **argv);

/* ==== shell completion (complete.c) ==== */

/* poolbench __complete WHAT ...: candidates one per line. run_command
 * runs a subcommand by name; names are the subcommands to offer. */
int cli_complete(int argc, char **argv,
                 int (*run_command)(const char *name, int argc, char **argv),
                 const char *const *names, size_t nnames);
/* Set while __complete lists a command's options: cli_bad_option then
 * prints opts (cli_list_options: "--name", "--name=" when it takes a
 * value) and returns 0 instead of complaining. */
extern int cli_listing_options;
int cli_list_options(const struct option *opts);

/* Every filter of f must match something: else print "no test matches
 * 'randraed'; did you mean 'randread'?" (the nearest test name or word,
 * config label, metric or host) and return 2. Filters that each match but
 * not together are refused too. 0 when all match; another exit status
 * (printed) when the database fails or a pattern is bad. */
struct pb_db;
struct pb_db_filter;
int cli_check_filter(struct pb_db *db, const char *cmd,
                     const struct pb_db_filter *f);

/* ==== compare's outputs (compare_out.c) ==== */

struct pb_compare;
/* The aligned table of pairs on stdout (colour on a TTY, not NO_COLOR). */
void cli_compare_table(const struct pb_compare *c);
/* The kinds of metric (the headline first), counts, pairs not judged,
 * metrics left out, the first unpaired results. */
void cli_compare_summary(const struct pb_compare *c, FILE *fp);
/* "poolbench: compare: warning: N pairs not judged ..." when there are. */
void cli_compare_warn_unjudged(const struct pb_compare *c, FILE *fp);
/* One "gate failed" line per offender (the first 20, then a count). */
void cli_compare_offenders(const struct pb_compare *c, FILE *fp);
/* One JSON object (pairs, unpaired, summary, gate) on stdout. */
void cli_compare_json(const struct pb_compare *c, const char *fail_metric);
/* A CSV header and one row per pair on stdout. */
void cli_compare_csv(const struct pb_compare *c);

/* ingest OTHER.db (ingest_db.c): open the poolbench database path for
 * merging, set *cur to it and hand each of its sources to cb as a parsed
 * file (shown as "PATH[SOURCE PATH]"), then close it and clear *cur.
 * PB_OK; PB_EFORMAT (another program's SQLite file) or PB_EDB with err
 * filled (nothing of it was handed on; unreadable later: the sources
 * before it were). */
struct pb_db_merge;
struct pb_resultset;
int cli_ingest_db(const char *path, int quiet,
                  int (*cb)(void *ctx, const char *path,
                            struct pb_resultset *set,
                            const struct pb_err *err),
                  void *ctx, struct pb_db_merge **cur, struct pb_err *err);

/* 1 when path is the output folder of `poolbench run`: a directory with
 * plan.ini, raw/ and commands.log or manifest.tsv at its top. */
int cli_is_run_dir(const char *path);
/* ingest RUN_DIR: merge the poolbench databases at its top (not db_path,
 * the database in use) with cli_ingest_db; its raw files are not read.
 * PB_OK when one was merged; PB_EINPUT (printed) when it holds none;
 * PB_EDB (printed, *refused set) when one could not be merged. */
int cli_ingest_run_dir(const char *path, const char *db_path, int quiet,
                       int (*cb)(void *ctx, const char *path,
                                 struct pb_resultset *set,
                                 const struct pb_err *err),
                       void *ctx, struct pb_db_merge **cur, int *refused);

#endif
