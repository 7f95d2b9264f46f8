/* fileio.h — whole-file reads and writes with clear errors. */
#ifndef CUDAPERF_FILEIO_H
#define CUDAPERF_FILEIO_H

#include <stddef.h>

#include "error.h"

/* Reads the whole file into a NUL-terminated malloc()ed buffer (*out, the
 * caller frees); *len_out (optional) gets its length.  Files larger than
 * max_bytes are refused. */
int file_read_all(const char *path, size_t max_bytes, char **out, size_t *len_out, Error *e);

/* Writes data atomically (temp file + rename).  When the file already holds
 * exactly these bytes it is left untouched and *changed (optional) is 0. */
int file_write_if_changed(const char *path, const void *data, size_t len, int *changed, Error *e);

/* mkdir -p. */
int file_mkdirs(const char *path, Error *e);

/* rm -rf of a directory we created (refuses "/" and empty paths). */
int file_remove_tree(const char *path, Error *e);

int file_exists(const char *path);
int file_is_dir(const char *path);

#endif
