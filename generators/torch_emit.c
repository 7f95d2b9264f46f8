#include "torch_emit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/expr.h"
#include "../common/strbuf.h"

#define TP_MAX 64

typedef struct TInput {
    char *name, *dtype, *shape;
    int kind;            /* 0 uniform reals, 1 integers, 2 booleans */
    double lo, hi;
    char *lo_expr, *hi_expr;
} TInput;

typedef struct TNamed {
    char *name, *dtype, *shape;
} TNamed;

struct TorchProg {
    GenProgram *p;
    const char *dtype;
    char *params[TP_MAX];
    int64_t values[TP_NCFG][TP_MAX];
    int n_params;
    char *init_names[TP_MAX], *init_values[TP_MAX];
    int n_init;
    StrBuf helpers, init, forward;
    TInput inputs[TP_MAX];
    int n_inputs;
    TNamed outputs[TP_MAX], weights[TP_MAX];
    int n_outputs, n_weights;
    int tolerance_set;
    double atol, rtol;
    char *flops, *bytes;
    char **kept;      /* strings handed out by tp_keep, freed by tp_end */
    int n_kept, serial;
    const char **memo_keys, **memo_values;  /* tp_memo_put's pairs (the strings in kept) */
    int n_memo;
};

static const char *py_dtype(const char *dt)
{
    static const char *const map[][2] = {{"f32", "torch.float32"}, {"f16", "torch.float16"},
                                         {"bf16", "torch.bfloat16"}, {"f64", "torch.float64"},
                                         {"i64", "torch.int64"}, {"i32", "torch.int32"},
                                         {"bool", "torch.bool"}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], dt) == 0)
            return map[i][1];
    return NULL;
}

TorchProg *tp_begin(GenCtx *g, const char *variant, const char *dtype)
{
    TorchProg *t = xcalloc(1, sizeof *t);
    t->p = gen_begin(g, variant, "Model");
    t->dtype = dtype;
    if (!py_dtype(dtype))
        gen_error(t->p, "unknown torch dtype '%s'", dtype);
    return t;
}

const char *tp_dtype(const TorchProg *t)
{
    return t->dtype;
}

const char *tp_pydtype(const TorchProg *t)
{
    return py_dtype(t->dtype);
}

int tp_elem_bytes(const TorchProg *t)
{
    return strcmp(t->dtype, "f32") == 0 ? 4 : strcmp(t->dtype, "f64") == 0 ? 8 : 2;
}

void tp_describe(TorchProg *t, const char *fmt, ...)
{
    StrBuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    gen_describe(t->p, "%s", sb.data ? sb.data : "");
    sb_release(&sb);
}

int tp_param_index(const TorchProg *t, const char *name)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i], name) == 0)
            return i;
    return -1;
}

void tp_param(TorchProg *t, const char *name, int64_t small, int64_t large, int64_t edge)
{
    if (tp_param_index(t, name) >= 0) {
        gen_error(t->p, "param %s declared twice", name);
        return;
    }
    if (t->n_params >= TP_MAX) {
        gen_error(t->p, "too many params");
        return;
    }
    t->params[t->n_params] = xstrdup(name);
    t->values[TP_SMALL][t->n_params] = small;
    t->values[TP_LARGE][t->n_params] = large;
    t->values[TP_EDGE][t->n_params] = edge;
    t->n_params++;
}

void tp_param_set(TorchProg *t, const char *name, int cfg, int64_t value)
{
    int i = tp_param_index(t, name);
    if (i < 0)
        gen_error(t->p, "param %s not declared", name);
    else
        t->values[cfg][i] = value;
}

int64_t tp_eval(TorchProg *t, const char *expr, int cfg)
{
    ExprEnv env = {(const char *const *)t->params, t->values[cfg], (size_t)t->n_params};
    int64_t v = 0;
    Error e;
    if (expr_eval(expr, &env, &v, &e) != 0) {
        gen_error(t->p, "%s", e.msg);
        return 0;
    }
    return v;
}

void tp_init_arg(TorchProg *t, const char *name, const char *value_expr)
{
    if (t->n_init >= TP_MAX) {
        gen_error(t->p, "too many init args");
        return;
    }
    t->init_names[t->n_init] = xstrdup(name);
    t->init_values[t->n_init++] = xstrdup(value_expr);
}

static void add_line(StrBuf *sb, const char *fmt, va_list ap)
{
    sb_append(sb, "        ");
    sb_vprintf(sb, fmt, ap);
    sb_append(sb, "\n");
}

void tp_init(TorchProg *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(&t->init, fmt, ap);
    va_end(ap);
}

void tp_forward(TorchProg *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(&t->forward, fmt, ap);
    va_end(ap);
}

void tp_helper(TorchProg *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&t->helpers, fmt, ap);
    va_end(ap);
}

