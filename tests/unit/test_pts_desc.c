/* Unit tests of ingest/pts/pts_desc.c: PTS result descriptions of the storage
 * profiles (in the formats of real OpenBenchmarking results and of the
 * shared corpus) into test parameters with poolbench's keys, other
 * profiles' pairs kept, values never invented, hostile descriptions. */
#include "tests/unit/testhelp.h"

#include "ingest/ingest_int.h"

/* "k=v; k=v" of every parameter, in order. */
static void collect(void *ctx, const char *key, const char *value)
{
    struct pb_buf *b = ctx;
    pb_buf_printf(b, "%s%s=%s", b->len ? "; " : "", key, value);
}

static char *params(const char *ident, const char *title, const char *desc)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_pts_desc_params(ident, title, desc, collect, &b);
    pb_buf_puts(&b, "");
    return pb_buf_take(&b);
}

static const struct {
    const char *ident, *title, *desc, *want;
} cases[] = {
    /* pts/fio 1.x (the example) and 2.x (Engine, Job Count) */
    {"pts/fio-1.15.0", "Flexible IO Tester",
     "Type: Random Read - IO Engine: Linux AIO - Buffered: No - Direct: "
     "Yes - Block Size: 8KB - Disk Target: Default Test Directory",
     "rw=randread; ioengine=libaio; buffered=0; direct=1; bs=8192; "
     "disk_target=Default Test Directory"},
    {"pts/fio-2.1.0", "Flexible IO Tester",
     "Type: Sequential Write - Engine: IO_uring - Direct: Yes - Block Size: "
     "1MB - Job Count: 4 - Disk Target: Default Test Directory",
     "rw=write; ioengine=io_uring; direct=1; bs=1048576; numjobs=4; "
     "disk_target=Default Test Directory"},
    {"pts/fio-1.8.2", "",
     "Type: Random Write - IO Engine: POSIX AIO - Buffered: Yes - Direct: "
     "No - Block Size: 2MB",
     "rw=randwrite; ioengine=posixaio; buffered=1; direct=0; bs=2097152"},
    {"pts/fio", "", "Type: Sequential Read - Engine: Sync - Block Size: 4KB",
     "rw=read; ioengine=sync; bs=4096"},
    {"pts/fio-2.1.0", "",
     "Type: Random Read/Write - Engine: Linux AIO - Block Size: 16KB",
     "rw=randrw; ioengine=libaio; bs=16384"},
    {"pts/fio-2.1.0", "", "Type: Sequential Read/Write - IO Depth: 32",
     "rw=rw; iodepth=32"},
    /* values it does not know keep their key: nothing guessed */
    {"pts/fio-2.1.0", "",
     "Type: Zoned Append - Engine: SPDK - Block Size: Default - Direct: "
     "Maybe",
     "type=Zoned Append; engine=SPDK; block_size=Default; direct=Maybe"},
    /* no identifier: the title tells the profile */
    {"", "Flexible IO Tester", "Type: Random Read - Block Size: 64KB",
     "rw=randread; bs=65536"},
    /* pts/iozone */
    {"pts/iozone-1.9.6", "IOzone",
     "Record Size: 4Kb - File Size: 8GB - Disk Test: Read Performance",
     "record_size=4096; file_size=8589934592; rw=read"},
    {"pts/iozone-1.9.6", "IOzone",
     "Record Size: 1MB - File Size: 512MB - Disk Test: Write Performance",
     "record_size=1048576; file_size=536870912; rw=write"},
    {"pts/iozone-1.8.0", "IOzone", "8GB Read Performance",
     "file_size=8589934592; rw=read"},
    /* pts/dbench, new and PTS 5 */
    {"pts/dbench-1.0.2", "Dbench", "Client Count: 48", "clients=48"},
    {"pts/dbench-1.0.1", "Dbench", "12 Clients", "clients=12"},
    {"pts/dbench-1.0.1", "Dbench", "1 Clients", "clients=1"},
    /* pts/tiobench, PTS 5.6 and PTS 5.2 */
    {"pts/tiobench-1.2.0", "Threaded I/O Tester",
     "Test: Random Write - Size Per Thread: 256MB - Thread Count: 32",
     "rw=randwrite; size=268435456; threads=32"},
    {"pts/tiobench-1.3.1", "Threaded I/O Tester", "64MB Read - 32 Threads",
     "size=67108864; rw=read; threads=32"},
    {"pts/tiobench-1.3.1", "Threaded I/O Tester",
     "64MB Random Write - 8 Threads",
     "size=67108864; rw=randwrite; threads=8"},
    /* pts/fs-mark */
    {"pts/fs-mark-1.0.2", "FS-Mark", "Test: 1000 Files, 1MB Size",
     "files=1000; file_size=1048576"},
    {"pts/fs-mark-1.0.2", "FS-Mark", "Test: 5000 Files, 1MB Size, 4 Threads",
     "files=5000; file_size=1048576; threads=4"},
    {"pts/fs-mark-1.0.2", "FS-Mark",
     "Test: 4000 Files, 32 Sub Dirs, 1MB Size",
     "files=4000; dirs=32; file_size=1048576"},
    {"pts/fs-mark-1.0.2", "FS-Mark",
     "Test: 1000 Files, 1MB Size, No Sync/FSync",
     "files=1000; file_size=1048576; fsync=0"},
    /* a phrase it does not know: the text is kept as well */
    {"pts/fs-mark-1.0.2", "FS-Mark", "Test: 1000 Files, Odd Mode",
     "files=1000; test=1000 Files, Odd Mode"},
    /* pts/aio-stress, pts/sqlite, pts/pgbench */
    {"pts/aio-stress-1.1.2", "AIO-Stress", "Test: Random Write",
     "rw=randwrite"},
    {"pts/aio-stress-1.1.0", "AIO-Stress", "Random Write", "rw=randwrite"},
    {"pts/tiobench-1.1.0", "", "Random Read - 16 Threads",
     "rw=randread; threads=16"},
    /* a workload word alone is not iozone's (its phrases carry a size) */
    {"pts/iozone-1.8.0", "IOzone", "Read", ""},
    {"pts/sqlite-2.2.0", "SQLite", "Threads / Copies: 8", "threads=8"},
    {"pts/sqlite-2.1.0", "SQLite", "Timed SQLite Insertions", ""},
    {"pts/pgbench-1.11.1", "PostgreSQL pgbench",
     "Scaling Factor: 100 - Clients: 50 - Mode: Read Write",
     "scaling_factor=100; clients=50; mode=read write"},
    {"pts/pgbench-1.11.1", "PostgreSQL pgbench",
     "Scaling Factor: 1 - Clients: 1 - Mode: Read Only - Average Latency",
     "scaling_factor=1; clients=1; mode=read only"},
    /* pts/compilebench and pts/postmark: their own keys */
    {"pts/compilebench-1.0.2", "Compile Bench", "Test: Read Compiled Tree",
     "test=Read Compiled Tree"},
    {"pts/postmark-1.1.2", "PostMark", "Disk Transaction Performance", ""},
    /* other profiles: lower_snake_case keys, sizes of size keys in bytes,
     * phrases without a key stay in the name only */
    {"pts/openssl-3.1.0", "OpenSSL", "Algorithm: SHA256", "algorithm=SHA256"},
    {"pts/botan-1.6.0", "Botan", "Test: Twofish - Decrypt", "test=Twofish"},
    {"pts/tiobench-1.2.0", "", "Size Per Thread: 64MB", "size=67108864"},
    {"pts/ior-1.1.1", "IOR",
     "Block Size: 2MB - Disk Target: Default Test Directory",
     "block_size=2097152; disk_target=Default Test Directory"},
    {"pts/fftw-1.2.0", "FFTW", "Build: Stock - Size: 2D FFT Size 64",
     "build=Stock; size=2D FFT Size 64"},
    {"pts/x265-1.3.0", "x265", "Video Input: Bosphorus 4K",
     "video_input=Bosphorus 4K"},
    {"pts/c-ray-1.2.0", "C-Ray", "Total Time - 4K, 16 Rays Per Pixel", ""},
    {"pts/dbench-1.0.1", "Dbench", "Threads / Copies: 8",
     "threads_copies=8"},
    /* no key before ": " (only punctuation): nothing */
    {"pts/x-1.0", "", ": value - --: x - Key:NoSpace", ""},
};

