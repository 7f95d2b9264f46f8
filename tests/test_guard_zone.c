/* harness/guard_zone: the guard pattern and its scan.  Elements read from a
 * guard differ from their neighbours (so reads past an end that decide
 * something show), 4- and 8-byte ones rise outwards, and the scan finds a
 * changed byte at the right offset on either side. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/guard_zone.h"
#include "tests/test.h"

/* Element k from the buffer's edge (of `width` bytes) in a filled zone, as
 * a little-endian unsigned integer. */
static uint64_t element(const uint8_t *zone, size_t len, GuardSide side, size_t width, size_t k)
{
    /* after the buffer element k starts k elements past the edge; before
     * it, k + 1 elements before it (its lowest byte is its farthest) */
    size_t first = side == GUARD_AFTER ? k * width : len - (k + 1) * width;
    uint64_t v = 0;
    for (size_t b = 0; b < width; b++)
        v |= (uint64_t)zone[first + b] << (8 * b);
    return v;
}

TEST(guard_pattern_neighbours_differ)
{
    enum { LEN = 256 };
    uint8_t zone[LEN];
    for (uint32_t buffer = 0; buffer < 9; buffer++)
        for (int s = 0; s < 2; s++) {
            GuardSide side = s ? GUARD_AFTER : GUARD_BEFORE;
            guard_zone_fill(zone, LEN, side, buffer, GUARD_VALUES);
            for (size_t width = 2; width <= 8; width *= 2)
                for (size_t k = 0; k + 1 < LEN / width; k++) {
                    uint64_t a = element(zone, LEN, side, width, k), b = element(zone, LEN, side, width, k + 1);
                    CHECK_MSG(a != b, "buffer %u, %s: %zu-byte elements %zu and %zu are both %llx", buffer,
                              s ? "after" : "before", width, k, k + 1, (unsigned long long)a);
                    /* after the end, an index bound read at n+1 below one read at n+2 */
                    if (side == GUARD_AFTER && width >= 4 && k % 8 < 3)
                        CHECK_MSG(a < b, "buffer %u: %zu-byte guard elements %zu, %zu do not rise: %llx, %llx", buffer,
                                  width, k, k + 1, (unsigned long long)a, (unsigned long long)b);
                }
            /* every byte is the buffer's own byte or a little above it */
            for (size_t i = 0; i < LEN; i++)
                CHECK(zone[i] >= guard_zone_byte(buffer) && zone[i] < guard_zone_byte(buffer) + 16);
        }
    /* buffer 0's 4-byte guard words are large positive ints, its floats modest */
    guard_zone_fill(zone, LEN, GUARD_AFTER, 0, GUARD_VALUES);
    int32_t w0;
    float f0;
    memcpy(&w0, zone, 4);
    memcpy(&f0, zone, 4);
    CHECK_MSG(w0 > (1 << 29), "word 0 after buffer 0: %d", w0);
    CHECK_MSG(f0 > 0.5f && f0 < 1.0f, "float 0 after buffer 0: %g", f0);
    return 0;
}

TEST(guard_indices_read_as_small_in_range_indices)
{
    /* a buffer of integers read as indices: every element on either side
     * is 1 to 8 in its own width, neighbours differ, another buffer's
     * differ from it, and the scan knows the reading (a zone filled as
     * values is not one filled as indices) */
    enum { LEN = 512 };
    uint8_t zone[LEN], other[LEN];
    const GuardReading widths[] = {1, 2, 4, 8};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
        for (int s = 0; s < 2; s++) {
            GuardSide side = s ? GUARD_AFTER : GUARD_BEFORE;
            GuardReading r = widths[w];
            guard_zone_fill(zone, LEN, side, 1, r);
            guard_zone_fill(other, LEN, side, 2, r);
            for (size_t k = 0; k < LEN / r; k++) {
                uint64_t v = element(zone, LEN, side, r, k);
                CHECK_MSG(v >= 1 && v <= 8, "%u-byte indices %s: element %zu is %llu", r, s ? "after" : "before", k,
                          (unsigned long long)v);
                if (k + 1 < LEN / r)
                    CHECK(v != element(zone, LEN, side, r, k + 1));
                CHECK(v != element(other, LEN, side, r, k));
            }
            int64_t off;
            CHECK(guard_zone_scan(zone, LEN, side, 100, 1, r, &off) == 0);
            CHECK(guard_zone_scan(zone, LEN, side, 100, 1, GUARD_VALUES, &off) == 1);
        }
    return 0;
}

