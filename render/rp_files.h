/* Private to render/: the report folder, staged and committed whole
 * (output.c). */
#ifndef PB_RP_FILES_H
#define PB_RP_FILES_H

#include "render/rp_data.h"

/* ==== the report folder (output.c) ==== */

/* Files go to a private staging folder and replace the last report's only
 * in rp_dir_commit. Use: rp_dir_open; rp_dir_write (or a file made in
 * rp_dir_stage() and rp_dir_add) per file; rp_dir_commit or rp_dir_abort,
 * which both free the struct. */
struct rp_dir;
/* Create dir if missing; refuse a link, another user's folder, one others
 * can write, or (unless force) a non-empty folder that holds no poolbench
 * report. keep (copied; may be NULL): files no commit may replace or
 * remove (the database in use). PB_OK, PB_EUSAGE or PB_EIO with err
 * filled. */
int rp_dir_open(const char *dir, int force, const struct pb_keep *keep,
                struct rp_dir **out, struct pb_err *err) PB_WUR;
/* The report folder as given. */
const char *rp_dir_path(const struct rp_dir *d);
/* The staging folder's path (files made there must be rp_dir_add'ed). */
const char *rp_dir_stage(const struct rp_dir *d);
/* Write rel ("index.html", "charts/x.svg") into the stage, O_EXCL. */
int rp_dir_write(struct rp_dir *d, const char *rel, const char *data,
                 size_t len, struct pb_err *err) PB_WUR;
void rp_dir_add(struct rp_dir *d, const char *rel);
/* Move every staged file into place (index.html last), remove the last
 * report's files this one did not write, write the manifest. When any of
 * these is a file of keep, nothing is changed: PB_EUSAGE. */
int rp_dir_commit(struct rp_dir *d, struct pb_err *err) PB_WUR;
/* Drop the stage, leaving the last report as it was. NULL is fine. */
void rp_dir_abort(struct rp_dir *d);
/* A file of the report written in pieces (results.csv, index.html), so
 * that no whole file is held in memory: rp_file_open creates rel in the
 * stage (O_EXCL); rp_file_put appends (the first error is kept);
 * rp_file_flush writes and empties b once it holds `over` bytes or more;
 * rp_file_close closes and frees f (NULL is fine) and adds rel to the
 * report: PB_OK or PB_EIO (err filled) when a write failed. */
struct rp_file;
int rp_file_open(struct rp_dir *d, const char *rel, struct rp_file **out,
                 struct pb_err *err) PB_WUR;
void rp_file_put(struct rp_file *f, const char *data, size_t len);
void rp_file_flush(struct rp_file *f, struct pb_buf *b, size_t over);
int rp_file_close(struct rp_file *f, struct pb_err *err) PB_WUR;

#endif