static void test_cases(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *got = params(cases[i].ident, cases[i].title, cases[i].desc);
        if (strcmp(got, cases[i].want) != 0) {
            print_error("%s \"%s\":\n  got  %s\n  want %s\n", cases[i].ident,
                        cases[i].desc, got, cases[i].want);
            bad++;
        }
        free(got);
    }
    assert_int_equal(bad, 0);
}

/* Sizes that are not whole bytes, overflow or are not sizes stay text. */
static void test_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *desc, *want;
    } sz[] = {
        {"Block Size: 1.5KB", "bs=1536"},
        {"Block Size: 0.3KB", "block_size=0.3KB"},
        {"Block Size: 99999999999999999999999999999GB",
         "block_size=99999999999999999999999999999GB"},
        {"Block Size: 4 KB", "bs=4096"},
        {"Block Size: 512", "bs=512"},
        {"Block Size: 4KiB", "bs=4096"},
        {"Block Size: KB", "block_size=KB"},
        {"Block Size: 4QB", "block_size=4QB"},
        {"Job Count: -1", "job_count=-1"},
        {"Job Count: 1e3", "job_count=1e3"},
    };
    for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
        char *got = params("pts/fio-2.1.0", "", sz[i].desc);
        if (strcmp(got, sz[i].want) != 0) {
            print_error("\"%s\": got %s, want %s\n", sz[i].desc, got,
                        sz[i].want);
            fail();
        }
        free(got);
    }
}

