/* The ceiling for ingest: how fast the bare libraries parse the same bytes
 * (jansson, the JSON library DESIGN.md names; jsmn, the tokenizer
 * poolbench reads fio JSON with; libxml2 for PTS XML), on one thread, with
 * nothing done with the result. Part of bench/, not of poolbench or ctest.
 *
 *   parse_ceiling json|jsmn|xml-sax|xml-dom|sha256|read PATH...
 *
 * PATHs are files or directories (walked recursively). Every file is read
 * into memory first (not timed as parse), then parsed once. Prints one line:
 *   files=N bytes=B read_s=R parse_s=P mb_per_s=M
 * json is jansson with the flags fio_json.c used before it moved to jsmn;
 * jsmn tokenizes as ingest/lex/json.c configures it (strict, parent links),
 * without the grammar checks poolbench adds; both start at the first '{'
 * that begins a line, as fio_json.c does; xml-sax is a SAX2 parse with no callbacks (the
 * way ingest/pts/pts_xml.c reads), xml-dom builds the tree (xmlReadMemory). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <jansson.h>
#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#include <jsmn.h>
#include <libxml/parser.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct file {
    char *buf;
    size_t len;
};

static struct file *files;
static size_t nfiles, capfiles, nbytes;
static double read_s;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *path)
{
    fprintf(stderr, "parse_ceiling: %s: %s\n", what, path);
    exit(1);
}

static int add_file(const char *path, const struct stat *st, int type,
                    struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode))
        return 0;
    const char *base = strrchr(path, '/');
    if ((base ? base[1] : path[0]) == '.')
        return 0;
    double t0 = now();
    FILE *fp = fopen(path, "rb");
    if (!fp)
        die("cannot open", path);
    size_t len = (size_t)st->st_size;
    char *buf = malloc(len + 1);
    if (!buf || fread(buf, 1, len, fp) != len)
        die("cannot read", path);
    fclose(fp);
    buf[len] = '\0';
    read_s += now() - t0;
    if (nfiles == capfiles) {
        capfiles = capfiles ? capfiles * 2 : 1024;
        files = realloc(files, capfiles * sizeof(*files));
        if (!files)
            die("out of memory", path);
    }
    files[nfiles].buf = buf;
    files[nfiles].len = len;
    nfiles++;
    nbytes += len;
    return 0;
}

static size_t json_start(const char *b, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r'))
            j++;
        if (j < len && b[j] == '{')
            return j;
        const char *nl = memchr(b + j, '\n', len - j);
        if (!nl)
            break;
        i = (size_t)(nl - b) + 1;
    }
    return 0;
}

static void parse_json(const struct file *f)
{
    size_t s = json_start(f->buf, f->len);
    json_error_t je;
    json_t *root = json_loadb(f->buf + s, f->len - s,
                              JSON_DISABLE_EOF_CHECK | JSON_DECODE_INT_AS_REAL |
                                  JSON_ALLOW_NUL,
                              &je);
    if (!root)
        fprintf(stderr, "parse_ceiling: json error: %s\n", je.text);
    json_decref(root);
}

static jsmntok_t *jtok;
static unsigned jcap;

static void parse_jsmn(const struct file *f)
{
    size_t s = json_start(f->buf, f->len);
    jsmn_parser p;
    jsmn_init(&p);
    int r;
    if (!jtok) { /* without tokens jsmn only counts */
        jcap = 4096;
        jtok = malloc(jcap * sizeof(*jtok));
        if (!jtok)
            die("out of memory", "jsmn");
    }
    while ((r = jsmn_parse(&p, f->buf + s, f->len - s, jtok, jcap)) ==
           JSMN_ERROR_NOMEM) {
        jcap *= 2;
        jtok = realloc(jtok, jcap * sizeof(*jtok));
        if (!jtok)
            die("out of memory", "jsmn");
    }
    /* text after the document (json,normal) is no error of the document */
    if (r < 0 && !(p.toknext > 0 && jtok[0].end >= 0))
        fprintf(stderr, "parse_ceiling: jsmn error %d\n", r);
}

static size_t xml_elements, xml_text;

static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns,
                     int nattr, int ndef, const xmlChar **attrs)
{
    (void)ctx, (void)name, (void)prefix, (void)uri, (void)nns, (void)ns;
    (void)nattr, (void)ndef, (void)attrs;
    xml_elements++;
}

static void on_chars(void *ctx, const xmlChar *s, int len)
{
    (void)ctx, (void)s;
    xml_text += (size_t)len;
}

/* SAX2 with callbacks that only count, so the text is handed out */
static void parse_xml_sax(const struct file *f)
{
    xmlParserCtxtPtr pc = xmlNewParserCtxt();
    if (!pc)
        die("cannot create parser", "");
    xmlSAXHandler *sax = pc->sax;
    memset(sax, 0, sizeof(*sax));
    sax->initialized = XML_SAX2_MAGIC;
    sax->startElementNs = on_start;
    sax->characters = on_chars;
    xmlDocPtr doc = xmlCtxtReadMemory(pc, f->buf, (int)f->len, NULL, NULL,
                                      XML_PARSE_NONET | XML_PARSE_NOERROR |
                                          XML_PARSE_NOWARNING |
                                          XML_PARSE_BIG_LINES);
    if (!pc->wellFormed)
        fprintf(stderr, "parse_ceiling: xml not well-formed\n");
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pc);
}

static void parse_xml_dom(const struct file *f)
{
    xmlDocPtr doc = xmlReadMemory(f->buf, (int)f->len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
    if (!doc)
        fprintf(stderr, "parse_ceiling: xml error\n");
    xmlFreeDoc(doc);
}

static volatile unsigned char sink;

static void hash_sha256(const struct file *f)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_Digest(f->buf, f->len, md, &n, EVP_sha256(), NULL);
    sink ^= md[0];
}

static void nothing(const struct file *f)
{
    (void)f;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: parse_ceiling json|jsmn|xml-sax|xml-dom|sha256|read "
              "PATH...\n",
              stderr);
        return 2;
    }
    void (*fn)(const struct file *) = NULL;
    if (!strcmp(argv[1], "json"))
        fn = parse_json;
    else if (!strcmp(argv[1], "jsmn"))
        fn = parse_jsmn;
    else if (!strcmp(argv[1], "xml-sax"))
        fn = parse_xml_sax;
    else if (!strcmp(argv[1], "xml-dom"))
        fn = parse_xml_dom;
    else if (!strcmp(argv[1], "sha256"))
        fn = hash_sha256;
    else if (!strcmp(argv[1], "read"))
        fn = nothing;
    else
        die("unknown mode", argv[1]);
    xmlInitParser();
    for (int i = 2; i < argc; i++)
        if (nftw(argv[i], add_file, 32, FTW_PHYS) != 0)
            die("cannot walk", argv[i]);
    double t0 = now();
    for (size_t i = 0; i < nfiles; i++) {
        fn(&files[i]);
        free(files[i].buf);
    }
    double parse_s = now() - t0;
    free(files);
    free(jtok);
    xmlCleanupParser();
    printf("files=%zu bytes=%zu read_s=%.4f parse_s=%.4f mb_per_s=%.1f\n",
           nfiles, nbytes, read_s, parse_s,
           parse_s > 0 ? (double)nbytes / 1e6 / parse_s : 0.0);
    return 0;
}
