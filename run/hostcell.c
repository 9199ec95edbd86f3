/* A cell of a plan with [hosts]: every server's pool and dataset made
 * through its shell (remote = local: here; else the template, argv only),
 * one fio run with a --client and a job file per server, the results
 * mapped back to the plan's server entries (the result host), properties
 * captured per server, and a server that does not answer failing its part
 * only: the others' results are kept and marked flag.partial, and cleanup
 * runs on every server that was touched. */
#define _GNU_SOURCE
#include "run/run_loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Host i's remote argv ({host} replaced, --ssh PROGRAM for ssh), or
 * NULL when its pool work runs here. Free with pb_run_hosts_argv_free. */
static char **host_remote(const struct run *r, size_t i)
{
    char **rem = pb_run_hosts_remote(r->p, i);
    if (rem && r->o->ssh && !strcmp(rem[0], "ssh")) {
        /* --ssh PROGRAM: the ssh of the command line, not PATH's */
        free(rem[0]);
        rem[0] = pb_xstrdup(r->o->ssh);
    }
    return rem;
}

int pb_run_hosts_probe(struct run *r, struct pb_err *err)
{
    const struct pb_run_plan *p = r->p;
    /* The first server whose ZFS is known and its name: a sock: server's
     * pool is made here, with this machine's ZFS (in r->caps already). */
    size_t ref = p->hosts.n;
    char ref_name[sizeof(r->caps.name)] = "";
    for (size_t i = 0; i < p->hosts.n && ref == p->hosts.n; i++)
        if (p->hosts.h[i].sock) {
            ref = i;
            snprintf(ref_name, sizeof(ref_name), "%s", r->caps.name);
        }
    int have_remote = 0;
    for (size_t i = 0; i < p->hosts.n; i++) {
        char **rem = host_remote(r, i);
        if (!rem)
            continue;
        if (r->x.dry_run) {
            /* a dry run reaches no server (it would run the template):
             * their ZFS stays unknown, the values unchecked */
            pb_run_hosts_argv_free(rem);
            if (!have_remote) {
                pb_run_caps_release(&r->caps);
                memset(&r->caps, 0, sizeof(r->caps));
                snprintf(r->caps.name, sizeof(r->caps.name),
                         "the servers' ZFS (not asked in a dry run)");
                pb_run_note(&r->x, "preflight: the servers' ZFS is not "
                            "asked in a dry run (that would run the remote "
                            "template): their property values are not "
                            "checked");
                have_remote = 1;
            }
            continue;
        }
        struct pb_run_exec x = r->x;
        x.watch = NULL;
        x.watch_ctx = NULL;
        x.host = p->hosts.h[i].entry;
        x.remote = rem;
        struct pb_run_caps c;
        enum pb_run_impl impl =
            pb_run_caps_probe(&x, r->o->impl ? r->o->impl : PB_RUN_IMPL_AUTO,
                              r->o->caps_dir, &c);
        pb_run_hosts_argv_free(rem);
        if (!c.nds && !c.pool_version) {
            /* no answer through its shell: its cells fail with the
             * reason when they run; the others' ZFS decides */
            pb_run_note(&x, "preflight: %s did not answer (zpool upgrade "
                        "-v, zfs get): its ZFS is unknown",
                        p->hosts.h[i].entry);
            pb_run_caps_release(&c);
            continue;
        }
        if (!r->host_zfs)
            r->host_zfs = pb_xcalloc(p->hosts.n, sizeof(char *));
        r->host_zfs[i] = pb_xstrdup(c.name);
        if (ref == p->hosts.n) {
            ref = i;
            snprintf(ref_name, sizeof(ref_name), "%s", c.name);
        } else if (strcmp(c.name, ref_name)) {
            pb_err_set(err, PB_EUSAGE, p->path, p->hosts.line, 0,
                       "servers: '%s' runs %s but '%s' runs %s: the "
                       "servers of one plan need the same ZFS (one "
                       "preflight, one set of commands)",
                       p->hosts.h[ref].entry, ref_name,
                       p->hosts.h[i].entry, c.name);
            pb_run_caps_release(&c);
            return -1;
        }
        if (have_remote) {
            pb_run_caps_release(&c);
            continue;
        }
        /* the preflight checks the plan against the remote ZFS */
        pb_run_caps_release(&r->caps);
        r->caps = c;
        r->impl = r->z.impl = impl;
        have_remote = 1;
    }
    return 0;
}

