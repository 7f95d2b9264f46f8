/* wp_profile.h — the PROFILE request of the worker protocol
 * (worker_protocol.h): its payloads, encoded and decoded.
 *
 *   PROFILE  request: u32 flush_mib | u32 deadline_ms (per execution) |
 *            u32 max_passes (0: the CUDA API's occupancy only) |
 *            u32 n_restore | u32 restore[n_restore] | a RUN payload (the
 *            plan; repeats and its own deadline unused)
 *            response data: u32 status (ProfileStatus) | str note |
 *            u32 passes | f64 seconds | u32 n | n x (str metric, f64 value) |
 *            u32 n_launches | n_launches x i32 blocks per SM from
 *            cuOccupancyMaxActiveBlocksPerMultiprocessor (-1: failed) |
 *            str occupancy note | the guard list of RUN
 *
 * f64 travels as the u64 of its bits.  The worker answers a profiler that
 * is not permitted or not present with WP_OK and that status: it is the
 * machine's limitation, not the candidate's or the worker's failure. */
#ifndef CUDAPERF_WP_PROFILE_H
#define CUDAPERF_WP_PROFILE_H

#include "common/error.h"
#include "harness/profile_metrics.h"
#include "harness/worker_protocol.h"

typedef struct WpProfileRequest {
    uint32_t flush_mib;        /* L2 flush before every pass (outside the range); 0: none */
    uint32_t deadline_ms;      /* per execution of the plan */
    uint32_t max_passes;       /* bound on replays; 0: occupancy only */
    uint32_t n_restore;
    uint32_t restore[WP_MAX_BUFFERS];
    WpRun plan;                /* from malloc() inside; wp_profile_request_release */
} WpProfileRequest;

void wp_encode_profile(WpBuf *b, const WpProfileRequest *q);
/* Decodes and validates (n_buffers bounds every index). */
int wp_decode_profile(const void *payload, size_t len, uint32_t n_buffers, WpProfileRequest *q, Error *e);
void wp_profile_request_release(WpProfileRequest *q);

/* The result part of the response (without the guard list). */
void wp_encode_profile_result(WpBuf *b, const ProfileResult *r);
/* Fills r (profile_result_init first); quantities are left to profile_take. */
int wp_decode_profile_result(WpReader *in, ProfileResult *r, Error *e);

#endif