static TInput *new_input(TorchProg *t, const char *name, const char *dtype, const char *shape)
{
    if (t->n_inputs >= TP_MAX) {
        gen_error(t->p, "too many inputs");
        return NULL;
    }
    TInput *in = &t->inputs[t->n_inputs++];
    in->name = xstrdup(name);
    in->dtype = xstrdup(dtype ? dtype : t->dtype);
    in->shape = xstrdup(shape);
    return in;
}

void tp_input_dt(TorchProg *t, const char *name, const char *dtype, const char *shape, double lo, double hi)
{
    TInput *in = new_input(t, name, dtype, shape);
    if (in) {
        in->lo = lo;
        in->hi = hi;
    }
}

void tp_input(TorchProg *t, const char *name, const char *shape, double lo, double hi)
{
    tp_input_dt(t, name, NULL, shape, lo, hi);
}

void tp_input_int(TorchProg *t, const char *name, const char *shape, const char *lo_expr, const char *hi_expr)
{
    TInput *in = new_input(t, name, "i64", shape);
    if (in) {
        in->kind = 1;
        in->lo_expr = xstrdup(lo_expr);
        in->hi_expr = xstrdup(hi_expr);
    }
}

void tp_input_bool(TorchProg *t, const char *name, const char *shape)
{
    TInput *in = new_input(t, name, "bool", shape);
    if (in)
        in->kind = 2;
}

static void add_named(TorchProg *t, TNamed *list, int *n, const char *name, const char *dtype, const char *shape)
{
    if (*n >= TP_MAX) {
        gen_error(t->p, "too many outputs or weights");
        return;
    }
    list[*n].name = xstrdup(name);
    list[*n].dtype = xstrdup(dtype ? dtype : t->dtype);
    list[*n].shape = xstrdup(shape);
    (*n)++;
}

void tp_output(TorchProg *t, const char *dtype, const char *shape)
{
    add_named(t, t->outputs, &t->n_outputs, "", dtype, shape);
}

void tp_weight(TorchProg *t, const char *key, const char *dtype, const char *shape)
{
    char *name = xasprintf("w.%s", key);
    add_named(t, t->weights, &t->n_weights, name, dtype, shape);
    free(name);
}

void tp_tolerance(TorchProg *t, double atol, double rtol)
{
    t->atol = atol;
    t->rtol = rtol;
    t->tolerance_set = 1;
}

/* f32 grows linearly with the accumulation depth the family states; the
 * half types start at their rounding error and grow with its square root. */
void tp_default_tolerance(TorchProg *t, double looser)
{
    double v;
    if (strcmp(t->dtype, "bf16") == 0)
        v = fmin(1e-2 * sqrt(looser), 1e-1);
    else if (strcmp(t->dtype, "f16") == 0)
        v = fmin(2e-3 * sqrt(looser), 2e-2);
    else
        v = fmin(1e-5 * looser, 1e-2);
    tp_tolerance(t, v, v);
}

void tp_cost(TorchProg *t, const char *flops, const char *bytes)
{
    free(t->flops);
    free(t->bytes);
    t->flops = xstrdup(flops);
    t->bytes = bytes ? xstrdup(bytes) : NULL;
}

void tp_fail(TorchProg *t, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gen_error(t->p, "%s", msg);
}

static int dtype_bytes(const char *dt)
{
    return strcmp(dt, "f32") == 0 || strcmp(dt, "i32") == 0 ? 4
           : strcmp(dt, "bool") == 0                        ? 1
           : strcmp(dt, "i64") == 0 || strcmp(dt, "f64") == 0 ? 8
                                                             : 2;
}

/* size*(d0*d1*...) for one buffer, appended with a leading "+" when needed. */
static void bytes_term(StrBuf *sb, const char *dtype, const char *shape)
{
    if (sb->len)
        sb_append(sb, "+");
    sb_printf(sb, "%d", dtype_bytes(dtype));
    int depth = 0;
    const char *start = shape;
    for (const char *q = shape;; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        if ((*q == ',' && depth == 0) || *q == '\0') {
            if (q > start)
                sb_printf(sb, "*(%.*s)", (int)(q - start), start);
            start = q + 1;
            if (!*q)
                break;
        }
    }
}

static char *default_bytes(const TorchProg *t)
{
    StrBuf sb = STRBUF_INIT;
    for (int i = 0; i < t->n_inputs; i++)
        bytes_term(&sb, t->inputs[i].dtype, t->inputs[i].shape);
    for (int i = 0; i < t->n_outputs; i++)
        bytes_term(&sb, t->outputs[i].dtype, t->outputs[i].shape);
    for (int i = 0; i < t->n_weights; i++)
        bytes_term(&sb, t->weights[i].dtype, t->weights[i].shape);
    return sb_steal(&sb);
}

