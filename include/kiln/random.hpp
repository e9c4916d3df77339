#pragma once
// Counter-based random numbers: Philox4x32-10 blocks (kiln/device/philox.h).
// Element i of a draw depends only on (key, first_block + i / per_block),
// where per_block is 4 for 4-byte and 2 for 8-byte dtypes. So a seed and a
// shape give the same numbers on every device, and draws never overlap when
// each starts where the last one ended.
#include <cstdint>

#include "kiln/array.hpp"

namespace kiln {

enum class RandomKind : uint8_t {
  Bits,     // uint32 or uint64: the raw words
  Uniform,  // float32 or float64 in [0, 1), all mantissa bits random
  Normal,   // float32 or float64, standard normal (Box-Muller)
};

// Fills the C-contiguous `out` with a draw of `kind` from the stream of `key`
// starting at block `first_block`; returns the number of blocks it used.
// TypeError for a dtype the kind does not produce.
uint64_t fill_random(const Array& out, RandomKind kind, uint64_t key, uint64_t first_block);

}  // namespace kiln
