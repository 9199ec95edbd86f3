/* Unit tests for the zfs-props parser (ingest/zfs/zfs_props.c) on errors and
 * hostile inputs (empty, truncated, binary, huge numbers, HTML, CRLF,
 * NUL), the bad/ fixtures, savings, combined logs and headerless output.
 * Sniffing, corpus and fixtures: test_zfs_props.c. */
#define _POSIX_C_SOURCE 200809L /* popen, fmemopen */
#include "tests/unit/zfs_props_help.h"

/* ==== hostile inputs ==== */

static void expect_err(const char *in, size_t len, long line, long col,
                       const char *msg)
{
    struct pb_resultset *s;
    struct pb_err err;
    int rc = parse_buf(in, len, &s, &err);
    assert_int_equal(rc, PB_EINPUT);
    assert_null(s);
    if (strcmp(err.msg, msg) != 0 || err.line != line || err.col != col)
        print_error("got %ld:%ld: %s\n", err.line, err.col, err.msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.path, "mem");
}

#define EXPECT_ERR(s, line, col, msg) expect_err(s, sizeof(s) - 1, line, col, msg)

static void test_errors(void **state)
{
    (void)state;
    EXPECT_ERR("", 0, 0, "empty file");
    EXPECT_ERR("  \n\t\n", 0, 0, "file holds only white space");
    EXPECT_ERR("hello\nworld\n", 1, 0,
               "no zfs or zpool output found (first line: \"hello\")");
    EXPECT_ERR("NAME USED AVAIL\ntank 1G\n", 2, 0,
               "row \"tank\" has 2 columns, header has 3");
    EXPECT_ERR("NAME USED AVAIL\ntank 1G 12Q\n", 2, 9,
               "bad size \"12Q\" for 'available' of \"tank\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt compressratio abc -\n", 2, 17,
               "bad ratio \"abc\" for 'compressratio' of \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\np capacity 5x% -\np health "
               "ONLINE -\n",
               2, 12, "bad percentage \"5x%\" for 'capacity' of \"p\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt used 1G\n", 2, 8,
               "bad source \"1G\" for property 'used'");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt\n", 2, 0,
               "truncated row for \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt USED 1G -\n", 2, 3,
               "bad property name \"USED\"");
    EXPECT_ERR("NAME VALUE PROPERTY\nt 1G used\n", 1, 0,
               "unsupported get columns: NAME and PROPERTY must come "
               "before VALUE");
    EXPECT_ERR("  pool: tank\n state: ONLINE\n", 1, 0,
               "no vdev table for pool \"tank\"");
    EXPECT_ERR("x\n  pool: \n", 2, 0, "pool line without a pool name");
    EXPECT_ERR("  pool: t\n state: ONLINE\nconfig:\n\n"
               "\tNAME STATE READ WRITE CKSUM\n\tt ONLINE 0 x 0\n",
               6, 13, "bad error counter \"x\" for \"t\"");
    EXPECT_ERR("t\trecordsize\t8K\tlocal\nt\tcompression\toff\tlocal\n", 1, 0,
               "no sizes, ratios or error counters found in the zfs output");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt used 1G -\nt\0 x\n", 3, 2,
               "unexpected NUL byte");
    /* huge numbers: finite ones are kept, overflow is refused */
    EXPECT_ERR("NAME USED AVAIL\nt 1e400 1G\n", 2, 3,
               "bad size \"1e400\" for 'used' of \"t\"");
    EXPECT_ERR("NAME USED AVAIL\nt 0x10 1G\n", 2, 3,
               "bad size \"0x10\" for 'used' of \"t\"");
    EXPECT_ERR("NAME PROPERTY VALUE SOURCE\nt compressratio 1e999x -\n", 2, 17,
               "bad ratio \"1e999x\" for 'compressratio' of \"t\"");
    /* a truncated last vdev row */
    EXPECT_ERR("  pool: t\n state: ONLINE\nconfig:\n\n"
               "\tNAME STATE READ WRITE CKSUM\n\tt ONLINE 0 0 0\n\t  sda ONL",
               7, 0, "truncated vdev row \"sda\"");

    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str("NAME USED AVAIL\nt 99999999999999999999999E "
                               "1G\n",
                               &s, &err),
                     PB_OK);
    assert_near(val(s, "t", "used"), 99999999999999999999999.0 * 1024 * 1024 *
                                         1024 * 1024 * 1024 * 1024,
                1e30);
    pb_resultset_free(s);
}

