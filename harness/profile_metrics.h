/* profile_metrics.h — the measured structural report: which hardware
 * metrics are collected, and what they say about a candidate.
 *
 * Promise: a fixed list of *quantities* (DRAM bytes read and written,
 * global load/store sectors and requests, achieved occupancy, SM and DRAM
 * throughput, barrier stall share, GPU time), each with alternatives in
 * order of preference — one metric, or a ratio of two — because metric
 * names differ between chips and CUPTI versions.  profile_resolve() picks,
 * from what the profiler says it knows (a predicate, so it is testable
 * without a GPU), the metrics to collect; profile_take() turns the
 * collected (name, value) pairs back into quantities, naming those no
 * alternative could give.  profile_derive() computes what a report needs:
 * sectors per request and the measured coalescing score, achieved
 * occupancy, achieved bandwidth and FLOP rate from the cost model's flops,
 * the roofline fraction (gpu_peaks.h), measured DRAM bytes against the
 * cost model's.  docs/STRUCTURE.md ("Measured") gives every formula.
 *
 * Nothing here talks to a GPU: the worker collects (cupti_profile.h), the
 * parent derives, stores (results.profile, JSON with stable keys) and
 * prints (beside the static report of structure.h). */
#ifndef CUDAPERF_PROFILE_METRICS_H
#define CUDAPERF_PROFILE_METRICS_H

#include <stdio.h>

#include "common/error.h"

#define PROFILE_FORMAT_VERSION 1
#define PROFILE_MAX_METRICS 24
#define PROFILE_METRIC_NAME 96
#define PROFILE_MAX_LAUNCHES 256

typedef enum ProfileQuantity {
    PQ_DRAM_READ,        /* bytes */
    PQ_DRAM_WRITE,       /* bytes */
    PQ_LD_SECTORS,       /* global load sectors (32 B) */
    PQ_LD_REQUESTS,      /* global load requests (one per warp instruction) */
    PQ_ST_SECTORS,
    PQ_ST_REQUESTS,
    PQ_WARPS_ACTIVE,     /* achieved occupancy, fraction of the SM's warp slots (while active) */
    PQ_SM_THROUGHPUT,    /* fraction of peak, elapsed */
    PQ_DRAM_THROUGHPUT,  /* fraction of peak, elapsed */
    PQ_BARRIER_STALL,    /* fraction of active warp cycles stalled at a barrier */
    PQ_DURATION,         /* ns of GPU time over the range (the whole plan) */
    PQ_COUNT
} ProfileQuantity;

/* The JSON key of a quantity ("dram_read_bytes", ...). */
const char *profile_quantity_key(ProfileQuantity q);

/* How the worker ended the profiled pass. */
typedef enum ProfileStatus {
    PROFILE_NOT_RUN = 0, /* not asked for, or the config did not pass */
    PROFILE_OK,          /* measured (some quantities may still be unavailable) */
    PROFILE_DENIED,      /* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES and kin: counters not permitted */
    PROFILE_UNAVAILABLE, /* no CUPTI library, no range profiler, unsupported device */
    PROFILE_FAILED       /* a profiler call failed otherwise */
} ProfileStatus;

/* "not_run", "ok", "denied", "unavailable", "failed". */
const char *profile_status_name(ProfileStatus s);

/* The metrics to collect, chosen by profile_resolve. */
typedef struct ProfileSelection {
    int n;
    char names[PROFILE_MAX_METRICS][PROFILE_METRIC_NAME];
    int missing[PQ_COUNT];   /* no alternative of the quantity is available */
} ProfileSelection;

/* Picks, for every quantity, its first alternative whose metrics
 * available(name, ctx) accepts (nonzero), and lists each chosen metric
 * once. */
void profile_resolve(int (*available)(const char *name, void *ctx), void *ctx, ProfileSelection *s);

/* The measured report of one candidate under one config.  Plain data: no
 * ownership. */
typedef struct ProfileResult {
    ProfileStatus status;
    char note[512];          /* why not measured, or what was partial */
    int passes;              /* replays of the plan the metrics needed */
    double seconds;          /* wall time of the profiled pass in the worker */
    /* raw (name, value) pairs as collected */
    int n_metrics;
    char names[PROFILE_MAX_METRICS][PROFILE_METRIC_NAME];
    double values[PROFILE_MAX_METRICS];
    /* quantities (NaN: unavailable) and the metric each came from */
    double q[PQ_COUNT];
    char source[PQ_COUNT][2 * PROFILE_METRIC_NAME + 4];
    /* derived (profile_derive); NaN where an input is missing */
    double word_bytes;       /* bytes of the element a warp's thread loads: ideal sectors/request */
    double ld_sectors_per_request, st_sectors_per_request;
    double coalescing;       /* [0, 1]: ideal / measured sectors per request, requests-weighted */
    double occupancy;        /* achieved, [0, 1] */
    double dram_bytes;       /* read + write */
    double flops, model_bytes;
    double bytes_ratio;      /* dram_bytes / model_bytes */
    double bandwidth;        /* achieved, bytes/s */
    double flop_rate;        /* cost-model flops / duration */
    double roofline;         /* max(flop_rate / peak, bandwidth / peak bandwidth) */
    double peak_flops, peak_bandwidth;
    /* the CUDA API's occupancy for each launch of the plan (worker: cuOccupancyMaxActiveBlocksPerMultiprocessor
       on the loaded cubin); -1 where it failed */
    int n_launches;
    int api_blocks_per_sm[PROFILE_MAX_LAUNCHES];
    char occupancy_note[256]; /* why the API's occupancy is missing, or "" */
} ProfileResult;

/* An empty result: status PROFILE_NOT_RUN, every number NaN. */
void profile_result_init(ProfileResult *r);

/* Fills r->q (and r->source) from the collected pairs r->names/values:
 * for each quantity its first alternative whose metrics were collected
 * with finite values.  Percentages become fractions. */
void profile_take(ProfileResult *r);

/* The derived figures, from the quantities and the cost model under the
 * config (flops, bytes), the element size of the candidate's accesses
 * (word_bytes; <= 0: 4) and the roofline's peaks. */
void profile_derive(ProfileResult *r, double flops, double model_bytes, double word_bytes, double peak_flops,
                    double peak_bandwidth);

/* Measured coalescing of one kind of access: ideal / measured sectors per
 * request, clamped to [0, 1]; NaN without requests. */
double profile_coalescing(double sectors, double requests, double word_bytes);

/* The report as JSON (a cJSON object the caller deletes), or text (the
 * caller frees).  Stable keys; docs/STRUCTURE.md lists them. */
struct cJSON *profile_to_cjson(const ProfileResult *r);
char *profile_to_json(const ProfileResult *r);

struct Problem;
struct ProblemConfig;
/* profile_derive with the cost model of problem p under config c and the
 * H200 roofline of its precision (FP64 when a buffer is f64, gpu_peaks.h). */
void profile_derive_for(ProfileResult *r, const struct Problem *p, const struct ProblemConfig *c, double word_bytes);

/* The element size of kernel.cu's global accesses (the median over every
 * kernel's loads and stores, vector types at their width; 4 when the
 * source analysis finds none or refuses the source). */
double profile_source_word_bytes(const char *source);

struct StructureReport;
/* The measured report, beside the static one (sr; NULL: measured only). */
void profile_print(FILE *f, const ProfileResult *r, const struct StructureReport *sr);

/* The element size a warp's requests should move per thread, from the
 * static report: the median elem_bytes of the judged global accesses of
 * launched kernels (vector types at their width), 4 when there is none. */
double profile_word_bytes(const struct StructureReport *sr);

#endif
