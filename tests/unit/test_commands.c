/* Unit tests for ingest/notes/commands.c and ingest/context.c: pasted zpool/zfs/
 * hdparm commands read into dimensions (table of command texts), the state
 * in force at each line, titles, generic labels, and what pb_ingest_buffer
 * makes of notes and of fio JSON files with a generic job name. */
#include "tests/unit/testhelp.h"
#include <unistd.h>

#include "ingest/ingest_int.h"

/* ==== helpers ==== */

/* "k=v k=v" of the epoch in force at line (0: at the end). */
static char *dims_at(const char *text, long line)
{
    struct pb_cmd_notes nt;
    pb_cmd_scan(text, strlen(text), &nt);
    const struct pb_cmd_epoch *e = pb_cmd_epoch_at(&nt, line);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    for (size_t i = 0; e && i < e->ndims; i++)
        pb_buf_printf(&b, "%s%s=%s", i ? " " : "", e->dims[i].key,
                      e->dims[i].value);
    pb_cmd_notes_release(&nt);
    return pb_buf_take(&b);
}

static const char *origin_of(const char *text, const char *key)
{
    static char buf[512];
    struct pb_cmd_notes nt;
    pb_cmd_scan(text, strlen(text), &nt);
    const struct pb_cmd_epoch *e = pb_cmd_epoch_at(&nt, 0);
    buf[0] = '\0';
    for (size_t i = 0; e && i < e->ndims; i++)
        if (!strcmp(e->dims[i].key, key))
            snprintf(buf, sizeof(buf), "%s", e->dims[i].origin);
    pb_cmd_notes_release(&nt);
    return buf;
}

static const char *param(const struct pb_config *c, const char *key,
                         const char **origin)
{
    for (size_t i = 0; i < c->nparams; i++)
        if (!strcmp(c->params[i].key, key)) {
            if (origin)
                *origin = c->params[i].origin;
            return c->params[i].value;
        }
    return NULL;
}

static struct pb_resultset *ingest(const char *path, const char *buf,
                                   size_t len,
                                   const struct pb_ingest_opts *opts)
{
    struct pb_resultset *set = NULL;
    struct pb_err err = {0};
    if (pb_ingest_buffer(path, buf, len, opts, &set, &err) != PB_OK) {
        print_error("%s:%ld: %s\n", err.path, err.line, err.msg);
        fail();
    }
    return set;
}

/* ==== commands ==== */

