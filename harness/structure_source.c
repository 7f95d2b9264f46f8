#define PCRE2_CODE_UNIT_WIDTH 8
#include "structure_source.h"

#include <ctype.h>
#include <limits.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

#define SOURCE_MAX (1 << 20)
#define TOKENS_MAX (1 << 20)  /* after macro expansion: refuses expansion bombs */
#define MACRO_DEPTH 32
#define CALL_DEPTH 8          /* __device__ call nesting followed */
#define PASSES_MAX 12         /* fixpoint passes over one function body */
#define PASSES_WIDEN 6        /* after this many, changing values lose their constants */

/* ====================================================================== */
/* Lexing                                                                  */
/* ====================================================================== */

typedef enum TokKind { TK_IDENT, TK_NUM, TK_STR, TK_PUNCT } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *s; /* into the cleaned source (never NUL-terminated at len) */
    int len;
    int line;
} Tok;

typedef struct TokVec {
    Tok *v;
    int n, cap;
} TokVec;

static void tv_push(TokVec *tv, Tok t)
{
    if (tv->n == tv->cap) {
        tv->cap = tv->cap ? 2 * tv->cap : 256;
        tv->v = xrealloc(tv->v, sizeof *tv->v * (size_t)tv->cap);
    }
    tv->v[tv->n++] = t;
}

static int tok_is(const Tok *t, const char *s)
{
    return (int)strlen(s) == t->len && memcmp(t->s, s, (size_t)t->len) == 0;
}

typedef struct Macro {
    Tok name;
    int function_like;
    Tok *params;
    int n_params;
    Tok *body;
    int n_body;
    int active; /* being expanded: not again (C's rule against recursion) */
} Macro;

/* The source with comments replaced by spaces (newlines kept, so lines and
 * offsets stay those of kernel.cu); strings and characters kept. */
static char *strip_comments(const char *src)
{
    size_t n = strlen(src);
    char *out = xmalloc(n + 1);
    size_t i = 0;
    while (i < n) {
        if (src[i] == '/' && src[i + 1] == '/') {
            while (i < n && src[i] != '\n') {
                /* a backslash-newline continues a // comment */
                if (src[i] == '\\' && src[i + 1] == '\n') {
                    out[i] = ' ';
                    out[i + 1] = '\n';
                    i += 2;
                    continue;
                }
                out[i++] = ' ';
            }
        } else if (src[i] == '/' && src[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            i += 2;
            while (i < n && !(src[i] == '*' && src[i + 1] == '/')) {
                out[i] = src[i] == '\n' ? '\n' : ' ';
                i++;
            }
            if (i < n) {
                out[i] = out[i + 1] = ' ';
                i += 2;
            }
        } else if (src[i] == '"' || src[i] == '\'') {
            char q = src[i];
            out[i] = src[i];
            i++;
            while (i < n && src[i] != q && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < n) {
                    out[i] = src[i];
                    i++;
                }
                out[i] = src[i];
                i++;
            }
            if (i < n) {
                out[i] = src[i];
                i++;
            }
        } else {
            out[i] = src[i];
            i++;
        }
    }
    out[n] = '\0';
    return out;
}

static const char *const PUNCT3[] = {"<<=", ">>=", "...", NULL};
static const char *const PUNCT2[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
                                     "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##", NULL};

/* One token at *p (which is not space); advances *p and counts newlines of
 * backslash continuations into *line. */
static Tok lex_one(const char **p, int line)
{
    const char *s = *p;
    Tok t = {TK_PUNCT, s, 1, line};
    if (isalpha((unsigned char)*s) || *s == '_') {
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        t.kind = TK_IDENT;
    } else if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
        /* a pp-number: digits, letters, '.', digit separators, signed exponents */
        while (isalnum((unsigned char)*s) || *s == '.' || *s == '_' || (*s == '\'' && isalnum((unsigned char)s[1])) ||
               ((*s == '+' || *s == '-') && s > t.s && strchr("eEpP", s[-1])))
            s++;
        t.kind = TK_NUM;
    } else if (*s == '"' || *s == '\'') {
        char q = *s++;
        while (*s && *s != q && *s != '\n') {
            if (*s == '\\' && s[1])
                s++;
            s++;
        }
        if (*s == q)
            s++;
        t.kind = TK_STR;
    } else {
        int len = 1;
        for (int k = 0; PUNCT3[k]; k++)
            if (strncmp(s, PUNCT3[k], 3) == 0)
                len = 3;
        for (int k = 0; len == 1 && PUNCT2[k]; k++)
            if (strncmp(s, PUNCT2[k], 2) == 0)
                len = 2;
        s += len;
    }
    t.len = (int)(s - t.s);
    *p = s;
    return t;
}

/* Skips spaces and backslash-newlines; stops at a newline when stop_nl. */
static const char *skip_ws(const char *s, int *line, int stop_nl)
{
    for (;;) {
        if (*s == '\\' && s[1] == '\n') {
            s += 2;
            (*line)++;
        } else if (*s == '\n' && !stop_nl) {
            s++;
            (*line)++;
        } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f') {
            s++;
        } else {
            return s;
        }
    }
}

typedef struct Lexed {
    char *clean;      /* the source without comments; tokens point into it */
    TokVec raw;       /* tokens outside directives */
    Macro *macros;
    int n_macros;
} Lexed;

/* Parses the rest of a #define line starting at s into a macro. */
static const char *lex_define(Lexed *lx, const char *s, int *line)
{
    s = skip_ws(s, line, 1);
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return s;
    Macro m;
    memset(&m, 0, sizeof m);
    m.name = lex_one(&s, *line);
    TokVec params = {0}, body = {0};
    if (*s == '(') { /* function-like only when '(' touches the name */
        m.function_like = 1;
        s++;
        for (;;) {
            s = skip_ws(s, line, 1);
            if (*s == ')' || *s == '\n' || !*s)
                break;
            Tok t = lex_one(&s, *line);
            if (t.kind == TK_IDENT || tok_is(&t, "..."))
                tv_push(&params, t);
        }
        if (*s == ')')
            s++;
    }
    for (;;) {
        s = skip_ws(s, line, 1);
        if (*s == '\n' || !*s)
            break;
        tv_push(&body, lex_one(&s, *line));
    }
    m.params = params.v;
    m.n_params = params.n;
    m.body = body.v;
    m.n_body = body.n;
    lx->macros = xrealloc(lx->macros, sizeof *lx->macros * (size_t)(lx->n_macros + 1));
    lx->macros[lx->n_macros++] = m;
    return s;
}

static void lex_source(Lexed *lx)
{
    const char *s = lx->clean;
    int line = 1, at_line_start = 1;
    for (;;) {
        s = skip_ws(s, &line, 1);
        if (!*s)
            break;
        if (*s == '\n') {
            s++;
            line++;
            at_line_start = 1;
            continue;
        }
        if (at_line_start && *s == '#') {
            s = skip_ws(s + 1, &line, 1);
            if (strncmp(s, "define", 6) == 0 && !(isalnum((unsigned char)s[6]) || s[6] == '_')) {
                s = lex_define(lx, s + 6, &line);
            } else { /* #include, #pragma, #if...: dropped (pragmas are counted by pattern) */
                while (*s && *s != '\n') {
                    if (*s == '\\' && s[1] == '\n') {
                        s++;
                        line++;
                    }
                    s++;
                }
            }
            continue;
        }
        at_line_start = 0;
        tv_push(&lx->raw, lex_one(&s, line));
    }
}

static Macro *find_macro(Lexed *lx, const Tok *t)
{
    if (t->kind != TK_IDENT)
        return NULL;
    for (int i = lx->n_macros - 1; i >= 0; i--)
        if (lx->macros[i].name.len == t->len && memcmp(lx->macros[i].name.s, t->s, (size_t)t->len) == 0)
            return &lx->macros[i];
    return NULL;
}

/* Index of the token closing the bracket at in[i] ("(", "[" or "{"), or n. */
static int match_close(const Tok *in, int i, int n)
{
    int depth = 0;
    for (int k = i; k < n; k++) {
        if (in[k].kind != TK_PUNCT || in[k].len != 1)
            continue;
        char c = in[k].s[0];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return k;
    }
    return n;
}

/* Expands macros of in[0..n) into out; every produced token gets `line`
 * when line > 0 (a macro's tokens belong to the line that invoked it). */
static int expand(Lexed *lx, const Tok *in, int n, TokVec *out, int depth, int line)
{
    for (int i = 0; i < n; i++) {
        Tok t = in[i];
        if (line > 0)
            t.line = line;
        Macro *m = depth < MACRO_DEPTH ? find_macro(lx, &in[i]) : NULL;
        if (!m || m->active || (m->function_like && !(i + 1 < n && tok_is(&in[i + 1], "(")))) {
            if (out->n >= TOKENS_MAX)
                return -1;
            tv_push(out, t);
            continue;
        }
        TokVec sub = {0};
        int at = line > 0 ? line : in[i].line;
        if (m->function_like) {
            int close = match_close(in, i + 1, n);
            /* argument ranges, split at top-level commas */
            int starts[64], ends[64], na = 0, d = 0, st = i + 2;
            for (int k = i + 2; k <= close && k < n; k++) {
                const Tok *a = &in[k];
                if (a->kind == TK_PUNCT && a->len == 1 && strchr("([{", a->s[0]))
                    d++;
                else if (a->kind == TK_PUNCT && a->len == 1 && strchr(")]}", a->s[0]) && k != close)
                    d--;
                if ((k == close || (d == 0 && tok_is(a, ","))) && na < 64) {
                    starts[na] = st;
                    ends[na++] = k;
                    st = k + 1;
                }
            }
            for (int b = 0; b < m->n_body; b++) {
                int param = -1;
                for (int q = 0; q < m->n_params && m->body[b].kind == TK_IDENT; q++)
                    if (m->params[q].len == m->body[b].len &&
                        memcmp(m->params[q].s, m->body[b].s, (size_t)m->body[b].len) == 0)
                        param = q;
                if (param >= 0 && param < na) {
                    if (expand(lx, in + starts[param], ends[param] - starts[param], &sub, depth + 1, at) != 0) {
                        free(sub.v);
                        return -1;
                    }
                } else if (param < 0) {
                    Tok bt = m->body[b];
                    bt.line = at;
                    tv_push(&sub, bt);
                }
            }
            i = close < n ? close : n - 1;
        } else {
            for (int b = 0; b < m->n_body; b++) {
                Tok bt = m->body[b];
                bt.line = at;
                tv_push(&sub, bt);
            }
        }
        m->active = 1;
        int rc = expand(lx, sub.v, sub.n, out, depth + 1, at);
        m->active = 0;
        free(sub.v);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static void lexed_release(Lexed *lx)
{
    for (int i = 0; i < lx->n_macros; i++) {
        free(lx->macros[i].params);
        free(lx->macros[i].body);
    }
    free(lx->macros);
    free(lx->raw.v);
    free(lx->clean);
}

/* ====================================================================== */
/* Source-wide features (PCRE2)                                            */
/* ====================================================================== */

#define VEC_RE "(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[234]"

static int count_matches(const char *text, const char *pattern)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE, &code, &off, NULL);
    if (!re)
        return 0; /* our own patterns: covered by the tests */
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    size_t len = strlen(text), at = 0;
    int n = 0;
    while (at <= len && pcre2_match(re, (PCRE2_SPTR)text, len, at, 0, md, NULL) > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        n++;
        at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
    }
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return n;
}

static void count_features(const char *clean, SrcFeatures *f)
{
    f->pragma_unroll = count_matches(clean, "^[ \\t]*#[ \\t]*pragma[ \\t]+unroll\\b") +
                       count_matches(clean, "\\b_Pragma[ \\t]*\\([ \\t]*\"unroll");
    f->vector_types = count_matches(clean, "\\b" VEC_RE "\\b");
    f->vector_casts = count_matches(clean, "\\breinterpret_cast[ \\t]*<[^>]*\\b" VEC_RE "\\b[^>]*>") +
                      count_matches(clean, "\\([ \\t]*(?:const[ \\t]+)?" VEC_RE "[ \\t]*(?:const[ \\t]*)?\\*[ \\t]*\\)");
    f->ldg = count_matches(clean, "\\b__ldg[ \\t]*\\(");
    f->shfl = count_matches(clean, "\\b__shfl(?:_up|_down|_xor)?_sync[ \\t]*\\(");
    f->votes = count_matches(clean, "\\b__(?:ballot|any|all|uni)_sync[ \\t]*\\(|\\b__activemask[ \\t]*\\(|"
                                    "\\b__match_(?:any|all)_sync[ \\t]*\\(");
    f->warp_reduce = count_matches(clean, "\\b__reduce_(?:add|min|max|and|or|xor)_sync[ \\t]*\\(");
    f->syncthreads = count_matches(clean, "\\b__syncthreads(?:_count|_and|_or)?[ \\t]*\\(");
    f->syncwarp = count_matches(clean, "\\b__syncwarp[ \\t]*\\(");
    f->atomics = count_matches(clean, "\\batomic[A-Z][A-Za-z]*[ \\t]*\\(");
    f->extern_shared_decls = count_matches(clean, "\\bextern[ \\t]+__shared__\\b");
    f->shared_decls = count_matches(clean, "\\b__shared__\\b") - f->extern_shared_decls;
}

/* ====================================================================== */
/* Types                                                                   */
/* ====================================================================== */

