/* torch_l3.c — level 3 PyTorch programs: small architectures. */
#include "torch_families.h"

int torch_l3_families(Family *out, int max)
{
    (void)out;
    (void)max;
    return 0;
}
