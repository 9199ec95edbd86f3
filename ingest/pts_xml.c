/* Phoronix Test Suite / OpenBenchmarking result XML (composite.xml, test-N.xml,
 * active.xml; PTS 5.x to 10.x) into a result set.
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
 *     test_param: the description decomposed by ingest/pts_desc.c
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
 *   - lines before the XML (a shell prompt) and text after the closing root
 *     tag are skipped; line numbers in errors count them.
 *
 * Safety: libxml2 runs as a SAX2 stream (no tree: memory stays near the
 * size of one <Result>, whatever the file size), without network, without
 * entity substitution and without DTD loading; any DOCTYPE stops the parser
 * at once, so an XXE or billion-laughs file is refused before its
 * declarations are read.
 */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)
#define START_SCAN ((size_t)65536)

static const char ROOT[] = "PhoronixTestSuite";
#define ROOT_LEN (sizeof(ROOT) - 1)

/* ==== prolog scanning (sniff, and where the document starts) ==== */

static int starts(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

static const char *find_str(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    for (; (size_t)(end - p) >= n; p++) {
        p = memchr(p, s[0], (size_t)(end - p));
        if (!p || (size_t)(end - p) < n)
            return NULL;
        if (memcmp(p, s, n) == 0)
            return p;
    }
    return NULL;
}

/* End of a DOCTYPE declaration starting at p ("<!DOCTYPE"), or NULL. */
static const char *skip_doctype(const char *p, const char *end)
{
    char quote = 0;
    int subset = 0;
    for (p += 9; p < end; p++) {
        char c = *p;
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '[') {
            subset = 1;
        } else if (c == ']') {
            subset = 0;
        } else if (c == '>' && !subset) {
            return p + 1;
        }
    }
    return NULL;
}

/* From p, skip white space, the XML declaration, processing instructions,
 * comments and a DOCTYPE. Returns the first other byte, or NULL when the
 * prolog does not end within [p, end). *doctype gets the DOCTYPE, if any. */
static const char *skip_prolog(const char *p, const char *end,
                               const char **doctype)
{
    if (p == end)
        return NULL;
    if (starts(p, end, "\xEF\xBB\xBF"))
        p += 3;
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end)
            return NULL;
        const char *q;
        if (starts(p, end, "<?")) {
            q = find_str(p + 2, end, "?>");
            if (!q)
                return NULL;
            p = q + 2;
        } else if (starts(p, end, "<!--")) {
            q = find_str(p + 4, end, "-->");
            if (!q)
                return NULL;
            p = q + 3;
        } else if (starts(p, end, "<!DOCTYPE")) {
            if (doctype && !*doctype)
                *doctype = p;
            p = skip_doctype(p, end);
            if (!p)
                return NULL;
        } else {
            return p;
        }
    }
}

static int is_root(const char *p, const char *end)
{
    if (!p || p >= end || *p != '<' || !starts(p + 1, end, ROOT))
        return 0;
    const char *q = p + 1 + ROOT_LEN;
    return q == end || *q == '>' || *q == '/' || isspace((unsigned char)*q);
}

/* Offset where the PTS document starts: 0, or the start of a later line
 * (after junk such as a shell prompt) beginning with "<?xml" or the root.
 * (size_t)-1 when there is none. *junk tells which. */
static size_t find_start(const char *buf, size_t len, int *junk)
{
    const char *end = buf + len;
    *junk = 0;
    if (is_root(skip_prolog(buf, end, NULL), end))
        return 0;
    const char *p = buf;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        p = nl + 1;
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if ((starts(q, end, "<?xml") || is_root(q, end)) &&
            is_root(skip_prolog(q, end, NULL), end)) {
            *junk = 1;
            return (size_t)(q - buf);
        }
    }
    return (size_t)-1;
}

/* ==== sniff ==== */

static int pts_sniff(const char *buf, size_t len)
{
    if (len > SNIFF_SCAN)
        len = SNIFF_SCAN;
    int junk;
    size_t start = find_start(buf, len, &junk);
    if (start == (size_t)-1)
        return 0;
    return junk ? 70 : 95;
}

/* ==== parse state ==== */

/* Longest text kept for one element; more is refused (no PTS field is
 * anywhere near it). */
#define MAX_TEXT ((size_t)1 << 20)

