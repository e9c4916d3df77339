#pragma once
// NVRTC has no C library headers; its math functions (sinf, exp, ...) are
// built in, so #include <math.h> needs nothing from this header.