/* Hostile descriptions: empty, separators only, huge, binary, HTML: no
 * crash, keys stay words, values are passed on verbatim (escaping is the
 * report's job). */
static void test_hostile(void **state)
{
    (void)state;
    char *got = params(NULL, NULL, NULL);
    assert_string_equal(got, "");
    free(got);
    got = params("pts/fio-2.1.0", NULL, "");
    assert_string_equal(got, "");
    free(got);
    got = params("pts/fio-2.1.0", NULL, " - - -  -  - ");
    assert_string_equal(got, "");
    free(got);
    got = params("pts/dbench-1.0.1", "", "<b>Client Count</b>: <script>");
    assert_string_equal(got, "b_client_count_b=<script>");
    free(got);
    got = params("pts/fio-2.1.0", "", "Type: \xff\xfe - Block Size: \x01KB");
    assert_string_equal(got, "type=\xff\xfe; block_size=\x01KB");
    free(got);
    /* 100,000 pairs: linear, every one seen */
    struct pb_buf b = PB_BUF_INIT;
    for (int i = 0; i < 100000; i++)
        pb_buf_printf(&b, "%sK%d: %d", i ? " - " : "", i, i);
    got = params("pts/x-1.0", "", pb_buf_str(&b));
    size_t n = 0;
    for (const char *p = got; (p = strchr(p, '=')) != NULL; p++)
        n++;
    assert_int_equal(n, 100000);
    assert_non_null(strstr(got, "; k99999=99999"));
    free(got);
    pb_buf_release(&b);
    /* a 1 MB phrase of digits */
    size_t big = 1 << 20;
    char *s = pb_xmalloc(big + 16);
    memset(s, '9', big);
    memcpy(s + big, " Clients", 9);
    got = params("pts/dbench-1.0.1", "", s);
    assert_string_equal(got, "");
    free(got);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_hostile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
