/* normalize.h — source normalisation for duplicate detection and splits.
 *
 * Two programs that differ only in comments, white space and the names of
 * their identifiers normalise to the same text: comments are removed, each
 * identifier that is not a C keyword or a standard type/function is
 * replaced by a placeholder numbered by first appearance, and white space
 * collapses.  Uses PCRE2. */
#ifndef CUDAPERF_NORMALIZE_H
#define CUDAPERF_NORMALIZE_H

#include "common/error.h"

/* Returns the normalised text (malloc, caller frees) in *out. */
int normalize_source(const char *source, char **out, Error *e);

#endif
