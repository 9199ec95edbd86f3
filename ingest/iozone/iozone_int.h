/* Private to the iozone text parser: iozone_text.c reads the lines
 * (runs, header lines, throughput lines), records what the tables hold and
 * emits the set; iozone_table.c reads the auto-mode (-a) table and the -R
 * report tables. Nothing else includes it.
 *
 * Use, per parse: iozone_text.c walks the lines; at an auto-mode header it
 * calls pb_iozone_table(), at a report title pb_iozone_report(), which
 * add a struct rec per value (pb_iozone_add_rec) and leave *i after the
 * table.
 */
#ifndef PB_IOZONE_INT_H
#define PB_IOZONE_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include "ingest/ingest_int.h"

#include <pcre2.h>

/* ==== the state of one parse ==== */

enum rx_id {
    RX_BANNER,
    RX_VERSION,
    RX_BEGAN,
    RX_COMMAND,
    RX_FSIZE,
    RX_RSIZE,
    RX_OUTPUT,
    RX_DIRECT,
    RX_SYNC,
    RX_FSYNC,
    RX_MACHINE,
    RX_EACH,
    RX_TPUT,
    RX_AUTO_HDR,
    RX_REPORT_TITLE,
    RX_REPORT_HDR,
    RX_REPORT_ROW,
    RX_N
};

enum unit { U_KB, U_OPS, U_USEC, U_RAW };
enum kind { K_AUTO, K_REPORT, K_TPUT };

struct line {
    const char *s;
    size_t n; /* without the line end */
};

struct run {
    const char *version, *command, *began, *host, *uname;
    int direct, sync, fsync;
    int unit;
    const char *unit_raw; /* U_RAW: as printed */
    double fsize, rsize;  /* B from "File size set to"/"Record Size" */
    double tfsize, trsize; /* B from "Each process writes ..." */
    size_t nauto, nreport, ntput;
    long first_line;
};

struct rec {
    size_t run;
    int kind;
    const char *op; /* static string */
    int parent;
    long clients;
    double fsize, rsize; /* B, NAN unknown */
    double value;        /* as printed */
    int unit;            /* K_TPUT only; tables use the run's */
    const char *unit_raw;
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    pcre2_match_data *md;
    struct line *lines;
    size_t nlines;
    struct run *runs;
    size_t nruns, capruns;
    struct rec *recs;
    size_t nrecs, caprecs;
    long empty_hdr_line;   /* auto header or report title without rows */
    const char *empty_what; /* what that was */
    long banner_line;
};

/* ==== iozone_text.c ==== */

/* Does pattern id (enum rx_id) match s[0..n)? Groups in md. */
int pb_iozone_match(pcre2_match_data *md, int id, const char *s, size_t n);
/* A new value of kind (K_*) for op (a static string) in the current run:
 * sizes NAN, the rest 0. */
struct rec *pb_iozone_add_rec(struct ctx *c, int kind, const char *op);
/* The n bytes at s (digits, maybe one '.') as a number: PB_OK, or
 * PB_EINPUT naming line:col. */
int pb_iozone_num(struct ctx *c, const char *s, size_t n, long line,
                  long col, double *out);

/* ==== iozone_table.c ==== */

/* The auto-mode header is lines[*i]: its rows, each value a rec; *i is
 * left on the first line after them. PB_OK or PB_EINPUT. */
int pb_iozone_table(struct ctx *c, size_t *i);
/* The report title "<title> report" (title[0..tn)) is lines[*i]: its
 * record sizes line and rows; *i is left after them. PB_OK or PB_EINPUT. */
int pb_iozone_report(struct ctx *c, size_t *i, const char *title, size_t tn);

#endif