static void test_command_table(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        /* the issue's note */
        {"sudo zpool destroy stripe\n"
         "sudo zpool create stripe /dev/sdb /dev/sdd -o ashift=12\n"
         "sudo zfs set recordsize=2k sync=always primarycache=none stripe\n",
         "ashift=12 dedup_class=no disks=2 disks_per_vdev=1 l2arc=no "
         "layout=stripe primarycache=none recordsize=2048 slog=no spares=0 "
         "special=no sync=always vdevs=2"},
        /* options first, clustered, -O properties, absolute path */
        {"$ sudo /sbin/zpool create -fo ashift=13 -O compression=lz4 "
         "-O atime=off tank mirror sda sdb mirror sdc sdd log nvme0n1 "
         "cache nvme1n1\n",
         "ashift=13 atime=off compression=lz4 dedup_class=no disks=4 "
         "disks_per_vdev=2 l2arc=yes l2arc_devices=1 layout=mirror "
         "slog=stripe slog_vdevs=1 spares=0 special=no vdevs=2"},
        {"zpool create -f tank raidz2 a b c d e f special mirror g h\n",
         "dedup_class=no disks=6 disks_per_vdev=6 l2arc=no layout=raidz2 "
         "slog=no spares=0 special=mirror special_vdevs=1 vdevs=1"},
        /* every class: as zpool status shows the same pool (issue 42) */
        {"zpool create tank raidz2 d0 d1 d2 d3 d4 d5 special mirror d6 d7 "
         "dedup mirror d12 d13 log mirror d8 d9 cache d10 spare d11\n",
         "dedup_class=mirror dedup_class_vdevs=1 disks=6 disks_per_vdev=6 "
         "l2arc=yes l2arc_devices=1 layout=raidz2 slog=mirror slog_vdevs=1 "
         "spares=1 special=mirror special_vdevs=1 vdevs=1"},
        {"zpool create tank raidz a b c raidz d e f\n",
         "dedup_class=no disks=6 disks_per_vdev=3 l2arc=no layout=raidz1 "
         "slog=no spares=0 special=no vdevs=2"},
        {"zpool create tank draid2:4d:1s:11c /dev/sd[a-k]\n",
         "dedup_class=no disks=1 disks_per_vdev=1 l2arc=no layout=draid2 "
         "slog=no spares=0 special=no vdevs=1"},
        /* `\` continuation, prompt, `;` and `&&` */
        {"root@box:~# zpool create tank \\\n   mirror sda sdb; zpool add "
         "tank log sdc && zfs set recsize=16K tank\n",
         "dedup_class=no disks=2 disks_per_vdev=2 l2arc=no layout=mirror "
         "recordsize=16384 slog=stripe slog_vdevs=1 spares=0 special=no "
         "vdevs=1"},
        /* zfs create with -o and -b; mountpoint is not a dimension */
        {"zfs create -o compression=zstd -o mountpoint=/x -V 10G -b 16k "
         "tank/vol\n",
         "compression=zstd volblocksize=16384"},
        /* hdparm, both spellings; the last wins */
        {"hdparm -W 0 /dev/sda\n", "write_cache=off"},
        {"sudo hdparm -W1 /dev/sda\n", "write_cache=on"},
        {"hdparm -W /dev/sda\n", ""}, /* a query says nothing */
        /* destroy resets; a later create starts over */
        {"zpool create -o ashift=12 tank a b\nzfs set atime=off tank\n"
         "zpool destroy tank\n",
         ""},
        {"zpool create -o ashift=12 tank a b\nzfs set atime=off tank\n"
         "zpool destroy tank\nzpool create tank mirror a b\n",
         "dedup_class=no disks=2 disks_per_vdev=2 l2arc=no layout=mirror "
         "slog=no spares=0 special=no vdevs=1"},
        /* properties per pool; the pool touched last is in force */
        {"zpool create fast mirror a b\nzpool create slow raidz2 c d e f\n"
         "zfs set recordsize=1M slow/db\n",
         "dedup_class=no disks=4 disks_per_vdev=4 l2arc=no layout=raidz2 "
         "recordsize=1048576 slog=no spares=0 special=no vdevs=1"},
        {"zpool create fast mirror a b\nzpool create slow raidz2 c d e f\n"
         "zfs set recordsize=1M slow/db\nzfs set atime=off fast\n",
         "atime=off dedup_class=no disks=2 disks_per_vdev=2 l2arc=no "
         "layout=mirror slog=no spares=0 special=no vdevs=1"},
        /* zfs inherit drops the property */
        {"zfs set recordsize=8k tank\nzfs inherit recordsize tank\n", ""},
        /* quoting, comments, pipes */
        {"zfs set 'recordsize=1M' \"tank/db\" # was 128k\n",
         "recordsize=1048576"},
        {"echo zpool create tank a | tee log\n", ""},
        {"zpool status tank\nzfs get all tank\n", ""},
        /* prose that names commands is not a command */
        {"Then I ran zpool create with ashift=12.\n", ""},
        /* nothing said, nothing invented */
        {"zpool create\nzfs set tank\nzfs set recordsize=8k\n", ""},
        /* hostile: unbalanced quotes, bad ashift, a lone backslash */
        {"zpool create -o ashift=99 tank 'a b\n", 
         "dedup_class=no disks=1 disks_per_vdev=1 l2arc=no layout=stripe "
         "slog=no spares=0 special=no vdevs=1"},
        {"zfs set atime=\"off tank\\", ""},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = dims_at(cases[i].text, 0);
        if (strcmp(got, cases[i].want) != 0) {
            print_error("case %zu:\n%s\ngot  '%s'\nwant '%s'\n", i,
                        cases[i].text, got, cases[i].want);
            free(got);
            fail();
        }
        free(got);
    }
}

