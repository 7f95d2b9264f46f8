#include "cref.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/hash.h"
#include "common/strbuf.h"
#include "harness/inputs.h"

#define THUNK_NAME "cudaperf_call_"

/* The -Werror= flags turn a meta.json that disagrees with the C signature
 * (missing entry, wrong pointer types) into a compile error instead of a
 * silent miscall. */
/* -Bsymbolic: the program's own functions bind inside the object, never to a
 * same-named symbol of the harness process (a program's `advance` must not
 * call somebody else's `advance`). */
static const char *const CC_ARGS[] = {"-std=c11", "-O2", "-fPIC", "-shared", "-Wl,-Bsymbolic",
                                      "-Werror=implicit-function-declaration",
                                      "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
                                      "-Werror=discarded-qualifiers"};

/* The C translation unit: the program, then the thunk that calls it. */
static char *thunk_source(const Problem *p)
{
    StrBuf s = STRBUF_INIT;
    sb_append(&s, "\n/* ---- appended by the CudaPerf harness ---- */\n#include <stdint.h>\n");
    /* The entry's exact prototype, in meta.json's order (const for inputs):
     * assigning the entry to this pointer fails to compile when the C
     * signature and meta.json disagree, even on swapped same-sized args. */
    sb_append(&s, "void (*const cudaperf_entry_)(");
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        const char *ct = dtype_ctype(a->dtype);
        if (a->role == ROLE_IN)
            sb_printf(&s, "%sconst %s *", i ? ", " : "", ct);
        else if (arg_role_is_buffer(a->role))
            sb_printf(&s, "%s%s *", i ? ", " : "", ct);
        else
            sb_printf(&s, "%s%s", i ? ", " : "", ct);
    }
    sb_printf(&s, ") = %s;\n", p->entry);
    sb_printf(&s, "void " THUNK_NAME "(void *const *argv)\n{\n    %s(", p->entry);
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        const char *ct = dtype_ctype(a->dtype);
        if (i)
            sb_append(&s, ", ");
        if (arg_role_is_buffer(a->role))
            sb_printf(&s, "(%s *)argv[%d]", ct, i);
        else
            sb_printf(&s, "*(const %s *)argv[%d]", ct, i);
    }
    sb_append(&s, ");\n}\n");
    return sb_steal(&s);
}