TEST(guard_values_negated_flip_the_sign_only)
{
    /* the second trial's float guards: modest values of the other sign
     * (every byte's top bit flipped: the sign and, in the exponent's byte,
     * its lowest bit), so fabsf (or any map that keeps positives) of buffer
     * 0's guard is no longer the guard itself; and still each buffer's own */
    enum { LEN = 256 };
    uint8_t plain[LEN], negated[LEN], other[LEN];
    for (uint32_t buffer = 0; buffer < 9; buffer++) {
        guard_zone_fill(plain, LEN, GUARD_AFTER, buffer, GUARD_VALUES);
        guard_zone_fill(negated, LEN, GUARD_AFTER, buffer, GUARD_VALUES_NEGATED);
        guard_zone_fill(other, LEN, GUARD_AFTER, buffer + 1, GUARD_VALUES_NEGATED);
        for (size_t k = 0; k < LEN / 4; k++) {
            float p, n, o;
            memcpy(&p, plain + 4 * k, 4);
            memcpy(&n, negated + 4 * k, 4);
            memcpy(&o, other + 4 * k, 4);
            CHECK_MSG((p < 0) != (n < 0) && fabsf(n) > 0.01f && fabsf(n) < 100.0f, "buffer %u float %zu: %g, negated %g",
                      buffer, k, p, n);
            CHECK(memcmp(&n, &o, 4) != 0);
        }
        int64_t off;
        CHECK(guard_zone_scan(negated, LEN, GUARD_AFTER, 64, buffer, GUARD_VALUES_NEGATED, &off) == 0);
        CHECK(guard_zone_scan(negated, LEN, GUARD_AFTER, 64, buffer, GUARD_VALUES, &off) == 1);
    }
    guard_zone_fill(negated, LEN, GUARD_AFTER, 0, GUARD_VALUES_NEGATED);
    float f0;
    memcpy(&f0, negated, 4);
    CHECK_MSG(fabsf(f0) != f0, "buffer 0's negated guard %g is its own |x|", f0);
    return 0;
}

TEST(guard_scan_finds_the_nearest_change)
{
    enum { LEN = 4096 };
    uint8_t *zone = malloc(LEN);
    const uint64_t size = 1000;
    int64_t off = 0;
    for (int s = 0; s < 2; s++) {
        GuardSide side = s ? GUARD_AFTER : GUARD_BEFORE;
        guard_zone_fill(zone, LEN, side, 3, GUARD_VALUES);
        CHECK(guard_zone_scan(zone, LEN, side, size, 3, GUARD_VALUES, &off) == 0);
        /* the fill of another buffer, or of the other side, is not this zone's */
        CHECK(guard_zone_scan(zone, LEN, side, size, 4, GUARD_VALUES, &off) == 1);
        CHECK(guard_zone_scan(zone, LEN, s ? GUARD_BEFORE : GUARD_AFTER, size, 3, GUARD_VALUES, &off) == 1);
        size_t marks[] = {0, 1, 5, 4095};
        for (size_t m = 0; m < sizeof marks / sizeof *marks; m++) {
            guard_zone_fill(zone, LEN, side, 3, GUARD_VALUES);
            size_t distance = marks[m];
            size_t idx = side == GUARD_AFTER ? distance : LEN - 1 - distance;
            zone[idx] ^= 0x80;
            if (distance + 7 < LEN) /* a farther change too: the nearer one is reported */
                zone[side == GUARD_AFTER ? idx + 7 : idx - 7] ^= 0x80;
            CHECK(guard_zone_scan(zone, LEN, side, size, 3, GUARD_VALUES, &off) == 1);
            int64_t want = side == GUARD_AFTER ? (int64_t)(size + distance) : -1 - (int64_t)distance;
            CHECK_MSG(off == want, "%s, distance %zu: offset %lld, expected %lld", s ? "after" : "before", distance,
                      (long long)off, (long long)want);
        }
    }
    free(zone);
    return 0;
}
