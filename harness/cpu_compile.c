#include "cpu_compile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/cpu_runtime.h"
#include "harness/nvrtc.h"
#include "harness/sandbox.h"

#define SOURCE_MAX_BYTES (1 << 20)
#define SO_MAX_BYTES (64 << 20)
#define MAX_KERNELS 256

/* The compile's options after the compiler's name (the precompiled prelude
 * is built with the same); part of the cache key.  No -ffast-math: IEEE
 * results like the GPU's (which only contracts a*b+c into fma). */
static const char *const CXX_ARGS[] = {"-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-fno-strict-aliasing",
                                       "-fwrapv", "-fstack-clash-protection", NULL};
/* --racecheck's compile (and precompiled prelude): each load and store
 * calls the prelude's __tsan_* hooks (no sanitizer library is linked);
 * function entry and exit are left alone.  Optimised as usual: like NVRTC,
 * the compiler sinks `a = sh[0]` into `if (threadIdx.x == 0)` when only
 * thread 0 uses it, and the hazard of the other threads' reads is gone on
 * both (keeping every load, -fno-tree-sink, reported hazards there that the
 * GPU's racecheck does not: measured on 431 kernels of device run 31).  The
 * compiler does not instrument an aggregate passed by value or returned into
 * memory (`sh[i] = merge(sh[i], sh[i + s])` with a 16-byte struct): such
 * accesses go unseen. */
static const char *const RACECHECK_ARGS[] = {"-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0",
                                             "-DCUDAPERF_CPU_RACECHECK=1", NULL};
/* Linking the object into the shared object the worker loads.  The lean
 * link leaves out libstdc++, which kernels seldom need but whose symbols
 * were 40 ms of a 240 ms compile (measured), and resolves every symbol
 * (-z defs) against libm, libc and libgcc; when that fails (operator new,
 * a virtual function ...) the full link, the C++ driver's own, follows. */
static const char *const LINK_ARGS[] = {"-shared", "-Wl,-Bsymbolic", NULL};
static const char *const LEAN_LINK_ARGS[] = {"-nodefaultlibs", "-Wl,-z,defs", NULL};
static const char *const LEAN_LINK_LIBS[] = {"-lm", "-lc", "-lgcc", NULL};
static const char *const FULL_LINK_LIBS[] = {"-lm", NULL};

/* CUDA headers the prelude stands for: each becomes an empty file. */
static const char *const PRELUDE_HEADERS[] = {
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "cuda_fp16.h",
    "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp", "vector_types.h", "vector_functions.h", "device_functions.h",
    "math_functions.h", "builtin_types.h", "sm_60_atomic_functions.h", "sm_61_intrinsics.h", "crt/math_functions.h",
    "assert.h", "cassert", NULL};
/* Standard headers (the NVRTC filter's list); the host's own are used. */
static const char *const STD_HEADERS[] = {"cfloat", "climits", "cmath", "cstddef", "cstdint", "cstdio", "cstdlib",
                                          "cstring", "limits", "type_traits", "utility", "float.h", "limits.h",
                                          "math.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", NULL};

static int in_list(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0)
            return 1;
    return 0;
}

static int cpu_header_check(const char *name, int line, Error *e)
{
    if (in_list(PRELUDE_HEADERS, name) || in_list(STD_HEADERS, name))
        return 0;
    const char *what = NULL;
    if (strncmp(name, "cooperative_groups", 18) == 0)
        what = "cooperative groups";
    else if (strcmp(name, "mma.h") == 0)
        what = "tensor-core matrix operations (nvcuda::wmma)";
    else if (strstr(name, "pipeline") || strstr(name, "barrier"))
        what = "asynchronous copies and hardware barriers";
    else if (strstr(name, "texture") || strstr(name, "surface"))
        what = "textures and surfaces";
    if (what)
        return ERR(e, "kernel.cu:%d: #include <%s>: %s cannot run on the CPU backend; evaluate this kernel on a GPU",
                   line, name, what);
    return ERR(e,
               "kernel.cu:%d: #include <%s>: not available on the CPU backend (it provides the CUDA runtime, "
               "cuda_fp16.h and cuda_bf16.h, and standard C headers)",
               line, name);
}

/* ---- a view of the source without comments and literals ---- */