/* The bad fixtures give the messages in their .err files. */
static void test_bad_fixtures(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "zfs-list_bad-size.txt", "zfs-get_truncated-row.txt",
        "zpool-status_no-vdev-table.txt", "zfs-get-H_no-metrics.txt"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char path[1024], errpath[1100];
        snprintf(path, sizeof(path), "%s/bad/%s", FIX, bad[i]);
        snprintf(errpath, sizeof(errpath), "%s.err", path);
        skip_unless_exists(path);
        size_t len, elen;
        char *buf = th_slurp(path, &len), *want = th_slurp(errpath, &elen);
        assert_non_null(buf);
        assert_non_null(want);
        struct pb_resultset *s = pb_resultset_new();
        struct pb_err err = {0};
        char rel[600];
        snprintf(rel, sizeof(rel), "zfs/bad/%s", bad[i]);
        assert_int_equal(pb_parser_run(zfs(), rel, buf, len, s, &err), PB_EINPUT);
        char got[1024];
        FILE *m = fmemopen(got, sizeof(got), "w");
        pb_err_print(&err, m);
        fclose(m);
        assert_string_equal(got, want);
        pb_resultset_free(s);
        free(buf);
        free(want);
    }
}

static void parse_any(const char *buf, size_t len)
{
    struct pb_resultset *s;
    struct pb_err err;
    int rc = parse_buf(buf, len, &s, &err);
    assert_true(rc == PB_OK || rc == PB_EINPUT);
    if (rc == PB_OK) {
        assert_true(s->nresults > 0);
        for (size_t i = 0; i < s->nresults; i++)
            assert_true(isfinite(s->results[i].value));
        pb_resultset_free(s);
    } else {
        assert_true(err.msg[0] != '\0');
        assert_true(err.line >= 0);
    }
}

static void test_truncated(void **state)
{
    (void)state;
    skip_unless_exists(CORPUS);
    FILE *ls = popen("ls -d " PB_CORPUS_DIR "/zfs/* " PB_FIXTURES_DIR
                     "/zfs/*.txt " PB_FIXTURES_DIR "/zfs/bad/*.txt",
                     "r");
    assert_non_null(ls);
    char name[1024];
    while (fgets(name, sizeof(name), ls)) {
        name[strcspn(name, "\n")] = '\0';
        size_t len;
        char *buf = th_slurp(name, &len);
        if (!buf)
            continue;
        for (int pct = 0; pct <= 100; pct += 10) {
            size_t n = len * (size_t)pct / 100;
            char *cut = malloc(n + 1);
            memcpy(cut, buf, n);
            parse_any(cut, n);
            free(cut);
        }
        /* every byte position of small files */
        if (len < 1200)
            for (size_t n = 0; n < len; n++)
                parse_any(buf, n);
        free(buf);
    }
    pclose(ls);
}

static void test_garbage(void **state)
{
    (void)state;
    unsigned x = 12345;
    for (int round = 0; round < 200; round++) {
        char buf[2048];
        size_t n = 1 + (size_t)(round * 13) % sizeof(buf);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (char)(x >> 16);
            if (round % 2 && buf[i] == '\0')
                buf[i] = '\t'; /* tabs and text without NULs */
        }
        parse_any(buf, n);
    }
    /* structured garbage: real markers followed by noise */
    static const char *const heads[] = {
        "NAME PROPERTY VALUE SOURCE\n", "NAME USED AVAIL REFER\n",
        "NAME SIZE ALLOC FREE\n", "  pool: p\n state: X\nconfig:\n\n"
                                  "\tNAME STATE READ WRITE CKSUM\n",
        "p\tused\t1\t-\n"};
    for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
        for (int round = 0; round < 100; round++) {
            char buf[600];
            size_t hl = strlen(heads[h]);
            memcpy(buf, heads[h], hl);
            size_t n = hl + (size_t)round * 5;
            for (size_t i = hl; i < n; i++) {
                x = x * 1103515245u + 12345u;
                static const char alpha[] = " \t\n-%x.0123456789KMGTabc#@/";
                buf[i] = alpha[(x >> 16) % (sizeof(alpha) - 1)];
            }
            parse_any(buf, n);
        }
    }
}