typedef struct StructType {
    const Tok *name;
    long long size; /* -1 unknown */
    int align;
} StructType;

/* Bytes of a CUDA vector type name ("float4": 16), 0 when it is not one. */
static int vector_type_bytes(const Tok *t, int *align)
{
    static const struct {
        const char *base;
        int size;
    } bases[] = {{"char", 1},  {"uchar", 1},     {"short", 2},      {"ushort", 2}, {"int", 4},
                 {"uint", 4},  {"long", 8},      {"ulong", 8},      {"longlong", 8}, {"ulonglong", 8},
                 {"float", 4}, {"double", 8},    {NULL, 0}};
    if (t->kind != TK_IDENT || t->len < 2)
        return 0;
    char last = t->s[t->len - 1];
    if (last < '1' || last > '4')
        return 0;
    for (int i = 0; bases[i].base; i++)
        if ((int)strlen(bases[i].base) == t->len - 1 && memcmp(bases[i].base, t->s, (size_t)t->len - 1) == 0) {
            int n = last - '0', size = bases[i].size * n;
            /* alignment as in vector_types.h: 3-vectors are element-aligned */
            *align = n == 3 ? bases[i].size : size > 16 ? 16 : size;
            return size;
        }
    return 0;
}

/* Bytes of a scalar type word ("float": 4), 0 unknown. */
static int scalar_type_bytes(const Tok *t)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {{"char", 1},     {"bool", 1},      {"int8_t", 1},   {"uint8_t", 1},  {"__nv_fp8_e4m3", 1},
                 {"__nv_fp8_e5m2", 1}, {"short", 2}, {"int16_t", 2},  {"uint16_t", 2}, {"__half", 2},
                 {"half", 2},     {"__nv_bfloat16", 2}, {"int", 4},   {"unsigned", 4}, {"signed", 4},
                 {"float", 4},    {"int32_t", 4},   {"uint32_t", 4}, {"__half2", 4},  {"half2", 4},
                 {"__nv_bfloat162", 4}, {"long", 8}, {"double", 8},   {"size_t", 8},   {"ptrdiff_t", 8},
                 {"int64_t", 8},  {"uint64_t", 8},  {"intptr_t", 8}, {"uintptr_t", 8}, {NULL, 0}};
    for (int i = 0; types[i].name; i++)
        if (tok_is(t, types[i].name))
            return types[i].size;
    return 0;
}

static const char *const QUALIFIERS[] = {"const",   "volatile", "static",        "extern", "register", "__shared__",
                                         "__device__", "__constant__", "constexpr", "inline", "__restrict__",
                                         "__restrict", "restrict", "struct", "__forceinline__", "__noinline__",
                                         "__managed__", "typename", NULL};

static int is_qualifier(const Tok *t)
{
    for (int i = 0; QUALIFIERS[i]; i++)
        if (tok_is(t, QUALIFIERS[i]))
            return 1;
    return 0;
}

static const char *const KEYWORDS[] = {"if",     "else",   "for",      "while",  "do",     "switch", "case",
                                       "default", "return", "break",   "continue", "goto", "sizeof", "new",
                                       "delete", "throw",  "try",      "catch",  "template", "typedef",
                                       "using",  "namespace", "operator", NULL};

static int is_keyword(const Tok *t)
{
    for (int i = 0; KEYWORDS[i]; i++)
        if (tok_is(t, KEYWORDS[i]))
            return 1;
    return 0;
}

/* ====================================================================== */
/* Abstract values                                                         */
/* ====================================================================== */

/* How a value varies across the lanes of a warp, from least to most. */
typedef enum VKind {
    VK_NONE,      /* nothing assigned yet (bottom) */
    VK_CONST,     /* a known integer */
    VK_UNIFORM,   /* the same in every lane */
    VK_QUASI,     /* piecewise constant in the lane: lane / k, data loaded at a quasi-uniform index */
    VK_AFFINE,    /* coef * lane + uniform */
    VK_INDIRECT,  /* data loaded at a lane-dependent address */
    VK_IRREGULAR  /* nonlinear in the lane */
} VKind;

enum { BASE_NONE = -1, BASE_SHARED = -2, BASE_GLOBAL = -3, BASE_UNKNOWN = -4, BASE_CONSTMEM = -5 };
/* Bases >= 0 are the kernel's parameters; >= GLOBALVAR_BASE file-scope __device__ arrays. */
#define GLOBALVAR_BASE 1000
#define MAX_FACTORS 3

/* A monomial c * f[0] * ... * f[nf-1] of run-time symbols (kernel
 * parameters, blockDim, gridDim) is kept for uniform values and for the
 * lane coefficient, so that a stride such as `incx` or `gridDim.x` can be
 * evaluated once a launch and a config give the symbols values. */
typedef struct Val {
    int kind;   /* VK_*; for a pointer: how its offset varies */
    int tdep;   /* depends on some thread index (any dimension) or on data loaded at one */
    int sym;    /* VK_AFFINE: the coefficient is not a monomial we follow */
    int base;   /* what it points into (BASE_*, a parameter index), BASE_NONE for a non-pointer */
    int elem;   /* pointers: bytes per element, 0 unknown */
    int vec;    /* pointers: the element is a vector type */
    long long c;/* VK_CONST: the value; VK_UNIFORM with nf > 0 and VK_AFFINE: the monomial's constant */
    int nf;     /* factors of the monomial (VK_UNIFORM: 0 means an unknown uniform value) */
    int f[MAX_FACTORS];
} Val;

static Val v_make(int kind)
{
    Val v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    v.base = BASE_NONE;
    return v;
}
static Val v_const(long long c)
{
    Val v = v_make(VK_CONST);
    v.c = c;
    return v;
}
static Val v_uniform(void) { return v_make(VK_UNIFORM); }
/* A run-time symbol as a uniform value. */
static Val v_symbol(int sym)
{
    Val v = v_make(VK_UNIFORM);
    v.c = 1;
    v.nf = 1;
    v.f[0] = sym;
    return v;
}

static int lane_dep(Val v) { return v.kind >= VK_QUASI; }
static int is_global_base(int b) { return b >= 0 || b == BASE_GLOBAL; }

/* Is v a monomial (a constant, or a uniform value with factors)? */
static int is_mono(const Val *v) { return v->kind == VK_CONST || (v->kind == VK_UNIFORM && v->nf > 0); }

static int same_factors(const Val *a, const Val *b)
{
    if (a->nf != b->nf)
        return 0;
    for (int i = 0; i < a->nf; i++)
        if (a->f[i] != b->f[i])
            return 0;
    return 1;
}

