#include "problem.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fileio.h"
#include "strbuf.h"

static const char *ROLE_NAMES[] = {"in", "out", "inout", "param", "scalar"};

const char *arg_role_name(ArgRole r)
{
    return (unsigned)r < 5 ? ROLE_NAMES[r] : "?";
}

int arg_role_is_buffer(ArgRole r)
{
    return r == ROLE_IN || r == ROLE_OUT || r == ROLE_INOUT;
}

int arg_role_is_output(ArgRole r)
{
    return r == ROLE_OUT || r == ROLE_INOUT;
}

int arg_role_is_input(ArgRole r)
{
    return r == ROLE_IN || r == ROLE_INOUT;
}

int problem_is_identifier(const char *s, int allow_dot)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || (allow_dot && *s == '.')))
            return 0;
    return 1;
}

static int is_valid_name(const char *s)
{
    if (!s || !*s || strlen(s) > 200)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || strchr("_-./+", *s)))
            return 0;
    return 1;
}

/* ---------- lookups and evaluation ---------- */

const ProblemArg *problem_find_arg(const Problem *p, const char *name)
{
    for (int i = 0; i < p->n_args; i++)
        if (strcmp(p->args[i].name, name) == 0)
            return &p->args[i];
    return NULL;
}

int problem_param_index(const Problem *p, const char *name)
{
    for (int i = 0; i < p->n_params; i++)
        if (strcmp(p->params[i], name) == 0)
            return i;
    return -1;
}

const ProblemConfig *problem_find_config(const Problem *p, const char *name)
{
    for (int i = 0; i < p->n_configs; i++)
        if (strcmp(p->configs[i].name, name) == 0)
            return &p->configs[i];
    return NULL;
}

int problem_eval(const Problem *p, const ProblemConfig *c, const char *expr, int64_t *out,
                 Error *e)
{
    ExprEnv env = {(const char *const *)p->params, c ? c->params : NULL, (size_t)p->n_params};
    return c ? expr_eval(expr, &env, out, e) : expr_check(expr, &env, e);
}

int problem_reference_cost(const Problem *p, const ProblemConfig *c, int64_t *flops, int64_t *bytes, Error *e)
{
    if (problem_eval(p, c, p->cost_ref_flops ? p->cost_ref_flops : p->cost_flops, flops, e) != 0)
        return error_prefix(e, "%s: cost.%s", p->name, p->cost_ref_flops ? "ref_flops" : "flops");
    if (problem_eval(p, c, p->cost_ref_bytes ? p->cost_ref_bytes : p->cost_bytes, bytes, e) != 0)
        return error_prefix(e, "%s: cost.%s", p->name, p->cost_ref_bytes ? "ref_bytes" : "bytes");
    return 0;
}

int problem_buffer_count(const Problem *p, const ProblemArg *a, const ProblemConfig *c,
                         int64_t *count, Error *e)
{
    int64_t n = 1;
    for (int d = 0; d < a->ndim; d++) {
        int64_t v;
        if (problem_eval(p, c, a->shape[d], &v, e) != 0)
            return -1;
        if (v < 0)
            return ERR(e, "shape[%d] '%s' is negative (%lld)", d, a->shape[d], (long long)v);
        if (__builtin_mul_overflow(n, v, &n))
            return ERR(e, "shape overflows 64 bits");
    }
    *count = n;
    return 0;
}

double problem_scalar_value(const ProblemArg *a, const ProblemConfig *c)
{
    for (int i = 0; c && i < c->n_ov; i++)
        if (strcmp(c->ov_names[i], a->name) == 0)
            return c->ov_values[i];
    return a->value;
}

/* ---------- validation (shared by parser and generators) ---------- */

static int validate_fill(const Problem *p, const ProblemArg *a, const char *label, int i, Error *e)
{
    const FillSpec *f = &a->fill;
    switch (f->kind) {
    case FILL_UNIFORM:
        if (!isfinite(f->lo) || !isfinite(f->hi) || !(f->lo < f->hi))
            return ERR(e, "%s: args[%d].fill: need finite lo < hi (got %g, %g)", label, i, f->lo, f->hi);
        break;
    case FILL_INT:
        if (dtype_is_float(a->dtype) && a->dtype != DT_F32 && a->dtype != DT_F64)
            return ERR(e, "%s: args[%d].fill: 'int' fill needs an integer or f32/f64 dtype", label, i);
        if (problem_eval(p, NULL, f->lo_expr, NULL, e) != 0 ||
            problem_eval(p, NULL, f->hi_expr, NULL, e) != 0)
            return error_prefix(e, "%s: args[%d].fill", label, i);
        break;
    case FILL_PARTITION:
        if (dtype_is_float(a->dtype))
            return ERR(e, "%s: args[%d].fill: 'partition' fill needs an integer dtype", label, i);
        if (problem_eval(p, NULL, f->total_expr, NULL, e) != 0)
            return error_prefix(e, "%s: args[%d].fill.total", label, i);
        break;
    case FILL_MODEL:
        /* Only a torch reference can produce a buffer's values (its
         * parameters); a C program has nothing to take them from. */
        if (!p->lang || strcmp(p->lang, "torch") != 0)
            return ERR(e, "%s: args[%d].fill: 'model' fill is only for torch programs", label, i);
        if (a->role != ROLE_IN)
            return ERR(e, "%s: args[%d].fill: 'model' fill needs role \"in\" (got \"%s\")", label, i,
                       arg_role_name(a->role));
        if (f->sorted)
            return ERR(e, "%s: args[%d].fill: 'model' fill cannot be sorted", label, i);
        break;
    default:
        return ERR(e, "%s: args[%d].fill: unknown kind", label, i);
    }
    return 0;
}