enum section { S_NONE, S_GENERATED, S_SYSTEM, S_RESULT, S_OTHER };

struct entry {
    const char *ident, *value, *raw, *json;
    size_t nth, total; /* among the entries of this system in the result */
};

struct ctx {
    const char *path;
    struct pb_resultset *set;
    struct pb_err *err;
    xmlParserCtxtPtr pc;
    long line_off;       /* lines of junk before the document */
    struct pb_arena doc; /* strings kept for the whole parse */
    struct pb_arena tmp; /* strings of the current System or Result */

    /* what the stream showed */
    int doctype, entity_ref, too_long, bad_root;
    long doctype_line, stop_line, root_line, first_result_line;
    char root_name[96], first_child[96];
    int seen_root, nresult_elems, nsystem_elems, ngenerated_elems;
    struct {                     /* libxml2's first fatal error */
        int set, code, line, col, int1;
        char str1[96], msg[200];
    } xerr;
    const char *comment_version; /* "<!--Phoronix Test Suite v..-->" */
    const char *test_client, *first_system_tcv;

    /* where we are */
    int depth;
    struct {
        const xmlChar *name; /* from libxml2's dictionary */
        long line;
    } open[32]; /* open elements by depth, for "truncated" messages */
    enum section sec;
    int in_data, in_entry;
    int collect_depth; /* depth of the element whose text is collected */
    const char **slot; /* where that text goes */
    const char *slot_name;
    struct pb_buf text;

    /* fields of the current element */
    const char *g_title, *g_desc, *g_modified, *g_client;
    const char *s_ident, *s_hw, *s_sw, *s_user, *s_time, *s_tcv, *s_notes,
        *s_json;
    const char *r_ident, *r_title, *r_appver, *r_args, *r_desc, *r_scale,
        *r_prop;
    struct entry cur;
    struct entry *entries;
    size_t nentries, capentries;
};

static const char *nz(const char *s)
{
    return s ? s : "";
}

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

static void emit_system(struct ctx *c)
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

static void emit_generated(struct ctx *c)
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
static void set_tool_version(struct ctx *c)
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
    struct pb_resultset *set;
    size_t test, n;
};

