#include "gen_partial_sums.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "gen_sites.h"

#define MAX_ACCUMULATORS 4

int partial_sums_per_accumulator(int n_accumulators)
{
    return n_accumulators <= 1 ? 64 : n_accumulators == 2 ? 32 : 16;
}

/* The types a loop index or an accumulator may have, longest first so that
 * "unsigned long long" is not read as "unsigned". */
static const char *const INDEX_TYPES[] = {"unsigned long long", "long long", "unsigned int", "unsigned",
                                          "size_t", "long", "int"};
static const char *const SUM_TYPES[] = {"unsigned long long", "long long", "unsigned int", "unsigned",
                                        "double", "float", "long", "int"};

/* The type of `types` (n of them) that p starts with, followed by a blank;
 * NULL when none. */
static const char *type_at(const char *p, const char *const *types, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(types[i]);
        if (strncmp(p, types[i], len) == 0 && p[len] == ' ')
            return types[i];
    }
    return NULL;
}

/* The end of the name that starts at p (p itself when none). */
static const char *name_end(const char *p)
{
    if (!sites_is_name_char(*p) || (*p >= '0' && *p <= '9'))
        return p;
    while (sites_is_name_char(*p))
        p++;
    return p;
}

/* How often the name tok (n bytes) occurs as a whole token in s (len bytes). */
static int count_token(const char *s, size_t len, const char *tok, size_t n)
{
    int count = 0;
    for (const char *p = s; p + n <= s + len; p++)
        if (strncmp(p, tok, n) == 0 && (p == s || !sites_is_name_char(p[-1])) && !sites_is_name_char(p[n]))
            count++;
    return count;
}

/* Whether the body assigns the name v (n bytes): "v =", "v++", "v += ...",
 * "++v" and the like. */
static int assigns(const char *s, size_t len, const char *v, size_t n)
{
    for (const char *p = s; p + n <= s + len; p++) {
        if (strncmp(p, v, n) != 0 || (p > s && sites_is_name_char(p[-1])) || sites_is_name_char(p[n]))
            continue;
        const char *a = p + n;
        while (*a == ' ')
            a++;
        if ((a[0] == '=' && a[1] != '=') || (strchr("+-*/%&|^", a[0]) && a[1] == '=') ||
            (a[0] == '+' && a[1] == '+') || (a[0] == '-' && a[1] == '-'))
            return 1;
        if (p >= s + 2 && ((p[-1] == '+' && p[-2] == '+') || (p[-1] == '-' && p[-2] == '-')))
            return 1;
    }
    return 0;
}

/* The end of the line that starts at line: its newline, or end. */
static const char *line_end(const char *line, const char *end)
{
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    return eol ? eol : end;
}