void pb_run_hosts_setup(struct run *r)
{
    const struct pb_run_plan *p = r->p;
    r->nhosts = p->hosts.n;
    if (!r->nhosts)
        return;
    r->hosts = pb_xcalloc(r->nhosts, sizeof(*r->hosts));
    for (size_t i = 0; i < r->nhosts; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        h->p = pb_run_host_plan(p, i);
        h->remote = host_remote(r, i);
        h->x = r->x;
        h->x.watch = NULL;
        h->x.watch_ctx = NULL;
        h->x.host = p->hosts.h[i].entry;
        h->x.remote = h->remote;
        pb_run_sfmt(h->mnt, sizeof(h->mnt), "%s-h%zu", r->mnt, i + 1);
        h->z = r->z;
        h->z.x = &h->x;
        h->z.plan = h->p;
        h->z.mnt = h->mnt;
        h->z.files = NULL;
        h->z.nfiles = h->z.capfiles = 0;
    }
}

void pb_run_hosts_free(struct run *r)
{
    for (size_t i = 0; i < r->nhosts; i++) {
        free(r->hosts[i].z.files);
        pb_run_host_plan_free(r->hosts[i].p);
        pb_run_hosts_argv_free(r->hosts[i].remote);
    }
    free(r->hosts);
    r->hosts = NULL;
    r->nhosts = 0;
}

void pb_run_hosts_pools_down(struct run *r)
{
    for (size_t i = 0; i < r->nhosts; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        h->pool_failed = 0;
        h->pool_why[0] = '\0';
        pb_run_ds_destroy(&h->z);
        if (!h->z.created && !h->z.nfiles)
            continue;
        struct pb_err e = {0};
        if (pb_run_pool_destroy(&h->z, &e) != 0) {
            pb_run_warn(r, "host %s: %s", h->x.host, e.msg);
            if (!r->err->code)
                *r->err = e;
            r->fatal = 1;
        }
    }
}

/* host h's part of the cell fails with why (the first reason kept). */
static void host_fail(struct run *r, struct pb_run_hostrun *h, const char *why)
{
    if (h->why[0])
        return;
    pb_run_sfmt(h->why, sizeof(h->why), "%s", why);
    pb_run_note(&r->x, "host %s failed: %s", h->x.host, why);
    if (!r->x.dry_run)
        pb_run_say(r->o->progress, "poolbench: host %s failed: %s",
                   h->x.host, why);
}

/* The job file of host h: the cell's fio options, one a line, under one
 * [poolbench] section (fio's --client sends it as written: nothing of
 * this process's environment goes with it). */
static int write_job(struct run *r, struct pb_run_hostrun *h,
                     const struct pb_run_cell *c, const char *path)
{
    struct pb_buf b = PB_BUF_INIT;
    pb_buf_printf(&b, "; poolbench run %s, cell %zu, host %s\n[poolbench]\n",
                  r->run_id, c->index + 1, h->x.host);
    if (r->p->zvol) {
        char *dev = pb_run_zvol_dev(h->p);
        pb_buf_printf(&b, "filename=%s\n", dev);
        free(dev);
    } else {
        pb_buf_printf(&b, "directory=%s/pb\n", h->mnt);
    }
    const struct pb_run_section *f = &r->p->sect[PB_RUN_FIO];
    for (size_t i = 0; i < f->n; i++)
        pb_buf_printf(
            &b, "%s=%s\n", f->ax[i].key,
            pb_run_axis_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO], i));
    if (pb_run_sync_emulated(r->p, c, h->z.no_sync))
        pb_buf_puts(&b, "sync=1\n");
    pb_buf_puts(&b, "group_reporting=1\n");
    int rc = 0;
    if (r->x.dry_run) {
        pb_run_note(&r->x, "job file %s:", path);
        for (const char *q = pb_buf_str(&b); *q;) {
            size_t k = strcspn(q, "\n");
            pb_run_note(&r->x, "  %.*s", (int)k, q);
            q += k + (q[k] == '\n');
        }
    } else
        rc = pb_run_write_file(path, b.s, b.len);
    pb_buf_release(&b);
    return rc;
}

