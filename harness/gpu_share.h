/* gpu_share.h — worker processes that share one GPU take turns, so that
 * a timed measurement has the GPU to itself.
 *
 * A run with several workers per GPU (`harness run --per-gpu N`) overlaps
 * what is not GPU work — input generation, the C reference on one core,
 * comparing outputs on the host — which dominates large configs.  Their GPU
 * work must not overlap a measurement: another context's kernels or copies
 * would slow the timed kernel and the figure would be wrong.  So every
 * request to a GPU (a worker request, a torch reference on the GPU) enters
 * the share as a user, and every measurement (TIME, PROFILE, torch eager's
 * timing) enters it alone: users run together, a measurement waits until
 * none runs and none starts while it runs.  A waiting measurement goes
 * first: new users queue behind it, so a stream of short requests from
 * several workers cannot starve it.
 *
 * The share is a file with two open-file-description locks (fcntl
 * F_OFD_SETLKW): byte 0 is the turnstile every entry passes, byte 1 the
 * lock itself (read for users, write for a measurement).  Each process
 * opens the file itself, so the processes of one run exclude each other,
 * and a process that dies releases what it held with its descriptor.
 * The descriptor is close-on-exec: a worker child it starts never holds a
 * turn. */
#ifndef CUDAPERF_GPU_SHARE_H
#define CUDAPERF_GPU_SHARE_H

#include <stddef.h>

#include "common/error.h"

typedef enum GpuUse {
    GPU_USE_SHARED,    /* GPU work that may overlap other workers' work */
    GPU_USE_EXCLUSIVE  /* a measurement: nothing else on the GPU meanwhile */
} GpuUse;

typedef struct GpuShare {
    int fd;          /* -1: not open */
    int held;        /* a turn is held (between enter and leave) */
    double waited_s; /* total seconds spent waiting for turns */
} GpuShare;

/* Makes a new empty share file for `device` under $TMPDIR (or /tmp) and
 * writes its path to path[len].  The caller unlinks it when the run ends.
 * 0, or -1 with e. */
int gpu_share_create(int device, char *path, size_t len, Error *e);

/* Opens the share file at path for this process.  0, or -1 with e. */
int gpu_share_open(GpuShare *g, const char *path, Error *e);
/* Releases a held turn and closes; safe on a zeroed or closed share. */
void gpu_share_close(GpuShare *g);

/* Waits for a turn of the given kind; *waited_s (optional) gets the wait.
 * 0, or -1 with e (the lock call failed).  Turns do not nest: leave
 * before entering again. */
int gpu_share_enter(GpuShare *g, GpuUse use, double *waited_s, Error *e);
void gpu_share_leave(GpuShare *g);

#endif
