/* NVRTC: the include filter refuses every way of reaching a host file, the
 * cache key changes with what it must, a small kernel compiles to a cubin
 * for sm_90 without a GPU, compile errors carry the log, and the cache is
 * used the second time. */
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/strbuf.h"
#include "harness/nvrtc.h"
#include "tests/test.h"

static const char AXPY[] = "extern \"C\" __global__ void axpy(const float *x, float *y, float a, int n)\n"
                           "{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < n) y[i] = a * x[i] + y[i];\n}\n";

TEST(nvrtc_include_filter)
{
    Error e;
    static const char *const good[] = {
        "#include <cuda_fp16.h>\n",
        "#  include <cuda_bf16.h> // half types\n",
        "#include <cooperative_groups.h>\n#include <cstdint>\n",
        "#include <cuda/std/cstdint>\n",
        "__global__ void k() {}\n#if __has_include(<cuda_fp16.h>)\n#endif\n",
        "#define X 1\n#pragma unroll\nextern \"C\" __global__ void k() {}\n",
        NULL};
    for (int i = 0; good[i]; i++)
        CHECK_MSG(nvrtc_check_includes(good[i], &e) == 0, "refused good #%d: %s", i, e.msg);
    static const struct {
        const char *src, *expect;
    } bad[] = {
        {"#include \"/etc/passwd\"\n", "angle-bracket"},
        {"#include </etc/passwd>\n", "absolute"},
        {"#include <../../../../etc/passwd>\n", "'..'"},
        {"#include <cuda/../../../etc/passwd>\n", "'..'"},
        {"#define F \"/etc/passwd\"\n#include F\n", "angle-bracket"},
        {"#inc\\\nlude \"/etc/passwd\"\n", "angle-bracket"},            /* line splice inside the name */
        {"# /* c */ include \"x.h\"\n", "angle-bracket"},                 /* comment between # and include */
        {"/* a\n */ #include \"x.h\"\n", "angle-bracket"},                /* after a multi-line comment */
        {"#/* a\nb */include \"x.h\"\n", "angle-bracket"},               /* comment spanning lines */
        {"%:include \"x.h\"\n", "angle-bracket"},                         /* digraph */
        {"?\?=include \"x.h\"\n", "angle-bracket"},                       /* trigraph (escaped: C11 converts them) */
        {"int a = 1'0;\n#include \"x.h\"\nint b = 2'0;\n", "angle-bracket"}, /* digit separators */
        {"const char *s = R\"(\n#include \"x.h\"\n)\";\n", "angle-bracket"},   /* inside a raw string: refused anyway */
        {"#include_next <cuda_fp16.h>\n", "#include_next"},
        {"#import <cuda_fp16.h>\n", "#import"},
        {"#embed </etc/passwd>\n", "#embed"},
        {"#include <no_such_header_anywhere.h>\n", "not a CUDA header"},
        {"#include <cuda_fp16.h> \"x\"\n", "unexpected text"},
        {"#include <a b.h>\n", "not allowed in a header name"},
        {"#if __has_include(\"/etc/passwd\")\n#endif\n", "__has_include"},
        {"#if __has_include_next(<x>)\n#endif\n", "__has_include_next"},
        {NULL, NULL}};
    for (int i = 0; bad[i].src; i++) {
        int rc = nvrtc_check_includes(bad[i].src, &e);
        CHECK_MSG(rc != 0, "accepted bad #%d: %s", i, bad[i].src);
        if (rc != 0)
            CHECK_MSG(strstr(e.msg, bad[i].expect) != NULL, "bad #%d: '%s' lacks '%s'", i, e.msg, bad[i].expect);
    }
    /* the message names the line */
    CHECK(nvrtc_check_includes("int a;\n\n#include \"x\"\n", &e) != 0 && strstr(e.msg, "kernel.cu:3:"));
    return 0;
}