int problem_validate(const Problem *p, const char *label, Error *e)
{
    if (!is_valid_name(p->name))
        return ERR(e, "%s: name: '%s' is not a valid program name (letters, digits, _-./+)", label,
                   p->name ? p->name : "");
    if (!p->lang || (strcmp(p->lang, "c") != 0 && strcmp(p->lang, "torch") != 0))
        return ERR(e, "%s: lang: must be \"c\" or \"torch\"", label);
    size_t ll = strlen(p->lang);
    if (strncmp(p->name, p->lang, ll) != 0 || p->name[ll] != '/')
        return ERR(e, "%s: name: '%s' must start with its language, '%s/'", label, p->name, p->lang);
    if (!p->family || !is_valid_name(p->family) || strchr(p->family, '/'))
        return ERR(e, "%s: family: missing or not a simple name", label);
    if (!problem_is_identifier(p->entry, 0))
        return ERR(e, "%s: entry: '%s' is not a C identifier", label, p->entry ? p->entry : "");
    for (int i = 0; i < p->n_params; i++) {
        if (!problem_is_identifier(p->params[i], 0))
            return ERR(e, "%s: params[%d]: '%s' is not an identifier", label, i, p->params[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(p->params[i], p->params[j]) == 0)
                return ERR(e, "%s: params[%d]: duplicate param '%s'", label, i, p->params[i]);
    }
    if (p->n_args < 1)
        return ERR(e, "%s: args: at least one argument is required", label);
    int n_out = 0;
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        if (!problem_is_identifier(a->name, 1))
            return ERR(e, "%s: args[%d].name: '%s' is not an identifier", label, i, a->name ? a->name : "");
        for (int j = 0; j < i; j++)
            if (strcmp(a->name, p->args[j].name) == 0)
                return ERR(e, "%s: args[%d].name: duplicate argument '%s'", label, i, a->name);
        if (a->dtype <= DT_INVALID || a->dtype >= DT_COUNT)
            return ERR(e, "%s: args[%d].dtype: invalid", label, i);
        if (arg_role_is_buffer(a->role)) {
            if (!a->shape && a->ndim != 0)
                return ERR(e, "%s: args[%d].shape: missing", label, i);
            if (a->ndim > 8)
                return ERR(e, "%s: args[%d].shape: more than 8 dimensions", label, i);
            for (int d = 0; d < a->ndim; d++)
                if (problem_eval(p, NULL, a->shape[d], NULL, e) != 0)
                    return error_prefix(e, "%s: args[%d].shape[%d]", label, i, d);
            if (arg_role_is_output(a->role))
                n_out++;
            if (arg_role_is_input(a->role) && validate_fill(p, a, label, i, e) != 0)
                return -1;
        } else if (a->role == ROLE_PARAM) {
            if (problem_param_index(p, a->name) < 0)
                return ERR(e, "%s: args[%d]: param '%s' is not listed in params", label, i, a->name);
            if (a->dtype != DT_I32 && a->dtype != DT_I64)
                return ERR(e, "%s: args[%d].dtype: a param must be i32 or i64", label, i);
        } else if (a->role == ROLE_SCALAR) {
            if (!isfinite(a->value))
                return ERR(e, "%s: args[%d].value: a scalar needs a finite value", label, i);
        } else {
            return ERR(e, "%s: args[%d].role: invalid", label, i);
        }
    }
    if (n_out == 0)
        return ERR(e, "%s: args: no argument has role out or inout", label);
    if (p->n_configs < 3)
        return ERR(e, "%s: configs: at least 3 configurations are required (small, edge..., large), got %d",
                   label, p->n_configs);
    int has_small = 0, has_large = 0, has_edge = 0;
    for (int c = 0; c < p->n_configs; c++) {
        const ProblemConfig *cf = &p->configs[c];
        if (!is_valid_name(cf->name) || strchr(cf->name, '/'))
            return ERR(e, "%s: configs[%d].name: missing or invalid", label, c);
        for (int j = 0; j < c; j++)
            if (strcmp(cf->name, p->configs[j].name) == 0)
                return ERR(e, "%s: configs[%d].name: duplicate config '%s'", label, c, cf->name);
        has_small |= strcmp(cf->name, "small") == 0;
        has_large |= strcmp(cf->name, "large") == 0;
        has_edge |= strncmp(cf->name, "edge", 4) == 0;
        for (int k = 0; k < p->n_params; k++)
            if (cf->params[k] < 0)
                return ERR(e, "%s: configs[%d].%s: must be >= 0 (got %lld)", label, c, p->params[k],
                           (long long)cf->params[k]);
        for (int k = 0; k < cf->n_ov; k++) {
            const ProblemArg *a = problem_find_arg(p, cf->ov_names[k]);
            if (!a || a->role != ROLE_SCALAR)
                return ERR(e, "%s: configs[%d].%s: not a param or scalar of this program", label, c,
                           cf->ov_names[k]);
            if (!isfinite(cf->ov_values[k]))
                return ERR(e, "%s: configs[%d].%s: not a finite number", label, c, cf->ov_names[k]);
        }
        for (int i = 0; i < p->n_args; i++) {
            const ProblemArg *a = &p->args[i];
            if (!arg_role_is_buffer(a->role))
                continue;
            int64_t n;
            if (problem_buffer_count(p, a, cf, &n, e) != 0)
                return error_prefix(e, "%s: configs[%d] (%s): args[%d] '%s'", label, c, cf->name, i, a->name);
            if (n < 1)
                return ERR(e, "%s: configs[%d] (%s): args[%d] '%s' has no elements", label, c, cf->name,
                           i, a->name);
            if (n > PROBLEM_MAX_BUFFER_BYTES / (int64_t)dtype_size(a->dtype))
                return ERR(e, "%s: configs[%d] (%s): args[%d] '%s' is larger than 16 GiB", label, c,
                           cf->name, i, a->name);
            if (arg_role_is_input(a->role) && a->fill.kind == FILL_INT) {
                int64_t lo, hi;
                if (problem_eval(p, cf, a->fill.lo_expr, &lo, e) != 0 ||
                    problem_eval(p, cf, a->fill.hi_expr, &hi, e) != 0)
                    return error_prefix(e, "%s: configs[%d] (%s): args[%d].fill", label, c, cf->name, i);
                if (lo >= hi)
                    return ERR(e, "%s: configs[%d] (%s): args[%d].fill: empty range [%lld, %lld)", label,
                               c, cf->name, i, (long long)lo, (long long)hi);
            }
        }
        for (int i = 0; i < p->n_args; i++) {
            const ProblemArg *a = &p->args[i];
            if (a->role != ROLE_PARAM || a->dtype != DT_I32)
                continue;
            int64_t v = cf->params[problem_param_index(p, a->name)];
            if (v > INT32_MAX)
                return ERR(e, "%s: configs[%d] (%s): param '%s' = %lld does not fit its dtype i32", label,
                           c, cf->name, a->name, (long long)v);
        }
    }
    if (!has_small || !has_large || !has_edge)
        return ERR(e, "%s: configs: need a \"small\", a \"large\" and at least one \"edge...\" config",
                   label);
    if (!(p->atol >= 0) || !(p->rtol >= 0) || !isfinite(p->atol) || !isfinite(p->rtol))
        return ERR(e, "%s: tolerance: atol and rtol must be finite and >= 0", label);
    if (problem_eval(p, NULL, p->cost_flops, NULL, e) != 0)
        return error_prefix(e, "%s: cost.flops", label);
    if (problem_eval(p, NULL, p->cost_bytes, NULL, e) != 0)
        return error_prefix(e, "%s: cost.bytes", label);
    if (p->cost_ref_flops && problem_eval(p, NULL, p->cost_ref_flops, NULL, e) != 0)
        return error_prefix(e, "%s: cost.ref_flops", label);
    if (p->cost_ref_bytes && problem_eval(p, NULL, p->cost_ref_bytes, NULL, e) != 0)
        return error_prefix(e, "%s: cost.ref_bytes", label);
    if (!p->prov_license || !*p->prov_license)
        return ERR(e, "%s: provenance.license: missing", label);
    return 0;
}

