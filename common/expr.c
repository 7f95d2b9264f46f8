#include "expr.h"

#include <ctype.h>
#include <string.h>

/* Recursive-descent parser that evaluates while it parses.  In check mode
 * names evaluate to 1 and arithmetic faults are ignored: only syntax and
 * unknown names are errors. */
typedef struct Parser {
    const char *src;
    const char *p;
    const ExprEnv *env;
    int check_only;
    Error *e;
} Parser;

static int parse_expr(Parser *ps, int64_t *out);

static void skip_space(Parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int fail(Parser *ps, const char *what)
{
    return ERR(ps->e, "expression '%s': %s at offset %d", ps->src, what,
               (int)(ps->p - ps->src));
}

static int arith(Parser *ps, char op, int64_t a, int64_t b, int64_t *out)
{
    int64_t r = 0;
    int bad = 0;
    switch (op) {
    case '+': bad = __builtin_add_overflow(a, b, &r); break;
    case '-': bad = __builtin_sub_overflow(a, b, &r); break;
    case '*': bad = __builtin_mul_overflow(a, b, &r); break;
    case '/':
    case '%':
        if (b == 0) {
            if (ps->check_only) { *out = 1; return 0; }
            return ERR(ps->e, "expression '%s': %s by zero", ps->src,
                       op == '/' ? "division" : "modulo");
        }
        if (a == INT64_MIN && b == -1) {
            bad = 1;
            break;
        }
        r = op == '/' ? a / b : a % b;
        break;
    }
    if (bad) {
        if (ps->check_only) { *out = 1; return 0; }
        return ERR(ps->e, "expression '%s': integer overflow in %lld %c %lld", ps->src,
                   (long long)a, op, (long long)b);
    }
    *out = r;
    return 0;
}

static int lookup(Parser *ps, const char *name, size_t len, int64_t *out)
{
    if (ps->env) {
        for (size_t i = 0; i < ps->env->count; i++) {
            const char *n = ps->env->names[i];
            if (strlen(n) == len && memcmp(n, name, len) == 0) {
                *out = ps->check_only ? 1 : ps->env->values[i];
                return 0;
            }
        }
    }
    return ERR(ps->e, "expression '%s': unknown name '%.*s'", ps->src, (int)len, name);
}

static int parse_primary(Parser *ps, int64_t *out)
{
    skip_space(ps);
    const char *p = ps->p;
    if (isdigit((unsigned char)*p)) {
        int64_t v = 0;
        while (isdigit((unsigned char)*p)) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *p - '0', &v))
                return fail(ps, "integer literal too large");
            p++;
        }
        if (isalpha((unsigned char)*p) || *p == '_' || *p == '.')
            return fail(ps, "malformed number");
        ps->p = p;
        *out = v;
        return 0;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t len = (size_t)(p - start);
        ps->p = p;
        int is_min = len == 3 && memcmp(start, "min", 3) == 0;
        int is_max = len == 3 && memcmp(start, "max", 3) == 0;
        skip_space(ps);
        if ((is_min || is_max) && *ps->p == '(') {
            int64_t a, b;
            ps->p++;
            if (parse_expr(ps, &a) != 0)
                return -1;
            skip_space(ps);
            if (*ps->p != ',')
                return fail(ps, "expected ',' in min/max");
            ps->p++;
            if (parse_expr(ps, &b) != 0)
                return -1;
            skip_space(ps);
            if (*ps->p != ')')
                return fail(ps, "expected ')' after min/max arguments");
            ps->p++;
            *out = is_min ? (a < b ? a : b) : (a > b ? a : b);
            return 0;
        }
        return lookup(ps, start, len, out);
    }
    if (*p == '(') {
        ps->p++;
        if (parse_expr(ps, out) != 0)
            return -1;
        skip_space(ps);
        if (*ps->p != ')')
            return fail(ps, "expected ')'");
        ps->p++;
        return 0;
    }
    return fail(ps, *p ? "unexpected character" : "unexpected end");
}

static int parse_unary(Parser *ps, int64_t *out)
{
    skip_space(ps);
    if (*ps->p == '-') {
        ps->p++;
        int64_t v;
        if (parse_unary(ps, &v) != 0)
            return -1;
        return arith(ps, '-', 0, v, out);
    }
    return parse_primary(ps, out);
}

static int parse_term(Parser *ps, int64_t *out)
{
    int64_t acc;
    if (parse_unary(ps, &acc) != 0)
        return -1;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '*' && op != '/' && op != '%')
            break;
        ps->p++;
        int64_t rhs;
        if (parse_unary(ps, &rhs) != 0 || arith(ps, op, acc, rhs, &acc) != 0)
            return -1;
    }
    *out = acc;
    return 0;
}

static int parse_expr(Parser *ps, int64_t *out)
{
    int64_t acc;
    if (parse_term(ps, &acc) != 0)
        return -1;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            break;
        ps->p++;
        int64_t rhs;
        if (parse_term(ps, &rhs) != 0 || arith(ps, op, acc, rhs, &acc) != 0)
            return -1;
    }
    *out = acc;
    return 0;
}

static int run(const char *src, const ExprEnv *env, int check_only, int64_t *out, Error *e)
{
    if (!src)
        return ERR(e, "expression is missing");
    Parser ps = {src, src, env, check_only, e};
    int64_t v;
    if (parse_expr(&ps, &v) != 0)
        return -1;
    skip_space(&ps);
    if (*ps.p)
        return fail(&ps, "trailing characters");
    if (out)
        *out = v;
    return 0;
}

int expr_eval(const char *src, const ExprEnv *env, int64_t *out, Error *e)
{
    return run(src, env, 0, out, e);
}

int expr_check(const char *src, const ExprEnv *env, Error *e)
{
    return run(src, env, 1, NULL, e);
}
