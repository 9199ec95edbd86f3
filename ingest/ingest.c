/* The parser registry, sniffing and option application: one buffer in, one
 * result set out (the walk over many paths is in walk.c). */
#define _GNU_SOURCE
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ==== registry ==== */

const struct pb_parser *const pb_parsers[] = {
    &pb_parser_fio_json,  &pb_parser_fio_text, &pb_parser_fio_terse,
    &pb_parser_iozone,    &pb_parser_bonnie_csv, &pb_parser_pts_xml,
    &pb_parser_zfs_props, &pb_parser_table, &pb_parser_zfs_commands,
    &pb_parser_fio_log,   &pb_parser_fio_hist_log, &pb_parser_sheet, NULL,
};

const struct pb_parser *pb_ingest_parser_by_name(const char *name)
{
    for (size_t i = 0; pb_parsers[i]; i++)
        if (!(pb_parsers[i]->flags & PB_PARSER_NO_RESULTS) &&
            !strcmp(pb_parsers[i]->name, name))
            return pb_parsers[i];
    return NULL;
}

int pb_ingest_sheet(const char *path, const char *buf, size_t len,
                    struct pb_resultset **out, struct pb_err *err)
{
    *out = NULL;
    const struct pb_parser *p = NULL;
    for (size_t i = 0; pb_parsers[i] && !p; i++)
        if (pb_parsers[i]->flags & PB_PARSER_NO_RESULTS)
            p = pb_parsers[i];
    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, path);
    set->format = p->name;
    set->size = len;
    pb_sha256_hex(buf, len, set->sha256);
    struct pb_parse ctx = {.parser = p, .path = path, .buf = buf,
                           .len = len, .out = set, .err = err};
    int rc = p->parse(&ctx);
    if (rc != PB_OK) {
        pb_resultset_free(set);
        return rc;
    }
    *out = set;
    return PB_OK;
}

int pb_parser_run(const struct pb_parser *p, const char *path,
                  const char *buf, size_t len, struct pb_resultset *out,
                  struct pb_err *err)
{
    struct pb_parse ctx = {.parser = p, .path = path, .buf = buf,
                           .len = len, .out = out, .err = err};
    return p->parse(&ctx);
}

#define SNIFF_LEN 8192

const struct pb_parser *pb_ingest_find_parser(const char *buf, size_t len)
{
    const struct pb_parser *best = NULL;
    int best_score = 0;
    size_t n = len < SNIFF_LEN ? len : SNIFF_LEN;
    for (size_t i = 0; pb_parsers[i]; i++) {
        if (pb_parsers[i]->flags & PB_PARSER_NO_RESULTS)
            continue;
        int s = pb_parsers[i]->sniff(buf, n);
        if (s > best_score) {
            best_score = s;
            best = pb_parsers[i];
        }
        if (best_score >= 100) /* certain: nobody can score higher */
            break;
    }
    return best;
}

/* ==== options ==== */

