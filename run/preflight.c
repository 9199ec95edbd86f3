/* The preflight: before anything is created, learn what the ZFS and fio in
 * use can do (their own help tables), check every pool value, vdev kind,
 * dataset/zvol property and fio option of the plan against it, and
 * estimate the space each cell needs against what its pool holds. A value
 * this ZFS lacks is a plan error at its line, or (on_unsupported = skip)
 * the reason its cells are recorded as skipped. */
#define _GNU_SOURCE
#include "run/preflight_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)

/* ==== probing ==== */

/* Run a read-only query even in a dry run (the preflight needs its
 * answer); it goes to commands.log like any command. Output: stdout and
 * stderr together (the help tables go to stderr). With caps_from, the
 * answer is read from a file of that folder instead (tests). */
static int query(struct pb_run_exec *x, const char *caps_from,
                 const char *const *argv, struct pb_buf *out)
{
    if (caps_from) {
        /* "zfs get" -> DIR/zfs-get-usage.txt, "zpool upgrade -v" ->
         * DIR/zpool-upgrade-v.txt, "zfs version" -> DIR/zfs-version.txt */
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s-%s%s.txt", caps_from, argv[0],
                 argv[1], !strcmp(argv[1], "get") ? "-usage"
                          : argv[2]               ? "-v"
                                                  : "");
        char *buf;
        size_t len;
        struct pb_err e = {0};
        pb_buf_reset(out);
        if (pb_read_file(path, &buf, &len, &e) != PB_OK)
            return -1;
        pb_buf_add(out, buf, len);
        free(buf);
        return 0;
    }
    struct pb_run_exec q = *x;
    q.dry_run = 0;
    struct pb_run_res res = {0};
    int rc = pb_run_cmd(&q, argv, PB_RUN_CAPTURE, &res);
    pb_buf_reset(out);
    pb_buf_add(out, pb_buf_str(&res.out), res.out.len);
    pb_buf_add(out, pb_buf_str(&res.err), res.err.len);
    pb_run_res_release(&res);
    return rc;
}

enum pb_run_impl pb_run_caps_probe(struct pb_run_exec *x,
                                   enum pb_run_impl impl,
                                   const char *caps_dir,
                                   struct pb_run_caps *caps)
{
    memset(caps, 0, sizeof(*caps));
    struct pb_buf out = PB_BUF_INIT;
    const char *zget[] = {"zfs", "get", NULL};
    const char *pget[] = {"zpool", "get", NULL};
    const char *upg[] = {"zpool", "upgrade", "-v", NULL};
    const char *ver[] = {"zfs", "version", NULL};
    query(x, caps_dir, zget, &out);
    caps->nds = pb_run_props_parse(pb_buf_str(&out), &caps->ds);
    query(x, caps_dir, pget, &out);
    caps->npool = pb_run_props_parse(pb_buf_str(&out), &caps->pool);
    if (query(x, caps_dir, upg, &out) == 0) {
        caps->pool_version = pb_run_pool_version_parse(pb_buf_str(&out));
        /* the special and dedup allocation classes (OpenZFS 0.8 on) */
        caps->alloc_classes =
            strstr(pb_buf_str(&out), "allocation_classes") != NULL;
    }
    /* Which ZFS, from what it answers (a remote server's cannot be told
     * from this machine's /sys/module): a plain pool version (no feature
     * flags) is zfs-fuse's, anything else OpenZFS's. */
    if (impl == PB_RUN_IMPL_AUTO)
        impl = caps->pool_version > 0 && caps->pool_version < 5000
                   ? PB_RUN_IMPL_ZFS_FUSE
                   : PB_RUN_IMPL_OPENZFS;
    char v[64] = "";
    if (impl != PB_RUN_IMPL_ZFS_FUSE && query(x, caps_dir, ver, &out) == 0)
        snprintf(v, sizeof(v), " %.*s", (int)strcspn(pb_buf_str(&out), "\n"),
                 pb_buf_str(&out));
    if (impl == PB_RUN_IMPL_ZFS_FUSE) {
        snprintf(caps->name, sizeof(caps->name), "zfs-fuse (pool version "
                 "%d)", caps->pool_version);
        caps->file_cache = 0; /* "cannot use a file as a cache device" */
        caps->zvols = 0;      /* no /dev/zvol nodes */
    } else {
        snprintf(caps->name, sizeof(caps->name), "OpenZFS%s", v);
        caps->file_cache = 1;
        caps->zvols = 1;
    }
    pb_run_note(x, "preflight: %s%s%s; %zu dataset and %zu pool properties "
                "known%s", caps->name, x->host ? " on " : "",
                x->host ? x->host : "", caps->nds, caps->npool,
                caps->nds ? "" : " (property table unreadable: property "
                                 "values are not checked)");
    pb_buf_release(&out);
    return impl;
}