static void add_param(void *ctx, const char *key, const char *value)
{
    struct param_ctx *p = ctx;
    if (p->n++ < MAX_DESC_PARAMS)
        pb_rs_test_param(p->set, p->test, key, value);
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

static void emit_result(struct ctx *c)
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
    size_t test = pb_rs_test(c->set, pb_buf_str(&name), *ident ? ident : "pts");
    pb_buf_release(&name);
    struct param_ctx pc = {c->set, test, 0};
    pb_pts_desc_params(ident, title, desc, add_param, &pc);
    if (*appver)
        pb_rs_test_param(c->set, test, "app_version", appver);
    if (*scale)
        pb_rs_test_param(c->set, test, "scale", scale);
    if (*args)
        pb_rs_test_param(c->set, test, "arguments", args);

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

/* ==== SAX callbacks ==== */

static long cur_line(const struct ctx *c)
{
    long l = c->pc && c->pc->input ? c->pc->input->line : 0;
    return l > 0 ? l + c->line_off : 0;
}

static void stop(struct ctx *c)
{
    if (!c->stop_line)
        c->stop_line = cur_line(c);
    xmlStopParser(c->pc);
}

static void set_name(char *dst, size_t n, const xmlChar *name)
{
    snprintf(dst, n, "%s", (const char *)name);
}

/* The slot for a field element at the current place, or NULL. */
static const char **field_slot(struct ctx *c, const char *name)
{
#define F(n, field)                                                           \
    if (!strcmp(name, n))                                                     \
    return &c->field
    if (c->sec == S_GENERATED && c->depth == 3) {
        F("Title", g_title);
        F("Description", g_desc);
        F("LastModified", g_modified);
        F("TestClient", g_client);
    } else if (c->sec == S_SYSTEM && c->depth == 3) {
        F("Identifier", s_ident);
        F("Hardware", s_hw);
        F("Software", s_sw);
        F("User", s_user);
        F("TimeStamp", s_time);
        F("TestClientVersion", s_tcv);
        F("Notes", s_notes);
        F("JSON", s_json);
    } else if (c->sec == S_RESULT && c->depth == 3) {
        F("Identifier", r_ident);
        F("Title", r_title);
        F("AppVersion", r_appver);
        F("Arguments", r_args);
        F("Description", r_desc);
        F("Scale", r_scale);
        F("Proportion", r_prop);
    } else if (c->in_entry && c->depth == 5) {
        F("Identifier", cur.ident);
        F("Value", cur.value);
        F("RawString", cur.raw);
        F("JSON", cur.json);
    }
    return NULL;
#undef F
}

static void reset_element(struct ctx *c)
{
    c->s_ident = c->s_hw = c->s_sw = c->s_user = c->s_time = c->s_tcv =
        c->s_notes = c->s_json = NULL;
    c->r_ident = c->r_title = c->r_appver = c->r_args = c->r_desc =
        c->r_scale = c->r_prop = NULL;
    c->g_title = c->g_desc = c->g_modified = c->g_client = NULL;
    c->nentries = 0;
    c->in_data = c->in_entry = 0;
    pb_arena_release(&c->tmp);
    pb_arena_init(&c->tmp);
}

static void on_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns,
                     int nattr, int ndef, const xmlChar **attrs)
{
    (void)uri;
    (void)nns;
    (void)ns;
    (void)nattr;
    (void)ndef;
    (void)attrs;
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    const char *name = prefix ? "" : (const char *)local;
    c->depth++;
    if (c->depth < (int)(sizeof(c->open) / sizeof(c->open[0]))) {
        c->open[c->depth].name = local;
        c->open[c->depth].line = cur_line(c);
    }
    if (c->depth == 1) {
        c->seen_root = 1;
        c->root_line = cur_line(c);
        set_name(c->root_name, sizeof(c->root_name), local);
        /* not stopped here: a cut-off root start tag must be called
         * truncated, not a foreign root */
        if (prefix || strcmp(name, "PhoronixTestSuite") != 0)
            c->bad_root = 1;
        return;
    }
    if (c->bad_root)
        return;
    if (c->depth == 2) {
        if (!c->first_child[0])
            set_name(c->first_child, sizeof(c->first_child), local);
        if (!strcmp(name, "Generated")) {
            c->sec = S_GENERATED;
            c->ngenerated_elems++;
        } else if (!strcmp(name, "System")) {
            c->sec = S_SYSTEM;
            c->nsystem_elems++;
        } else if (!strcmp(name, "Result")) {
            c->sec = S_RESULT;
            if (!c->nresult_elems++)
                c->first_result_line = cur_line(c);
        } else {
            c->sec = S_OTHER;
        }
        reset_element(c);
        return;
    }
    if (c->sec == S_RESULT && c->depth == 3 && !strcmp(name, "Data")) {
        c->in_data = 1;
        return;
    }
    if (c->in_data && c->depth == 4 && !strcmp(name, "Entry")) {
        c->in_entry = 1;
        memset(&c->cur, 0, sizeof(c->cur));
        return;
    }
    if (c->collect_depth)
        return; /* an element inside a field: its text is not the field's */
    const char **slot = field_slot(c, name);
    if (slot && !*slot) {
        c->collect_depth = c->depth;
        c->slot = slot;
        c->slot_name = *name ? name : "?";
        pb_buf_reset(&c->text);
    }
}

static void on_chars(void *ctx, const xmlChar *ch, int len)
{
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    if (!c->collect_depth || c->depth != c->collect_depth || len <= 0)
        return;
    if (c->text.len + (size_t)len > MAX_TEXT) {
        c->too_long = 1;
        stop(c);
        return;
    }
    pb_buf_add(&c->text, (const char *)ch, (size_t)len);
}

