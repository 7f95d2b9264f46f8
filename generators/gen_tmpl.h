/* gen_tmpl.h — "@name" template substitution for the hand-written families
 * (softmax, layernorm, attention, cross_entropy, conv1d, conv2d, gather).
 *
 * Promise: tmpl_expand() appends tmpl to sb with every "@name" (or
 * "@{name}", where letters follow) replaced by the value set for `name`;
 * an unknown name is copied through unchanged.  "@cast(...)" whose value is
 * the empty string drops its parentheses too ("@cast(a / b)" -> "a / b").
 * tmpl_init() sets T (float/double), f (the literal suffix "f" or "") and
 * the math functions (exp, log, sqrt, ...) in their f32 or f64 spelling;
 * val[0] is always T's value.  tmpl_set() overrides or adds a key (at most
 * TMPL_MAX_SUBS, later ones are ignored); keys and values are borrowed, not
 * copied.  tmpl_put_wrapped() appends a declaration line, breaking it after
 * a comma when it runs past 100 columns and aligning the continuation after
 * the opening parenthesis.  All output is deterministic. */
#ifndef CUDAPERF_GEN_TMPL_H
#define CUDAPERF_GEN_TMPL_H

#include "../common/strbuf.h"

#define TMPL_MAX_SUBS 64

typedef struct TmplSubs {
    const char *key[TMPL_MAX_SUBS];
    const char *val[TMPL_MAX_SUBS];
    int n;
} TmplSubs;

/* T: element type; f: literal suffix; exp, log, ...: math functions. */
void tmpl_init(TmplSubs *s, int f64);
void tmpl_set(TmplSubs *s, const char *key, const char *val);
void tmpl_expand(StrBuf *sb, const TmplSubs *s, const char *tmpl);
void tmpl_put_wrapped(StrBuf *sb, const char *line);

#endif
