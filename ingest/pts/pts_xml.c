/* Phoronix Test Suite / OpenBenchmarking result XML (composite.xml, test-N.xml,
 * active.xml; PTS 5.x to 10.x) into a result set: this file reads the XML
 * and collects the fields of each element; what they become in the model
 * is ingest/pts/pts_map.c's. Lines before the XML (a shell prompt) and text
 * after the closing root tag are skipped; line numbers in errors count
 * them.
 *
 * Safety: libxml2 runs as a SAX2 stream (no tree: memory stays near the
 * size of one <Result>, whatever the file size), without network, without
 * entity substitution and without DTD loading; any DOCTYPE stops the parser
 * at once, so an XXE or billion-laughs file is refused before its
 * declarations are read.
 */
#include "ingest/pts/pts_int.h"

#include <ctype.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SNIFF_SCAN ((size_t)8192)
#define START_SCAN ((size_t)65536)
/* Longest text kept for one element; more is refused (no PTS field is
 * anywhere near it). */
#define MAX_TEXT ((size_t)1 << 20)

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

/* A streamed file: after an element, the results so far to the store,
 * once the tool version the source row carries is settled. */
static void flush_part(struct ctx *c)
{
    if (!pb_rs_flush_due(c->set, 0) || !pb_pts_version_known(c))
        return;
    if (!c->version_set) {
        pb_pts_tool_version(c);
        c->version_set = 1;
    }
    c->flushed += c->set->nresults;
    if (pb_rs_flush(c->set, NULL) != PB_OK) {
        c->flush_failed = 1;
        stop(c);
    }
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
            pb_pts_emit_generated(c);
        else if (c->sec == S_SYSTEM)
            pb_pts_emit_system(c);
        else if (c->sec == S_RESULT)
            pb_pts_emit_result(c);
        c->sec = S_NONE;
        reset_element(c);
        if (c->streamed)
            flush_part(c);
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
    if (c->flushed + c->set->nresults == 0) /* in every part */
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

/* Where the document is in buf: [*start, *end), with the line and column
 * offsets of junk before it. PB_OK or an input error. */
static int locate(const char *path, const char *buf, size_t len,
                  size_t *start, size_t *end, long *col_off, long *line_off,
                  struct pb_err *err)
{
    if (len == 0)
        return pb_err_set(err, PB_EINPUT, path, 0, 0, "empty file");
    int junk;
    *start = find_start(buf, len < START_SCAN ? len : START_SCAN, &junk);
    if (*start == (size_t)-1)
        *start = 0;
    *end = doc_end(buf, *start, len);
    *col_off = *line_off = 0;
    if (*start > 0) {
        size_t bol = *start;
        while (bol > 0 && buf[bol - 1] != '\n')
            bol--;
        *col_off = (long)(*start - bol);
        *line_off = pb_line_of(buf, *start) - 1;
    }
    if (*end - *start > (size_t)INT_MAX)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "file too large for XML");
    return PB_OK;
}

/* a SAX2 stream: no tree, no entity or DTD handling at all */
static void sax_init(xmlSAXHandler *sax)
{
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
}

static void ctx_init(struct ctx *c, const char *path,
                     struct pb_resultset *set, struct pb_err *err,
                     xmlParserCtxtPtr pc, long line_off)
{
    memset(c, 0, sizeof(*c));
    c->path = path;
    c->set = set;
    c->err = err;
    c->pc = pc;
    c->line_off = line_off;
    pb_arena_init(&c->doc);
    pb_arena_init(&c->tmp);
    pc->_private = c;
}

static void ctx_release(struct ctx *c)
{
    xmlFreeParserCtxt(c->pc);
    pb_buf_release(&c->text);
    free(c->entries);
    pb_arena_release(&c->tmp);
    pb_arena_release(&c->doc);
}

/* no XML_PARSE_NOENT, DTDLOAD, DTDATTR, DTDVALID, XINCLUDE or HUGE */
#define XML_OPTIONS                                                           \
    (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |              \
     XML_PARSE_BIG_LINES)

static int pts_parse(const char *path, const char *buf, size_t len,
                     struct pb_resultset *set, struct pb_err *err)
{
    pthread_once(&xml_once, xml_init);
    size_t start, end;
    long col_off, line_off;
    int rc = locate(path, buf, len, &start, &end, &col_off, &line_off, err);
    if (rc != PB_OK)
        return rc;
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
    sax_init(pc->sax);
    struct ctx c;
    ctx_init(&c, path, set, err, pc, line_off);
    xmlDocPtr doc = xmlCtxtReadMemory(pc, buf + start, (int)(end - start),
                                      NULL, NULL, XML_OPTIONS);
    xmlFreeDoc(doc); /* always NULL: nothing builds a tree */
    rc = verdict(&c, buf, start, end, col_off);
    if (rc == PB_OK)
        pb_pts_tool_version(&c);
    ctx_release(&c);
    return rc;
}

/* Streamed (docs/performance.md, "Streaming ingest", PTS): the same SAX
 * callbacks fed by libxml2's push parser a MiB at a time (the input is
 * not copied whole, its pages let go), the results stored after a
 * <Result> once a part is due and the tool version settled. Any problem
 * parses the file whole for the message (pb_parse_whole_error): the parts
 * stored so far go with the source's savepoint. */
static int pts_parse_stream(const struct pb_parse *x)
{
    const char *path = x->path, *buf = x->buf;
    size_t len = x->len;
    struct pb_resultset *set = x->out;
    struct pb_err *err = x->err;
    pthread_once(&xml_once, xml_init);
    size_t start, end;
    long col_off, line_off;
    if (locate(path, buf, len, &start, &end, &col_off, &line_off, err) !=
        PB_OK)
        return err->code;
    xmlSAXHandler sax;
    sax_init(&sax);
    xmlParserCtxtPtr pc = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, NULL);
    if (!pc)
        return pb_err_set(err, PB_EINPUT, path, 0, 0,
                          "cannot create an XML parser");
    xmlCtxtUseOptions(pc, XML_OPTIONS);
    struct ctx c;
    ctx_init(&c, path, set, err, pc, line_off);
    c.streamed = 1;
    const size_t step = (size_t)1 << 20;
    for (size_t off = start; off < end && !pc->disableSAX;) {
        size_t n = end - off < step ? end - off : step;
        xmlParseChunk(pc, buf + off, (int)n, 0);
        off += n;
        pb_rs_consumed(set, buf + off);
    }
    if (!pc->disableSAX)
        xmlParseChunk(pc, NULL, 0, 1);
    int rc;
    if (c.flush_failed) {
        rc = err->code ? err->code : PB_EDB;
    } else if (verdict(&c, buf, start, end, col_off) != PB_OK) {
        /* the push parser words some errors otherwise: the whole
         * parse's message */
        memset(err, 0, sizeof(*err));
        rc = pb_parse_whole_error(x);
    } else {
        rc = PB_OK;
        if (!c.version_set)
            pb_pts_tool_version(&c);
    }
    ctx_release(&c);
    return rc;
}

static int pts_parse_ctx(struct pb_parse *x)
{
    return x->part ? pts_parse_stream(x)
                   : pts_parse(x->path, x->buf, x->len, x->out, x->err);
}

const struct pb_parser pb_parser_pts_xml = {
    .name = "pts-xml",
    .flags = PB_PARSER_STREAMS,
    .sniff = pts_sniff,
    .parse = pts_parse_ctx,
    .stream_min = PB_STREAM_MIN_PTS,
};
