/* Pasted shell commands in text inputs (terminal notes): zpool create/add/
 * destroy, zfs create/set/inherit and hdparm -W, read in order into the
 * configuration dimensions in force at each line, and the first line
 * (title.c decides whether it is a title). Shell lines are split into
 * commands by cmd_shell.c.
 * docs/experiment-context.md documents every rule. */
#include "ingest/notes/commands_int.h"
#include "ingest/zfs/vdev_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LINE_MAX_SCAN (64 * 1024) /* longer logical lines are not commands */
#define ORIGIN_CMD_MAX 160

/* ==== dimension lists ==== */

struct dimset {
    struct pb_cmd_dim *v;
    size_t n, cap;
};

static void ds_set(struct dimset *d, const char *key, const char *value,
                   const char *origin)
{
    for (size_t i = 0; i < d->n; i++) {
        if (!strcmp(d->v[i].key, key)) {
            free(d->v[i].value);
            free(d->v[i].origin);
            d->v[i].value = pb_xstrdup(value);
            d->v[i].origin = pb_xstrdup(origin);
            return;
        }
    }
    PB_GROW(d->v, d->cap, d->n + 1);
    d->v[d->n].key = pb_xstrdup(key);
    d->v[d->n].value = pb_xstrdup(value);
    d->v[d->n].origin = pb_xstrdup(origin);
    d->n++;
}

static void dim_release(struct pb_cmd_dim *x)
{
    free(x->key);
    free(x->value);
    free(x->origin);
}

static void ds_del(struct dimset *d, const char *key)
{
    for (size_t i = 0; i < d->n; i++) {
        if (!strcmp(d->v[i].key, key)) {
            dim_release(&d->v[i]);
            memmove(&d->v[i], &d->v[i + 1], (d->n - i - 1) * sizeof(*d->v));
            d->n--;
            return;
        }
    }
}

static void ds_release(struct dimset *d)
{
    for (size_t i = 0; i < d->n; i++)
        dim_release(&d->v[i]);
    free(d->v);
    memset(d, 0, sizeof(*d));
}

/* ==== state: pools and the drive write cache ==== */

struct pool {
    char *name;
    struct dimset dims;
    struct pb_vtree tree; /* of its `zpool create` and `zpool add`s */
    int has_tree;         /* created in this input */
};

struct state {
    struct pool *pools;
    size_t npools, cappools;
    size_t cur; /* index + 1 of the pool last touched; 0 = none */
    struct dimset global; /* write_cache */
    struct pb_cmd_notes *out;
    long line;        /* of the command being applied */
    char origin[256]; /* "command: line N: ..." of that command */
};

static size_t pool_find(struct state *st, const char *name, size_t n)
{
    for (size_t i = 0; i < st->npools; i++)
        if (strlen(st->pools[i].name) == n &&
            !strncmp(st->pools[i].name, name, n))
            return i + 1;
    return 0;
}

/* The pool of a dataset name ("tank/db" -> tank), created when new. */
static struct pool *pool_of(struct state *st, const char *dataset)
{
    size_t n = strcspn(dataset, "/@");
    size_t i = pool_find(st, dataset, n);
    if (!i) {
        PB_GROW(st->pools, st->cappools, st->npools + 1);
        memset(&st->pools[st->npools], 0, sizeof(st->pools[0]));
        st->pools[st->npools].name = pb_xstrndup(dataset, n);
        i = ++st->npools;
    }
    st->cur = i;
    return &st->pools[i - 1];
}

static int cmp_dim(const void *a, const void *b)
{
    return strcmp(((const struct pb_cmd_dim *)a)->key,
                  ((const struct pb_cmd_dim *)b)->key);
}

