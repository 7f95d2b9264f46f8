#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"

static int g_network_isolated;

void sandbox_isolate_network(void)
{
    if (!g_network_isolated && unshare(CLONE_NEWNET) == 0)
        g_network_isolated = 1;
}

SandboxLimits sandbox_default_limits(void)
{
    SandboxLimits l = {20.0, 20.0, (size_t)4 << 30, (size_t)1 << 20, 0};
    return l;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Refuses socket() with EACCES: no network, even where namespaces are not
 * permitted.  Other architectures than the two we build for are allowed
 * through unfiltered (the namespace still applies where permitted). */
static void install_socket_filter(int allow_unix)
{
#if defined(__x86_64__)
    const unsigned arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const unsigned arch = AUDIT_ARCH_AARCH64;
#else
    const unsigned arch = 0;
#endif
    /* socket(): EACCES, or allowed for AF_UNIX when asked (the low word of
     * the first argument; the kernel compares the int the caller passed) */
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allow_unix ? AF_UNIX : 0xffffffffu, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

void sandbox_restrict_self(void)
{
    sandbox_isolate_network();
    struct rlimit r = {0, 0};
    setrlimit(RLIMIT_CORE, &r);
    install_socket_filter(0);
}

/* Address space already mapped, so the memory limit is on top of it. */
static size_t current_address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void child_setup(const SandboxLimits *lim, int out_fd, const char *workdir)
{
    setpgid(0, 0);
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO);
    setenv("LC_ALL", "C", 1); /* plain ASCII quotes in compiler logs */
    if (workdir && chdir(workdir) == 0)
        setenv("TMPDIR", workdir, 1);
    /* A new network namespace has no interfaces but loopback (down).
     * Creating one costs milliseconds of kernel time, so a process that runs
     * many children isolates itself once (sandbox_isolate_network). */
    if (!g_network_isolated && unshare(CLONE_NEWNET) != 0) {
        /* not permitted here: the seccomp filter still refuses sockets */
    }
    struct rlimit r;
    r.rlim_cur = r.rlim_max = (rlim_t)(lim->cpu_seconds + 1);
    setrlimit(RLIMIT_CPU, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)(current_address_space() + lim->memory_bytes);
    setrlimit(RLIMIT_AS, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)lim->output_bytes;
    setrlimit(RLIMIT_FSIZE, &r);
    r.rlim_cur = r.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &r);
    install_socket_filter(lim->allow_unix_sockets);
}

typedef struct ChildSpec {
    int (*fn)(void *);
    void *arg;
    char *const *argv;
} ChildSpec;