/* ---------- parsing ---------- */

typedef struct ParseCtx {
    const char *file;
    Error *e;
} ParseCtx;

/* Rejects keys outside `allowed` (NULL-terminated), naming the field. */
static int check_keys(ParseCtx *px, const cJSON *obj, const char *field, const char *const *allowed)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k; k++)
            ok |= strcmp(*k, it->string) == 0;
        if (!ok)
            return ERR(px->e, "%s: %s%s%s: unknown field", px->file, field, *field ? "." : "", it->string);
    }
    return 0;
}

static int get_string(ParseCtx *px, const cJSON *obj, const char *key, const char *field, int required,
                      char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required)
            return ERR(px->e, "%s: %s: missing", px->file, field);
        *out = NULL;
        return 0;
    }
    if (!cJSON_IsString(v))
        return ERR(px->e, "%s: %s: must be a string", px->file, field);
    *out = xstrdup(v->valuestring);
    return 0;
}

/* An integer-valued JSON number (exactly representable) into *out. */
static int json_to_int64(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsNumber(v))
        return -1;
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0)
        return -1;
    *out = (int64_t)d;
    return 0;
}

/* An expression field: a string, or an integer which becomes its text. */
static int get_expr(ParseCtx *px, const cJSON *v, const char *field, char **out)
{
    int64_t iv;
    if (!v)
        return ERR(px->e, "%s: %s: missing", px->file, field);
    if (cJSON_IsString(v)) {
        *out = xstrdup(v->valuestring);
        return 0;
    }
    if (json_to_int64(v, &iv) == 0) {
        *out = xasprintf("%lld", (long long)iv);
        return 0;
    }
    return ERR(px->e, "%s: %s: must be an integer or an expression string", px->file, field);
}