/* Record the state in force from the current line on. */
static void snapshot(struct state *st)
{
    struct pb_cmd_notes *o = st->out;
    struct pb_cmd_epoch *e;
    if (o->nepochs && o->epochs[o->nepochs - 1].line == st->line) {
        e = &o->epochs[o->nepochs - 1]; /* `a; b` on one line: one epoch */
        for (size_t i = 0; i < e->ndims; i++)
            dim_release(&e->dims[i]);
        free(e->dims);
    } else {
        PB_GROW(o->epochs, o->capepochs, o->nepochs + 1);
        e = &o->epochs[o->nepochs++];
    }
    memset(e, 0, sizeof(*e));
    e->line = st->line;
    const struct dimset *pd = st->cur ? &st->pools[st->cur - 1].dims : NULL;
    size_t n = st->global.n + (pd ? pd->n : 0);
    e->dims = pb_xcalloc(n + 1, sizeof(*e->dims));
    for (size_t i = 0; i < n; i++) {
        const struct pb_cmd_dim *s =
            i < st->global.n ? &st->global.v[i] : &pd->v[i - st->global.n];
        e->dims[i].key = pb_xstrdup(s->key);
        e->dims[i].value = pb_xstrdup(s->value);
        e->dims[i].origin = pb_xstrdup(s->origin);
    }
    e->ndims = n;
    if (n > 1)
        qsort(e->dims, n, sizeof(*e->dims), cmp_dim);
}

/* ==== ZFS properties ==== */

/* Properties that are configuration dimensions; others (mountpoint, quota,
 * ...) are not. */
static const char *prop_key(const char *k, size_t n)
{
    static const char *const keys[] = {
        "recordsize",  "volblocksize", "compression",    "sync",
        "primarycache", "secondarycache", "atime",       "relatime",
        "logbias",     "dedup",        "checksum",       "xattr",
        "dnodesize",   "redundant_metadata", "special_small_blocks",
        "copies",      "encryption",   NULL};
    if (n == 8 && !strncasecmp(k, "compress", 8))
        return "compression";
    if (n == 7 && !strncasecmp(k, "recsize", 7))
        return "recordsize";
    for (size_t i = 0; keys[i]; i++)
        if (strlen(keys[i]) == n && !strncasecmp(k, keys[i], n))
            return keys[i];
    return NULL;
}

/* Apply `key=value` (a ZFS property) to ds; 0 when it is not one. */
static int set_prop(struct state *st, struct dimset *ds, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || !eq[1])
        return 0;
    const char *key = prop_key(kv, (size_t)(eq - kv));
    if (!key)
        return 1; /* a property, just not a dimension */
    char *v = pb_ingest_norm_param(key, eq + 1);
    ds_set(ds, key, v, st->origin);
    free(v);
    return 1;
}

/* ==== vdev specifications ==== */

static int is_device(const char *t)
{
    return t[0] == '/' || isalnum((unsigned char)t[0]);
}

/* Read one vdev word of zpool create/add into tree t: a class word starts
 * its section, a group word ("mirror", "raidz2") a vdev, a device widens
 * the group or is a vdev of its own; options (-o ...) may sit among them
 * and are handled by the caller. */
static void vspec_word(struct pb_vtree *t, int *cls, int *in_group,
                       const char *w)
{
    char buf[16];
    int k = pb_vclass_of(w, strlen(w));
    if (k >= 0) {
        *cls = k;
        *in_group = 0;
        return;
    }
    const char *g = pb_vdev_group_type(w, strlen(w), buf, sizeof(buf));
    if (g) {
        pb_vtree_add(t, *cls, g, 0);
        *in_group = 1;
        return;
    }
    if (!is_device(w))
        return;
    if (*in_group)
        pb_vtree_widen(t);
    else
        pb_vtree_add(t, *cls, NULL, 1);
}

static int valid_ashift(const char *v)
{
    if (!isdigit((unsigned char)v[0]) || (v[1] && !isdigit((unsigned char)v[1])) ||
        (v[1] && v[2]))
        return 0;
    long a = strtol(v, NULL, 10);
    return a >= 9 && a <= 16;
}

/* Options of zpool create/add: `-f`, `-o k=v`, `-O k=v`, clustered
 * (`-fo ashift=12`). Returns tokens consumed. */
static size_t zpool_opt(struct state *st, char **tok, size_t ntok, size_t i,
                        struct dimset *pool_props, struct dimset *fs_props)
{
    const char *t = tok[i];
    for (size_t k = 1; t[k]; k++) {
        char c = t[k];
        if (c == 'o' || c == 'O' || c == 'm' || c == 'R' || c == 't') {
            const char *arg = t[k + 1] ? t + k + 1 : (i + 1 < ntok ? tok[i + 1] : NULL);
            size_t used = t[k + 1] ? 1 : 2;
            if (!arg)
                return 1;
            if (c == 'o' && !strncasecmp(arg, "ashift=", 7) &&
                valid_ashift(arg + 7))
                ds_set(pool_props, "ashift", arg + 7, st->origin);
            else if (c == 'O')
                (void)set_prop(st, fs_props, arg);
            return used;
        }
    }
    return 1;
}

