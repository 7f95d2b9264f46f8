/* dtype.h — element types of the problem format.
 *
 * Names are those of meta.json ("f32", "bf16", ...).  C programs use the
 * matching C type (dtype_ctype); f16 and bf16 have no C11 type and are carried
 * as their 16-bit patterns (uint16_t) on the C side. */
#ifndef CUDAPERF_DTYPE_H
#define CUDAPERF_DTYPE_H

#include <stddef.h>

typedef enum DType {
    DT_INVALID = 0,
    DT_BOOL, DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32, DT_I64, DT_U64,
    DT_F16, DT_BF16, DT_F32, DT_F64,
    DT_COUNT
} DType;

DType dtype_from_name(const char *name);  /* DT_INVALID when unknown */
const char *dtype_name(DType t);          /* "?" for DT_INVALID */
size_t dtype_size(DType t);               /* bytes per element; 0 for invalid */
int dtype_is_float(DType t);              /* f16, bf16, f32, f64 */
int dtype_is_signed(DType t);             /* signed integers and floats */
const char *dtype_ctype(DType t);         /* C11 spelling, e.g. "int32_t" */
/* Default tolerances, used where meta.json gives none. */
void dtype_default_tolerance(DType t, double *atol, double *rtol);
/* A comma-separated list of every dtype name, for error messages. */
const char *dtype_all_names(void);

#endif