TEST(nvrtc_arch_and_cache_key)
{
    Error e;
    CHECK(nvrtc_check_arch("sm_90", &e) == 0);
    CHECK(nvrtc_check_arch("sm_90a", &e) == 0);
    CHECK(nvrtc_check_arch("sm_100", &e) == 0);
    CHECK(nvrtc_check_arch("compute_90", &e) != 0);
    CHECK(nvrtc_check_arch("sm_90 -I/etc", &e) != 0);
    CHECK(nvrtc_check_arch("sm_9", &e) != 0);
    char k1[HASH_HEX_LEN + 1], k2[HASH_HEX_LEN + 1], k3[HASH_HEX_LEN + 1], k4[HASH_HEX_LEN + 1];
    CHECK(nvrtc_cache_key(AXPY, "sm_90", k1, &e) == 0);
    CHECK(nvrtc_cache_key(AXPY, "sm_90", k2, &e) == 0);
    CHECK(nvrtc_cache_key(AXPY, "sm_80", k3, &e) == 0);
    char *other = xasprintf("%s\n", AXPY);
    CHECK(nvrtc_cache_key(other, "sm_90", k4, &e) == 0);
    free(other);
    CHECK(strcmp(k1, k2) == 0);
    CHECK(strcmp(k1, k3) != 0);
    CHECK(strcmp(k1, k4) != 0);
    CHECK(strlen(k1) == HASH_HEX_LEN);
    CHECK(nvrtc_cache_key(AXPY, "bogus", k1, &e) != 0);
    /* options name the arch and the CUDA headers */
    int has_arch = 0, has_inc = 0;
    for (const char *const *o = nvrtc_options("sm_90"); *o; o++) {
        has_arch |= strcmp(*o, "--gpu-architecture=sm_90") == 0;
        has_inc |= strncmp(*o, "-I", 2) == 0 && strstr(*o, "/include") != NULL;
    }
    CHECK(has_arch && has_inc);
    return 0;
}

TEST(nvrtc_compile_cubin)
{
    Error e;
    NvrtcResult r;
    char *cache = xasprintf("%s/nvrtc", t->tmpdir);
    int rc = nvrtc_compile(AXPY, "sm_90", cache, &r, &e);
    CHECK_MSG(rc == 0, "%s", e.msg);
    if (rc == 0) {
        /* a cubin is an ELF file */
        CHECK(r.cubin_len > 64 && memcmp(r.cubin, "\x7f" "ELF", 4) == 0);
        CHECK(!r.cached && !r.compile_error);
        char *path = xasprintf("%s/%s.cubin", cache, r.key);
        CHECK(file_exists(path));
        free(path);
    }
    size_t len = r.cubin_len;
    nvrtc_result_release(&r);
    /* the second time comes from the cache, byte for byte the same size */
    rc = nvrtc_compile(AXPY, "sm_90", cache, &r, &e);
    CHECK_MSG(rc == 0, "%s", e.msg);
    CHECK(r.cached && r.cubin_len == len);
    nvrtc_result_release(&r);
    /* CUDA headers are reachable */
    const char *half = "#include <cuda_fp16.h>\nextern \"C\" __global__ void h(__half *x) { x[0] = __float2half(1.0f); }\n";
    rc = nvrtc_compile(half, "sm_90", cache, &r, &e);
    CHECK_MSG(rc == 0, "cuda_fp16.h: %s", e.msg);
    nvrtc_result_release(&r);
    free(cache);
    return 0;
}

TEST(nvrtc_compile_error)
{
    Error e;
    NvrtcResult r;
    char *cache = xasprintf("%s/nvrtc", t->tmpdir);
    const char *src = "extern \"C\" __global__ void k(float *y) { y[0] = undeclared_thing; }\n";
    CHECK(nvrtc_compile(src, "sm_90", cache, &r, &e) != 0);
    CHECK(r.compile_error == 1 && r.cubin == NULL);
    CHECK_MSG(r.log && strstr(r.log, "undeclared_thing"), "log: %s", r.log ? r.log : "(null)");
    CHECK_MSG(strstr(e.msg, "does not compile") && strstr(e.msg, "undeclared_thing"), "%s", e.msg);
    nvrtc_result_release(&r);
    /* a refused include is a compile error too, and NVRTC never sees it */
    CHECK(nvrtc_compile("#include \"/etc/passwd\"\n", "sm_90", cache, &r, &e) != 0);
    CHECK(r.compile_error == 1 && strstr(r.log, "angle-bracket"));
    CHECK(strstr(e.msg, "root:") == NULL);
    nvrtc_result_release(&r);
    free(cache);
    return 0;
}