static int get_number(ParseCtx *px, const cJSON *v, const char *field, double *out)
{
    if (!cJSON_IsNumber(v))
        return ERR(px->e, "%s: %s: must be a number", px->file, field);
    *out = v->valuedouble;
    return 0;
}

static int parse_fill(ParseCtx *px, const cJSON *f, ProblemArg *a, const char *field)
{
    static const char *const keys[] = {"dist", "lo", "hi", "total", "sorted", NULL};
    char sub[160];
    if (!cJSON_IsObject(f))
        return ERR(px->e, "%s: %s: must be an object", px->file, field);
    if (check_keys(px, f, field, keys) != 0)
        return -1;
    const cJSON *dist = cJSON_GetObjectItemCaseSensitive(f, "dist");
    if (!cJSON_IsString(dist))
        return ERR(px->e, "%s: %s.dist: missing or not a string", px->file, field);
    const cJSON *sorted = cJSON_GetObjectItemCaseSensitive(f, "sorted");
    if (sorted && !cJSON_IsBool(sorted))
        return ERR(px->e, "%s: %s.sorted: must be true or false", px->file, field);
    a->fill.sorted = sorted && cJSON_IsTrue(sorted);
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(f, "lo");
    const cJSON *hi = cJSON_GetObjectItemCaseSensitive(f, "hi");
    if (strcmp(dist->valuestring, "uniform") == 0) {
        a->fill.kind = FILL_UNIFORM;
        snprintf(sub, sizeof sub, "%s.lo", field);
        if (lo && get_number(px, lo, sub, &a->fill.lo) != 0)
            return -1;
        snprintf(sub, sizeof sub, "%s.hi", field);
        if (hi && get_number(px, hi, sub, &a->fill.hi) != 0)
            return -1;
    } else if (strcmp(dist->valuestring, "int") == 0) {
        a->fill.kind = FILL_INT;
        snprintf(sub, sizeof sub, "%s.lo", field);
        if (get_expr(px, lo, sub, &a->fill.lo_expr) != 0)
            return -1;
        snprintf(sub, sizeof sub, "%s.hi", field);
        if (get_expr(px, hi, sub, &a->fill.hi_expr) != 0)
            return -1;
    } else if (strcmp(dist->valuestring, "partition") == 0) {
        a->fill.kind = FILL_PARTITION;
        snprintf(sub, sizeof sub, "%s.total", field);
        if (get_expr(px, cJSON_GetObjectItemCaseSensitive(f, "total"), sub, &a->fill.total_expr) != 0)
            return -1;
    } else if (strcmp(dist->valuestring, "model") == 0) {
        a->fill.kind = FILL_MODEL;
        if (lo || hi || cJSON_GetObjectItemCaseSensitive(f, "total"))
            return ERR(px->e, "%s: %s: a 'model' fill takes no lo, hi or total", px->file, field);
    } else {
        return ERR(px->e, "%s: %s.dist: unknown distribution '%s' (known: uniform, int, partition, model)",
                   px->file, field, dist->valuestring);
    }
    return 0;
}

/* Default input distributions: reals in [-1, 1), integers in [0, 100),
 * booleans 0/1, bytes over their range. */
static void default_fill(ProblemArg *a)
{
    memset(&a->fill, 0, sizeof a->fill);
    if (dtype_is_float(a->dtype)) {
        a->fill.kind = FILL_UNIFORM;
        a->fill.lo = -1.0;
        a->fill.hi = 1.0;
        return;
    }
    a->fill.kind = FILL_INT;
    a->fill.lo_expr = xstrdup("0");
    a->fill.hi_expr = xstrdup(a->dtype == DT_BOOL ? "2" : (a->dtype == DT_U8 ? "256" : "100"));
}