static void on_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
                   const xmlChar *uri)
{
    (void)local;
    (void)prefix;
    (void)uri;
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    if (c->bad_root) {
        c->depth--;
        return;
    }
    if (c->collect_depth && c->depth == c->collect_depth) {
        const char *s = pb_buf_str(&c->text);
        size_t n = c->text.len;
        while (n > 0 && isspace((unsigned char)*s)) {
            s++;
            n--;
        }
        while (n > 0 && isspace((unsigned char)s[n - 1]))
            n--;
        *c->slot = pb_arena_strndup(&c->tmp, s, n);
        c->collect_depth = 0;
        c->slot = NULL;
    } else if (c->in_entry && c->depth == 4) {
        c->in_entry = 0;
        PB_GROW(c->entries, c->capentries, c->nentries + 1);
        struct entry *e = &c->entries[c->nentries++];
        e->ident = nz(c->cur.ident);
        e->value = nz(c->cur.value);
        e->raw = nz(c->cur.raw);
        e->json = nz(c->cur.json);
    } else if (c->in_data && c->depth == 3) {
        c->in_data = 0;
    } else if (c->depth == 2) {
        if (c->sec == S_GENERATED)
            emit_generated(c);
        else if (c->sec == S_SYSTEM)
            emit_system(c);
        else if (c->sec == S_RESULT)
            emit_result(c);
        c->sec = S_NONE;
        reset_element(c);
    }
    c->depth--;
}

/* Keep the first fatal error: later ones are often its consequences
 * (a mismatched tag ends as "premature end of data"). */
static void on_error(void *ctx, xmlErrorPtr xe)
{
    xmlParserCtxtPtr pc = ctx;
    struct ctx *c = pc ? pc->_private : NULL;
    if (!c || !xe || xe->level != XML_ERR_FATAL || c->xerr.set)
        return;
    c->xerr.set = 1;
    c->xerr.code = xe->code;
    c->xerr.line = xe->line;
    c->xerr.col = xe->int2;
    c->xerr.int1 = xe->int1;
    snprintf(c->xerr.str1, sizeof(c->xerr.str1), "%s",
             xe->str1 ? xe->str1 : "");
    snprintf(c->xerr.msg, sizeof(c->xerr.msg), "%s",
             xe->message ? xe->message : "parse error");
}

/* Called on <!DOCTYPE ...> before its internal subset is read: stop there
 * so no entity is ever declared, loaded or expanded. */
static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext_id,
                       const xmlChar *sys_id)
{
    (void)name;
    (void)ext_id;
    (void)sys_id;
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    c->doctype = 1;
    c->doctype_line = cur_line(c);
    stop(c);
}

/* An entity reference that was not substituted (cannot happen without a
 * DTD, but no entity text may ever reach the set). */
static void on_reference(void *ctx, const xmlChar *name)
{
    (void)name;
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    c->entity_ref = 1;
    stop(c);
}

static void on_comment(void *ctx, const xmlChar *value)
{
    struct ctx *c = ((xmlParserCtxtPtr)ctx)->_private;
    if (c->depth == 0 && !c->comment_version && value &&
        strstr((const char *)value, "Phoronix Test Suite"))
        c->comment_version = pb_arena_strdup(&c->doc, (const char *)value);
}

/* ==== parse ==== */

/* "Premature end of data in tag B line 4\n" -> "premature end of data in
 * tag B line 4". */
static const char *xml_msg(struct ctx *c, const char *m)
{
    size_t n = strlen(m);
    while (n > 0 && (isspace((unsigned char)m[n - 1]) || m[n - 1] == '.'))
        n--;
    char *s = pb_arena_strndup(&c->tmp, m, n);
    if (s[0] && isupper((unsigned char)s[0]) && !isupper((unsigned char)s[1]))
        s[0] = (char)tolower((unsigned char)s[0]);
    return s;
}

/* The stream stopped at the end of the input with elements still open:
 * name the innermost one. */
static int truncated(struct ctx *c, const char *buf, size_t start,
                     size_t end, long line, long col)
{
    if (c->depth < 1 || !c->xerr.set)
        return 0;
    size_t last = end;
    while (last > start && isspace((unsigned char)buf[last - 1]))
        last--;
    if (last == start || line < pb_line_of(buf, last - 1))
        return 0;
    if (find_str(buf + start, buf + end, "</PhoronixTestSuite"))
        return 0;
    int d = c->depth;
    int max = (int)(sizeof(c->open) / sizeof(c->open[0])) - 1;
    if (d > max)
        d = max;
    /* "<Descri" at the end: libxml2 reported the start of an element
     * whose start tag never ended; the file ends inside its parent */
    const char *lt = buf + last - 1;
    while (lt > buf + start && *lt != '<' && *lt != '>')
        lt--;
    if (*lt == '<') {
        const char *nm = lt + 1, *ne = nm;
        while (ne < buf + last && !isspace((unsigned char)*ne) && *ne != '>' &&
               *ne != '/')
            ne++;
        const char *oname = (const char *)c->open[d].name;
        if (ne > nm && strlen(oname) == (size_t)(ne - nm) &&
            !memcmp(oname, nm, (size_t)(ne - nm)))
            d--;
    }
    if (d < 1) {
        pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                   "truncated XML: the file ends inside the root start tag");
        return 1;
    }
    pb_err_set(c->err, PB_EINPUT, c->path, line, col,
               "truncated XML: the file ends inside \"%s\" (opened on "
               "line %ld)",
               (const char *)c->open[d].name, c->open[d].line);
    return 1;
}

