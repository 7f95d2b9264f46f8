#include "guard_zone.h"

uint8_t guard_zone_byte(uint32_t buffer)
{
    /* Distinct bytes, so that a copy or a blend of one buffer's guards is
     * not another's; and each but the first, repeated, a float and a double
     * of modest size (0x40404040 is 3.0f, 0x4040404040404040 32.5), so that
     * an output's guard does not absorb what is added to it (a 0x5A pattern,
     * 1.5e16 as a float, did: y + a * x stayed y). */
    static const uint8_t BYTES[] = {WP_GUARD_BYTE, 0x40, 0xBF, 0x41, 0xC0, 0x3E, 0xC1, 0x3D};
    return BYTES[buffer % (sizeof BYTES / sizeof *BYTES)];
}

uint8_t guard_zone_pattern(uint32_t buffer, GuardSide side, size_t distance)
{
    /* Bytes are placed by their offset from the buffer's edge, e (0, 1, ...
     * after the end; -1, -2, ... before the start): elements keep the
     * buffer's alignment there, and an element's lowest byte is its lowest
     * in memory (little-endian, as on every GPU and CPU the harness runs
     * on).  The lowest byte of the m-th 4-byte word from the edge gets
     * m % 8 added, so 4- and 8-byte elements rise outwards (an index bound
     * read past the end opens a segment) and wrap every 8 words; the byte
     * two above it gets 8 + m % 8, so 2-byte neighbours differ too.  Floats
     * and doubles stay the modest values guard_zone_byte chose, a few ulps
     * away; the high bytes, which hold sign and exponent, are untouched. */
    long long e = side == GUARD_AFTER ? (long long)distance : -1 - (long long)distance;
    long long word = e >= 0 ? e / 4 : -((-e + 3) / 4); /* floor(e / 4) */
    long long in_word = e - 4 * word;                  /* 0..3 */
    unsigned m = (unsigned)(word >= 0 ? word : -word - 1);
    uint8_t add = in_word == 0 ? (uint8_t)(m % 8) : in_word == 2 ? (uint8_t)(8 + m % 8) : 0;
    return (uint8_t)(guard_zone_byte(buffer) + add);
}

uint8_t guard_zone_byte_read_as(uint32_t buffer, GuardReading reading, GuardSide side, size_t distance)
{
    if (reading == GUARD_VALUES || reading == GUARD_VALUES_NEGATED)
        return (uint8_t)(guard_zone_pattern(buffer, side, distance) ^ (reading & 0x80));
    /* elements keep the buffer's alignment in its guards (the zones are
     * multiples of 8 bytes from a 256-byte aligned start), so the element
     * j from the edge has its lowest byte at distance j * reading after the
     * end and (j + 1) * reading - 1 before the start */
    size_t j = distance / reading, in_element = distance % reading;
    size_t lowest = side == GUARD_AFTER ? 0 : (size_t)reading - 1;
    /* 3 and 5: neighbours differ, and so do two buffers' elements at the
     * same place, also where one is a blend of a few of the other's (a
     * grey byte from three colour bytes: with j + buffer, 0.299 * 1 + 0.587
     * * 2 + 0.114 * 3 rounded to 2, the grey buffer's own guard there) */
    return in_element == lowest ? (uint8_t)(1 + (3 * j + 5 * buffer) % 8) : 0;
}

int guard_reading_parse(WpReader *in, GuardReading *out, Error *e)
{
    uint8_t r = wp_get_u8(in);
    if (in->bad || (r != GUARD_VALUES && r != GUARD_VALUES_NEGATED && r != 1 && r != 2 && r != 4 && r != 8))
        return ERR(e, "ALLOC: guard reading %u is none of 0, 0x80, 1, 2, 4, 8", r);
    *out = r;
    return 0;
}

/* The distance from the buffer's edge of byte idx of a zone of len bytes. */
static size_t distance_of(size_t idx, size_t len, GuardSide side)
{
    return side == GUARD_BEFORE ? len - 1 - idx : idx;
}

void guard_zone_fill(uint8_t *zone, size_t len, GuardSide side, uint32_t buffer, GuardReading reading)
{
    for (size_t idx = 0; idx < len; idx++)
        zone[idx] = guard_zone_byte_read_as(buffer, reading, side, distance_of(idx, len, side));
}

int guard_zone_scan(const uint8_t *zone, size_t len, GuardSide side, uint64_t size, uint32_t buffer,
                    GuardReading reading, int64_t *offset)
{
    for (size_t j = 0; j < len; j++) {
        size_t idx = side == GUARD_BEFORE ? len - 1 - j : j; /* nearest the buffer first */
        if (zone[idx] != guard_zone_byte_read_as(buffer, reading, side, j)) {
            *offset = side == GUARD_BEFORE ? (int64_t)idx - (int64_t)len : (int64_t)size + (int64_t)idx;
            return 1;
        }
    }
    return 0;
}

void guard_list_check(GuardList *l, uint32_t buffer, GuardReading reading, const uint8_t *zone, size_t len,
                      GuardSide side, uint64_t size)
{
    int64_t off;
    if (!guard_zone_scan(zone, len, side, size, buffer, reading, &off))
        return;
    wp_put_u32(&l->entries, buffer);
    wp_put_u64(&l->entries, (uint64_t)off);
    l->n++;
}

void guard_list_finish(GuardList *l, WpBuf *out)
{
    wp_put_u32(out, l->n);
    wp_put_bytes(out, l->entries.data, l->entries.len);
    guard_list_release(l);
}

void guard_list_release(GuardList *l)
{
    wp_buf_release(&l->entries);
    l->n = 0;
}
