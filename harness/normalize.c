#define PCRE2_CODE_UNIT_WIDTH 8
#include "normalize.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

/* Words kept as they are: they carry meaning, not naming. */
static const char *const KEEP[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Bool", "bool", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "ptrdiff_t", "include", "define", "NULL", "INFINITY", "NAN",
    "FLT_MAX", "DBL_MAX", "INT_MAX", "INT_MIN", "sqrt", "sqrtf", "exp", "expf", "log", "logf", "fabs",
    "fabsf", "tanh", "tanhf", "sin", "sinf", "cos", "cosf", "pow", "powf", "fmax", "fmaxf", "fmin", "fminf",
    "erf", "erff", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "fma", "fmaf", "atan2", "atan2f",
    "memcpy", "memset", "malloc", "free", "qsort", NULL};

static int keep_word(const char *w, size_t n)
{
    for (const char *const *k = KEEP; *k; k++)
        if (strlen(*k) == n && memcmp(*k, w, n) == 0)
            return 1;
    return 0;
}

static pcre2_code *compile_re(const char *pattern, uint32_t flags, Error *e)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, flags, &code, &off, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        ERR(e, "normalize: bad pattern '%s': %s", pattern, (char *)msg);
    }
    return re;
}

/* Replaces every match of re in *text by `rep` (PCRE2 substitute). */
static int substitute(pcre2_code *re, char **text, const char *rep, Error *e)
{
    size_t in_len = strlen(*text);
    PCRE2_SIZE out_len = in_len + 1;
    for (;;) {
        char *out = xmalloc(out_len);
        PCRE2_SIZE got = out_len;
        int rc = pcre2_substitute(re, (PCRE2_SPTR)*text, in_len, 0,
                                  PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH, NULL, NULL,
                                  (PCRE2_SPTR)rep, PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out, &got);
        if (rc == PCRE2_ERROR_NOMEMORY) {
            free(out);
            out_len = got + 1;
            continue;
        }
        if (rc < 0) {
            free(out);
            return ERR(e, "normalize: substitution failed (%d)", rc);
        }
        free(*text);
        *text = out;
        return 0;
    }
}

typedef struct Names {
    char **words;
    int n;
} Names;

static int name_index(Names *nm, const char *w, size_t len)
{
    for (int i = 0; i < nm->n; i++)
        if (strlen(nm->words[i]) == len && memcmp(nm->words[i], w, len) == 0)
            return i;
    nm->words = xrealloc(nm->words, sizeof(char *) * (size_t)(nm->n + 1));
    nm->words[nm->n] = xstrndup(w, len);
    return nm->n++;
}

int normalize_source(const char *source, char **out, Error *e)
{
    *out = NULL;
    int rc = -1;
    char *text = xstrdup(source);
    /* Compiled once per process and kept: a build normalises thousands of
     * sources. */
    static pcre2_code *block, *line, *space, *ident;
    if (!block)
        block = compile_re("/\\*.*?\\*/", PCRE2_DOTALL, e);
    if (!line)
        line = compile_re("//[^\\n]*", 0, e);
    if (!space)
        space = compile_re("\\s+", 0, e);
    if (!ident)
        ident = compile_re("[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*", 0, e);
    pcre2_match_data *md = NULL;
    Names nm = {NULL, 0};
    StrBuf sb = STRBUF_INIT;
    if (!block || !line || !space || !ident)
        goto done;
    if (substitute(block, &text, " ", e) != 0 || substitute(line, &text, " ", e) != 0 ||
        substitute(space, &text, " ", e) != 0)
        goto done;
    md = pcre2_match_data_create_from_pattern(ident, NULL);
    size_t len = strlen(text), pos = 0;
    while (pos <= len) {
        int m = pcre2_match(ident, (PCRE2_SPTR)text, len, pos, 0, md, NULL);
        if (m < 0)
            break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        sb_append_n(&sb, text + pos, ov[0] - pos);
        const char *w = text + ov[0];
        size_t wl = ov[1] - ov[0];
        if ((w[0] >= '0' && w[0] <= '9') || keep_word(w, wl))
            sb_append_n(&sb, w, wl);
        else
            sb_printf(&sb, "v%d", name_index(&nm, w, wl));
        pos = ov[1];
        if (ov[1] == ov[0])
            pos++;
    }
    if (pos < len)
        sb_append(&sb, text + pos);
    *out = sb_steal(&sb);
    rc = 0;
done:
    for (int i = 0; i < nm.n; i++)
        free(nm.words[i]);
    free(nm.words);
    sb_release(&sb);
    pcre2_match_data_free(md);
    free(text);
    return rc;
}