static int parse_arg(ParseCtx *px, const cJSON *j, ProblemArg *a, int i)
{
    static const char *const keys[] = {"name", "dtype", "role", "shape", "value", "fill", NULL};
    char field[96], sub[160];
    snprintf(field, sizeof field, "args[%d]", i);
    if (!cJSON_IsObject(j))
        return ERR(px->e, "%s: %s: must be an object", px->file, field);
    if (check_keys(px, j, field, keys) != 0)
        return -1;
    snprintf(sub, sizeof sub, "%s.name", field);
    if (get_string(px, j, "name", sub, 1, &a->name) != 0)
        return -1;
    char *dt = NULL, *role = NULL;
    snprintf(sub, sizeof sub, "%s.dtype", field);
    if (get_string(px, j, "dtype", sub, 1, &dt) != 0)
        return -1;
    a->dtype = dtype_from_name(dt);
    if (a->dtype == DT_INVALID) {
        ERR(px->e, "%s: %s: unknown dtype '%s' (known: %s)", px->file, sub, dt, dtype_all_names());
        free(dt);
        return -1;
    }
    free(dt);
    snprintf(sub, sizeof sub, "%s.role", field);
    if (get_string(px, j, "role", sub, 1, &role) != 0)
        return -1;
    int r = -1;
    for (int k = 0; k < 5; k++)
        if (strcmp(role, ROLE_NAMES[k]) == 0)
            r = k;
    if (r < 0) {
        ERR(px->e, "%s: %s: unknown role '%s' (known: in, out, inout, param, scalar)", px->file, sub, role);
        free(role);
        return -1;
    }
    free(role);
    a->role = (ArgRole)r;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(j, "value");
    const cJSON *fill = cJSON_GetObjectItemCaseSensitive(j, "fill");
    if (arg_role_is_buffer(a->role)) {
        if (!cJSON_IsArray(shape))
            return ERR(px->e, "%s: %s.shape: a buffer needs a shape array", px->file, field);
        a->ndim = cJSON_GetArraySize(shape);
        a->shape = xcalloc((size_t)a->ndim + 1, sizeof *a->shape);
        for (int d = 0; d < a->ndim; d++) {
            snprintf(sub, sizeof sub, "%s.shape[%d]", field, d);
            if (get_expr(px, cJSON_GetArrayItem(shape, d), sub, &a->shape[d]) != 0)
                return -1;
        }
        if (value)
            return ERR(px->e, "%s: %s.value: only scalars take a value", px->file, field);
        if (fill && !arg_role_is_input(a->role))
            return ERR(px->e, "%s: %s.fill: only in/inout buffers are filled", px->file, field);
        if (arg_role_is_input(a->role)) {
            default_fill(a);
            if (fill) {
                free(a->fill.lo_expr);
                free(a->fill.hi_expr);
                memset(&a->fill, 0, sizeof a->fill);
                a->fill.lo = -1.0;
                a->fill.hi = 1.0;
                snprintf(sub, sizeof sub, "%s.fill", field);
                if (parse_fill(px, fill, a, sub) != 0)
                    return -1;
            }
        }
    } else {
        if (shape)
            return ERR(px->e, "%s: %s.shape: only buffers have a shape", px->file, field);
        if (fill)
            return ERR(px->e, "%s: %s.fill: only in/inout buffers are filled", px->file, field);
        if (a->role == ROLE_SCALAR) {
            snprintf(sub, sizeof sub, "%s.value", field);
            if (!value)
                return ERR(px->e, "%s: %s: a scalar needs a value", px->file, sub);
            if (get_number(px, value, sub, &a->value) != 0)
                return -1;
        } else if (value) {
            return ERR(px->e, "%s: %s.value: a param takes its value from each config", px->file, field);
        }
    }
    return 0;
}

