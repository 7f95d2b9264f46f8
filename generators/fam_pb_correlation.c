/* pb_correlation — the m x m correlation matrix of the m variables
 * (columns) of an n x m data matrix: per-column mean and standard deviation
 * (population variance; a deviation <= eps counts as 1 so that a constant
 * column does not divide by zero), normalised data, and the products of the
 * normalised columns; the diagonal is 1.
 *
 * Programs vary in dtype (f32, f64), in the storage of the data (row-major:
 * one observation per row, or column-major: one variable per column), in
 * whether eps is a runtime scalar or a baked constant, and in form: data
 * normalised in place (an inout buffer), normalised into a separate output,
 * or never normalised (centred products divided by n * sd_i * sd_j). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

static const char *ctype(int f64)
{
    return f64 ? "double" : "float";
}

/* A floating literal as a person writes it: 1.5f, 2.0, 0.25. */
static const char *lit(double v, int f64)
{
    static char pool[8][40];
    static int k;
    char *b = pool[k++ % 8];
    char t[32];
    snprintf(t, sizeof t, "%.6g", v);
    if (!strpbrk(t, ".e"))
        strcat(t, ".0");
    snprintf(b, 40, "%s%s", t, f64 ? "" : "f");
    return b;
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
    static const double EPS[] = {0.1, 0.05, 0.01};
    for (int form = 0; form < 3; form++)
        for (int col = 0; col < 2; col++)
            for (int f64 = 0; f64 < 2; f64++)
                for (int runtime = 0; runtime < 2; runtime++) {
                    const char *ty = ctype(f64), *dt = f64 ? "f64" : "f32";
                    const char *sq = f64 ? "sqrt" : "sqrtf";
                    double eps_v = EPS[gen_randint(g, 0, 2)];
                    char eps[40];
                    snprintf(eps, sizeof eps, "%s", runtime ? "eps" : lit(eps_v, f64));
                    char variant[80];
                    snprintf(variant, sizeof variant, "%s-%s-%s-%s", FORM_TAG[form], col ? "colmajor" : "rowmajor",
                             dt, runtime ? "eps-scalar" : "eps-const");
                    GenProgram *p = gen_begin(g, variant, "correlation");
                    gen_describe(p, "correlation matrix of the columns of an n x m %s data matrix, eps %g (%s), %s",
                                 col ? "column-major" : "row-major", eps_v, runtime ? "scalar" : "constant",
                                 form == INPLACE ? "normalised in place"
                                                 : form == COPY ? "normalised copy" : "without a normalised copy");
                    gen_arg(p, "data", dt, form == INPLACE ? "inout" : "in", col ? "m,n" : "n,m");
                    if (form == COPY)
                        gen_arg(p, "norm", dt, "out", col ? "m,n" : "n,m");
                    gen_arg(p, "mean", dt, "out", "m");
                    gen_arg(p, "stddev", dt, "out", "m");
                    gen_arg(p, "corr", dt, "out", "m,m");
                    if (runtime)
                        gen_scalar(p, "eps", dt, eps_v);
                    gen_arg(p, "n", "i32", "param", NULL);
                    gen_arg(p, "m", "i32", "param", NULL);
                    gen_config(p, "small", "n=200,m=96");
                    gen_config(p, "edge", "n=1,m=5");
                    gen_config(p, "edge-prime", "n=37,m=13");
                    gen_config(p, "edge-one-var", "n=29,m=1");
                    gen_config(p, "large", "n=8192,m=4096");
                    char bytes[64];
                    snprintf(bytes, sizeof bytes, "%d*(%sn*m + 2*m + m*m)", f64 ? 8 : 4, form == DIRECT ? "" : "2*");
                    gen_cost(p, form == DIRECT ? "n*m*m + 2*n*m*m + 4*n*m" : "n*m*m + 7*n*m", bytes);
                    if (!f64)
                        gen_tolerance(p, 2e-5, 1e-3);

                    StrBuf *s = gen_src(p);
                    sb_append(s, "#include <math.h>\n\n");
                    sb_printf(s, "/* correlation: the m x m correlation matrix of the m variables of data,\n"
                                 " * n observations of each.  data is %s:\n"
                                 " * %s is observation k of variable j.\n"
                                 " * mean and stddev are per variable (population variance); a deviation\n"
                                 " * <= %s counts as 1 so that a constant variable does not divide by zero.\n",
                              col ? "column-major" : "row-major", col ? "data[k + j * n]" : "data[k * m + j]",
                              runtime ? "eps" : eps);
                    if (form == INPLACE)
                        sb_append(s, " * data is overwritten with the normalised data. */\n");
                    else if (form == COPY)
                        sb_append(s, " * norm receives the normalised data (x - mean) / (sqrt(n) * stddev). */\n");
                    else
                        sb_append(s, " * corr(i, j) = sum_k (x_ki - mean_i)(x_kj - mean_j) / (n sd_i sd_j). */\n");
                    char params[240];
                    int pl = snprintf(params, sizeof params, "%s%s *data", form == INPLACE ? "" : "const ", ty);
                    if (form == COPY)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *norm", ty);
                    pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s *mean, %s *stddev, %s *corr", ty, ty, ty);
                    if (runtime)
                        pl += snprintf(params + pl, sizeof params - (size_t)pl, ", %s eps", ty);
                    snprintf(params + pl, sizeof params - (size_t)pl, ", int n, int m");
                    put_signature(s, "void correlation", params);
                    sb_append(s, "{\n");
                    emit_mean(s, ty, col, "data");
                    if (col) {
                        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "        %s sum = 0;\n", ty);
                        sb_append(s, "        for (int k = 0; k < n; k++) {\n");
                        sb_printf(s, "            %s d = %s - mean[j];\n", ty, dat(col, "data", "k", "j"));
                        sb_append(s, "            sum += d * d;\n        }\n");
                        sb_printf(s, "        %s sd = %s(sum / n);\n", ty, sq);
                        sb_printf(s, "        stddev[j] = sd <= %s ? %s : sd;\n    }\n", eps, lit(1, f64));
                    } else {
                        sb_append(s, "    for (int j = 0; j < m; j++)\n        stddev[j] = 0;\n");
                        sb_append(s, "    for (int k = 0; k < n; k++) {\n        for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "            %s d = %s - mean[j];\n", ty, dat(col, "data", "k", "j"));
                        sb_append(s, "            stddev[j] += d * d;\n        }\n    }\n");
                        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
                        sb_printf(s, "        stddev[j] = %s(stddev[j] / n);\n", sq);
                        sb_printf(s, "        if (stddev[j] <= %s)\n            stddev[j] = %s;\n    }\n", eps,
                                  lit(1, f64));
                    }
                    const char *x = form == COPY ? "norm" : "data";
                    if (form != DIRECT) {
                        sb_printf(s, "    %s root_n = %s((%s)n);\n", ty, sq, ty);
                        if (col)
                            sb_append(s, "    for (int j = 0; j < m; j++)\n        for (int k = 0; k < n; k++)\n");
                        else
                            sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
                        sb_printf(s, "            %s = (%s - mean[j]) / (root_n * stddev[j]);\n",
                                  dat(col, x, "k", "j"), dat(col, "data", "k", "j"));
                    }
                    sb_append(s, "    for (int i = 0; i < m; i++) {\n");
                    sb_printf(s, "        corr[i * m + i] = %s;\n", lit(1, f64));
                    sb_append(s, "        for (int j = i + 1; j < m; j++) {\n");
                    sb_printf(s, "            %s sum = 0;\n", ty);
                    sb_append(s, "            for (int k = 0; k < n; k++)\n");
                    if (form == DIRECT) {
                        sb_printf(s, "                sum += (%s - mean[i]) * (%s - mean[j]);\n",
                                  dat(col, "data", "k", "i"), dat(col, "data", "k", "j"));
                        sb_printf(s, "            %s r = sum / (n * stddev[i] * stddev[j]);\n", ty);
                        sb_append(s, "            corr[i * m + j] = r;\n            corr[j * m + i] = r;\n");
                    } else {
                        sb_printf(s, "                sum += %s * %s;\n", dat(col, x, "k", "i"), dat(col, x, "k", "j"));
                        sb_append(s, "            corr[i * m + j] = sum;\n            corr[j * m + i] = sum;\n");
                    }
                    sb_append(s, "        }\n    }\n}\n");
                    if (gen_end(p) != 0)
                        return -1;
                }
    return 0;
}

const Family family_pb_correlation = {"pb_correlation", "polyhedral", 24, generate};
