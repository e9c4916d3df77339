// Key types of one byte (bool sorts as uint8, and uint8 also sorts NumPy's
// NaN classes of complex values).
#include "radix_sort.cuh"

KILN_CUB_RADIX_SORT(uint8, unsigned char)
KILN_CUB_RADIX_SORT(int8, signed char)