static void test_origin_and_lines(void **state)
{
    (void)state;
    const char *t = "Note\n"
                    "\n"
                    "$ sudo zpool create stripe /dev/sdb -o ashift=12\n"
                    "$ fio --name=fio | grep IOPS\n"
                    "  read: IOPS=1\n"
                    "$ sudo zpool destroy stripe\n"
                    "$ sudo zpool create -o ashift=9 stripe mirror a b\n"
                    "$ sudo zfs set atime=off stripe\n";
    assert_string_equal(origin_of(t, "ashift"),
                        "command: line 7: zpool create -o ashift=9 stripe "
                        "mirror a b");
    assert_string_equal(origin_of(t, "atime"),
                        "command: line 8: zfs set atime=off stripe");
    char *d = dims_at(t, 2);
    assert_string_equal(d, "");
    free(d);
    d = dims_at(t, 5);
    assert_string_equal(d, "ashift=12 dedup_class=no disks=1 "
                           "disks_per_vdev=1 l2arc=no layout=stripe slog=no "
                           "spares=0 special=no vdevs=1");
    free(d);
    d = dims_at(t, 6);
    assert_string_equal(d, "");
    free(d);
    d = dims_at(t, 8);
    assert_string_equal(d, "ashift=9 atime=off dedup_class=no disks=2 "
                           "disks_per_vdev=2 l2arc=no layout=mirror slog=no "
                           "spares=0 special=no vdevs=1");
    free(d);
    /* a long command is cut in its origin */
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "zpool create tank");
    for (int i = 0; i < 100; i++)
        pb_buf_printf(&b, " /dev/disk/by-id/ata-%d", i);
    pb_buf_puts(&b, "\n");
    const char *o = origin_of(pb_buf_str(&b), "layout");
    assert_true(strlen(o) <= 200);
    assert_non_null(strstr(o, "..."));
    d = dims_at(pb_buf_str(&b), 0);
    assert_non_null(strstr(d, "disks=100 "));
    free(d);
    pb_buf_release(&b);
}

static void test_titles(void **state)
{
    (void)state;
    static const struct {
        const char *text, *title;
    } cases[] = {
        {"recordsize=2k\n\nsudo zpool create t a\n", "recordsize=2k"},
        {"\n\n  ## Mirror, lz4 ##  \nzfs set atime=off t\n",
         "Mirror, lz4 ##"},
        {"# zpool create t a\n", NULL},       /* a root prompt */
        {"$ fio --name=x\n", NULL},           /* a command */
        {"just a line\nno commands\n", NULL}, /* not a note */
        {"  read: IOPS=1267, BW=5068KiB/s\nfio --name=x\n", NULL},
        {"fio-3.33\nfio --name=x\n", NULL},
        {"Pool <script>x</script>\nzfs set atime=off t\n",
         "Pool <script>x</script>"},
        {"<b>HTML</b> title\nzfs set atime=off t\n", NULL}, /* markup */
        {"----\nzfs set atime=off t\n", NULL},
        {"# Mirror, lz4\nzfs set atime=off t\n", "Mirror, lz4"},
        {"$ ls -l\nzfs set atime=off t\n", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct pb_cmd_notes nt;
        pb_cmd_scan(cases[i].text, strlen(cases[i].text), &nt);
        int ok = cases[i].title
                     ? nt.title && nt.ncommands &&
                           !strcmp(nt.title, cases[i].title)
                     : !nt.title || !nt.ncommands;
        if (!ok) {
            print_error("case %zu: title '%s'\n", i,
                        nt.title ? nt.title : "(none)");
            pb_cmd_notes_release(&nt);
            fail();
        }
        pb_cmd_notes_release(&nt);
    }
}

static void test_generic_labels(void **state)
{
    (void)state;
    static const char *const generic[] = {
        "fio", "test", "TEST", "job1", "job_2", "task_0", "test-3",
        "iozone", "bench", "fio (host db1, fio-3.33)", "unnamed system",
        NULL};
    static const char *const meaningful[] = {
        "randread-4k", "seqread", "tank raidz2", "test_ssd", "fiona",
        "jobs-ashift12", "mix7030", NULL};
    for (size_t i = 0; generic[i]; i++)
        if (!pb_ingest_generic_label(generic[i])) {
            print_error("'%s' should be generic\n", generic[i]);
            fail();
        }
    for (size_t i = 0; meaningful[i]; i++)
        if (pb_ingest_generic_label(meaningful[i])) {
            print_error("'%s' should not be generic\n", meaningful[i]);
            fail();
        }
}

static void test_hostile(void **state)
{
    (void)state;
    /* 1 MB of one line, binary bytes, 10,000 commands */
    size_t n = 1 << 20;
    char *big = malloc(n);
    assert_non_null(big);
    memset(big, 'a', n);
    memcpy(big, "zpool create tank ", 18);
    struct pb_cmd_notes nt;
    pb_cmd_scan(big, n, &nt);
    assert_int_equal(nt.nepochs, 1); /* longer than any command */
    pb_cmd_notes_release(&nt);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)(i * 131 + 7);
    pb_cmd_scan(big, n, &nt);
    pb_cmd_notes_release(&nt);
    struct pb_buf b = PB_BUF_INIT;
    for (int i = 0; i < 10000; i++)
        pb_buf_printf(&b, "zfs set recordsize=%dk t%d\n", 1 << (i % 8), i % 3);
    pb_cmd_scan(pb_buf_str(&b), b.len, &nt);
    assert_int_equal(nt.nepochs, 10001);
    assert_int_equal(nt.ncommands, 10000);
    pb_cmd_notes_release(&nt);
    pb_buf_release(&b);
    free(big);
}

