/* expr.h — the integer expression language of shapes, counts and launch
 * geometry.
 *
 * Grammar:  expr   = term  { ("+" | "-") term }
 *           term   = unary { ("*" | "/" | "%") unary }
 *           unary  = "-" unary | primary
 *           primary= INTEGER | NAME | ("min" | "max") "(" expr "," expr ")"
 *                  | "(" expr ")"
 * Values are 64-bit signed integers; "/" and "%" truncate toward zero as in
 * C.  Evaluation refuses overflow, division or modulo by zero and names the
 * environment does not bind, with a message quoting the expression. */
#ifndef CUDAPERF_EXPR_H
#define CUDAPERF_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* A set of name -> value bindings; the arrays belong to the caller. */
typedef struct ExprEnv {
    const char *const *names;
    const int64_t *values;
    size_t count;
} ExprEnv;

/* Evaluates src under env into *out.  Returns 0, or -1 with e set. */
int expr_eval(const char *src, const ExprEnv *env, int64_t *out, Error *e);

/* Checks that src parses and uses only names bound in env (values ignored).
 * Returns 0, or -1 with e set. */
int expr_check(const char *src, const ExprEnv *env, Error *e);

#endif
