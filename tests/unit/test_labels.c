/* Unit tests for ingest/labels.c: built-in label rules over a table of
 * labels (the issue's, made-up but real-looking ones, and every system
 * identifier and machine name of the PTS and bonnie++ corpus), user rules
 * files good and bad, hostile labels, and many threads sharing one rules
 * object. */
#define _POSIX_C_SOURCE 200809L
#include "tests/unit/testhelp.h"
#include <time.h>
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"

/* ==== helpers ==== */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "k=v, k=v" with the pairs sorted, from a list of n strings. */
static char *join_sorted(char **items, size_t n)
{
    if (n)
        qsort(items, n, sizeof(char *), cmp_str);
    struct pb_buf b = PB_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        pb_buf_printf(&b, "%s%s", i ? ", " : "", items[i]);
    pb_buf_puts(&b, "");
    return pb_buf_take(&b);
}

/* The params of config c in canonical form. Caller frees. */
static char *params_of(const struct pb_resultset *s, size_t c)
{
    const struct pb_config *cf = &s->configs[c];
    char **items = pb_xcalloc(cf->nparams + 1, sizeof(char *));
    for (size_t i = 0; i < cf->nparams; i++)
        items[i] =
            pb_xasprintf("%s=%s", cf->params[i].key, cf->params[i].value);
    char *r = join_sorted(items, cf->nparams);
    for (size_t i = 0; i < cf->nparams; i++)
        free(items[i]);
    free(items);
    return r;
}

/* Expected "k=v, k=v" in any order into canonical form (no strtok: the
 * threads test calls this from many threads). */
static char *canon(const char *want)
{
    char **items = NULL;
    size_t n = 0, cap = 0;
    for (const char *p = want; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *e = p;
        while (*e && *e != ',')
            e++;
        if (e > p) {
            PB_GROW(items, cap, n + 1);
            items[n++] = pb_xstrndup(p, (size_t)(e - p));
        }
        p = e;
    }
    char *r = join_sorted(items, n);
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
    return r;
}

/* Extract from label with rules; returns the canonical params. */
static char *extract(const struct pb_label_rules *rules, const char *label)
{
    struct pb_resultset *s = pb_resultset_new();
    size_t c = pb_rs_config(s, label);
    pb_label_extract(rules, s, c);
    char *r = params_of(s, c);
    pb_resultset_free(s);
    return r;
}

static void check_label(const struct pb_label_rules *rules, const char *label,
                        const char *want)
{
    char *got = extract(rules, label);
    char *exp = canon(want);
    if (strcmp(got, exp) != 0) {
        print_error("label '%s'\n  got:  '%s'\n  want: '%s'\n", label, got,
                    exp);
        free(got);
        free(exp);
        fail();
    }
    free(got);
    free(exp);
}

static struct pb_label_rules *builtins(void)
{
    struct pb_err err = {0};
    struct pb_label_rules *r = NULL;
    assert_int_equal(pb_label_rules_load(NULL, &r, &err), PB_OK);
    assert_non_null(r);
    assert_int_equal(err.code, 0);
    return r;
}

static char tmpname[128];

static const char *write_tmp(const char *name, const char *content, size_t len)
{
    snprintf(tmpname, sizeof(tmpname), "/tmp/pb_test_labels_%d_%s",
             (int)getpid(), name);
    FILE *fp = fopen(tmpname, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(content, 1, len, fp), len);
    fclose(fp);
    return tmpname;
}

/* ==== the built-in rules ==== */