/* ==== what pb_ingest_buffer makes of notes ==== */

static const char note[] =
    "ashift sweep, 2 setups\n"
    "\n"
    "sudo zpool create stripe /dev/sdb /dev/sdd -o ashift=12\n"
    "sudo zfs set recordsize=2k stripe\n"
    "sudo fio --filename=/stripe/f --rw=randread --bs=4k --name=fio | grep IOPS\n"
    "  read: IOPS=1267, BW=5068KiB/s (5190kB/s)(594MiB/120019msec)\n"
    "sudo fio --filename=/stripe/f --rw=randread --bs=4k --name=fio | grep IOPS\n"
    "  read: IOPS=1300, BW=5200KiB/s (5325kB/s)(609MiB/120019msec)\n"
    "sudo zpool destroy stripe\n"
    "sudo zpool create -o ashift=9 stripe /dev/sdb /dev/sdd\n"
    "sudo zfs set recordsize=2k stripe\n"
    "sudo fio --filename=/stripe/f --rw=randread --bs=4k --name=fio | grep IOPS\n"
    "  read: IOPS=2000, BW=8000KiB/s (8192kB/s)(937MiB/120019msec)\n";

static void test_note_splits(void **state)
{
    (void)state;
    struct pb_label_rules *rules = NULL;
    struct pb_err err = {0};
    assert_int_equal(pb_label_rules_load(NULL, &rules, &err), PB_OK);
    struct pb_ingest_opts o = {0};
    o.rules = rules;
    struct pb_resultset *set = ingest("n.txt", note, strlen(note), &o);
    assert_int_equal(set->nconfigs, 2);
    for (size_t c = 0; c < 2; c++)
        assert_string_equal(set->configs[c].label, "ashift sweep, 2 setups");
    const char *org = NULL;
    assert_string_equal(param(&set->configs[0], "ashift", &org), "12");
    assert_string_equal(org, "command: line 3: zpool create stripe /dev/sdb "
                             "/dev/sdd -o ashift=12");
    assert_string_equal(param(&set->configs[1], "ashift", &org), "9");
    assert_string_equal(param(&set->configs[1], "recordsize", &org), "2048");
    assert_string_equal(org, "command: line 11: zfs set recordsize=2k stripe");
    /* runs 1 and 2 (the same setup) in config 0, folded as repeats (mean,
     * n = 2, both values kept); run 3 (another setup) apart in config 1 */
    size_t n0 = 0, n1 = 0;
    for (size_t r = 0; r < set->nresults; r++) {
        const struct pb_result *x = &set->results[r];
        if (strcmp(x->metric, "read_iops"))
            continue;
        const double *v;
        if (x->config == 0) {
            n0++;
            assert_true(x->value == (1267 + 1300) / 2.0);
            assert_int_equal(x->samples, 2);
            assert_int_equal(pb_rs_result_samples(set, x, &v), 2);
            assert_true(v[0] == 1267 && v[1] == 1300);
        } else {
            n1++;
            assert_true(x->value == 2000);
            assert_int_equal(pb_rs_result_samples(set, x, &v), 0);
        }
    }
    assert_int_equal(n0, 1);
    assert_int_equal(n1, 1);
    pb_resultset_free(set);

    /* precedence: --set > commands > title rules */
    struct pb_kv sv = {"ashift", "13", NULL};
    o.set = &sv;
    o.nset = 1;
    const char *t2 = "recordsize=8k atime=on\n"
                     "zfs set recordsize=4k tank\n"
                     "fio --name=fio --rw=read --bs=4k | grep IOPS\n"
                     "  read: IOPS=10, BW=40.0KiB/s (41.0kB/s)(400KiB/10000msec)\n";
    set = ingest("p.txt", t2, strlen(t2), &o);
    assert_int_equal(set->nconfigs, 1);
    assert_string_equal(param(&set->configs[0], "recordsize", &org), "4096");
    assert_string_equal(org, "command: line 2: zfs set recordsize=4k tank");
    assert_string_equal(param(&set->configs[0], "atime", &org), "on");
    assert_string_equal(org, "title: line 1");
    assert_string_equal(param(&set->configs[0], "ashift", &org), "13");
    pb_resultset_free(set);

    /* --label keeps the split: same label, different dimensions */
    o.set = NULL;
    o.nset = 0;
    o.label = "mine";
    set = ingest("n.txt", note, strlen(note), &o);
    assert_int_equal(set->nconfigs, 2);
    assert_string_equal(set->configs[1].label, "mine");
    pb_resultset_free(set);
    pb_label_rules_free(rules);
}

