/* torch_families.h — the PyTorch program families (levels 1 to 3) as one
 * list for cudaperf-gen and the tests.  They are Families like the C ones
 * (gen.h) but run with gen_run_family_lang(f, "torch", ...); each level's
 * module describes its families in a table, and its one generate function
 * finds its row through torch_family_index(). */
#ifndef CUDAPERF_TORCH_FAMILIES_H
#define CUDAPERF_TORCH_FAMILIES_H

#include "gen.h"

/* Every torch family, levels 1, 2, 3 in order; *n gets the count.  The list
 * is built once and lives for the process. */
const Family *const *torch_families(int *n);

/* The row of f in its level's table (f must come from torch_families()). */
int torch_family_index(const Family *f);

/* Each level fills out[0..max) with its families; returns how many. */
int torch_l1_families(Family *out, int max);
int torch_l2_families(Family *out, int max);
int torch_l3_families(Family *out, int max);

#endif
