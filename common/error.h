/* error.h — the one error-reporting pattern of CudaPerf.
 *
 * Library functions return 0 on success and -1 on failure; on failure they
 * fill the caller's Error with a message that names the offending file,
 * field or value ("meta.json: args[2].dtype: unknown dtype 'f17'"), plus the
 * source location that raised it (for debugging, printed only on request).
 * Only main() prints errors and exits. */
#ifndef CUDAPERF_ERROR_H
#define CUDAPERF_ERROR_H

#include <stddef.h>

typedef struct Error {
    char msg[2048];      /* human-readable, one line, no trailing newline */
    const char *src_file; /* where in our code it was raised (static storage) */
    int src_line;
} Error;

/* Formats msg into e (if e is non-NULL) and returns -1, so callers can write
 * `return ERR(e, "...", ...);`.  Truncates silently past sizeof msg. */
int error_set(Error *e, const char *src_file, int src_line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Prepends "prefix: " to an existing message (adds context on the way up). */
int error_prefix(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define ERR(e, ...) error_set((e), __FILE__, __LINE__, __VA_ARGS__)

/* Checks a call that returns 0 on success; on failure jumps to `done` with
 * rc = -1 (the callee has already filled the Error). */
#define TRY(call) do { if ((call) != 0) { rc = -1; goto done; } } while (0)

/* Fails the current function with a formatted error and jumps to `done`. */
#define FAIL(e, ...) do { ERR((e), __VA_ARGS__); rc = -1; goto done; } while (0)

#endif
