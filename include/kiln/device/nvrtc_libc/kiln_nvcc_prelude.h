#pragma once
// What every translation unit nvcc compiles sees through its host headers and
// NVRTC does not: glibc's short unsigned type names. Users' CUDA C written
// for nvcc (PyCUDA's examples, for one) uses them without an include, so
// kiln pre-includes this header in users' modules.
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