static int xml_error(struct ctx *c, const char *buf, size_t start,
                     size_t end, long col_off)
{
    if (!c->xerr.set) { /* no fatal error was reported: use the last one */
        const xmlError *xe = xmlCtxtGetLastError(c->pc);
        c->xerr.code = xe ? xe->code : 0;
        c->xerr.line = xe ? xe->line : 0;
        c->xerr.col = xe ? xe->int2 : 0;
        snprintf(c->xerr.msg, sizeof(c->xerr.msg), "%s",
                 xe && xe->message ? xe->message : "parse error");
    }
    long line = c->xerr.line > 0 ? c->xerr.line : 0;
    long col = c->xerr.col > 0 ? c->xerr.col : 0;
    if (line == 1 && col > 0)
        col += col_off;
    if (line > 0)
        line += c->line_off;
    if (truncated(c, buf, start, end, line, col))
        return c->err->code;
    if (c->xerr.code == XML_ERR_TAG_NOT_FINISHED && c->xerr.str1[0])
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "truncated XML: element \"%s\" (line %ld) is "
                          "not closed",
                          c->xerr.str1, (long)c->xerr.int1 + c->line_off);
    if (c->xerr.code == XML_ERR_DOCUMENT_EMPTY)
        return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                          "no XML document found");
    return pb_err_set(c->err, PB_EINPUT, c->path, line, col,
                      "invalid XML: %s", xml_msg(c, c->xerr.msg));
}

/* Where the first DOCTYPE of the document is, for the message. */
static void doctype_pos(const char *buf, size_t start, size_t len,
                        long *line, long *col)
{
    const char *dt = NULL, *end = buf + len;
    skip_prolog(buf + start, end, &dt);
    if (!dt)
        dt = find_str(buf + start, end, "<!DOCTYPE");
    if (!dt)
        return;
    size_t off = (size_t)(dt - buf), bol = off;
    while (bol > 0 && buf[bol - 1] != '\n')
        bol--;
    *line = pb_line_of(buf, off);
    *col = (long)(off - bol) + 1;
}

/* Offset just past the last "</PhoronixTestSuite>", or len. Text after it
 * (a shell prompt, a log line) is not part of the document. */
static size_t doc_end(const char *buf, size_t start, size_t len)
{
    static const char close[] = "</PhoronixTestSuite";
    size_t n = sizeof(close) - 1;
    for (size_t i = len; i >= start + n; i--) {
        if (buf[i - n] != '<' || memcmp(buf + i - n, close, n) != 0)
            continue;
        for (size_t j = i; j < len; j++) {
            if (buf[j] == '>')
                return j + 1;
            if (!isspace((unsigned char)buf[j]))
                break;
        }
    }
    return len;
}

