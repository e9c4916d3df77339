// cg::inclusive_scan and cg::exclusive_scan (NVIDIA's
// <cooperative_groups/scan.h>) over a tile or coalesced group, for the CPU
// backend: thread r gets the operator folded over ranks 0..r (inclusive) or
// 0..r-1 (exclusive; rank 0 gets T()).
#pragma once
#include <cooperative_groups/reduce.h>

namespace cooperative_groups {

template <class Group, class T, class Op> T inclusive_scan(const Group& g, T value, Op op) {
  const unsigned rank = g.thread_rank(), n = static_cast<unsigned>(g.num_threads());
  for (unsigned step = 1; step < n; step *= 2) {
    const T before = g.shfl_up(value, step);
    if (rank >= step) value = op(before, value);
  }
  return value;
}
template <class Group, class T> T inclusive_scan(const Group& g, T value) { return inclusive_scan(g, value, plus<T>()); }

template <class Group, class T, class Op> T exclusive_scan(const Group& g, T value, Op op) {
  const T inclusive = inclusive_scan(g, value, op);
  const T before = g.shfl_up(inclusive, 1u);
  return g.thread_rank() == 0 ? T() : before;
}
template <class Group, class T> T exclusive_scan(const Group& g, T value) { return exclusive_scan(g, value, plus<T>()); }

}  // namespace cooperative_groups