/* r's monomial = a's * b's; 0 when it does not fit (r then unchanged). */
static int mono_mul(Val *r, const Val *a, const Val *b)
{
    long long p;
    if (a->nf + b->nf > MAX_FACTORS || __builtin_mul_overflow(a->c, b->c, &p))
        return 0;
    int f[2 * MAX_FACTORS], n = 0;
    for (int i = 0; i < a->nf; i++)
        f[n++] = a->f[i];
    for (int i = 0; i < b->nf; i++)
        f[n++] = b->f[i];
    for (int i = 1; i < n; i++) /* sorted, so equal monomials compare equal */
        for (int j = i; j > 0 && f[j - 1] > f[j]; j--) {
            int t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    r->c = p;
    r->nf = n;
    memcpy(r->f, f, sizeof(int) * (size_t)n);
    return 1;
}

static void drop_mono(Val *v)
{
    v->c = 0;
    v->nf = 0;
}

/* Copies the lane coefficient of x into r. */
static void copy_coef(Val *r, const Val *x)
{
    r->c = x->c;
    r->sym = x->sym;
    r->nf = x->nf;
    memcpy(r->f, x->f, sizeof r->f);
}

static int val_eq(Val a, Val b)
{
    return a.kind == b.kind && a.tdep == b.tdep && a.sym == b.sym && a.base == b.base && a.elem == b.elem &&
           a.vec == b.vec && a.c == b.c && same_factors(&a, &b);
}

static int join_base(int a, int b)
{
    if (a == b || b == BASE_NONE)
        return a;
    if (a == BASE_NONE)
        return b;
    if (is_global_base(a) && is_global_base(b))
        return BASE_GLOBAL;
    return BASE_UNKNOWN;
}

/* The least value covering both (flow-insensitive merge of assignments). */
static Val v_join(Val a, Val b)
{
    if (a.kind == VK_NONE)
        return b;
    if (b.kind == VK_NONE)
        return a;
    Val r = a.kind >= b.kind ? a : b;
    if (a.kind == b.kind) {
        if ((a.kind == VK_CONST || a.kind == VK_UNIFORM) && (a.c != b.c || !same_factors(&a, &b))) {
            r.kind = VK_UNIFORM;
            drop_mono(&r);
        }
        if (a.kind == VK_AFFINE && (a.sym || b.sym || a.c != b.c || !same_factors(&a, &b))) {
            r.sym = 1;
            drop_mono(&r);
        }
    } else if (r.kind != VK_AFFINE) {
        drop_mono(&r);
    }
    r.tdep = a.tdep | b.tdep;
    r.base = join_base(a.base, b.base);
    r.elem = a.elem == b.elem ? a.elem : a.elem ? a.elem : b.elem;
    r.vec = a.vec | b.vec;
    return r;
}

/* Loses what may keep changing forever (constants, coefficients). */
static Val v_widen(Val v)
{
    if (v.kind == VK_CONST)
        v.kind = VK_UNIFORM;
    if (v.kind == VK_AFFINE)
        v.sym = 1;
    drop_mono(&v);
    return v;
}

/* The combination of a and b by a nonlinear operation. */
static Val v_nonlinear(Val a, Val b)
{
    Val r = v_make(VK_UNIFORM);
    int k = a.kind > b.kind ? a.kind : b.kind;
    if (a.kind == VK_AFFINE || b.kind == VK_AFFINE || k == VK_IRREGULAR)
        r.kind = k == VK_INDIRECT ? VK_INDIRECT : VK_IRREGULAR;
    else if (k >= VK_QUASI)
        r.kind = k;
    r.tdep = a.tdep | b.tdep;
    return r;
}

static Val v_negate(Val v)
{
    if (v.kind == VK_CONST || v.kind == VK_AFFINE || is_mono(&v))
        v.c = -v.c;
    return v;
}

static Val v_add(Val a, Val b, int negate_b)
{
    if (a.kind == VK_NONE)
        a = v_uniform();
    if (b.kind == VK_NONE)
        b = v_uniform();
    if (negate_b)
        b = v_negate(b);
    Val r = v_make(VK_UNIFORM);
    r.tdep = a.tdep | b.tdep;
    /* pointer arithmetic: the pointer's base survives p + i and p - i */
    if (a.base != BASE_NONE && b.base == BASE_NONE) {
        r.base = a.base;
        r.elem = a.elem;
        r.vec = a.vec;
    } else if (b.base != BASE_NONE && a.base == BASE_NONE && !negate_b) {
        r.base = b.base;
        r.elem = b.elem;
        r.vec = b.vec;
    }
    long long s;
    if (is_mono(&a) && is_mono(&b)) {
        if (same_factors(&a, &b) && !__builtin_add_overflow(a.c, b.c, &s)) {
            r.kind = a.nf ? VK_UNIFORM : VK_CONST;
            r.c = s;
            r.nf = a.nf;
            memcpy(r.f, a.f, sizeof r.f);
            if (r.kind == VK_UNIFORM && s == 0)
                r.kind = VK_CONST, r.nf = 0;
        }
        return r;
    }
    int k = a.kind > b.kind ? a.kind : b.kind;
    if (k <= VK_UNIFORM)
        return r;
    r.kind = k;
    if (k == VK_AFFINE) {
        if (a.kind == VK_AFFINE && b.kind == VK_AFFINE) {
            if (!a.sym && !b.sym && same_factors(&a, &b) && !__builtin_add_overflow(a.c, b.c, &s)) {
                copy_coef(&r, &a);
                r.c = s;
                if (s == 0) { /* lane - lane: the same in every lane */
                    r.kind = VK_UNIFORM;
                    drop_mono(&r);
                }
            } else {
                r.sym = 1;
            }
        } else {
            copy_coef(&r, a.kind == VK_AFFINE ? &a : &b);
        }
    }
    return r;
}

static Val v_mul(Val a, Val b)
{
    if (a.kind == VK_NONE)
        a = v_uniform();
    if (b.kind == VK_NONE)
        b = v_uniform();
    Val r = v_make(VK_UNIFORM);
    r.tdep = a.tdep | b.tdep;
    if ((a.kind == VK_CONST && a.c == 0) || (b.kind == VK_CONST && b.c == 0))
        return v_const(0);
    if (is_mono(&a) && is_mono(&b)) {
        if (mono_mul(&r, &a, &b))
            r.kind = r.nf ? VK_UNIFORM : VK_CONST;
        return r;
    }
    const Val *x = a.kind >= b.kind ? &a : &b, *y = a.kind >= b.kind ? &b : &a;
    if (x->kind <= VK_UNIFORM)
        return r;
    if (x->kind == VK_QUASI && y->kind <= VK_QUASI) {
        r.kind = VK_QUASI;
        return r;
    }
    if (x->kind == VK_AFFINE && y->kind <= VK_UNIFORM) {
        r.kind = VK_AFFINE;
        if (x->sym || !is_mono(y) || !mono_mul(&r, x, y)) {
            r.sym = 1;
            drop_mono(&r);
        }
        return r;
    }
    if (x->kind == VK_INDIRECT && y->kind <= VK_QUASI) {
        r.kind = VK_INDIRECT;
        return r;
    }
    return v_nonlinear(a, b);
}

static Val v_div(Val a, Val b)
{
    if (a.kind == VK_NONE)
        a = v_uniform();
    if (b.kind == VK_NONE)
        b = v_uniform();
    Val r = v_make(VK_UNIFORM);
    r.tdep = a.tdep | b.tdep;
    if (b.kind == VK_CONST && b.c != 0) {
        if (a.kind == VK_CONST) {
            if (!(a.c == LLONG_MIN && b.c == -1)) {
                r.kind = VK_CONST;
                r.c = a.c / b.c;
            }
            return r;
        }
        if (a.kind == VK_AFFINE && !a.sym) {
            r.kind = VK_AFFINE;
            if (a.c % b.c == 0) {
                copy_coef(&r, &a);
                r.c = a.c / b.c;
            } else if (a.nf == 0) {
                /* |c| < |k|: neighbours share the quotient; otherwise the
                 * stride is about c / k */
                r.kind = llabs(a.c) < llabs(b.c) ? VK_QUASI : VK_AFFINE;
                r.c = a.c / b.c;
            } else {
                r.sym = 1;
            }
            return r;
        }
        r.kind = a.kind <= VK_UNIFORM ? VK_UNIFORM : a.kind;
        r.sym = a.sym;
        return r;
    }
    if (b.kind <= VK_UNIFORM) {
        /* a run-time divisor: assumed at least the stride (i / n with i the
         * lane index and n a row length), so a constant stride becomes
         * quasi-uniform; a run-time stride is not followed */
        if (a.kind == VK_AFFINE && !a.sym && a.nf == 0)
            r.kind = VK_QUASI;
        else
            r.kind = a.kind <= VK_UNIFORM ? VK_UNIFORM : a.kind;
        r.sym = a.kind == VK_AFFINE;
        return r;
    }
    if (b.kind == VK_QUASI && a.kind <= VK_QUASI) {
        r.kind = VK_QUASI;
        return r;
    }
    return v_nonlinear(a, b);
}

static Val v_mod(Val a, Val b)
{
    if (a.kind == VK_NONE)
        a = v_uniform();
    if (b.kind == VK_NONE)
        b = v_uniform();
    Val r = v_make(VK_UNIFORM);
    r.tdep = a.tdep | b.tdep;
    if (b.kind == VK_CONST && b.c != 0) {
        if (a.kind == VK_CONST) {
            if (!(a.c == LLONG_MIN && b.c == -1)) {
                r.kind = VK_CONST;
                r.c = a.c % b.c;
            }
            return r;
        }
        if (a.kind == VK_AFFINE && !a.sym && a.nf == 0) {
            /* within each run of |k| / |c| lanes the stride is kept */
            long long c = a.c % b.c;
            if (c != 0) {
                r.kind = VK_AFFINE;
                r.c = c;
            }
            return r;
        }
    } else if (b.kind > VK_UNIFORM) {
        if (b.kind == VK_QUASI && a.kind <= VK_QUASI) {
            r.kind = VK_QUASI;
            return r;
        }
        return v_nonlinear(a, b);
    }
    /* i % n with a run-time n: the stride of i inside each run; a run-time
     * stride modulo anything is not followed */
    r.kind = a.kind <= VK_UNIFORM ? VK_UNIFORM : a.kind;
    if (a.kind == VK_AFFINE) {
        copy_coef(&r, &a);
        if (a.nf)
            r.sym = 1, drop_mono(&r);
    }
    return r;
}

static Val v_shift(Val a, Val b, int left)
{
    if (b.kind == VK_CONST && b.c >= 0 && b.c < 62) {
        Val p = v_const(1LL << b.c);
        p.tdep = b.tdep;
        return left ? v_mul(a, p) : v_div(a, p);
    }
    if (b.kind <= VK_UNIFORM) {
        Val r = a;
        r.base = BASE_NONE;
        r.tdep |= b.tdep;
        if (r.kind == VK_CONST)
            r.kind = VK_UNIFORM;
        if (r.kind == VK_AFFINE) {
            if (left || r.sym || r.nf)
                r.sym = 1;
            else
                r.kind = VK_QUASI;
        }
        drop_mono(&r);
        return r;
    }
    return v_nonlinear(a, b);
}

/* a & b: masks with low bits set act as a modulus, masks clearing low bits
 * as rounding down (quasi-uniform). */
static Val v_and(Val a, Val b)
{
    if (a.kind == VK_CONST && b.kind == VK_CONST)
        return v_const(a.c & b.c);
    const Val *m = b.kind == VK_CONST ? &b : a.kind == VK_CONST ? &a : NULL;
    const Val *x = m == &b ? &a : &b;
    if (m && x->kind <= VK_UNIFORM) {
        Val r = v_uniform();
        r.tdep = x->tdep;
        return r;
    }
    if (m && m->c > 0 && ((m->c + 1) & m->c) == 0)
        return v_mod(*x, v_const(m->c + 1));
    if (m && m->c < 0 && ((-m->c) & (-m->c - 1)) == 0) {
        Val r = *x;
        r.base = BASE_NONE;
        if (r.kind == VK_AFFINE && !r.sym && r.nf == 0 && llabs(r.c) < -m->c)
            r.kind = VK_QUASI;
        return r;
    }
    if (a.kind <= VK_UNIFORM && b.kind <= VK_UNIFORM) {
        Val r = v_uniform();
        r.tdep = a.tdep | b.tdep;
        return r;
    }
    return v_nonlinear(a, b);
}

/* a | b, a ^ b: with a uniform operand, a permutation of nearby addresses
 * (lane ^ 1), so the stride is kept. */
static Val v_or(Val a, Val b, char op)
{
    if (a.kind == VK_CONST && b.kind == VK_CONST)
        return v_const(op == '|' ? (a.c | b.c) : (a.c ^ b.c));
    if (a.kind <= VK_UNIFORM || b.kind <= VK_UNIFORM) {
        Val r = v_add(a, b, 0);
        r.base = BASE_NONE;
        if (r.kind <= VK_UNIFORM) {
            r.kind = VK_UNIFORM;
            drop_mono(&r);
        }
        return r;
    }
    return v_nonlinear(a, b);
}

/* Comparisons and logical operators: a flag per lane. */
static Val v_cmp(Val a, Val b)
{
    Val r = v_make(VK_UNIFORM);
    r.tdep = a.tdep | b.tdep;
    int k = a.kind > b.kind ? a.kind : b.kind;
    if (k >= VK_INDIRECT)
        r.kind = VK_INDIRECT;
    else if (k >= VK_QUASI)
        r.kind = VK_QUASI;
    return r;
}

/* The value of memory read at total offset t: the same for all lanes when
 * the address is; piecewise constant for a quasi-uniform address. */
static Val v_loaded(Val t)
{
    Val r = v_make(t.kind <= VK_UNIFORM ? VK_UNIFORM : t.kind == VK_QUASI ? VK_QUASI : VK_INDIRECT);
    r.tdep = t.tdep;
    return r;
}

/* ====================================================================== */
/* Functions and file-scope variables                                      */
/* ====================================================================== */

typedef struct Param {
    const Tok *name; /* NULL when unnamed */
    int pointer;     /* a pointer or array parameter */
    int is_const;    /* const before the '*' */
    int restrict_;
    int elem;        /* bytes per element (pointers) or of the value */
    int vec;
} Param;

typedef struct Func {
    const Tok *name;
    int is_kernel;
    int line;
    int lb_threads, lb_blocks; /* __launch_bounds__ */
    Param *params;
    int n_params;
    int body, body_end;         /* tokens of the body, without its braces */
    int active;                 /* on the current call stack */
} Func;

typedef struct GlobalVar {
    const Tok *name;
    int base;     /* BASE_SHARED, BASE_CONSTMEM or GLOBALVAR_BASE + k */
    int elem;
    int array;
    long long bytes;
    int line;
} GlobalVar;

typedef struct MemoEntry {
    int func;
    int n;
    Val args[8];
    Val ret;
} MemoEntry;

typedef struct An {
    const Tok *t;
    int n;
    Func *funcs;
    int n_funcs;
    GlobalVar *globals;
    int n_globals;
    StructType *structs;
    int n_structs;
    MemoEntry *memo;
    int n_memo;
    SrcKernel *k;      /* the kernel whose facts are being recorded */
    int kernel_func;   /* its index in funcs */
    int lane;          /* lane dimension of the kernel under analysis */
    int early_exit;    /* line of the first thread-dependent return seen in the record pass */
} An;

static StructType *find_struct(An *an, const Tok *t)
{
    for (int i = 0; i < an->n_structs; i++)
        if (an->structs[i].name->len == t->len && memcmp(an->structs[i].name->s, t->s, (size_t)t->len) == 0)
            return &an->structs[i];
    return NULL;
}

static int find_func(An *an, const Tok *t)
{
    for (int i = 0; i < an->n_funcs; i++)
        if (an->funcs[i].name->len == t->len && memcmp(an->funcs[i].name->s, t->s, (size_t)t->len) == 0)
            return i;
    return -1;
}

/* A type word: a scalar, vector or struct type name (not a qualifier). */
static int is_type_word(An *an, const Tok *t)
{
    int align;
    return t->kind == TK_IDENT &&
           (scalar_type_bytes(t) || vector_type_bytes(t, &align) || find_struct(an, t) || tok_is(t, "void") ||
            tok_is(t, "auto") || (t->len > 2 && t->s[t->len - 2] == '_' && t->s[t->len - 1] == 't'));
}

/* Size and alignment of the type named by the words t[a..b) (qualifiers
 * skipped, "unsigned long long" understood); 0 when unknown. */
static long long type_bytes(An *an, const Tok *t, int a, int b, int *align_out, int *vec_out)
{
    long long size = 0;
    int align = 0, longs = 0, sized = 0;
    *vec_out = 0;
    for (int i = a; i < b; i++) {
        int va;
        if (t[i].kind != TK_IDENT || is_qualifier(&t[i]))
            continue;
        if (tok_is(&t[i], "long")) {
            longs++;
        } else if (tok_is(&t[i], "unsigned") || tok_is(&t[i], "signed")) {
            sized |= 1;
        } else if (vector_type_bytes(&t[i], &va)) {
            size = vector_type_bytes(&t[i], &va);
            align = va;
            *vec_out = 1;
        } else if (scalar_type_bytes(&t[i])) {
            size = scalar_type_bytes(&t[i]);
            align = (int)size;
        } else {
            StructType *st = find_struct(an, &t[i]);
            if (st) {
                size = st->size > 0 ? st->size : 0;
                align = st->align;
            }
        }
    }
    if (!size && (longs || sized)) {
        size = longs ? 8 : 4;
        align = (int)size;
    } else if (longs && size == 4) { /* long int */
        size = 8;
        align = 8;
    }
    *align_out = align ? align : 1;
    return size;
}

/* ====================================================================== */
/* The interpreter                                                         */
/* ====================================================================== */

typedef struct Slot {
    const Tok *name;
    Val v;          /* the variable's value (pointers: what they point into; arrays: their elements) */
    int array;      /* a local array: subscripts read and write v */
} Slot;

typedef struct Ctx {
    An *an;
    Func *fn;
    Slot *slots;
    int n_slots, cap_slots;
    int *scope;      /* slot indices visible, innermost last */
    int n_scope, cap_scope;
    int next_slot;   /* declarations seen this pass: slot ids are stable across passes */
    int changed;
    int pass;
    int record;      /* the final pass: facts go to an->k */
    int ctl;         /* enclosing statements (blocks, branches, loops) inside the function body */
    int div;         /* enclosing thread-dependent conditions */
    int div_line;    /* the innermost one's line */
    int depth;       /* __device__ call depth */
    int call_line;   /* the kernel's line of the outermost call, 0 in the kernel itself */
    Val ret;         /* join of returned values */
    int pos, lim;    /* the expression parser's cursor */
} Ctx;

/* What an expression designates, besides its value (for assignments). */
typedef enum LvKind { LV_NONE, LV_SLOT, LV_MEM } LvKind;
typedef struct Lv {
    LvKind kind;
    int slot;
    Val ptr;        /* LV_MEM: the address (base and total offset) */
    int line;
    int from, to;   /* LV_MEM: tokens of the index expression */
} Lv;

static const Tok *tk(Ctx *cx, int i) { return &cx->an->t[i]; }
static int at(Ctx *cx, const char *s) { return cx->pos < cx->lim && tok_is(tk(cx, cx->pos), s); }
static int at_tok(Ctx *cx, int i, const char *s) { return i < cx->lim && tok_is(tk(cx, i), s); }

/* ---- slots and scopes ---- */

static int slot_lookup(Ctx *cx, const Tok *name)
{
    for (int i = cx->n_scope - 1; i >= 0; i--) {
        const Tok *s = cx->slots[cx->scope[i]].name;
        if (s && s->len == name->len && memcmp(s->s, name->s, (size_t)name->len) == 0)
            return cx->scope[i];
    }
    return -1;
}

static void scope_push_slot(Ctx *cx, int slot)
{
    if (cx->n_scope == cx->cap_scope) {
        cx->cap_scope = cx->cap_scope ? 2 * cx->cap_scope : 64;
        cx->scope = xrealloc(cx->scope, sizeof *cx->scope * (size_t)cx->cap_scope);
    }
    cx->scope[cx->n_scope++] = slot;
}

/* Joins v into slot s; notes a change for the fixpoint. */
static void slot_assign(Ctx *cx, int s, Val v)
{
    Val j = v_join(cx->slots[s].v, v);
    if (!val_eq(j, cx->slots[s].v)) {
        if (cx->pass >= PASSES_WIDEN)
            j = v_widen(j);
        if (!val_eq(j, cx->slots[s].v)) {
            cx->slots[s].v = j;
            cx->changed = 1;
        }
    }
}

/* The slot of the next declaration (the same id every pass). */
static int slot_declare(Ctx *cx, const Tok *name, int array)
{
    int id = cx->next_slot++;
    if (id >= cx->n_slots) {
        if (cx->n_slots == cx->cap_slots) {
            cx->cap_slots = cx->cap_slots ? 2 * cx->cap_slots : 64;
            cx->slots = xrealloc(cx->slots, sizeof *cx->slots * (size_t)cx->cap_slots);
        }
        cx->slots[cx->n_slots].name = name;
        cx->slots[cx->n_slots].v = v_make(VK_NONE);
        cx->slots[cx->n_slots].array = array;
        cx->n_slots++;
        cx->changed = 1;
    }
    scope_push_slot(cx, id);
    return id;
}

/* ---- recording (final pass only) ---- */

static void kernel_add_access(Ctx *cx, const Lv *lv, SrcAccessKind kind)
{
    An *an = cx->an;
    SrcKernel *k = an->k;
    Val t = lv->ptr;
    if (!cx->record || !is_global_base(t.base))
        return;
    k->accesses = xrealloc(k->accesses, sizeof *k->accesses * (size_t)(k->n_accesses + 1));
    SrcAccess *a = &k->accesses[k->n_accesses++];
    memset(a, 0, sizeof *a);
    a->line = lv->line;
    a->call_line = cx->call_line;
    a->kind = kind;
    a->elem_bytes = t.elem;
    if (t.base >= GLOBALVAR_BASE)
        snprintf(a->param, sizeof a->param, "%.*s", an->globals[t.base - GLOBALVAR_BASE].name->len,
                 an->globals[t.base - GLOBALVAR_BASE].name->s);
    else if (t.base >= 0 && t.base < an->funcs[an->kernel_func].n_params &&
             an->funcs[an->kernel_func].params[t.base].name)
        snprintf(a->param, sizeof a->param, "%.*s", an->funcs[an->kernel_func].params[t.base].name->len,
                 an->funcs[an->kernel_func].params[t.base].name->s);
    else
        snprintf(a->param, sizeof a->param, "?");
    /* the index as written */
    StrBuf sb = STRBUF_INIT;
    for (int i = lv->from; i < lv->to && sb.len < sizeof a->index; i++) {
        const Tok *x = &an->t[i];
        const Tok *prev = i > lv->from ? &an->t[i - 1] : NULL;
        int glue = !prev || tok_is(x, ")") || tok_is(x, "]") || tok_is(x, "[") || tok_is(x, ".") ||
                   tok_is(x, ",") || tok_is(prev, "(") || tok_is(prev, "[") || tok_is(prev, ".") ||
                   (tok_is(x, "(") && prev->kind == TK_IDENT) || (i == lv->from + 1 && tok_is(prev, "&"));
        if (!glue)
            sb_putc(&sb, ' ');
        sb_append_n(&sb, x->s, (size_t)x->len);
    }
    snprintf(a->index, sizeof a->index, "%s", sb_str(&sb));
    sb_release(&sb);
    switch (t.kind) {
    case VK_NONE:
    case VK_CONST:
    case VK_UNIFORM:
        a->shape = SRC_SHAPE_UNIFORM;
        break;
    case VK_QUASI:
        a->shape = SRC_SHAPE_QUASI;
        break;
    case VK_AFFINE:
        a->shape = SRC_SHAPE_AFFINE;
        a->coef = t.c;
        a->unknown_stride = t.sym;
        a->n_factors = t.sym ? 0 : t.nf;
        for (int i = 0; i < a->n_factors; i++)
            a->factors[i] = t.f[i];
        break;
    case VK_INDIRECT:
        a->shape = SRC_SHAPE_INDIRECT;
        break;
    default:
        a->shape = SRC_SHAPE_IRREGULAR;
        break;
    }
    if (t.vec)
        k->vector_accesses++;
}

/* A pending memory designation becomes a load when nobody assigns to it. */
static void lv_load(Ctx *cx, Lv *lv)
{
    if (lv->kind == LV_MEM)
        kernel_add_access(cx, lv, SRC_LOAD);
    lv->kind = LV_NONE;
}

static void add_risk(SrcBarrierRisk **v, int *n, int line, int cond_line, int call_line)
{
    for (int i = 0; i < *n; i++)
        if ((*v)[i].line == line && (*v)[i].call_line == call_line)
            return;
    *v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
    (*v)[*n].line = line;
    (*v)[*n].cond_line = cond_line;
    (*v)[*n].call_line = call_line;
    (*n)++;
}

static void barrier(Ctx *cx, int line)
{
    if (!cx->record)
        return;
    SrcKernel *k = cx->an->k;
    k->syncthreads++;
    if (cx->div > 0)
        add_risk(&k->divergent, &k->n_divergent, line, cx->div_line, cx->call_line);
    else if (cx->an->early_exit)
        add_risk(&k->early_exit, &k->n_early_exit, line, cx->an->early_exit, cx->call_line);
}

/* ---- expressions ---- */

static Val parse_assign(Ctx *cx, Lv *lv);
static Val parse_comma(Ctx *cx);
static Val parse_unary(Ctx *cx, Lv *lv);
static void walk_range(Ctx *cx, int from, int to);
static Val call_function(Ctx *cx, int f, Val *args, int n, int line);

/* Skips a balanced bracket group starting at cx->pos. */
static void skip_group(Ctx *cx)
{
    int close = match_close(cx->an->t, cx->pos, cx->lim);
    cx->pos = close < cx->lim ? close + 1 : cx->lim;
}

/* Is t[i..) a parenthesised type followed by an operand (a C cast)?
 * Returns the index of ')' or -1. */
static int cast_end(Ctx *cx, int i)
{
    An *an = cx->an;
    if (!at_tok(cx, i, "("))
        return -1;
    int j = i + 1, words = 0;
    for (; j < cx->lim && !tok_is(&an->t[j], ")"); j++) {
        const Tok *x = &an->t[j];
        if (tok_is(x, "long") || tok_is(x, "unsigned") || tok_is(x, "signed") || tok_is(x, "short") ||
            (is_type_word(an, x) && slot_lookup(cx, x) < 0))
            words++;
        else if (!(is_qualifier(x) || tok_is(x, "*") || tok_is(x, "&")))
            return -1;
    }
    if (j + 1 >= cx->lim || !words)
        return -1;
    const Tok *nx = &an->t[j + 1];
    /* (T) followed by something that starts an operand */
    if (nx->kind != TK_PUNCT || tok_is(nx, "(") || tok_is(nx, "-") || tok_is(nx, "+") || tok_is(nx, "!") ||
        tok_is(nx, "~") || tok_is(nx, "*") || tok_is(nx, "&") || tok_is(nx, "{") || tok_is(nx, "++") ||
        tok_is(nx, "--"))
        return j;
    return -1;
}

/* Applies a cast to type t[a..b) to v: pointer casts change the element. */
static Val apply_cast(Ctx *cx, int a, int b, Val v)
{
    int pointer = 0;
    for (int q = a; q < b; q++)
        pointer |= tok_is(tk(cx, q), "*");
    if (pointer && v.base != BASE_NONE) {
        int align, vec;
        long long bytes = type_bytes(cx->an, cx->an->t, a, b, &align, &vec);
        /* the offset so far was in the old elements: keep its kind, not its unit */
        if (bytes && v.elem && bytes != v.elem && v.kind == VK_AFFINE && !v.sym) {
            long long c = v.c * v.elem;
            v.c = c % bytes == 0 ? c / bytes : c;
        }
        v.elem = (int)bytes;
        v.vec = vec;
    } else if (!pointer) {
        v.base = BASE_NONE;
        v.elem = 0;
        v.vec = 0;
    }
    return v;
}

static Val builtin_index(Ctx *cx, const Tok *obj, const Tok *field)
{
    int dim = tok_is(field, "x") ? 0 : tok_is(field, "y") ? 1 : tok_is(field, "z") ? 2 : -1;
    Val v = v_uniform();
    if (dim >= 0 && tok_is(obj, "blockDim"))
        v = v_symbol(SRC_SYM_BLOCKDIM + dim);
    if (dim >= 0 && tok_is(obj, "gridDim"))
        v = v_symbol(SRC_SYM_GRIDDIM + dim);
    if (tok_is(obj, "threadIdx")) {
        v.tdep = 1;
        if (dim == cx->an->lane) {
            v.kind = VK_AFFINE;
            v.c = 1;
        }
    }
    return v;
}

static int is_builtin_index(const Tok *t)
{
    return tok_is(t, "threadIdx") || tok_is(t, "blockIdx") || tok_is(t, "blockDim") || tok_is(t, "gridDim");
}

/* Subscripting v (designated by lv_in) with idx. */
static Val subscript(Ctx *cx, Val v, Lv *lv, Val idx, int line, int from, int to)
{
    if (lv->kind == LV_SLOT && cx->slots[lv->slot].array && cx->slots[lv->slot].v.base == BASE_NONE) {
        /* a local array: its elements share one value */
        Val r = cx->slots[lv->slot].v;
        r.tdep |= idx.tdep;
        return r;
    }
    if (v.base == BASE_NONE) {
        lv_load(cx, lv);
        lv->kind = LV_NONE;
        Val r = v_join(v, v_loaded(idx));
        r.base = BASE_NONE;
        return r;
    }
    /* memory: the address is the pointer's offset plus the index */
    lv_load(cx, lv);
    Val addr = v_add(v, idx, 0);
    addr.base = v.base;
    addr.elem = v.elem;
    addr.vec = v.vec;
    lv->kind = LV_MEM;
    lv->ptr = addr;
    lv->line = line;
    lv->from = from;
    lv->to = to;
    return v_loaded(addr);
}

static int name_starts(const Tok *t, const char *prefix)
{
    size_t n = strlen(prefix);
    return t->kind == TK_IDENT && t->len >= (int)n && memcmp(t->s, prefix, n) == 0;
}

static int is_warp_op(const Tok *t)
{
    static const char *const names[] = {"__shfl_sync",  "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                        "__ballot_sync", "__any_sync",    "__all_sync",       "__uni_sync",
                                        "__activemask", "__match_any_sync", "__match_all_sync", NULL};
    for (int i = 0; names[i]; i++)
        if (tok_is(t, names[i]))
            return 1;
    return name_starts(t, "__reduce_") && t->len > 5 && memcmp(t->s + t->len - 5, "_sync", 5) == 0;
}

/* __ldg and the other cache-hinted loads and stores. */
static int is_cache_op(const Tok *t)
{
    static const char *const names[] = {"__ldg",  "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv",
                                        "__stcg", "__stcs", "__stwb", "__stwt", NULL};
    for (int i = 0; names[i]; i++)
        if (tok_is(t, names[i]))
            return 1;
    return 0;
}

/* A call of the function named by t (cx->pos at its '('). */
static Val parse_call(Ctx *cx, const Tok *name, int line)
{
    Val args[16];
    int n = 0, arg_from[16], arg_to[16];
    cx->pos++; /* ( */
    while (cx->pos < cx->lim && !at(cx, ")")) {
        Lv lv = {LV_NONE, 0, {0}, 0, 0, 0};
        int from = cx->pos;
        Val v = parse_assign(cx, &lv);
        lv_load(cx, &lv);
        if (n < 16) {
            arg_from[n] = from;
            arg_to[n] = cx->pos;
            args[n++] = v;
        }
        if (at(cx, ","))
            cx->pos++;
        else if (!at(cx, ")"))
            cx->pos++; /* something we do not parse: move on */
    }
    if (at(cx, ")"))
        cx->pos++;
    SrcKernel *k = cx->an->k;
    if (tok_is(name, "__syncthreads") || tok_is(name, "__syncthreads_count") || tok_is(name, "__syncthreads_and") ||
        tok_is(name, "__syncthreads_or")) {
        barrier(cx, line);
        Val r = v_uniform();
        return r;
    }
    if (name_starts(name, "atomic") && name->len > 6 && isupper((unsigned char)name->s[6]) && n >= 1) {
        Val p = args[0];
        if (cx->record) {
            if (is_global_base(p.base)) {
                k->atomics_global++;
                Lv lv = {LV_MEM, 0, p, line, arg_from[0], arg_to[0]};
                kernel_add_access(cx, &lv, SRC_ATOMIC);
                k->accesses[k->n_accesses - 1].address = 1;
            } else if (p.base == BASE_SHARED) {
                k->atomics_shared++;
            } else {
                k->atomics_other++;
            }
        }
        Val r = v_loaded(p);
        r.kind = lane_dep(p) || p.tdep ? VK_INDIRECT : VK_UNIFORM;
        return r;
    }
    if (is_cache_op(name) && n >= 1 && args[0].base != BASE_NONE) {
        int store = name->s[2] == 's';
        if (cx->record && !store)
            k->ldg++;
        Lv lv = {LV_MEM, 0, args[0], line, arg_from[0], arg_to[0]};
        int before = k->n_accesses;
        kernel_add_access(cx, &lv, store ? SRC_STORE : SRC_LOAD);
        if (k->n_accesses > before)
            k->accesses[k->n_accesses - 1].address = 1;
        return store ? v_uniform() : v_loaded(args[0]);
    }
    if (is_warp_op(name)) {
        if (cx->record)
            k->warp_ops++;
        Val r = v_make(VK_UNIFORM);
        for (int i = 0; i < n; i++)
            r = v_join(r, args[i]);
        r.base = BASE_NONE;
        if (r.kind >= VK_AFFINE)
            r.kind = VK_INDIRECT;
        return r;
    }
    int f = find_func(cx->an, name);
    if (f >= 0 && !cx->an->funcs[f].is_kernel)
        return call_function(cx, f, args, n, line);
    /* anything else (math, conversions, constructors): as varied as its arguments */
    Val r = v_make(VK_NONE);
    for (int i = 0; i < n; i++)
        r = v_join(r, args[i]);
    if (r.kind == VK_NONE || (r.kind == VK_CONST && n != 1))
        r = v_join(v_uniform(), r);
    if (!(tok_is(name, "min") || tok_is(name, "max") || tok_is(name, "umin") || tok_is(name, "umax") ||
          tok_is(name, "llmin") || tok_is(name, "llmax")) && r.kind == VK_CONST)
        r.kind = VK_UNIFORM;
    r.base = BASE_NONE;
    r.elem = r.vec = 0;
    return r;
}

/* A braced list: the join of its elements. */
static Val parse_braces(Ctx *cx)
{
    int close = match_close(cx->an->t, cx->pos, cx->lim);
    int saved = cx->lim;
    Val r = v_make(VK_NONE);
    cx->pos++;
    cx->lim = close;
    while (cx->pos < cx->lim) {
        Lv lv = {LV_NONE, 0, {0}, 0, 0, 0};
        r = v_join(r, parse_assign(cx, &lv));
        lv_load(cx, &lv);
        if (at(cx, ","))
            cx->pos++;
        else if (cx->pos < cx->lim)
            cx->pos++;
    }
    cx->lim = saved;
    cx->pos = close < saved ? close + 1 : saved;
    if (r.kind == VK_NONE)
        r = v_uniform();
    r.base = BASE_NONE;
    return r;
}

static Val parse_number(const Tok *t)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", t->len < 63 ? t->len : 63, t->s);
    int hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    if (!hex && strpbrk(buf, ".eEpP"))
        return v_uniform(); /* floating point */
    char *end;
    long long v = strtoll(buf, &end, 0);
    for (; *end; end++)
        if (!strchr("uUlL'", *end))
            return v_uniform();
    return v_const(v);
}

