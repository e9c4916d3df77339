#pragma once
// Hot loops are built for AVX-512, AVX2 (with FMA) and baseline x86-64; the
// loader picks the widest the CPU has (GCC function multiversioning).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define KILN_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KILN_VECTOR_CLONES
#endif
