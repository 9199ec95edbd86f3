/* bench/sqlite_floor.c: the least SQLite work that storing and reading
 * back the rows of a poolbench database can cost, for issue 41 item 2
 * (what bounds ingest + report against bon_csv2html). Not built by CMake,
 * not a test; bench/sqlite_floor.sh compiles and runs it.
 *
 *   sqlite_floor SRC.db NEW.db ROWS_PER_INSERT
 *
 * Reads every row of every table of SRC.db into memory (untimed), then,
 * timed by getrusage: "store" creates NEW.db with SRC's schema, WAL and
 * synchronous=FULL as poolbench opens its databases, and inserts every
 * row in one transaction through prepared INSERTs of ROWS_PER_INSERT rows
 * (values bound from memory: no parsing, no lookups, no id caches) and
 * commits; "scan" reads every column of every row of NEW.db's result
 * table once (one SELECT, no ORDER BY). Prints "store CPU_S ROWS" and
 * "scan CPU_S ROWS" (user + sys seconds), and on stderr the store's CPU
 * per table of 10,000 rows or more and of the commit. These are floors: poolbench's
 * ingest also parses, looks up ids and checks; its report also sorts,
 * analyses and writes HTML. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct val {
    int type;
    sqlite3_int64 i;
    double d;
    char *s;
    int n;
};

struct table {
    char *name;
    int ncols;
    size_t nrows;
    struct val *v; /* nrows x ncols */
};

static void die(sqlite3 *h, const char *what)
{
    fprintf(stderr, "sqlite_floor: %s: %s\n", what, h ? sqlite3_errmsg(h) : "");
    exit(1);
}

static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
           (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static void exec(sqlite3 *h, const char *sql)
{
    if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
        die(h, sql);
}

static void load(sqlite3 *src, struct table *t)
{
    char sql[256];
    snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"", t->name);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(src, sql, -1, &q, NULL) != SQLITE_OK)
        die(src, sql);
    t->ncols = sqlite3_column_count(q);
    size_t cap = 1024;
    t->v = malloc(cap * (size_t)t->ncols * sizeof(*t->v));
    while (sqlite3_step(q) == SQLITE_ROW) {
        if (t->nrows == cap) {
            cap *= 2;
            t->v = realloc(t->v, cap * (size_t)t->ncols * sizeof(*t->v));
        }
        struct val *r = t->v + t->nrows++ * (size_t)t->ncols;
        for (int c = 0; c < t->ncols; c++) {
            struct val *x = &r[c];
            memset(x, 0, sizeof(*x));
            x->type = sqlite3_column_type(q, c);
            if (x->type == SQLITE_INTEGER)
                x->i = sqlite3_column_int64(q, c);
            else if (x->type == SQLITE_FLOAT)
                x->d = sqlite3_column_double(q, c);
            else if (x->type != SQLITE_NULL) {
                const void *b = sqlite3_column_blob(q, c);
                x->n = sqlite3_column_bytes(q, c);
                x->s = malloc((size_t)x->n + 1);
                if (x->n)
                    memcpy(x->s, b, (size_t)x->n);
                x->s[x->n] = 0;
            }
        }
    }
    sqlite3_finalize(q);
}

static sqlite3_stmt *insert_of(sqlite3 *h, const struct table *t, int rows)
{
    size_t cap = 64 + (size_t)rows * ((size_t)t->ncols * 2 + 3);
    char *sql = malloc(cap), *p = sql;
    p += sprintf(p, "INSERT INTO \"%s\" VALUES", t->name);
    for (int r = 0; r < rows; r++) {
        *p++ = r ? ',' : ' ';
        *p++ = '(';
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                *p++ = ',';
            *p++ = '?';
        }
        *p++ = ')';
    }
    *p = 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(h, sql, -1, &q, NULL) != SQLITE_OK)
        die(h, sql);
    free(sql);
    return q;
}

static void bind_row(sqlite3 *h, sqlite3_stmt *q, int at, const struct val *r,
                     int ncols)
{
    for (int c = 0; c < ncols; c++) {
        int k = at + c + 1, rc = SQLITE_OK;
        const struct val *x = &r[c];
        if (x->type == SQLITE_INTEGER)
            rc = sqlite3_bind_int64(q, k, x->i);
        else if (x->type == SQLITE_FLOAT)
            rc = sqlite3_bind_double(q, k, x->d);
        else if (x->type == SQLITE_TEXT)
            rc = sqlite3_bind_text(q, k, x->s, x->n, SQLITE_STATIC);
        else if (x->type == SQLITE_BLOB)
            rc = sqlite3_bind_blob(q, k, x->s, x->n, SQLITE_STATIC);
        else
            rc = sqlite3_bind_null(q, k);
        if (rc != SQLITE_OK)
            die(h, "bind");
    }
}

