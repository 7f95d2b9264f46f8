#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int error_set(Error *e, const char *src_file, int src_line, const char *fmt, ...)
{
    if (!e)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->src_file = src_file;
    e->src_line = src_line;
    return -1;
}

int error_prefix(Error *e, const char *fmt, ...)
{
    if (!e)
        return -1;
    char prefix[512], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old);
    return -1;
}
