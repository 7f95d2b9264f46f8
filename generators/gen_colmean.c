/* gen_colmean.c — the data matrix of pb_correlation and pb_covariance and
 * its column means (see gen_colmean.h). */
#include "gen_colmean.h"

#include <stdio.h>

/* The data matrix holds n observations (rows) of m variables (columns). */
const char *cm_dat(int col, const char *buf, const char *k, const char *j)
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
void cm_emit_mean(StrBuf *s, const char *ty, int col, const char *src)
{
    if (col) {
        sb_append(s, "    for (int j = 0; j < m; j++) {\n");
        sb_printf(s, "        %s sum = 0;\n", ty);
        sb_printf(s, "        for (int k = 0; k < n; k++)\n            sum += %s;\n", cm_dat(col, src, "k", "j"));
        sb_append(s, "        mean[j] = sum / n;\n    }\n");
    } else {
        sb_append(s, "    for (int j = 0; j < m; j++)\n        mean[j] = 0;\n");
        sb_append(s, "    for (int k = 0; k < n; k++)\n        for (int j = 0; j < m; j++)\n");
        sb_printf(s, "            mean[j] += %s;\n", cm_dat(col, src, "k", "j"));
        sb_append(s, "    for (int j = 0; j < m; j++)\n        mean[j] /= n;\n");
    }
}