/* ==== what a combination lacks ==== */

struct checker {
    const struct pb_run_plan *p;
    const struct pb_run_caps *caps;
    struct pb_run_exec *x;
    struct pb_run_pre *pre;
    struct pb_err *err;
    int skip; /* on_unsupported = skip */
};

/* A combination that cannot run: an error at the key's line, or the
 * reason kept for its cells. Returns -1 when the preflight stops. */
static int lacks(struct checker *k, enum pb_run_sect s, size_t combo,
                 long line, const char *key, const char *value,
                 const char *why)
{
    char msg[512];
    snprintf(msg, sizeof(msg), "%s=%s: %s %s", key, value, k->caps->name,
             why);
    if (!k->skip) {
        pb_err_set(k->err, PB_EUSAGE, k->p->path, line, 0,
                   "%s (or [plan] on_unsupported = skip)", msg);
        return -1;
    }
    if (!k->pre->why[s][combo])
        k->pre->why[s][combo] = pb_xstrdup(msg);
    return 0;
}

static int check_pool(struct checker *k)
{
    const struct pb_run_plan *p = k->p;
    const struct pb_run_section *sec = &p->sect[PB_RUN_POOL];
    int pv = k->caps->pool_version;
    char buf[300];
    for (size_t c = 0; c < sec->ncombos; c++)
        for (size_t a = 0; a < sec->n; a++) {
            const char *key = sec->ax[a].key;
            const char *v = pb_run_axis_value(p, PB_RUN_POOL, c, a);
            const char *why = NULL;
            if (!strcmp(key, "ashift") && k->caps->npool)
                why = pb_run_prop_check(k->caps->pool, k->caps->npool,
                                        "ashift", v, buf, sizeof(buf));
            if (!strcmp(key, "layout") && pv > 0) {
                struct pb_run_layout l;
                struct pb_err lerr = {0};
                if (pb_run_layout_parse(v, p->data.n, &l, &lerr) == PB_OK) {
                    int need = !strcmp(l.type, "raidz3")   ? 17
                               : !strcmp(l.type, "raidz2") ? 3
                                                           : 0;
                    if (pv < need) {
                        snprintf(buf, sizeof(buf), "has no %s (pool "
                                 "version %d needed)", l.type, need);
                        why = buf;
                    }
                }
            }
            if (!strcmp(key, "log") && strcmp(v, "none") && pv > 0 && pv < 7)
                why = "has no log devices (pool version 7 needed)";
            if (!strcmp(key, "cache") && !strcmp(v, "on") && pv > 0 &&
                pv < 10)
                why = "has no cache devices (pool version 10 needed)";
            if (why && lacks(k, PB_RUN_POOL, c, sec->ax[a].line, key, v,
                             why) != 0)
                return -1;
        }
    return 0;
}

/* The tables print "512 to 128k" for volblocksize and "512 to 1M" for
 * recordsize, yet a ZFS with feature flags (large_blocks) takes powers of
 * two up to 16M: the table's bound is not the limit there. */
static int large_block(const struct pb_run_caps *caps, const char *key,
                       const char *v)
{
    double b;
    if (caps->pool_version < 5000 ||
        (strcmp(key, "recordsize") && strcmp(key, "volblocksize")) ||
        pb_parse_size(v, 0, &b) != 0 || b < 512 || b > 16 * MIB)
        return 0;
    return log2(b) == floor(log2(b));
}

