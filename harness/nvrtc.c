#include "nvrtc.h"

#include <ctype.h>
#include <errno.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/sandbox.h"

#define SOURCE_MAX_BYTES (1 << 20)
#define LOG_MAX_BYTES (256 << 10)
#define CUBIN_MAX_BYTES (256 << 20)

/* Every NVRTC call goes through here, so a failure names the call and our
 * file:line (e->src_file/src_line). */
#define NVRTC_CHECK(e, call)                                                                                           \
    do {                                                                                                               \
        nvrtcResult r_ = (call);                                                                                       \
        if (r_ != NVRTC_SUCCESS) {                                                                                     \
            ERR((e), "NVRTC: %s failed: %s", #call, nvrtcGetErrorString(r_));                                          \
            rc = -1;                                                                                                   \
            goto done;                                                                                                 \
        }                                                                                                              \
    } while (0)

const char *nvrtc_cuda_home(void)
{
    const char *h = getenv("CUDAPERF_CUDA_HOME");
    return h && *h ? h : "/usr/local/cuda";
}

/* ---- the include filter ---- */

/* Standard header names a kernel may reasonably ask for.  NVRTC itself
 * decides whether it can find them; a name it cannot is a compile error. */
static const char *const STD_HEADERS[] = {
    "cassert", "cfloat",  "climits", "cmath",   "cstddef",     "cstdint",  "cstdio",  "cstdlib",
    "cstring", "limits",  "type_traits", "utility", "assert.h", "float.h", "limits.h", "math.h",
    "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", NULL};

/* The source with every backslash-newline removed (also backslash, spaces,
 * newline, which GCC splices too: splicing more than the compiler can only
 * make the filter stricter).  line[i] is the 1-based line of out[i]. */
static char *splice_lines(const char *src, int **line_out)
{
    size_t n = strlen(src);
    char *out = xmalloc(n + 1);
    int *line = xmalloc((n + 1) * sizeof *line);
    size_t k = 0;
    int ln = 1;
    for (size_t i = 0; i < n;) {
        if (src[i] == '\\') {
            size_t j = i + 1;
            while (j < n && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r' || src[j] == '\v' || src[j] == '\f'))
                j++;
            if (j < n && src[j] == '\n') {
                ln++;
                i = j + 1;
                continue;
            }
        }
        out[k] = src[i];
        line[k++] = ln;
        if (src[i++] == '\n')
            ln++;
    }
    out[k] = '\0';
    line[k] = ln;
    *line_out = line;
    return out;
}

/* Skips horizontal space and block comments (which may span lines: a
 * comment is one space to the preprocessor, so a '#', a comment running over
 * a newline and then 'include' is still a directive).  Stops at a newline or
 * anything else. */
static const char *skip_space(const char *s)
{
    for (;;) {
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f') {
            s++;
        } else if (s[0] == '/' && s[1] == '*') {
            const char *end = strstr(s + 2, "*/");
            s = end ? end + 2 : s + strlen(s);
        } else {
            return s;
        }
    }
}

static int header_allowed(const char *name)
{
    for (const char *const *h = STD_HEADERS; *h; h++)
        if (strcmp(*h, name) == 0)
            return 1;
    /* CUDA headers: files under the toolkit's include directory (and CCCL's). */
    const char *home = nvrtc_cuda_home();
    static const char *const dirs[] = {"include", "include/cccl"};
    for (int d = 0; d < 2; d++) {
        char *path = xasprintf("%s/%s/%s", home, dirs[d], name);
        struct stat st;
        int ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        free(path);
        if (ok)
            return 1;
    }
    return 0;
}

/* The default policy of nvrtc_check_includes: CUDA or standard headers. */
static int nvrtc_header_check(const char *hdr, int line, Error *e)
{
    if (!header_allowed(hdr))
        return ERR(e, "kernel.cu:%d: #include <%s>: not a CUDA header (not found under %s/include) nor a standard "
                      "header",
                   line, hdr, nvrtc_cuda_home());
    return 0;
}

/* Validates the directive whose name starts at s (just after '#'). */
static int check_directive(const char *s, int line, NvrtcHeaderCheck allowed, Error *e)
{
    const char *id = s;
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    size_t idlen = (size_t)(s - id);
    int is_include = idlen == 7 && strncmp(id, "include", 7) == 0;
    if (!is_include) {
        if ((idlen >= 7 && strncmp(id, "include", 7) == 0) || (idlen == 6 && strncmp(id, "import", 6) == 0) ||
            (idlen == 5 && strncmp(id, "embed", 5) == 0))
            return ERR(e, "kernel.cu:%d: #%.*s is not allowed (only #include <...> of CUDA headers)", line,
                       (int)idlen, id);
        return 0;
    }
    s = skip_space(s);
    if (*s != '<')
        return ERR(e,
                   "kernel.cu:%d: #include %.40s: only angle-bracket includes of CUDA or standard headers are "
                   "allowed (no quoted, computed or absolute includes)",
                   line, *s == '\n' || !*s ? "(nothing)" : s);
    const char *name = ++s;
    while (*s && *s != '>' && *s != '\n')
        s++;
    if (*s != '>')
        return ERR(e, "kernel.cu:%d: #include <...: missing '>'", line);
    char hdr[256];
    size_t len = (size_t)(s - name);
    if (len == 0 || len >= sizeof hdr)
        return ERR(e, "kernel.cu:%d: #include <>: bad header name", line);
    memcpy(hdr, name, len);
    hdr[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)hdr[i]) && !strchr("_.-+/", hdr[i]))
            return ERR(e, "kernel.cu:%d: #include <%s>: character '%c' is not allowed in a header name", line, hdr,
                       hdr[i]);
    if (hdr[0] == '/' || strstr(hdr, "..") || strstr(hdr, "//"))
        return ERR(e, "kernel.cu:%d: #include <%s>: absolute paths and '..' are not allowed", line, hdr);
    if (allowed(hdr, line, e) != 0)
        return -1;
    s = skip_space(s + 1);
    if (s[0] == '/' && s[1] == '/')
        return 0;
    if (*s && *s != '\n')
        return ERR(e, "kernel.cu:%d: #include <%s>: unexpected text after the header name", line, hdr);
    return 0;
}

