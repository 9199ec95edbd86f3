/* Unit tests for the recognisers of files poolbench cannot read
 * (ingest/recognize.c): each names its real-shaped sample in
 * fixtures/unreadable/bad/, none claims a readable fixture or corpus file,
 * and pb_ingest_buffer() gives the one-line message. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const BAD = PB_FIXTURES_DIR "/unreadable/bad";

static const char *recognize_file(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t len;
    char *buf = th_slurp(path, &len);
    if (!buf)
        print_error("cannot read %s\n", path);
    assert_non_null(buf);
    const char *what = pb_ingest_recognize(buf, len);
    free(buf);
    return what;
}

static void test_samples(void **state)
{
    (void)state;
    static const struct {
        const char *file, *what;
    } cases[] = {
        {"arcstats_openzfs-linux.txt", "a ZFS arcstats dump (kstat)"},
        {"arcstats_freebsd-sysctl.txt", "a ZFS arcstats dump (kstat)"},
        {"kstat-dmu_tx_openzfs-linux.txt", "a ZFS kstat dump"},
        {"zdb-C_zfs-fuse.txt", "zdb output"},
        {"zdb-b_zfs-fuse.txt", "zdb output"},
        {"test-definition.xml", "a Phoronix Test Suite test profile "
                                "definition (test-definition.xml)"},
        {"results-definition.xml", "a Phoronix Test Suite results parser "
                                   "definition (results-definition.xml)"},
        {"downloads.xml",
         "a Phoronix Test Suite download list (downloads.xml)"},
        {"pts-console-log.txt", "a Phoronix Test Suite console log (ingest "
                                "its composite.xml)"},
        {"job-file.fio",
         "a fio job file (ingest what fio prints when it runs it)"},
        {"zpool-iostat_zfs-fuse.txt", "zpool iostat output"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *what = recognize_file(BAD, cases[i].file);
        if (!what || strcmp(what, cases[i].what) != 0)
            print_error("%s: %s\n", cases[i].file, what ? what : "(null)");
        assert_non_null(what);
        assert_string_equal(what, cases[i].what);
    }
}

/* Inline shapes: other zdb modes, a kstat without its first line. */
static void test_inline(void **state)
{
    (void)state;
    static const struct {
        const char *in, *what;
    } cases[] = {
        {"name                            type data\n"
         "hits                            4    12345678\n"
         "misses                          4    123456\n"
         "size                            4    1073741824\n",
         "a ZFS arcstats dump (kstat)"},
        {"DDT-sha256-zap-duplicate: 5 entries, size 289 on disk, 160 in "
         "core\n\ndedup = 1.50, compress = 1.00, copies = 1.00, dedup * "
         "compress / copies = 1.50\n",
         "zdb output"},
        {"\n\nCached configuration:\n        version: 5000\n", "zdb output"},
        {"[global]\r\nrw=randread\r\nbs=4k\r\n", "a fio job file (ingest "
                                                 "what fio prints when it "
                                                 "runs it)"},
        {"<?xml version=\"1.0\"?>\n<PhoronixTestSuite>\n"
         "  <SuiteInformation>\n    <Title>Disk</Title>\n"
         "  </SuiteInformation>\n</PhoronixTestSuite>\n",
         "a Phoronix Test Suite suite definition (suite-definition.xml)"},
        {NULL, NULL},
    };
    for (size_t i = 0; cases[i].in; i++) {
        const char *what =
            pb_ingest_recognize(cases[i].in, strlen(cases[i].in));
        assert_non_null(what);
        assert_string_equal(what, cases[i].what);
    }
    /* near misses stay unrecognised */
    static const char *const no[] = {
        "name type data\n", /* no rows */
        "[global]\nrw=randread\n  read: IOPS=1267, BW=5068KiB/s\n",
        "Phoronix Test Suite v10.8.4\n", /* no run lines */
        "capacity operations bandwidth\n  pool: tank\n state: ONLINE\n",
        "zdb is a tool; MOS Configuration: is what -C prints\n",
        /* a list that names PTS elements is no PTS file (issue 42) */
        "file\tnotes\nfio/results-definition.xml\t<PhoronixTestSuite> root "
        "with <ResultsParser>\n",
        "# <PhoronixTestSuite><TestInformation> is a test profile\n",
        "",
        NULL};
    for (size_t i = 0; no[i]; i++) {
        const char *what = pb_ingest_recognize(no[i], strlen(no[i]));
        if (what)
            print_error("case %zu: %s\n", i, what);
        assert_null(what);
    }
}

/* No readable fixture or corpus file is claimed. */
static void scan_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *nm = e->d_name;
        size_t l = strlen(nm);
        if (nm[0] == '.' || (l > 9 && !strcmp(nm + l - 9, ".expected")) ||
            (l > 3 && !strcmp(nm + l - 3, ".md")))
            continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, nm);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue; /* bad/, jobs/ */
        size_t len;
        char *buf = th_slurp(path, &len);
        assert_non_null(buf);
        const char *what = pb_ingest_recognize(buf, len);
        if (what)
            print_error("%s: recognised as %s\n", path, what);
        assert_null(what);
        free(buf);
        (*n)++;
    }
    closedir(d);
}