static const char *compiler(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

int cref_compile(const Problem *p, const char *source, const char *cache_dir, char **so_path, Error *e)
{
    *so_path = NULL;
    int rc = 0;
    char *thunk = thunk_source(p);
    char *full = xasprintf("%s%s", source, thunk);
    char hex[HASH_HEX_LEN + 1];
    HashCtx *h = hash_new();
    hash_update_str(h, full);
    hash_update_str(h, compiler());
    for (size_t i = 0; i < sizeof CC_ARGS / sizeof *CC_ARGS; i++)
        hash_update_str(h, CC_ARGS[i]);
    hash_final(h, hex);
    char *out = xasprintf("%s/%.2s/%s.so", cache_dir, hex, hex);
    char *dir = xasprintf("%s/%.2s", cache_dir, hex);
    char *work = NULL;
    SandboxResult res = {0};
    if (file_exists(out))
        goto done;
    TRY(file_mkdirs(dir, e));
    char tmpl[] = "/tmp/cudaperf-cc-XXXXXX";
    if (!mkdtemp(tmpl))
        FAIL(e, "cannot create a temporary directory: %s", strerror(errno));
    work = xstrdup(tmpl);
    char *src_path = xasprintf("%s/program.c", work);
    char *so_tmp = xasprintf("%s/program.so", work);
    int wrc = file_write_if_changed(src_path, full, strlen(full), NULL, e);
    if (wrc == 0) {
        char *argv[16];
        int k = 0;
        argv[k++] = (char *)compiler();
        for (size_t i = 0; i < sizeof CC_ARGS / sizeof *CC_ARGS; i++)
            argv[k++] = (char *)CC_ARGS[i];
        argv[k++] = "-o";
        argv[k++] = so_tmp;
        argv[k++] = src_path;
        argv[k++] = "-lm";
        argv[k] = NULL;
        SandboxLimits lim = {60.0, 60.0, (size_t)2 << 30, (size_t)256 << 10, 0};
        wrc = sandbox_exec(&lim, argv, work, &res, e);
        if (wrc == 0 && !sandbox_ok(&res)) {
            char why[128];
            const char *log = res.output ? res.output : "";
            /* Drop the temporary path from the log: it means nothing to users. */
            StrBuf clean = STRBUF_INIT;
            for (const char *q = log; *q;) {
                if (strncmp(q, src_path, strlen(src_path)) == 0) {
                    sb_append(&clean, "program.c");
                    q += strlen(src_path);
                } else {
                    sb_putc(&clean, *q++);
                }
            }
            ERR(e, "does not compile (%s): %.1500s", sandbox_describe(&res, why, sizeof why), sb_str(&clean));
            sb_release(&clean);
            wrc = -1;
        }
        /* rename is atomic: a concurrent build of the same hash is harmless */
        if (wrc == 0 && rename(so_tmp, out) != 0)
            wrc = ERR(e, "cannot store '%s': %s", out, strerror(errno));
    }
    free(src_path);
    free(so_tmp);
    if (wrc != 0)
        rc = -1;
done:
    if (work)
        file_remove_tree(work, NULL);
    sandbox_result_release(&res);
    if (rc == 0) {
        /* absolute: the sandboxed runs that load it chdir elsewhere */
        *so_path = realpath(out, NULL);
        if (!*so_path)
            rc = ERR(e, "cannot resolve '%s': %s", out, strerror(errno));
    }
    free(out);
    free(dir);
    free(work);
    free(full);
    free(thunk);
    return rc;
}

int cref_buffers_init(RefBuffers *b, const Problem *p, const ProblemConfig *c, uint64_t seed, Error *e)
{
    if (cref_buffers_alloc(b, p, c, e) != 0)
        return -1;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        if (!arg_role_is_buffer(a->role))
            continue;
        if (arg_role_is_input(a->role)) {
            if (inputs_fill(p, c, a, seed, b->data[i], b->count[i], e) != 0) {
                cref_buffers_release(b);
                return error_prefix(e, "config %s", c->name);
            }
        } else {
            inputs_poison(a->dtype, b->data[i], b->count[i]);
        }
    }
    return 0;
}