/* Same length as src; comments and the insides of string and character
 * literals become spaces (newlines are kept, so offsets and lines agree). */
static char *code_view(const char *src)
{
    size_t n = strlen(src);
    char *v = xstrdup(src);
    for (size_t i = 0; i < n;) {
        if (src[i] == '/' && src[i + 1] == '/') {
            while (i < n && src[i] != '\n')
                v[i++] = ' ';
        } else if (src[i] == '/' && src[i + 1] == '*') {
            v[i] = v[i + 1] = ' ';
            i += 2;
            while (i < n && !(src[i] == '*' && src[i + 1] == '/')) {
                if (src[i] != '\n')
                    v[i] = ' ';
                i++;
            }
            if (i < n)
                v[i] = v[i + 1] = ' ', i += 2;
        } else if (src[i] == '"' || (src[i] == '\'' && !(i > 0 && (isalnum((unsigned char)src[i - 1]) || src[i - 1] == '_')))) {
            char q = src[i++];
            while (i < n && src[i] != q && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < n) {
                    v[i++] = ' ';
                    if (src[i] == '\n') {
                        i++;
                        continue;
                    }
                }
                v[i++] = ' ';
            }
            if (i < n && src[i] == q)
                i++;
        } else {
            i++;
        }
    }
    return v;
}

static int line_of(const char *src, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off && src[i]; i++)
        line += src[i] == '\n';
    return line;
}

static int is_id_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_id_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static size_t skip_ws(const char *v, size_t i)
{
    while (v[i] && isspace((unsigned char)v[i]))
        i++;
    return i;
}

/* Calls fn for every identifier of the code view (numbers skipped whole). */
typedef int (*IdentFn)(void *ctx, const char *v, size_t start, size_t len);

static int for_each_ident(const char *v, IdentFn fn, void *ctx)
{
    for (size_t i = 0; v[i];) {
        if (isdigit((unsigned char)v[i]) || (v[i] == '.' && isdigit((unsigned char)v[i + 1]))) {
            while (is_id_char(v[i]) || v[i] == '.' || v[i] == '\'' ||
                   ((v[i] == '+' || v[i] == '-') && strchr("eEpP", v[i - 1])))
                i++;
        } else if (is_id_start(v[i])) {
            size_t s = i;
            while (is_id_char(v[i]))
                i++;
            int r = fn(ctx, v, s, i - s);
            if (r)
                return r;
        } else {
            i++;
        }
    }
    return 0;
}

/* ---- refusals ---- */

static const struct {
    const char *name, *what;
} REFUSED[] = {
    {"asm", "inline PTX assembly (asm)"},
    {"__asm__", "inline PTX assembly (__asm__)"},
    {"__asm", "inline PTX assembly (__asm)"},
    {"nvcuda", "tensor-core matrix operations (nvcuda::wmma)"},
    {"wmma", "tensor-core matrix operations (wmma)"},
    {"cooperative_groups", "cooperative groups (cooperative_groups)"},
    {"this_grid", "grid-wide synchronisation (this_grid)"},
    {"this_cluster", "thread block clusters (this_cluster)"},
    {"__cluster_dims__", "thread block clusters (__cluster_dims__)"},
    {"tex1Dfetch", "textures (tex1Dfetch)"},
    {"tex1D", "textures (tex1D)"},
    {"tex2D", "textures (tex2D)"},
    {"tex3D", "textures (tex3D)"},
    {"tex1DLayered", "textures (tex1DLayered)"},
    {"tex2DLayered", "textures (tex2DLayered)"},
    {"tex2DLod", "textures (tex2DLod)"},
    {"tex2Dgather", "textures (tex2Dgather)"},
    {"texCubemap", "textures (texCubemap)"},
    {"cudaTextureObject_t", "textures (cudaTextureObject_t)"},
    {"surf1Dread", "surfaces (surf1Dread)"},
    {"surf1Dwrite", "surfaces (surf1Dwrite)"},
    {"surf2Dread", "surfaces (surf2Dread)"},
    {"surf2Dwrite", "surfaces (surf2Dwrite)"},
    {"surf3Dread", "surfaces (surf3Dread)"},
    {"surf3Dwrite", "surfaces (surf3Dwrite)"},
    {"cudaSurfaceObject_t", "surfaces (cudaSurfaceObject_t)"},
};