static void test_readable_not_claimed(void **state)
{
    (void)state;
    static const char *const fmts[] = {"fio-json", "fio-text",   "fio-terse",
                                       "iozone",   "bonnie-csv", "pts-xml",
                                       "zfs",      NULL};
    size_t n = 0;
    for (size_t i = 0; fmts[i]; i++) {
        char dir[1024];
        snprintf(dir, sizeof(dir), "%s/%s", PB_FIXTURES_DIR, fmts[i]);
        scan_dir(dir, &n);
        snprintf(dir, sizeof(dir), "%s/%s", PB_CORPUS_DIR, fmts[i]);
        scan_dir(dir, &n);
    }
    assert_true(n >= 40);
}

/* pb_ingest_buffer() of buf without options: its code, err filled,
 * nothing stored. */
static int refused(const char *buf, size_t len, struct pb_err *err)
{
    struct pb_resultset *set = NULL;
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    memset(err, 0, sizeof(*err));
    int rc = pb_ingest_buffer("x", buf, len, &o, &set, err);
    assert_null(set);
    return rc;
}

/* The message pb_ingest_buffer() gives, sniffed and after a sniffer's
 * wrong guess; --format keeps the parser's own error. */
static void test_message(void **state)
{
    (void)state;
    char path[1024];
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"arcstats_openzfs-linux.txt",
         "this is a ZFS arcstats dump (kstat), not benchmark output; "
         "poolbench cannot read it"},
        {"test-definition.xml",
         "this is a Phoronix Test Suite test profile definition "
         "(test-definition.xml), not benchmark output; poolbench cannot "
         "read it"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", BAD, cases[i].file);
        size_t len;
        char *buf = th_slurp(path, &len);
        assert_non_null(buf);
        struct pb_resultset *set = NULL;
        struct pb_err err;
        /* PB_EFORMAT: a file of no supported format (--skip-unknown) */
        assert_int_equal(refused(buf, len, &err), PB_EFORMAT);
        assert_int_equal(err.line, 1);
        assert_string_equal(err.msg, cases[i].msg);
        if (i == 1) {
            struct pb_ingest_opts o;
            memset(&o, 0, sizeof(o));
            memset(&err, 0, sizeof(err));
            o.format = "pts-xml";
            assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &set, &err),
                             PB_EINPUT);
            assert_null(strstr(err.msg, "this is"));
        }
        free(buf);
    }
}

/* Files no parser reads that are something else (issue 42): a sheet is
 * told to use --configs, a table the sniffer left gets the --format table
 * hint, each at its header line; near misses get the plain message. */
static void test_hints(void **state)
{
    (void)state;
    static const struct {
        const char *file; /* under fixtures/, or inline text */
        const char *text;
        long line;
        const char *msg;
    } cases[] = {
        {"sheets/hosts.csv", NULL, 3,
         "this looks like a configuration sheet: use --configs"},
        {"sheets/hosts_web-copy.tsv", NULL, 4,
         "this looks like a configuration sheet: use --configs"},
        {"table/bad/first-column-setup_not-sniffed.tsv", NULL, 1,
         "unrecognised input: not output of any supported benchmark tool; "
         "if this is a summary table, read it with --format table"},
        {"unreadable/bad/sources-list_pts-files.tsv", NULL, 1,
         "unrecognised input: not output of any supported benchmark tool"},
        /* a sheet's header without rows, a row of other width: no sheet */
        {NULL, "label,layout\n", 1,
         "unrecognised input: not output of any supported benchmark tool"},
        {NULL, "label,layout\nhost_1,mirror,extra\n", 1,
         "unrecognised input: not output of any supported benchmark tool"},
        /* prose with numbers is no table; two aligned rows are */
        {NULL, "We ran it 3 times\nand got 1200 IOPS\n", 1,
         "unrecognised input: not output of any supported benchmark tool"},
        {NULL, "intro\n\nsetup   iops   lat\nmirror  1200   1.5\n"
               "raidz2  900    2.1\n",
         3,
         "unrecognised input: not output of any supported benchmark tool; "
         "if this is a summary table, read it with --format table"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t len;
        char *buf;
        if (cases[i].file) {
            char path[1024];
            snprintf(path, sizeof(path), "%s/%s", PB_FIXTURES_DIR,
                     cases[i].file);
            buf = th_slurp(path, &len);
        } else {
            buf = strdup(cases[i].text);
            len = strlen(buf);
        }
        assert_non_null(buf);
        struct pb_err err;
        int rc = refused(buf, len, &err);
        if (rc != PB_EFORMAT || err.line != cases[i].line ||
            strcmp(err.msg, cases[i].msg) != 0)
            print_error("case %zu: rc %d, line %ld: %s\n", i, rc, err.line,
                        err.msg);
        assert_int_equal(rc, PB_EFORMAT);
        assert_int_equal(err.line, cases[i].line);
        assert_string_equal(err.msg, cases[i].msg);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_inline),
        cmocka_unit_test(test_readable_not_claimed),
        cmocka_unit_test(test_message),
        cmocka_unit_test(test_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