static void test_html_and_crlf(void **state)
{
    (void)state;
    static const char html[] =
        "NAME                  PROPERTY       VALUE     SOURCE\n"
        "tank/<script>x</script>  compressratio  1.50x  -\n"
        "tank/<script>x</script>  comment:note   <b>hi</b> there  local\n";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str(html, &s, &err), PB_OK);
    assert_near(val(s, "tank/<script>x</script>", "compressratio"), 1.5, 0);
    ASSERT_FACT(s, "tank/<script>x</script>:comment:note", "<b>hi</b> there");
    pb_resultset_free(s);

    /* CRLF copies of real files give the same values */
    static const char *const files[] = {
        "zfs-get-all_freenas-pool-root_cunnie.txt",
        "zpool-status_unavail-guid-cksum_danjl1100.txt",
        "zfs-list_with-hand-comments_bencord0.txt",
        "zpool-list_3-pools_george-qiaozhi.txt"};
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", CORPUS, files[f]);
        skip_unless_exists(path);
        size_t len;
        char *buf = th_slurp(path, &len);
        char *crlf = malloc(len * 2 + 1);
        size_t n = 0;
        for (size_t i = 0; i < len; i++) {
            if (buf[i] == '\n')
                crlf[n++] = '\r';
            crlf[n++] = buf[i];
        }
        struct pb_resultset *a, *b;
        assert_int_equal(parse_buf(buf, len, &a, &err), PB_OK);
        assert_int_equal(parse_buf(crlf, n, &b, &err), PB_OK);
        assert_int_equal(a->nresults, b->nresults);
        assert_int_equal(a->nconfigs, b->nconfigs);
        assert_int_equal(a->nfacts, b->nfacts);
        for (size_t i = 0; i < a->nresults; i++) {
            assert_string_equal(a->results[i].metric, b->results[i].metric);
            assert_near(a->results[i].value, b->results[i].value, 0);
        }
        for (size_t i = 0; i < a->nfacts; i++)
            assert_string_equal(a->facts[i].value, b->facts[i].value);
        for (size_t i = 0; i < a->nconfigs; i++)
            assert_string_equal(a->configs[i].label, b->configs[i].label);
        pb_resultset_free(a);
        pb_resultset_free(b);
        free(buf);
        free(crlf);
    }
}

/* Junk around the outputs: prompts, notes, a second output kind. */
static void test_junk_between(void **state)
{
    (void)state;
    static const char in[] =
        "root@nas:~# zfs list -o name,used,avail,refer,ratio\n"
        "NAME       USED  AVAIL  REFER  RATIO\n"
        "tank/a    1.00G   100G  1.00G  2.00x\n"
        "root@nas:~# zfs get -Hp logicalused tank/a\n"
        "tank/a\tlogicalused\t2147483648\t-\n"
        "root@nas:~# echo done\n"
        "done\n";
    struct pb_resultset *s;
    struct pb_err err;
    assert_int_equal(parse_str(in, &s, &err), PB_OK);
    assert_near(val(s, "tank/a", "used"), G, 0);
    assert_near(val(s, "tank/a", "compressratio"), 2, 0);
    assert_near(val(s, "tank/a", "logicalused"), 2 * G, 0);
    assert_near(val(s, "tank/a", "actual_savings"), 2, 0);
    assert_int_equal(s->nconfigs, 1);
    pb_resultset_free(s);

    /* the same value twice: the last one wins, no duplicate rows */
    static const char twice[] =
        "NAME PROPERTY VALUE SOURCE\nt used 1K -\n\nt\tused\t2048\t-\n";
    assert_int_equal(parse_str(twice, &s, &err), PB_OK);
    assert_int_equal(s->nresults, 1);
    assert_near(val(s, "t", "used"), 2048, 0);
    pb_resultset_free(s);

    /* zfs list -H with the default columns */
    static const char hlist[] = "tank\t1.5G\t10G\t96K\t/tank\n"
                                "tank/x\t1G\t10G\t1G\tnone\n";
    assert_true(pb_ingest_find_parser(hlist, sizeof(hlist) - 1) != NULL);
    assert_int_equal(parse_str(hlist, &s, &err), PB_OK);
    assert_near(val(s, "tank", "used"), 1.5 * G, 0);
    assert_near(val(s, "tank/x", "referenced"), G, 0);
    ASSERT_FACT(s, "tank/x:mountpoint", "none");
    pb_resultset_free(s);
}

/* Issue 18 item 5: a zvol whose 5.67T refreservation counts in `used`
 * (logicalused/used = 0.080) still gets the savings of the data it holds,
 * 1.55 like its compressratio, whatever the output gives. */