typedef struct RefuseCtx {
    const char *src;
    Error *e;
} RefuseCtx;

static int refuse_ident(void *ctx, const char *v, size_t s, size_t len)
{
    RefuseCtx *rc = ctx;
    const char *what = NULL;
    for (size_t k = 0; k < sizeof REFUSED / sizeof *REFUSED && !what; k++)
        if (strlen(REFUSED[k].name) == len && strncmp(REFUSED[k].name, v + s, len) == 0)
            what = REFUSED[k].what;
    if (!what && len == 7 && strncmp(v + s, "texture", 7) == 0 && v[skip_ws(v, s + len)] == '<')
        what = "textures (texture<...>)";
    if (!what)
        return 0;
    ERR(rc->e, "kernel.cu:%d: %s cannot run on the CPU backend (it has no CPU equivalent); evaluate this kernel on a GPU",
        line_of(rc->src, s), what);
    return -1;
}

int cpu_check_supported(const char *source, Error *e)
{
    if (strlen(source) > SOURCE_MAX_BYTES)
        return ERR(e, "kernel.cu: larger than %d bytes", SOURCE_MAX_BYTES);
    if (nvrtc_check_includes_with(source, cpu_header_check, e) != 0)
        return -1;
    char *v = code_view(source);
    RefuseCtx ctx = {source, e};
    int rc = for_each_ident(v, refuse_ident, &ctx);
    const char *launch = rc ? NULL : strstr(v, "<<<");
    if (launch)
        rc = ERR(e, "kernel.cu:%d: device-side kernel launches (<<<...>>>) cannot run on the CPU backend; evaluate "
                    "this kernel on a GPU",
                 line_of(source, (size_t)(launch - v)));
    free(v);
    return rc ? -1 : 0;
}

/* ---- translation ---- */

typedef struct Scope {
    char kind;       /* 'E' extern "C" block, 'N' namespace, 'O' anything else */
    char name[64];   /* the namespace's name */
} Scope;

typedef struct Translator {
    const char *src, *v;
    StrBuf out;
    size_t copied;           /* src[0..copied) is in out */
    Scope scopes[256];
    int depth;
    char *kernels[MAX_KERNELS];
    int n_kernels;
} Translator;

static int at_file_scope(const Translator *t)
{
    for (int i = 0; i < t->depth && i < 256; i++)
        if (t->scopes[i].kind == 'O')
            return 0;
    return 1;
}

/* Is there `extern "C"` (spelled in src) just before position end of the view? */
static int extern_c_before(const Translator *t, size_t end)
{
    size_t i = end;
    while (i > 0 && isspace((unsigned char)t->v[i - 1]))
        i--;
    if (i < 3 || t->src[i - 1] != '"' || t->src[i - 2] != 'C' || t->src[i - 3] != '"')
        return 0;
    i -= 3;
    while (i > 0 && isspace((unsigned char)t->v[i - 1]))
        i--;
    return i >= 6 && strncmp(t->v + i - 6, "extern", 6) == 0 && (i == 6 || !is_id_char(t->v[i - 7]));
}

/* The scope a '{' at position i opens. */
static Scope open_scope(const Translator *t, size_t i)
{
    Scope sc = {'O', ""};
    if (extern_c_before(t, i)) {
        sc.kind = 'E';
        return sc;
    }
    /* namespace NAME {  or  namespace {  */
    size_t j = i;
    while (j > 0 && isspace((unsigned char)t->v[j - 1]))
        j--;
    size_t name_end = j;
    while (j > 0 && is_id_char(t->v[j - 1]))
        j--;
    size_t name_start = j;
    if (name_end - name_start == 9 && strncmp(t->v + name_start, "namespace", 9) == 0) {
        sc.kind = 'N';
        return sc;
    }
    while (j > 0 && isspace((unsigned char)t->v[j - 1]))
        j--;
    if (j >= 9 && strncmp(t->v + j - 9, "namespace", 9) == 0 && name_end > name_start) {
        sc.kind = 'N';
        snprintf(sc.name, sizeof sc.name, "%.*s", (int)(name_end - name_start), t->v + name_start);
    }
    return sc;
}

static const char *const ATTRIBUTE_MACROS[] = {"__launch_bounds__", "__attribute__", "__align__", "__maxnreg__",
                                               "__declspec", NULL};