static int parse_config(ParseCtx *px, const cJSON *j, const Problem *p, ProblemConfig *c, int i)
{
    char field[64];
    snprintf(field, sizeof field, "configs[%d]", i);
    if (!cJSON_IsObject(j))
        return ERR(px->e, "%s: %s: must be an object", px->file, field);
    c->params = xcalloc((size_t)p->n_params + 1, sizeof *c->params);
    for (int k = 0; k < p->n_params; k++)
        c->params[k] = -1;
    int n_keys = cJSON_GetArraySize(j);
    c->ov_names = xcalloc((size_t)n_keys + 1, sizeof *c->ov_names);
    c->ov_values = xcalloc((size_t)n_keys + 1, sizeof *c->ov_values);
    for (const cJSON *it = j->child; it; it = it->next) {
        for (const cJSON *prev = j->child; prev != it; prev = prev->next)
            if (strcmp(prev->string, it->string) == 0)
                return ERR(px->e, "%s: %s.%s: duplicate field", px->file, field, it->string);
        if (strcmp(it->string, "name") == 0) {
            if (!cJSON_IsString(it))
                return ERR(px->e, "%s: %s.name: must be a string", px->file, field);
            c->name = xstrdup(it->valuestring);
            continue;
        }
        int k = problem_param_index(p, it->string);
        if (k >= 0) {
            if (json_to_int64(it, &c->params[k]) != 0)
                return ERR(px->e, "%s: %s.%s: a param value must be an integer", px->file, field, it->string);
            continue;
        }
        const ProblemArg *a = problem_find_arg(p, it->string);
        if (!a || a->role != ROLE_SCALAR)
            return ERR(px->e, "%s: %s.%s: not a param or scalar of this program", px->file, field, it->string);
        if (!cJSON_IsNumber(it))
            return ERR(px->e, "%s: %s.%s: a scalar override must be a number", px->file, field, it->string);
        c->ov_names[c->n_ov] = xstrdup(it->string);
        c->ov_values[c->n_ov++] = it->valuedouble;
    }
    if (!c->name)
        return ERR(px->e, "%s: %s.name: missing", px->file, field);
    for (int k = 0; k < p->n_params; k++)
        if (c->params[k] < 0)
            return ERR(px->e, "%s: %s (%s): param '%s' missing or negative", px->file, field, c->name,
                       p->params[k]);
    return 0;
}

static int parse_root(ParseCtx *px, const cJSON *root, Problem *p)
{
    static const char *const keys[] = {"format", "name", "lang", "family", "entry", "description",
                                       "category", "params", "args", "configs", "tolerance", "cost",
                                       "provenance", NULL};
    if (!cJSON_IsObject(root))
        return ERR(px->e, "%s: top level must be a JSON object", px->file);
    if (check_keys(px, root, "", keys) != 0)
        return -1;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    int64_t fv = PROBLEM_FORMAT_VERSION;
    if (fmt && (json_to_int64(fmt, &fv) != 0 || fv != PROBLEM_FORMAT_VERSION))
        return ERR(px->e, "%s: format: unknown format version (this build reads version %d)", px->file,
                   PROBLEM_FORMAT_VERSION);
    if (get_string(px, root, "name", "name", 1, &p->name) != 0 ||
        get_string(px, root, "lang", "lang", 1, &p->lang) != 0 ||
        get_string(px, root, "family", "family", 1, &p->family) != 0 ||
        get_string(px, root, "entry", "entry", 1, &p->entry) != 0 ||
        get_string(px, root, "description", "description", 0, &p->description) != 0 ||
        get_string(px, root, "category", "category", 0, &p->category) != 0)
        return -1;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "params");
    if (params && !cJSON_IsArray(params))
        return ERR(px->e, "%s: params: must be an array of names", px->file);
    p->n_params = params ? cJSON_GetArraySize(params) : 0;
    p->params = xcalloc((size_t)p->n_params + 1, sizeof *p->params);
    for (int i = 0; i < p->n_params; i++) {
        const cJSON *v = cJSON_GetArrayItem(params, i);
        if (!cJSON_IsString(v))
            return ERR(px->e, "%s: params[%d]: must be a string", px->file, i);
        p->params[i] = xstrdup(v->valuestring);
        for (int j = 0; j < i; j++)
            if (strcmp(p->params[i], p->params[j]) == 0)
                return ERR(px->e, "%s: params[%d]: duplicate param '%s'", px->file, i, p->params[i]);
    }
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
    if (!cJSON_IsArray(args))
        return ERR(px->e, "%s: args: missing or not an array", px->file);
    p->n_args = cJSON_GetArraySize(args);
    p->args = xcalloc((size_t)p->n_args + 1, sizeof *p->args);
    for (int i = 0; i < p->n_args; i++)
        if (parse_arg(px, cJSON_GetArrayItem(args, i), &p->args[i], i) != 0)
            return -1;
    const cJSON *configs = cJSON_GetObjectItemCaseSensitive(root, "configs");
    if (!cJSON_IsArray(configs))
        return ERR(px->e, "%s: configs: missing or not an array", px->file);
    p->n_configs = cJSON_GetArraySize(configs);
    p->configs = xcalloc((size_t)p->n_configs + 1, sizeof *p->configs);
    for (int i = 0; i < p->n_configs; i++)
        if (parse_config(px, cJSON_GetArrayItem(configs, i), p, &p->configs[i], i) != 0)
            return -1;
    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
    if (!cJSON_IsObject(tol))
        return ERR(px->e, "%s: tolerance: missing or not an object", px->file);
    static const char *const tol_keys[] = {"atol", "rtol", NULL};
    if (check_keys(px, tol, "tolerance", tol_keys) != 0 ||
        get_number(px, cJSON_GetObjectItemCaseSensitive(tol, "atol"), "tolerance.atol", &p->atol) != 0 ||
        get_number(px, cJSON_GetObjectItemCaseSensitive(tol, "rtol"), "tolerance.rtol", &p->rtol) != 0)
        return -1;
    const cJSON *cost = cJSON_GetObjectItemCaseSensitive(root, "cost");
    if (!cJSON_IsObject(cost))
        return ERR(px->e, "%s: cost: missing or not an object", px->file);
    static const char *const cost_keys[] = {"flops", "bytes", "ref_flops", "ref_bytes", NULL};
    const cJSON *ref_flops = cJSON_GetObjectItemCaseSensitive(cost, "ref_flops");
    const cJSON *ref_bytes = cJSON_GetObjectItemCaseSensitive(cost, "ref_bytes");
    if (check_keys(px, cost, "cost", cost_keys) != 0 ||
        get_expr(px, cJSON_GetObjectItemCaseSensitive(cost, "flops"), "cost.flops", &p->cost_flops) != 0 ||
        get_expr(px, cJSON_GetObjectItemCaseSensitive(cost, "bytes"), "cost.bytes", &p->cost_bytes) != 0 ||
        (ref_flops && get_expr(px, ref_flops, "cost.ref_flops", &p->cost_ref_flops) != 0) ||
        (ref_bytes && get_expr(px, ref_bytes, "cost.ref_bytes", &p->cost_ref_bytes) != 0))
        return -1;
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(root, "provenance");
    if (!cJSON_IsObject(prov))
        return ERR(px->e, "%s: provenance: missing or not an object", px->file);
    static const char *const prov_keys[] = {"generator", "seed", "license", "source", NULL};
    if (check_keys(px, prov, "provenance", prov_keys) != 0 ||
        get_string(px, prov, "generator", "provenance.generator", 0, &p->prov_generator) != 0 ||
        get_string(px, prov, "license", "provenance.license", 1, &p->prov_license) != 0 ||
        get_string(px, prov, "source", "provenance.source", 0, &p->prov_source) != 0)
        return -1;
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(prov, "seed");
    if (seed && json_to_int64(seed, &p->prov_seed) != 0)
        return ERR(px->e, "%s: provenance.seed: must be an integer", px->file);
    return problem_validate(p, px->file, px->e);
}