/* The dimensions of a vdev tree into a pool's list; with only[], just
 * those keys. */
struct vput {
    struct state *st;
    struct dimset *ds;
    const char *only[PB_VC_N];
    size_t nonly;
};

static void vput_dim(void *ctx, const char *key, const char *value)
{
    struct vput *v = ctx;
    int want = v->nonly == 0;
    for (size_t i = 0; i < v->nonly && !want; i++)
        want = !strcmp(v->only[i], key);
    for (size_t i = 0; i < v->ds->n && want; i++)
        if (!strcmp(v->ds->v[i].key, key) && !strcmp(v->ds->v[i].value, value))
            want = 0; /* as before: it keeps the command that said it */
    if (want)
        ds_set(v->ds, key, value, v->st->origin);
}

static void zpool_layout(struct state *st, char **tok, size_t ntok,
                         size_t first, int create)
{
    struct pb_vtree add = {0};
    struct dimset pprops = {0}, fprops = {0};
    int cls = PB_VC_DATA, in_group = 0;
    const char *pool = NULL;
    for (size_t i = first; i < ntok;) {
        const char *t = tok[i];
        if (t[0] == '-' && t[1]) {
            i += zpool_opt(st, tok, ntok, i, &pprops, &fprops);
            continue;
        }
        if (!pool)
            pool = t;
        else
            vspec_word(&add, &cls, &in_group, t);
        i++;
    }
    int data = 0;
    for (size_t i = 0; i < add.n; i++)
        data |= add.v[i].cls == PB_VC_DATA && add.v[i].width > 0;
    if (!pool || (create && !data)) {
        pb_vtree_release(&add);
        ds_release(&pprops);
        ds_release(&fprops);
        return;
    }
    struct pool *p = pool_of(st, pool);
    struct vput v = {st, &p->dims, {NULL}, 0};
    if (create) {
        ds_release(&p->dims); /* a new pool: nothing carries over */
        pb_vtree_release(&p->tree);
        p->has_tree = 1;
    }
    if (p->has_tree) {
        for (size_t i = 0; i < add.n; i++) {
            pb_vtree_add(&p->tree, add.v[i].cls, add.v[i].type,
                         add.v[i].width);
        }
        pb_vtree_dims(&p->tree, vput_dim, &v);
    } else {
        /* `zpool add` to a pool this input did not create: what the
         * classes it adds to are now made of is unknown, only that they
         * are there */
        static const struct {
            int cls;
            const char *key;
        } aux[] = {{PB_VC_LOG, "slog"},
                   {PB_VC_CACHE, "l2arc"},
                   {PB_VC_SPECIAL, "special"},
                   {PB_VC_DEDUP, "dedup_class"}};
        for (size_t a = 0; a < sizeof(aux) / sizeof(aux[0]); a++)
            for (size_t i = 0; i < add.n; i++)
                if (add.v[i].cls == aux[a].cls) {
                    v.only[v.nonly++] = aux[a].key;
                    break;
                }
        if (v.nonly)
            pb_vtree_dims(&add, vput_dim, &v);
    }
    pb_vtree_release(&add);
    for (size_t i = 0; i < pprops.n; i++)
        ds_set(&p->dims, pprops.v[i].key, pprops.v[i].value,
               pprops.v[i].origin);
    for (size_t i = 0; i < fprops.n; i++)
        ds_set(&p->dims, fprops.v[i].key, fprops.v[i].value,
               fprops.v[i].origin);
    ds_release(&pprops);
    ds_release(&fprops);
    snapshot(st);
}

/* ==== the commands ==== */

