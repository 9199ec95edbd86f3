/* Files poolbench cannot read but can name: ZFS kstat dumps, zdb output,
 * Phoronix Test Suite profile definitions and console logs, fio job files,
 * `zpool iostat` alone. One table; each recogniser looks only at the first
 * few KiB and must be sure (a benchmark result never matches). And the one
 * line for a file no parser reads: what it is, a configuration sheet
 * (--configs), a table the sniffer did not take (--format table). */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <string.h>

#define SCAN ((size_t)8192)

/* ==== line helpers ==== */

/* Calls fn on each line of buf[0..len) (without '\n' / '\r') until it
 * returns non-zero; returns that value, or 0. */
static int each_line(const char *buf, size_t len,
                     int (*fn)(const char *s, size_t n, void *ctx), void *ctx)
{
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t m = n;
        if (m > 0 && p[m - 1] == '\r')
            m--;
        int r = fn(p, m, ctx);
        if (r)
            return r;
        p += n + 1;
    }
    return 0;
}

/* Words of s[0..n) equal the NULL-terminated list, blanks between. */
static int words_are(const char *s, size_t n, const char *const *w)
{
    const char *p = s, *end = s + n;
    for (size_t i = 0; w[i]; i++) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        size_t k = strlen(w[i]);
        if ((size_t)(end - p) < k || memcmp(p, w[i], k) != 0)
            return 0;
        p += k;
        if (p < end && *p != ' ' && *p != '\t')
            return 0;
    }
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p == end;
}

/* ==== ZFS kstat (arcstats) ==== */

struct kstat {
    int header, rows, arc;
};

/* "name type data", then rows "hits 4 5968846374" */
static int kstat_line(const char *s, size_t n, void *vctx)
{
    static const char *const hdr[] = {"name", "type", "data", NULL};
    struct kstat *k = vctx;
    if (words_are(s, n, hdr)) {
        k->header = 1;
        return 0;
    }
    if (!k->header || n == 0)
        return 0;
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
        i++;
    size_t name = i;
    while (i < n && s[i] == ' ')
        i++;
    if (name == 0 || i == name || i >= n || !isdigit((unsigned char)s[i]))
        return 0;
    k->rows++;
    static const char *const arc[] = {
        "hits",          "misses",   "c_max",    "c_min",
        "arc_meta_used", "mru_hits", "mfu_hits", NULL};
    for (size_t a = 0; arc[a]; a++)
        if (strlen(arc[a]) == name && !memcmp(s, arc[a], name))
            k->arc++;
    return 0;
}

static int is_arcstats(const char *buf, size_t len)
{
    struct kstat k = {0, 0, 0};
    each_line(buf, len, kstat_line, &k);
    if (k.header && k.rows >= 3 && k.arc >= 2)
        return 1;
    /* FreeBSD: sysctl kstat.zfs.misc.arcstats */
    return pb_contains(buf, len, "kstat.zfs.misc.arcstats.hits:") ||
           pb_contains(buf, len, "kstat.zfs.misc.arcstats.size:");
}

static int is_kstat(const char *buf, size_t len)
{
    struct kstat k = {0, 0, 0};
    each_line(buf, len, kstat_line, &k);
    return k.header && k.rows >= 3;
}

/* ==== zdb ==== */

/* zdb prints one of these first (-C, no option, -b, -DD, -S). */
static int zdb_first(const char *s, size_t n, void *ctx)
{
    static const char *const marks[] = {"MOS Configuration:",
                                        "Cached configuration:",
                                        "Traversing all blocks",
                                        "All DDTs are empty",
                                        "DDT-",
                                        "Simulated DDT histogram",
                                        "Dataset mos [META]",
                                        NULL};
    (void)ctx;
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    if (n == 0)
        return 0; /* blank: look at the next line */
    for (size_t i = 0; marks[i]; i++) {
        size_t k = strlen(marks[i]);
        if (n >= k && !memcmp(s, marks[i], k))
            return 1;
    }
    return -1;
}

static int is_zdb(const char *buf, size_t len)
{
    return each_line(buf, len, zdb_first, NULL) == 1;
}

/* ==== Phoronix Test Suite ==== */

/* The document's root element is <PhoronixTestSuite>: after a BOM, white
 * space, the XML declaration, processing instructions and comments. A file
 * that only names the element (a list of sources, a README) is no
 * profile. */
static int pts_root_first(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    for (;;) {
        p = pb_skip_ws(p, end);
        if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
            const char *q = p + 4;
            while (q + 3 <= end && memcmp(q, "-->", 3) != 0)
                q++;
            if (q + 3 > end)
                return 0;
            p = q + 3;
        } else if (end - p >= 2 && !memcmp(p, "<?", 2)) {
            const char *q = memchr(p, '>', (size_t)(end - p));
            if (!q)
                return 0;
            p = q + 1;
        } else {
            break;
        }
    }
    static const char root[] = "<PhoronixTestSuite";
    size_t n = sizeof(root) - 1;
    return (size_t)(end - p) > n && !memcmp(p, root, n) &&
           (p[n] == '>' || isspace((unsigned char)p[n]));
}

static int pts_root(const char *buf, size_t len)
{
    return pts_root_first(buf, len) && !pb_contains(buf, len, "<Result>") &&
           !pb_contains(buf, len, "<Generated>");
}

static int is_pts_test_def(const char *buf, size_t len)
{
    return pts_root(buf, len) && (pb_contains(buf, len, "<TestInformation>") ||
                                  pb_contains(buf, len, "<TestProfile>"));
}

static int is_pts_results_def(const char *buf, size_t len)
{
    return pts_root(buf, len) && pb_contains(buf, len, "<ResultsParser>");
}

static int is_pts_downloads(const char *buf, size_t len)
{
    return pts_root(buf, len) && pb_contains(buf, len, "<Downloads>");
}