int problem_parse(const char *text, const char *filename, Problem **out, Error *e)
{
    ParseCtx px = {filename ? filename : "meta.json", e};
    *out = NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        int line = 1;
        for (const char *q = text; end && q < end && *q; q++)
            line += *q == '\n';
        return ERR(e, "%s: line %d: malformed JSON", px.file, line);
    }
    Problem *p = xcalloc(1, sizeof *p);
    int rc = parse_root(&px, root, p);
    cJSON_Delete(root);
    if (rc != 0) {
        problem_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int problem_load(const char *path, Problem **out, Error *e)
{
    char *text = NULL;
    if (file_read_all(path, 4 << 20, &text, NULL, e) != 0)
        return -1;
    int rc = problem_parse(text, path, out, e);
    free(text);
    return rc;
}

/* ---------- canonical serialisation ---------- */

static cJSON *expr_json(const char *s)
{
    /* Plain integers are written as numbers, everything else as strings. */
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s && *end == '\0' && errno == 0 && llabs(v) < (1LL << 53) && isdigit((unsigned char)s[0]))
        return cJSON_CreateNumber((double)v);
    return cJSON_CreateString(s);
}

char *problem_to_json(const Problem *p)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", p->name);
    cJSON_AddStringToObject(root, "lang", p->lang);
    cJSON_AddStringToObject(root, "family", p->family);
    cJSON_AddStringToObject(root, "entry", p->entry);
    if (p->category)
        cJSON_AddStringToObject(root, "category", p->category);
    if (p->description)
        cJSON_AddStringToObject(root, "description", p->description);
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    for (int i = 0; i < p->n_params; i++)
        cJSON_AddItemToArray(params, cJSON_CreateString(p->params[i]));
    cJSON *args = cJSON_AddArrayToObject(root, "args");
    for (int i = 0; i < p->n_args; i++) {
        const ProblemArg *a = &p->args[i];
        cJSON *ja = cJSON_CreateObject();
        cJSON_AddStringToObject(ja, "name", a->name);
        cJSON_AddStringToObject(ja, "dtype", dtype_name(a->dtype));
        if (arg_role_is_buffer(a->role)) {
            cJSON *sh = cJSON_AddArrayToObject(ja, "shape");
            for (int d = 0; d < a->ndim; d++)
                cJSON_AddItemToArray(sh, expr_json(a->shape[d]));
        }
        cJSON_AddStringToObject(ja, "role", arg_role_name(a->role));
        if (a->role == ROLE_SCALAR)
            cJSON_AddNumberToObject(ja, "value", a->value);
        if (arg_role_is_input(a->role)) {
            cJSON *f = cJSON_AddObjectToObject(ja, "fill");
            switch (a->fill.kind) {
            case FILL_UNIFORM:
                cJSON_AddStringToObject(f, "dist", "uniform");
                cJSON_AddNumberToObject(f, "lo", a->fill.lo);
                cJSON_AddNumberToObject(f, "hi", a->fill.hi);
                break;
            case FILL_INT:
                cJSON_AddStringToObject(f, "dist", "int");
                cJSON_AddItemToObject(f, "lo", expr_json(a->fill.lo_expr));
                cJSON_AddItemToObject(f, "hi", expr_json(a->fill.hi_expr));
                break;
            case FILL_PARTITION:
                cJSON_AddStringToObject(f, "dist", "partition");
                cJSON_AddItemToObject(f, "total", expr_json(a->fill.total_expr));
                break;
            case FILL_MODEL:
                cJSON_AddStringToObject(f, "dist", "model");
                break;
            }
            if (a->fill.sorted)
                cJSON_AddBoolToObject(f, "sorted", 1);
        }
        cJSON_AddItemToArray(args, ja);
    }
    cJSON *configs = cJSON_AddArrayToObject(root, "configs");
    for (int c = 0; c < p->n_configs; c++) {
        const ProblemConfig *cf = &p->configs[c];
        cJSON *jc = cJSON_CreateObject();
        cJSON_AddStringToObject(jc, "name", cf->name);
        for (int k = 0; k < p->n_params; k++)
            cJSON_AddNumberToObject(jc, p->params[k], (double)cf->params[k]);
        for (int k = 0; k < cf->n_ov; k++)
            cJSON_AddNumberToObject(jc, cf->ov_names[k], cf->ov_values[k]);
        cJSON_AddItemToArray(configs, jc);
    }
    cJSON *tol = cJSON_AddObjectToObject(root, "tolerance");
    cJSON_AddNumberToObject(tol, "atol", p->atol);
    cJSON_AddNumberToObject(tol, "rtol", p->rtol);
    cJSON *cost = cJSON_AddObjectToObject(root, "cost");
    cJSON_AddItemToObject(cost, "flops", expr_json(p->cost_flops));
    cJSON_AddItemToObject(cost, "bytes", expr_json(p->cost_bytes));
    if (p->cost_ref_flops)
        cJSON_AddItemToObject(cost, "ref_flops", expr_json(p->cost_ref_flops));
    if (p->cost_ref_bytes)
        cJSON_AddItemToObject(cost, "ref_bytes", expr_json(p->cost_ref_bytes));
    cJSON *prov = cJSON_AddObjectToObject(root, "provenance");
    if (p->prov_generator)
        cJSON_AddStringToObject(prov, "generator", p->prov_generator);
    if (p->prov_generator || p->prov_seed)
        cJSON_AddNumberToObject(prov, "seed", (double)p->prov_seed);
    cJSON_AddStringToObject(prov, "license", p->prov_license);
    if (p->prov_source)
        cJSON_AddStringToObject(prov, "source", p->prov_source);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        fputs("cudaperf: out of memory\n", stderr);
        abort();
    }
    char *out = xasprintf("%s\n", text);
    cJSON_free(text);
    return out;
}

