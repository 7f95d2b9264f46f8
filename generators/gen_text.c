/* gen_text.c — C and CUDA spelling shared by the hand-written families
 * (see gen_text.h). */
#include "gen_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *text_ctype(int f64)
{
    return f64 ? "double" : "float";
}

const char *text_lit(double v, int f64)
{
    static char pool[8][40];
    static int k;
    char *b = pool[k++ % 8];
    char t[32];
    snprintf(t, sizeof t, "%.6g", v);
    if (!strpbrk(t, ".e"))
        strcat(t, ".0");
    snprintf(b, 40, "%s%s", t, f64 ? "" : "f");
    return b;
}

/* Appends head(params)\n, breaking before a parameter that would leave
 * fewer than `reserve` columns of 100 after it. */
static void put_wrapped(StrBuf *s, const char *head, const char *params, int reserve)
{
    int indent = (int)strlen(head) + 1, col = indent;
    sb_printf(s, "%s(", head);
    const char *q = params;
    while (*q) {
        const char *e = strstr(q, ", ");
        int len = e ? (int)(e - q) : (int)strlen(q);
        if (q != params) {
            if (col + 2 + len + reserve > 100) {
                sb_printf(s, ",\n%*s", indent, "");
                col = indent;
            } else {
                sb_append(s, ", ");
                col += 2;
            }
        }
        sb_append_n(s, q, (size_t)len);
        col += len;
        q = e ? e + 2 : q + len;
    }
    sb_append(s, ")\n");
}

void text_put_signature(StrBuf *s, const char *head, const char *params)
{
    put_wrapped(s, head, params, 1);
}

void text_put_void_signature(StrBuf *s, const char *name, const char *params, int reserve)
{
    char head[160];
    snprintf(head, sizeof head, "void %s", name);
    put_wrapped(s, head, params, reserve);
}

/* Rounds a tolerance to two significant digits. */
double text_tol2(double v)
{
    double scale = pow(10, floor(log10(v)) - 1);
    return ceil(v / scale) * scale;
}

/* Appends C text in CUDA's spelling: kernel.cu includes no headers, so the
 * fixed-width types and limits of the C helpers become int, long long and
 * unsigned char, and a static helper becomes a __device__ function. */
void text_put_cuda(StrBuf *k, const char *text)
{
    static const char *const from[] = {"int32_t", "int64_t", "uint8_t", "INT32_MAX", "INT32_MIN", "static "};
    static const char *const to[] = {"int", "long long", "unsigned char", "2147483647", "(-2147483647 - 1)",
                                     "static __device__ "};
    for (const char *c = text; *c;) {
        int hit = -1;
        if (c == text || !(c[-1] == '_' || (c[-1] >= 'a' && c[-1] <= 'z') || (c[-1] >= 'A' && c[-1] <= 'Z') ||
                           (c[-1] >= '0' && c[-1] <= '9')))
            for (int w = 0; w < 6 && hit < 0; w++)
                if (strncmp(c, from[w], strlen(from[w])) == 0)
                    hit = w;
        if (hit < 0) {
            sb_putc(k, *c++);
        } else {
            sb_append(k, to[hit]);
            c += strlen(from[hit]);
        }
    }
}