static int check_data(struct checker *k)
{
    const struct pb_run_plan *p = k->p;
    const struct pb_run_section *sec = &p->sect[PB_RUN_DATA];
    char buf[600];
    for (size_t c = 0; c < sec->ncombos; c++) {
        if (p->zvol && !k->caps->zvols) {
            long line = sec->n ? sec->ax[0].line : 0;
            if (lacks(k, PB_RUN_DATA, c, line, "kind", "zvol",
                      "has no zvols (no /dev/zvol device nodes; zvols need "
                      "OpenZFS)") != 0)
                return -1;
        }
        if (!k->caps->nds)
            continue;
        for (size_t a = 0; a < sec->n; a++) {
            const char *key = sec->ax[a].key;
            if (p->zvol && !strcmp(key, "size"))
                continue;
            const char *v = pb_run_axis_value(p, PB_RUN_DATA, c, a);
            const char *why = pb_run_prop_check(k->caps->ds, k->caps->nds,
                                                key, v, buf, sizeof(buf));
            if (why && large_block(k->caps, key, v))
                why = NULL;
            /* no sync property (zfs-fuse): fio sync=1 stands in for
             * always; standard is what every write gets anyway */
            if (why && !strcmp(key, "sync") &&
                pb_run_caps_lacks(k->caps, "sync") &&
                (!strcmp(v, "always") || !strcmp(v, "standard")))
                why = NULL;
            if (why && lacks(k, PB_RUN_DATA, c, sec->ax[a].line, key, v,
                             why) != 0)
                return -1;
        }
    }
    return 0;
}

/* Is key an option of one of the plan's io engines (`fio --enghelp`)? */
static int engine_option(struct checker *k, const char *key)
{
    const struct pb_run_plan *p = k->p;
    const struct pb_run_section *sec = &p->sect[PB_RUN_FIO];
    struct pb_buf out = PB_BUF_INIT;
    int found = 0;
    for (size_t a = 0; a < sec->n && !found; a++) {
        if (strcmp(sec->ax[a].key, "ioengine"))
            continue;
        for (size_t j = 0; j < sec->ax[a].nvals && !found; j++) {
            /* fio --enghelp=LIB loads LIB (its constructors run): never
             * for an engine that loads code, not even with --allow-exec
             * (a dry run runs nothing of the plan) */
            if (pb_run_fio_engine_execs(sec->ax[a].vals[j]))
                continue;
            char *arg = pb_xasprintf("--enghelp=%s", sec->ax[a].vals[j]);
            const char *argv[] = {"fio", arg, NULL};
            query(k->x, NULL, argv, &out);
            free(arg);
            size_t kl = strlen(key);
            for (const char *q = pb_buf_str(&out); *q && !found;) {
                found = !strncmp(q, key, kl) &&
                        (q[kl] == ' ' || q[kl] == ':');
                q += strcspn(q, "\n");
                if (*q)
                    q++;
            }
        }
    }
    pb_buf_release(&out);
    return found;
}

static int check_fio(struct checker *k)
{
    const struct pb_run_plan *p = k->p;
    const struct pb_run_section *sec = &p->sect[PB_RUN_FIO];
    struct pb_buf out = PB_BUF_INIT;
    int rc = 0;
    for (size_t a = 0; a < sec->n && rc == 0; a++) {
        const char *key = sec->ax[a].key;
        char *arg = pb_xasprintf("--cmdhelp=%s", key);
        const char *argv[] = {"fio", arg, NULL};
        int ran = query(k->x, NULL, argv, &out) == 0;
        free(arg);
        if (!ran) {
            pb_run_note(k->x, "preflight: fio does not answer --cmdhelp: "
                        "fio options are not checked");
            break;
        }
        char **vals = NULL;
        int known = pb_run_fio_help_parse(pb_buf_str(&out), &vals);
        if (!known && engine_option(k, key))
            known = 1;
        for (size_t c = 0; c < sec->ncombos && rc == 0; c++) {
            const char *v = pb_run_axis_value(p, PB_RUN_FIO, c, a);
            char why[400] = "";
            if (!known) {
                snprintf(why, sizeof(why), "this fio has no option '%s' "
                         "(fio --cmdhelp)", key);
            } else if (vals) {
                /* rw = randread:8 and the like: the part before ':' */
                size_t vl = strcspn(v, ":");
                int ok = 0;
                for (size_t i = 0; vals[i] && !ok; i++)
                    ok = strlen(vals[i]) == vl && !strncmp(vals[i], v, vl);
                if (!ok)
                    snprintf(why, sizeof(why), "is not a value this fio "
                             "takes for '%s' (fio --cmdhelp=%s)", key, key);
            }
            if (*why) {
                char msg[600];
                snprintf(msg, sizeof(msg), "%s=%s: %s", key, v, why);
                if (!k->skip) {
                    pb_err_set(k->err, PB_EUSAGE, p->path, sec->ax[a].line,
                               0, "%s (or [plan] on_unsupported = skip)",
                               msg);
                    rc = -1;
                } else if (!k->pre->why[PB_RUN_FIO][c]) {
                    k->pre->why[PB_RUN_FIO][c] = pb_xstrdup(msg);
                }
            }
        }
        pb_run_strv_free(vals);
    }
    pb_buf_release(&out);
    return rc;
}

