/* torch_cuda.h — the CUDA side of the generated torch programs: each
 * program's reference CUDA implementation (kernel.cu + launch.json), written
 * through the generator builder (gen_cuda/gen_scratch/gen_launch of gen.h on
 * tp_gen(t)), so gen_end() stores the pair and derives its variants exactly
 * as it does for C programs.
 *
 * Conventions every torch family's CUDA follows:
 * - kernel.cu opens with one prelude (written by the first tc_cuda call):
 *   cuda_fp16.h, cuda_bf16.h and the overloaded device helpers
 *       float tc_ld(const T *p, long long i)     load as float
 *       void  tc_st(T *p, long long i, float v)  round to T and store
 *   for T = float, __half, __nv_bfloat16, so a kernel body is written once
 *   and instanced by substituting the element type (tc_type).
 * - Arithmetic is in float; a value crosses kernels (scratch buffers) in the
 *   program's dtype, because torch rounds to the dtype after each operator.
 * - Buffers are the meta.json names: the forward inputs, "out" (or "out0",
 *   ...), the model's state as "w.<state_dict key>"; scratch buffers come
 *   from tc_scratch.  Integer params reach kernels as launch args.
 * - The translation is the straightforward one a competent CUDA programmer
 *   writes first: one kernel per operator, one thread per output element
 *   (or one block per row for reductions), bounds checks on every access. */
#ifndef CUDAPERF_TORCH_CUDA_H
#define CUDAPERF_TORCH_CUDA_H

#include "torch_emit.h"

/* The CUDA spelling of the program's dtype: "float", "__half", "__nv_bfloat16". */
const char *tc_type(const TorchProg *t);
/* Appends text to kernel.cu, after the prelude (written first, once). */
void tc_cuda(TorchProg *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new scratch buffer of `count` elements (an expression of the params) in
 * the program's dtype; returns its name ("t0", "t1", ...), valid until tp_end. */
const char *tc_scratch(TorchProg *t, const char *count);
/* A fresh kernel name: stem + the number of kernels so far ("relu_2"), so
 * one operator used twice in a chain gets two kernels.  Valid until tp_end. */
const char *tc_name(TorchProg *t, const char *stem);

#endif
