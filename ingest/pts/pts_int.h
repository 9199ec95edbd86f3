/* Private to the PTS XML parser: pts_xml.c reads the file (prolog, SAX2
 * stream of libxml2, errors) and collects the fields of each <Generated>,
 * <System> and <Result>; pts_map.c turns them into facts, tests and
 * results. Nothing else includes it.
 *
 * Use, per parse: pts_xml.c fills struct ctx while it walks the elements
 * and, at the end of each one, calls pb_pts_emit_generated(),
 * pb_pts_emit_system() or pb_pts_emit_result(); after a good parse,
 * pb_pts_tool_version().
 */
#ifndef PB_PTS_INT_H
#define PB_PTS_INT_H

#include "ingest/ingest_int.h"

#include <libxml/parser.h>

/* ==== the state of one parse ==== */

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
    /* a streamed file (docs/performance.md, "Streaming ingest", PTS) */
    int streamed, version_set, flush_failed;
    size_t flushed; /* results handed to the store */

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

/* s, or "" for a field that was absent. */
static inline const char *nz(const char *s)
{
    return s ? s : "";
}

/* ==== pts_map.c ==== */

/* The end of a <Generated>: its facts (title, description, ...). */
void pb_pts_emit_generated(struct ctx *c);
/* The end of a <System>: the facts of its host. */
void pb_pts_emit_system(struct ctx *c);
/* The end of a <Result>: its test, with parameters, and one result per
 * entry (c->entries[0..nentries)). */
void pb_pts_emit_result(struct ctx *c);
/* After the stream: set->tool_version "pts-<version>" when one is known. */
void pb_pts_tool_version(struct ctx *c);
/* 1 when what pb_pts_tool_version finds can no longer change with what
 * follows (a streamed file's parts may go to the store from then on). */
int pb_pts_version_known(struct ctx *c);

#endif