/* fio options that do nothing for a cell's workload (fsync on a read-only
 * job, rwmixread on a job that does not mix): fio ignores them without a
 * word, so the preflight says so, once per option and value. */
static void check_fio_applies(struct checker *k)
{
    static const char *const write_only[] = {
        "fsync", "fdatasync", "end_fsync", "fsync_on_close", "sync",
        "buffer_compress_percentage", "buffer_compress_chunk",
        "refill_buffers", "dedupe_percentage", "write_barrier", NULL};
    static const char *const mixed_only[] = {"rwmixread", "rwmixwrite",
                                             NULL};
    const struct pb_run_plan *p = k->p;
    const struct pb_run_section *sec = &p->sect[PB_RUN_FIO];
    size_t rw_axis = sec->n;
    for (size_t a = 0; a < sec->n; a++)
        if (!strcmp(sec->ax[a].key, "rw") || !strcmp(sec->ax[a].key,
                                                      "readwrite"))
            rw_axis = a;
    char **said = NULL;
    size_t nsaid = 0, capsaid = 0;
    for (size_t c = 0; c < sec->ncombos; c++) {
        const char *rw = rw_axis < sec->n
                             ? pb_run_axis_value(p, PB_RUN_FIO, c, rw_axis)
                             : "read"; /* fio's default */
        size_t rl = strcspn(rw, ":");
        int reads_only = (rl == 4 && !strncmp(rw, "read", 4)) ||
                         (rl == 8 && !strncmp(rw, "randread", 8));
        int mixed = (rl == 2 && !strncmp(rw, "rw", 2)) ||
                    (rl == 6 && !strncmp(rw, "randrw", 6)) ||
                    (rl == 9 && !strncmp(rw, "readwrite", 9));
        for (size_t a = 0; a < sec->n; a++) {
            const char *key = sec->ax[a].key;
            const char *v = pb_run_axis_value(p, PB_RUN_FIO, c, a);
            int inert = 0, mix = 0;
            for (size_t i = 0; reads_only && write_only[i] && !inert; i++)
                inert = !strcmp(key, write_only[i]);
            for (size_t i = 0; !mixed && mixed_only[i] && !inert; i++)
                inert = mix = !strcmp(key, mixed_only[i]);
            if (!inert || !strcmp(v, "0"))
                continue;
            char *msg = pb_xasprintf("%s=%s does not apply to rw=%.*s (%s): "
                                     "fio ignores it", key, v, (int)rl, rw,
                                     mix ? "it does not mix reads and "
                                           "writes"
                                         : "it writes nothing");
            int dup = 0;
            for (size_t i = 0; i < nsaid && !dup; i++)
                dup = !strcmp(said[i], msg);
            if (dup) {
                free(msg);
                continue;
            }
            pb_run_note(k->x, "preflight: warning: %s:%ld: %s", p->path,
                        sec->ax[a].line, msg);
            if (!k->x->dry_run) { /* shared plans: no raw escapes */
                char *t = pb_term_str(msg), *f = pb_term_str(p->path);
                fprintf(stderr, "poolbench: warning: %s:%ld: %s\n", f,
                        sec->ax[a].line, t);
                free(t);
                free(f);
            }
            PB_GROW(said, capsaid, nsaid + 1);
            said[nsaid++] = msg;
        }
    }
    for (size_t i = 0; i < nsaid; i++)
        free(said[i]);
    free(said);
}

/* ==== space ==== */

double pb_run_alloc_factor(const struct pb_run_layout *l, int ashift,
                           double record)
{
    double sector = ldexp(1, ashift);
    double d = ceil(record / sector); /* data sectors of one record */
    double total = d;
    int parity = !strcmp(l->type, "raidz1")   ? 1
                 : !strcmp(l->type, "raidz2") ? 2
                 : !strcmp(l->type, "raidz3") ? 3
                                              : 0;
    if (parity) {
        /* parity per row of (width - parity) data sectors, the whole
         * allocation padded to a multiple of parity + 1 */
        total = d + parity * ceil(d / (l->width - parity));
        total = ceil(total / (parity + 1)) * (parity + 1);
    }
    return total * sector / record;
}

