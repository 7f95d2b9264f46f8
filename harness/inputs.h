/* inputs.h — deterministic input buffers, identical on every machine.
 *
 * Every input buffer is derived from the 32-bit words of cuRAND's
 * Philox4_32_10 stream (bit-identical to curandGenerate of the host
 * generator, which is bit-identical to the device one for integer output;
 * we compute the same words ourselves, see inputs.c), seeded from (run seed,
 * argument name), then transformed by our own integer/double arithmetic into
 * the argument's distribution (meta.json "fill").  The GPU worker uses this
 * same code on the host and copies, so CPU and GPU see the same bytes.
 * cuRAND's own normal/uniform-float transforms are not used: they differ
 * between host and device in the last bits (measured). */
#ifndef CUDAPERF_INPUTS_H
#define CUDAPERF_INPUTS_H

#include <stdint.h>

#include "common/error.h"
#include "common/problem.h"

/* Version of the input transformation; part of every reference-output cache
 * key.  Bump it whenever the bytes produced for a given seed change. */
#define INPUTS_GENERATOR_VERSION 1

/* Fills `buf` (count elements of a->dtype) with the input values of argument
 * `a` of problem `p` under config `c` for `seed`.  Returns 0 or -1 with e. */
int inputs_fill(const Problem *p, const ProblemConfig *c, const ProblemArg *a, uint64_t seed, void *buf,
                int64_t count, Error *e);

/* Writes the poison pattern into an output buffer: NaN for floats, 0xA5
 * bytes for integers, so an element the kernel never writes is visible. */
void inputs_poison(DType t, void *buf, int64_t count);

/* float <-> half / bfloat16 with round-to-nearest-even (the C side has no
 * native type for them). */
uint16_t inputs_f32_to_f16(float f);
float inputs_f16_to_f32(uint16_t h);
uint16_t inputs_f32_to_bf16(float f);
float inputs_bf16_to_f32(uint16_t b);

/* Word w of the Philox4_32_10 stream of `seed` in cuRAND's host layout
 * (what curandGenerate returns at offset w after seeding with seed). */
uint32_t inputs_philox_word(uint64_t seed, uint64_t w);
/* The Philox seed of argument `arg_name`'s stream under run seed `seed`. */
uint64_t inputs_stream_seed(uint64_t seed, const char *arg_name);

/* Reads element i of a buffer of dtype t as a double. */
double inputs_get(DType t, const void *buf, int64_t i);
/* Writes v as element i of a buffer of dtype t (a C cast; f16 and bf16
 * rounded to nearest even). */
void inputs_put(DType t, void *buf, int64_t i, double v);

#endif
