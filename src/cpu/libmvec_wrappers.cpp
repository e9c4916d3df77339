// kiln/device/libmvec.hpp's wrappers for kiln's own loops (generated kernels
// get theirs in the host runtime object: host_compiler.cpp).
#define KILN_LIBMVEC_DEFINITIONS
#include "kiln/device/libmvec.hpp"
