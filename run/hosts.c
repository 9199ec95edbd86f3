/* [hosts] of a plan: the fio servers of a multi-host run (validated host
 * names, ports, local sockets), the remote shell template split once into
 * argv words, and the per-host plan each host's pool lifecycle uses (pool
 * and vdev files suffixed "-hN" so that several servers on one machine do
 * not collide). No shell string is ever built here. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_HOSTS 64

static int hfail(struct pb_err *err, const char *path, long line,
                 const char *fmt, ...) PB_PRINTF(4, 5);
static int hfail(struct pb_err *err, const char *path, long line,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pb_err_vset(err, PB_EUSAGE, path, line, 0, fmt, ap);
    va_end(ap);
    return PB_EUSAGE;
}

/* "18765" -> 18765; 0 for anything but 1..65535 in digits. */
static long parse_port(const char *s)
{
    long v = 0;
    if (!*s || strlen(s) > 5)
        return 0;
    for (const char *q = s; *q; q++) {
        if (!isdigit((unsigned char)*q))
            return 0;
        v = v * 10 + (*q - '0');
    }
    return v >= 1 && v <= 65535 ? v : 0;
}

/* A host name or IPv4 address: letters, digits, '.', '-', not starting
 * with '-' or '.' (never an option to ssh), at most 253 bytes. */
static int valid_hostname(const char *s, size_t n)
{
    if (n == 0 || n > 253 || s[0] == '-' || s[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-')
            return 0;
    return 1;
}

/* Parse one servers entry into h; PB_OK, or PB_EUSAGE with why in err. */
static int parse_entry(const char *tok, struct pb_run_host *h,
                       struct pb_err *err)
{
    memset(h, 0, sizeof(*h));
    if (!strncmp(tok, "sock:", 5)) {
        const char *path = tok + 5;
        size_t n = strlen(path);
        if (path[0] != '/') {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "socket path '%s' must be absolute", path);
        }
        if (n >= 108) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "socket path is longer than 107 bytes");
        }
        for (const char *q = path; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f) {
                return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                                  "control character in socket path");
            }
        h->sock = 1;
        h->name = pb_xstrdup(path);
        h->entry = pb_xasprintf("sock:%s", path);
        h->client = pb_xasprintf("sock:%s", path);
        return 0;
    }
    const char *port = NULL;
    size_t nlen;
    const char *name = tok;
    int v6 = 0;
    if (tok[0] == '[') {
        const char *close = strchr(tok, ']');
        if (!close || close == tok + 1) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "'%s': an IPv6 address is [ADDRESS] or "
                              "[ADDRESS]:PORT",
                              tok);
        }
        name = tok + 1;
        nlen = (size_t)(close - name);
        for (size_t i = 0; i < nlen; i++)
            if (!isxdigit((unsigned char)name[i]) && name[i] != ':' &&
                name[i] != '.') {
                return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                                  "'%s': an IPv6 address has hex digits, "
                                  "':' and '.' only",
                                  tok);
            }
        if (close[1] == ':')
            port = close + 2;
        else if (close[1]) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "'%s': unexpected text after ']'", tok);
        }
        v6 = 1;
    } else {
        const char *colon = strchr(tok, ':');
        nlen = colon ? (size_t)(colon - tok) : strlen(tok);
        if (colon)
            port = colon + 1;
        if (!valid_hostname(tok, nlen)) {
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "bad host '%s' (letters, digits, '.', '-'; "
                              "IPv6 in brackets: [::1]:8765; sock:/PATH)",
                              tok);
        }
    }
    if (port && !(h->port = parse_port(port))) {
        return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                          "'%s': port must be 1..65535", tok);
    }
    h->name = pb_xstrndup(name, nlen);
    if (v6) {
        h->entry = h->port ? pb_xasprintf("[%s]:%ld", h->name, h->port)
                           : pb_xasprintf("[%s]", h->name);
        h->client = h->port ? pb_xasprintf("ip6:%s,%ld", h->name, h->port)
                            : pb_xasprintf("ip6:%s", h->name);
    } else {
        h->entry = h->port ? pb_xasprintf("%s:%ld", h->name, h->port)
                           : pb_xstrdup(h->name);
        h->client = h->port ? pb_xasprintf("%s,%ld", h->name, h->port)
                            : pb_xstrdup(h->name);
    }
    return 0;
}

