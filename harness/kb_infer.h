/* kb_infer.h — shapes as expressions of a program's constants.
 *
 * An imported KernelBench-format program is described (tensor shapes) under
 * several assignments of its module-level integer constants (configs).
 * kb_infer_dim() finds, for one tensor dimension, an integer expression of
 * the constants that gives the observed value on every config, trying in
 * order: a literal 0 or 1; a constant; a literal (the value never changes);
 * a product of two or three constants, times or divided by a small integer;
 * one constant in an affine form `(C+b)/k+c` or `C*k+c`; two constants as
 * `(C1+C2+b)/k+c` or `(C1-C2+b)/k+c`.  Arithmetic is the expression
 * language's (64-bit, division truncating as in C), so the text evaluates
 * to the same values in the harness.  Constants that vary across configs
 * are preferred over ones that do not. */
#ifndef CUDAPERF_KB_INFER_H
#define CUDAPERF_KB_INFER_H

#include <stdint.h>

#include "harness/kb_source.h"

/* cfgs: n_cfg assignments of the same names in the same order; dims: the
 * dimension's value on each.  Returns a malloc()ed expression, or NULL when
 * no form fits every config. */
char *kb_infer_dim(const KbConstants *cfgs, int n_cfg, const int64_t *dims);

/* 1 if expr mentions the identifier name. */
int kb_infer_mentions(const char *expr, const char *name);

#endif
