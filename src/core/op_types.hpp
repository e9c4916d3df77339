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

// TypeError naming the op and dtype when the op has no loop for it.
LoopTypes resolve_loop(OpId op, DType promoted);
bool is_comparison(OpId op);
// How device code (kiln/device/types.cuh) spells an element of `dt`.
const char* device_type(DType dt);

}  // namespace kiln::detail
