/* Private to ingest/: fio log files (write_bw_log, write_iops_log,
 * write_lat_log, write_hist_log) read line by line, so that a file of any
 * size is read in one pass without holding it (docs/formats.md,
 * "fio logs: time series"). fio_log.c reads the lines, fio_log_hist.c the
 * histogram lines, fio_log_link.c names the series and links them to their
 * run. */
#ifndef PB_FIO_LOG_INT_H
#define PB_FIO_LOG_INT_H

#include "ingest/ingest_int.h"

/* Which log a file is, from fio's file name NAME_KIND[.N].log[.gz]. */
enum pb_log_kind {
    PB_LOG_UNKNOWN,
    PB_LOG_BW,
    PB_LOG_IOPS,
    PB_LOG_LAT,
    PB_LOG_CLAT,
    PB_LOG_SLAT,
    PB_LOG_HIST
};

struct pb_log_name {
    enum pb_log_kind kind;
    char prefix[256]; /* NAME: the job name or the write_*_log value */
    int jobno;        /* N of NAME_bw.N.log; 0 when absent */
};

/* Parse the base name of path; kind PB_LOG_UNKNOWN when it is not one of
 * fio's log names. */
void pb_log_name_parse(const char *path, struct pb_log_name *out);
/* "bw", "iops", "lat", "clat", "slat", "clat_hist". */
const char *pb_log_kind_str(enum pb_log_kind k);

/* A reader (struct pb_log below): created for a path (its name says the
 * kind), fed one line at a time, finished into a set (fio_log.c). */
struct pb_log;
/* Link to the run (fio JSON in the same folder), add configs, tests,
 * summary results and series to set. PB_OK or PB_EINPUT. */
int pb_log_finish(struct pb_log *lg, struct pb_resultset *set,
                  struct pb_err *err) PB_WUR;

/* ==== what the line reader keeps per data direction ==== */

#define PB_LOG_MAXB 2000 /* buckets per per-I/O series at most */
#define PB_LOG_NBINS 720 /* log-linear bins of a bucket (16 per octave) */

struct pb_log_dir {
    int used;
    int64_t last_t;
    /* averaged logs and histogram logs: one point per line */
    struct pb_point *pts;
    size_t npts, cappts;
    /* per-I/O logs: fixed buckets [i*width, (i+1)*width) */
    int64_t width;
    size_t nb; /* buckets in use: 0 .. nb-1 */
    int64_t *cnt;
    double *sum, *bytes, *bmin, *bmax;
    uint32_t *bins; /* PB_LOG_MAXB * PB_LOG_NBINS, latency logs only */
    /* every logged value (Welford) */
    int64_t n;
    double mean, m2, vmin, vmax;
};

struct pb_log {
    char *path;
    struct pb_log_name name;
    int hist;
    long line;
    int mode;   /* 0 not yet, 1 averaged (bs column 0), 2 per I/O */
    int hist_cols, hist_head, hist_coarse, hist_group; /* hist logs */
    double *hist_val; /* bin midpoints (fiologparser_hist.py's bin_vals) */
    uint64_t *hist_row;
    struct pb_log_dir dir[3];
};

/* The buckets of d as points (value: a rate when `rate`, of bytes when
 * `bytes`, else the mean). */
void pb_log_dir_points(struct pb_log_dir *d, int rate, int bytes);
/* 1 when the first line of buf is a log line of min..max fields. */
int pb_log_sniff_lines(const char *buf, size_t len, int min, int max);
/* The parsers' parse: x->lines when set, else the buffer; hist: the
 * histogram log parser. */
int pb_log_parse(struct pb_parse *x, int hist) PB_WUR;

/* Histogram lines (fio_log_hist.c). */
int pb_log_hist_line(struct pb_log *lg, const char *s, size_t n, long line,
                     struct pb_err *err) PB_WUR;
/* fiologparser_hist.py's weighted percentile (linear interpolation over
 * the bins' midpoints, weights as counts) of p in 0..100. */
double pb_log_hist_pct(const double *vals, const uint64_t *w, size_t nbins,
                       double p);

/* Parse "12, 345, 0, 4096, 0": up to max unsigned decimal fields separated
 * by commas and blanks; returns the count, -1 for anything else (a sign,
 * a letter, a number above 2^63). */
int pb_log_fields(const char *s, size_t n, uint64_t *out, int max);

#endif