static double vdev_bytes(const struct pb_run_vdev *v)
{
    if (v->is_file)
        return v->size;
    int fd = open(v->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    off_t end = lseek(fd, 0, SEEK_END);
    close(fd);
    return end > 0 ? (double)end : 0;
}

void pb_run_space_of(const struct pb_run_plan *p, const struct pb_run_cell *c,
                     struct pb_run_space *out)
{
    memset(out, 0, sizeof(*out));
    size_t pc = c->combo[PB_RUN_POOL], dc = c->combo[PB_RUN_DATA],
           fc = c->combo[PB_RUN_FIO];
    struct pb_run_layout l;
    struct pb_err lerr = {0};
    const char *lay = pb_run_value(p, PB_RUN_POOL, pc, "layout");
    if (pb_run_layout_parse(lay ? lay : "stripe", p->data.n, &l, &lerr) !=
        PB_OK)
        return;
    const char *as = pb_run_value(p, PB_RUN_POOL, pc, "ashift");
    out->ashift = as ? atoi(as) : 12;
    double rec = p->zvol ? 8192 : 131072;
    const char *rs = pb_run_value(p, PB_RUN_DATA, dc,
                                  p->zvol ? "volblocksize" : "recordsize");
    if (rs && pb_parse_size(rs, 0, &rec) != 0)
        rec = p->zvol ? 8192 : 131072;
    out->record = rec;
    double data = 0, nj = 1;
    const char *v = pb_run_value(p, p->zvol ? PB_RUN_DATA : PB_RUN_FIO,
                                 p->zvol ? dc : fc, "size");
    if (!v || pb_parse_size(v, 0, &data) != 0)
        return; /* "50%" and the like: no estimate */
    v = pb_run_value(p, PB_RUN_FIO, fc, "numjobs");
    if (!p->zvol && v)
        nj = atof(v) > 0 ? atof(v) : 1;
    /* filesize x nrfiles may make the files larger than size */
    double fsz, nf = 1;
    v = pb_run_value(p, PB_RUN_FIO, fc, "filesize");
    if (!p->zvol && v && pb_parse_size(v, 0, &fsz) == 0) {
        const char *nr = pb_run_value(p, PB_RUN_FIO, fc, "nrfiles");
        if (nr && atof(nr) >= 1)
            nf = atof(nr);
        if (fsz * nf > data)
            data = fsz * nf;
    }
    out->data = data * nj;
    out->factor = pb_run_alloc_factor(&l, out->ashift, rec);
    double copies = 1;
    v = pb_run_value(p, PB_RUN_DATA, dc, "copies");
    if (v && atof(v) >= 1)
        copies = atof(v);
    /* metadata: indirect blocks and dnodes, a tenth, and 16 MiB */
    out->need = out->data * out->factor * copies * 1.1 + 16 * MIB;
    /* capacity: each group's smallest vdev, labels off; raidz counted
     * raw (its parity is in the factor), a mirror as one vdev */
    double raw = 0;
    int stripe = !strcmp(l.type, "stripe");
    int mirror = !strcmp(l.type, "mirror");
    for (int g = 0; g < (stripe ? 1 : l.groups); g++) {
        double mn = -1;
        for (int i = 0; i < l.width; i++) {
            size_t k = (size_t)g * (size_t)l.width + (size_t)i;
            double b = k < p->data.n ? vdev_bytes(&p->data.v[k]) : 0;
            if (stripe)
                raw += b - 8 * MIB;
            else if (mn < 0 || b < mn)
                mn = b;
        }
        if (!stripe)
            raw += (mn - 8 * MIB) * (mirror ? 1 : l.width);
    }
    /* the slop ZFS keeps back: 1/32, at least 128 MiB, at most half */
    double slop = fmax(raw / 32, 128 * MIB);
    if (slop > raw / 2)
        slop = raw / 2;
    out->capacity = raw > 0 ? raw - slop : 0;
}

static int check_space(struct checker *k)
{
    const struct pb_run_plan *p = k->p;
    struct pb_buf label = PB_BUF_INIT, test = PB_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < p->ncells && rc == 0; i++) {
        struct pb_run_cell c;
        pb_run_cell_at(p, i, &c);
        if (pb_run_pre_why(k->pre, &c))
            continue;
        struct pb_run_space s;
        pb_run_space_of(p, &c, &s);
        if (s.data <= 0 || s.capacity <= 0 || s.need <= s.capacity)
            continue;
        pb_run_plan_describe(p, i, &label, &test);
        char d[32], n[32], cap[32], r[32];
        pb_err_set(k->err, PB_EUSAGE, p->path,
                   p->data.n ? p->data.v[0].line : 0, 0,
                   "cell %zu/%zu does not fit its pool: %s of data x %.2f "
                   "(ashift=%d, %s=%s) + metadata = about %s; the pool holds "
                   "about %s: larger vdevs or a smaller fio size (%s | %s)",
                   i + 1, p->ncells,
                   pb_run_approx_size(s.data, d, sizeof(d)), s.factor,
                   s.ashift, p->zvol ? "volblocksize" : "recordsize",
                   pb_fmt_size(s.record, r, sizeof(r)),
                   pb_run_approx_size(s.need, n, sizeof(n)),
                   pb_run_approx_size(s.capacity, cap, sizeof(cap)),
                   pb_buf_str(&label),
                   pb_buf_str(&test));
        rc = -1;
    }
    pb_buf_release(&label);
    pb_buf_release(&test);
    return rc;
}