static const struct {
    const char *label;
    const char *want;
} table[] = {
    /* the four labels of the issue */
    {"zfs ssd mirror, ashift=13, recordsize 8k, raw image",
     "layout=mirror, ashift=13, recordsize=8192, disk_format=raw"},
    {"ZFS 128k - QCOW2 64k - NTFS 4k",
     "recordsize=131072, disk_format=qcow2, disk_cluster_size=65536, "
     "guest_fs=ntfs, guest_block_size=4096"},
    {"8k volblocksize", "volblocksize=8192"},
    {"raidz2 + cache + log", "layout=raidz2, l2arc=yes, slog=yes"},
    /* spellings of the same dimension */
    {"volblocksize=8k", "volblocksize=8192"},
    {"volblocksize 8K", "volblocksize=8192"},
    {"hdd raidz1 8K volblock", "layout=raidz1, volblocksize=8192"},
    {"ashift=13", "ashift=13"},
    {"ashift 12", "ashift=12"},
    {"ashift12", "ashift=12"},
    {"recordsize=1M, compression=zstd-3, atime=off",
     "recordsize=1048576, compression=zstd-3, atime=off"},
    {"recordsize=128K", "recordsize=131072"},
    {"recordsize 131072", "recordsize=131072"},
    {"zfs-8k", "recordsize=8192"},
    {"zfs-lz4-8k-recordsize", "compression=lz4, recordsize=8192"},
    {"draid2:4d:1s:11c recsize 1m", "layout=draid2, recordsize=1048576"},
    {"zvol 16k ext4 4k", "disk_format=zvol, volblocksize=16384, guest_fs=ext4, "
                         "guest_block_size=4096"},
    {"zfs 8k zvol", "volblocksize=8192, disk_format=zvol"},
    {"NTFS 64K allocation unit", "guest_fs=ntfs, guest_block_size=65536"},
    {"qemu-img cluster_size=2M", "disk_cluster_size=2097152"},
    {"qemu cache=none qcow2", "disk_format=qcow2"},
    /* layouts and vdev counts */
    {"2x mirror lz4 sync=disabled",
     "layout=mirror, vdevs=2, compression=lz4, sync=disabled"},
    {"2 x 2-way mirror", "layout=mirror, vdevs=2"},
    {"tank: 3 mirrors, no slog, l2arc",
     "layout=mirror, vdevs=3, slog=no, l2arc=yes"},
    {"lz4, 3\xc3\x97raidz2 vdevs", "compression=lz4, layout=raidz2, vdevs=3"},
    {"4 vdevs raidz1 ashift=9", "vdevs=4, layout=raidz1, ashift=9"},
    {"RAID-Z2 gzip-9 primarycache=metadata logbias=throughput",
     "layout=raidz2, compression=gzip-9, primarycache=metadata, "
     "logbias=throughput"},
    {"raidz compression off noatime",
     "layout=raidz1, compression=off, atime=off"},
    {"cold cache zfs stripe", "layout=stripe"},
    /* a mirror of auxiliary vdevs is not the pool layout */
    {"log mirror", "slog=yes"},
    {"raidz2, special mirror, slog mirror", "layout=raidz2, slog=yes"},
    /* properties */
    {"sync=always, atime=on, primarycache=all",
     "sync=always, atime=on, primarycache=all"},
    {"mirror, ZIL disabled", "layout=mirror, sync=disabled"},
    {"logbias=latency slog nvme", "logbias=latency, slog=yes"},
    {"slog=nvme0n1 l2arc=none", "slog=yes, l2arc=no"},
    {"without cache, without log", "l2arc=no, slog=no"},
    {"noslog nocache", "slog=no, l2arc=no"},
    {"compression=gzip", "compression=gzip"},
    {"zfs gzip mirror", "compression=gzip, layout=mirror"},
    {"zstd-fast-10", "compression=zstd-fast-10"},
    {"gzip_5", "compression=gzip-5"},
    {"zstd19", "compression=zstd-19"},
    /* negative cases: nothing, or only what is really there */
    {"Samsung 970 EVO 1TB", ""},
    {"ZFS 1TB mirror", "layout=mirror"},
    {"zfs 0.8.6 mirror", "layout=mirror"},
    {"recordsize 128", ""},           /* no unit: KiB or bytes? not guessed */
    {"recordsize 96k", ""},           /* not a power of two */
    {"recordsize 32M", ""},           /* above 16 MiB */
    {"ashift=20", ""},                /* outside 9..16 */
    {"raid5 md xfs", "guest_fs=xfs"}, /* raid5 is not a ZFS layout */
    {"RAID5_RW", ""},
    {"samsung-raid1", ""},
    {"stripe size 64k hw raid", ""},
    {"HPDL380G8 P420i_3xSSD_MD0_RW", ""},
    {"dl380_2.4_c", ""},
    {"pts/compress-zstd-1.6.0", ""},
    {"lz4hc", ""},
    {"primarycache", ""},
    {"logbias_throughput_test", "logbias=throughput"},
    {"<script>alert(1)</script> zfs mirror", "layout=mirror"},
    {"", ""},
};