/* The expression in Python: "/" becomes "//". */
static void py_expr(StrBuf *sb, const char *e)
{
    for (; *e; e++) {
        if (*e == '/')
            sb_append(sb, "//");
        else if (*e != ' ')
            sb_append_n(sb, e, 1);
    }
}

/* "a,b" -> "a, b" with "/" as "//"; the shape of a torch.rand call. */
static void py_shape(StrBuf *sb, const char *shape)
{
    int depth = 0;
    for (const char *q = shape; *q; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        if (*q == ',' && depth == 0)
            sb_append(sb, ", ");
        else if (*q == '/')
            sb_append(sb, "//");
        else if (*q != ' ')
            sb_append_n(sb, q, 1);
    }
}

static void py_number(StrBuf *sb, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    sb_append(sb, buf);
}

static void emit_inputs(TorchProg *t, StrBuf *sb)
{
    sb_append(sb, "def get_inputs():\n");
    for (int i = 0; i < t->n_inputs; i++) {
        const TInput *in = &t->inputs[i];
        sb_printf(sb, "    %s = ", in->name);
        StrBuf shape = STRBUF_INIT;
        py_shape(&shape, in->shape);
        const char *sh = shape.data ? shape.data : "";
        if (in->kind == 1) {
            sb_append(sb, "torch.randint(");
            py_expr(sb, in->lo_expr);
            sb_append(sb, ", ");
            py_expr(sb, in->hi_expr);
            sb_printf(sb, ", (%s%s), dtype=torch.int64)\n", sh, strchr(sh, ',') ? "" : ",");
        } else if (in->kind == 2) {
            sb_printf(sb, "torch.rand(%s) < 0.5\n", sh);
        } else {
            /* Drawn in f32 and converted: the same values for every dtype. */
            size_t at = sb->len;
            sb_printf(sb, "torch.rand(%s, dtype=torch.float32)", sh);
            if (in->hi - in->lo != 1.0) {
                sb_append(sb, " * ");
                py_number(sb, in->hi - in->lo);
            }
            if (in->lo != 0.0) {
                sb_append(sb, in->lo < 0 ? " - " : " + ");
                py_number(sb, in->lo < 0 ? -in->lo : in->lo);
            }
            if (strcmp(in->dtype, "f32") != 0) {
                /* parenthesise the whole expression before converting */
                char *rest = xstrdup(sb->data + at);
                sb->len = at;
                sb->data[at] = '\0';
                sb_printf(sb, "(%s).to(%s)", rest, py_dtype(in->dtype));
                free(rest);
            }
            sb_append(sb, "\n");
        }
        sb_release(&shape);
    }
    sb_append(sb, "    return [");
    for (int i = 0; i < t->n_inputs; i++)
        sb_printf(sb, "%s%s", i ? ", " : "", t->inputs[i].name);
    sb_append(sb, "]\n");
}

static void emit_source(TorchProg *t, StrBuf *sb)
{
    sb_append(sb, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n");
    for (int i = 0; i < t->n_params; i++)
        sb_printf(sb, "%s = %lld\n", t->params[i], (long long)t->values[TP_LARGE][i]);
    if (t->helpers.len)
        sb_printf(sb, "\n\n%s", t->helpers.data);
    sb_append(sb, "\n\nclass Model(nn.Module):\n    def __init__(self");
    for (int i = 0; i < t->n_init; i++)
        sb_printf(sb, ", %s", t->init_names[i]);
    sb_append(sb, "):\n        super().__init__()\n");
    if (t->init.len)
        sb_append(sb, t->init.data);
    if (strcmp(t->dtype, "f32") != 0 && t->n_weights > 0)
        sb_printf(sb, "        self.to(%s)\n", py_dtype(t->dtype));
    sb_append(sb, "\n    def forward(self");
    for (int i = 0; i < t->n_inputs; i++)
        sb_printf(sb, ", %s", t->inputs[i].name);
    sb_append(sb, "):\n");
    sb_append(sb, t->forward.len ? t->forward.data : "");
    sb_append(sb, "\n\n");
    emit_inputs(t, sb);
    sb_append(sb, "\n\ndef get_init_inputs():\n    return [");
    for (int i = 0; i < t->n_init; i++) {
        if (i)
            sb_append(sb, ", ");
        py_expr(sb, t->init_values[i]);
    }
    sb_append(sb, "]\n");
}

/* state_dict order: a module's own parameters (keys without a dot) come
 * before its children's; the families register weights in creation order. */
static void order_weights(TorchProg *t)
{
    TNamed sorted[TP_MAX];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->n_weights; i++)
            if ((strchr(t->weights[i].name + 2, '.') == NULL) == (pass == 0))
                sorted[n++] = t->weights[i];
    memcpy(t->weights, sorted, sizeof(TNamed) * (size_t)n);
}