static void host_release(struct pb_run_host *h)
{
    free(h->entry);
    free(h->name);
    free(h->client);
}

static int add_servers(struct pb_run_hosts *hs, const char *v, long line,
                       const char *path, struct pb_err *err)
{
    const char *p = v;
    char *tok;
    while ((tok = pb_run_list_word(&p)) != NULL) {
        struct pb_run_host h;
        struct pb_err why = {0};
        if (parse_entry(tok, &h, &why) != PB_OK) {
            free(tok);
            host_release(&h);
            return hfail(err, path, line, "servers: %s", why.msg);
        }
        free(tok);
        for (size_t i = 0; i < hs->n; i++)
            if (!strcmp(hs->h[i].entry, h.entry)) {
                hfail(err, path, line, "servers: '%s' is listed twice",
                      h.entry);
                host_release(&h);
                return PB_EUSAGE;
            }
        if (hs->n >= MAX_HOSTS) {
            host_release(&h);
            return hfail(err, path, line, "servers: at most %d servers",
                         MAX_HOSTS);
        }
        h.line = line;
        PB_GROW(hs->h, hs->cap, hs->n + 1);
        hs->h[hs->n++] = h;
    }
    return 0;
}

/* remote = TEMPLATE: words split on blanks, once, here; quotes and
 * backslashes are refused (no second layer of quoting to get wrong). A
 * long template continues on indented lines (their words are appended);
 * pb_run_hosts_check_remote() checks the whole template once the plan is
 * read. */
static int add_remote_words(struct pb_run_hosts *hs, const char *v,
                            long line, const char *path, struct pb_err *err)
{
    for (const char *q = v; *q; q++) {
        if (*q == '\'' || *q == '"' || *q == '\\' || *q == '`' || *q == '$' ||
            *q == ';' || *q == '|' || *q == '&' || *q == '<' || *q == '>' ||
            ((unsigned char)*q < 0x20 && *q != '\t'))
            return hfail(err, path, line,
                         "remote: '%c' in the template "
                         "(it is split into words on blanks, never run "
                         "through a shell here; write it without quotes)",
                         *q >= 0x20 ? *q : '?');
    }
    const char *p = v;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " \t");
        PB_GROW(hs->remote, hs->remote_cap, hs->nremote + 2);
        hs->remote[hs->nremote++] = pb_xstrndup(p, n);
        hs->remote[hs->nremote] = NULL;
        p += n;
    }
    return 0;
}

int pb_run_hosts_check_remote(struct pb_run_hosts *hs, const char *path,
                              struct pb_err *err)
{
    long line = hs->remote_line;
    if (hs->remote_local || !hs->remote_line)
        return 0;
    if (!hs->remote)
        return hfail(err, path, line, "remote: empty template");
    int has_host = 0;
    for (size_t i = 0; i < hs->nremote; i++)
        has_host |= strstr(hs->remote[i], "{host}") != NULL;
    if (!has_host)
        return hfail(err, path, line,
                     "remote: the template must name "
                     "{host} (like: ssh -o BatchMode=yes {host})");
    if (!strcmp(hs->remote[0], "{host}") || hs->remote[0][0] == '-')
        return hfail(err, path, line,
                     "remote: the template's first word "
                     "must be a program (like ssh)");
    return 0;
}

/* Is a server entry on this machine: a loopback address (127.0.0.0/8,
 * ::1, ::ffff:127.x), localhost, or this machine's own name (gethostname,
 * or its first label)? With remote = local its pool is made here. */