/* ==== generic job names in fio JSON ==== */

static char *replace(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    assert_non_null(p);
    return pb_xasprintf("%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
}

static void test_task0_versions(void **state)
{
    (void)state;
    size_t len;
    char *json = th_slurp(PB_FIXTURES_DIR
                          "/fio-json/fio-3.33_randread_4k_qd4_libaio.json",
                          &len);
    char *base = replace(json, "\"randread-4k-qd4\"", "\"task_0\"");
    static const char *const versions[] = {"fio-3.28", "fio-3.33",
                                           "fio-3.36"};
    const char *labels[3];
    struct pb_resultset *sets[3];
    for (int i = 0; i < 3; i++) {
        char *q = pb_xasprintf("\"%s\"", versions[i]);
        char *v = replace(base, "\"fio-3.33\"", q);
        free(q);
        sets[i] = ingest("same.json", v, strlen(v), NULL);
        assert_int_equal(sets[i]->nconfigs, 1);
        labels[i] = sets[i]->configs[0].label;
        free(v);
    }
    assert_string_equal(labels[0], "task_0 (file same, fio-3.28)");
    assert_string_equal(labels[1], "task_0 (file same, fio-3.33)");
    assert_string_equal(labels[2], "task_0 (file same, fio-3.36)");
    for (int i = 0; i < 3; i++)
        pb_resultset_free(sets[i]);
    /* same version, three files from three machines */
    struct pb_resultset *a = ingest("db1/run.json", base, strlen(base), NULL);
    struct pb_resultset *b = ingest("db2/run2.json", base, strlen(base), NULL);
    assert_string_equal(a->configs[0].label, "task_0 (file run, fio-3.33)");
    assert_string_equal(b->configs[0].label, "task_0 (file run2, fio-3.33)");
    pb_resultset_free(a);
    pb_resultset_free(b);
    /* a meaningful job name is kept */
    a = ingest("x.json", json, len, NULL);
    assert_string_equal(a->configs[0].label, "randread-4k-qd4");
    pb_resultset_free(a);
    free(base);
    free(json);
}

static void test_client_server_host(void **state)
{
    (void)state;
    size_t len;
    char *json = th_slurp(PB_FIXTURES_DIR
                          "/fio-json/fio-3.33_client-server_one-server.json",
                          &len);
    char *t0 = replace(json, "\"cs-randread\"", "\"task_0\"");
    struct pb_resultset *a = ingest("x/run.json", t0, strlen(t0), NULL);
    assert_int_equal(a->nconfigs, 1);
    assert_string_equal(a->configs[0].label,
                        "task_0 (host 127.0.0.1, fio-3.33)");
    assert_int_equal(a->configs[0].label_is_name, 1);
    pb_resultset_free(a);
    free(t0);
    free(json);
}

static void test_iozone_hosts(void **state)
{
    (void)state;
    size_t len;
    char *io = th_slurp(PB_FIXTURES_DIR "/iozone/iozone-3.506_auto-R_n512k-g1m.txt",
                        &len);
    struct pb_resultset *a = ingest("a.txt", io, len, NULL);
    struct pb_resultset *b = ingest("b.txt", io, len, NULL);
    assert_string_equal(a->configs[0].label, "iozone (file a, iozone-3.506)");
    assert_string_equal(b->configs[0].label, "iozone (file b, iozone-3.506)");
    pb_resultset_free(a);
    pb_resultset_free(b);
    free(io);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_table),
        cmocka_unit_test(test_origin_and_lines),
        cmocka_unit_test(test_titles),
        cmocka_unit_test(test_generic_labels),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_note_splits),
        cmocka_unit_test(test_task0_versions),
        cmocka_unit_test(test_client_server_host),
        cmocka_unit_test(test_iozone_hosts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