static size_t skip_parens(const char *v, size_t i)
{
    int d = 0;
    for (; v[i]; i++) {
        if (v[i] == '(')
            d++;
        else if (v[i] == ')' && --d == 0)
            return i + 1;
    }
    return i;
}

/* A `__global__` at position g: records the kernel when it is an extern "C"
 * definition. */
static void note_kernel(Translator *t, size_t g)
{
    const char *v = t->v;
    /* the declaration's start: after the previous ; { } or directive line */
    size_t s = g;
    while (s > 0 && !strchr(";{}", v[s - 1]) && !(v[s - 1] == '\n' && v[s] == '#'))
        s--;
    int is_c = 0, is_template = 0;
    for (int i = 0; i < t->depth && i < 256; i++)
        if (t->scopes[i].kind == 'E')
            is_c = 1;
    for (size_t i = s; i < g; i++) {
        if ((i == 0 || !is_id_char(v[i - 1])) && strncmp(v + i, "template", 8) == 0 && !is_id_char(v[i + 8]))
            is_template = 1;
        if (v[i] == '"' && i + 2 < g && t->src[i + 1] == 'C' && t->src[i + 2] == '"' && extern_c_before(t, i + 3))
            is_c = 1;
    }
    if (!is_c || is_template)
        return;
    /* the name: the identifier before the first '(' that is not an attribute's */
    size_t i = g + 10;
    char name[256] = "";
    for (;;) {
        i = skip_ws(v, i);
        if (!v[i] || strchr(";{}", v[i]))
            return;
        if (is_id_start(v[i])) {
            size_t a = i;
            while (is_id_char(v[i]))
                i++;
            size_t after = skip_ws(v, i);
            int attr = 0;
            for (const char *const *m = ATTRIBUTE_MACROS; *m; m++)
                if (strlen(*m) == i - a && strncmp(v + a, *m, i - a) == 0)
                    attr = 1;
            if (v[after] == '(') {
                if (attr) {
                    i = skip_parens(v, after);
                    continue;
                }
                if (i - a >= sizeof name)
                    return;
                snprintf(name, sizeof name, "%.*s", (int)(i - a), v + a);
                i = skip_parens(v, after);
                break;
            }
        } else {
            i++;
        }
    }
    /* a definition, not a declaration: a '{' follows the parameters */
    i = skip_ws(v, i);
    while (is_id_start(v[i])) { /* e.g. noexcept */
        while (is_id_char(v[i]))
            i++;
        i = skip_ws(v, i);
    }
    if (v[i] != '{' || t->n_kernels >= MAX_KERNELS)
        return;
    StrBuf q = STRBUF_INIT;
    for (int d = 0; d < t->depth && d < 256; d++)
        if (t->scopes[d].kind == 'N' && t->scopes[d].name[0])
            sb_printf(&q, "%s::", t->scopes[d].name);
    sb_append(&q, name);
    for (int k = 0; k < t->n_kernels; k++)
        if (strcmp(t->kernels[k], sb_str(&q)) == 0) {
            sb_release(&q);
            return;
        }
    t->kernels[t->n_kernels++] = sb_steal(&q);
}

/* `extern __shared__ ... NAME[];` at view position x (the 'e' of extern):
 * replaced by a pointer to the block's dynamic shared memory. */