int cref_buffers_alloc(RefBuffers *b, const Problem *p, const ProblemConfig *c, Error *e)
{
    memset(b, 0, sizeof *b);
    b->n = p->n_args;
    b->data = xcalloc((size_t)p->n_args, sizeof(void *));
    b->count = xcalloc((size_t)p->n_args, sizeof(int64_t));
    b->map = xcalloc((size_t)p->n_args, sizeof(void *));
    b->map_len = xcalloc((size_t)p->n_args, sizeof(size_t));
    b->argv = xcalloc((size_t)p->n_args, sizeof(void *));
    b->values = xcalloc((size_t)p->n_args, 8);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        if (!arg_role_is_buffer(a->role)) {
            void *slot = (char *)b->values + 8 * i;
            if (a->role == ROLE_PARAM) {
                int64_t v = c->params[problem_param_index(p, a->name)];
                if (a->dtype == DT_I32) {
                    int32_t v32 = (int32_t)v;
                    memcpy(slot, &v32, 4);
                } else {
                    memcpy(slot, &v, 8);
                }
            } else {
                double v = problem_scalar_value(a, c);
                switch (a->dtype) {
                case DT_F32: { float f = (float)v; memcpy(slot, &f, 4); break; }
                case DT_F64: memcpy(slot, &v, 8); break;
                case DT_I32: { int32_t x = (int32_t)v; memcpy(slot, &x, 4); break; }
                case DT_U32: { uint32_t x = (uint32_t)v; memcpy(slot, &x, 4); break; }
                case DT_I64: { int64_t x = (int64_t)v; memcpy(slot, &x, 8); break; }
                case DT_U8: case DT_BOOL: case DT_I8: { int8_t x = (int8_t)v; memcpy(slot, &x, 1); break; }
                default: { int64_t x = (int64_t)v; memcpy(slot, &x, dtype_size(a->dtype)); break; }
                }
            }
            b->argv[i] = slot;
            continue;
        }
        int64_t n;
        if (problem_buffer_count(p, a, c, &n, e) != 0) {
            cref_buffers_release(b);
            return error_prefix(e, "config %s: %s", c->name, a->name);
        }
        size_t bytes = (size_t)n * dtype_size(a->dtype);
        size_t span = (bytes + page - 1) / page * page;
        size_t len = span + page;
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            cref_buffers_release(b);
            return ERR(e, "config %s: cannot map %zu bytes for '%s': %s", c->name, bytes, a->name,
                       strerror(errno));
        }
        mprotect((char *)m + span, page, PROT_NONE);
        b->map[i] = m;
        b->map_len[i] = len;
        b->count[i] = n;
        b->data[i] = (char *)m + (span - bytes); /* end flush against the guard page */
        b->argv[i] = b->data[i];
    }
    return 0;
}

void cref_buffers_release(RefBuffers *b)
{
    for (int i = 0; b->map && i < b->n; i++)
        if (b->map[i])
            munmap(b->map[i], b->map_len[i]);
    free(b->data);
    free(b->count);
    free(b->map);
    free(b->map_len);
    free(b->argv);
    free(b->values);
    memset(b, 0, sizeof *b);
}

typedef struct CallArgs {
    const char *so_path;
    void **argv;
    double *seconds;     /* shared with the parent: the entry's run time */
} CallArgs;

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs in the sandboxed child. */
static int call_reference(void *arg)
{
    CallArgs *ca = arg;
    void *h = dlopen(ca->so_path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) {
        fprintf(stderr, "cannot load reference: %s\n", dlerror());
        return 3;
    }
    void (*fn)(void *const *);
    *(void **)&fn = dlsym(h, THUNK_NAME);
    if (!fn) {
        fprintf(stderr, "reference has no entry thunk\n");
        return 4;
    }
    /* the entry alone is timed: loading and the sandbox's start are not the program's */
    double t0 = monotonic_seconds();
    fn(ca->argv);
    *ca->seconds = monotonic_seconds() - t0;
    return 0;
}

int cref_run(const char *so_path, const Problem *p, RefBuffers *b, const SandboxLimits *lim, Error *e)
{
    (void)p;
    b->run_seconds = -1;
    double *seconds = mmap(NULL, sizeof(double), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (seconds == MAP_FAILED)
        return ERR(e, "cannot map the reference's timing page: %s", strerror(errno));
    *seconds = -1;
    CallArgs ca = {so_path, b->argv, seconds};
    SandboxResult res;
    if (sandbox_call(lim, call_reference, &ca, &res, e) != 0) {
        munmap(seconds, sizeof(double));
        return -1;
    }
    b->run_seconds = *seconds;
    munmap(seconds, sizeof(double));
    int rc = 0;
    if (!sandbox_ok(&res)) {
        char why[160];
        rc = ERR(e, "%s%s%.300s", sandbox_describe(&res, why, sizeof why), res.output && *res.output ? ": " : "",
                 res.output ? res.output : "");
        /* drop a trailing newline from the child's message */
        size_t l = strlen(e->msg);
        while (l && (e->msg[l - 1] == '\n'))
            e->msg[--l] = '\0';
    }
    sandbox_result_release(&res);
    return rc;
}
