/* The title of a terminal note: its first line when that is prose someone
 * wrote, not a command or program output (docs/experiment-context.md). */
#include "ingest/ingest_int.h"

#include <ctype.h>
#include <string.h>

#define TITLE_MAX 200

/* Lines that are program output, not a title someone wrote. */
static int looks_like_output(const char *s, size_t n)
{
    static const char *const starts[] = {
        "{",        "[",          "<",         "Jobs:",     "Run status",
        "Starting", "fio-",       "fio ",      "Iozone",    "Disk stats",
        "READ:",    "WRITE:",     "read:",     "write:",    "trim:",
        "Version ", "Name = ",    "Machine =", "pool:",     "NAME ",
        "```",      "---",        "===",       "|",         "Using ",
        NULL};
    static const char *const inside[] = {"IOPS=", "(g=", "groupid=",
                                         "BW=", NULL};
    for (size_t i = 0; starts[i]; i++) {
        size_t k = strlen(starts[i]);
        if (n >= k && !strncmp(s, starts[i], k))
            return 1;
    }
    for (size_t i = 0; inside[i]; i++)
        if (pb_contains(s, n, inside[i]))
            return 1;
    size_t letters = 0;
    for (size_t i = 0; i < n; i++)
        if (isalpha((unsigned char)s[i]))
            letters++;
    return letters == 0;
}

void pb_cmd_take_title(struct pb_cmd_notes *o, const char *s, size_t n,
                       long line)
{
    while (n && (*s == '#' || *s == ' ' || *s == '\t')) {
        s++; /* a Markdown heading */
        n--;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n > TITLE_MAX || looks_like_output(s, n))
        return;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return;
    if (pb_utf8_len((const unsigned char *)s, n) == (size_t)-1)
        return;
    o->title = pb_xstrndup(s, n);
    o->title_line = line;
}