int pb_run_host_is_local(const struct pb_run_host *h)
{
    static const char *const loop[] = {"localhost", "localhost.localdomain",
                                       "ip6-localhost", "ip6-loopback",
                                       NULL};
    if (h->sock)
        return 1;
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, h->name, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, h->name, &a6) == 1) {
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0,
                                                 0, 0, 0, 0, 0xff, 0xff};
        if (!memcmp(&a6, &in6addr_loopback, sizeof(a6)))
            return 1;
        return !memcmp(a6.s6_addr, mapped, 12) && a6.s6_addr[12] == 127;
    }
    for (size_t i = 0; loop[i]; i++)
        if (!strcasecmp(h->name, loop[i]))
            return 1;
    char me[256] = "";
    if (gethostname(me, sizeof(me) - 1) != 0 || !*me)
        return 0;
    if (!strcasecmp(h->name, me))
        return 1;
    size_t short_len = strcspn(me, ".");
    return me[short_len] && strlen(h->name) == short_len &&
           !strncasecmp(h->name, me, short_len);
}

int pb_run_hosts_pair(struct pb_run_hosts *h, const char *key,
                      const char *value, int cont, long line, const char *path,
                      struct pb_err *err)
{
    if (!strcmp(key, "servers")) {
        if (h->line && !cont)
            return hfail(err, path, line,
                         "'servers' given twice in "
                         "[hosts] (first on line %ld)",
                         h->line);
        if (!h->line)
            h->line = line;
        return add_servers(h, value, line, path, err);
    }
    if (!strcmp(key, "remote")) {
        if (cont && h->remote_local)
            return hfail(err, path, line,
                         "remote: 'local' takes nothing after it");
        if (cont)
            return add_remote_words(h, value, line, path, err);
        if (h->remote_line)
            return hfail(err, path, line,
                         "'remote' given twice in "
                         "[hosts] (first on line %ld)",
                         h->remote_line);
        h->remote_line = line;
        if (!strcmp(value, "local")) {
            h->remote_local = 1;
            return 0;
        }
        return add_remote_words(h, value, line, path, err);
    }
    return hfail(err, path, line,
                 "unknown key '%s' in [hosts] (known: "
                 "servers, remote)",
                 key);
}

int pb_run_hosts_finish(struct pb_run_plan *p, struct pb_err *err)
{
    struct pb_run_hosts *h = &p->hosts;
    if (!h->line && !h->remote_line)
        return 0;
    if (!h->n)
        return hfail(err, p->path, h->remote_line,
                     "[hosts] needs "
                     "'servers' (HOST[:PORT], [IPV6]:PORT or sock:PATH, "
                     "comma-separated)");
    if (!h->remote_line)
        return hfail(err, p->path, h->line,
                     "[hosts] needs 'remote' "
                     "(local, or a template like: ssh -o BatchMode=yes "
                     "{host})");
    const struct pb_run_vdevs *lists[3] = {&p->data, &p->log, &p->cache};
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            if (!lists[l]->v[i].is_file || lists[l]->v[i].loop)
                return hfail(err, p->path, lists[l]->v[i].line,
                             "vdev '%s': a plan with [hosts] takes "
                             "file:PATH:SIZE vdevs only (one set per "
                             "host)",
                             lists[l]->v[i].path);
    if (p->logs)
        return hfail(err, p->path, h->line,
                     "[fio] log is not available "
                     "with [hosts] (the logs stay on the servers)");
    /* a job file line per option: nothing that fio would expand from the
     * environment of the client or read as a second line */
    const struct pb_run_section *f = &p->sect[PB_RUN_FIO];
    for (size_t a = 0; a < f->n; a++)
        for (size_t j = 0; j < f->ax[a].nvals; j++)
            if (strchr(f->ax[a].vals[j], '$') ||
                strpbrk(f->ax[a].vals[j], "\r\n"))
                return hfail(err, p->path, f->ax[a].line,
                             "[fio] %s: '$' "
                             "is not allowed with [hosts] (job files are "
                             "sent as written, with no ${VAR} expansion)",
                             f->ax[a].key);
    /* remote = local makes every server's pool here: a server elsewhere
     * would be sent job files naming this machine's pool paths (and write
     * into its own root file system), its results describing a pool that
     * was never used */
    for (size_t i = 0; i < h->n && !h->remote; i++)
        if (!pb_run_host_is_local(&h->h[i])) {
            char me[256] = "";
            if (gethostname(me, sizeof(me) - 1) != 0)
                me[0] = '\0';
            return hfail(err, p->path, h->h[i].line,
                         "servers: '%s' is not this machine, but remote = "
                         "local makes its pool here (with local: loopback "
                         "addresses, localhost, this machine's name '%s' "
                         "or sock:PATH; a server elsewhere needs a remote "
                         "template like: ssh -o BatchMode=yes {host})",
                         h->h[i].entry, me);
        }
    return 0;
}

