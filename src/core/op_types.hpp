#pragma once
// Type resolution of elementwise ops, as NumPy's ufuncs do it: promote the
// inputs, then take the first loop the promoted dtype casts to safely.
#include "kiln/dtype.hpp"
#include "kiln/ops.hpp"

namespace kiln::detail {

struct LoopTypes {
  DType loop;    // dtype the inputs are cast to and the kernel runs in
  DType output;  // dtype of the result
};

// TypeError naming the op and dtype when the op has no loop for it. Where
// the promoted dtype has no loop and `inputs` (count of them) are given,
// the loop is the first every input casts to safely, which NumPy's search
// goes by: int8 with uint8 promote to int16, yet both fit float16, so a
// float-only op runs them in float16 (int16 alone would take float32).
LoopTypes resolve_loop(OpId op, DType promoted, const DType* inputs = nullptr, int count = 0);
bool is_comparison(OpId op);
// How device code (kiln/device/types.cuh) spells an element of `dt`.
const char* device_type(DType dt);

}  // namespace kiln::detail