static int run_child(const SandboxLimits *lim, const ChildSpec *spec, const char *workdir,
                     SandboxResult *res, Error *e)
{
    memset(res, 0, sizeof *res);
    char tmpl[] = "/tmp/cudaperf-sbx-XXXXXX";
    const char *dir = workdir;
    if (!dir) {
        if (!mkdtemp(tmpl))
            return ERR(e, "sandbox: cannot create a private directory: %s", strerror(errno));
        dir = tmpl;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return ERR(e, "sandbox: pipe: %s", strerror(errno));
    fflush(NULL);
    double start = now_seconds();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return ERR(e, "sandbox: fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child_setup(lim, fds[1], dir);
        if (spec->argv) {
            execvp(spec->argv[0], spec->argv);
            fprintf(stderr, "cannot execute '%s': %s\n", spec->argv[0], strerror(errno));
            _exit(127);
        }
        int code = spec->fn(spec->arg);
        fflush(NULL);
        _exit(code);
    }
    close(fds[1]);
    setpgid(pid, pid); /* also from the parent, to win the race with kill */
    StrBuf out = STRBUF_INIT;
    double deadline = start + lim->wall_seconds;
    int status = 0, reaped = 0, eof = 0;
    while (!reaped) {
        double left = deadline - now_seconds();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            res->timed_out = 1;
            waitpid(pid, &status, 0);
            reaped = 1;
            break;
        }
        if (!eof) {
            struct pollfd pfd = {fds[0], POLLIN, 0};
            int n = poll(&pfd, 1, (int)(left * 1000) + 1);
            if (n > 0) {
                char buf[65536];
                ssize_t got = read(fds[0], buf, sizeof buf);
                if (got > 0) {
                    if (out.len < lim->output_bytes) {
                        size_t keep = (size_t)got;
                        if (out.len + keep > lim->output_bytes)
                            keep = lim->output_bytes - out.len, res->output_truncated = 1;
                        sb_append_n(&out, buf, keep);
                    } else {
                        res->output_truncated = 1;
                        kill(-pid, SIGKILL); /* a flood of output: stop it */
                    }
                } else if (got == 0) {
                    eof = 1;
                }
            }
        } else {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
        if (waitpid(pid, &status, WNOHANG) == pid)
            reaped = 1;
    }
    /* Drain what the child wrote just before exiting. */
    for (;;) {
        struct pollfd pfd = {fds[0], POLLIN, 0};
        if (poll(&pfd, 1, 0) <= 0)
            break;
        char buf[65536];
        ssize_t got = read(fds[0], buf, sizeof buf);
        if (got <= 0)
            break;
        if (out.len + (size_t)got <= lim->output_bytes)
            sb_append_n(&out, buf, (size_t)got);
        else
            res->output_truncated = 1;
    }
    close(fds[0]);
    kill(-pid, SIGKILL); /* anything the child left behind in its group */
    res->wall_seconds = now_seconds() - start;
    if (!res->timed_out) {
        if (WIFEXITED(status)) {
            res->exited = 1;
            res->exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            res->signal = WTERMSIG(status);
        }
    } else {
        res->signal = SIGKILL;
    }
    res->output = sb_steal(&out);
    if (!workdir)
        file_remove_tree(tmpl, NULL);
    return 0;
}

int sandbox_spawn(const SandboxLimits *lim, char *const argv[], const char *workdir, SandboxChild *child, Error *e)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    memset(child, 0, sizeof *child);
    child->pid = -1;
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        ERR(e, "sandbox: pipe: %s", strerror(errno));
        goto fail;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        ERR(e, "sandbox: fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* child_setup's limits, with the pipes as stdin/stdout/stderr; no
         * CPU limit when cpu_seconds is 0 (a server's CPU time grows with
         * its requests: the caller's deadline per request bounds it), no
         * address-space limit when memory_bytes is 0 */
        setpgid(0, 0);
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        setenv("LC_ALL", "C", 1);
        if (workdir && chdir(workdir) == 0)
            setenv("TMPDIR", workdir, 1);
        if (!g_network_isolated && unshare(CLONE_NEWNET) != 0) {
            /* not permitted here: the seccomp filter still refuses sockets */
        }
        struct rlimit r;
        if (lim->cpu_seconds > 0) {
            r.rlim_cur = r.rlim_max = (rlim_t)(lim->cpu_seconds + 1);
            setrlimit(RLIMIT_CPU, &r);
        }
        if (lim->memory_bytes > 0) {
            r.rlim_cur = r.rlim_max = (rlim_t)(current_address_space() + lim->memory_bytes);
            setrlimit(RLIMIT_AS, &r);
        }
        r.rlim_cur = r.rlim_max = (rlim_t)lim->output_bytes;
        setrlimit(RLIMIT_FSIZE, &r);
        r.rlim_cur = r.rlim_max = 0;
        setrlimit(RLIMIT_CORE, &r);
        install_socket_filter(lim->allow_unix_sockets);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot execute '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    child->pid = pid;
    child->to_child = in[1];
    child->from_child = out[0];
    child->err = err[0];
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0)
            close(in[i]);
        if (out[i] >= 0)
            close(out[i]);
        if (err[i] >= 0)
            close(err[i]);
    }
    return -1;
}

void sandbox_child_kill(SandboxChild *child, int *status)
{
    int st = 0;
    if (child->pid > 0) {
        kill(-child->pid, SIGKILL);
        kill(child->pid, SIGKILL);
        waitpid(child->pid, &st, 0);
    }
    if (status)
        *status = st;
    if (child->to_child >= 0)
        close(child->to_child);
    if (child->from_child >= 0)
        close(child->from_child);
    if (child->err >= 0)
        close(child->err);
    child->pid = -1;
    child->to_child = child->from_child = child->err = -1;
}

int sandbox_call(const SandboxLimits *lim, int (*fn)(void *arg), void *arg, SandboxResult *res, Error *e)
{
    ChildSpec spec = {fn, arg, NULL};
    return run_child(lim, &spec, NULL, res, e);
}

int sandbox_exec(const SandboxLimits *lim, char *const argv[], const char *workdir, SandboxResult *res,
                 Error *e)
{
    ChildSpec spec = {NULL, NULL, argv};
    return run_child(lim, &spec, workdir, res, e);
}

int sandbox_ok(const SandboxResult *res)
{
    return res->exited && res->exit_code == 0 && !res->timed_out;
}

const char *sandbox_describe(const SandboxResult *res, char *buf, size_t len)
{
    if (res->timed_out)
        snprintf(buf, len, "timed out after %.1f s", res->wall_seconds);
    else if (res->signal == SIGXCPU)
        snprintf(buf, len, "killed by signal %d (%s): CPU time limit", res->signal, strsignal(res->signal));
    else if (res->signal == SIGXFSZ)
        snprintf(buf, len, "killed by signal %d (%s): file size limit", res->signal, strsignal(res->signal));
    else if (res->signal)
        snprintf(buf, len, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
    else if (res->exited && res->exit_code != 0)
        snprintf(buf, len, "exit code %d", res->exit_code);
    else
        snprintf(buf, len, "ok");
    return buf;
}

void sandbox_result_release(SandboxResult *res)
{
    free(res->output);
    res->output = NULL;
}