static int same_target(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static void apply_opts(struct pb_resultset *set, const char *buf,
                       size_t len, const struct pb_ingest_opts *opts)
{
    if (!opts) {
        pb_ingest_context(set, buf, len, opts);
        return;
    }
    const struct pb_parser *p =
        set->format ? pb_ingest_parser_by_name(set->format) : NULL;
    if (opts->label && opts->companion && p &&
        (p->flags & PB_PARSER_COMPANION))
        pb_ingest_companion(set);
    if (opts->label && set->nconfigs > 0) {
        /* Every config of the file becomes the one named by --label; the
         * results follow, and dimensions are merged; but configs of fio
         * jobs on different targets (dimension "target") stay apart. */
        const char *label = pb_rs_str(set, opts->label);
        size_t *to = pb_xcalloc(set->nconfigs + 1, sizeof(*to));
        size_t m = 0;
        for (size_t i = 0; i < set->nconfigs; i++) {
            const char *ti = pb_config_target(&set->configs[i]);
            size_t k = 0;
            while (k < m && !same_target(pb_config_target(&set->configs[k]), ti))
                k++;
            to[i] = k;
            if (k == m) {
                set->configs[m] = set->configs[i];
                m++;
                continue;
            }
            for (size_t j = 0; j < set->configs[i].nparams; j++)
                pb_rs_config_param_origin(set, k,
                                          set->configs[i].params[j].key,
                                          set->configs[i].params[j].value,
                                          set->configs[i].params[j].origin);
            free(set->configs[i].params);
        }
        set->nconfigs = m;
        for (size_t i = 0; i < m; i++) {
            set->configs[i].label = label;
            set->configs[i].label_is_name = 0;
            set->configs[i].label_auto = 0;
        }
        set->config_ix.cap = 0; /* labels changed: rebuild the index */
        for (size_t i = 0; i < set->nresults; i++)
            set->results[i].config = to[set->results[i].config];
        free(to);
        /* where the label came from (list configs): the option, or the
         * plan of a poolbench run cell */
        char *o = opts->set_origin ? pb_xasprintf("plan: %s", opts->set_origin)
                                   : pb_xstrdup("--label");
        pb_rs_fact(set, NULL, "label_origin", o);
        free(o);
    } else if (opts->label) {
        pb_rs_config(set, opts->label);
    }
    /* title, --label-from, generic labels, pasted commands (context.c);
     * precedence: --set > parser > commands > title/path/label rules */
    pb_ingest_context(set, buf, len, opts);
    if (opts->rules)
        for (size_t i = 0; i < set->nconfigs; i++)
            pb_label_extract(opts->rules, set, i);
    for (size_t k = 0; k < opts->nset; k++) {
        char *v = pb_ingest_norm_param(opts->set[k].key, opts->set[k].value);
        char *o = opts->set_origin
                      ? pb_xasprintf("plan: %s: %s=%s", opts->set_origin,
                                     opts->set[k].key, opts->set[k].value)
                      : pb_xasprintf("set: --set %s=%s", opts->set[k].key,
                                     opts->set[k].value);
        for (size_t i = 0; i < set->nconfigs; i++)
            pb_rs_config_param_origin(set, i, opts->set[k].key, v, o);
        free(o);
        free(v);
    }
}

void pb_ingest_apply(struct pb_resultset *set, const char *buf, size_t len,
                     const struct pb_ingest_opts *opts)
{
    apply_opts(set, buf, len, opts);
}

int pb_ingest_buffer(const char *path, const char *buf, size_t len,
                     const struct pb_ingest_opts *opts,
                     struct pb_resultset **out, struct pb_err *err)
{
    *out = NULL;
    const struct pb_parser *p = NULL;
    if (opts && opts->format) {
        p = pb_ingest_parser_by_name(opts->format);
        if (!p)
            return pb_err_set(err, PB_EUSAGE, NULL, 0, 0,
                              "unknown format '%s'", opts->format);
        if ((p->flags & PB_PARSER_LINES) &&
            pb_skip_ws(buf, buf + len) == buf + len &&
            pb_ingest_empty_log(path, err))
            return PB_ESKIP;
    } else {
        const char *q = pb_skip_ws(buf, buf + len);
        if (q == buf + len && pb_ingest_empty_log(path, err))
            return PB_ESKIP;
        if (q == buf + len)
            return pb_err_set(err, PB_EFORMAT, path, 0, 0,
                              len ? "file holds only white space"
                                  : "empty file");
        p = pb_ingest_find_parser(buf, len);
        if (!p)
            return pb_ingest_unknown(path, buf, len, err);
    }
    /* Every supported format is text: a NUL byte means a binary or
     * damaged file, and parsers that stop at it would keep half a file. */
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        size_t off = (size_t)(nul - buf);
        const char *bol = off ? memrchr(buf, '\n', off) : NULL;
        long col = (long)(off - (bol ? (size_t)(bol - buf) + 1 : 0)) + 1;
        return pb_err_set(err, PB_EINPUT, path, pb_line_of(buf, off), col,
                          "NUL byte: binary or damaged file, not %s output",
                          p->name);
    }
    struct pb_resultset *set = pb_resultset_new();
    set->path = pb_rs_str(set, path);
    set->format = p->name;
    set->size = len;
    pb_sha256_hex(buf, len, set->sha256);
    struct pb_parse ctx = {.parser = p, .opts = opts, .path = path,
                           .buf = buf, .len = len, .out = set, .err = err};
    int rc = p->parse(&ctx);
    /* a command transcript holds no results: it is only a companion */
    int needs_label = (p->flags & PB_PARSER_NEEDS_LABEL) != 0;
    int companion = needs_label && opts && opts->label && opts->companion;
    if (rc == PB_OK && set->nresults == 0 && needs_label && !companion)
        rc = pb_err_set(err, PB_EINPUT, path, 1, 0, "%s", p->needs_label);
    else if (rc == PB_OK && set->nresults == 0 && !companion)
        rc = pb_err_set(err, PB_EINPUT, path, 0, 0, "%s: no results found",
                        p->name);
    if (rc != PB_OK && !(opts && opts->format)) {
        /* a sniffer's guess (a PTS profile is <PhoronixTestSuite> too) */
        struct pb_err known = {0};
        if (pb_ingest_refuse(path, buf, len, &known))
            *err = known;
    }
    if (rc != PB_OK) {
        if (!err->code)
            pb_err_set(err, rc, path, 0, 0, "%s: parse failed", p->name);
        pb_resultset_free(set);
        return err->code;
    }
    apply_opts(set, buf, len, opts);
    *out = set;
    return PB_OK;
}
