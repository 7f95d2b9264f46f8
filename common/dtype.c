#include "dtype.h"

#include <string.h>

static const struct {
    const char *name;
    size_t size;
    const char *ctype;
} DTYPES[DT_COUNT] = {
    [DT_INVALID] = {"?", 0, "void"},
    [DT_BOOL] = {"bool", 1, "uint8_t"},
    [DT_I8] = {"i8", 1, "int8_t"},
    [DT_U8] = {"u8", 1, "uint8_t"},
    [DT_I16] = {"i16", 2, "int16_t"},
    [DT_U16] = {"u16", 2, "uint16_t"},
    [DT_I32] = {"i32", 4, "int32_t"},
    [DT_U32] = {"u32", 4, "uint32_t"},
    [DT_I64] = {"i64", 8, "int64_t"},
    [DT_U64] = {"u64", 8, "uint64_t"},
    [DT_F16] = {"f16", 2, "uint16_t"},
    [DT_BF16] = {"bf16", 2, "uint16_t"},
    [DT_F32] = {"f32", 4, "float"},
    [DT_F64] = {"f64", 8, "double"},
};

DType dtype_from_name(const char *name)
{
    if (!name)
        return DT_INVALID;
    for (int t = 1; t < DT_COUNT; t++)
        if (strcmp(DTYPES[t].name, name) == 0)
            return (DType)t;
    return DT_INVALID;
}

const char *dtype_name(DType t)
{
    return t > 0 && t < DT_COUNT ? DTYPES[t].name : "?";
}

size_t dtype_size(DType t)
{
    return t > 0 && t < DT_COUNT ? DTYPES[t].size : 0;
}

int dtype_is_float(DType t)
{
    return t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64;
}

int dtype_is_signed(DType t)
{
    return dtype_is_float(t) || t == DT_I8 || t == DT_I16 || t == DT_I32 || t == DT_I64;
}

const char *dtype_ctype(DType t)
{
    return t > 0 && t < DT_COUNT ? DTYPES[t].ctype : "void";
}

void dtype_default_tolerance(DType t, double *atol, double *rtol)
{
    switch (t) {
    case DT_F64: *atol = 1e-9; *rtol = 1e-7; break;
    case DT_F32: *atol = 1e-5; *rtol = 1e-4; break;
    case DT_F16: *atol = 1e-2; *rtol = 1e-2; break;
    case DT_BF16: *atol = 5e-2; *rtol = 2e-2; break;
    default: *atol = 0; *rtol = 0; break; /* integers compare exactly */
    }
}

const char *dtype_all_names(void)
{
    return "bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64";
}