static Val parse_primary(Ctx *cx, Lv *lv)
{
    An *an = cx->an;
    lv->kind = LV_NONE;
    if (cx->pos >= cx->lim)
        return v_uniform();
    const Tok *t = tk(cx, cx->pos);
    int line = t->line;
    if (t->kind == TK_NUM) {
        cx->pos++;
        return parse_number(t);
    }
    if (t->kind == TK_STR) {
        cx->pos++;
        while (cx->pos < cx->lim && tk(cx, cx->pos)->kind == TK_STR)
            cx->pos++;
        return v_uniform();
    }
    if (tok_is(t, "(")) {
        int close = match_close(an->t, cx->pos, cx->lim);
        int saved = cx->lim;
        cx->pos++;
        cx->lim = close;
        Val v = parse_comma(cx);
        cx->lim = saved;
        cx->pos = close < saved ? close + 1 : saved;
        return v;
    }
    if (tok_is(t, "{"))
        return parse_braces(cx);
    if (t->kind != TK_IDENT) {
        cx->pos++;
        return v_uniform();
    }
    cx->pos++;
    if (tok_is(t, "true"))
        return v_const(1);
    if (tok_is(t, "false") || tok_is(t, "nullptr") || tok_is(t, "NULL"))
        return v_const(0);
    if (tok_is(t, "warpSize"))
        return v_const(32);
    if (is_builtin_index(t) && at(cx, ".") && cx->pos + 1 < cx->lim) {
        const Tok *f = tk(cx, cx->pos + 1);
        cx->pos += 2;
        return builtin_index(cx, t, f);
    }
    if (tok_is(t, "sizeof")) {
        Val r = v_uniform();
        if (at(cx, "(")) {
            int close = match_close(an->t, cx->pos, cx->lim), align, vec;
            long long b = type_bytes(an, an->t, cx->pos + 1, close, &align, &vec);
            int only_types = 1;
            for (int q = cx->pos + 1; q < close; q++)
                only_types &= is_type_word(an, &an->t[q]) || is_qualifier(&an->t[q]) || tok_is(&an->t[q], "*") ||
                              tok_is(&an->t[q], "long") || tok_is(&an->t[q], "unsigned");
            if (only_types && b > 0)
                r = v_const(b);
            skip_group(cx);
        } else {
            Lv sub = {LV_NONE, 0, {0}, 0, 0, 0};
            parse_unary(cx, &sub); /* sizeof expr: not evaluated, so no access */
        }
        return r;
    }
    if (tok_is(t, "static_cast") || tok_is(t, "reinterpret_cast") || tok_is(t, "const_cast") ||
        tok_is(t, "dynamic_cast")) {
        int ta = cx->pos + 1, tb = ta;
        while (tb < cx->lim && !tok_is(tk(cx, tb), ">"))
            tb++;
        cx->pos = tb + 1;
        Val v = v_uniform();
        if (at(cx, "(")) {
            Lv sub = {LV_NONE, 0, {0}, 0, 0, 0};
            v = parse_primary(cx, &sub);
            lv_load(cx, &sub);
        }
        return apply_cast(cx, ta, tb, v);
    }
    /* qualified names (cuda::std::max): the last part names it */
    while (at(cx, "::") && cx->pos + 1 < cx->lim && tk(cx, cx->pos + 1)->kind == TK_IDENT) {
        t = tk(cx, cx->pos + 1);
        cx->pos += 2;
    }
    if (at(cx, "("))
        return parse_call(cx, t, line);
    if (at(cx, "{") && (is_type_word(an, t) || find_struct(an, t)))
        return parse_braces(cx);
    int s = slot_lookup(cx, t);
    if (s >= 0) {
        lv->kind = LV_SLOT;
        lv->slot = s;
        Val v = cx->slots[s].v;
        return v.kind == VK_NONE ? (v.base != BASE_NONE ? v : v_make(VK_NONE)) : v;
    }
    for (int g = 0; g < an->n_globals; g++)
        if (an->globals[g].name->len == t->len && memcmp(an->globals[g].name->s, t->s, (size_t)t->len) == 0) {
            Val v = v_const(0);
            v.base = an->globals[g].base;
            v.elem = an->globals[g].elem;
            if (!an->globals[g].array) { /* a scalar __device__/__constant__ variable */
                Val r = v_uniform();
                return r;
            }
            return v;
        }
    return v_uniform(); /* enumerators, unknown names: uniform */
}

