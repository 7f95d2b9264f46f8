#include "torch_families.h"

#define MAX_TORCH_FAMILIES 512

static Family all[MAX_TORCH_FAMILIES];
static const Family *ptrs[MAX_TORCH_FAMILIES];
static int starts[4], n_all;

const Family *const *torch_families(int *n)
{
    if (n_all == 0) {
        int (*const levels[3])(Family *, int) = {torch_l1_families, torch_l2_families, torch_l3_families};
        for (int l = 0; l < 3; l++) {
            starts[l] = n_all;
            n_all += levels[l](all + n_all, MAX_TORCH_FAMILIES - n_all);
        }
        starts[3] = n_all;
        for (int i = 0; i < n_all; i++)
            ptrs[i] = &all[i];
    }
    *n = n_all;
    return ptrs;
}

int torch_family_index(const Family *f)
{
    int i = (int)(f - all);
    for (int l = 2; l >= 0; l--)
        if (i >= starts[l])
            return i - starts[l];
    return -1;
}