/* Context-free on purpose: every '#' (and its spellings '%:' and '??=')
 * anywhere, even inside strings or comments, is treated as a possible
 * directive.  A lexer that tracked strings could disagree with NVRTC's
 * (digit separators, raw strings) and let a real directive hide; refusing
 * an odd comment is the cheaper mistake. */
int nvrtc_check_includes(const char *source, Error *e)
{
    return nvrtc_check_includes_with(source, nvrtc_header_check, e);
}

int nvrtc_check_includes_with(const char *source, NvrtcHeaderCheck allowed, Error *e)
{
    if (strlen(source) > SOURCE_MAX_BYTES)
        return ERR(e, "kernel.cu: larger than %d bytes", SOURCE_MAX_BYTES);
    int *line = NULL;
    char *s = splice_lines(source, &line);
    int rc = 0;
    for (const char *p = s; *p && rc == 0; p++) {
        const char *after = NULL;
        if (*p == '#')
            after = p + 1;
        else if (p[0] == '%' && p[1] == ':')
            after = p + 2;
        else if (p[0] == '?' && p[1] == '?' && p[2] == '=')
            after = p + 3;
        if (after)
            rc = check_directive(skip_space(after), line[p - s], allowed, e);
        else if (strncmp(p, "__has_include", 13) == 0 && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            const char *q = p + 13;
            if (strncmp(q, "_next", 5) == 0)
                rc = ERR(e, "kernel.cu:%d: __has_include_next is not allowed", line[p - s]);
            else if (*(q = skip_space(q)) == '(' && *skip_space(q + 1) != '<')
                rc = ERR(e, "kernel.cu:%d: __has_include only with <...> names", line[p - s]);
        }
    }
    free(s);
    free(line);
    return rc;
}

int nvrtc_check_arch(const char *arch, Error *e)
{
    size_t n = arch ? strlen(arch) : 0;
    int ok = n >= 5 && n <= 7 && strncmp(arch, "sm_", 3) == 0 && isdigit((unsigned char)arch[3]) &&
             isdigit((unsigned char)arch[4]);
    for (size_t i = 5; ok && i < n; i++)
        ok = isdigit((unsigned char)arch[i]) || (i == n - 1 && (arch[i] == 'a' || arch[i] == 'f'));
    if (!ok)
        return ERR(e, "arch '%s': expected sm_<digits> such as sm_90 or sm_90a", arch ? arch : "");
    return 0;
}

const char *const *nvrtc_options(const char *arch)
{
    return nvrtc_options_for(arch, 0);
}