static void emit_meta(TorchProg *t)
{
    order_weights(t);
    GenProgram *p = t->p;
    for (int i = 0; i < t->n_inputs; i++) {
        const TInput *in = &t->inputs[i];
        gen_arg(p, in->name, in->dtype, "in", in->shape);
        if (in->kind == 0)
            gen_fill_uniform(p, in->name, in->lo, in->hi);
        else if (in->kind == 1)
            gen_fill_int(p, in->name, in->lo_expr, in->hi_expr);
        else
            gen_fill_int(p, in->name, "0", "2");
    }
    for (int i = 0; i < t->n_outputs; i++) {
        char name[16];
        if (t->n_outputs == 1)
            snprintf(name, sizeof name, "out");
        else
            snprintf(name, sizeof name, "out%d", i);
        gen_arg(p, name, t->outputs[i].dtype, "out", t->outputs[i].shape);
    }
    for (int i = 0; i < t->n_weights; i++) {
        gen_arg(p, t->weights[i].name, t->weights[i].dtype, "in", t->weights[i].shape);
        gen_fill_model(p, t->weights[i].name);
    }
    for (int i = 0; i < t->n_params; i++)
        gen_arg(p, t->params[i], "i64", "param", NULL);
    static const char *const cfg_names[TP_NCFG] = {"small", "edge", "large"};
    static const int cfg_index[TP_NCFG] = {TP_SMALL, TP_EDGE, TP_LARGE};
    for (int c = 0; c < TP_NCFG; c++) {
        StrBuf a = STRBUF_INIT;
        for (int i = 0; i < t->n_params; i++)
            sb_printf(&a, "%s%s=%lld", i ? "," : "", t->params[i], (long long)t->values[cfg_index[c]][i]);
        gen_config(p, cfg_names[c], a.data ? a.data : "");
        sb_release(&a);
    }
    if (!t->tolerance_set)
        tp_default_tolerance(t, 1.0);
    gen_tolerance(p, t->atol, t->rtol);
    if (!t->flops) {
        gen_error(p, "no cost model (tp_cost)");
    } else {
        if (!t->bytes)
            t->bytes = default_bytes(t);
        gen_cost(p, t->flops, t->bytes);
    }
}

static void free_strs(char **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
}

GenProgram *tp_gen(TorchProg *t)
{
    return t->p;
}

const char *tp_keep(TorchProg *t, char *s)
{
    t->kept = xrealloc(t->kept, (size_t)(t->n_kept + 1) * sizeof *t->kept);
    t->kept[t->n_kept++] = s;
    return s;
}

int tp_serial(TorchProg *t)
{
    return t->serial++;
}

/* A linear search: a program records a few dozen pairs at most. */
const char *tp_memo_get(const TorchProg *t, const char *key)
{
    for (int i = t->n_memo - 1; i >= 0; i--)
        if (strcmp(t->memo_keys[i], key) == 0)
            return t->memo_values[i];
    return NULL;
}

void tp_memo_put(TorchProg *t, const char *key, const char *value)
{
    size_t n = (size_t)t->n_memo + 1;
    t->memo_keys = xrealloc(t->memo_keys, n * sizeof *t->memo_keys);
    t->memo_values = xrealloc(t->memo_values, n * sizeof *t->memo_values);
    t->memo_keys[t->n_memo] = tp_keep(t, xstrdup(key));
    t->memo_values[t->n_memo] = tp_keep(t, xstrdup(value));
    t->n_memo++;
}

int tp_end(TorchProg *t)
{
    if (t->n_outputs == 0)
        gen_error(t->p, "no output (tp_output)");
    StrBuf src = STRBUF_INIT;
    emit_source(t, &src);
    gen_source(t->p, "%s", src.data);
    sb_release(&src);
    emit_meta(t);
    int rc = gen_end(t->p);
    free_strs(t->params, t->n_params);
    free_strs(t->init_names, t->n_init);
    free_strs(t->init_values, t->n_init);
    sb_release(&t->helpers);
    sb_release(&t->init);
    sb_release(&t->forward);
    for (int i = 0; i < t->n_inputs; i++) {
        TInput *in = &t->inputs[i];
        free(in->name);
        free(in->dtype);
        free(in->shape);
        free(in->lo_expr);
        free(in->hi_expr);
    }
    for (int i = 0; i < t->n_outputs; i++)
        free(t->outputs[i].name), free(t->outputs[i].dtype), free(t->outputs[i].shape);
    for (int i = 0; i < t->n_weights; i++)
        free(t->weights[i].name), free(t->weights[i].dtype), free(t->weights[i].shape);
    free(t->flops);
    free(t->bytes);
    free_strs(t->kept, t->n_kept);
    free(t->kept);
    free(t->memo_keys);
    free(t->memo_values);
    free(t);
    return rc;
}
