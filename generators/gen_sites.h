/* gen_sites.h — where a rewrite of a reference kernel can show.
 *
 * gen_variants plants defects and claims changes by rewriting a reference
 * kernel's text; a rewrite means something only where the code it touches
 * runs and where the change can reach a result.  This module reads the
 * kernel source (and its launch plan) and answers those questions: whether
 * the code at a byte of the source is reached from a launched kernel,
 * whether the thread index lays out the accesses of the innermost loops
 * (so that remapping threads changes the access pattern), and which
 * bounds guard a missing-bounds-check or off-by-one defect goes to, with
 * the guards whose defects could never show passed over (see
 * sites_find_guard()).
 *
 * Promise: pure and deterministic text analysis: the same source and plan
 * always give the same answer; nothing here writes the source or keeps
 * state.  Undecided cases lean towards "runs" and "observable", so a
 * rewrite is refused only where it is proved to change nothing. */
#ifndef CUDAPERF_GEN_SITES_H
#define CUDAPERF_GEN_SITES_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Text helpers the analysis and the rewrites share. */
/* Whether `tok` occurs in s as a whole token (not inside a longer name or
 * number). */
int sites_has_token(const char *s, const char *tok);
/* The string member `key` of o, or NULL. */
const char *sites_str_item(const cJSON *o, const char *key);
/* The end of the bracketed text that starts at open (one of ( [ {): the
 * byte after its matching closer, or NULL when it is not closed. */
const char *sites_after_match(const char *open);
/* The end of the statement or block that the "for (" header at or after
 * src[at] runs: the byte after its "}" or its first ";" (inside a nested
 * header where the body is an unbraced loop); 0 when it is not closed. */
size_t sites_loop_end(const char *src, size_t at);
/* A letter, digit or underscore. */
int sites_is_name_char(char c);
/* The name that ends, blanks aside, right before p (not before from):
 * returns its end and sets *start to its first byte; *start == the end
 * when there is none. */
const char *sites_name_before(const char *from, const char *p, const char **start);

/* A bounds guard found by sites_find_guard(): byte offsets into the source
 * it was found in. */
typedef struct Guard {
    size_t line_at, line_len;  /* the "if (...)" line, without its newline */
    size_t cond_at, cond_len;
    size_t op_at;              /* the comparison operator inside the condition */
    int returns;               /* ">= ... return;" form (else "<" form) */
    size_t return_len;         /* length of the following "   return;\n" line */
} Guard;

/* 1 when the code at src[at] runs: it lies in a kernel that one of the
 * launches names, or in a __device__ helper such a kernel calls, directly
 * or through other helpers.  Code in no function, in a source too large to
 * map, or beside a plan that launches none of its kernels counts as
 * running. */
int sites_runs(const char *src, size_t at, const cJSON *launches);

/* 1 when the thread index `var` lays out the hot accesses of the kernel
 * body [src, to): the body has no loop, or the body of some innermost loop
 * places an access by var or by a name derived from it. */
int sites_thread_index_coalesces(const char *src, const char *to, const char *var);

/* Finds the guard a bounds defect goes to into *g (OUT) and returns 1, or
 * returns 0 when the source has none whose defect could show.  With
 * off_by_one, guards whose one extra thread only writes what is
 * overwritten later are passed over too. */
int sites_find_guard(const char *src, const cJSON *launches, int off_by_one, Guard *g);

/* src with guard g's bounds loosened by one (">=" to ">" before a return,
 * "<" to "<=" around the work); from malloc(), the caller frees it. */
char *sites_off_by_one(const char *src, const Guard *g);

#endif
