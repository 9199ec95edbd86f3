/* common/pb_out.c - text for other programs: CSV fields a spreadsheet
 * cannot run, JSON strings that keep bytes that are not UTF-8, and JSON
 * numbers for number-like texts. One copy for the CLI (export, list,
 * compare) and the report (charts' CSVs, results.csv/json). */
#include "common/pb_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A cell a spreadsheet would run as a formula: = + - @ (or a tab or CR,
 * which some strip first) at the start of a text that is not a number. */
int pb_csv_formula(const char *s)
{
    if (!s[0] || !strchr("=+-@\t\r", s[0]))
        return 0;
    char *end;
    errno = 0;
    (void)strtod(s, &end);
    return end == s || *end != '\0';
}

void pb_csv_field(struct pb_buf *b, const char *s)
{
    if (!s)
        return;
    int formula = pb_csv_formula(s);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        pb_buf_puts(b, s);
        return;
    }
    /* OWASP's advice for formula injection: a leading ' and quotes. */
    pb_buf_putc(b, '"');
    if (formula)
        pb_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '"')
            pb_buf_putc(b, '"');
        pb_buf_putc(b, *s);
    }
    pb_buf_putc(b, '"');
}

json_t *pb_jout_str(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    /* Not UTF-8 (a file name in Latin-1, say): the bytes that are not
     * UTF-8 are written as \xHH rather than the field dropped. */
    char *e = pb_term_str(s);
    j = json_string(e);
    free(e);
    return j ? j : json_null();
}

/* The JSON number grammar (RFC 8259, section 6). */
static int json_number_text(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return 0;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

json_t *pb_jout_value(const char *s)
{
    if (!s || !json_number_text(s))
        return pb_jout_str(s);
    if (!strpbrk(s, ".eE") && strlen(s) < 19)
        return json_integer(strtoll(s, NULL, 10));
    double d = strtod(s, NULL);
    return isfinite(d) ? json_real(d) : pb_jout_str(s);
}
