/* version.h — what build this is (the git revision, for runs' provenance). */
#ifndef CUDAPERF_VERSION_H
#define CUDAPERF_VERSION_H

/* "1f1c651" (with "-dirty" when the tree had changes), or "unknown"
 * outside a git checkout.  Static storage. */
const char *cudaperf_git_rev(void);

#endif