static int is_pts_suite_def(const char *buf, size_t len)
{
    return pts_root(buf, len) && pb_contains(buf, len, "<SuiteInformation>");
}

static int is_pts_console(const char *buf, size_t len)
{
    if (!pb_contains(buf, len, "Phoronix Test Suite v") ||
        pb_contains(buf, len, "<PhoronixTestSuite"))
        return 0;
    return pb_contains(buf, len, "Estimated Time To Completion") ||
           pb_contains(buf, len, "Estimated Trial Run Count") ||
           pb_contains(buf, len, "Started Run 1 @") ||
           pb_contains(buf, len, "Would you like to save these test results");
}

/* ==== fio job file ==== */

struct jobfile {
    int sections, keys, other;
};

static int job_line(const char *s, size_t n, void *vctx)
{
    static const char *const keys[] = {
        "rw",        "readwrite", "bs",        "blocksize",  "ioengine",
        "iodepth",   "numjobs",   "size",      "runtime",    "filename",
        "directory", "direct",    "rwmixread", "time_based", "group_reporting",
        "stonewall", "fsync",     "name",      NULL};
    struct jobfile *j = vctx;
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    if (n == 0 || *s == ';' || *s == '#')
        return 0;
    if (*s == '[') {
        if (s[n - 1] == ']' && n > 2)
            j->sections++;
        else
            j->other++;
        return 0;
    }
    size_t k = 0;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
        k++;
    if (k == 0 || (k < n && s[k] != '=' && s[k] != ' ' && s[k] != '\t')) {
        j->other++;
        return 0;
    }
    for (size_t i = 0; keys[i]; i++)
        if (strlen(keys[i]) == k && !memcmp(s, keys[i], k)) {
            j->keys++;
            return 0;
        }
    if (k < n && s[k] != '=')
        j->other++; /* "read: IOPS=..." is no option line */
    return 0;
}

static int is_fio_job(const char *buf, size_t len)
{
    struct jobfile j = {0, 0, 0};
    each_line(buf, len, job_line, &j);
    return j.sections >= 1 && j.keys >= 2 && j.other == 0;
}

/* ==== zpool iostat ==== */

/* Every line of `zpool iostat [-v]`: its two header lines, dashes,
 * and rows of a name (a pool or vdev) and six values. */
static int iostat_line(const char *s, size_t n, void *vctx)
{
    static const char *const a[] = {"capacity", "operations", "bandwidth",
                                    NULL};
    static const char *const b[] = {"pool",  "alloc", "free",  "read",
                                    "write", "read",  "write", NULL};
    int *header = vctx;
    if (words_are(s, n, a) || words_are(s, n, b)) {
        *header = 1;
        return 0;
    }
    size_t words = 0, dash = 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '-')
            dash = 0;
        if (s[i] != ' ' && s[i] != '\t' &&
            (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t'))
            words++;
    }
    if (words == 0 || dash || words == 7)
        return 0;
    return 1; /* something else */
}

static int is_zpool_iostat(const char *buf, size_t len)
{
    int header = 0;
    return each_line(buf, len, iostat_line, &header) == 0 && header;
}

/* ==== the table ==== */

static const struct {
    const char *what;
    int (*match)(const char *buf, size_t len);
} recognisers[] = {
    {"a ZFS arcstats dump (kstat)", is_arcstats},
    {"a ZFS kstat dump", is_kstat},
    {"zdb output", is_zdb},
    {"a Phoronix Test Suite test profile definition (test-definition.xml)",
     is_pts_test_def},
    {"a Phoronix Test Suite results parser definition "
     "(results-definition.xml)",
     is_pts_results_def},
    {"a Phoronix Test Suite download list (downloads.xml)", is_pts_downloads},
    {"a Phoronix Test Suite suite definition (suite-definition.xml)",
     is_pts_suite_def},
    {"a Phoronix Test Suite console log (ingest its composite.xml)",
     is_pts_console},
    {"a fio job file (ingest what fio prints when it runs it)", is_fio_job},
    {"zpool iostat output", is_zpool_iostat},
};

const char *pb_ingest_recognize(const char *buf, size_t len)
{
    if (len > SCAN)
        len = SCAN;
    if (memchr(buf, '\0', len))
        return NULL;
    for (size_t i = 0; i < sizeof(recognisers) / sizeof(recognisers[0]); i++)
        if (recognisers[i].match(buf, len))
            return recognisers[i].what;
    return NULL;
}

/* ==== the messages ==== */

int pb_ingest_refuse(const char *path, const char *buf, size_t len,
                     struct pb_err *err)
{
    const char *what = pb_ingest_recognize(buf, len);
    if (what)
        return pb_err_set(err, PB_EFORMAT, path, 1, 0,
                          "this is %s, not benchmark output; poolbench "
                          "cannot read it",
                          what);
    long line;
    if (pb_sheet_shaped(buf, len > SCAN ? SCAN : len, &line))
        return pb_err_set(err, PB_EFORMAT, path, line, 0,
                          "this looks like a configuration sheet: use "
                          "--configs");
    return PB_OK;
}

int pb_ingest_unknown(const char *path, const char *buf, size_t len,
                      struct pb_err *err)
{
    if (pb_ingest_refuse(path, buf, len, err))
        return err->code;
    long line;
    if (pb_table_shaped(buf, len > SCAN ? SCAN : len, &line))
        return pb_err_set(err, PB_EFORMAT, path, line, 0,
                          "unrecognised input: not output of any supported "
                          "benchmark tool; if this is a summary table, read "
                          "it with --format table");
    return pb_err_set(err, PB_EFORMAT, path, 1, 0,
                      "unrecognised input: not output of any supported "
                      "benchmark tool");
}