static Val parse_postfix(Ctx *cx, Lv *lv)
{
    Val v = parse_primary(cx, lv);
    for (;;) {
        if (at(cx, "[")) {
            int line = tk(cx, cx->pos)->line;
            int close = match_close(cx->an->t, cx->pos, cx->lim);
            int saved = cx->lim, from = cx->pos + 1;
            cx->pos++;
            cx->lim = close;
            Val idx = parse_comma(cx);
            cx->lim = saved;
            cx->pos = close < saved ? close + 1 : saved;
            v = subscript(cx, v, lv, idx, line, from, close);
        } else if (at(cx, ".") && cx->pos + 1 < cx->lim) {
            cx->pos += 2; /* a member: the aggregate's value (and designation) */
            if (lv->kind == LV_MEM)
                lv_load(cx, lv);
        } else if (at(cx, "->") && cx->pos + 1 < cx->lim) {
            int line = tk(cx, cx->pos)->line;
            cx->pos += 2;
            lv_load(cx, lv);
            Lv mem = {LV_MEM, 0, v, line, cx->pos - 2, cx->pos - 2};
            if (is_global_base(v.base) || v.base == BASE_SHARED) {
                *lv = mem;
                v = v_loaded(v);
            }
        } else if (at(cx, "(")) { /* calling a value: a function pointer or functor */
            lv_load(cx, lv);
            int saved = cx->pos;
            skip_group(cx);
            (void)saved;
            v.base = BASE_NONE;
        } else if (at(cx, "++") || at(cx, "--")) {
            cx->pos++;
            if (lv->kind == LV_SLOT)
                slot_assign(cx, lv->slot, v_add(v, v_const(1), 0));
            else if (lv->kind == LV_MEM)
                kernel_add_access(cx, lv, SRC_UPDATE);
            lv->kind = LV_NONE;
        } else {
            return v;
        }
    }
}

static Val parse_unary(Ctx *cx, Lv *lv)
{
    lv->kind = LV_NONE;
    if (cx->pos >= cx->lim)
        return v_uniform();
    const Tok *t = tk(cx, cx->pos);
    int ce = cast_end(cx, cx->pos);
    if (ce >= 0) {
        int a = cx->pos + 1;
        cx->pos = ce + 1;
        Val v = parse_unary(cx, lv);
        lv_load(cx, lv);
        return apply_cast(cx, a, ce, v);
    }
    if (tok_is(t, "++") || tok_is(t, "--")) {
        cx->pos++;
        Val v = parse_unary(cx, lv);
        if (lv->kind == LV_SLOT)
            slot_assign(cx, lv->slot, v_add(v, v_const(1), 0));
        else if (lv->kind == LV_MEM)
            kernel_add_access(cx, lv, SRC_UPDATE);
        lv->kind = LV_NONE;
        return v;
    }
    if (tok_is(t, "-") || tok_is(t, "+") || tok_is(t, "!") || tok_is(t, "~")) {
        cx->pos++;
        Val v = parse_unary(cx, lv);
        lv_load(cx, lv);
        if (tok_is(t, "~") && v.kind == VK_CONST) {
            v.c = ~v.c;
        } else if (tok_is(t, "-") || tok_is(t, "~")) {
            v = v_negate(v); /* ~x is -x - 1: the same stride, reversed */
            if (tok_is(t, "~") && v.kind == VK_UNIFORM)
                drop_mono(&v);
            v.base = BASE_NONE;
        } else if (tok_is(t, "!")) {
            v = v.kind == VK_CONST ? v_const(!v.c) : v_cmp(v, v_uniform());
        }
        return v;
    }
    if (tok_is(t, "*")) { /* dereference: memory at the pointer */
        int line = t->line, from = cx->pos + 1;
        cx->pos++;
        Val p = parse_unary(cx, lv);
        if (lv->kind == LV_SLOT && cx->slots[lv->slot].array && p.base == BASE_NONE)
            return p; /* *array of a local array */
        lv_load(cx, lv);
        if (p.base == BASE_NONE)
            return v_loaded(p);
        lv->kind = LV_MEM;
        lv->ptr = p;
        lv->line = line;
        lv->from = from;
        lv->to = cx->pos;
        return v_loaded(p);
    }
    if (tok_is(t, "&")) { /* address-of: a pending access becomes a pointer */
        cx->pos++;
        Val v = parse_unary(cx, lv);
        if (lv->kind == LV_MEM) {
            v = lv->ptr;
        } else if (lv->kind == LV_SLOT && cx->slots[lv->slot].array) {
            v = cx->slots[lv->slot].v;
            v.base = BASE_UNKNOWN;
        } else if (lv->kind == LV_SLOT) {
            v = v_const(0);
            v.base = BASE_UNKNOWN; /* the address of a local variable */
        }
        lv->kind = LV_NONE;
        return v;
    }
    return parse_postfix(cx, lv);
}

typedef struct BinOp {
    const char *op;
    int prec;
} BinOp;

