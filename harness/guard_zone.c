#include "guard_zone.h"

#include <string.h>

void guard_zone_fill(uint8_t *zone, size_t len)
{
    memset(zone, WP_GUARD_BYTE, len);
}

int guard_zone_scan(const uint8_t *zone, size_t len, GuardSide side, uint64_t size, int64_t *offset)
{
    for (size_t j = 0; j < len; j++) {
        size_t idx = side == GUARD_BEFORE ? len - 1 - j : j; /* nearest the buffer first */
        if (zone[idx] != WP_GUARD_BYTE) {
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
    if (!guard_zone_scan(zone, len, side, size, &off))
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
