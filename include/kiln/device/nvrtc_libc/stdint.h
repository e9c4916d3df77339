#pragma once
// The fixed-width integer types of <stdint.h>, which NVRTC lacks, for users'
// CUDA C written for nvcc.
#ifndef KILN_NVRTC_STDINT
#define KILN_NVRTC_STDINT
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#endif