/* Results and facts of the fio set under the plan's server entries; the
 * hosts seen are marked in seen[]. A bare host name several servers
 * share stays as fio named it (noted). */
static void map_hosts(struct run *r, struct pb_resultset *set, int *seen)
{
    for (size_t i = 0; i < set->nresults; i++) {
        struct pb_result *q = &set->results[i];
        long m = pb_run_hosts_match(r->p, q->host);
        if (m >= 0) {
            seen[m] = 1;
            q->host = pb_rs_str(set, r->p->hosts.h[m].entry);
        } else if (m == -2) {
            pb_run_warn(r,
                        "fio named host '%s', which several servers "
                        "share: its results stay under that name",
                        q->host);
        }
    }
    for (size_t i = 0; i < set->nfacts; i++) {
        struct pb_fact *f = &set->facts[i];
        long m = pb_run_hosts_match(r->p, f->host);
        if (m >= 0)
            f->host = pb_rs_str(set, r->p->hosts.h[m].entry);
    }
}

/* `zfs get -Hp all`, `zpool get all`, `zpool status` of host h, ingested
 * as zfs-props with every result and fact under the host's entry. */
static struct pb_resultset *host_props(struct run *r, struct pb_run_hostrun *h,
                                       const struct pb_run_cell *c,
                                       const struct pb_ingest_opts *io,
                                       size_t hi)
{
    char path[PATH_MAX], sfx[32];
    snprintf(sfx, sizeof(sfx), "h%zu.zfs.txt", hi + 1);
    pb_run_cell_path(r, c->index, 0, sfx, path, sizeof(path));
    struct pb_resultset *set = pb_run_capture_props(r, &h->x, h->p, h->x.host,
                                                    path, c->index, io, NULL);
    if (set) {
        const char *host = pb_rs_str(set, h->x.host);
        for (size_t i = 0; i < set->nresults; i++)
            set->results[i].host = host;
        for (size_t i = 0; i < set->nfacts; i++)
            set->facts[i].host = host;
    }
    return set;
}

/* The facts every set of the cell carries about its servers. */
static void host_facts(struct run *r, struct pb_resultset *set,
                       const char *missing)
{
    const struct pb_run_hosts *hs = &r->p->hosts;
    struct pb_buf all = PB_BUF_INIT;
    for (size_t i = 0; i < r->nhosts; i++) {
        const char *e = hs->h[i].entry;
        char idx[24];
        snprintf(idx, sizeof(idx), "%zu", i + 1);
        pb_buf_printf(&all, "%s%s", i ? ", " : "", e);
        pb_rs_fact(set, e, "run_host_index", idx);
        pb_rs_fact(set, e, "run_host_pool", r->hosts[i].p->pool);
        if (r->hosts[i].why[0])
            pb_rs_fact(set, e, "run_host_failed", r->hosts[i].why);
    }
    pb_rs_fact(set, NULL, "run_hosts", pb_buf_str(&all));
    pb_buf_release(&all);
    if (hs->remote) {
        struct pb_buf t = PB_BUF_INIT;
        pb_run_quote(&t, (const char *const *)hs->remote);
        pb_rs_fact(set, NULL, "run_remote", pb_buf_str(&t));
        pb_buf_release(&t);
    } else {
        pb_rs_fact(set, NULL, "run_remote", "local");
    }
    if (missing && *missing)
        pb_rs_fact(set, NULL, "flag.partial", missing);
}

/* The line of fio's stderr about server h ("fio: failed to connect to
 * localhost:18766"), written into buf; NULL when none names it. */
static const char *host_line(const struct pb_run_host *h,
                             const struct pb_buf *err, char *buf, size_t n)
{
    char key[300];
    if (h->sock)
        snprintf(key, sizeof(key), "%s", h->name);
    else
        snprintf(key, sizeof(key), "%s:%ld", h->name, h->port ? h->port : 8765);
    for (const char *s = pb_buf_str(err); *s;) {
        size_t k = strcspn(s, "\n");
        const char *hit = strstr(s, key);
        if (hit && hit < s + k) {
            size_t m = k;
            while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\r'))
                m--;
            snprintf(buf, n, "%.*s", (int)m, s);
            return buf;
        }
        s += k + (s[k] == '\n');
    }
    return NULL;
}