static const char *skip_blanks(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

typedef struct Accumulator {
    const char *name; /* in the source */
    size_t len;
    const char *type; /* one of SUM_TYPES */
} Accumulator;

/* The arithmetic type that declares the scalar `name` (len bytes) on a line
 * before `before` in the same function (the search stops at a line that
 * starts in column 0) and no deeper than `indent`; NULL when none. */
static const char *declared_type(const char *src, const char *before, int indent, const char *name, size_t len)
{
    const char *line = before;
    while (line > src) {
        const char *prev = line - 1;
        while (prev > src && prev[-1] != '\n')
            prev--;
        line = prev;
        if (*line != ' ' && *line != '\n')
            return NULL;
        const char *p = line;
        while (*p == ' ')
            p++;
        const char *type = type_at(p, SUM_TYPES, sizeof SUM_TYPES / sizeof *SUM_TYPES);
        const char *eol = strchr(p, '\n');
        if (!type || p - line > indent || !eol || eol[-1] != ';')
            continue;
        for (const char *q = p + strlen(type); q + len <= eol; q++) {
            if (strncmp(q, name, len) != 0 || sites_is_name_char(q[-1]) || sites_is_name_char(q[len]))
                continue;
            const char *b = q, *a = q + len;
            while (b[-1] == ' ')
                b--;
            while (*a == ' ')
                a++;
            /* a scalar of the list: after the type or a comma, before =, "," or ";" */
            if ((b == p + strlen(type) || b[-1] == ',') && (*a == '=' || *a == ',' || *a == ';') && a[1] != '=')
                return type;
        }
    }
    return NULL;
}

/* The accumulators of the body: statements "name += ...;" of their own
 * line.  0 with *n set, or -1 when the body is outside the simple form (an
 * accumulator that is not a declared scalar, one updated twice or read
 * elsewhere, more than MAX_ACCUMULATORS). */
static int find_accumulators(const char *src, const char *loop, int indent, const char *body, size_t len,
                             Accumulator *acc, int *n)
{
    *n = 0;
    for (const char *line = body; line < body + len;) {
        const char *eol = line_end(line, body + len), *p = skip_blanks(line);
        const char *e = name_end(p);
        if (e > p && strncmp(e, " += ", 4) == 0) {
            if (eol[-1] != ';' || *n == MAX_ACCUMULATORS)
                return -1;
            Accumulator a = {p, (size_t)(e - p), NULL};
            a.type = declared_type(src, loop, indent, a.name, a.len);
            if (!a.type || count_token(body, len, a.name, a.len) != 1)
                return -1;
            acc[(*n)++] = a;
        }
        line = eol + 1;
    }
    return *n > 0 ? 0 : -1;
}

/* The parts of a loop header "for (T v = A; v < B; v++)" at p. */
typedef struct Header {
    const char *type;     /* one of INDEX_TYPES */
    const char *var;      /* v */
    size_t var_len;
    const char *from, *to; /* A and B */
    size_t from_len, to_len;
    const char *end;      /* the byte after ")" */
} Header;

static int parse_header(const char *p, Header *h)
{
    if (strncmp(p, "for (", 5) != 0)
        return -1;
    p += 5;
    h->type = type_at(p, INDEX_TYPES, sizeof INDEX_TYPES / sizeof *INDEX_TYPES);
    if (!h->type)
        return -1;
    p += strlen(h->type) + 1;
    h->var = p;
    p = name_end(p);
    h->var_len = (size_t)(p - h->var);
    if (!h->var_len || strncmp(p, " = ", 3) != 0)
        return -1;
    h->from = p + 3;
    const char *semi = strchr(h->from, ';');
    const char *eol = strchr(h->from, '\n');
    if (!semi || (eol && eol < semi) || strncmp(semi, "; ", 2) != 0)
        return -1;
    h->from_len = (size_t)(semi - h->from);
    p = semi + 2;
    if (strncmp(p, h->var, h->var_len) != 0 || strncmp(p + h->var_len, " < ", 3) != 0)
        return -1;
    h->to = p + h->var_len + 3;
    semi = strchr(h->to, ';');
    if (!semi || (eol && eol < semi) || strncmp(semi, "; ", 2) != 0)
        return -1;
    h->to_len = (size_t)(semi - h->to);
    p = semi + 2;
    char *incs[3];
    incs[0] = xasprintf("%.*s++)", (int)h->var_len, h->var);
    incs[1] = xasprintf("++%.*s)", (int)h->var_len, h->var);
    incs[2] = xasprintf("%.*s += 1)", (int)h->var_len, h->var);
    h->end = NULL;
    for (int i = 0; i < 3; i++) {
        if (!h->end && strncmp(p, incs[i], strlen(incs[i])) == 0)
            h->end = p + strlen(incs[i]);
        free(incs[i]);
    }
    return h->end ? 0 : -1;
}

/* Whether the body (len bytes) is plain statements: no nested loop, jump,
 * barrier or preprocessor line. */
static int plain_body(const char *body, size_t len)
{
    static const char *const NOT[] = {"for", "while", "do", "break", "continue", "return", "goto", "switch",
                                      "__syncthreads", "__syncwarp", "__syncthreads_or", "__syncthreads_and",
                                      "__syncthreads_count"};
    for (size_t i = 0; i < sizeof NOT / sizeof *NOT; i++)
        if (count_token(body, len, NOT[i], strlen(NOT[i])))
            return 0;
    return memchr(body, '#', len) == NULL;
}

/* body (len bytes) with every line indented by `more` blanks and each
 * accumulator's "name += " made "name_parts[part_] += " when `parted`. */
static void emit_body(StrBuf *b, const char *body, size_t len, int more, const Accumulator *acc, int n, int parted)
{
    for (const char *line = body; line < body + len;) {
        const char *eol = line_end(line, body + len), *p = skip_blanks(line);
        int done = 0;
        for (int i = 0; parted && i < n && !done; i++)
            if (p == acc[i].name) {
                sb_printf(b, "%*s%.*s%.*s_parts[part_]%.*s\n", more, "", (int)(p - line), line, (int)acc[i].len,
                          acc[i].name, (int)(eol - p - acc[i].len), p + acc[i].len);
                done = 1;
            }
        if (!done)
            sb_printf(b, "%*s%.*s\n", eol > line ? more : 0, "", (int)(eol - line), line);
        line = eol + 1;
    }
}

char *partial_sums_rewrite(const char *src, size_t line_at, int *parts, char **trip_count)
{
    const char *line = src + line_at, *p = line;
    while (*p == ' ')
        p++;
    int indent = (int)(p - line);
    Header h;
    if (parse_header(p, &h) != 0)
        return NULL;
    /* the body: a braced block closed at the loop's own indent, or one
     * statement line; `after` is where the source goes on */
    const char *body, *after;
    size_t len;
    if (strncmp(h.end, " {\n", 3) == 0) {
        body = h.end + 3;
        const char *close = sites_after_match(h.end + 1);
        if (!close)
            return NULL;
        const char *close_line = close - 1;
        while (close_line > body && close_line[-1] != '\n')
            close_line--;
        if (close_line <= body || (int)(close - 1 - close_line) != indent)
            return NULL;
        len = (size_t)(close_line - 1 - body);
        after = close;
    } else if (*h.end == '\n') {
        body = h.end + 1;
        const char *eol = strchr(body, '\n');
        const char *q = body;
        while (*q == ' ')
            q++;
        if (!eol || eol[-1] != ';' || q - body <= indent || *q == '{' || strncmp(q, "if ", 3) == 0 ||
            strncmp(q, "if(", 3) == 0)
            return NULL;
        len = (size_t)(eol - body);
        after = eol;
    } else {
        return NULL;
    }
    Accumulator acc[MAX_ACCUMULATORS];
    int n = 0;
    if (!plain_body(body, len) || assigns(body, len, h.var, h.var_len) ||
        find_accumulators(src, line, indent, body, len, acc, &n) != 0)
        return NULL;
    for (int i = 0; i < n; i++)
        if (count_token(h.from, h.from_len, acc[i].name, acc[i].len) ||
            count_token(h.to, h.to_len, acc[i].name, acc[i].len))
            return NULL;
    /* the bound is read once per P iterations now: nothing in it may
     * depend on the index or change in the body ("k < t && k <= i") */
    if (count_token(h.to, h.to_len, h.var, h.var_len) || memchr(h.to, '&', h.to_len) ||
        memchr(h.to, '|', h.to_len) || memchr(h.to, '?', h.to_len))
        return NULL;
    for (const char *q = h.to; q < h.to + h.to_len;) {
        const char *e = name_end(q);
        if (e > q && assigns(body, len, q, (size_t)(e - q)))
            return NULL;
        q = e > q ? e : q + 1;
    }
    /* the new names must be free */
    char *base = xasprintf("%.*s_base", (int)h.var_len, h.var);
    int taken = sites_has_token(src, base) || sites_has_token(src, "part_");
    for (int i = 0; i < n; i++) {
        char *arr = xasprintf("%.*s_parts", (int)acc[i].len, acc[i].name);
        taken |= sites_has_token(src, arr);
        free(arr);
    }
    if (taken) {
        free(base);
        return NULL;
    }
    *parts = partial_sums_per_accumulator(n);
    *trip_count = xasprintf("(%.*s) - (%.*s)", (int)h.to_len, h.to, (int)h.from_len, h.from);
    const int P = *parts;
    const char *T = h.type;
    StrBuf b = STRBUF_INIT;
    sb_printf(&b, "%.*s", (int)line_at, src);
    sb_printf(&b, "%*s{\n", indent, "");
    for (int i = 0; i < n; i++) {
        sb_printf(&b, "%*s    %s %.*s_parts[%d];\n", indent, "", acc[i].type, (int)acc[i].len, acc[i].name, P);
        sb_printf(&b, "%*s    #pragma unroll\n%*s    for (int part_ = 0; part_ < %d; part_++)\n", indent, "", indent,
                  "", P);
        sb_printf(&b, "%*s        %.*s_parts[part_] = 0;\n", indent, "", (int)acc[i].len, acc[i].name);
    }
    sb_printf(&b, "%*s    %s %s = %.*s;\n", indent, "", T, base, (int)h.from_len, h.from);
    sb_printf(&b, "%*s    for (; %s + %d <= (%.*s); %s += %d) {\n", indent, "", base, P, (int)h.to_len, h.to, base,
              P);
    sb_printf(&b, "%*s        #pragma unroll\n%*s        for (int part_ = 0; part_ < %d; part_++) {\n", indent, "",
              indent, "", P);
    sb_printf(&b, "%*s            const %s %.*s = %s + part_;\n", indent, "", T, (int)h.var_len, h.var, base);
    emit_body(&b, body, len, 8, acc, n, 1);
    sb_printf(&b, "%*s        }\n%*s    }\n", indent, "", indent, "");
    sb_printf(&b, "%*s    for (; %s < (%.*s); %s++) {\n", indent, "", base, (int)h.to_len, h.to, base);
    sb_printf(&b, "%*s        const %s %.*s = %s;\n", indent, "", T, (int)h.var_len, h.var, base);
    emit_body(&b, body, len, 4, acc, n, 0);
    sb_printf(&b, "%*s    }\n", indent, "");
    for (int i = 0; i < n; i++) {
        sb_printf(&b, "%*s    #pragma unroll\n%*s    for (int part_ = 0; part_ < %d; part_++)\n", indent, "", indent,
                  "", P);
        sb_printf(&b, "%*s        %.*s += %.*s_parts[part_];\n", indent, "", (int)acc[i].len, acc[i].name,
                  (int)acc[i].len, acc[i].name);
    }
    sb_printf(&b, "%*s}%s", indent, "", after);
    free(base);
    return sb_steal(&b);
}
