/* torch_emit.h — writes one PyTorch program (program.py in KernelBench's
 * format, plus its meta.json) through the generator builder (gen.h).
 *
 * The program it writes:
 *
 *     import torch / torch.nn as nn / torch.nn.functional as F
 *     B = 4096                      <- one module-level integer per param
 *     class Model(nn.Module):
 *         def __init__(self, <init args>): ...   (tp_init_arg, tp_init)
 *         def forward(self, <inputs>): ...       (tp_input, tp_forward)
 *     def get_inputs(): ...        <- one tensor per tp_input, from the params
 *     def get_init_inputs(): ...   <- the init args' values, from the params
 *
 * The module constants are the meta.json params (their values in the file
 * are the "large" config's); a runner overrides them per config before it
 * calls get_init_inputs()/get_inputs().  meta.json lists, in order: the
 * forward inputs, the outputs ("out", or "out0", "out1", ... for a tuple),
 * the model's state_dict entries as "w.<key>" in buffers filled by the model
 * ({"dist": "model"}), then the params.  Every program has the configs
 * "small" (fast on CPU torch), "large" (a GPU size) and "edge" (odd, prime
 * or size-1 dims).
 *
 * A model whose dtype is not f32 converts itself at the end of __init__, so
 * its parameters have the program's dtype.  Shape expressions use the
 * project's integer expression language (expr.h); the Python text gets the
 * same expressions with "/" written as "//" (sizes are non-negative, so
 * floor and truncation agree). */
#ifndef CUDAPERF_TORCH_EMIT_H
#define CUDAPERF_TORCH_EMIT_H

#include <stdint.h>

#include "gen.h"

enum { TP_SMALL, TP_LARGE, TP_EDGE, TP_NCFG };

typedef struct TorchProg TorchProg;

/* Begins program torch/<family>/<variant>; dtype ("f32", "bf16", "f16") is
 * the model's and its float inputs'. */
TorchProg *tp_begin(GenCtx *g, const char *variant, const char *dtype);
const char *tp_dtype(const TorchProg *t);      /* "f32", ... */
const char *tp_pydtype(const TorchProg *t);    /* "torch.float32", ... */
void tp_describe(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A size param (a module constant) with its value in each config. */
void tp_param(TorchProg *t, const char *name, int64_t small, int64_t large, int64_t edge);
/* Where `name` is among the params, -1 when it is none (an expression). */
int tp_param_index(const TorchProg *t, const char *name);
/* Moves declared param `name`'s value in config cfg to `value`: for a stage
 * that chooses an input size from what it does with it, before anything
 * evaluated the param (an unknown name is a bug in the family). */
void tp_param_set(TorchProg *t, const char *name, int cfg, int64_t value);
/* The value of an expression of the params in config cfg (TP_SMALL...);
 * a bad expression is a bug in the family: recorded, and 0 returned. */
int64_t tp_eval(TorchProg *t, const char *expr, int cfg);

/* A constructor argument: `name` in __init__'s signature, `value_expr` (an
 * expression of the params) in get_init_inputs(). */
void tp_init_arg(TorchProg *t, const char *name, const char *value_expr);
/* One line of __init__'s body (after super().__init__()); indentation is
 * added, nested blocks give their own extra indentation. */
void tp_init(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line of forward()'s body. */
void tp_forward(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A helper written above the class (a function), raw text. */
void tp_helper(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Forward inputs, in forward()'s order.  shape: comma-separated expressions.
 * Uniform reals in [lo, hi) of the program's dtype (dtype NULL) or of `dtype`. */
void tp_input(TorchProg *t, const char *name, const char *shape, double lo, double hi);
void tp_input_dt(TorchProg *t, const char *name, const char *dtype, const char *shape, double lo, double hi);
/* Integers (i64) in [lo_expr, hi_expr): class labels, indices. */
void tp_input_int(TorchProg *t, const char *name, const char *shape, const char *lo_expr, const char *hi_expr);
/* A boolean mask (true with probability 1/2). */
void tp_input_bool(TorchProg *t, const char *name, const char *shape);

/* Outputs, in the order forward() returns them; dtype NULL: the program's. */
void tp_output(TorchProg *t, const char *dtype, const char *shape);
/* A state_dict entry (parameter or buffer), in registration order; dtype
 * NULL: the program's.  shape "" for a 0-d tensor. */
void tp_weight(TorchProg *t, const char *key, const char *dtype, const char *shape);

void tp_tolerance(TorchProg *t, double atol, double rtol);
/* Cost expressions; bytes NULL: every buffer (inputs, outputs, weights)
 * read or written once. */
void tp_cost(TorchProg *t, const char *flops, const char *bytes);
/* A misuse found by a family: the program and the family's run fail. */
void tp_fail(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The builder underneath, for the program's CUDA side (torch_cuda.h). */
GenProgram *tp_gen(TorchProg *t);
/* Takes ownership of a malloc()ed string until tp_end; returns it. */
const char *tp_keep(TorchProg *t, char *s);
/* 0, 1, 2, ... per program: unique suffixes for names. */
int tp_serial(TorchProg *t);
/* A per-program table of strings, so a program writes a piece of text (a
 * kernel) once and refers to it afterwards: tp_memo_put records value under
 * key (both copied, kept until tp_end; a later put of the same key wins);
 * tp_memo_get returns the value recorded under key, or NULL. */
void tp_memo_put(TorchProg *t, const char *key, const char *value);
const char *tp_memo_get(const TorchProg *t, const char *key);

/* Writes the program and frees t.  Returns 0, or -1 (the error is in g). */
int tp_end(TorchProg *t);

/* Helpers for families. */
/* The default tolerance of a dtype, scaled by `looser` (1: elementwise;
 * more for reductions and long chains). */
void tp_default_tolerance(TorchProg *t, double looser);
/* Bytes per element of the program's dtype. */
int tp_elem_bytes(const TorchProg *t);

#endif
