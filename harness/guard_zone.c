#include "guard_zone.h"

#include <string.h>

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

void guard_zone_fill(uint8_t *zone, size_t len, uint32_t buffer)
{
    memset(zone, guard_zone_byte(buffer), len);
}

int guard_zone_scan(const uint8_t *zone, size_t len, GuardSide side, uint64_t size, uint32_t buffer,
                    int64_t *offset)
{
    const uint8_t want = guard_zone_byte(buffer);
    for (size_t j = 0; j < len; j++) {
        size_t idx = side == GUARD_BEFORE ? len - 1 - j : j; /* nearest the buffer first */
        if (zone[idx] != want) {
            *offset = side == GUARD_BEFORE ? (int64_t)idx - (int64_t)len : (int64_t)size + (int64_t)idx;
            return 1;
        }
    }
    return 0;
}

void guard_list_check(GuardList *l, uint32_t buffer, const uint8_t *zone, size_t len, GuardSide side,
                      uint64_t size)
{
    int64_t off;
    if (!guard_zone_scan(zone, len, side, size, buffer, &off))
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