static void test_savings_refreservation(void **state)
{
    (void)state;
    const char *l = "tank/vm-disk";
    struct pb_resultset *s =
        load(FIX, "openzfs-2.2_zfs-get-Hp-all_zvol-refreservation.txt");
    assert_near(val(s, l, "used"), 6234168754176.0, 0);
    assert_near(val(s, l, "logicalused"), 499289948160.0, 0);
    assert_near(val(s, l, "actual_savings"), 499289948160.0 / 322122547200.0,
                1e-15);
    assert_near(val(s, l, "actual_savings"), 1.55, 1e-12);
    ASSERT_FACT(s, "tank/vm-disk:actual_savings_basis",
                "logicalreferenced/referenced");
    ASSERT_FACT(s, "tank/vm-disk:usedbyrefreservation", "5912046206976");
    ASSERT_PARAM(s, l, "volblocksize", "16384");
    pb_resultset_free(s);

    /* zfs list -o without LREFER: used minus the reservation */
    s = load(FIX, "openzfs-2.2_zfs-list-p-o_zvol-refreserv.txt");
    assert_near(val(s, l, "actual_savings"),
                499289948160.0 / (6234168754176.0 - 5912046206976.0), 1e-15);
    assert_near(val(s, l, "actual_savings"), 1.55, 1e-12);
    ASSERT_FACT(s, "tank/vm-disk:actual_savings_basis",
                "logicalused/(used-usedbyrefreservation)");
    /* no reservation: logicalused/used */
    assert_near(val(s, "tank/db", "actual_savings"), 2.1, 1e-12);
    ASSERT_FACT(s, "tank/db:actual_savings_basis", "logicalused/used");
    pb_resultset_free(s);

    /* a dataset whose own data is under 1% of used (a parent of its
     * children) keeps logicalused/used; an unparsable size is an error */
    static const char parent[] = "p\tused\t1000000\t-\n"
                                 "p\tlogicalused\t1500000\t-\n"
                                 "p\treferenced\t9000\t-\n"
                                 "p\tlogicalreferenced\t4500\t-\n";
    struct pb_err err;
    assert_int_equal(parse_str(parent, &s, &err), PB_OK);
    assert_near(val(s, "p", "actual_savings"), 1.5, 1e-15);
    pb_resultset_free(s);
    static const char bad[] = "p\tused\t1000\t-\n"
                              "p\tusedbyrefreservation\t12Q\t-\n";
    assert_int_equal(parse_str(bad, &s, &err), PB_EINPUT);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "bad size \"12Q\" for "
                                 "'usedbyrefreservation' of \"p\"");
}

/* Issue 18 item 7: a log of zpool iostat -v, zpool status, zpool list,
 * /proc/loadavg, df -h and zfs list (zfs-fuse, one command after the
 * other, no prompts): the known sections land, the rest is named. */
static void test_combined_log(void **state)
{
    (void)state;
    const char *p = "pbmsc_14284";
    struct pb_resultset *s =
        load(FIX, "zfs-fuse_combined-log_iostat-status-list-df.txt");
    ASSERT_FACT(s, "skipped_lines",
                "1-8 (zpool iostat), 24 (unknown), 25-27 (df)");
    /* zpool status */
    ASSERT_PARAM(s, p, "layout", "mirror");
    ASSERT_PARAM(s, p, "vdevs", "1");
    ASSERT_PARAM(s, "pbmsc_14284", "disks_per_vdev", "2");
    assert_near(val(s, p, "cksum_errors"), 0, 0);
    /* zpool list, cut short by the loadavg line */
    assert_near(val(s, p, "size"), 123 * M, 0);
    assert_near(val(s, p, "allocated"), 716 * K, 0);
    assert_near(val(s, p, "free"), 122 * M, 0);
    /* zfs list after df */
    assert_near(val(s, "pbmsc_14284/gz", "used"), 272 * K, 0);
    assert_near(val(s, "pbmsc_14284/gz", "available"), 90.3 * M, 1e-3);
    ASSERT_PARAM(s, "pbmsc_14284/gz", "layout", "mirror");
    assert_int_equal(s->nconfigs, 2);
    assert_int_equal(s->nresults, 14);
    pb_resultset_free(s);

    /* prompts name the output after them; comments are no skipped data */
    static const char prompts[] =
        "root@nas:~# zpool list tank\n"
        "NAME   SIZE  ALLOC   FREE    CAP  DEDUP  HEALTH  ALTROOT\n"
        "tank  1.00T   100G   924G     9%  1.00x  ONLINE  -\n"
        "root@nas:~# sudo /sbin/zpool iostat tank 1 1\n"
        "tank   100G   924G  1  2  3K  4K\n"
        "\n"
        "tank   100G   924G  1  2  3K  4K\n"
        "root@nas:~# free -m\n"
        "              total        used        free\n"
        "Mem:          64000       32000       32000\n"
        "# a note\n"
        "12:00:01 up 3 days,  1 user,  load average: 0.50, 0.40, 0.30\n";
    struct pb_err err;
    assert_int_equal(parse_str(prompts, &s, &err), PB_OK);
    ASSERT_FACT(s, "skipped_lines",
                "5-7 (zpool iostat), 9-10 (free), 12 (uptime)");
    assert_near(val(s, "tank", "size"), T, 0);
    pb_resultset_free(s);

    /* a prompt or comment naming no known command: "unknown" */
    static const char odd[] = "$ <b>\x1b[2J\nzzz 1 2\n"
                              "# a note\nnote text\n"
                              "NAME  SIZE  ALLOC   FREE    CAP  DEDUP  HEALTH"
                              "  ALTROOT\ntank  1.00T  100G  924G  9%  1.00x"
                              "  ONLINE  -\n";
    assert_int_equal(parse_str(odd, &s, &err), PB_OK);
    ASSERT_FACT(s, "skipped_lines", "2 (unknown), 4 (unknown)");
    pb_resultset_free(s);

    /* nothing skipped: no fact */
    s = load(FIX, "zfs-fuse_zpool-list.txt");
    assert_null(fact(s, "skipped_lines"));
    pb_resultset_free(s);
}

