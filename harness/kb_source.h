/* kb_source.h — the text of a KernelBench-format Python program.
 *
 * A KernelBench-format file defines `class Model(nn.Module)`,
 * `get_inputs()` and `get_init_inputs()` at module level, and usually a
 * few module-level integer constants (`batch_size = 16`) that set its
 * sizes.  This module reads those constants, checks that the three names
 * are defined, and rewrites the constants to other values (a config), all
 * on the text alone: no Python runs here.
 *
 * A module-level integer constant is a line starting in column 0 of the
 * form `NAME = INT` or `NAME: int = INT`, optionally followed by a
 * `# comment`; lines inside triple-quoted strings and continuation lines
 * are not module level.  A name assigned twice keeps its last value (as
 * Python would at call time) and both assignments are rewritten. */
#ifndef CUDAPERF_KB_SOURCE_H
#define CUDAPERF_KB_SOURCE_H

#include <stdint.h>

#include "common/error.h"

#define KB_MAX_CONSTANTS 64

typedef struct KbConstants {
    int n;
    char *names[KB_MAX_CONSTANTS];  /* from malloc(), in order of first assignment */
    int64_t values[KB_MAX_CONSTANTS];
} KbConstants;

/* Parses the module-level integer constants of `source` into *out (caller
 * releases with kb_constants_release).  More than KB_MAX_CONSTANTS is an
 * error naming `label`. */
int kb_source_constants(const char *source, const char *label, KbConstants *out, Error *e);
void kb_constants_release(KbConstants *k);
/* Deep copy. */
void kb_constants_copy(KbConstants *dst, const KbConstants *src);
/* Index of name, or -1. */
int kb_constants_find(const KbConstants *k, const char *name);

/* Checks that `class Model`, `def get_inputs` and `def get_init_inputs`
 * are defined at module level; the error names the first one missing. */
int kb_source_check_entry_points(const char *source, const char *label, Error *e);

/* The first line (1-based) that calls print() or writes sys.stdout, outside
 * strings and comments; 0 when none.  KernelBench-format programs must be
 * silent: their output would mix with a harness's. */
int kb_source_find_print(const char *source);

/* Returns a copy of source (caller frees) in which every module-level
 * assignment of a constant named in `values` gets that value; the rest of
 * the text, comments after the value included, is unchanged.  A name in
 * `values` that the source does not assign is an error.
 *
 * `label` (the file's name; NULL: none) prefixes error messages. */
int kb_source_set_constants(const char *source, const KbConstants *values, const char *label, char **out,
                            Error *e);

#endif