static void rewrite_extern_shared(Translator *t, size_t x, size_t after_shared)
{
    const char *v = t->v;
    const char *semi = strchr(v + after_shared, ';');
    if (!semi)
        return;
    size_t end = (size_t)(semi - v);
    /* the declaration without attributes */
    StrBuf d = STRBUF_INIT;
    for (size_t i = after_shared; i < end;) {
        int attr = 0;
        for (const char *const *m = ATTRIBUTE_MACROS; *m && !attr; m++) {
            size_t l = strlen(*m);
            if (strncmp(v + i, *m, l) == 0 && !is_id_char(v[i + l]) && (i == 0 || !is_id_char(v[i - 1]))) {
                i = skip_parens(v, skip_ws(v, i + l));
                attr = 1;
            }
        }
        if (attr)
            continue;
        sb_putc(&d, v[i] == '\n' ? ' ' : v[i]);
        i++;
    }
    char *decl = sb_steal(&d);
    char *br = strrchr(decl, '[');
    size_t ne = br ? (size_t)(br - decl) : 0;
    while (ne > 0 && isspace((unsigned char)decl[ne - 1]))
        ne--;
    size_t ns = ne;
    while (ns > 0 && is_id_char(decl[ns - 1]))
        ns--;
    if (!br || ns == ne || !is_id_start(decl[ns]) || strchr(br + 1, '[')) {
        free(decl); /* not the usual form: left to the compiler */
        return;
    }
    size_t ts = 0, te = ns;
    while (ts < te && isspace((unsigned char)decl[ts]))
        ts++;
    while (te > ts && isspace((unsigned char)decl[te - 1]))
        te--;
    if (te == ts) {
        free(decl);
        return;
    }
    sb_append_n(&t->out, t->src + t->copied, x - t->copied);
    sb_printf(&t->out, "%s%.*s *const %.*s = reinterpret_cast<%.*s *>(__cp_dyn_smem());",
              at_file_scope(t) ? "static thread_local " : "", (int)(te - ts), decl + ts, (int)(ne - ns), decl + ns,
              (int)(te - ts), decl + ts);
    for (size_t i = x; i < end; i++) /* keep the line count */
        if (t->src[i] == '\n')
            sb_putc(&t->out, '\n');
    t->copied = end + 1;
    free(decl);
}

int cpu_translate(const char *source, char **out, int *n_kernels, Error *e)
{
    (void)e;
    Translator t;
    memset(&t, 0, sizeof t);
    t.src = source;
    char *view = code_view(source);
    t.v = view;
    sb_append(&t.out, "#include <cudaperf_cpu_prelude.hpp>\n#line 1 \"kernel.cu\"\n");
    int line_start = 1;
    for (size_t i = 0; view[i];) {
        char c = view[i];
        if (c == '\n') {
            line_start = 1;
            i++;
            continue;
        }
        if (line_start && c == '#') { /* directives are left alone */
            while (view[i] && view[i] != '\n') {
                if (view[i] == '\\' && view[i + 1] == '\n')
                    i++;
                i++;
            }
            continue;
        }
        if (!isspace((unsigned char)c))
            line_start = 0;
        if (c == '{') {
            if (t.depth < 256)
                t.scopes[t.depth] = open_scope(&t, i);
            t.depth++;
            i++;
        } else if (c == '}') {
            if (t.depth > 0)
                t.depth--;
            i++;
        } else if (is_id_start(c)) {
            size_t s = i;
            while (is_id_char(view[i]))
                i++;
            size_t len = i - s;
            if (len == 10 && strncmp(view + s, "__global__", 10) == 0) {
                note_kernel(&t, s);
            } else if (len == 6 && strncmp(view + s, "extern", 6) == 0) {
                size_t n = skip_ws(view, i);
                if (strncmp(view + n, "__shared__", 10) == 0 && !is_id_char(view[n + 10])) {
                    rewrite_extern_shared(&t, s, n + 10);
                    if (t.copied > i)
                        i = t.copied;
                }
            }
        } else if (isdigit((unsigned char)c)) {
            while (is_id_char(view[i]) || view[i] == '.' || view[i] == '\'')
                i++;
        } else {
            i++;
        }
    }
    sb_append(&t.out, source + t.copied);
    /* the entries the worker looks up */
    sb_append(&t.out, "\n#line 1 \"cudaperf-cpu-entries\"\nextern \"C\" {\n"
                      "__attribute__((visibility(\"default\"))) unsigned cudaperf_cpu_abi(void) { return "
                      "CUDAPERF_CPU_ABI; }\n");
    /* fibers only where the source can synchronise: every barrier, shuffle
     * and vote intrinsic is spelled with "_sync" somewhere in its name */
    sb_printf(&t.out, "__attribute__((visibility(\"default\"))) int cudaperf_cpu_uses_sync(void) { return %d; }\n",
              strstr(source, "_sync") != NULL);
    for (int k = 0; k < t.n_kernels; k++) {
        const char *q = t.kernels[k], *plain = strrchr(q, ':') ? strrchr(q, ':') + 1 : q;
        sb_printf(&t.out,
                  "__attribute__((visibility(\"default\"))) void cudaperf_cpu_launch_%s(__cp_thread *self, void "
                  "**args) { __cp_enter(&%s, self, args); }\n"
                  "__attribute__((visibility(\"default\"))) const unsigned *cudaperf_cpu_sig_%s(void) { return "
                  "__cp_sig<decltype(&%s)>::v; }\n",
                  plain, q, plain, q);
    }
    sb_append(&t.out, "}\n");
    if (n_kernels)
        *n_kernels = t.n_kernels;
    for (int k = 0; k < t.n_kernels; k++)
        free(t.kernels[k]);
    free(view);
    *out = sb_steal(&t.out);
    return 0;
}

