/* guard_zone.h — the guard zones around every worker buffer, and the list
 * of those a run wrote.
 *
 * Both workers put WP_GUARD_BYTES bytes before and after each buffer
 * (worker_protocol.h), each buffer's own byte (guard_zone_byte: buffer 0
 * WP_GUARD_BYTE), and look at them after every RUN, TIME and PROFILE:
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

/* The byte that fills the guard zones of buffer `buffer`.  Neighbouring
 * buffers get different ones: a kernel that runs past the end of an input
 * and of an output in step (out[i] = in[i], a blend, a min) would otherwise
 * copy the input's guard bytes into the output's unchanged, and the write
 * would not show (run 16: 25 planted bounds defects passed so). */
uint8_t guard_zone_byte(uint32_t buffer);

/* Fills a zone of len host bytes with guard_zone_byte(buffer). */
void guard_zone_fill(uint8_t *zone, size_t len, uint32_t buffer);

/* Looks at a zone of len bytes on `side` of a buffer of `size` bytes: the
 * zone before ends at the buffer's first byte, the zone after starts right
 * after its last.  Returns 1 with *offset set to the changed byte nearest
 * the buffer (the most telling one), as an offset from the buffer's start:
 * negative before it, >= size after it.  Returns 0 when the zone is intact. */
int guard_zone_scan(const uint8_t *zone, size_t len, GuardSide side, uint64_t size, uint32_t buffer,
                    int64_t *offset);

/* The guards a run wrote, in the order found. */
typedef struct GuardList {
    uint32_t n;
    WpBuf entries;      /* n x (u32 buffer, i64 offset); guard_list_finish releases */
} GuardList;

/* guard_zone_scan, and an entry for `buffer` in l when the zone was written. */
void guard_list_check(GuardList *l, uint32_t buffer, const uint8_t *zone, size_t len, GuardSide side,
                      uint64_t size);
/* Appends the list as a RUN answer ends (u32 n, then the entries) to out,
 * and releases l. */
void guard_list_finish(GuardList *l, WpBuf *out);
/* Releases l without answering (an error came first). */
void guard_list_release(GuardList *l);

#endif
