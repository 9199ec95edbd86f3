/* The fields of a Phoronix Test Suite result XML (collected by
 * ingest/pts/pts_xml.c) into the result set.
 *
 * Mapping:
 *   - config and host = the <System>/<Entry> <Identifier>; the system's
 *     Hardware/Software strings become facts of that host, split at
 *     ", <PTS key>: " (keys from phodevi: Processor, Disk, OS, Kernel,
 *     File-System, ...) so that commas inside values are kept; also facts
 *     user, timestamp, test_client_version, notes and the string members
 *     of the system's <JSON> (disk-scheduler, disk-mount-options, ...).
 *   - test = "<Title>: <Description> (<Scale>)" (Arguments when the
 *     description is empty), tool = the result <Identifier> ("pts/fio-2.1.0").
 *     The scale is in the name because PTS writes one <Result> per scale for
 *     the same description (fio: MB/s and IOPS; openssl: sign/s, verify/s).
 *     test_param: the description decomposed by ingest/pts/pts_desc.c
 *     (storage profiles with poolbench's keys: rw, bs, ioengine, clients,
 *     ...; other "Key: Value" pairs in lower_snake_case; at most 64),
 *     app_version, scale, arguments.
 *   - one metric "value" per <Entry> in the result's own scale (unit = the
 *     Scale as given, none when empty); HIB -> higher, LIB -> lower, anything
 *     else higher (as PTS does); samples and stderr (sample standard
 *     deviation / sqrt(n)) from the ':'-separated <RawString> per-run values,
 *     which are kept as the result's samples (pb_rs_samples) when 2+.
 *     An empty <Value> is stored as NULL with the reason from the entry's
 *     JSON "error" (a failed run), or "no value recorded".
 *   - <Result>s with an empty <Identifier> that are PTS's "Test Install
 *     Time"/"Test Install Size" pseudo-results are skipped: they are not
 *     benchmarks. When one <Result> holds several entries of one system,
 *     each gets job "entry N"; otherwise job is NULL.
 *   - facts without host: title, description, last_modified, test_client;
 *     tool_version "pts-<version>" from <TestClient> or the leading comment.
 */
#include "ingest/pts/pts_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ==== numbers ==== */

/* A plain decimal number: sign, digits, point, exponent; nothing else. */
static int strict_num(const char *s, size_t n, double *out)
{
    size_t i = 0, digits = 0;
    char tmp[128];
    if (n == 0 || n >= sizeof(tmp))
        return -1;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (i < n && isdigit((unsigned char)s[i])) {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && isdigit((unsigned char)s[i])) {
            i++;
            digits++;
        }
    }
    if (!digits)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= n || !isdigit((unsigned char)s[i]))
            return -1;
        while (i < n && isdigit((unsigned char)s[i]))
            i++;
    }
    if (i != n)
        return -1;
    /* most values ("4260.49") convert exactly without strtod, which was a
     * tenth of the ingest of a 10 MB result file */
    if (pb_dec_fast(s, n, out) == 0)
        return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    *out = strtod(tmp, NULL);
    return 0;
}

/* Per-run values "a:b:c": count, and standard error of the mean when
 * there are two or more; *vals gets the values (caller frees; NULL when
 * 0 is returned). Returns 0 when any part is not a finite number. */
static long raw_stats(const char *raw, double *se, int *has_se,
                      double **vals)
{
    *has_se = 0;
    *vals = NULL;
    if (!*raw)
        return 0;
    size_t cap = 0, n = 0;
    double *v = NULL;
    const char *p = raw;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        const char *q = p;
        while (len > 0 && isspace((unsigned char)*q)) {
            q++;
            len--;
        }
        while (len > 0 && isspace((unsigned char)q[len - 1]))
            len--;
        double d;
        if (strict_num(q, len, &d) != 0 || !isfinite(d)) {
            free(v);
            return 0;
        }
        PB_GROW(v, cap, n + 1);
        v[n++] = d;
        if (!colon)
            break;
        p = colon + 1;
    }
    if (n >= 2) {
        /* shifted by the first value: equal runs give exactly 0 */
        double mean = 0, ss = 0;
        for (size_t i = 0; i < n; i++)
            mean += v[i] - v[0];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            ss += (v[i] - v[0] - mean) * (v[i] - v[0] - mean);
        double s = sqrt(ss / (double)(n - 1)) / sqrt((double)n);
        if (isfinite(s)) {
            *se = s;
            *has_se = 1;
        }
    }
    *vals = v;
    return (long)n;
}

