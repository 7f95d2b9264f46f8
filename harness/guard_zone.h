/* guard_zone.h — the guard zones around every worker buffer, and the list
 * of those a run wrote.
 *
 * Both workers put WP_GUARD_BYTES bytes before and after each buffer
 * (worker_protocol.h), each buffer's own pattern (guard_zone_pattern: its
 * byte, buffer 0 WP_GUARD_BYTE, with low bytes varied by the distance from
 * the buffer), and look at them after every RUN, TIME and PROFILE:
 * a write just past an allocation's end does not fault (the GPU rounds
 * allocations up to large pages, the CPU worker keeps a few mapped bytes
 * before its PROT_NONE zone), so the pattern is what shows it.  The zones
 * are scanned here wherever their bytes live (the GPU worker copies them to
 * the host first), and the answer's guard list is built here, so a write is
 * reported the same way whichever worker ran the kernel. */
#ifndef CUDAPERF_GUARD_ZONE_H
#define CUDAPERF_GUARD_ZONE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/worker_protocol.h"

typedef enum GuardSide { GUARD_BEFORE, GUARD_AFTER } GuardSide;

/* How a buffer's guards read when a kernel reads past its ends.
 * GUARD_VALUES: guard_zone_pattern's bytes, modest floats and large
 * integers (every buffer on a run's first trial).  On the second trial
 * (eval.c), the others:
 * - 1, 2, 4 or 8: the buffer holds integers of that many bytes and each of
 *   its guard elements reads as a small index, 1 to 8: a kernel that
 *   validates the indices it reads ("k >= 0 && k < m", scatter_add) skips
 *   every large one, so a thread past the end that read only those did
 *   nothing and its missing bound never showed (26 planted bounds defects,
 *   2026-12-06); an in-range index makes it add a value from beside it to
 *   the output.
 * - GUARD_VALUES_NEGATED: guard_zone_pattern's bytes with their top bit
 *   flipped, modest floats of the other sign (half or twice the size: the
 *   flip takes the exponent's lowest bit too): an in-place
 *   |x|, fract(x) or celu(x) maps buffer 0's positive guard onto itself,
 *   so a write past the end of it showed on no trial (6 planted bounds
 *   defects, 2026-12-07). */
typedef uint8_t GuardReading;
#define GUARD_VALUES 0
#define GUARD_VALUES_NEGATED 0x80

/* The byte that fills the guard zones of buffer `buffer`.  Neighbouring
 * buffers get different ones: a kernel that runs past the end of an input
 * and of an output in step (out[i] = in[i], a blend, a min) would otherwise
 * copy the input's guard bytes into the output's unchanged, and the write
 * would not show (run 16: 25 planted bounds defects passed so). */
uint8_t guard_zone_byte(uint32_t buffer);

/* The guard byte of `buffer` at `distance` bytes from the buffer's edge (0:
 * the byte right after its last, or right before its first).  It is
 * guard_zone_byte(buffer) plus a little in the low bytes, so that
 * neighbouring 2-, 4- and 8-byte elements read from a guard differ and 4-
 * and 8-byte ones rise from the edge outwards: a kernel that reads past an
 * input's end (a CSR row pointer at n+1 and n+2, a missing bounds check)
 * then gets a segment that is not empty, or a count that is not zero, and
 * what it does with that shows; with one byte repeated, every such read was
 * the same value and 11 planted bounds defects ran on unseen (run 21). */
uint8_t guard_zone_pattern(uint32_t buffer, GuardSide side, size_t distance);

/* The guard byte of `buffer` read as `reading` at `distance` bytes from its
 * edge: guard_zone_pattern for GUARD_VALUES, with its top bit flipped for
 * GUARD_VALUES_NEGATED, else the byte of an element of `reading` bytes
 * whose value is 1 to 8 (varying with the element and the buffer, so a
 * copy of one buffer's guard into another's still shows). */
uint8_t guard_zone_byte_read_as(uint32_t buffer, GuardReading reading, GuardSide side, size_t distance);

/* Reads one GuardReading of an ALLOC request (worker_protocol.h) into *out;
 * -1 with e set when it is none of GUARD_VALUES, GUARD_VALUES_NEGATED, 1,
 * 2, 4, 8. */
int guard_reading_parse(WpReader *in, GuardReading *out, Error *e);

/* Fills a zone of len host bytes on `side` of a buffer with its pattern,
 * as `reading` reads it. */
void guard_zone_fill(uint8_t *zone, size_t len, GuardSide side, uint32_t buffer, GuardReading reading);

/* Looks at a zone of len bytes on `side` of a buffer of `size` bytes: the
 * zone before ends at the buffer's first byte, the zone after starts right
 * after its last.  Returns 1 with *offset set to the changed byte nearest
 * the buffer (the most telling one), as an offset from the buffer's start:
 * negative before it, >= size after it.  Returns 0 when the zone is intact. */
int guard_zone_scan(const uint8_t *zone, size_t len, GuardSide side, uint64_t size, uint32_t buffer,
                    GuardReading reading, int64_t *offset);

/* The guards a run wrote, in the order found. */
typedef struct GuardList {
    uint32_t n;
    WpBuf entries;      /* n x (u32 buffer, i64 offset); guard_list_finish releases */
} GuardList;

/* guard_zone_scan, and an entry for `buffer` in l when the zone was written. */
void guard_list_check(GuardList *l, uint32_t buffer, GuardReading reading, const uint8_t *zone, size_t len,
                      GuardSide side, uint64_t size);
/* Appends the list as a RUN answer ends (u32 n, then the entries) to out,
 * and releases l. */
void guard_list_finish(GuardList *l, WpBuf *out);
/* Releases l without answering (an error came first). */
void guard_list_release(GuardList *l);

#endif