/* The watch of the fio client: fio waits for every server, also one that
 * accepted the connection and then does not answer; stopped once the
 * cell's runtime (with ramp_time) is past by 120 s. */
static int fio_deadline(void *ctx, struct pb_err *err)
{
    struct run *r = ctx;
    if (r->fio_deadline <= 0 || pb_run_now() < r->fio_deadline)
        return 0;
    pb_err_say(err, PB_ERUN,
               "fio did not finish %.0f s after it started (runtime "
               "and ramp_time + 120 s): a server does not answer",
               r->fio_limit);
    return 1;
}

/* Seconds fio may take for cell c (runtime + ramp_time + 120), or 0 when
 * the plan gives no runtime (not watched). */
static double fio_limit(const struct run *r, const struct pb_run_cell *c)
{
    const char *rt =
        pb_run_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO], "runtime");
    const char *ramp =
        pb_run_value(r->p, PB_RUN_FIO, c->combo[PB_RUN_FIO], "ramp_time");
    double ns = 0, rs = 0;
    if (!rt || pb_parse_duration(rt, 1e9, &ns) != 0)
        return 0;
    if (ramp && pb_parse_duration(ramp, 1e9, &rs) != 0)
        rs = 0;
    return (ns + rs) / 1e9 + 120;
}

static size_t live_hosts(const struct run *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nhosts; i++)
        n += !r->hosts[i].why[0];
    return n;
}

/* One [hosts] cell while it runs (pb_run_hostcell_run and its parts). */
struct hostcell {
    const struct pb_run_cell *c;
    const char *label, *test;
    double t0;
    size_t nh;
    struct pb_kv *kv; /* the cell's dimensions */
    size_t nkv;
    struct pb_resultset **sets;  /* fio, one per repeat: got of them */
    struct pb_resultset **props; /* per server */
    struct pb_buf all, fiocmd, rawl, missing;
    struct pb_buf ferr; /* fio's stderr */
    int *seen;          /* per server: in the last fio output */
    long got;
    struct pb_run_repstop stop;
};

/* What a repeat says to the loop over them. */
enum { REP_NEXT, REP_BREAK, REP_STOPPED };

/* Pools and datasets, host by host: one that fails drops out. */
static void hc_pools(struct run *r, struct hostcell *hc)
{
    for (size_t i = 0; i < hc->nh; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        h->why[0] = '\0';
        struct pb_err w = {0};
        if (h->pool_failed) {
            host_fail(r, h, h->pool_why);
            continue;
        }
        if (!h->z.created &&
            pb_run_pool_create(&h->z, hc->c->combo[PB_RUN_POOL], &w) != PB_OK) {
            h->pool_failed = 1;
            pb_run_sfmt(h->pool_why, sizeof(h->pool_why), "%s", w.msg);
            host_fail(r, h, h->pool_why);
            continue;
        }
        if (pb_run_ds_create(&h->z, hc->c, &w) != PB_OK)
            host_fail(r, h, w.msg);
    }
}

/* Caches: this machine's page cache once, a remote host's through its
 * shell, and every pool exported and imported (its ARC). */
static void hc_drop_caches(struct run *r, struct hostcell *hc)
{
    int local = 0;
    for (size_t i = 0; i < hc->nh; i++)
        local |= !r->hosts[i].remote && !r->hosts[i].why[0];
    if (local)
        pb_run_drop_page_cache(r);
    for (size_t i = 0; i < hc->nh; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        char w[512];
        if (h->why[0])
            continue;
        if (h->remote) {
            struct pb_run_res res = {0};
            const char *syncv[] = {"sync", NULL};
            const char *dropv[] = {"sysctl", "-q", "-w", "vm.drop_caches=3",
                                   NULL};
            if (pb_run_cmd(&h->x, syncv, 0, &res) != 0 ||
                pb_run_cmd(&h->x, dropv, 0, &res) != 0) {
                char ww[300];
                pb_run_sfmt(w, sizeof(w), "its shell failed: %s",
                            pb_run_res_why(&res, ww, sizeof(ww)));
                pb_run_res_release(&res);
                host_fail(r, h, w);
                continue;
            }
            pb_run_res_release(&res);
        }
        struct pb_err e = {0};
        if (pb_run_pool_cycle(&h->z, &e) != PB_OK) {
            h->pool_failed = 1;
            pb_run_sfmt(h->pool_why, sizeof(h->pool_why), "%s", e.msg);
            host_fail(r, h, h->pool_why);
        }
    }
}