/* ==== systems ==== */

static const char *const hw_sw_keys[] = {
    /* phodevi_base: available_hardware_devices() */
    "Processor", "Motherboard", "Chipset", "Memory", "Disk", "Graphics",
    "Audio", "Monitor", "Network", "NPU",
    /* available_software_components() */
    "OS", "Kernel", "Desktop", "Display Server", "Display Driver", "OpenGL",
    "OpenCL", "Vulkan", "Compiler", "File-System", "Screen Resolution",
    "System Layer", NULL};

/* Length of the known key at p when p is "<key>: ", else 0. */
static size_t known_key(const char *p)
{
    for (size_t i = 0; hw_sw_keys[i]; i++) {
        size_t n = strlen(hw_sw_keys[i]);
        if (strncmp(p, hw_sw_keys[i], n) == 0 && p[n] == ':' && p[n + 1] == ' ')
            return n;
    }
    return 0;
}

/* "Processor: X (4 Cores), Memory: 8GB, ..." -> facts of host. */
static void split_components(struct ctx *c, const char *host, const char *s,
                             const char *whole_key)
{
    if (!*s)
        return;
    const char *colon = strstr(s, ": ");
    if (!colon) {
        pb_rs_fact(c->set, host, whole_key, s);
        return;
    }
    const char *key = s;
    size_t klen = (size_t)(colon - s);
    const char *val = colon + 2;
    for (;;) {
        /* the value ends where ", <known key>: " follows */
        const char *p = val, *next = NULL;
        size_t nk = 0;
        while ((p = strstr(p, ", ")) != NULL) {
            nk = known_key(p + 2);
            if (nk) {
                next = p;
                break;
            }
            p += 2;
        }
        size_t vlen = next ? (size_t)(next - val) : strlen(val);
        char *k = pb_arena_strndup(&c->tmp, key, klen);
        char *v = pb_arena_strndup(&c->tmp, val, vlen);
        if (*k && *v)
            pb_rs_fact(c->set, host, k, v);
        if (!next)
            break;
        key = next + 2;
        klen = nk;
        val = key + nk + 2;
    }
}

static void system_json(struct ctx *c, const char *host, const char *js)
{
    if (!*js)
        return;
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    if (!json_is_object(root)) {
        json_decref(root);
        return;
    }
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val)
    {
        if (json_is_string(val) && *json_string_value(val) && *key)
            pb_rs_fact(c->set, host, key, json_string_value(val));
    }
    json_decref(root);
}

void pb_pts_emit_system(struct ctx *c)
{
    const char *host = nz(c->s_ident);
    if (!c->first_system_tcv && c->s_tcv)
        c->first_system_tcv = pb_arena_strdup(&c->doc, c->s_tcv);
    if (!*host)
        return;
    split_components(c, host, nz(c->s_hw), "hardware");
    split_components(c, host, nz(c->s_sw), "software");
    const struct {
        const char *value, *key;
    } more[] = {
        {c->s_user, "user"},
        {c->s_time, "timestamp"},
        {c->s_tcv, "test_client_version"},
        {c->s_notes, "notes"},
    };
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
        if (more[i].value && *more[i].value)
            pb_rs_fact(c->set, host, more[i].key, more[i].value);
    system_json(c, host, nz(c->s_json));
}

/* ==== generated ==== */