const char *const *nvrtc_options_for(const char *arch, unsigned flags)
{
    static char opt_arch[64], opt_inc[512], opt_cccl[512];
    static const char *opts[8];
    snprintf(opt_arch, sizeof opt_arch, "--gpu-architecture=%s", arch);
    snprintf(opt_inc, sizeof opt_inc, "-I%s/include", nvrtc_cuda_home());
    snprintf(opt_cccl, sizeof opt_cccl, "-I%s/include/cccl", nvrtc_cuda_home());
    int k = 0;
    opts[k++] = opt_arch;
    opts[k++] = "--std=c++17";
    opts[k++] = opt_inc;
    opts[k++] = opt_cccl;
    /* line info costs nothing at run time and lets profilers map back to source */
    opts[k++] = "--generate-line-info";
    /* ptxas's resource report goes to the program log; NVRTC accepts both
     * --ptxas-options=-v and -Xptxas=-v (measured with 13.0).  It changes the
     * cubin's bytes (the options are recorded in a note), hence the key. */
    if (flags & NVRTC_PTXAS_INFO)
        opts[k++] = "--ptxas-options=-v";
    opts[k] = NULL;
    return opts;
}

const char *nvrtc_version_string(char *buf, size_t len)
{
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%d.%d", major, minor);
    return buf;
}

int nvrtc_cache_key(const char *source, const char *arch, char hex[HASH_HEX_LEN + 1], Error *e)
{
    return nvrtc_cache_key_for(source, arch, 0, hex, e);
}

int nvrtc_cache_key_for(const char *source, const char *arch, unsigned flags, char hex[HASH_HEX_LEN + 1], Error *e)
{
    if (nvrtc_check_arch(arch, e) != 0)
        return -1;
    char ver[32];
    HashCtx *h = hash_new();
    hash_update_str(h, "cudaperf-nvrtc-v1");
    hash_update_str(h, source);
    for (const char *const *o = nvrtc_options_for(arch, flags); *o; o++)
        hash_update_str(h, *o);
    hash_update_str(h, nvrtc_version_string(ver, sizeof ver));
    hash_update_str(h, arch);
    hash_final(h, hex);
    return 0;
}

/* ---- ptxas -v ---- */

/* The entry named name in *ks, appended when new. */
static NvrtcKernelInfo *info_entry(NvrtcKernelInfo **ks, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*ks)[i].name, name) == 0)
            return &(*ks)[i];
    *ks = xrealloc(*ks, sizeof **ks * (size_t)(*n + 1));
    NvrtcKernelInfo *k = &(*ks)[(*n)++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

/* The name between the first pair of quotes after `after` in line, or the
 * rest of the line when unquoted ("Function properties for k"). */
static void info_name(const char *line, const char *after, char *out, size_t len)
{
    const char *s = strstr(line, after) + strlen(after);
    while (*s == ' ')
        s++;
    size_t k = 0;
    if (*s == '\'') {
        s++;
        while (*s && *s != '\'' && k + 1 < len)
            out[k++] = *s++;
    } else {
        while (*s && *s != '\n' && *s != ' ' && k + 1 < len)
            out[k++] = *s++;
    }
    out[k] = '\0';
}

/* The number right before `what` in the comma-separated list s ("12 bytes
 * smem"), or 0 when absent. */
static long long info_number(const char *s, const char *what)
{
    const char *w = strstr(s, what);
    if (!w)
        return 0;
    const char *p = w;
    while (p > s && p[-1] == ' ')
        p--;
    while (p > s && isdigit((unsigned char)p[-1]))
        p--;
    return strtoll(p, NULL, 10);
}

void nvrtc_parse_ptxas_info(const char *log, NvrtcKernelInfo **out, int *n)
{
    NvrtcKernelInfo *ks = NULL;
    int nk = 0;
    char entry[128] = "", props[128] = "";
    /* ptxas prints per entry: "Compiling entry function 'k' for 'sm_90'",
     * "Function properties for k", the stack/spill line, then "Used ...".
     * Non-inlined device functions get a "Function properties" block too. */
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if (strstr(buf, "Compiling entry function")) {
            info_name(buf, "Compiling entry function", entry, sizeof entry);
            info_entry(&ks, &nk, entry);
        } else if (strstr(buf, "Function properties for")) {
            info_name(buf, "Function properties for", props, sizeof props);
        } else if (strstr(buf, "bytes stack frame") && props[0] && strcmp(props, entry) == 0) {
            NvrtcKernelInfo *k = info_entry(&ks, &nk, entry);
            k->stack_frame = info_number(buf, "bytes stack frame");
            k->spill_stores = info_number(buf, "bytes spill stores");
            k->spill_loads = info_number(buf, "bytes spill loads");
        } else if (strstr(buf, "Used") && strstr(buf, "registers") && entry[0]) {
            NvrtcKernelInfo *k = info_entry(&ks, &nk, entry);
            k->registers = (int)info_number(buf, "registers");
            k->barriers = (int)info_number(buf, "barriers");
            k->static_smem = info_number(buf, "bytes smem");
            k->cumulative_stack = info_number(buf, "bytes cumulative stack size");
        }
        line = end ? end + 1 : NULL;
    }
    *out = ks;
    *n = nk;
}