/* ---- compiling ---- */

static const char *compiler(void)
{
    const char *cxx = getenv("CXX");
    return cxx && *cxx ? cxx : "g++";
}

const char *cpu_compiler_version(void)
{
    static char version[160];
    if (version[0])
        return version;
    char *argv[] = {(char *)compiler(), "--version", NULL};
    SandboxLimits lim = {20.0, 20.0, (size_t)1 << 30, (size_t)64 << 10, 0};
    SandboxResult res = {0};
    Error e;
    snprintf(version, sizeof version, "%s (version unknown)", compiler());
    if (sandbox_exec(&lim, argv, NULL, &res, &e) == 0 && sandbox_ok(&res) && res.output) {
        size_t n = strcspn(res.output, "\n");
        snprintf(version, sizeof version, "%.*s", (int)n, res.output);
    }
    sandbox_result_release(&res);
    return version;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Appends the NULL-terminated list to argv[*k ...] (argv has room). */
static void push_args(char **argv, int *k, const char *const *list)
{
    for (; *list; list++)
        argv[(*k)++] = (char *)*list;
}

/* Every option list, in the cache keys. */
static void hash_options(HashCtx *h)
{
    const char *const *lists[] = {CXX_ARGS, LINK_ARGS, LEAN_LINK_ARGS, LEAN_LINK_LIBS, FULL_LINK_LIBS};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        for (const char *const *a = lists[i]; *a; a++)
            hash_update_str(h, *a);
}

/* The compile's options after the compiler's name, into argv[*k ...], and
 * into the cache keys beside hash_options (racecheck's only where they are
 * used: the other keys stay as they were). */
static void push_compile_args(char **argv, int *k, int racecheck)
{
    push_args(argv, k, CXX_ARGS);
    if (racecheck)
        push_args(argv, k, RACECHECK_ARGS);
}

static void hash_racecheck_options(HashCtx *h, int racecheck)
{
    for (const char *const *a = RACECHECK_ARGS; racecheck && *a; a++)
        hash_update_str(h, *a);
}

/* Writes the prelude and the header stubs into dir/include. */
static int write_includes(const char *dir, Error *e)
{
    int rc = 0;
    char *inc = xasprintf("%s/include", dir), *crt = xasprintf("%s/include/crt", dir);
    char *path = NULL;
    TRY(file_mkdirs(crt, e));
    path = xasprintf("%s/cudaperf_cpu_prelude.hpp", inc);
    TRY(file_write_if_changed(path, cpu_prelude_hpp, strlen(cpu_prelude_hpp), NULL, e));
    for (const char *const *h = PRELUDE_HEADERS; *h; h++) {
        free(path);
        path = xasprintf("%s/%s", inc, *h);
        static const char STUB[] = "#pragma once\n/* provided by the CudaPerf CPU prelude */\n";
        TRY(file_write_if_changed(path, STUB, sizeof STUB - 1, NULL, e));
    }
done:
    free(path);
    free(inc);
    free(crt);
    return rc;
}

/* The include folder every compile uses: the prelude, the header stubs and
 * the prelude precompiled (a third of a kernel's compile time was parsing
 * the prelude: measured), built once per cache under a key of the prelude,
 * the compiler and its options.  Returns the folder (from malloc()), or
 * NULL when it cannot be built: the caller then writes the includes into
 * its own work folder, without the precompiled header. */
static char *prelude_include_dir(const char *cache_dir, int racecheck)
{
    HashCtx *h = hash_new();
    char key[HASH_HEX_LEN + 1];
    hash_update_str(h, "cudaperf-cpu-pch-v1");
    hash_update_str(h, cpu_prelude_hpp);
    hash_update_str(h, cpu_compiler_version());
    hash_options(h);
    hash_racecheck_options(h, racecheck);
    hash_final(h, key);
    key[16] = '\0';
    char *dir = xasprintf("%s/prelude-%s", cache_dir, key);
    char *inc = xasprintf("%s/include", dir);
    char *gch = xasprintf("%s/cudaperf_cpu_prelude.hpp.gch", inc);
    char *tmp = NULL, *tmp_inc = NULL, *tmp_gch = NULL, *tmp_hpp = NULL;
    SandboxResult res = {0};
    Error e;
    if (file_exists(gch))
        goto done;
    tmp = xasprintf("%s/prelude-tmp-XXXXXX", cache_dir);
    if (!mkdtemp(tmp) || write_includes(tmp, &e) != 0)
        goto fail;
    tmp_inc = xasprintf("%s/include", tmp);
    tmp_hpp = xasprintf("%s/cudaperf_cpu_prelude.hpp", tmp_inc);
    tmp_gch = xasprintf("%s.gch", tmp_hpp);
    char *argv[32];
    int k = 0;
    argv[k++] = (char *)compiler();
    push_compile_args(argv, &k, racecheck);
    argv[k++] = "-x";
    argv[k++] = "c++-header";
    argv[k++] = tmp_hpp;
    argv[k++] = "-o";
    argv[k++] = tmp_gch;
    argv[k] = NULL;
    SandboxLimits lim = {300.0, 300.0, (size_t)4 << 30, (size_t)256 << 20, 0};
    if (sandbox_exec(&lim, argv, tmp, &res, &e) != 0 || !sandbox_ok(&res) || !file_exists(tmp_gch))
        goto fail;
    /* another process may have won the race: its folder is as good */
    if (rename(tmp, dir) != 0 && !file_exists(gch))
        goto fail;
    goto done;
fail:
    free(dir);
    dir = NULL;
done:
    if (tmp && file_exists(tmp))
        file_remove_tree(tmp, NULL);
    sandbox_result_release(&res);
    free(tmp);
    free(tmp_inc);
    free(tmp_gch);
    free(tmp_hpp);
    free(inc);
    free(gch);
    return dir;
}

/* Runs one build step (argv, in the folder work) in the sandbox and adds its
 * output, in the candidate's terms (no temporary paths), to log.  0 when it
 * succeeded; -1 with e when not, *compile_error set when that is the
 * candidate's doing (the compiler failed or ran out of its limits). */
static int build_step(char **argv, const char *work, StrBuf *log, int *compile_error, Error *e)
{
    int rc = 0;
    /* a template bomb or a huge unrolled loop ends here, as a compile error */
    SandboxLimits lim = {120.0, 120.0, (size_t)4 << 30, (size_t)SO_MAX_BYTES, 0};
    SandboxResult res = {0};
    char *prefix = xasprintf("%s/", work), *out = NULL;
    TRY(sandbox_exec(&lim, argv, work, &res, e));
    out = xreplace_all(res.output ? res.output : "", prefix, "");
    sb_append(log, out);
    if (!sandbox_ok(&res)) {
        char why[160];
        *compile_error = 1;
        FAIL(e, "does not compile (%s%s):\n%.1800s", compiler(), res.timed_out || res.signal ? "" : " failed",
             sb_str(log)[0] ? sb_str(log) : sandbox_describe(&res, why, sizeof why));
    }
done:
    sandbox_result_release(&res);
    free(prefix);
    free(out);
    return rc;
}

/* work/kernel.cpp into work/kernel.o against the includes of inc ("-I..."). */
static int compile_object(const char *work, const char *inc, int racecheck, StrBuf *log, int *compile_error,
                          Error *e)
{
    char *argv[32];
    int k = 0;
    argv[k++] = (char *)compiler();
    push_compile_args(argv, &k, racecheck);
    argv[k++] = (char *)inc;
    argv[k++] = "-c";
    argv[k++] = "-o";
    argv[k++] = "kernel.o";
    argv[k++] = "kernel.cpp";
    argv[k] = NULL;
    return build_step(argv, work, log, compile_error, e);
}

/* work/kernel.o into work/kernel.so: the lean link, else the full one (see
 * LINK_ARGS); only the link that counts speaks in log. */
static int link_object(const char *work, StrBuf *log, int *compile_error, Error *e)
{
    char *argv[32];
    int k = 0;
    argv[k++] = (char *)compiler();
    push_args(argv, &k, LINK_ARGS);
    int common = k;
    push_args(argv, &k, LEAN_LINK_ARGS);
    argv[k++] = "-o";
    argv[k++] = "kernel.so";
    argv[k++] = "kernel.o";
    push_args(argv, &k, LEAN_LINK_LIBS);
    argv[k] = NULL;
    StrBuf lean_log = STRBUF_INIT;
    int lean_error = 0;
    Error lean_e;
    int rc = build_step(argv, work, &lean_log, &lean_error, &lean_e);
    sb_release(&lean_log);
    if (rc == 0)
        return 0;
    k = common;
    argv[k++] = "-o";
    argv[k++] = "kernel.so";
    argv[k++] = "kernel.o";
    push_args(argv, &k, FULL_LINK_LIBS);
    argv[k] = NULL;
    return build_step(argv, work, log, compile_error, e);
}

int cpu_compile(const char *source, const char *cache_dir, int racecheck, CpuCompileResult *r, Error *e)
{
    memset(r, 0, sizeof *r);
    int rc = 0;
    char *cpp = NULL, *path = NULL, *work = NULL, *src_path = NULL, *so_tmp = NULL, *inc = NULL, *store = NULL;
    StrBuf log = STRBUF_INIT;
    if (cpu_check_supported(source, e) != 0) {
        r->compile_error = 1;
        r->log = xstrdup(e->msg);
        return error_prefix(e, "does not compile");
    }
    TRY(cpu_translate(source, &cpp, NULL, e));
    HashCtx *h = hash_new();
    hash_update_str(h, "cudaperf-cpu-v1");
    hash_update_str(h, cpp);
    hash_update_str(h, cpu_prelude_hpp);
    hash_update_str(h, cpu_compiler_version());
    hash_options(h);
    hash_racecheck_options(h, racecheck);
    hash_final(h, r->key);
    TRY(file_mkdirs(cache_dir, e));
    path = xasprintf("%s/%s.so", cache_dir, r->key);
    if (file_exists(path)) {
        char *data = NULL;
        size_t len = 0;
        TRY(file_read_all(path, SO_MAX_BYTES, &data, &len, e));
        r->so = data;
        r->so_len = len;
        r->cached = 1;
        r->log = xstrdup("");
        goto done;
    }
    char tmpl[] = "/tmp/cudaperf-cpu-XXXXXX";
    if (!mkdtemp(tmpl))
        FAIL(e, "cannot create a temporary directory: %s", strerror(errno));
    work = xstrdup(tmpl);
    {
        char *shared = prelude_include_dir(cache_dir, racecheck);
        if (shared) {
            inc = xasprintf("-I%s/include", shared);
            free(shared);
        } else {
            TRY(write_includes(work, e));
            inc = xasprintf("-I%s/include", work);
        }
    }
    src_path = xasprintf("%s/kernel.cpp", work);
    so_tmp = xasprintf("%s/kernel.so", work);
    TRY(file_write_if_changed(src_path, cpp, strlen(cpp), NULL, e));
    double t0 = now_s();
    TRY(compile_object(work, inc, racecheck, &log, &r->compile_error, e));
    TRY(link_object(work, &log, &r->compile_error, e));
    r->seconds = now_s() - t0;
    /* (no kernel at all is not an error here: the launch reports it, as on a GPU) */
    char *data = NULL;
    size_t len = 0;
    TRY(file_read_all(so_tmp, SO_MAX_BYTES, &data, &len, e));
    r->so = data;
    r->so_len = len;
    /* written next to its final name, then renamed (atomic: concurrent
     * compiles of the same key are harmless) */
    store = xasprintf("%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(store, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        FAIL(e, "cannot write '%s': %s", store, strerror(errno));
    if (rename(store, path) != 0)
        FAIL(e, "cannot store '%s': %s", path, strerror(errno));
done:
    if (store)
        unlink(store);
    free(store);
    if (work)
        file_remove_tree(work, NULL);
    if (!r->log)
        r->log = sb_steal(&log);
    sb_release(&log);
    free(cpp);
    free(path);
    free(work);
    free(src_path);
    free(so_tmp);
    free(inc);
    return rc;
}

void cpu_compile_result_release(CpuCompileResult *r)
{
    free(r->so);
    free(r->log);
    memset(r, 0, sizeof *r);
}
