/* Private to cli/: the user's config file (~/.config/poolbench/config):
 * defaults for the database, the report's title and palette and the
 * label rules. Precedence: command line > environment > config file >
 * built-in default (docs/model.md, "Config file"). */
#ifndef PB_CLI_CONFIG_H
#define PB_CLI_CONFIG_H

#include "common/pb.h"

#include <stdint.h>

#define CLI_CONFIG_MAX_COLORS 32

struct cli_config {
    char *path;       /* the file read; NULL when none */
    char *db;         /* db: database path (~ and relative paths resolved) */
    char *title;      /* report.title */
    uint32_t palette[CLI_CONFIG_MAX_COLORS]; /* report.palette, 0xRRGGBB */
    size_t npalette;  /* 0 = the built-in palette */
    char *label_from; /* ingest.label-from: file, dir or title */
    char *rules;      /* ingest.rules: label rules file (ingest, relabel) */
};

/* Which file: $POOLBENCH_CONFIG (none when it is "none" or empty), else
 * $XDG_CONFIG_HOME/poolbench/config, else $HOME/.config/poolbench/config.
 * A heap string the caller frees, or NULL for none; *explicit is set when
 * it was named by $POOLBENCH_CONFIG (then it must exist). */
char *cli_config_path(int *explicit_);

/* Read the config file at path into c (zeroed first). PB_OK; PB_EUSAGE
 * with err at path:line for a bad line, or at path for a file root may
 * not trust (as root: not owned by root, or writable by group or others);
 * PB_EIO when it cannot be read. Release with cli_config_release. */
int cli_config_load(const char *path, struct cli_config *c,
                    struct pb_err *err) PB_WUR;
/* The same for a buffer of len bytes (no NUL needed) read from path
 * (used in messages and for relative paths); no ownership check. c must
 * be zeroed (or hold what an earlier call read, path set). */
int cli_config_parse(const char *path, const char *buf, size_t len,
                     struct cli_config *c, struct pb_err *err) PB_WUR;
void cli_config_release(struct cli_config *c);

/* The process's config, loaded once by main() (cli_config_init); all
 * fields empty when there is none. */
const struct cli_config *cli_config(void);

/* Load the config for this process: find it, read it, and put its db into
 * $POOLBENCH_DB when that is unset (so the environment wins and every
 * command sees it). 0, or exit status 2 after printing the error (quiet:
 * errors are dropped and the config ignored, for shell completion). */
int cli_config_init(int quiet);

#endif