void problem_free(Problem *p)
{
    if (!p)
        return;
    free(p->name);
    free(p->lang);
    free(p->family);
    free(p->entry);
    free(p->description);
    free(p->category);
    for (int i = 0; p->params && i < p->n_params; i++)
        free(p->params[i]);
    free(p->params);
    for (int i = 0; p->args && i < p->n_args; i++) {
        ProblemArg *a = &p->args[i];
        free(a->name);
        for (int d = 0; a->shape && d < a->ndim; d++)
            free(a->shape[d]);
        free(a->shape);
        free(a->fill.lo_expr);
        free(a->fill.hi_expr);
        free(a->fill.total_expr);
    }
    free(p->args);
    for (int c = 0; p->configs && c < p->n_configs; c++) {
        ProblemConfig *cf = &p->configs[c];
        free(cf->name);
        free(cf->params);
        for (int k = 0; k < cf->n_ov; k++)
            free(cf->ov_names[k]);
        free(cf->ov_names);
        free(cf->ov_values);
    }
    free(p->configs);
    free(p->cost_flops);
    free(p->cost_bytes);
    free(p->cost_ref_flops);
    free(p->cost_ref_bytes);
    free(p->prov_generator);
    free(p->prov_license);
    free(p->prov_source);
    free(p);
}
