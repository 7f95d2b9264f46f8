#include "kb_source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

/* One module-level statement start: where its line begins, and for an
 * integer-constant assignment the name and the span of the value. */
typedef struct Assign {
    size_t name_at, name_len;
    size_t value_at, value_len;
    int64_t value;
} Assign;

/* Parses `NAME [: int] = [+-]DIGITS [# ...]` at line; 1 if it is one. */
static int parse_assign(const char *line, size_t base, Assign *a)
{
    const char *p = line;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return 0;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    a->name_at = base;
    a->name_len = (size_t)(p - line);
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == ':') {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "int", 3) != 0 || isalnum((unsigned char)p[3]) || p[3] == '_')
            return 0;
        p += 3;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    if (*p != '=' || p[1] == '=')
        return 0;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *v = p;
    if (*p == '-' || *p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        return 0;
    /* Python: no leading zeros on a non-zero decimal literal. */
    if (*p == '0' && isdigit((unsigned char)p[1]))
        return 0;
    int64_t val = 0;
    while (isdigit((unsigned char)*p) || (*p == '_' && isdigit((unsigned char)p[1]))) {
        if (*p != '_') {
            if (val > (INT64_MAX - 9) / 10)
                return 0;
            val = val * 10 + (*p - '0');
        }
        p++;
    }
    const char *vend = p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '\0' && *p != '\n' && *p != '#' && !(*p == '\r' && (p[1] == '\n' || p[1] == '\0')))
        return 0;
    a->value_at = base + (size_t)(v - line);
    a->value_len = (size_t)(vend - v);
    a->value = *v == '-' ? -val : val;
    return 1;
}

/* Calls fn for every module-level line (column 0, outside strings and
 * brackets, not a continuation); stops when fn returns non-zero. */
typedef int (*LineFn)(void *ctx, const char *src, size_t at);

static int each_module_line(const char *src, LineFn fn, void *ctx)
{
    int depth = 0, cont = 0;
    char in_str = 0;   /* quote char of an open string */
    int triple = 0;
    size_t i = 0, n = strlen(src);
    while (i < n) {
        /* at a line start */
        if (!in_str && depth == 0 && !cont && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' &&
            src[i] != '\r' && src[i] != '#') {
            int r = fn(ctx, src, i);
            if (r)
                return r;
        }
        cont = 0;
        for (; i < n && src[i] != '\n'; i++) {
            char c = src[i];
            if (in_str) {
                if (c == '\\') {
                    i++;
                    if (i < n && src[i] == '\n')
                        break; /* escaped newline inside a string */
                    continue;
                }
                if (c == in_str) {
                    if (!triple) {
                        in_str = 0;
                    } else if (i + 2 < n && src[i + 1] == c && src[i + 2] == c) {
                        in_str = 0;
                        i += 2;
                    }
                }
                continue;
            }
            if (c == '#') {
                while (i < n && src[i] != '\n')
                    i++;
                break;
            }
            if (c == '"' || c == '\'') {
                in_str = c;
                triple = i + 2 < n && src[i + 1] == c && src[i + 2] == c;
                if (triple)
                    i += 2;
                continue;
            }
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            else if (c == '\\' && (i + 1 >= n || src[i + 1] == '\n' ||
                                   (src[i + 1] == '\r' && i + 2 < n && src[i + 2] == '\n')))
                cont = 1;
        }
        /* A single-quoted string does not survive the end of its line. */
        if (in_str && !triple)
            in_str = 0;
        i++; /* past '\n' */
    }
    return 0;
}

typedef struct Collect {
    Assign *a;
    int n, cap;
} Collect;

static int collect_assign(void *ctx, const char *src, size_t at)
{
    Collect *c = ctx;
    Assign a;
    if (!parse_assign(src + at, at, &a))
        return 0;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->a = xrealloc(c->a, sizeof *c->a * (size_t)c->cap);
    }
    c->a[c->n++] = a;
    return 0;
}

int kb_source_constants(const char *source, const char *label, KbConstants *out, Error *e)
{
    int rc = 0;
    Collect c = {NULL, 0, 0};
    memset(out, 0, sizeof *out);
    each_module_line(source, collect_assign, &c);
    for (int i = 0; i < c.n; i++) {
        char *name = xstrndup(source + c.a[i].name_at, c.a[i].name_len);
        int k = kb_constants_find(out, name);
        if (k >= 0) {
            out->values[k] = c.a[i].value;
            free(name);
            continue;
        }
        if (out->n == KB_MAX_CONSTANTS) {
            free(name);
            FAIL(e, "%s%smore than %d module-level integer constants", label ? label : "", label ? ": " : "",
                 KB_MAX_CONSTANTS);
        }
        out->names[out->n] = name;
        out->values[out->n++] = c.a[i].value;
    }
done:
    if (rc)
        kb_constants_release(out);
    free(c.a);
    return rc;
}

void kb_constants_release(KbConstants *k)
{
    for (int i = 0; i < k->n; i++)
        free(k->names[i]);
    k->n = 0;
}

