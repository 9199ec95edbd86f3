/* Lexing helpers every parser shares (declared in ingest/lex/lex.h):
 * white space and a case-insensitive search for sniffers. */
#include "ingest/lex/lex.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

const char *pb_skip_ws(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

int pb_contains(const char *buf, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return 1;
    /* compare only where the first character matches (every sniffer
     * calls this on the first 8 KiB of every file) */
    int lo = tolower((unsigned char)needle[0]);
    int up = toupper((unsigned char)needle[0]);
    for (size_t i = 0; i + n <= len; i++) {
        int c = (unsigned char)buf[i];
        if ((c == lo || c == up) && strncasecmp(buf + i, needle, n) == 0)
            return 1;
    }
    return 0;
}
