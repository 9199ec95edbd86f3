/* common/pb_out.h - CSV and JSON text for other programs (pb_out.c). */
#ifndef PB_OUT_H
#define PB_OUT_H

#include "common/pb.h"

#include <jansson.h>

/* 1 when a spreadsheet would run s as a formula (= + - @ tab CR first,
 * and not a number). */
int pb_csv_formula(const char *s);
/* s as one CSV field (RFC 4180 quoting; a formula gets a leading ' inside
 * the quotes, as OWASP advises); NULL writes nothing. */
void pb_csv_field(struct pb_buf *b, const char *s);
/* A JSON string; bytes that are not UTF-8 as \xHH; NULL is null. */
json_t *pb_jout_str(const char *s);
/* A JSON number when s is one by RFC 8259's grammar (integers as
 * integers), else pb_jout_str(s). */
json_t *pb_jout_value(const char *s);

#endif