/* "Phoronix Test Suite v5.6.0 (Dedilovo)" -> "5.6.0"; NULL if none. */
static char *pts_version(struct ctx *c, const char *s)
{
    for (const char *p = s; p && *p; p++) {
        if ((p == s || p[-1] == ' ') && *p == 'v' &&
            isdigit((unsigned char)p[1])) {
            size_t n = 1;
            while (isalnum((unsigned char)p[n]) || p[n] == '.' || p[n] == '-')
                n++;
            return pb_arena_strndup(&c->tmp, p + 1, n - 1);
        }
    }
    return NULL;
}

void pb_pts_emit_generated(struct ctx *c)
{
    const struct {
        const char *value, *key;
    } keys[] = {
        {c->g_title, "title"},
        {c->g_desc, "description"},
        {c->g_modified, "last_modified"},
        {c->g_client, "test_client"},
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (keys[i].value && *keys[i].value)
            pb_rs_fact(c->set, NULL, keys[i].key, keys[i].value);
    if (!c->test_client && c->g_client)
        c->test_client = pb_arena_strdup(&c->doc, c->g_client);
}

/* tool_version from <TestClient>, else the leading comment, else the first
 * system's <TestClientVersion>. */
void pb_pts_tool_version(struct ctx *c)
{
    const char *ver = pts_version(c, c->test_client);
    if (!ver)
        ver = pts_version(c, c->comment_version);
    if (!ver && c->first_system_tcv &&
        isdigit((unsigned char)*c->first_system_tcv))
        ver = c->first_system_tcv;
    if (ver)
        c->set->tool_version = pb_arena_printf(&c->set->arena, "pts-%s", ver);
}

int pb_pts_version_known(struct ctx *c)
{
    /* the first <TestClient> wins, and the comment comes before the
     * root; the system's only counts without either */
    if (!c->test_client)
        return 0;
    return pts_version(c, c->test_client) ||
           pts_version(c, c->comment_version) || c->first_system_tcv;
}

/* ==== results ==== */

static int is_install_pseudo(const char *desc, const char *args)
{
    return !strncmp(desc, "Test Install ", 13) ||
           !strncmp(args, "test install ", 13);
}

/* Parameters taken from one description: real ones have up to ~8; a
 * hostile one of 100,000 pairs would make storing them quadratic. The
 * rest stay in the test name. */
#define MAX_DESC_PARAMS 64

struct param_ctx {
    struct pb_arena *a;
    struct pb_kv *kv;
    size_t n, cap, ndesc;
};

static void put_param(struct param_ctx *p, const char *key, const char *value)
{
    PB_GROW(p->kv, p->cap, p->n + 1);
    p->kv[p->n].key = pb_arena_strdup(p->a, key);
    p->kv[p->n].value = pb_arena_strdup(p->a, value);
    p->kv[p->n].origin = NULL;
    p->n++;
}

static void add_param(void *ctx, const char *key, const char *value)
{
    struct param_ctx *p = ctx;
    if (p->ndesc++ < MAX_DESC_PARAMS)
        put_param(p, key, value);
}

static const char *entry_failure(struct ctx *c, const char *js)
{
    const char *reason = "no value recorded";
    if (!*js)
        return reason;
    json_error_t je;
    json_t *root = json_loads(js, 0, &je);
    const json_t *e = json_is_object(root) ? json_object_get(root, "error")
                                           : NULL;
    if (json_is_string(e) && *json_string_value(e))
        reason = pb_arena_strdup(&c->tmp, json_string_value(e));
    json_decref(root);
    return reason;
}

static void emit_entry(struct ctx *c, size_t test, const char *unit, int dir,
                       const struct entry *e, const char *job)
{
    const char *host = *e->ident ? e->ident : NULL;
    size_t config = pb_rs_config(c->set, host ? host : "unnamed system");
    struct pb_resultset *set = c->set;
    double v;
    if (!*e->value) {
        pb_rs_add_null(set, config, test, host, job, "value", unit, dir,
                       entry_failure(c, e->json));
        return;
    }
    if (strict_num(e->value, strlen(e->value), &v) != 0) {
        char *why = pb_arena_printf(&c->tmp, "value \"%.60s\" is not a number",
                                    e->value);
        pb_rs_add_null(set, config, test, host, job, "value", unit, dir, why);
        return;
    }
    if (!isfinite(v)) {
        char *why = pb_arena_printf(&c->tmp, "value \"%.60s\" is out of range",
                                    e->value);
        pb_rs_add_null(set, config, test, host, job, "value", unit, dir, why);
        return;
    }
    double se = 0;
    int has_se = 0;
    double *vals;
    long n = raw_stats(e->raw, &se, &has_se, &vals);
    struct pb_result *r =
        pb_rs_add(set, config, test, host, job, "value", unit, dir, v);
    r->samples = n;
    r->has_stderr = has_se;
    r->stderr_ = has_se ? se : 0;
    pb_rs_samples(set, r, vals, (size_t)n);
    free(vals);
}

static int cmp_by_ident(const void *a, const void *b)
{
    const struct entry *x = *(const struct entry *const *)a;
    const struct entry *y = *(const struct entry *const *)b;
    int r = strcmp(x->ident, y->ident);
    if (r)
        return r;
    return x < y ? -1 : x > y;
}

/* Each entry's rank among the entries of its system (nth, 1-based) and
 * their number (total): by sorting, not by comparing every pair (a merged
 * result can hold tens of thousands of entries). */
static void number_entries(struct ctx *c)
{
    size_t n = c->nentries;
    struct entry **by = pb_xmalloc((n + 1) * sizeof(*by));
    for (size_t i = 0; i < n; i++)
        by[i] = &c->entries[i];
    qsort(by, n, sizeof(*by), cmp_by_ident);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(by[j]->ident, by[i]->ident))
            j++;
        for (size_t k = i; k < j; k++) {
            by[k]->nth = k - i + 1;
            by[k]->total = j - i;
        }
        i = j;
    }
    free(by);
}