/* Issue 11 item 8: -H output without a header. Default column sets are
 * known (zfs-fuse's 8-column and OpenZFS 2.x's 11-column zpool list -H);
 * other -o lists need --columns, and without it the error says so. */
static void test_headerless(void **state)
{
    (void)state;
    struct pb_resultset *s = load(FIX, "zfs-fuse_zpool-list-H.txt");
    assert_near(val(s, "pbmsc_14284", "size"), 123 * M, 0);
    assert_near(val(s, "pbmsc_14284", "allocated"), 716 * K, 0);
    assert_near(val(s, "pbmsc_14284", "dedupratio"), 1, 0);
    ASSERT_FACT(s, "pool:pbmsc_14284:health", "ONLINE");
    pb_resultset_free(s);

    /* OpenZFS 2.x zpool list -Hp: name size alloc free ckpoint expandsz
     * frag cap dedup health altroot */
    static const char oz[] = "tank\t1099511627776\t549755813888\t"
                             "549755813888\t-\t-\t23\t50\t1.00\t"
                             "ONLINE\t-\n";
    struct pb_err err;
    assert_true(zfs()->sniff(oz, sizeof(oz) - 1) >= 60);
    assert_int_equal(parse_str(oz, &s, &err), PB_OK);
    assert_near(val(s, "tank", "size"), T, 0);
    assert_near(val(s, "tank", "fragmentation"), 23, 0);
    assert_near(val(s, "tank", "capacity"), 50, 0);
    pb_resultset_free(s);

    /* zfs list -H -o name,used,avail,refer,compressratio (zfs-fuse) */
    char path[1024];
    snprintf(path, sizeof(path), "%s/bad/zfs-fuse_zfs-list-H-o_no-header.txt",
             FIX);
    size_t len;
    char *buf = th_slurp(path, &len);
    assert_non_null(buf);
    assert_true(pb_ingest_find_parser(buf, len) == zfs());
    struct pb_ingest_opts o;
    memset(&o, 0, sizeof(o));
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err),
                     PB_EINPUT);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.msg, "zfs list -H output without a header: pass "
                                 "--columns NAME,...");
    o.columns = "name,used,avail,refer,ratio";
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err), PB_OK);
    assert_near(val(s, "pbmsc_14284/gz", "compressratio"), 152.40, 1e-12);
    assert_near(val(s, "pbmsc_14284/gz", "used"), 272 * K, 0);
    assert_near(val(s, "pbmsc_14284", "available"), 90.3 * M, 1e-3);
    pb_resultset_free(s);
    /* a column list that does not fit the rows */
    o.columns = "name,used,avail";
    memset(&err, 0, sizeof(err));
    assert_int_equal(pb_ingest_buffer("x", buf, len, &o, &s, &err),
                     PB_EINPUT);
    assert_string_equal(err.msg, "row \"pbmsc_14284\" has 5 fields, "
                                 "--columns names 3");
    free(buf);

    /* zpool list -H -o with pool columns */
    static const char po[] = "tank\t1.00T\t100G\t924G\t9%\tONLINE\n";
    o.columns = "NAME,SIZE,ALLOC,FREE,CAP,HEALTH";
    assert_int_equal(pb_ingest_buffer("x", po, sizeof(po) - 1, &o, &s, &err),
                     PB_OK);
    assert_near(val(s, "tank", "allocated"), 100 * G, 0);
    assert_near(val(s, "tank", "capacity"), 9, 0);
    pb_resultset_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bad_fixtures),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_html_and_crlf),
        cmocka_unit_test(test_junk_between),
        cmocka_unit_test(test_savings_refreservation),
        cmocka_unit_test(test_combined_log),
        cmocka_unit_test(test_headerless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