/* The fio client's argv for repeat rep, output to path, with a job file
 * per live server (written now; a server whose file cannot be written
 * drops out). */
static void hc_fio_argv(struct run *r, struct hostcell *hc, long rep,
                        const char *path, struct pb_run_argv *a)
{
    pb_run_argv_add(a, "fio");
    pb_run_argv_add(a, "--output-format=json");
    pb_run_argv_addf(a, "--output=%s", path);
    for (size_t i = 0; i < hc->nh; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        if (h->why[0])
            continue;
        char jp[PATH_MAX], sfx[32];
        snprintf(sfx, sizeof(sfx), "h%zu.fio", i + 1);
        pb_run_cell_path(r, hc->c->index, rep, sfx, jp, sizeof(jp));
        if (write_job(r, h, hc->c, jp) != 0) {
            char w[600];
            pb_run_sfmt(w, sizeof(w), "cannot write '%s': %s", jp,
                        strerror(errno));
            host_fail(r, h, w);
            continue;
        }
        pb_buf_printf(&hc->rawl, " raw/%s", strrchr(jp, '/') + 1);
        pb_run_argv_addf(a, "--client=%s", r->p->hosts.h[i].client);
        pb_run_argv_add(a, jp);
    }
}

/* fio's output of a repeat at path ingested into sets[got]; a live server
 * with no result in it drops out. rc and fw: fio's exit and message. */
static int hc_take(struct run *r, struct hostcell *hc, const char *path, int rc,
                   const char *fw)
{
    char *buf = NULL;
    size_t len = 0;
    struct pb_err e = {0};
    int ok =
        pb_read_file(path, &buf, &len, &e) == PB_OK &&
        pb_ingest_buffer(path, buf, len,
                         &(struct pb_ingest_opts){.format = "fio-json",
                                                  .label = hc->label,
                                                  .set = hc->kv,
                                                  .nset = hc->nkv,
                                                  .set_origin = r->p->path},
                         &hc->sets[hc->got], &e) == PB_OK;
    if (!ok) {
        char w[512];
        pb_run_sfmt(w, sizeof(w), "fio %s: %s",
                    rc ? "failed" : "output not ingested", rc ? fw : e.msg);
        for (size_t i = 0; i < hc->nh; i++)
            if (!r->hosts[i].why[0])
                host_fail(r, &r->hosts[i], w);
        free(buf);
        return REP_BREAK;
    }
    memset(hc->seen, 0, hc->nh * sizeof(*hc->seen));
    map_hosts(r, hc->sets[hc->got], hc->seen);
    for (size_t i = 0; i < hc->nh; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        if (h->why[0] || hc->seen[i])
            continue;
        char w[512];
        char hl[300];
        const char *say =
            host_line(&r->p->hosts.h[i], &hc->ferr, hl, sizeof(hl));
        pb_run_sfmt(w, sizeof(w),
                    "no result from its fio server (fio "
                    "exit %d%s%s)",
                    rc, say || *fw ? ": " : "", say ? say : fw);
        host_fail(r, h, w);
    }
    pb_run_patch_tests(r, hc->c->combo[PB_RUN_FIO], hc->sets[hc->got]);
    pb_buf_add(&hc->all, buf, len);
    free(buf);
    hc->got++;
    return pb_run_repeat_enough(r->p, hc->sets, hc->got, &hc->stop) ? REP_BREAK
                                                                    : REP_NEXT;
}

/* Repeat rep: caches dropped, one fio client for the live servers
 * (watched: stopped when a server does not answer), its output taken. */
