/* gen_text.h — C and CUDA spelling shared by hand-written families (the
 * polybench ones, ew_binary, ew_ternary, blas1, ew_chain, gen_ops): the element
 * type, a floating literal or tolerance as a person writes it, a signature
 * wrapped at 100 columns, C helpers respelled for kernel.cu.
 *
 * Promise: deterministic; text_lit() returns one of 8 rotating static
 * buffers (valid for the next 7 calls), the others literals or append to
 * the caller's StrBuf. */
#ifndef CUDAPERF_GEN_TEXT_H
#define CUDAPERF_GEN_TEXT_H

#include "../common/strbuf.h"

/* "double" or "float". */
const char *text_ctype(int f64);
/* v as a literal of the element type: 1.5f, 2.0, 0.25f (%.6g digits). */
const char *text_lit(double v, int f64);
/* Appends "<head>(<params>)\n", the ", "-separated parameter list wrapped
 * at 100 columns with continuation lines aligned after the parenthesis. */
void text_put_signature(StrBuf *s, const char *head, const char *params);
/* Appends "void <name>(<params>)\n" wrapped the same way, `reserve`
 * columns kept free after a line's last parameter (blas1 and ew_chain 2,
 * the op families 4). */
void text_put_void_signature(StrBuf *s, const char *name, const char *params, int reserve);

/* v rounded up to two significant digits: a tolerance as a person writes it. */
double text_tol2(double v);

/* Appends C text in CUDA's spelling: kernel.cu includes no headers, so
 * int32_t, int64_t, uint8_t, INT32_MAX and INT32_MIN become int, long long,
 * unsigned char and their values, and `static ` helpers __device__ ones. */
void text_put_cuda(StrBuf *k, const char *text);

#endif
