/* fio-terse parser: placeholder until the parser lands (recognises nothing). */
#include "ingest/ingest_int.h"

static int sniff(const char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return 0;
}

static int parse(const char *path, const char *buf, size_t len,
                 struct pb_resultset *out, struct pb_err *err)
{
    (void)buf;
    (void)len;
    (void)out;
    return pb_err_set(err, PB_EINPUT, path, 0, 0,
                      "fio-terse input is not supported yet");
}

const struct pb_parser pb_parser_fio_terse = {"fio-terse", sniff, parse};