static int hc_repeat(struct run *r, struct hostcell *hc, long rep)
{
    if (pb_run_stopped())
        return REP_STOPPED;
    pb_run_progress(r, hc->c, hc->label, hc->test, rep);
    hc_drop_caches(r, hc);
    if (pb_run_stopped())
        return REP_STOPPED;
    char path[PATH_MAX];
    pb_run_cell_path(r, hc->c->index, rep, "fio.json", path, sizeof(path));
    pb_buf_printf(&hc->rawl, "%sraw/%s", hc->rawl.len ? " " : "",
                  strrchr(path, '/') + 1);
    struct pb_run_argv a = {0};
    hc_fio_argv(r, hc, rep, path, &a);
    if (!live_hosts(r)) {
        pb_run_argv_release(&a);
        return REP_BREAK;
    }
    if (!r->x.dry_run && pb_run_out_fresh(path) != 0)
        pb_run_warn(r, "cannot create '%s': %s", path, strerror(errno));
    pb_buf_reset(&hc->fiocmd);
    pb_run_quote(&hc->fiocmd, (const char *const *)a.v);
    struct pb_run_res res = {0};
    int (*watch)(void *, struct pb_err *) = r->x.watch;
    r->fio_limit = fio_limit(r, hc->c);
    r->fio_deadline = r->fio_limit > 0 ? pb_run_now() + r->fio_limit : 0;
    r->x.watch = fio_deadline;
    int rc = pb_run_cmd(&r->x, (const char *const *)a.v,
                        PB_RUN_STOPPABLE | PB_RUN_WATCH, &res);
    r->x.watch = watch;
    if (res.stopped[0])
        rc = rc ? rc : -1;
    pb_run_argv_release(&a);
    if (pb_run_stopped()) {
        pb_run_res_release(&res);
        return REP_STOPPED;
    }
    char fw[300] = "";
    int said = res.err.len > 0; /* fio's message, also on exit 0 */
    if (rc || said)
        pb_run_res_why(&res, fw, sizeof(fw));
    pb_buf_reset(&hc->ferr);
    pb_buf_add(&hc->ferr, pb_buf_str(&res.err), res.err.len);
    pb_run_res_release(&res);
    if (r->x.dry_run)
        return REP_NEXT;
    return hc_take(r, hc, path, rc, fw);
}

/* Properties of each server that took part; then what is missing (the
 * servers that dropped out, and why). */
static void hc_props(struct run *r, struct hostcell *hc)
{
    struct pb_ingest_opts io = {0};
    io.label = hc->label;
    io.set = hc->kv;
    io.nset = hc->nkv;
    io.set_origin = r->p->path;
    io.format = "zfs-props";
    for (size_t i = 0; i < hc->nh && hc->got > 0; i++) {
        struct pb_run_hostrun *h = &r->hosts[i];
        struct pb_err w = {0};
        if (h->why[0])
            continue;
        if (pb_run_settle(&h->z, &w) != PB_OK) {
            pb_run_warn(r, "host %s: no zfs get: %s", h->x.host, w.msg);
            h->pool_failed = 1;
            pb_run_sfmt(h->pool_why, sizeof(h->pool_why), "%s", w.msg);
            continue;
        }
        hc->props[i] = host_props(r, h, hc->c, &io, i);
        if (hc->props[i]) {
            pb_buf_printf(&hc->rawl, " raw/%s",
                          strrchr(hc->props[i]->path, '/') + 1);
            pb_run_props_retest(hc->props[i], hc->test);
        }
    }
    for (size_t i = 0; i < hc->nh; i++)
        if (r->hosts[i].why[0])
            pb_buf_printf(&hc->missing, "%s%s (%s)",
                          hc->missing.len ? "; " : "", r->hosts[i].x.host,
                          r->hosts[i].why);
}

/* The cell's properties and fio repeats stored (with the facts of the
 * servers, the cell and the repeats); a cell some server dropped out of
 * kept partial. */
