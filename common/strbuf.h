/* strbuf.h — a growable, always NUL-terminated byte string.
 *
 * A StrBuf owns its data (from malloc()).  sb_release() frees it; sb_steal()
 * hands the buffer to the caller, who must free() it.  Allocation failure
 * aborts: every caller would otherwise have to handle OOM on every append,
 * and a benchmark tool that cannot allocate a few KiB cannot continue. */
#ifndef CUDAPERF_STRBUF_H
#define CUDAPERF_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct StrBuf {
    char *data; /* NUL-terminated once anything was added; NULL when empty-new */
    size_t len;
    size_t cap;
} StrBuf;

#define STRBUF_INIT {NULL, 0, 0}

void sb_append(StrBuf *sb, const char *s);
void sb_append_n(StrBuf *sb, const char *s, size_t n);
void sb_putc(StrBuf *sb, char c);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
void sb_reset(StrBuf *sb);                /* len = 0, keeps storage */
const char *sb_str(const StrBuf *sb);     /* "" when empty; valid until next change */
char *sb_steal(StrBuf *sb);               /* caller frees; sb becomes empty */
void sb_release(StrBuf *sb);

/* malloc()-returning helpers that abort on OOM. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s with every occurrence of needle (not empty) replaced by repl; caller frees. */
char *xreplace_all(const char *s, const char *needle, const char *repl);

#endif