/* ---- compiling in a sandboxed child ---- */

/* Shared with the child (MAP_SHARED): how the compile ended and its log. */
typedef struct CompileShared {
    int status;         /* 0 ok, 1 compile error, 2 NVRTC/infrastructure failure */
    char err[1024];     /* status 2: what failed */
    size_t log_len;
    char log[LOG_MAX_BYTES];
} CompileShared;

typedef struct CompileJob {
    const char *source;
    const char *arch;
    unsigned flags;
    const char *cubin_tmp; /* where the child writes the cubin */
    CompileShared *sh;
} CompileJob;

static int compile_child(void *arg)
{
    CompileJob *job = arg;
    CompileShared *sh = job->sh;
    nvrtcProgram prog = NULL;
    char *cubin = NULL;
    Error err = {{0}, NULL, 0}, *e = &err;
    int rc = 0;
    const char *const *opts = nvrtc_options_for(job->arch, job->flags);
    int n_opts = 0;
    while (opts[n_opts])
        n_opts++;
    sh->status = 2;
    NVRTC_CHECK(e, nvrtcCreateProgram(&prog, job->source, "kernel.cu", 0, NULL, NULL));
    nvrtcResult cr = nvrtcCompileProgram(prog, n_opts, opts);
    size_t log_size = 0;
    NVRTC_CHECK(e, nvrtcGetProgramLogSize(prog, &log_size));
    if (log_size > 1) {
        char *log = xmalloc(log_size);
        NVRTC_CHECK(e, nvrtcGetProgramLog(prog, log));
        size_t keep = log_size - 1 < LOG_MAX_BYTES - 1 ? log_size - 1 : LOG_MAX_BYTES - 1;
        memcpy(sh->log, log, keep);
        sh->log[keep] = '\0';
        sh->log_len = keep;
        free(log);
    }
    if (cr == NVRTC_ERROR_COMPILATION) {
        sh->status = 1;
        goto done;
    }
    NVRTC_CHECK(e, cr);
    size_t n = 0;
    NVRTC_CHECK(e, nvrtcGetCUBINSize(prog, &n));
    if (n == 0 || n > CUBIN_MAX_BYTES)
        FAIL(e, "NVRTC produced a cubin of %zu bytes", n);
    cubin = xmalloc(n);
    NVRTC_CHECK(e, nvrtcGetCUBIN(prog, cubin));
    FILE *f = fopen(job->cubin_tmp, "wb");
    if (!f || fwrite(cubin, 1, n, f) != n || fclose(f) != 0)
        FAIL(e, "cannot write '%s': %s", job->cubin_tmp, strerror(errno));
    sh->status = 0;
done:
    if (rc != 0)
        snprintf(sh->err, sizeof sh->err, "%s (at %s:%d)", err.msg, err.src_file ? err.src_file : "?", err.src_line);
    if (prog)
        nvrtcDestroyProgram(&prog);
    free(cubin);
    return sh->status == 2 ? 3 : 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int nvrtc_compile(const char *source, const char *arch, const char *cache_dir, NvrtcResult *r, Error *e)
{
    return nvrtc_compile_with(source, arch, cache_dir, 0, r, e);
}

/* The cached log of a NVRTC_PTXAS_INFO request (NULL when absent: the
 * entry is compiled again). */
static char *cached_log(const char *cubin_path)
{
    char *path = xasprintf("%.*s.log", (int)(strlen(cubin_path) - strlen(".cubin")), cubin_path), *log = NULL;
    Error e;
    if (!file_exists(path) || file_read_all(path, LOG_MAX_BYTES, &log, NULL, &e) != 0)
        log = NULL;
    free(path);
    return log;
}

int nvrtc_compile_with(const char *source, const char *arch, const char *cache_dir, unsigned flags, NvrtcResult *r,
                       Error *e)
{
    memset(r, 0, sizeof *r);
    int rc = 0;
    char *path = NULL, *tmp = NULL, *log = NULL, *abs_dir = NULL;
    CompileShared *sh = MAP_FAILED;
    SandboxResult res = {0};
    if (nvrtc_check_includes(source, e) != 0) {
        r->compile_error = 1;
        r->log = xstrdup(e->msg);
        return error_prefix(e, "does not compile");
    }
    TRY(nvrtc_cache_key_for(source, arch, flags, r->key, e));
    TRY(file_mkdirs(cache_dir, e));
    /* absolute: the sandboxed child works in a private directory */
    if (!(abs_dir = realpath(cache_dir, NULL)))
        FAIL(e, "cannot resolve '%s': %s", cache_dir, strerror(errno));
    cache_dir = abs_dir;
    path = xasprintf("%s/%s.cubin", cache_dir, r->key);
    if (file_exists(path) && (!(flags & NVRTC_PTXAS_INFO) || (log = cached_log(path)) != NULL)) {
        char *data = NULL;
        size_t len = 0;
        TRY(file_read_all(path, CUBIN_MAX_BYTES, &data, &len, e));
        r->cubin = data;
        r->cubin_len = len;
        r->cached = 1;
        r->log = log ? log : xstrdup("");
        log = NULL;
        goto done;
    }
    sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED)
        FAIL(e, "cannot map compile state: %s", strerror(errno));
    tmp = xasprintf("%s/%s.cubin.tmp.%d", cache_dir, r->key, (int)getpid());
    CompileJob job = {source, arch, flags, tmp, sh};
    /* NVRTC maps a few GiB of address space for itself; the heavy headers
     * (cooperative_groups) take about a second, so 120 s is generous. */
    SandboxLimits lim = {120.0, 120.0, (size_t)16 << 30, (size_t)CUBIN_MAX_BYTES, 0};
    double t0 = now_s();
    TRY(sandbox_call(&lim, compile_child, &job, &res, e));
    r->seconds = now_s() - t0;
    r->log = xstrndup(sh->log, sh->log_len);
    if (!sandbox_ok(&res)) {
        char why[160];
        /* A compiler that crashes or runs away on this source is the source's problem. */
        r->compile_error = 1;
        FAIL(e, "does not compile: NVRTC %s%s%.300s", sandbox_describe(&res, why, sizeof why),
             sh->err[0] ? ": " : "", sh->err);
    }
    if (sh->status == 1) {
        r->compile_error = 1;
        FAIL(e, "does not compile:\n%.1800s", r->log);
    }
    if (sh->status != 0)
        FAIL(e, "%s", sh->err);
    char *data = NULL;
    size_t len = 0;
    TRY(file_read_all(tmp, CUBIN_MAX_BYTES, &data, &len, e));
    r->cubin = data;
    r->cubin_len = len;
    if (flags & NVRTC_PTXAS_INFO) {
        /* the log first: a cubin in the cache implies its log is there */
        char *log_path = xasprintf("%s/%s.log", cache_dir, r->key);
        int wrc = file_write_if_changed(log_path, r->log, strlen(r->log), NULL, e);
        free(log_path);
        TRY(wrc);
    }
    /* rename is atomic: concurrent compiles of the same key are harmless */
    if (rename(tmp, path) != 0)
        FAIL(e, "cannot store '%s': %s", path, strerror(errno));
done:
    if (rc == 0 && (flags & NVRTC_PTXAS_INFO))
        nvrtc_parse_ptxas_info(r->log, &r->kernels, &r->n_kernels);
    free(log);
    if (tmp)
        unlink(tmp);
    if (sh != MAP_FAILED)
        munmap(sh, sizeof *sh);
    sandbox_result_release(&res);
    if (rc != 0 && !r->log)
        r->log = xstrdup("");
    free(path);
    free(tmp);
    free(abs_dir);
    return rc;
}

void nvrtc_result_release(NvrtcResult *r)
{
    free(r->cubin);
    free(r->log);
    free(r->kernels);
    memset(r, 0, sizeof *r);
}