void pb_pts_emit_result(struct ctx *c)
{
    const char *ident = nz(c->r_ident), *title = nz(c->r_title),
               *appver = nz(c->r_appver), *args = nz(c->r_args),
               *desc = nz(c->r_desc), *scale = nz(c->r_scale),
               *prop = nz(c->r_prop);
    if (!*ident && is_install_pseudo(desc, args))
        return;
    if (c->nentries == 0)
        return;

    struct pb_buf name = PB_BUF_INIT;
    pb_buf_puts(&name, *title ? title : *ident ? ident : "untitled");
    const char *what = *desc ? desc : args;
    if (*what)
        pb_buf_printf(&name, ": %s", what);
    if (*scale)
        pb_buf_printf(&name, " (%s)", scale);
    /* a test is its tool, name and parameters (pb_rs_test_kv): results
     * of one name with other parameters (another app_version) are
     * another test, in one part of a streamed file or in two */
    struct param_ctx pc = {&c->tmp, NULL, 0, 0, 0};
    pb_pts_desc_params(ident, title, desc, add_param, &pc);
    if (*appver)
        put_param(&pc, "app_version", appver);
    if (*scale)
        put_param(&pc, "scale", scale);
    if (*args)
        put_param(&pc, "arguments", args);
    size_t test = pb_rs_test_kv(c->set, pb_buf_str(&name),
                                *ident ? ident : "pts", pc.kv, pc.n);
    pb_buf_release(&name);
    free(pc.kv);

    int dir = strcmp(prop, "LIB") == 0 ? PB_DIR_LOWER : PB_DIR_HIGHER;
    const char *unit = *scale ? scale : NULL;
    number_entries(c);
    for (size_t i = 0; i < c->nentries; i++) {
        const struct entry *e = &c->entries[i];
        char job[32];
        if (e->total > 1)
            snprintf(job, sizeof(job), "entry %zu", e->nth);
        emit_entry(c, test, unit, dir, e, e->total > 1 ? job : NULL);
    }
}
