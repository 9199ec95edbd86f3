/* Private to the label rules (labels.c: rules, matching; label_norm.c:
 * what a captured text becomes as a value). */
#ifndef PB_LABELS_INT_H
#define PB_LABELS_INT_H

/* How the captured text becomes a value. A normaliser may reject the text
 * (returns NULL); the rule then looks for its next match. */
enum norm {
    N_TEXT,     /* keys without a built-in rule: pb_ingest_norm_param */
    N_WORD,     /* lowercase */
    N_BLOCK,    /* power-of-two size, 512 B .. 16 MiB, as bytes */
    N_ASHIFT,   /* integer 9..16 */
    N_COUNT,    /* integer 1..9999 */
    N_LAYOUT,   /* raidz -> raidz1, mirrors -> mirror, raid1 -> mirror... */
    N_COMPRESS, /* gzip9 -> gzip-9, "no compression" -> off */
    N_SYNC,     /* off / disable -> disabled */
    N_ONOFF,    /* noatime -> off */
    N_FLAG      /* "no slog", "none", "off" -> no; anything else -> yes */
};

/* The value of captured text for key under norm (malloc'd), or NULL when
 * the normaliser rejects it (the rule then looks for its next match). */
char *pb_label_normalise(enum norm norm, const char *key, const char *text);

#endif
