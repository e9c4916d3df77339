// cg::reduce and its operators (NVIDIA's <cooperative_groups/reduce.h>) for
// the CPU backend: every thread of a tile or coalesced group gets the
// operator folded over the group's values. A tile folds in a butterfly of
// XOR shuffles; floating-point sums may round otherwise than a GPU's.
#pragma once
#include <cooperative_groups.h>

namespace cooperative_groups {

template <class T> struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {  // the smaller (a reduction with it finds the minimum)
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater {  // the larger
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned N, class T, class Op> T reduce(const thread_block_tile<N>& g, T value, Op op) {
  for (unsigned step = N / 2; step > 0; step /= 2) value = op(value, g.shfl_xor(value, static_cast<int>(step)));
  return value;
}

// Any other group of a warp's threads, in rank order.
template <class Group, class T, class Op> T reduce(const Group& g, T value, Op op) {
  const unsigned n = static_cast<unsigned>(g.num_threads());
  T result = g.shfl(value, 0u);
  for (unsigned rank = 1; rank < n; ++rank) result = op(result, g.shfl(value, rank));
  return result;
}

}  // namespace cooperative_groups