static void cmd_zpool(struct state *st, char **tok, size_t ntok)
{
    if (ntok < 2)
        return;
    if (!strcmp(tok[1], "create")) {
        zpool_layout(st, tok, ntok, 2, 1);
    } else if (!strcmp(tok[1], "add")) {
        zpool_layout(st, tok, ntok, 2, 0);
    } else if (!strcmp(tok[1], "destroy")) {
        for (size_t i = 2; i < ntok; i++) {
            if (tok[i][0] == '-')
                continue;
            size_t k = pool_find(st, tok[i], strlen(tok[i]));
            if (k) {
                ds_release(&st->pools[k - 1].dims);
                pb_vtree_release(&st->pools[k - 1].tree);
                st->pools[k - 1].has_tree = 0;
                if (st->cur == k)
                    st->cur = 0;
                snapshot(st);
            }
            break;
        }
    }
}

static void cmd_zfs(struct state *st, char **tok, size_t ntok)
{
    if (ntok < 3)
        return;
    struct dimset props = {0};
    const char *dataset = NULL;
    if (!strcmp(tok[1], "set")) {
        for (size_t i = 2; i < ntok; i++) {
            if (tok[i][0] == '-')
                continue;
            if (strchr(tok[i], '='))
                (void)set_prop(st, &props, tok[i]);
            else if (!dataset)
                dataset = tok[i];
        }
    } else if (!strcmp(tok[1], "create")) {
        for (size_t i = 2; i < ntok; i++) {
            const char *t = tok[i];
            if (t[0] == '-' && t[1]) {
                char c = t[strlen(t) - 1]; /* -o, -so, -V, -b */
                const char *arg = i + 1 < ntok ? tok[i + 1] : NULL;
                if (strchr("oVb", c) && arg) {
                    if (c == 'o')
                        (void)set_prop(st, &props, arg);
                    else if (c == 'b') {
                        char *v = pb_ingest_norm_param("volblocksize", arg);
                        ds_set(&props, "volblocksize", v, st->origin);
                        free(v);
                    }
                    i++;
                }
                continue;
            }
            dataset = t;
        }
    } else if (!strcmp(tok[1], "inherit")) {
        const char *prop = NULL;
        for (size_t i = 2; i < ntok; i++) {
            if (tok[i][0] == '-')
                continue;
            if (!prop)
                prop = tok[i];
            else if (!dataset)
                dataset = tok[i];
        }
        const char *key = prop ? prop_key(prop, strlen(prop)) : NULL;
        if (key && dataset) {
            struct pool *p = pool_of(st, dataset);
            ds_del(&p->dims, key);
            snapshot(st);
        }
        return;
    } else {
        return;
    }
    if (dataset && is_device(dataset) && props.n) {
        struct pool *p = pool_of(st, dataset);
        for (size_t i = 0; i < props.n; i++)
            ds_set(&p->dims, props.v[i].key, props.v[i].value,
                   props.v[i].origin);
        snapshot(st);
    }
    ds_release(&props);
}

static void cmd_hdparm(struct state *st, char **tok, size_t ntok)
{
    for (size_t i = 1; i < ntok; i++) {
        const char *t = tok[i];
        const char *v = NULL;
        if (!strncmp(t, "-W", 2) && t[2])
            v = t + 2;
        else if (!strcmp(t, "-W") && i + 1 < ntok)
            v = tok[i + 1];
        if (v && (!strcmp(v, "0") || !strcmp(v, "1"))) {
            ds_set(&st->global, "write_cache", *v == '1' ? "on" : "off",
                   st->origin);
            snapshot(st);
            return;
        }
    }
}

/* ==== one command ==== */

struct line_ctx {
    struct state *st;
    int *is_cmd;
};

/* A known command of a shell line (pb_cmd_split): tok[0] is zpool, zfs,
 * hdparm or fio, after any wrappers. */