static void test_builtin_table(void **state)
{
    (void)state;
    struct pb_label_rules *r = builtins();
    assert_true(sizeof(table) / sizeof(table[0]) >= 25);
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        check_label(r, table[i].label, table[i].want);
    pb_label_rules_free(r);
}

/* Parser-supplied dimensions win over the label. */
static void test_parser_values_win(void **state)
{
    (void)state;
    struct pb_label_rules *r = builtins();
    struct pb_resultset *s = pb_resultset_new();
    size_t c = pb_rs_config(s, "recordsize 8k ashift 12 mirror");
    pb_rs_config_param(s, c, "recordsize", "65536");
    pb_rs_config_param(s, c, "layout", "raidz2");
    pb_label_extract(r, s, c);
    char *got = params_of(s, c);
    assert_string_equal(got, "ashift=12, layout=raidz2, recordsize=65536");
    free(got);
    /* a second extraction changes nothing */
    pb_label_extract(r, s, c);
    got = params_of(s, c);
    assert_string_equal(got, "ashift=12, layout=raidz2, recordsize=65536");
    free(got);
    /* out-of-range config, NULL rules: nothing happens */
    pb_label_extract(r, s, 7);
    pb_label_extract(NULL, s, c);
    assert_int_equal(s->configs[c].nparams, 3);
    pb_resultset_free(s);
    pb_label_rules_free(r);
    pb_label_rules_free(NULL);
}

/* ==== labels of the corpus ==== */

static int read_whole(const char *path, char **buf, size_t *len)
{
    struct pb_err err = {0};
    return pb_read_file(path, buf, len, &err);
}

/* Sorted file names of dir; skip() when it is absent. */
static size_t list_dir(const char *dir, char ***out)
{
    skip_unless_exists(dir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char **v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        PB_GROW(v, cap, n + 1);
        v[n++] = pb_xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof(char *), cmp_str);
    *out = v;
    return n;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* PTS <System><Identifier>: none of them names a ZFS dimension (gzip-run-N
 * is a test run, not compression=gzip). */
static void test_corpus_pts(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        const char *ids; /* "|"-joined, in file order */
    } want[] = {
        {"pts-10.8.4_multi-test-cpu-suite_manueljbrito.xml", "GVNO2"},
        {"pts-10.8.4_simdjson_single-system_manueljbrito.xml", "GVNO3"},
        {"pts-5.2.1_active-xml-incomplete_dbench-sqlite-tiobench_"
         "s3437526.xml",
         "SN64G - ARMv7 rev 3"},
        {"pts-5.2.1_active-xml-no-results_s3437526.xml", "ARMv7 rev 3"},
        {"pts-5.2.1_disk-suite_sqlite-fsmark-dbench-compilebench-postmark_"
         "rpi4_s3437526.xml",
         "SN64G"},
        {"pts-5.6.0_7zip_single-run-test-1_laertispappas.xml", "7zip-run-0"},
        {"pts-5.6.0_gzip_10-systems_laertispappas.xml",
         "gzip-run-0|gzip-run-1|gzip-run-2|gzip-run-3|gzip-run-4|gzip-run-5|"
         "gzip-run-6|gzip-run-7|gzip-run-8|gzip-run-9"},
        {"pts-5.6.0_tiobench_storage_aws-m3large_laertispappas.xml",
         "threaded-last-unique"},
        {"pts-8.0.1_blogbench_gcp-clearlinux-docker_ucd.xml", "PersistentDisk"},
    };
    char **files;
    size_t n = list_dir(PB_CORPUS_DIR "/pts-xml", &files);
    struct pb_label_rules *r = builtins();
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ids = NULL;
        for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
            if (!strcmp(files[i], want[k].file))
                ids = want[k].ids;
        if (!ids) {
            print_message("new corpus file %s: add it to the table\n",
                          files[i]);
            fail();
        }
        char *path = pb_xasprintf("%s/pts-xml/%s", PB_CORPUS_DIR, files[i]);
        char *buf;
        size_t len;
        assert_int_equal(read_whole(path, &buf, &len), PB_OK);
        struct pb_buf got = PB_BUF_INIT;
        const char *p = buf;
        while ((p = strstr(p, "<System>")) != NULL) {
            const char *end = strstr(p, "</System>");
            const char *id = strstr(p, "<Identifier>");
            assert_non_null(end);
            assert_non_null(id);
            assert_true(id < end);
            id += strlen("<Identifier>");
            const char *ide = strstr(id, "</Identifier>");
            assert_non_null(ide);
            char *label = pb_xstrndup(id, (size_t)(ide - id));
            pb_buf_printf(&got, "%s%s", got.len ? "|" : "", label);
            check_label(r, label, "");
            free(label);
            p = end;
        }
        assert_string_equal(pb_buf_str(&got), ids);
        pb_buf_release(&got);
        free(buf);
        free(path);
        checked++;
    }
    assert_int_equal(checked, sizeof(want) / sizeof(want[0]));
    pb_label_rules_free(r);
    free_list(files, n);
}

