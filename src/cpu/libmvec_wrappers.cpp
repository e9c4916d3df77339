// kiln/device/libmvec.hpp's wrappers: the object libkiln's loops call and
// generated CPU kernels link (installed beside libkiln: host_compiler.cpp).
#define KILN_LIBMVEC_DEFINITIONS
#include "kiln/device/libmvec.hpp"
