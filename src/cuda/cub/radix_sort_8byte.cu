// Key types of eight bytes (float64 also sorts each part of complex128).
#include "radix_sort.cuh"

KILN_CUB_RADIX_SORT(uint64, unsigned long long)
KILN_CUB_RADIX_SORT(int64, long long)
KILN_CUB_RADIX_SORT(float64, double)