/* The bonnie++ machine name of a CSV line: field 3 after "1.9x,1.9x,", or
 * field 1 of a legacy 1.03 row ("name,8096M,..."). NULL when not a row. */
static char *bonnie_name(const char *line, size_t len)
{
    char *l = pb_xstrndup(line, len);
    char *f[3] = {NULL, NULL, NULL};
    size_t nf = 0;
    char *save = l;
    for (char *p = l; nf < 3; p++) {
        if (*p == ',' || *p == '\0') {
            int last = *p == '\0';
            *p = '\0';
            f[nf++] = save;
            save = p + 1;
            if (last)
                break;
        }
    }
    char *r = NULL;
    if (nf == 3 && f[0][0] == '1' && f[0][1] == '.' && f[2][0])
        r = pb_xstrdup(f[2]);
    else if (nf >= 2 && f[0][0] && f[0][0] >= 'A' && f[1][0] >= '0' &&
             f[1][0] <= '9' && strpbrk(f[1], "MGK"))
        r = pb_xstrdup(f[0]);
    free(l);
    return r;
}

static void test_corpus_bonnie(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        const char *names; /* unique, sorted, "|"-joined */
        const char *want;  /* dimensions of each name */
    } want[] = {
        {"bonnie-1.96-and-1.03-mixed_with-comment_annttu.csv",
         "host1|host2|host3|host4|host5|host6|host7", ""},
        {"bonnie-1.96_fast-mode-empty-putc_perfkit.csv", "perfkit-7b22f510-0",
         ""},
        {"bonnie-1.96_multiple-runs-with-comment-header_iscsi_cunnie.txt",
         "iSCSI_L2_80G", ""}, /* L2 is not L2ARC, 80G not a recordsize */
        {"bonnie-1.97_fastmode-with-hash-comments_freenas_cunnie.txt",
         "RAIDZ2_FreeNAS_11", "layout=raidz2"},
        {"bonnie-1.97_multiple-runs-appended_ssd_cunnie.txt", "SSD_SATA_80G",
         ""},
        {"bonnie-1.97_pure-csv-5-runs_zfs-hdd_george-qiaozhi.csv", "s209", ""},
        {"bonnie-1.97_single-line_qemu-zfs_george-qiaozhi.csv", "s209", ""},
        {"bonnie-1.97_stdout-text-plus-csv_gce-pd-ssd_cunnie.txt", "gce_pd-ssd",
         ""},
    };
    char **files;
    size_t n = list_dir(PB_CORPUS_DIR "/bonnie-csv", &files);
    struct pb_label_rules *r = builtins();
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < sizeof(want) / sizeof(want[0]) &&
               strcmp(files[i], want[k].file) != 0)
            k++;
        if (k == sizeof(want) / sizeof(want[0])) {
            print_message("new corpus file %s: add it to the table\n",
                          files[i]);
            fail();
        }
        char *path = pb_xasprintf("%s/bonnie-csv/%s", PB_CORPUS_DIR, files[i]);
        char *buf;
        size_t len;
        assert_int_equal(read_whole(path, &buf, &len), PB_OK);
        char **names = NULL;
        size_t nn = 0, cap = 0;
        for (const char *s = buf; s < buf + len;) {
            const char *nl = memchr(s, '\n', (size_t)(buf + len - s));
            const char *e = nl ? nl : buf + len;
            size_t ll = (size_t)(e - s);
            if (ll && s[ll - 1] == '\r')
                ll--;
            char *name = s[0] != '#' ? bonnie_name(s, ll) : NULL;
            int dup = 0;
            for (size_t j = 0; name && j < nn; j++)
                dup |= !strcmp(names[j], name);
            if (name && !dup) {
                PB_GROW(names, cap, nn + 1);
                names[nn++] = name;
            } else {
                free(name);
            }
            s = nl ? nl + 1 : e;
        }
        if (nn)
            qsort(names, nn, sizeof(char *), cmp_str);
        struct pb_buf got = PB_BUF_INIT;
        for (size_t j = 0; j < nn; j++) {
            pb_buf_printf(&got, "%s%s", j ? "|" : "", names[j]);
            check_label(r, names[j], want[k].want);
        }
        assert_string_equal(pb_buf_str(&got), want[k].names);
        pb_buf_release(&got);
        free_list(names, nn);
        free(buf);
        free(path);
        checked++;
    }
    assert_int_equal(checked, sizeof(want) / sizeof(want[0]));
    pb_label_rules_free(r);
    free_list(files, n);
}