static const BinOp BINOPS[] = {{"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6}, {"!=", 6},
                               {"<", 7},  {">", 7},  {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9},
                               {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}, {NULL, 0}};

static int binop_prec(Ctx *cx, const char **op)
{
    if (cx->pos >= cx->lim)
        return 0;
    const Tok *t = tk(cx, cx->pos);
    if (t->kind != TK_PUNCT)
        return 0;
    for (int i = 0; BINOPS[i].op; i++)
        if (tok_is(t, BINOPS[i].op)) {
            *op = BINOPS[i].op;
            return BINOPS[i].prec;
        }
    return 0;
}

static Val apply_binop(const char *op, Val a, Val b)
{
    switch (op[0]) {
    case '+':
        return v_add(a, b, 0);
    case '-': {
        Val r = v_add(a, b, 1);
        if (a.base != BASE_NONE && b.base != BASE_NONE)
            r.base = BASE_NONE; /* pointer difference */
        return r;
    }
    case '*':
        return v_mul(a, b);
    case '/':
        return v_div(a, b);
    case '%':
        return v_mod(a, b);
    case '<':
        if (op[1] == '<')
            return v_shift(a, b, 1);
        break;
    case '>':
        if (op[1] == '>')
            return v_shift(a, b, 0);
        break;
    case '&':
        if (!op[1])
            return v_and(a, b);
        break;
    case '|':
        if (!op[1])
            return v_or(a, b, '|');
        break;
    case '^':
        return v_or(a, b, '^');
    default:
        break;
    }
    if (a.kind == VK_CONST && b.kind == VK_CONST) {
        long long x = a.c, y = b.c, r = 0;
        if (!strcmp(op, "==")) r = x == y;
        else if (!strcmp(op, "!=")) r = x != y;
        else if (!strcmp(op, "<")) r = x < y;
        else if (!strcmp(op, ">")) r = x > y;
        else if (!strcmp(op, "<=")) r = x <= y;
        else if (!strcmp(op, ">=")) r = x >= y;
        else if (!strcmp(op, "&&")) r = x && y;
        else if (!strcmp(op, "||")) r = x || y;
        return v_const(r);
    }
    return v_cmp(a, b);
}

static Val parse_binary(Ctx *cx, int min_prec, Lv *lv)
{
    Val a = parse_unary(cx, lv);
    const char *op;
    int prec;
    while ((prec = binop_prec(cx, &op)) >= min_prec && prec > 0) {
        lv_load(cx, lv);
        cx->pos++;
        Lv rl = {LV_NONE, 0, {0}, 0, 0, 0};
        Val b = parse_binary(cx, prec + 1, &rl);
        lv_load(cx, &rl);
        a = apply_binop(op, a, b);
    }
    return a;
}

static Val parse_cond(Ctx *cx, Lv *lv)
{
    Val c = parse_binary(cx, 1, lv);
    if (!at(cx, "?"))
        return c;
    lv_load(cx, lv);
    cx->pos++;
    Lv l1 = {LV_NONE, 0, {0}, 0, 0, 0}, l2 = {LV_NONE, 0, {0}, 0, 0, 0};
    Val a = parse_assign(cx, &l1);
    lv_load(cx, &l1);
    if (at(cx, ":"))
        cx->pos++;
    Val b = parse_cond(cx, &l2);
    lv_load(cx, &l2);
    Val r = v_join(a, b);
    r.tdep |= c.tdep;
    if (r.kind <= VK_UNIFORM && lane_dep(c))
        r.kind = c.kind >= VK_INDIRECT ? VK_INDIRECT : VK_QUASI;
    return r;
}

static int assign_op(Ctx *cx, char *op)
{
    if (cx->pos >= cx->lim)
        return 0;
    const Tok *t = tk(cx, cx->pos);
    if (t->kind != TK_PUNCT)
        return 0;
    if (tok_is(t, "=")) {
        op[0] = '=';
        op[1] = '\0';
        return 1;
    }
    static const char *const ops[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL};
    for (int i = 0; ops[i]; i++)
        if (tok_is(t, ops[i])) {
            snprintf(op, 4, "%.*s", t->len - 1, t->s);
            return 1;
        }
    return 0;
}

static Val parse_assign(Ctx *cx, Lv *lv)
{
    Val l = parse_cond(cx, lv);
    char op[4];
    if (!assign_op(cx, op))
        return l;
    cx->pos++;
    Lv target = *lv;
    lv->kind = LV_NONE;
    Lv rl = {LV_NONE, 0, {0}, 0, 0, 0};
    Val r = parse_assign(cx, &rl);
    lv_load(cx, &rl);
    Val v = op[0] == '=' ? r : apply_binop(op, l, r);
    if (target.kind == LV_SLOT && cx->ctl == 0 && !cx->slots[target.slot].array) {
        /* straight-line code at the function's top level: the assignment
         * replaces the value for what follows (`v = sh[0]` after a block
         * reduction makes v uniform), so it gets a fresh slot */
        int fresh = slot_declare(cx, cx->slots[target.slot].name, 0);
        slot_assign(cx, fresh, v);
    } else if (target.kind == LV_SLOT) {
        slot_assign(cx, target.slot, v);
    } else if (target.kind == LV_MEM) {
        kernel_add_access(cx, &target, op[0] == '=' ? SRC_STORE : SRC_UPDATE);
    }
    return v;
}

static Val parse_comma(Ctx *cx)
{
    Val v = v_uniform();
    for (;;) {
        Lv lv = {LV_NONE, 0, {0}, 0, 0, 0};
        v = parse_assign(cx, &lv);
        lv_load(cx, &lv);
        if (at(cx, ",")) {
            cx->pos++;
            continue;
        }
        return v;
    }
}

/* Evaluates the expression t[from..to). */
static Val eval_range(Ctx *cx, int from, int to)
{
    int sp = cx->pos, sl = cx->lim;
    cx->pos = from;
    cx->lim = to;
    Val v = v_uniform();
    while (cx->pos < cx->lim) {
        v = parse_comma(cx);
        if (cx->pos < cx->lim)
            cx->pos++; /* a token we cannot parse: skip it */
    }
    cx->pos = sp;
    cx->lim = sl;
    return v;
}

/* ---- declarations ---- */

/* Does the statement t[i..end) declare variables?  *type_end gets the index
 * of the first declarator token.  A type is qualifiers and type words; an
 * unknown name counts as a type when a declarator follows it (two names in
 * a row, or `name *name`, never form an expression statement). */
static int decl_start(Ctx *cx, int i, int end, int *type_end)
{
    An *an = cx->an;
    int j = i, words = 0;
    while (j < end) {
        const Tok *x = &an->t[j];
        if (is_qualifier(x)) {
            j++;
        } else if (tok_is(x, "__align__") && j + 1 < end) {
            j = match_close(an->t, j + 1, end) + 1;
        } else if (tok_is(x, "unsigned") || tok_is(x, "signed") || tok_is(x, "long") || tok_is(x, "short")) {
            words++;
            j++;
        } else {
            break;
        }
    }
    if (j < end && an->t[j].kind == TK_IDENT && !is_keyword(&an->t[j]) && !is_builtin_index(&an->t[j])) {
        const Tok *x = &an->t[j];
        if (is_type_word(an, x) && slot_lookup(cx, x) < 0) {
            words++;
            j++;
        } else if (!words && slot_lookup(cx, x) < 0 && find_func(an, x) < 0 && j + 1 < end) {
            const Tok *nx = &an->t[j + 1];
            int named = nx->kind == TK_IDENT && !is_keyword(nx);
            int ptr = (tok_is(nx, "*") || tok_is(nx, "&")) && j + 2 < end &&
                      (an->t[j + 2].kind == TK_IDENT || tok_is(&an->t[j + 2], "*"));
            if (named || ptr) {
                words++;
                j++;
            }
        }
    }
    while (j < end && words && (tok_is(&an->t[j], "long") || tok_is(&an->t[j], "int") || is_qualifier(&an->t[j])))
        j++;
    if (!words)
        return 0;
    /* template arguments of a type (rare in kernels): skip <...> */
    if (j < end && tok_is(&an->t[j], "<")) {
        int d = 0;
        for (; j < end; j++) {
            if (tok_is(&an->t[j], "<"))
                d++;
            else if (tok_is(&an->t[j], ">") && --d == 0) {
                j++;
                break;
            }
        }
    }
    *type_end = j;
    return j < end && (an->t[j].kind == TK_IDENT || tok_is(&an->t[j], "*") || tok_is(&an->t[j], "&"));
}

static void record_shared(Ctx *cx, const Tok *name, int line, long long bytes, int dynamic)
{
    SrcKernel *k = cx->an->k;
    if (!cx->record)
        return;
    for (int i = 0; i < k->n_shared; i++)
        if (k->shared[i].line == line && strncmp(k->shared[i].name, name->s, (size_t)name->len) == 0)
            return; /* a __device__ function's array, reached again through another call */
    k->shared = xrealloc(k->shared, sizeof *k->shared * (size_t)(k->n_shared + 1));
    SrcShared *s = &k->shared[k->n_shared++];
    snprintf(s->name, sizeof s->name, "%.*s", name->len, name->s);
    s->line = line;
    s->bytes = bytes;
    s->dynamic = dynamic;
    if (dynamic)
        k->dynamic_smem = 1;
    else if (bytes < 0 || k->static_smem_bytes < 0)
        k->static_smem_bytes = -1;
    else
        k->static_smem_bytes += bytes;
}

/* Declares the variables of statement t[i..end); type words end at te. */
static void declare(Ctx *cx, int i, int te, int end)
{
    An *an = cx->an;
    int shared = 0, is_extern = 0, constmem = 0, align, vec;
    for (int q = i; q < te; q++) {
        shared |= tok_is(&an->t[q], "__shared__");
        is_extern |= tok_is(&an->t[q], "extern");
        constmem |= tok_is(&an->t[q], "__constant__");
    }
    long long elem = type_bytes(an, an->t, i, te, &align, &vec);
    int j = te;
    while (j < end) {
        int pointer = 0, name_at = -1;
        while (j < end && (tok_is(&an->t[j], "*") || tok_is(&an->t[j], "&") || is_qualifier(&an->t[j]))) {
            pointer |= tok_is(&an->t[j], "*");
            j++;
        }
        if (j < end && an->t[j].kind == TK_IDENT)
            name_at = j++;
        if (name_at < 0)
            return;
        /* array dimensions */
        int array = 0, unknown_dim = 0;
        long long count = 1;
        while (j < end && tok_is(&an->t[j], "[")) {
            int close = match_close(an->t, j, end);
            array = 1;
            if (close == j + 1) {
                unknown_dim = 1;
            } else {
                Val d = eval_range(cx, j + 1, close);
                if (d.kind == VK_CONST && d.c > 0 && !__builtin_mul_overflow(count, d.c, &count)) {
                } else {
                    unknown_dim = 1;
                }
            }
            j = close + 1;
        }
        Val init = v_make(VK_NONE);
        int has_init = 0;
        if (j < end && (tok_is(&an->t[j], "=") || tok_is(&an->t[j], "(") || tok_is(&an->t[j], "{"))) {
            int from = tok_is(&an->t[j], "=") ? j + 1 : j, to = from;
            int d = 0;
            for (to = from; to < end; to++) {
                const Tok *x = &an->t[to];
                if (tok_is(x, "(") || tok_is(x, "[") || tok_is(x, "{"))
                    d++;
                else if (tok_is(x, ")") || tok_is(x, "]") || tok_is(x, "}"))
                    d--;
                else if (d == 0 && tok_is(x, ","))
                    break;
                if (d == 0 && from == j && to > from)
                    break;
            }
            if (from == j) { /* T x(...) / T x{...}: the group itself */
                to = match_close(an->t, j, end) + 1;
                init = eval_range(cx, j + 1, to - 1);
            } else {
                init = eval_range(cx, from, to);
            }
            has_init = 1;
            j = to;
        }
        const Tok *name = &an->t[name_at];
        int line = name->line;
        if (shared) {
            long long bytes = is_extern ? 0 : (unknown_dim || !elem) ? -1 : count * elem;
            record_shared(cx, name, line, bytes, is_extern);
            int s = slot_declare(cx, name, 0);
            Val v = v_const(0);
            v.base = BASE_SHARED;
            v.elem = (int)elem;
            v.vec = vec;
            slot_assign(cx, s, pointer && !array ? v_make(VK_NONE) : v);
        } else if (array && !pointer) {
            int s = slot_declare(cx, name, 1);
            Val v = has_init ? init : v_make(VK_NONE);
            if (constmem)
                v.base = BASE_CONSTMEM;
            slot_assign(cx, s, v);
        } else {
            int s = slot_declare(cx, name, 0);
            if (pointer && init.base != BASE_NONE && elem) {
                init.elem = (int)elem;
                init.vec = vec;
            }
            if (has_init)
                slot_assign(cx, s, init);
        }
        if (j < end && tok_is(&an->t[j], ","))
            j++;
        else
            return;
    }
}

/* ---- statements ---- */

/* End (exclusive) of the statement starting at i: after its ';' or its
 * closing brace, including an else branch. */
static int stmt_end(Ctx *cx, int i, int to)
{
    An *an = cx->an;
    if (i >= to)
        return to;
    const Tok *t = &an->t[i];
    if (tok_is(t, "{"))
        return match_close(an->t, i, to) + 1;
    if (tok_is(t, "if") || tok_is(t, "while") || tok_is(t, "for") || tok_is(t, "switch")) {
        int close = match_close(an->t, i + 1, to);
        int e = stmt_end(cx, close + 1, to);
        if (tok_is(t, "if") && e < to && tok_is(&an->t[e], "else"))
            e = stmt_end(cx, e + 1, to);
        return e;
    }
    if (tok_is(t, "do")) {
        int e = stmt_end(cx, i + 1, to); /* body */
        while (e < to && !tok_is(&an->t[e], ";"))
            e++;
        return e < to ? e + 1 : to;
    }
    int d = 0;
    for (int k = i; k < to; k++) {
        const Tok *x = &an->t[k];
        if (tok_is(x, "(") || tok_is(x, "[") || tok_is(x, "{"))
            d++;
        else if (tok_is(x, ")") || tok_is(x, "]") || tok_is(x, "}"))
            d--;
        else if (d == 0 && tok_is(x, ";"))
            return k + 1;
        if (d < 0)
            return k;
    }
    return to;
}

/* Walks the statement or block at [from, to) under condition c. */
static void walk_under(Ctx *cx, Val c, int cond_line, int from, int to)
{
    int div = c.tdep || lane_dep(c);
    int saved_line = cx->div_line;
    if (div) {
        cx->div++;
        cx->div_line = cond_line;
    }
    walk_range(cx, from, to);
    if (div) {
        cx->div--;
        cx->div_line = saved_line;
    }
}

static void walk_simple(Ctx *cx, int i, int end)
{
    int te;
    if (decl_start(cx, i, end, &te))
        declare(cx, i, te, end);
    else
        eval_range(cx, i, end);
}

static int walk_compound(Ctx *cx, int i, int to);

/* Walks one statement at i (< to); returns the index after it. */
static int walk_stmt(Ctx *cx, int i, int to)
{
    const Tok *t = &cx->an->t[i];
    if (tok_is(t, "{") || tok_is(t, "if") || tok_is(t, "while") || tok_is(t, "switch") || tok_is(t, "for") ||
        tok_is(t, "do")) {
        cx->ctl++;
        int next = walk_compound(cx, i, to);
        cx->ctl--;
        return next;
    }
    return walk_compound(cx, i, to);
}

/* walk_stmt's work. */
static int walk_compound(Ctx *cx, int i, int to)
{
    An *an = cx->an;
    const Tok *t = &an->t[i];
    if (tok_is(t, ";"))
        return i + 1;
    if (tok_is(t, "{")) {
        int close = match_close(an->t, i, to);
        int mark = cx->n_scope;
        walk_range(cx, i + 1, close);
        cx->n_scope = mark;
        return close + 1;
    }
    if (tok_is(t, "if") || tok_is(t, "while") || tok_is(t, "switch")) {
        if (i + 1 >= to || !tok_is(&an->t[i + 1], "("))
            return i + 1;
        int close = match_close(an->t, i + 1, to);
        int mark = cx->n_scope;
        Val c;
        int te;
        if (decl_start(cx, i + 2, close, &te)) { /* if (T x = ...) */
            declare(cx, i + 2, te, close);
            c = cx->slots[cx->scope[cx->n_scope - 1]].v;
        } else {
            c = eval_range(cx, i + 2, close);
        }
        int body_end = stmt_end(cx, close + 1, to);
        walk_under(cx, c, t->line, close + 1, body_end);
        int next = body_end;
        if (tok_is(t, "if") && next < to && tok_is(&an->t[next], "else")) {
            int else_end = stmt_end(cx, next + 1, to);
            walk_under(cx, c, t->line, next + 1, else_end);
            next = else_end;
        }
        cx->n_scope = mark;
        return next;
    }
    if (tok_is(t, "for")) {
        if (i + 1 >= to || !tok_is(&an->t[i + 1], "("))
            return i + 1;
        int close = match_close(an->t, i + 1, to);
        int mark = cx->n_scope;
        /* the header's three parts, split at top-level ';' */
        int semi[2] = {close, close}, ns = 0, d = 0;
        for (int k = i + 2; k < close && ns < 2; k++) {
            const Tok *x = &an->t[k];
            if (tok_is(x, "(") || tok_is(x, "[") || tok_is(x, "{"))
                d++;
            else if (tok_is(x, ")") || tok_is(x, "]") || tok_is(x, "}"))
                d--;
            else if (d == 0 && tok_is(x, ";"))
                semi[ns++] = k;
        }
        Val c = v_uniform();
        if (ns == 2) {
            walk_simple(cx, i + 2, semi[0]);
            c = eval_range(cx, semi[0] + 1, semi[1]);
            eval_range(cx, semi[1] + 1, close);
        } else { /* range-for: for (T x : range) */
            int colon = i + 2;
            while (colon < close && !tok_is(&an->t[colon], ":"))
                colon++;
            int te;
            if (colon < close && decl_start(cx, i + 2, colon, &te))
                declare(cx, i + 2, te, colon);
            c = eval_range(cx, colon + 1, close);
        }
        int body_end = stmt_end(cx, close + 1, to);
        walk_under(cx, c, t->line, close + 1, body_end);
        cx->n_scope = mark;
        return body_end;
    }
    if (tok_is(t, "do")) {
        int body_end = stmt_end(cx, i + 1, to);
        Val c = v_uniform();
        int end = body_end;
        if (end < to && tok_is(&an->t[end], "while") && end + 1 < to && tok_is(&an->t[end + 1], "(")) {
            int close = match_close(an->t, end + 1, to);
            c = eval_range(cx, end + 2, close);
            end = close + 1;
            if (end < to && tok_is(&an->t[end], ";"))
                end++;
        }
        walk_under(cx, c, t->line, i + 1, body_end);
        return end;
    }
    if (tok_is(t, "else"))
        return i + 1;
    if (tok_is(t, "case") || tok_is(t, "default")) {
        int k = i;
        while (k < to && !tok_is(&an->t[k], ":"))
            k++;
        return k + 1;
    }
    if (tok_is(t, "break") || tok_is(t, "continue") || tok_is(t, "goto"))
        return stmt_end(cx, i, to);
    if (t->kind == TK_IDENT && i + 1 < to && tok_is(&an->t[i + 1], ":") && !is_keyword(t))
        return i + 2; /* a label */
    if (tok_is(t, "return")) {
        int end = stmt_end(cx, i, to);
        int stop = end > i + 1 && tok_is(&an->t[end - 1], ";") ? end - 1 : end;
        Val v = stop > i + 1 ? eval_range(cx, i + 1, stop) : v_uniform();
        cx->ret = v_join(cx->ret, v);
        /* a kernel's return under a thread-dependent condition: those
         * threads never reach a later barrier */
        if (cx->record && cx->depth == 0 && cx->div > 0 && !cx->an->early_exit)
            cx->an->early_exit = t->line;
        return end;
    }
    int end = stmt_end(cx, i, to);
    int stop = end > i && tok_is(&an->t[end - 1], ";") ? end - 1 : end;
    if (stop > i)
        walk_simple(cx, i, stop);
    return end > i ? end : i + 1;
}

static void walk_range(Ctx *cx, int from, int to)
{
    for (int i = from; i < to;)
        i = walk_stmt(cx, i, to);
}

/* ---- functions ---- */

static void ctx_release(Ctx *cx)
{
    free(cx->slots);
    free(cx->scope);
}

/* Runs the fixpoint over f's body with parameters bound to args, then
 * (when record) one more pass recording facts.  Returns the join of the
 * returned values. */
static Val analyse_body(An *an, int f, const Val *args, int n_args, int record, int depth, int call_line, int div,
                        int div_line)
{
    Func *fn = &an->funcs[f];
    Ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.an = an;
    cx.fn = fn;
    cx.depth = depth;
    cx.call_line = call_line;
    fn->active = 1;
    for (int pass = 0;; pass++) {
        cx.pass = pass;
        cx.changed = 0;
        cx.next_slot = 0;
        cx.n_scope = 0;
        cx.ctl = 0;
        cx.div = div;
        cx.div_line = div_line;
        cx.ret = v_make(VK_NONE);
        int last = pass + 1 >= PASSES_MAX;
        cx.record = 0;
        for (int p = 0; p < fn->n_params; p++) {
            int s = slot_declare(&cx, fn->params[p].name ? fn->params[p].name : fn->name, 0);
            Val v = p < n_args ? args[p] : v_uniform();
            if (fn->params[p].pointer && v.base != BASE_NONE && fn->params[p].elem) {
                v.elem = fn->params[p].elem;
                v.vec = fn->params[p].vec;
            }
            slot_assign(&cx, s, v);
        }
        walk_range(&cx, fn->body, fn->body_end);
        if (!cx.changed || last)
            break;
    }
    if (record) {
        cx.changed = 0;
        cx.next_slot = 0;
        cx.n_scope = 0;
        cx.ctl = 0;
        cx.div = div;
        cx.div_line = div_line;
        cx.record = 1;
        cx.ret = v_make(VK_NONE);
        for (int p = 0; p < fn->n_params; p++)
            slot_declare(&cx, fn->params[p].name ? fn->params[p].name : fn->name, 0);
        walk_range(&cx, fn->body, fn->body_end);
    }
    fn->active = 0;
    Val r = cx.ret.kind == VK_NONE ? v_uniform() : cx.ret;
    ctx_release(&cx);
    return r;
}

static Val call_function(Ctx *cx, int f, Val *args, int n, int line)
{
    An *an = cx->an;
    Func *fn = &an->funcs[f];
    Val fallback = v_uniform();
    for (int i = 0; i < n; i++)
        fallback = v_join(fallback, args[i]);
    fallback.base = BASE_NONE;
    if (fn->active || cx->depth + 1 >= CALL_DEPTH)
        return fallback; /* recursion or deep nesting: as varied as the arguments */
    int outer_call = cx->call_line ? cx->call_line : line;
    if (cx->record)
        return analyse_body(an, f, args, n, 1, cx->depth + 1, outer_call, cx->div, cx->div_line);
    /* between fixpoint passes the same call is analysed again and again: memoise */
    int nm = n < 8 ? n : 8;
    for (int i = 0; i < an->n_memo; i++) {
        MemoEntry *m = &an->memo[i];
        if (m->func != f || m->n != nm)
            continue;
        int same = 1;
        for (int a = 0; a < nm && same; a++)
            same = val_eq(m->args[a], args[a]);
        if (same)
            return m->ret;
    }
    Val r = analyse_body(an, f, args, n, 0, cx->depth + 1, outer_call, cx->div, cx->div_line);
    an->memo = xrealloc(an->memo, sizeof *an->memo * (size_t)(an->n_memo + 1));
    MemoEntry *m = &an->memo[an->n_memo++];
    m->func = f;
    m->n = nm;
    for (int a = 0; a < nm; a++)
        m->args[a] = args[a];
    m->ret = r;
    return r;
}

/* ====================================================================== */
/* File scope: functions, structs, variables                               */
/* ====================================================================== */

static void parse_params(An *an, Func *f, int from, int to)
{
    int start = from;
    for (int k = from; k <= to; k++) {
        if (k < to && !tok_is(&an->t[k], ","))
            continue; /* nested groups (function pointers) are rare in kernel parameters */
        if (k > start && !(k == start + 1 && tok_is(&an->t[start], "void"))) {
            Param p;
            memset(&p, 0, sizeof p);
            int star = -1, align;
            for (int q = start; q < k; q++) {
                const Tok *x = &an->t[q];
                if (tok_is(x, "*") || tok_is(x, "[")) {
                    p.pointer = 1;
                    if (star < 0)
                        star = q;
                }
                if (tok_is(x, "__restrict__") || tok_is(x, "__restrict") || tok_is(x, "restrict"))
                    p.restrict_ = 1;
                if (x->kind == TK_IDENT && !is_qualifier(x) && !is_type_word(an, x) && !tok_is(x, "long") &&
                    !tok_is(x, "unsigned") && !tok_is(x, "signed") && !tok_is(x, "short"))
                    p.name = x;
            }
            for (int q = start; q < (star >= 0 ? star : k); q++)
                p.is_const |= tok_is(&an->t[q], "const");
            p.elem = (int)type_bytes(an, an->t, start, star >= 0 ? star : k, &align, &p.vec);
            f->params = xrealloc(f->params, sizeof *f->params * (size_t)(f->n_params + 1));
            f->params[f->n_params++] = p;
        }
        start = k + 1;
    }
}

/* struct Name { fields }: its size with natural alignment, -1 unknown. */
static void parse_struct(An *an, const Tok *name, int from, int to)
{
    long long size = 0;
    int max_align = 1, known = 1;
    for (int i = from; i < to;) {
        int end = i;
        while (end < to && !tok_is(&an->t[end], ";"))
            end++;
        /* type words, then declarators separated by commas */
        int te = i;
        while (te < end && (is_qualifier(&an->t[te]) || is_type_word(an, &an->t[te]) || tok_is(&an->t[te], "long") ||
                            tok_is(&an->t[te], "unsigned") || tok_is(&an->t[te], "signed") ||
                            tok_is(&an->t[te], "short")))
            te++;
        int align, vec;
        long long elem = type_bytes(an, an->t, i, te, &align, &vec);
        for (int j = te; j < end; j++) {
            if (an->t[j].kind != TK_IDENT)
                continue;
            long long count = 1;
            int pointer = j > te && tok_is(&an->t[j - 1], "*");
            int k = j + 1;
            while (k < end && tok_is(&an->t[k], "[")) {
                int close = match_close(an->t, k, end);
                if (close == k + 2 && an->t[k + 1].kind == TK_NUM)
                    count *= strtoll(an->t[k + 1].s, NULL, 0);
                else
                    known = 0;
                k = close + 1;
            }
            long long fe = pointer ? 8 : elem;
            int fa = pointer ? 8 : align;
            if (!fe)
                known = 0;
            size = (size + fa - 1) / fa * fa + fe * count;
            if (fa > max_align)
                max_align = fa;
            while (k < end && !tok_is(&an->t[k], ","))
                k++;
            j = k;
        }
        i = end + 1;
    }
    an->structs = xrealloc(an->structs, sizeof *an->structs * (size_t)(an->n_structs + 1));
    StructType *st = &an->structs[an->n_structs++];
    st->name = name;
    st->align = max_align;
    st->size = known ? (size + max_align - 1) / max_align * max_align : -1;
}

/* A file-scope declaration t[from..to) of __shared__, __constant__ or
 * __device__ variables. */
static void file_var(An *an, int from, int to)
{
    int shared = 0, constmem = 0, device = 0, align, vec;
    for (int q = from; q < to; q++) {
        shared |= tok_is(&an->t[q], "__shared__");
        constmem |= tok_is(&an->t[q], "__constant__");
        device |= tok_is(&an->t[q], "__device__");
    }
    if (!shared && !constmem && !device)
        return;
    int te = from;
    while (te < to && (is_qualifier(&an->t[te]) || is_type_word(an, &an->t[te]) || tok_is(&an->t[te], "long") ||
                       tok_is(&an->t[te], "unsigned")))
        te++;
    long long elem = type_bytes(an, an->t, from, te, &align, &vec);
    if (te >= to || an->t[te].kind != TK_IDENT || (te + 1 < to && tok_is(&an->t[te + 1], "(")))
        return; /* not a variable (a prototype) */
    GlobalVar g;
    memset(&g, 0, sizeof g);
    g.name = &an->t[te];
    g.elem = (int)elem;
    g.line = an->t[te].line;
    g.array = te + 1 < to && tok_is(&an->t[te + 1], "[");
    g.base = shared ? BASE_SHARED : constmem ? BASE_CONSTMEM : GLOBALVAR_BASE + an->n_globals;
    g.bytes = -1;
    if (g.array && te + 3 < to && an->t[te + 2].kind == TK_NUM && tok_is(&an->t[te + 3], "]") && elem)
        g.bytes = strtoll(an->t[te + 2].s, NULL, 0) * elem;
    an->globals = xrealloc(an->globals, sizeof *an->globals * (size_t)(an->n_globals + 1));
    an->globals[an->n_globals++] = g;
}

/* Finds functions, structs and file-scope variables in the token stream. */
static void scan_file(An *an)
{
    int stmt = 0;
    for (int i = 0; i < an->n; i++) {
        const Tok *t = &an->t[i];
        if (tok_is(t, ";")) {
            file_var(an, stmt, i);
            stmt = i + 1;
        } else if (tok_is(t, "}")) {
            stmt = i + 1; /* end of an extern "C" { } or namespace block */
        } else if (tok_is(t, "{")) {
            int close = match_close(an->t, i, an->n);
            /* a function body: ')' [qualifiers] '{' with a name before '(' */
            int r = i - 1;
            while (r > stmt && an->t[r].kind == TK_IDENT && (tok_is(&an->t[r], "const") ||
                                                              tok_is(&an->t[r], "noexcept")))
                r--;
            int is_struct = -1;
            for (int q = stmt; q < i; q++)
                if (tok_is(&an->t[q], "struct") || tok_is(&an->t[q], "union") || tok_is(&an->t[q], "class") ||
                    tok_is(&an->t[q], "enum"))
                    is_struct = q;
            if (r >= stmt && tok_is(&an->t[r], ")") && is_struct < 0) {
                int open = r;
                for (int d = 0; open >= stmt; open--) {
                    if (tok_is(&an->t[open], ")"))
                        d++;
                    else if (tok_is(&an->t[open], "(") && --d == 0)
                        break;
                }
                if (open > stmt && an->t[open - 1].kind == TK_IDENT && !is_keyword(&an->t[open - 1])) {
                    Func f;
                    memset(&f, 0, sizeof f);
                    f.name = &an->t[open - 1];
                    f.line = f.name->line;
                    f.body = i + 1;
                    f.body_end = close < an->n ? close : an->n;
                    for (int q = stmt; q < open - 1; q++) {
                        f.is_kernel |= tok_is(&an->t[q], "__global__");
                        if (tok_is(&an->t[q], "__launch_bounds__") && q + 3 < open &&
                            an->t[q + 2].kind == TK_NUM && (tok_is(&an->t[q + 3], ")") || tok_is(&an->t[q + 3], ","))) {
                            f.lb_threads = (int)strtol(an->t[q + 2].s, NULL, 0);
                            if (q + 4 < open && tok_is(&an->t[q + 3], ",") && an->t[q + 4].kind == TK_NUM)
                                f.lb_blocks = (int)strtol(an->t[q + 4].s, NULL, 0);
                        }
                    }
                    parse_params(an, &f, open + 1, r);
                    an->funcs = xrealloc(an->funcs, sizeof *an->funcs * (size_t)(an->n_funcs + 1));
                    an->funcs[an->n_funcs++] = f;
                    i = close;
                    stmt = close + 1;
                    continue;
                }
            }
            if (is_struct >= 0) {
                if (is_struct + 1 < i && an->t[is_struct + 1].kind == TK_IDENT)
                    parse_struct(an, &an->t[is_struct + 1], i + 1, close);
                i = close;
                stmt = close + 1; /* `struct X {...} var;` declares nothing we follow */
                continue;
            }
            int transparent = 0;
            for (int q = stmt; q < i; q++)
                transparent |= tok_is(&an->t[q], "namespace") || (tok_is(&an->t[q], "extern") && q + 1 < i &&
                                                                   an->t[q + 1].kind == TK_STR);
            if (transparent) {
                stmt = i + 1;
                continue;
            }
            i = close; /* an initializer */
        }
    }
}

/* ====================================================================== */
/* The report                                                              */
/* ====================================================================== */

const char *src_access_class_name(SrcAccessClass c)
{
    static const char *const names[] = {"coalesced", "uniform", "strided", "indirect"};
    return (unsigned)c < 4 ? names[c] : "?";
}

const char *src_access_kind_name(SrcAccessKind k)
{
    static const char *const names[] = {"load", "store", "update", "atomic"};
    return (unsigned)k < 4 ? names[k] : "?";
}

/* The value of a stride's run-time factor under b, or SRC_UNKNOWN. */
static long long factor_value(int f, const SrcBinding *b)
{
    if (!b)
        return SRC_UNKNOWN;
    if (f >= SRC_SYM_GRIDDIM && f < SRC_SYM_GRIDDIM + 3)
        return b->grid[f - SRC_SYM_GRIDDIM] > 0 ? b->grid[f - SRC_SYM_GRIDDIM] : SRC_UNKNOWN;
    if (f >= SRC_SYM_BLOCKDIM && f < SRC_SYM_BLOCKDIM + 3)
        return b->block[f - SRC_SYM_BLOCKDIM] > 0 ? b->block[f - SRC_SYM_BLOCKDIM] : SRC_UNKNOWN;
    if (f >= 0 && f < b->n_param)
        return b->param[f];
    return SRC_UNKNOWN;
}

static void classify_access(SrcAccess *a, const SrcBinding *b)
{
    int elem = a->elem_bytes > 0 ? a->elem_bytes : 4;
    a->stride = 0;
    switch (a->shape) {
    case SRC_SHAPE_UNIFORM:
    case SRC_SHAPE_QUASI:
        a->cls = SRC_UNIFORM;
        a->sectors = 1.0;
        return;
    case SRC_SHAPE_INDIRECT:
        a->cls = SRC_INDIRECT;
        a->sectors = 0;
        return;
    case SRC_SHAPE_IRREGULAR:
        a->cls = SRC_STRIDED;
        a->sectors = elem >= 32 ? 1.0 : (double)elem / 32.0;
        return;
    case SRC_SHAPE_AFFINE:
        break;
    }
    long long s = a->unknown_stride ? SRC_UNKNOWN : a->coef;
    for (int i = 0; i < a->n_factors && s != SRC_UNKNOWN; i++) {
        long long v = factor_value(a->factors[i], b);
        if (v == SRC_UNKNOWN || __builtin_mul_overflow(s, v, &s))
            s = SRC_UNKNOWN;
    }
    if (s != SRC_UNKNOWN)
        a->stride = s;
    if (s == 0) { /* a factor is 0 in this launch: every lane the same address */
        a->cls = SRC_UNIFORM;
        a->sectors = 1.0;
    } else if (s == 1 || s == -1) {
        a->cls = SRC_COALESCED;
        a->sectors = 1.0;
    } else {
        /* bytes a warp uses over bytes of the 32-byte sectors it touches; an
         * unknown stride is taken as at least a sector */
        a->cls = SRC_STRIDED;
        long long span = s == SRC_UNKNOWN || llabs(s) > 32 ? 32 : llabs(s) * elem;
        a->sectors = (double)elem / (double)(span < 32 ? span : 32);
        if (a->sectors > 1.0)
            a->sectors = 1.0;
    }
}

void src_kernel_classify(SrcKernel *k, const SrcBinding *b)
{
    double sectors = 0;
    k->coalesced = k->uniform = k->strided = k->indirect = 0;
    for (int i = 0; i < k->n_accesses; i++) {
        SrcAccess *a = &k->accesses[i];
        classify_access(a, b);
        switch (a->cls) {
        case SRC_COALESCED: k->coalesced++; break;
        case SRC_UNIFORM: k->uniform++; break;
        case SRC_STRIDED: k->strided++; break;
        case SRC_INDIRECT: k->indirect++; break;
        }
        if (a->cls != SRC_INDIRECT)
            sectors += a->sectors;
    }
    int judged = k->coalesced + k->uniform + k->strided;
    k->coalesced_fraction = judged ? (double)(k->coalesced + k->uniform) / judged : -1;
    k->coalescing = judged ? sectors / judged : -1;
}

static void analyse_kernel(An *an, int f, int lane, SrcKernel *k)
{
    Func *fn = &an->funcs[f];
    memset(k, 0, sizeof *k);
    k->name = xstrndup(fn->name->s, (size_t)fn->name->len);
    k->line = fn->line;
    k->lane_dim = lane;
    k->n_params = fn->n_params;
    k->launch_bounds_threads = fn->lb_threads;
    k->launch_bounds_min_blocks = fn->lb_blocks;
    k->param_names = xcalloc((size_t)fn->n_params + 1, sizeof *k->param_names);
    for (int p = 0; p < fn->n_params; p++)
        k->param_names[p] = fn->params[p].name ? xstrndup(fn->params[p].name->s, (size_t)fn->params[p].name->len)
                                               : xstrdup("");
    for (int p = 0; p < fn->n_params; p++) {
        k->n_pointer_params += fn->params[p].pointer;
        k->n_const_restrict += fn->params[p].pointer && fn->params[p].is_const && fn->params[p].restrict_;
    }
    /* file-scope __shared__ arrays belong to every kernel */
    for (int g = 0; g < an->n_globals; g++)
        if (an->globals[g].base == BASE_SHARED) {
            k->shared = xrealloc(k->shared, sizeof *k->shared * (size_t)(k->n_shared + 1));
            SrcShared *s = &k->shared[k->n_shared++];
            snprintf(s->name, sizeof s->name, "%.*s", an->globals[g].name->len, an->globals[g].name->s);
            s->line = an->globals[g].line;
            s->bytes = an->globals[g].bytes;
            if (s->bytes < 0 || k->static_smem_bytes < 0)
                k->static_smem_bytes = -1;
            else
                k->static_smem_bytes += s->bytes;
        }
    an->k = k;
    an->kernel_func = f;
    an->lane = lane;
    an->early_exit = 0;
    an->n_memo = 0;
    Val args[64];
    int n = fn->n_params < 64 ? fn->n_params : 64;
    for (int p = 0; p < n; p++) {
        args[p] = v_symbol(p); /* scalar parameters: symbols a launch binds */
        if (fn->params[p].pointer) {
            args[p] = v_const(0);
            args[p].base = p;
            args[p].elem = fn->params[p].elem;
            args[p].vec = fn->params[p].vec;
        }
    }
    analyse_body(an, f, args, n, 1, 0, 0, 0, 0);
    src_kernel_classify(k, NULL);
}

int src_analyze(const char *source, const SrcLane *lanes, int n_lanes, SrcReport *r, Error *e)
{
    memset(r, 0, sizeof *r);
    if (strlen(source) > SOURCE_MAX)
        return ERR(e, "kernel.cu: larger than %d bytes", SOURCE_MAX);
    Lexed lx;
    memset(&lx, 0, sizeof lx);
    lx.clean = strip_comments(source);
    count_features(lx.clean, &r->features);
    lex_source(&lx);
    TokVec toks = {0};
    if (expand(&lx, lx.raw.v, lx.raw.n, &toks, 0, 0) != 0) {
        free(toks.v);
        lexed_release(&lx);
        return ERR(e, "kernel.cu: macro expansion beyond %d tokens", TOKENS_MAX);
    }
    An an;
    memset(&an, 0, sizeof an);
    an.t = toks.v;
    an.n = toks.n;
    scan_file(&an);
    for (int f = 0; f < an.n_funcs; f++) {
        if (!an.funcs[f].is_kernel)
            continue;
        int lane = 0;
        for (int l = 0; l < n_lanes; l++)
            if (lanes[l].kernel && (int)strlen(lanes[l].kernel) == an.funcs[f].name->len &&
                memcmp(lanes[l].kernel, an.funcs[f].name->s, (size_t)an.funcs[f].name->len) == 0)
                lane = lanes[l].dim;
        r->kernels = xrealloc(r->kernels, sizeof *r->kernels * (size_t)(r->n_kernels + 1));
        analyse_kernel(&an, f, lane, &r->kernels[r->n_kernels++]);
    }
    for (int f = 0; f < an.n_funcs; f++)
        free(an.funcs[f].params);
    free(an.funcs);
    free(an.globals);
    free(an.structs);
    free(an.memo);
    free(toks.v);
    lexed_release(&lx);
    return 0;
}

void src_report_release(SrcReport *r)
{
    for (int i = 0; i < r->n_kernels; i++) {
        SrcKernel *k = &r->kernels[i];
        free(k->name);
        for (int p = 0; p < k->n_params && k->param_names; p++)
            free(k->param_names[p]);
        free(k->param_names);
        free(k->shared);
        free(k->divergent);
        free(k->early_exit);
        free(k->accesses);
    }
    free(r->kernels);
    memset(r, 0, sizeof *r);
}

const SrcKernel *src_find_kernel(const SrcReport *r, const char *name)
{
    for (int i = 0; i < r->n_kernels; i++)
        if (strcmp(r->kernels[i].name, name) == 0)
            return &r->kernels[i];
    return NULL;
}
