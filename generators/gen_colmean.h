/* gen_colmean.h — the data matrix that pb_correlation and pb_covariance
 * read (n observations of m variables, row- or column-major) and the C
 * loop of its column means.
 *
 * Promise: cm_dat() returns one of 12 rotating static buffers;
 * cm_emit_mean() appends complete loops that fill mean[0..m).
 * Deterministic. */
#ifndef CUDAPERF_GEN_COLMEAN_H
#define CUDAPERF_GEN_COLMEAN_H

#include "../common/strbuf.h"

/* Element (observation k, variable j) of buf, column-major when col. */
const char *cm_dat(int col, const char *buf, const char *k, const char *j);
/* mean[j] = the average of variable j of src, in storage order. */
void cm_emit_mean(StrBuf *s, const char *ty, int col, const char *src);

#endif