/* ==== user rules files ==== */

static void test_user_rules(void **state)
{
    (void)state;
    /* CRLF line ends, a BOM, comments, blank lines, a new key, and two
     * rules replacing the built-in layout and recordsize rules. */
    static const char rules[] =
        "\xEF\xBB\xBF# poolbench label rules\r\n"
        "\r\n"
        "   # indented comment\r\n"
        "pool = (?i)pool[ =:]+([a-z0-9_-]+)\r\n"
        "recordsize = (?i)(?<![a-z0-9])rs[ =]?(\\d+k)(?![a-z0-9])\r\n"
        "LAYOUT = (?i)(?<![a-z0-9])(raid10|raid[0156])(?![a-z0-9])\r\n"
        "layout = (?i)(?<![a-z0-9])(mirror)\r\n"
        "case_sensitive = (TANK)\r\n";
    const char *path = write_tmp("good.rules", rules, sizeof(rules) - 1);
    struct pb_err err = {0};
    struct pb_label_rules *r = NULL;
    assert_int_equal(pb_label_rules_load(path, &r, &err), PB_OK);
    assert_non_null(r);
    check_label(r, "pool=Tank rs16k RAID10 recordsize 128k lz4",
                "pool=tank, recordsize=16384, layout=mirror, "
                "compression=lz4");
    /* the user's layout rules replace ALL built-in ones: raidz2 is gone */
    check_label(r, "raidz2 mirror recordsize 128k ashift=12",
                "layout=mirror, ashift=12");
    check_label(r, "raidz2 ashift=12", "ashift=12");
    check_label(r, "samsung-raid1", "layout=mirror");
    check_label(r, "HIGHPOINT RAID5_RW", "layout=raidz1");
    check_label(r, "raid6", "layout=raidz2");
    check_label(r, "raid0 rs96k", "layout=stripe"); /* 96k refused */
    /* user patterns are compiled as written: no (?i), no match */
    check_label(r, "tank", "");
    check_label(r, "TANK", "case_sensitive=tank");
    unlink(path);
    pb_label_rules_free(r);

    /* a file of comments only gives the built-ins */
    static const char empty[] = "# nothing here\n\n";
    path = write_tmp("empty.rules", empty, sizeof(empty) - 1);
    pb_err_clear(&err);
    assert_int_equal(pb_label_rules_load(path, &r, &err), PB_OK);
    check_label(r, "raidz2 ashift=12", "layout=raidz2, ashift=12");
    unlink(path);
    pb_label_rules_free(r);
}

