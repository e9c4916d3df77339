#pragma once
// NVRTC has no C library headers, and users' CUDA C includes them out of
// habit from nvcc. printf is built into NVRTC, so this header has nothing
// to declare; it exists so that #include <stdio.h> compiles.
