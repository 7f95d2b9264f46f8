/* gen_tmpl.c — see gen_tmpl.h. */
#include "gen_tmpl.h"

#include <ctype.h>
#include <string.h>

void tmpl_set(TmplSubs *s, const char *key, const char *val)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->key[i], key) == 0) {
            s->val[i] = val;
            return;
        }
    if (s->n < TMPL_MAX_SUBS) {
        s->key[s->n] = key;
        s->val[s->n++] = val;
    }
}

/* T: element type; f: literal suffix; exp, log, ...: math functions. */
void tmpl_init(TmplSubs *s, int f64)
{
    static const char *const fns[][2] = {
        {"exp", "expf"},   {"log", "logf"},     {"sqrt", "sqrtf"}, {"tanh", "tanhf"},
        {"fabs", "fabsf"}, {"fmax", "fmaxf"},   {"fmin", "fminf"}, {"log1p", "log1pf"},
        {"expm1", "expm1f"}, {"erf", "erff"},   {"sin", "sinf"},   {"cos", "cosf"},
        {"pow", "powf"},   {"floor", "floorf"}};
    s->n = 0;
    tmpl_set(s, "T", f64 ? "double" : "float");
    tmpl_set(s, "f", f64 ? "" : "f");
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        tmpl_set(s, fns[i][0], f64 ? fns[i][0] : fns[i][1]);
}

void tmpl_expand(StrBuf *sb, const TmplSubs *s, const char *tmpl)
{
    for (const char *c = tmpl; *c;) {
        if (*c != '@') {
            sb_putc(sb, *c++);
            continue;
        }
        /* "@name", or "@{name}" where letters follow. */
        int braced = c[1] == '{';
        const char *b = c + 1 + braced, *e = b;
        while (isalnum((unsigned char)*e) || *e == '_')
            e++;
        size_t len = (size_t)(e - b);
        const char *val = NULL;
        for (int i = 0; i < s->n; i++)
            if (strlen(s->key[i]) == len && strncmp(s->key[i], b, len) == 0)
                val = s->val[i];
        if (braced && *e == '}')
            e++;
        if (val && !*val && len == 4 && strncmp(b, "cast", 4) == 0 && *e == '(') {
            /* An empty cast drops its parentheses too: "@cast(a / b)" -> "a / b". */
            int depth = 0;
            const char *close = e;
            for (; *close; close++) {
                depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (*close) {
                StrBuf inner = STRBUF_INIT;
                sb_append_n(&inner, e + 1, (size_t)(close - e - 1));
                tmpl_expand(sb, s, inner.data ? inner.data : "");
                sb_release(&inner);
                c = close + 1;
                continue;
            }
        }
        if (val)
            sb_append(sb, val);
        else
            sb_append_n(sb, c, (size_t)(e - c));
        c = e;
    }
}

void tmpl_put_wrapped(StrBuf *sb, const char *line)
{
    const char *paren = strchr(line, '(');
    int indent = paren ? (int)(paren - line) + 1 : 4;
    int col = 0;
    const char *start = line;
    while (strlen(start) + (size_t)col > 100) {
        const char *brk = NULL;
        for (const char *c = start; *c && c - start + col < 100; c++)
            if (c[0] == ',' && c[1] == ' ')
                brk = c;
        if (!brk)
            break;
        sb_append_n(sb, start, (size_t)(brk - start + 1));
        sb_printf(sb, "\n%*s", indent, "");
        col = indent;
        start = brk + 2;
    }
    sb_append(sb, start);
}
