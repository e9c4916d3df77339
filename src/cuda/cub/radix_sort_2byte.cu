// Key types of two bytes.
#include "radix_sort.cuh"

KILN_CUB_RADIX_SORT(uint16, unsigned short)
KILN_CUB_RADIX_SORT(int16, short)
KILN_CUB_RADIX_SORT(float16, __half)
