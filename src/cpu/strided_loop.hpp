#pragma once
// Walks operands of a StridedArgs in row runs and hands each run to an inner
// loop, in parallel over runs for large inputs (NumPy's ufunc inner-loop model).
#include <cstdint>

#include "kiln/registry.hpp"

namespace kiln::cpu {

// One run of n elements: data[k] advances by strides[k] bytes per element.
using InnerLoop = void (*)(char* const* data, const int64_t* strides, int64_t n);

// Work sizes (elements) below which a kernel runs on one thread.
inline constexpr int64_t kCheapGrain = int64_t{1} << 16;      // add, compare, copy
inline constexpr int64_t kExpensiveGrain = int64_t{1} << 12;  // sin, exp, pow

void run_strided(const StridedArgs& args, InnerLoop loop, int64_t grain);

}  // namespace kiln::cpu