static void store(sqlite3 *h, const struct table *t, int per)
{
    sqlite3_stmt *many = insert_of(h, t, per), *one = insert_of(h, t, 1);
    size_t i = 0;
    for (; i + (size_t)per <= t->nrows; i += (size_t)per) {
        for (int r = 0; r < per; r++)
            bind_row(h, many, r * t->ncols, t->v + (i + (size_t)r) * (size_t)t->ncols,
                     t->ncols);
        if (sqlite3_step(many) != SQLITE_DONE)
            die(h, t->name);
        sqlite3_reset(many);
    }
    for (; i < t->nrows; i++) {
        bind_row(h, one, 0, t->v + i * (size_t)t->ncols, t->ncols);
        if (sqlite3_step(one) != SQLITE_DONE)
            die(h, t->name);
        sqlite3_reset(one);
    }
    sqlite3_finalize(many);
    sqlite3_finalize(one);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: sqlite_floor SRC.db NEW.db ROWS_PER_INSERT\n");
        return 2;
    }
    int per = atoi(argv[3]);
    if (per < 1 || per > 256)
        per = 64;
    sqlite3 *src, *h;
    if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(src, argv[1]);
    sqlite3_stmt *q;
    /* tables in rowid order of sqlite_schema: parents before children */
    if (sqlite3_prepare_v2(src,
                           "SELECT name, sql FROM sqlite_schema WHERE sql IS "
                           "NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY "
                           "type = 'table' DESC, rowid",
                           -1, &q, NULL) != SQLITE_OK)
        die(src, "schema");
    struct table *tabs = NULL;
    size_t ntabs = 0;
    char **ddl = NULL;
    size_t nddl = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        ddl = realloc(ddl, (nddl + 1) * sizeof(*ddl));
        ddl[nddl++] = strdup((const char *)sqlite3_column_text(q, 1));
        if (!strncmp(ddl[nddl - 1], "CREATE TABLE", 12)) {
            tabs = realloc(tabs, (ntabs + 1) * sizeof(*tabs));
            memset(&tabs[ntabs], 0, sizeof(*tabs));
            tabs[ntabs++].name = strdup((const char *)sqlite3_column_text(q, 0));
        }
    }
    sqlite3_finalize(q);
    size_t nall = 0;
    for (size_t i = 0; i < ntabs; i++) {
        load(src, &tabs[i]);
        nall += tabs[i].nrows;
    }
    sqlite3_close(src);

    double t0 = cpu_now();
    if (sqlite3_open(argv[2], &h) != SQLITE_OK)
        die(h, argv[2]);
    exec(h, "PRAGMA journal_mode=WAL");
    exec(h, "PRAGMA synchronous=FULL");
    exec(h, "BEGIN");
    for (size_t i = 0; i < nddl; i++)
        exec(h, ddl[i]);
    for (size_t i = 0; i < ntabs; i++) {
        double a = cpu_now();
        store(h, &tabs[i], per);
        if (tabs[i].nrows >= 10000)
            fprintf(stderr, "  %s: %zu rows, %.2f s\n", tabs[i].name,
                    tabs[i].nrows, cpu_now() - a);
    }
    double c0 = cpu_now();
    exec(h, "COMMIT");
    fprintf(stderr, "  commit: %.2f s\n", cpu_now() - c0);
    c0 = cpu_now();
    sqlite3_close(h); /* checkpoints the WAL into the file, as poolbench's
                         last connection does */
    double t1 = cpu_now();
    fprintf(stderr, "  close (checkpoint): %.2f s\n", t1 - c0);
    printf("store %.2f %zu\n", t1 - t0, nall);

    if (sqlite3_open_v2(argv[2], &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die(h, argv[2]);
    double t2 = cpu_now();
    if (sqlite3_prepare_v2(h, "SELECT * FROM result", -1, &q, NULL) != SQLITE_OK)
        die(h, "scan");
    size_t nrows = 0;
    double sum = 0;
    int nc = sqlite3_column_count(q);
    while (sqlite3_step(q) == SQLITE_ROW) {
        nrows++;
        for (int c = 0; c < nc; c++)
            sum += sqlite3_column_double(q, c);
    }
    sqlite3_finalize(q);
    double t3 = cpu_now();
    sqlite3_close(h);
    printf("scan %.2f %zu (checksum %g)\n", t3 - t2, nrows, sum);
    return 0;
}