void pb_run_hosts_release(struct pb_run_hosts *h)
{
    for (size_t i = 0; i < h->n; i++)
        host_release(&h->h[i]);
    free(h->h);
    pb_run_hosts_argv_free(h->remote);
    memset(h, 0, sizeof(*h));
}

void pb_run_hosts_argv_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

char **pb_run_hosts_remote(const struct pb_run_plan *p, size_t i)
{
    const struct pb_run_hosts *hs = &p->hosts;
    if (!hs->remote || i >= hs->n || hs->h[i].sock)
        return NULL;
    size_t n = 0;
    while (hs->remote[n])
        n++;
    char **v = pb_xcalloc(n + 1, sizeof(*v));
    for (size_t k = 0; k < n; k++) {
        struct pb_buf b = PB_BUF_INIT;
        const char *w = hs->remote[k];
        for (const char *q; (q = strstr(w, "{host}")); w = q + 6) {
            pb_buf_add(&b, w, (size_t)(q - w));
            pb_buf_puts(&b, hs->h[i].name);
        }
        pb_buf_puts(&b, w);
        v[k] = pb_buf_take(&b);
    }
    return v;
}

static void vdevs_for(const struct pb_run_vdevs *in, size_t i,
                      struct pb_run_vdevs *out)
{
    memset(out, 0, sizeof(*out));
    if (!in->n)
        return;
    out->v = pb_xcalloc(in->n, sizeof(*out->v));
    out->n = out->cap = in->n;
    for (size_t k = 0; k < in->n; k++) {
        out->v[k] = in->v[k];
        out->v[k].path = pb_xasprintf("%s-h%zu", in->v[k].path, i + 1);
        out->v[k].canon = in->v[k].canon
                              ? pb_xasprintf("%s-h%zu", in->v[k].canon, i + 1)
                              : NULL;
        out->v[k].dev = NULL;
        out->v[k].made = 0;
    }
}

struct pb_run_plan *pb_run_host_plan(const struct pb_run_plan *p, size_t i)
{
    struct pb_run_plan *hp = pb_xcalloc(1, sizeof(*hp));
    *hp = *p;
    hp->pool = pb_xasprintf("%s-h%zu", p->pool, i + 1);
    vdevs_for(&p->data, i, &hp->data);
    vdevs_for(&p->log, i, &hp->log);
    vdevs_for(&p->cache, i, &hp->cache);
    memset(&hp->hosts, 0, sizeof(hp->hosts));
    return hp;
}

void pb_run_host_plan_free(struct pb_run_plan *hp)
{
    if (!hp)
        return;
    free(hp->pool);
    pb_run_vdevs_release(&hp->data);
    pb_run_vdevs_release(&hp->log);
    pb_run_vdevs_release(&hp->cache);
    free(hp);
}

long pb_run_hosts_match(const struct pb_run_plan *p, const char *host)
{
    if (!host)
        return -1;
    const struct pb_run_hosts *hs = &p->hosts;
    long found = -1;
    for (size_t i = 0; i < hs->n; i++) {
        const struct pb_run_host *h = &hs->h[i];
        size_t n = strlen(h->name);
        if (strncmp(host, h->name, n))
            continue;
        if (!host[n]) {
            /* a bare name: fio's hostname alone, which several servers
             * on one host share (only one of them answered) */
            if (found >= 0)
                return -2;
            found = (long)i;
            continue;
        }
        /* "hostname:port": fio's own port for the entry (8765 when the
         * plan gives none, also for sockets) */
        long port = h->port ? h->port : 8765;
        char *end;
        if (host[n] == ':' && strtol(host + n + 1, &end, 10) == port && !*end)
            return (long)i;
    }
    return found;
}