static void hc_store(struct run *r, struct hostcell *hc)
{
    const struct pb_run_cell *c = hc->c;
    const char *missing = pb_buf_str(&hc->missing);
    for (size_t i = 0; i < hc->nh; i++) {
        if (!hc->props[i])
            continue;
        host_facts(r, hc->props[i], missing);
        pb_run_cell_facts(r->p, c, NULL, pb_buf_str(&hc->rawl), hc->props[i]);
        pb_run_store(r, hc->props[i], 0);
    }
    for (long k = 0; k < hc->got; k++) {
        for (size_t i = 0; i < hc->nh; i++)
            pb_run_share_dims(hc->props[i], hc->sets[k]);
        host_facts(r, hc->sets[k], missing);
        pb_run_cell_facts(r->p, c, pb_buf_str(&hc->fiocmd),
                          pb_buf_str(&hc->rawl), hc->sets[k]);
        pb_run_repeat_facts(r->p, &hc->stop, hc->sets[k]);
    }
    struct pb_resultset *set =
        pb_run_store_fio(r, c, hc->sets, hc->got, &hc->all);
    if (set != hc->sets[0])
        pb_resultset_free(set);
    if (hc->missing.len) {
        /* its part failed: the cell is kept, partial, and the run fails */
        r->sum->partial++;
        size_t k = strlen(r->sum->partial_why);
        if (k < sizeof(r->sum->partial_why) - 1)
            snprintf(r->sum->partial_why + k, sizeof(r->sum->partial_why) - k,
                     "%scell %zu: %s", k ? "; " : "", c->index + 1, missing);
        pb_run_note(&r->x, "cell %zu/%zu kept partial: %s", c->index + 1,
                    r->p->ncells, missing);
        pb_run_say(r->o->progress, "cell %zu/%zu %s %s partial: %s",
                   c->index + 1, r->p->ncells, hc->label, hc->test, missing);
    }
    r->sum->done++;
    r->ran++;
    r->ran_secs += pb_run_now() - hc->t0;
}

/* The datasets destroyed and the cell's state freed. */
static void hc_release(struct run *r, struct hostcell *hc)
{
    for (size_t i = 0; i < hc->nh; i++) {
        pb_run_ds_destroy(&r->hosts[i].z);
        pb_resultset_free(hc->props[i]);
    }
    for (long i = 0; i < r->p->repeats; i++)
        pb_resultset_free(hc->sets[i]);
    free(hc->sets);
    free(hc->props);
    free(hc->seen);
    pb_buf_release(&hc->all);
    pb_buf_release(&hc->fiocmd);
    pb_buf_release(&hc->rawl);
    pb_buf_release(&hc->missing);
    pb_buf_release(&hc->ferr);
    pb_run_kv_free(hc->kv, hc->nkv);
}

void pb_run_hostcell_run(struct run *r, const struct pb_run_cell *c,
                         const char *label, const char *test)
{
    struct hostcell hc = {0};
    hc.c = c;
    hc.label = label;
    hc.test = test;
    hc.t0 = pb_run_now();
    hc.nh = r->nhosts;
    pb_run_cell_config(r->p, c, &hc.kv, &hc.nkv);
    hc.sets = pb_xcalloc((size_t)r->p->repeats, sizeof(*hc.sets));
    hc.props = pb_xcalloc(hc.nh, sizeof(*hc.props));
    hc.seen = pb_xcalloc(hc.nh, sizeof(*hc.seen));
    pb_run_note(&r->x, "cell %zu/%zu: %s | %s on %zu servers", c->index + 1,
                r->p->ncells, label, test, hc.nh);
    hc_pools(r, &hc);
    int step = REP_NEXT;
    for (long rep = 1; rep <= r->p->repeats && live_hosts(r); rep++)
        if ((step = hc_repeat(r, &hc, rep)) != REP_NEXT)
            break;
    if (step != REP_STOPPED) {
        hc_props(r, &hc);
        if (r->x.dry_run) {
            /* nothing to store */
        } else if (!hc.got || !live_hosts(r)) {
            char why[1024];
            pb_run_sfmt(why, sizeof(why), "every server failed: %s",
                        pb_buf_str(&hc.missing));
            pb_run_record_skip(r, c, label, test, why, 1);
        } else {
            hc_store(r, &hc);
        }
    }
    hc_release(r, &hc);
}

/* ==== the cell interface: [hosts] ==== */

static int hosts_cell(struct run *r, const struct pb_run_cell *c, size_t i,
                      const char *skip, int failed, const char *label,
                      const char *test)
{
    if (skip)
        return pb_run_cell_skipped(r, c, i, skip, failed, label, test);
    pb_run_hostcell_run(r, c, label, test);
    return r->stop != 0;
}

const struct pb_run_cells pb_run_cells_hosts = {"hosts", hosts_cell};