/* After the stream: the first problem found, or PB_OK. */
static int verdict(struct ctx *c, const char *buf, size_t start, size_t end,
                   long col_off)
{
    const char *path = c->path;
    if (c->doctype) {
        long line = c->doctype_line, col = 0;
        doctype_pos(buf, start, end, &line, &col);
        return pb_err_set(c->err, PB_EINPUT, path, line, col,
                          "refusing \"DOCTYPE\": PTS results have none, and "
                          "its entities could read files or expand without "
                          "limit");
    }
    if (c->entity_ref)
        return pb_err_set(c->err, PB_EINPUT, path, c->stop_line, 0,
                          "refusing an entity reference");
    if (c->too_long)
        return pb_err_set(c->err, PB_EINPUT, path, c->stop_line, 0,
                          "text of \"%s\" is longer than %zu bytes",
                          c->slot_name, MAX_TEXT);
    if (!c->pc->wellFormed)
        return xml_error(c, buf, start, end, col_off);
    if (c->bad_root)
        return pb_err_set(c->err, PB_EINPUT, path, c->root_line, 0,
                          "not a Phoronix Test Suite result: root element "
                          "is \"%s\"",
                          c->root_name);
    if (!c->seen_root)
        return pb_err_set(c->err, PB_EINPUT, path, 0, 0,
                          "no XML document found");
    if (!c->nresult_elems) {
        if (c->ngenerated_elems || c->nsystem_elems)
            return pb_err_set(c->err, PB_EINPUT, path, c->root_line, 0,
                              "no test results: \"PhoronixTestSuite\" holds "
                              "no \"Result\" element");
        return pb_err_set(c->err, PB_EINPUT, path, c->root_line, 0,
                          "not a PTS result file: \"PhoronixTestSuite\" holds "
                          "\"%s\", not \"Result\"",
                          c->first_child[0] ? c->first_child : "nothing");
    }
    if (c->set->nresults == 0)
        return pb_err_set(c->err, PB_EINPUT, path, c->first_result_line, 0,
                          "no benchmark results: every \"Result\" is empty "
                          "or a test install time/size entry");
    return PB_OK;
}

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
    xmlInitParser();
}

static int pts_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    pthread_once(&xml_once, xml_init);
    if (len == 0)
        return pb_err_set(err, PB_EINPUT, path, 0, 0, "empty file");

    int junk;
    size_t start = find_start(buf, len < START_SCAN ? len : START_SCAN, &junk);
    if (start == (size_t)-1)
        start = 0;
    size_t end = doc_end(buf, start, len);
    long col_off = 0, line_off = 0;
    if (start > 0) {
        size_t bol = start;
        while (bol > 0 && buf[bol - 1] != '\n')
            bol--;
        col_off = (long)(start - bol);
        line_off = pb_line_of(buf, start) - 1;
    }
    if (end - start > (size_t)INT_MAX)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "file too large for XML");
    /* libxml2 takes a NUL byte for the end of the input and would call
     * the file truncated there */
    const char *nul = memchr(buf + start, '\0', end - start);
    if (nul) {
        size_t off = (size_t)(nul - buf), bol = off;
        while (bol > 0 && buf[bol - 1] != '\n')
            bol--;
        return pb_err_set(err, PB_EINPUT, path, pb_line_of(buf, off),
                          (long)(off - bol) + 1,
                          "invalid XML: NUL byte (binary data or a damaged "
                          "file)");
    }

    xmlParserCtxtPtr pc = xmlNewParserCtxt();
    if (!pc)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "cannot create an XML parser");
    /* a SAX2 stream: no tree, no entity or DTD handling at all */
    xmlSAXHandler *sax = pc->sax;
    memset(sax, 0, sizeof(*sax));
    sax->initialized = XML_SAX2_MAGIC;
    sax->startElementNs = on_start;
    sax->endElementNs = on_end;
    sax->characters = on_chars;
    sax->cdataBlock = on_chars;
    sax->internalSubset = on_doctype;
    sax->reference = on_reference;
    sax->comment = on_comment;
    sax->serror = on_error;

    struct ctx c;
    memset(&c, 0, sizeof(c));
    c.path = path;
    c.set = set;
    c.err = err;
    c.pc = pc;
    c.line_off = line_off;
    pb_arena_init(&c.doc);
    pb_arena_init(&c.tmp);
    pc->_private = &c;

    /* no XML_PARSE_NOENT, DTDLOAD, DTDATTR, DTDVALID, XINCLUDE or HUGE */
    xmlDocPtr doc = xmlCtxtReadMemory(pc, buf + start, (int)(end - start),
                                      NULL, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING |
                                          XML_PARSE_BIG_LINES);
    xmlFreeDoc(doc); /* always NULL: nothing builds a tree */
    int rc = verdict(&c, buf, start, end, col_off);
    if (rc == PB_OK)
        set_tool_version(&c);
    xmlFreeParserCtxt(pc);
    pb_buf_release(&c.text);
    free(c.entries);
    pb_arena_release(&c.tmp);
    pb_arena_release(&c.doc);
    return rc;
}

const struct pb_parser pb_parser_pts_xml = {"pts-xml", pts_sniff, pts_parse};
