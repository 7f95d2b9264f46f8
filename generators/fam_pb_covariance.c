/* pb_covariance — the m x m covariance matrix of the m variables (columns)
 * of an n x m data matrix: per-column means, centred data, and the products
 * of the centred columns divided by n - 1 (sample) or n (population).
 *
 * Programs vary in dtype (f32, f64), in the storage of the data (row-major:
 * one observation per row, or column-major: one variable per column), in the
 * divisor (n - 1 or n), and in form: data centred in place (an inout buffer),
 * centred into a separate output, or never centred (the means subtracted
 * inside the product). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

static const char *ctype(int f64)
{
    return f64 ? "double" : "float";
}

/* Appends "<head>(<params>)\n", wrapping the comma-separated parameter list
 * at 100 columns with continuation lines aligned after the parenthesis. */
static void put_signature(StrBuf *s, const char *head, const char *params)
{
    int indent = (int)strlen(head) + 1, col = indent;
    sb_printf(s, "%s(", head);
    const char *q = params;
    while (*q) {
        const char *e = strstr(q, ", ");
        int len = e ? (int)(e - q) : (int)strlen(q);
        if (q != params) {
            if (col + 2 + len + 1 > 100) {
                sb_printf(s, ",\n%*s", indent, "");
                col = indent;
            } else {
                sb_append(s, ", ");
                col += 2;
            }
        }
        sb_append_n(s, q, (size_t)len);
        col += len;
        q = e ? e + 2 : q + len;
    }
    sb_append(s, ")\n");
}

/* The data matrix holds n observations (rows) of m variables (columns). */
static const char *dat(int col, const char *buf, const char *k, const char *j)
{
    static char pool[12][80];
    static int q;
    char *b = pool[q++ % 12];
    if (col)
        snprintf(b, 80, "%s[%s + %s * n]", buf, k, j);
    else
        snprintf(b, 80, "%s[%s * m + %s]", buf, k, j);
    return b;
}

/* mean[j] = the average of column j of `src`, walking the data in storage
 * order (observation by observation when row-major). */
static void emit_mean(StrBuf *s, const char *ty, int col, const char *src)
{
    if (col) {
        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
        sb_printf(s, "        %s sum = 0;\n", ty);
        sb_printf(s, "        for (int k = 0; k < n; k++)\n            sum += %s;\n", dat(col, src, "k", "j"));
        sb_append(s, "        mean[j] = sum / n;\n    }\n");
    } else {
        sb_append(s, "    for (int j = 0; j < m; j++)\n        mean[j] = 0;\n");
        sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
        sb_printf(s, "            mean[j] += %s;\n", dat(col, src, "k", "j"));
        sb_append(s, "    for (int j = 0; j < m; j++)\n        mean[j] /= n;\n");
    }
}

enum { INPLACE, COPY, DIRECT };
static const char *const FORM_TAG[] = {"inplace", "copy", "direct"};

static int generate(GenCtx *g)
{
    for (int form = 0; form < 3; form++)
        for (int col = 0; col < 2; col++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int sample = 0; sample < 2; sample++) {
                    const char *ty = ctype(f64), *dt = f64 ? "f64" : "f32";
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", FORM_TAG[form], col ? "colmajor" : "rowmajor",
                             dt, sample ? "sample" : "population");
                    GenProgram *p = gen_begin(g, variant, "covariance");
                    gen_describe(p, "%s covariance matrix of the columns of an n x m %s data matrix, %s",
                                 sample ? "sample" : "population", col ? "column-major" : "row-major",
                                 form == INPLACE ? "centred in place"
                                                 : form == COPY ? "centred copy" : "without a centred copy");
                    gen_arg(p, "data", dt, form == INPLACE ? "inout" : "in", col ? "m,n" : "n,m");
                    if (form == COPY)
                        gen_arg(p, "centered", dt, "out", col ? "m,n" : "n,m");
                    gen_arg(p, "mean", dt, "out", "m");
                    gen_arg(p, "cov", dt, "out", "m,m");
                    gen_arg(p, "n", "i32", "param", NULL);
                    gen_arg(p, "m", "i32", "param", NULL);
                    gen_config(p, "small", "n=200,m=96");
                    gen_config(p, "edge", sample ? "n=2,m=5" : "n=1,m=5");
                    gen_config(p, "edge-prime", "n=37,m=13");
                    gen_config(p, "edge-one-var", "n=29,m=1");
                    gen_config(p, "large", "n=8192,m=4096");
                    char bytes[64];
                    snprintf(bytes, sizeof bytes, "%d*(%sn*m + m + m*m)", f64 ? 8 : 4, form == DIRECT ? "" : "2*");
                    gen_cost(p, form == DIRECT ? "2*n*m*m + n*m" : "n*m*m + 2*n*m", bytes);
                    if (!f64)
                        gen_tolerance(p, 1e-5, 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_printf(s, "/* covariance: the m x m %s covariance matrix of the m variables of\n"
                                 " * data, n observations of each.  data is %s:\n"
                                 " * %s is observation k of variable j.\n"
                                 " * cov(i, j) = sum_k (x_ki - mean_i)(x_kj - mean_j) / %s.\n",
                              sample ? "sample" : "population", col ? "column-major" : "row-major",
                              col ? "data[k + j * n]" : "data[k * m + j]", sample ? "(n - 1), n >= 2" : "n");
                    if (form == INPLACE)
                        sb_append(s, " * data is overwritten with the centred data. */\n");
                    else if (form == COPY)
                        sb_append(s, " * centered receives the centred data x - mean. */\n");
                    else
                        sb_append(s, " * The means are subtracted inside the product. */\n");
                    char params[200];
                    snprintf(params, sizeof params, "%s%s *data%s%s%s, %s *mean, %s *cov, int n, int m",
                             form == INPLACE ? "" : "const ", ty, form == COPY ? ", " : "", form == COPY ? ty : "",
                             form == COPY ? " *centered" : "", ty, ty);
                    put_signature(s, "void covariance", params);
                    sb_append(s, "{\n");
                    emit_mean(s, ty, col, "data");
                    const char *x = form == COPY ? "centered" : "data";
                    if (form != DIRECT) {
                        if (col)
                            sb_append(s, "    for (int j = 0; j < m; j++)\n        for (int k = 0; k < n; k++)\n");
                        else
                            sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
                        if (form == INPLACE)
                            sb_printf(s, "            %s -= mean[j];\n", dat(col, x, "k", "j"));
                        else
                            sb_printf(s, "            %s = %s - mean[j];\n", dat(col, x, "k", "j"),
                                      dat(col, "data", "k", "j"));
                    }
                    sb_append(s, "    for (int i = 0; i < m; i++) {\n");
                    sb_append(s, "        for (int j = i; j < m; j++) {\n");
                    sb_printf(s, "            %s sum = 0;\n", ty);
                    sb_append(s, "            for (int k = 0; k < n; k++)\n");
                    if (form == DIRECT)
                        sb_printf(s, "                sum += (%s - mean[i]) * (%s - mean[j]);\n",
                                  dat(col, "data", "k", "i"), dat(col, "data", "k", "j"));
                    else
                        sb_printf(s, "                sum += %s * %s;\n", dat(col, x, "k", "i"), dat(col, x, "k", "j"));
                    sb_printf(s, "            cov[i * m + j] = sum / %s;\n", sample ? "(n - 1)" : "n");
                    sb_append(s, "            cov[j * m + i] = cov[i * m + j];\n        }\n    }\n}\n");
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_covariance = {"pb_covariance", "polyhedral", 24, generate};