static void test_bad_rules(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *content;
        size_t len; /* 0 = strlen */
        long line, col;
        const char *msg;
    } bad[] = {
        {"noeq", "# c\n\nrecordsize (\\d+k)\n", 0, 3, 0,
         "expected 'key = pattern'"},
        {"nokey", "ashift = (\\d+)\n = (x)\n", 0, 2, 0,
         "missing key before '='"},
        {"nopat", "ashift =   \r\n", 0, 1, 0, "missing pattern for 'ashift'"},
        {"badkey", "# keys are words\nmy key = (x)\n", 0, 2, 1,
         "bad key 'my key': use letters, digits and _ . - :"},
        {"syntax", "pool = (p)\nashift = ashift(\\d+\n", 0, 2, 20,
         "bad pattern for 'ashift': missing closing parenthesis"},
        {"badclass", "\n\n\nx = ([z-a])\n", 0, 4, 9,
         "bad pattern for 'x': range out of order in character class"},
        {"twogroups", "recordsize = (\\d+)(k)\n", 0, 1, 0,
         "pattern for 'recordsize' has 2 capture groups, wants exactly 1"},
        {"nogroup", "ashift = ashift=\\d+\n", 0, 1, 0,
         "pattern for 'ashift' has 0 capture groups, wants exactly 1"},
        {"nul", "ok = (x)\nbad = (\0)\n", 19, 2, 0, "NUL byte in rules file"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t len = bad[i].len ? bad[i].len : strlen(bad[i].content);
        const char *path = write_tmp(bad[i].name, bad[i].content, len);
        struct pb_err err = {0};
        struct pb_label_rules *r = (struct pb_label_rules *)&err; /* junk */
        assert_int_equal(pb_label_rules_load(path, &r, &err), PB_EUSAGE);
        assert_null(r);
        assert_int_equal(err.code, PB_EUSAGE);
        assert_string_equal(err.path, path);
        if (err.line != bad[i].line || err.col != bad[i].col ||
            strcmp(err.msg, bad[i].msg) != 0) {
            print_error("%s: got %ld:%ld '%s'\n", bad[i].name, err.line,
                        err.col, err.msg);
            fail();
        }
        unlink(path);
    }
    /* a missing file is a usage error naming the file */
    struct pb_err err = {0};
    struct pb_label_rules *r = NULL;
    assert_int_equal(pb_label_rules_load("/nonexistent/pb.rules", &r, &err),
                     PB_EUSAGE);
    assert_null(r);
    assert_string_equal(err.path, "/nonexistent/pb.rules");
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.msg, "cannot open"));
}

/* ==== hostile labels ==== */

static void test_hostile(void **state)
{
    (void)state;
    struct pb_label_rules *r = builtins();
    /* invalid UTF-8 around real words */
    check_label(r, "\xff\xfe mirror \xc3 ashift=12 \xe2\x82",
                "layout=mirror, ashift=12");
    /* CRLF and tabs inside a label */
    check_label(r, "raidz2\r\nrecordsize\t=\t16k\r\n",
                "layout=raidz2, recordsize=16384");
    /* a huge label: only the first 4 KiB is read */
    size_t n = 200000;
    char *big = pb_xmalloc(n + 1);
    memset(big, 'a', n);
    memcpy(big, "mirror ", 7);
    memcpy(big + 8000, " ashift=12 ", 11);
    big[n] = '\0';
    check_label(r, big, "layout=mirror");
    /* many candidate sizes, none valid */
    struct pb_buf b = PB_BUF_INIT;
    for (int i = 0; i < 400; i++)
        pb_buf_puts(&b, "zfs 96k recordsize 3k ");
    check_label(r, pb_buf_str(&b), "");
    pb_buf_release(&b);
    /* huge numbers */
    check_label(r,
                "recordsize 99999999999999999999999999999999999999k "
                "ashift=99999999999 2x99999 mirror 123456789 vdevs",
                "layout=mirror");
    free(big);
    pb_label_rules_free(r);

    /* a user pattern that backtracks catastrophically: the match limit
     * stops it and the key gets no value */
    static const char rules[] = "slow = ((?:a+)+b)\n";
    const char *path = write_tmp("slow.rules", rules, sizeof(rules) - 1);
    struct pb_err err = {0};
    assert_int_equal(pb_label_rules_load(path, &r, &err), PB_OK);
    check_label(r, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! mirror b",
                "layout=mirror");
    unlink(path);
    pb_label_rules_free(r);
}

/* ==== expensive user patterns (issue 20 item 16) ==== */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* PCRE2 retries an unanchored pattern at every offset of the label with a
 * fresh match limit: a pattern just under it at each offset of a 4 KiB
 * label took 4.6 s per label. Now one budget holds for the whole label,
 * the rule gives that label no value, the other rules still do, and the
 * warning names the rules file line. */
