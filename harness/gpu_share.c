#include "gpu_share.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TURNSTILE_BYTE = 0, LOCK_BYTE = 1 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One byte's OFD lock: type F_RDLCK, F_WRLCK or F_UNLCK; waits unless
 * unlocking.  Retries on EINTR (a progress timer, a child's SIGCHLD). */
static int lock_byte(int fd, int byte, short type)
{
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = type;
    l.l_whence = SEEK_SET;
    l.l_start = byte;
    l.l_len = 1;
    int rc;
    while ((rc = fcntl(fd, type == F_UNLCK ? F_OFD_SETLK : F_OFD_SETLKW, &l)) != 0 && errno == EINTR)
        ;
    return rc;
}

int gpu_share_create(int device, char *path, size_t len, Error *e)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    int n = snprintf(path, len, "%s/cudaperf-gpu%d-share-XXXXXX", dir, device);
    if (n < 0 || (size_t)n >= len)
        return ERR(e, "GPU share file: path under '%s' too long", dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return ERR(e, "GPU share file '%s': %s", path, strerror(errno));
    close(fd);
    return 0;
}

int gpu_share_open(GpuShare *g, const char *path, Error *e)
{
    memset(g, 0, sizeof *g);
    g->fd = open(path, O_RDWR | O_CLOEXEC);
    if (g->fd < 0)
        return ERR(e, "GPU share file '%s': %s", path, strerror(errno));
    return 0;
}

void gpu_share_close(GpuShare *g)
{
    if (g->fd > 0) {
        gpu_share_leave(g);
        close(g->fd);
    }
    g->fd = -1;
}

int gpu_share_enter(GpuShare *g, GpuUse use, double *waited_s, Error *e)
{
    double t0 = now_s();
    if (waited_s)
        *waited_s = 0;
    if (g->held)
        return ERR(e, "GPU share: a turn is already held (turns do not nest)");
    /* Through the turnstile first: a measurement waiting for the lock holds
     * it, so users arriving meanwhile queue behind the measurement. */
    if (lock_byte(g->fd, TURNSTILE_BYTE, F_WRLCK) != 0)
        return ERR(e, "GPU share: turnstile lock: %s", strerror(errno));
    int rc = lock_byte(g->fd, LOCK_BYTE, use == GPU_USE_EXCLUSIVE ? F_WRLCK : F_RDLCK);
    int err = errno;
    lock_byte(g->fd, TURNSTILE_BYTE, F_UNLCK);
    if (rc != 0)
        return ERR(e, "GPU share: %s lock: %s", use == GPU_USE_EXCLUSIVE ? "exclusive" : "shared", strerror(err));
    g->held = 1;
    double w = now_s() - t0;
    g->waited_s += w;
    if (waited_s)
        *waited_s = w;
    return 0;
}

void gpu_share_leave(GpuShare *g)
{
    if (!g->held)
        return;
    lock_byte(g->fd, LOCK_BYTE, F_UNLCK);
    g->held = 0;
}