static void on_command(void *vctx, char **tok, size_t ntok)
{
    struct line_ctx *lc = vctx;
    struct state *st = lc->st;
    *lc->is_cmd = 1;
    st->out->ncommands++;
    /* origin: the command as typed, without sudo */
    struct pb_buf o = PB_BUF_INIT;
    pb_buf_printf(&o, "command: line %ld:", st->line);
    for (size_t x = 0; x < ntok && o.len < ORIGIN_CMD_MAX; x++)
        pb_buf_printf(&o, " %s", tok[x]);
    char *os = (char *)pb_buf_str(&o);
    for (char *q = os; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    if (strlen(os) >= ORIGIN_CMD_MAX)
        snprintf(st->origin, sizeof(st->origin), "%.*s...", ORIGIN_CMD_MAX,
                 os);
    else
        snprintf(st->origin, sizeof(st->origin), "%s", os);
    pb_buf_release(&o);
    const char *b = pb_cmd_base_name(tok[0]);
    if (!strcmp(b, "zpool"))
        cmd_zpool(st, tok, ntok);
    else if (!strcmp(b, "zfs"))
        cmd_zfs(st, tok, ntok);
    else if (!strcmp(b, "hdparm"))
        cmd_hdparm(st, tok, ntok);
}

/* ==== scan ==== */

void pb_cmd_scan(const char *buf, size_t len, struct pb_cmd_notes *out)
{
    memset(out, 0, sizeof(*out));
    struct state st = {0};
    st.out = out;
    st.line = 0;
    snapshot(&st); /* epoch 0: nothing known, before line 1 */
    struct pb_buf joined = PB_BUF_INIT;
    const char *p = buf, *end = buf + len;
    long line = 0, start_line = 0, first_line = 0;
    char *first = NULL;
    size_t first_n = 0;
    int first_is_cmd = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        line++;
        while (n && p[n - 1] == '\r')
            n--;
        if (joined.len == 0)
            start_line = line;
        int cont = n && p[n - 1] == '\\';
        const char *s = p;
        size_t sn = n;
        const char *next = nl ? nl + 1 : end;
        if (joined.len || (cont && next < end)) {
            /* a continued command: join its lines */
            if (joined.len + n <= LINE_MAX_SCAN) {
                pb_buf_add(&joined, p, cont ? n - 1 : n);
            } else {
                pb_buf_reset(&joined); /* too long for a command */
                start_line = 0;
            }
            p = next;
            if (cont && p < end) {
                pb_buf_putc(&joined, ' ');
                continue;
            }
            s = pb_buf_str(&joined);
            sn = joined.len;
        } else {
            p = next;
            if (n > LINE_MAX_SCAN)
                sn = 0;
        }
        while (sn && (*s == ' ' || *s == '\t')) {
            s++;
            sn--;
        }
        /* most lines are output: look closer only at those naming a
         * tool, and at the first line (the title?) */
        int tool = sn && start_line && pb_cmd_names_tool(s, sn);
        if (sn && start_line && (tool || !first)) {
            size_t pl = pb_cmd_prompt_len(s, sn);
            /* `# Title` is a Markdown heading unless a command follows */
            int is_cmd = pl > 0 && s[0] != '#';
            st.line = start_line;
            if (tool) {
                struct line_ctx lc = {&st, &is_cmd};
                pb_cmd_split(s + pl, sn - pl, on_command, &lc);
            }
            if (!first) {
                first = pb_xstrndup(s, sn);
                first_n = sn;
                first_line = start_line;
                first_is_cmd = is_cmd;
            }
        }
        pb_buf_reset(&joined);
    }
    pb_buf_release(&joined);
    /* The title: the first line, when it is prose (context.c takes it
     * on its own only in a note with commands). */
    if (first && !first_is_cmd)
        pb_cmd_take_title(out, first, first_n, first_line);
    free(first);
    for (size_t i = 0; i < st.npools; i++) {
        free(st.pools[i].name);
        ds_release(&st.pools[i].dims);
        pb_vtree_release(&st.pools[i].tree);
    }
    free(st.pools);
    ds_release(&st.global);
}

void pb_cmd_notes_release(struct pb_cmd_notes *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nepochs; i++) {
        for (size_t k = 0; k < n->epochs[i].ndims; k++)
            dim_release(&n->epochs[i].dims[k]);
        free(n->epochs[i].dims);
    }
    free(n->epochs);
    free(n->title);
    memset(n, 0, sizeof(*n));
}

const struct pb_cmd_epoch *pb_cmd_epoch_at(const struct pb_cmd_notes *n,
                                           long line)
{
    if (!n->nepochs)
        return NULL;
    if (line <= 0)
        return &n->epochs[n->nepochs - 1];
    size_t lo = 0, hi = n->nepochs; /* last epoch with .line <= line */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (n->epochs[mid].line <= line)
            lo = mid;
        else
            hi = mid;
    }
    return &n->epochs[lo];
}
