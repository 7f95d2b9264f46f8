/* test_gpu_share.c — turns on a shared GPU (gpu_share.h) between processes:
 * users run together, a measurement runs alone, and a waiting measurement
 * goes before users that arrive after it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/gpu_share.h"
#include "tests/test.h"

/* A child that opens the share, enters it as `use`, writes one byte to
 * `said` once it holds the turn, then waits for a byte on `go` before it
 * leaves and exits. */
static pid_t start_child(const char *path, GpuUse use, int said[2], int go[2])
{
    if (pipe(said) != 0 || pipe(go) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        GpuShare g;
        Error e;
        char c = 'x';
        close(said[0]);
        close(go[1]);
        if (gpu_share_open(&g, path, &e) != 0 || gpu_share_enter(&g, use, NULL, &e) != 0)
            _exit(2);
        if (write(said[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(3);
        gpu_share_leave(&g);
        gpu_share_close(&g);
        _exit(0);
    }
    close(said[1]);
    close(go[0]);
    return pid;
}

/* 1 when fd has a byte within ms milliseconds (and reads it), else 0. */
static int said_within(int fd, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    char c;
    return poll(&p, 1, ms) == 1 && read(fd, &c, 1) == 1;
}

/* Whether some other open file description holds byte `byte` of path
 * (F_OFD_GETLK from a description of our own that holds nothing). */
static int byte_held(const char *path, int byte)
{
    int fd = open(path, O_RDWR);
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    l.l_start = byte;
    l.l_len = 1;
    int held = fd >= 0 && fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK;
    if (fd >= 0)
        close(fd);
    return held;
}

static int finish_child(pid_t pid, int said, int go)
{
    char c = 'g';
    int st = -1;
    if (write(go, &c, 1) != 1)
        kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    close(said);
    close(go);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(gpu_share_turns)
{
    char path[512];
    Error e;
    setenv("TMPDIR", t->tmpdir, 1);
    CHECK(gpu_share_create(3, path, sizeof path, &e) == 0);
    unsetenv("TMPDIR");
    CHECK_MSG(strstr(path, "cudaperf-gpu3-share-") != NULL && access(path, R_OK | W_OK) == 0, "share file %s", path);

    GpuShare me;
    CHECK(gpu_share_open(&me, path, &e) == 0);
    CHECK(gpu_share_enter(&me, GPU_USE_SHARED, NULL, &e) == 0);
    /* turns do not nest */
    CHECK(gpu_share_enter(&me, GPU_USE_SHARED, NULL, &e) == -1 && strstr(e.msg, "nest"));

    /* users run together */
    int u_said[2], u_go[2];
    pid_t user = start_child(path, GPU_USE_SHARED, u_said, u_go);
    CHECK_MSG(said_within(u_said[0], 5000), "a second user did not get a turn beside the first");
    CHECK(finish_child(user, u_said[0], u_go[1]) == 0);

    /* a measurement waits for the user; while it waits (it holds the
     * turnstile), a newly arriving user queues behind it */
    int m_said[2], m_go[2];
    pid_t meas = start_child(path, GPU_USE_EXCLUSIVE, m_said, m_go);
    for (int i = 0; i < 500 && !byte_held(path, 0); i++)
        usleep(10000);
    CHECK_MSG(byte_held(path, 0), "the measurement never reached the turnstile");
    CHECK_MSG(!said_within(m_said[0], 100), "the measurement got its turn while a user held one");
    int l_said[2], l_go[2];
    pid_t late = start_child(path, GPU_USE_SHARED, l_said, l_go);
    CHECK_MSG(!said_within(l_said[0], 200), "a user arriving after a waiting measurement went first");

    gpu_share_leave(&me);
    CHECK_MSG(said_within(m_said[0], 5000), "the measurement did not get its turn once the user left");
    CHECK_MSG(!said_within(l_said[0], 200), "a user ran during the measurement");
    CHECK(finish_child(meas, m_said[0], m_go[1]) == 0);
    CHECK_MSG(said_within(l_said[0], 5000), "the late user never got its turn after the measurement");
    CHECK(finish_child(late, l_said[0], l_go[1]) == 0);

    /* a process that dies holding a turn releases it */
    pid_t dead = start_child(path, GPU_USE_EXCLUSIVE, m_said, m_go);
    CHECK(said_within(m_said[0], 5000));
    kill(dead, SIGKILL);
    waitpid(dead, NULL, 0);
    close(m_said[0]);
    close(m_go[1]);
    double waited = -1;
    CHECK(gpu_share_enter(&me, GPU_USE_EXCLUSIVE, &waited, &e) == 0 && waited >= 0 && waited < 5);
    gpu_share_close(&me);
    CHECK(me.fd == -1 && !me.held);
    /* a share file that is not there is an error naming it */
    CHECK(gpu_share_open(&me, "/nonexistent/share", &e) == -1 && strstr(e.msg, "/nonexistent/share"));
    unlink(path);
    return 0;
}
