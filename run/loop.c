/* Loop devices over the run's sparse files (`loop:PATH:SIZE` vdevs, and
 * file cache vdevs on a ZFS that refuses files there): attached with
 * `losetup --find --show`, recorded in DIR/manifest.tsv ("loop RUNID DEV
 * PATH", "detached RUNID DEV") and detached before their file is removed;
 * `run --cleanup` detaches what a run left attached. */
#define _GNU_SOURCE
#include "run/run_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int pb_run_loop_attach(struct pb_run_exec *x, FILE *manifest,
                       const char *run_id, struct pb_run_vdev *v,
                       struct pb_err *err)
{
    const char *argv[] = {"losetup", "--find", "--show", v->path, NULL};
    struct pb_run_res res = {0};
    int rc = pb_run_cmd(x, argv, PB_RUN_CAPTURE, &res);
    if (rc != 0) {
        char w[200];
        pb_err_say(err, PB_ERUN, "cannot attach a loop device to '%s': %s",
                   v->path, pb_run_res_why(&res, w, sizeof(w)));
        pb_run_res_release(&res);
        return PB_ERUN;
    }
    char dev[PATH_MAX];
    snprintf(dev, sizeof(dev), "%s", pb_buf_str(&res.out));
    dev[strcspn(dev, "\r\n")] = '\0';
    pb_run_res_release(&res);
    if (x->dry_run)
        snprintf(dev, sizeof(dev), "/dev/loopN");
    if (strncmp(dev, "/dev/", 5)) {
        pb_err_say(err, PB_ERUN, "losetup gave no device for '%s'", v->path);
        return PB_ERUN;
    }
    free(v->dev);
    v->dev = pb_xstrdup(dev);
    char *rec = pb_xasprintf("%s\t%s", dev, v->path);
    pb_run_manifest_add(manifest, "loop", run_id, rec);
    free(rec);
    return 0;
}

int pb_run_loop_detach(struct pb_run_exec *x, FILE *manifest,
                       const char *run_id, struct pb_run_vdev *v)
{
    if (!v->dev)
        return 0;
    const char *argv[] = {"losetup", "-d", v->dev, NULL};
    struct pb_run_res res = {0};
    int rc = pb_run_cmd(x, argv, 0, &res);
    pb_run_res_release(&res);
    if (rc != 0)
        return -1;
    pb_run_manifest_add(manifest, "detached", run_id, v->dev);
    free(v->dev);
    v->dev = NULL;
    return 0;
}

/* The loop records of run_id in the manifest at path that have no
 * "detached" after them: "DEV\tPATH\n" lines appended to b. */
static void live_loops(const char *path, const char *run_id, struct pb_buf *b)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[PATH_MAX * 2 + 128];
    struct pb_buf all = PB_BUF_INIT;
    while (fgets(line, sizeof(line), fp)) {
        line[strcspn(line, "\n")] = '\0';
        char *f[4] = {line, NULL, NULL, NULL};
        int k = 1;
        for (char *p = line; *p && k < 4; p++)
            if (*p == '\t') {
                *p = '\0';
                f[k++] = p + 1;
            }
        if (k < 3 || strcmp(f[1], run_id))
            continue;
        if (!strcmp(f[0], "loop") && k == 4) {
            pb_buf_printf(&all, "%s\t%s\n", f[2], f[3]);
        } else if (!strcmp(f[0], "detached")) {
            /* drop the last live record of that device */
            char *s = all.s;
            size_t dl = strlen(f[2]);
            char *hit = NULL;
            for (char *q = s; q && *q;) {
                if (!strncmp(q, f[2], dl) && q[dl] == '\t')
                    hit = q;
                q = strchr(q, '\n');
                if (q)
                    q++;
            }
            if (hit) {
                char *end = strchr(hit, '\n');
                size_t cut = end ? (size_t)(end + 1 - hit) : strlen(hit);
                memmove(hit, hit + cut, strlen(hit + cut) + 1);
                all.len -= cut;
            }
        }
    }
    fclose(fp);
    pb_buf_add(b, pb_buf_str(&all), all.len);
    pb_buf_release(&all);
}

int pb_run_loop_cleanup(struct pb_run_exec *x, FILE *manifest,
                        const char *manifest_path, const char *run_id,
                        FILE *out)
{
    struct pb_buf live = PB_BUF_INIT;
    live_loops(manifest_path, run_id, &live);
    int left = 0;
    for (const char *q = pb_buf_str(&live); *q;) {
        size_t k = strcspn(q, "\n");
        char rec[PATH_MAX * 2];
        snprintf(rec, sizeof(rec), "%.*s", (int)k, q);
        q += k + (q[k] != '\0');
        char *tab = strchr(rec, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        const char *dev = rec, *file = tab + 1;
        /* only while the device still shows the run's file */
        const char *show[] = {"losetup", "-n", "-O", "BACK-FILE", dev, NULL};
        struct pb_run_res res = {0};
        int rc = pb_run_cmd(x, show, PB_RUN_CAPTURE, &res);
        char back[PATH_MAX];
        snprintf(back, sizeof(back), "%s", pb_buf_str(&res.out));
        back[strcspn(back, "\n")] = '\0';
        size_t bl = strlen(back);
        while (bl > 0 && back[bl - 1] == ' ')
            back[--bl] = '\0';
        /* losetup says "PATH (deleted)" once the file is gone */
        int same = !strncmp(back, file, strlen(file)) &&
                   (!back[strlen(file)] || back[strlen(file)] == ' ');
        if (!x->dry_run && (rc != 0 || !same)) {
            pb_run_manifest_add(manifest, "detached", run_id, dev);
            if (out)
                fprintf(out, "%s is no longer attached to %s\n", dev, file);
            pb_run_res_release(&res);
            continue;
        }
        const char *det[] = {"losetup", "-d", dev, NULL};
        rc = pb_run_cmd(x, det, 0, &res);
        if (rc == 0) {
            pb_run_manifest_add(manifest, "detached", run_id, dev);
            if (out && !x->dry_run)
                fprintf(out, "detached loop device %s (%s)\n", dev, file);
        } else {
            char w[200];
            if (out)
                fprintf(out, "could not detach %s: %s\n", dev,
                        pb_run_res_why(&res, w, sizeof(w)));
            left = 1;
        }
        pb_run_res_release(&res);
    }
    pb_buf_release(&live);
    return left ? -1 : 0;
}