static void test_expensive_rules(void **state)
{
    (void)state;
    static const char rules[] =
        "# catastrophic patterns\n"
        "pool = (?i)pool[ =:]+([a-z0-9_-]+)\n"
        "burn = (x+x+)+y\n"
        "tail = ((?:a+)+)$\n";
    const char *path = write_tmp("expensive.rules", rules, sizeof(rules) - 1);
    struct pb_err err = {0};
    struct pb_label_rules *r = NULL;
    assert_int_equal(pb_label_rules_load(path, &r, &err), PB_OK);
    /* x{18}! repeated to 4000 bytes, then the rest: every offset of the
     * x runs backtracks 2^18 ways */
    struct pb_buf b = PB_BUF_INIT;
    while (b.len < 4000)
        pb_buf_puts(&b, "xxxxxxxxxxxxxxxxxx!");
    pb_buf_puts(&b, "y mirror pool=Tank aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
    char *label = pb_buf_take(&b);
    double t0 = now_s();
    check_label(r, label, "pool=tank, layout=mirror");
    double dt = now_s() - t0;
    print_message("expensive label: %.3f s\n", dt);
    assert_true(dt < 1.0);
    /* segments just under the limit at each offset */
    for (int seg = 8; seg <= 14; seg++) {
        struct pb_buf c = PB_BUF_INIT;
        while (c.len < 4000) {
            for (int k = 0; k < seg; k++)
                pb_buf_puts(&c, "x");
            pb_buf_puts(&c, "!");
        }
        pb_buf_puts(&c, "y");
        char *l2 = pb_buf_take(&c);
        t0 = now_s();
        check_label(r, l2, "");
        dt = now_s() - t0;
        if (dt >= 1.0) {
            print_error("segments of %d: %.3f s\n", seg, dt);
            fail();
        }
        free(l2);
    }
    /* the warning: one line per rule, naming the file and line */
    char *out = NULL;
    size_t outlen = 0;
    FILE *fp = open_memstream(&out, &outlen);
    assert_non_null(fp);
    assert_int_equal(pb_label_rules_warn(r, fp), 2);
    fclose(fp);
    char *want = pb_xasprintf("poolbench: %s:3: pattern for 'burn' is too "
                              "expensive: it hit ",
                              path);
    if (strncmp(out, want, strlen(want)) != 0) {
        print_error("got: %s\nwant: %s...\n", out, want);
        fail();
    }
    char *second = strchr(out, '\n') + 1;
    /* the first label, and the segmented ones PCRE2 cannot settle within
     * the budget (9 x's and more, here) */
    assert_non_null(strstr(out, " labels (first: \"xxxxxxxx"));
    assert_non_null(strstr(out, "which got no 'burn' from it"));
    free(want);
    /* (a+)+$ on the a-run before the '!' of the first label */
    want = pb_xasprintf("poolbench: %s:4: pattern for 'tail' is too "
                        "expensive: it hit PCRE2's match limit on 1 label "
                        "(first: \"xxxxxxxxxxxxxxxxxx!xxxxxxxxxxxxxxxxxx!xx"
                        "...\"), which got no 'tail' from it; ",
                        path);
    if (strncmp(second, want, strlen(want)) != 0) {
        print_error("got: %s\nwant: %s...\n", second, want);
        fail();
    }
    assert_int_equal(strchr(second, '\n') - out + 1, (long)outlen);
    free(want);
    free(out);
    free(label);
    unlink(path);
    pb_label_rules_free(r);

    /* rules that stayed within their limits print nothing */
    r = builtins();
    check_label(r, "mirror ashift=12", "layout=mirror, ashift=12");
    fp = open_memstream(&out, &outlen);
    assert_int_equal(pb_label_rules_warn(r, fp), 0);
    fclose(fp);
    assert_int_equal(outlen, 0);
    free(out);
    pb_label_rules_free(r);
}

/* ==== threads sharing one rules object ==== */

struct thread_arg {
    const struct pb_label_rules *rules;
    int failures;
};

static void *thread_main(void *varg)
{
    struct thread_arg *a = varg;
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
            char *got = extract(a->rules, table[i].label);
            char *exp = canon(table[i].want);
            if (strcmp(got, exp) != 0)
                a->failures++;
            free(got);
            free(exp);
        }
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    struct pb_label_rules *r = builtins();
    enum { NT = 8 };
    pthread_t t[NT];
    struct thread_arg args[NT];
    for (int i = 0; i < NT; i++) {
        args[i].rules = r;
        args[i].failures = 0;
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &args[i]), 0);
    }
    int failures = 0;
    for (int i = 0; i < NT; i++) {
        pthread_join(t[i], NULL);
        failures += args[i].failures;
    }
    assert_int_equal(failures, 0);
    pb_label_rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table),
        cmocka_unit_test(test_parser_values_win),
        cmocka_unit_test(test_corpus_pts),
        cmocka_unit_test(test_corpus_bonnie),
        cmocka_unit_test(test_user_rules),
        cmocka_unit_test(test_bad_rules),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_expensive_rules),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