/* ==== during the run ==== */

int pb_run_pool_nearly_full(const char *mnt, const char *pool,
                            struct pb_err *err)
{
    struct statvfs st;
    if (statvfs(mnt, &st) != 0 || st.f_blocks == 0)
        return 0;
    double unit = st.f_frsize ? (double)st.f_frsize : (double)st.f_bsize;
    double avail = (double)st.f_bavail * unit;
    double total = (double)st.f_blocks * unit;
    if (avail >= total / 20 && avail >= 8 * MIB)
        return 0;
    char a[32], t[32];
    pb_err_say(err, PB_ERUN,
               "pool '%s' is nearly full (%s of %s free): fio was "
               "stopped before ZFS runs out of space; make the vdevs larger "
               "or the fio size smaller",
               pool, pb_run_approx_size(avail, a, sizeof(a)),
               pb_run_approx_size(total, t, sizeof(t)));
    return 1;
}

void pb_run_plan_facts(const struct pb_run_plan *p,
                       const struct pb_run_caps *caps,
                       struct pb_resultset *set)
{
    char buf[300];
    if (p->time_scale != 1) {
        snprintf(buf, sizeof(buf), "%g (fio runtimes, sizes and repeats "
                 "scaled down: a smoke run)", p->time_scale);
        pb_rs_fact(set, NULL, "run_time_scale", buf);
    }
    if (!pb_run_caps_lacks(caps, "sync"))
        return;
    const char *fio_sync = pb_run_value(p, PB_RUN_FIO, 0, "sync");
    if (pb_run_value(p, PB_RUN_DATA, 0, "sync"))
        snprintf(buf, sizeof(buf), "%s has no sync property: the "
                 "dataset's sync=always comes from fio sync=1 (O_SYNC: "
                 "every write through the ZIL), unless [fio] sets sync "
                 "itself; sync=standard is left out", caps->name);
    else if (fio_sync)
        snprintf(buf, sizeof(buf), "%s has no sync property: "
                 "synchronous writes come from fio sync=%s (O_SYNC), "
                 "not from the dataset", caps->name, fio_sync);
    else
        return;
    pb_rs_fact(set, NULL, "zfs_sync", buf);
}

/* ==== the preflight ==== */

int pb_run_preflight(const struct pb_run_plan *p,
                     const struct pb_run_caps *caps, struct pb_run_exec *x,
                     int fio_check, struct pb_run_pre *pre,
                     struct pb_err *err)
{
    memset(pre, 0, sizeof(*pre));
    for (int s = 0; s < PB_RUN_NSECT; s++) {
        pre->n[s] = p->sect[s].ncombos ? p->sect[s].ncombos : 1;
        pre->why[s] = pb_xcalloc(pre->n[s], sizeof(char *));
    }
    struct checker k = {p, caps, x, pre, err, p->skip_unsupported};
    if (check_pool(&k) != 0 || check_data(&k) != 0 ||
        (fio_check && check_fio(&k) != 0) || check_space(&k) != 0)
        return err->code;
    check_fio_applies(&k);
    return PB_OK;
}

const char *pb_run_pre_why(const struct pb_run_pre *pre,
                           const struct pb_run_cell *c)
{
    for (int s = 0; s < PB_RUN_NSECT; s++)
        if (pre->why[s] && c->combo[s] < pre->n[s] &&
            pre->why[s][c->combo[s]])
            return pre->why[s][c->combo[s]];
    return NULL;
}

void pb_run_pre_release(struct pb_run_pre *pre)
{
    for (int s = 0; s < PB_RUN_NSECT; s++) {
        for (size_t i = 0; pre->why[s] && i < pre->n[s]; i++)
            free(pre->why[s][i]);
        free(pre->why[s]);
    }
    memset(pre, 0, sizeof(*pre));
}
