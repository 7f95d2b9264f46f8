/* gen_optext.h — the text helpers of the op-table families (gen_ops and the
 * families with their own emitters, sort and particles): type substitution
 * in templates, dtype names, argument declaration from a C parameter list,
 * fills and signatures.  Deterministic; strings returned are static. */
#ifndef CUDAPERF_GEN_OPTEXT_H
#define CUDAPERF_GEN_OPTEXT_H

#include "gen.h"

/* Template text: "$T" is the main element type, "$V" a second (payload)
 * type, "$F" the float suffix ("f" or ""), used for literals (1.0$F) and
 * math functions (sqrt$F). */
typedef struct Sub {
    const char *T, *V, *F;
} Sub;

/* Appends tmpl with $T, $V and $F replaced by t's strings. */
void ops_put(StrBuf *s, const Sub *t, const char *tmpl);
/* The C type of a dtype ("f32" -> "float", "i64" -> "int64_t"); "?" if unknown. */
const char *ops_ctype_of(const char *dt);
/* CUDA's spelling (kernel.cu has no stdint.h: "i64" -> "long long"). */
const char *ops_cuda_type_of(const char *dt);
/* The dtype of a C type name of length len ("int64_t" -> "i64"). */
const char *ops_dtype_of(const char *ctype, size_t len);
/* Looks name up in a "name=value;..." list; copies the value; 1 if found. */
int ops_lookup(const char *list, const char *name, char *out, size_t outlen);
/* Declares the arguments of the C parameter list sig (see gen_ops.c). */
void ops_declare(GenProgram *p, const char *sig, const char *shapes, const char *inout, const char *scalars);
/* Input distributions from "x=int:lo:hi;y=uni:lo:hi;p=part:total;a=sorted". */
void ops_fills(GenProgram *p, const char *spec);
/* Declares the scratch buffers of "name:dtype:count;..." with $T/$V/$F
 * (here dtype names) substituted from dtypes; a NULL spec declares none. */
void ops_scratch(GenProgram *p, const Sub *dtypes, const char *spec);
/* "void name(params)\n{\n", the parameters wrapped at about 96 columns. */
void ops_signature(StrBuf *s, const char *entry, const char *sig);
/* The byte size of a dtype, as text. */
const char *ops_size_of(const char *dt);

#endif
