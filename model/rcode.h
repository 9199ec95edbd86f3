/* model/rcode: how model/rsort.c writes a sorted run of records to its
 * temporary file: each record as the difference from the one before it
 * in the run (the first from a record of zeros), not as its 64 bytes.
 * In a sorted run most records share k0 and much of k1 and k2 with the
 * one before, and the report's values are mostly whole numbers: the
 * report's 3.5 M bonnie++ rows take ~20 bytes a record so, and the
 * kernel copies of the file's writes and reads were the sort's largest
 * cost (bench/NOTES.md, issue 41 item 2). Private to model/.
 *
 * A record: two bytes of flags (little-endian), then the fields they
 * name in this order:
 * - bits 0-7: the 32-bit halves of k0..k3 (high half first) that differ
 *   from the record before: each as a zigzag varint of new - old;
 * - bits 8-9 value, 10-11 stderr_: 0 the same bits as before, 1 a whole
 *   number (a zigzag varint whose double has exactly those bits), 2 the
 *   eight bytes of the double (little-endian);
 * - bit 12 samples (a zigzag varint of new - old), 13 aux, 14 flags
 *   (varints of the new value) when they differ.
 * A record takes at most DB_RCODE_MAX bytes. */
#ifndef DB_RCODE_H
#define DB_RCODE_H

#include "model/rsort.h"

#include <stdint.h>
#include <string.h>

#define DB_RCODE_MAX 96

static inline uint8_t *db_rcode_uv(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t db_rcode_zz(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t db_rcode_unzz(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint64_t db_rcode_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

/* A double: 0 (same bits as old), 1 (whole number *i) or 2 (raw). */
static inline unsigned db_rcode_dkind(double v, double old, int64_t *i)
{
    uint64_t b = db_rcode_bits(v);
    if (b == db_rcode_bits(old))
        return 0;
    if (v > -0x1p62 && v < 0x1p62) { /* false for NaN */
        *i = (int64_t)v;
        if (db_rcode_bits((double)*i) == b) /* not -0.0, no fraction */
            return 1;
    }
    return 2;
}

static inline uint8_t *db_rcode_dput(uint8_t *p, unsigned kind, double v,
                                     int64_t i)
{
    if (kind == 1)
        return db_rcode_uv(p, db_rcode_zz(i));
    uint64_t b = db_rcode_bits(v);
    for (int k = 0; k < 8; k++)
        *p++ = (uint8_t)(b >> (8 * k));
    return p;
}

/* Write r as its difference from old at p; the byte after it. */
static inline uint8_t *db_rcode_put(uint8_t *p,
                                    const struct db_rsort_rec *old,
                                    const struct db_rsort_rec *r)
{
    uint8_t *h = p;
    unsigned fl = 0;
    p += 2;
    const uint64_t kn[4] = {r->k0, r->k1, r->k2, r->k3};
    const uint64_t ko[4] = {old->k0, old->k1, old->k2, old->k3};
    for (int w = 0; w < 4; w++) {
        if (kn[w] == ko[w])
            continue;
        for (int half = 0; half < 2; half++) {
            int sh = half ? 0 : 32;
            uint32_t a = (uint32_t)(kn[w] >> sh), b = (uint32_t)(ko[w] >> sh);
            if (a != b) {
                fl |= 1u << (2 * w + half);
                p = db_rcode_uv(p, db_rcode_zz((int64_t)a - (int64_t)b));
            }
        }
    }
    int64_t iv = 0, ie = 0;
    unsigned kv = db_rcode_dkind(r->value, old->value, &iv);
    unsigned ke = db_rcode_dkind(r->stderr_, old->stderr_, &ie);
    fl |= kv << 8 | ke << 10;
    if (kv)
        p = db_rcode_dput(p, kv, r->value, iv);
    if (ke)
        p = db_rcode_dput(p, ke, r->stderr_, ie);
    if (r->samples != old->samples) {
        fl |= 1u << 12;
        p = db_rcode_uv(p, db_rcode_zz((int64_t)((uint64_t)r->samples -
                                                 (uint64_t)old->samples)));
    }
    if (r->aux != old->aux) {
        fl |= 1u << 13;
        p = db_rcode_uv(p, r->aux);
    }
    if (r->flags != old->flags) {
        fl |= 1u << 14;
        p = db_rcode_uv(p, r->flags);
    }
    h[0] = (uint8_t)fl;
    h[1] = (uint8_t)(fl >> 8);
    return p;
}

static inline const uint8_t *db_rcode_uget(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0;; sh += 7) {
        uint8_t c = *p++;
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80) || sh >= 63)
            break;
    }
    *v = x;
    return p;
}

static inline const uint8_t *db_rcode_dget(const uint8_t *p, unsigned kind,
                                           double *d)
{
    if (kind == 1) {
        uint64_t v;
        p = db_rcode_uget(p, &v);
        *d = (double)db_rcode_unzz(v);
    } else if (kind == 2) {
        uint64_t b = 0;
        for (int k = 0; k < 8; k++)
            b |= (uint64_t)p[k] << (8 * k);
        memcpy(d, &b, sizeof(*d));
        p += 8;
    }
    return p;
}

/* Read the record at p into *r, which holds the record before it (its
 * difference is from that); the byte after it. Only bytes written by
 * db_rcode_put: the file is the sort's own. */
static inline const uint8_t *db_rcode_get(const uint8_t *p,
                                          struct db_rsort_rec *r)
{
    unsigned fl = (unsigned)p[0] | (unsigned)p[1] << 8;
    p += 2;
    if (fl & 0xff) {
        uint64_t *k[4] = {&r->k0, &r->k1, &r->k2, &r->k3};
        for (int w = 0; w < 4; w++) {
            if (!(fl & (3u << (2 * w))))
                continue;
            uint32_t hi = (uint32_t)(*k[w] >> 32), lo = (uint32_t)*k[w];
            uint64_t v;
            if (fl & (1u << (2 * w))) {
                p = db_rcode_uget(p, &v);
                hi = (uint32_t)((int64_t)hi + db_rcode_unzz(v));
            }
            if (fl & (2u << (2 * w))) {
                p = db_rcode_uget(p, &v);
                lo = (uint32_t)((int64_t)lo + db_rcode_unzz(v));
            }
            *k[w] = (uint64_t)hi << 32 | lo;
        }
    }
    p = db_rcode_dget(p, (fl >> 8) & 3, &r->value);
    p = db_rcode_dget(p, (fl >> 10) & 3, &r->stderr_);
    uint64_t v;
    if (fl & (1u << 12)) {
        p = db_rcode_uget(p, &v);
        r->samples = (int64_t)((uint64_t)r->samples +
                               (uint64_t)db_rcode_unzz(v));
    }
    if (fl & (1u << 13)) {
        p = db_rcode_uget(p, &v);
        r->aux = (uint32_t)v;
    }
    if (fl & (1u << 14)) {
        p = db_rcode_uget(p, &v);
        r->flags = (uint32_t)v;
    }
    return p;
}

#endif
