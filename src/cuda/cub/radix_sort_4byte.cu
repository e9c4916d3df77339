// Key types of four bytes (uint32 also sorts the row numbers of multi-row sorts).
#include "radix_sort.cuh"

KILN_CUB_RADIX_SORT(uint32, unsigned int)
KILN_CUB_RADIX_SORT(int32, int)
KILN_CUB_RADIX_SORT(float32, float)
