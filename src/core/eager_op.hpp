#pragma once
// Running one elementwise op now, its loop types and broadcast shape already
// resolved: the second half of kiln::apply, and what a recorded graph of a
// single op runs as (resolving its types again would only repeat the work).
#include "kiln/array.hpp"
#include "kiln/ops.hpp"
#include "op_types.hpp"

namespace kiln::detail {

Array run_resolved(OpId op, const Operand* args, int arity, const LoopTypes& types, Shape shape, Device device,
                   const Array* out = nullptr);

}  // namespace kiln::detail
