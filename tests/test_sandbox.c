/* Sandbox: a crash, a hang, an allocation over the limit, a socket, an
 * output flood each end only the child, with the right description. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness/sandbox.h"
#include "tests/test.h"

static int crash(void *arg)
{
    (void)arg;
    volatile int *p = NULL;
    return *p;
}

static int hang(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return 0;
}

static int spin(void *arg)
{
    (void)arg;
    volatile unsigned long x = 0;
    for (;;)
        x++;
    return 0;
}

static int allocate(void *arg)
{
    size_t bytes = *(size_t *)arg;
    char *p = malloc(bytes);
    if (!p)
        return 7; /* refused: the limit works */
    memset(p, 1, bytes);
    return 0;
}

/* arg: the address family (NULL: AF_INET) */
static int open_socket(void *arg)
{
    int fd = socket(arg ? *(const int *)arg : AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return errno == EACCES || errno == EPERM ? 9 : 8;
    close(fd);
    return 0;
}

static int flood(void *arg)
{
    (void)arg;
    char line[1024];
    memset(line, 'x', sizeof line);
    for (int i = 0; i < 100000; i++)
        if (write(1, line, sizeof line) < 0)
            return 1;
    return 0;
}

static int succeed(void *arg)
{
    (void)arg;
    puts("hello from the child");
    return 0;
}

TEST(sandbox_ok_and_output)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    CHECK(sandbox_call(&lim, succeed, NULL, &r, &e) == 0);
    CHECK(sandbox_ok(&r));
    CHECK(r.output && strstr(r.output, "hello from the child"));
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_crash)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    char why[128];
    CHECK(sandbox_call(&lim, crash, NULL, &r, &e) == 0);
    CHECK(!sandbox_ok(&r) && r.signal == SIGSEGV);
    CHECK(strstr(sandbox_describe(&r, why, sizeof why), "signal 11"));
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_hang_and_cpu_limit)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    char why[128];
    lim.wall_seconds = 0.5;
    CHECK(sandbox_call(&lim, hang, NULL, &r, &e) == 0);
    CHECK(r.timed_out && !sandbox_ok(&r));
    CHECK(r.wall_seconds < 5.0);
    CHECK(strstr(sandbox_describe(&r, why, sizeof why), "timed out"));
    sandbox_result_release(&r);
    lim.wall_seconds = 30;
    lim.cpu_seconds = 0.5; /* RLIMIT_CPU rounds up to whole seconds */
    CHECK(sandbox_call(&lim, spin, NULL, &r, &e) == 0);
    CHECK_MSG(!sandbox_ok(&r) && (r.signal == SIGXCPU || r.signal == SIGKILL), "signal %d", r.signal);
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_memory_limit)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    lim.memory_bytes = (size_t)256 << 20;
    size_t big = (size_t)1 << 30;
    CHECK(sandbox_call(&lim, allocate, &big, &r, &e) == 0);
    CHECK_MSG(!sandbox_ok(&r), "a 1 GiB allocation passed a 256 MiB limit");
    CHECK(r.exit_code == 7 || r.signal != 0);
    sandbox_result_release(&r);
    size_t small = (size_t)16 << 20;
    CHECK(sandbox_call(&lim, allocate, &small, &r, &e) == 0);
    CHECK(sandbox_ok(&r));
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_no_network)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    int unix_family = AF_UNIX, inet6 = AF_INET6;
    CHECK(sandbox_call(&lim, open_socket, NULL, &r, &e) == 0);
    CHECK_MSG(r.exited && r.exit_code == 9, "socket() was not refused (exit %d, signal %d)", r.exit_code, r.signal);
    sandbox_result_release(&r);
    CHECK(sandbox_call(&lim, open_socket, &unix_family, &r, &e) == 0);
    CHECK_MSG(r.exited && r.exit_code == 9, "AF_UNIX was not refused (exit %d)", r.exit_code);
    sandbox_result_release(&r);
    /* the CUDA driver's exception: local sockets only */
    lim.allow_unix_sockets = 1;
    CHECK(sandbox_call(&lim, open_socket, &unix_family, &r, &e) == 0);
    CHECK_MSG(r.exited && r.exit_code == 0, "AF_UNIX refused although allowed (exit %d)", r.exit_code);
    sandbox_result_release(&r);
    CHECK(sandbox_call(&lim, open_socket, NULL, &r, &e) == 0);
    CHECK_MSG(r.exited && r.exit_code == 9, "AF_INET allowed with AF_UNIX (exit %d)", r.exit_code);
    sandbox_result_release(&r);
    CHECK(sandbox_call(&lim, open_socket, &inet6, &r, &e) == 0);
    CHECK_MSG(r.exited && r.exit_code == 9, "AF_INET6 allowed with AF_UNIX (exit %d)", r.exit_code);
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_output_limit)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    lim.output_bytes = 64 << 10;
    CHECK(sandbox_call(&lim, flood, NULL, &r, &e) == 0);
    CHECK(r.output_truncated);
    CHECK(strlen(r.output) <= lim.output_bytes);
    sandbox_result_release(&r);
    return 0;
}

TEST(sandbox_exec_missing_program)
{
    SandboxLimits lim = sandbox_default_limits();
    SandboxResult r;
    Error e;
    char *argv[] = {"cudaperf-no-such-program", NULL};
    CHECK(sandbox_exec(&lim, argv, NULL, &r, &e) == 0);
    CHECK(r.exited && r.exit_code == 127);
    CHECK(strstr(r.output, "cannot execute"));
    sandbox_result_release(&r);
    return 0;
}
