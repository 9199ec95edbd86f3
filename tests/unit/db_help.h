/* Helpers of the model tests (test_db.c: storing, filters, attached
 * dimensions, forgetting, editing; test_db_migrate.c: schema versions and
 * migrations): a database path per process, counting and listing rows,
 * small result sets. Static and possibly unused in one of them (TH_FN). */
#ifndef PB_DB_HELP_H
#define PB_DB_HELP_H

#include "tests/unit/testhelp.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pb.h"
#include "model/db.h"

static char dbpath[64];

TH_FN int setup(void **state)
{
    (void)state;
    snprintf(dbpath, sizeof(dbpath), "/tmp/pb_test_db_%d.db", (int)getpid());
    unlink(dbpath);
    return 0;
}

TH_FN int teardown(void **state)
{
    (void)state;
    char p[80];
    unlink(dbpath);
    snprintf(p, sizeof(p), "%s-wal", dbpath);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", dbpath);
    unlink(p);
    return 0;
}

TH_FN long long count(const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(dbpath, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    long long n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(h);
    return n;
}

TH_FN struct pb_resultset *sample(const char *content)
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, "sample.json");
    s->format = "test";
    s->tool_version = pb_rs_str(s, "fio-3.33");
    s->size = strlen(content);
    pb_sha256_hex(content, strlen(content), s->sha256);
    size_t c = pb_rs_config(s, "zfs-8k");
    pb_rs_config_param(s, c, "recordsize", "8192");
    size_t t = pb_rs_test(s, "fio randread bs=4k iodepth=1", "fio");
    pb_rs_test_param(s, t, "bs", "4096");
    pb_rs_add(s, c, t, NULL, "job1", "read_iops", "ops/s", PB_DIR_HIGHER, 1416);
    pb_rs_add(s, c, t, "hostA", "job1", "read_clat_p99", "ns", PB_DIR_LOWER,
              2048000);
    struct pb_result *r =
        pb_rs_add_null(s, c, t, NULL, "job1", "seq_create", "ops/s",
                       PB_DIR_HIGHER, "+++++ (too fast to measure)");
    r->samples = 3;
    pb_rs_fact(s, NULL, "fio_version", "fio-3.33");
    return s;
}

/* A source of label with dims "key=value#origin" (origin optional) and,
 * unless `results` is 0, one read_iops result of value v. */
TH_FN struct pb_resultset *src(const char *content, const char *label,
                               const char *const *dims, int results, double v)
{
    struct pb_resultset *s = pb_resultset_new();
    s->path = pb_rs_str(s, content);
    s->format = results ? "test" : "sheet";
    s->size = strlen(content);
    pb_sha256_hex(content, strlen(content), s->sha256);
    size_t c = pb_rs_config(s, label);
    for (size_t i = 0; dims && dims[i]; i++) {
        char *k = pb_xstrdup(dims[i]);
        char *eq = strchr(k, '=');
        char *hash = strchr(k, '#');
        *eq = '\0';
        if (hash)
            *hash = '\0';
        pb_rs_config_param_origin(s, c, k, eq + 1, hash ? hash + 1 : NULL);
        free(k);
    }
    if (results) {
        size_t t = pb_rs_test(s, "fio randread bs=4k", "fio");
        pb_rs_add(s, c, t, NULL, "job", "read_iops", "ops/s", PB_DIR_HIGHER, v);
    }
    return s;
}

TH_FN void store(struct pb_db *db, struct pb_resultset *s)
{
    struct pb_err err = {0};
    assert_int_equal(pb_db_store(db, s, NULL, &err), PB_OK);
    pb_resultset_free(s);
}

/* Text of a query's rows ("a|b\n..."), from the database at path. */
TH_FN char *rows(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &q, NULL), SQLITE_OK);
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_puts(&b, "");
    while (sqlite3_step(q) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(q); i++) {
            const char *t = (const char *)sqlite3_column_text(q, i);
            pb_buf_printf(&b, "%s%s", i ? "|" : "", t ? t : "NULL");
        }
        pb_buf_putc(&b, '\n');
    }
    sqlite3_finalize(q);
    sqlite3_close(h);
    return pb_buf_take(&b);
}

#endif