void kb_constants_copy(KbConstants *dst, const KbConstants *src)
{
    dst->n = src->n;
    for (int i = 0; i < src->n; i++) {
        dst->names[i] = xstrdup(src->names[i]);
        dst->values[i] = src->values[i];
    }
}

int kb_constants_find(const KbConstants *k, const char *name)
{
    for (int i = 0; i < k->n; i++)
        if (strcmp(k->names[i], name) == 0)
            return i;
    return -1;
}

/* ---- entry points ---- */

typedef struct Entry {
    int have_model, have_inputs, have_init;
} Entry;

static int starts_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && !(isalnum((unsigned char)s[n]) || s[n] == '_');
}

static int find_entry(void *ctx, const char *src, size_t at)
{
    Entry *en = ctx;
    const char *s = src + at;
    if (strncmp(s, "class ", 6) == 0) {
        s += 6;
        while (*s == ' ')
            s++;
        if (starts_word(s, "Model"))
            en->have_model = 1;
    } else if (strncmp(s, "def ", 4) == 0 || strncmp(s, "async def ", 10) == 0) {
        s += s[0] == 'd' ? 4 : 10;
        while (*s == ' ')
            s++;
        if (starts_word(s, "get_inputs"))
            en->have_inputs = 1;
        else if (starts_word(s, "get_init_inputs"))
            en->have_init = 1;
    }
    return 0;
}

int kb_source_check_entry_points(const char *source, const char *label, Error *e)
{
    Entry en = {0, 0, 0};
    each_module_line(source, find_entry, &en);
    const char *missing = !en.have_model ? "class Model" : !en.have_inputs ? "def get_inputs()"
                          : !en.have_init ? "def get_init_inputs()" : NULL;
    if (!missing)
        return 0;
    return ERR(e, "%s%sno module-level `%s` (a KernelBench-format file defines Model, get_inputs and "
                  "get_init_inputs)", label ? label : "", label ? ": " : "", missing);
}

/* ---- printing ---- */

int kb_source_find_print(const char *src)
{
    int line = 1;
    char prev_sig = 0;          /* last non-space character outside strings */
    size_t n = strlen(src);
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == '\n') {
            line++;
            continue;
        }
        if (c == '#') {
            while (i + 1 < n && src[i + 1] != '\n')
                i++;
            continue;
        }
        if (c == '"' || c == '\'') {
            int triple = i + 2 < n && src[i + 1] == c && src[i + 2] == c;
            i += triple ? 3 : 1;
            for (; i < n; i++) {
                if (src[i] == '\n') {
                    line++;
                    if (!triple)
                        break;
                }
                if (src[i] == '\\') {
                    if (i + 1 < n && src[i + 1] == '\n')
                        line++;
                    i++;
                    continue;
                }
                if (src[i] == c && (!triple || (i + 2 < n && src[i + 1] == c && src[i + 2] == c))) {
                    i += triple ? 2 : 0;
                    break;
                }
            }
            prev_sig = c;
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_') {
            size_t s0 = i;
            while (i + 1 < n && (isalnum((unsigned char)src[i + 1]) || src[i + 1] == '_'))
                i++;
            size_t len = i + 1 - s0;
            size_t j = i + 1;
            while (j < n && (src[j] == ' ' || src[j] == '\t'))
                j++;
            if (prev_sig != '.' && len == 5 && strncmp(src + s0, "print", 5) == 0 && j < n && src[j] == '(')
                return line;
            if (len == 3 && strncmp(src + s0, "sys", 3) == 0 && strncmp(src + j, ".stdout", 7) == 0)
                return line;
            prev_sig = src[i];
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\r')
            prev_sig = c;
    }
    return 0;
}

/* ---- rewriting ---- */

int kb_source_set_constants(const char *source, const KbConstants *values, const char *label, char **out, Error *e)
{
    int rc = 0;
    Collect c = {NULL, 0, 0};
    StrBuf sb = STRBUF_INIT;
    int seen[KB_MAX_CONSTANTS] = {0};
    *out = NULL;
    each_module_line(source, collect_assign, &c);
    size_t at = 0;
    for (int i = 0; i < c.n; i++) {
        int k = -1;
        for (int j = 0; j < values->n && k < 0; j++)
            if (strlen(values->names[j]) == c.a[i].name_len &&
                strncmp(source + c.a[i].name_at, values->names[j], c.a[i].name_len) == 0)
                k = j;
        if (k < 0)
            continue;
        seen[k] = 1;
        sb_append_n(&sb, source + at, c.a[i].value_at - at);
        sb_printf(&sb, "%lld", (long long)values->values[k]);
        at = c.a[i].value_at + c.a[i].value_len;
    }
    for (int j = 0; j < values->n; j++)
        if (!seen[j])
            FAIL(e, "%s: no module-level integer constant '%s' to set", label, values->names[j]);
    sb_append(&sb, source + at);
    *out = sb_steal(&sb);
done:
    sb_release(&sb);
    free(c.a);
    return rc;
}
