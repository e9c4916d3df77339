// Reductions and scans on the CPU.
//
// Two layouts: when the reduced axes are the fast-moving ones each output
// element is reduced from contiguous runs (pairwise for float sums, as NumPy
// does, so rounding error grows as O(log n)); when a kept axis moves fastest a
// block of outputs is accumulated row by row, which vectorises over the kept
// axis (NumPy's sum(axis=0) order).
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

// First: see device_ops.hpp.
#include "device_ops.hpp"

#include "backend.hpp"
#include "parallel.hpp"
#include "strided_loop.hpp"
#include "types.hpp"
#include "vector_clones.hpp"

namespace kiln::cpu {
namespace {

// NumPy's pairwise summation: blocks of up to kPairwiseBlock elements are summed
// with eight accumulators, larger runs are split in halves.
constexpr int64_t kPairwiseBlock = 128;
constexpr int64_t kOutputBlock = 1024;  // outputs accumulated together, row strategy (4 KiB of float sums: rows stream in long runs)

template <class T>
struct SumOp {
  using Acc = compute_t<T>;
  static constexpr bool has_identity = true;
  static constexpr bool pairwise = is_float_v<T> || is_complex_v<T>;
  static Acc identity() { return Acc(0); }
  static Acc load(T x) { return Acc(x); }
  static Acc combine(Acc a, Acc b) { return static_cast<Acc>(a + b); }
};
template <class T>
struct ProdOp {
  using Acc = compute_t<T>;
  static constexpr bool has_identity = true;
  static constexpr bool pairwise = false;
  static Acc identity() { return Acc(1); }
  static Acc load(T x) { return Acc(x); }
  static Acc combine(Acc a, Acc b) { return DeviceOp<dev::op_multiply>::call(a, b); }
};
template <class T>
struct MinOp {
  using Acc = T;
  static constexpr bool has_identity = false;
  static constexpr bool pairwise = false;
  static Acc load(T x) { return x; }
  static Acc combine(Acc a, Acc b) { return DeviceOp<dev::op_minimum>::call(a, b); }
};
template <class T>
struct MaxOp {
  using Acc = T;
  static constexpr bool has_identity = false;
  static constexpr bool pairwise = false;
  static Acc load(T x) { return x; }
  static Acc combine(Acc a, Acc b) { return DeviceOp<dev::op_maximum>::call(a, b); }
};
// sum of a bool or narrower integer dtype into int64 (uint64 for unsigned),
// NumPy's default, read in its own dtype: no converted copy of the input.
template <class T>
struct WideSumOp {
  using Acc = std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>, uint64_t, int64_t>;
  using Out = Acc;
  static constexpr bool has_identity = true;
  static constexpr bool pairwise = false;
  static Acc identity() { return 0; }
  static Acc load(T x) { return static_cast<Acc>(x); }
  static Acc combine(Acc a, Acc b) { return a + b; }
};

// The output element type: Op::Out where an op names one, else the input's.
template <class Op, class T, class = void>
struct OutOf {
  using type = T;
};
template <class Op, class T>
struct OutOf<Op, T, std::void_t<typename Op::Out>> {
  using type = typename Op::Out;
};
template <class Op, class T>
using out_t = typename OutOf<Op, T>::type;

struct AnyOp {
  using Acc = bool;
  static constexpr bool has_identity = true;
  static constexpr bool pairwise = false;
  static bool identity() { return false; }
  static bool load(bool x) { return x; }
  static bool combine(bool a, bool b) { return a || b; }
};
struct AllOp {
  using Acc = bool;
  static constexpr bool has_identity = true;
  static constexpr bool pairwise = false;
  static bool identity() { return true; }
  static bool load(bool x) { return x; }
  static bool combine(bool a, bool b) { return a && b; }
};

template <class T>
const T& at(const char* p, int64_t i, int64_t stride) {
  return *reinterpret_cast<const T*>(p + i * stride);
}

// `load(i)` reads element i; the contiguous and strided callers share this body.
template <class Op, class Load>
typename Op::Acc pairwise_sum(const Load& load, int64_t first, int64_t n) {
  using Acc = typename Op::Acc;
  if (n < 8) {
    Acc r = Op::load(load(first));
    for (int64_t i = 1; i < n; ++i) r = Op::combine(r, Op::load(load(first + i)));
    return r;
  }
  if (n <= kPairwiseBlock) {
    Acc r[8];
    for (int k = 0; k < 8; ++k) r[k] = Op::load(load(first + k));
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) r[k] = Op::combine(r[k], Op::load(load(first + i + k)));
    Acc res = Op::combine(Op::combine(Op::combine(r[0], r[1]), Op::combine(r[2], r[3])),
                          Op::combine(Op::combine(r[4], r[5]), Op::combine(r[6], r[7])));
    for (; i < n; ++i) res = Op::combine(res, Op::load(load(first + i)));
    return res;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return Op::combine(pairwise_sum<Op>(load, first, half), pairwise_sum<Op>(load, first + half, n - half));
}

// The same sums for a contiguous run of float or double, written as NumPy
// writes them: eight named accumulators in a leaf of its own. GCC turns the
// generic leaf above into shuffles and scalar adds for these types, four
// times slower; here the eight adds run side by side.
template <class T>
__attribute__((noinline)) T pairwise_leaf(const T* x, int64_t n) {
  T r0 = x[0], r1 = x[1], r2 = x[2], r3 = x[3], r4 = x[4], r5 = x[5], r6 = x[6], r7 = x[7];
  int64_t i = 8;
  for (; i < n - (n % 8); i += 8) {
    r0 += x[i];
    r1 += x[i + 1];
    r2 += x[i + 2];
    r3 += x[i + 3];
    r4 += x[i + 4];
    r5 += x[i + 5];
    r6 += x[i + 6];
    r7 += x[i + 7];
  }
  T res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
  for (; i < n; ++i) res += x[i];
  return res;
}

template <class T>
T pairwise_contiguous(const T* x, int64_t n) {
  if (n < 8) {
    T r = x[0];
    for (int64_t i = 1; i < n; ++i) r += x[i];
    return r;
  }
  if (n <= kPairwiseBlock) return pairwise_leaf(x, n);
  int64_t half = n / 2;
  half -= half % 8;
  return pairwise_contiguous(x, half) + pairwise_contiguous(x + half, n - half);
}

template <class Op, class T>
typename Op::Acc pairwise_sum(const char* p, int64_t n, int64_t stride) {
  if constexpr ((std::is_same_v<T, float> || std::is_same_v<T, double>) && std::is_same_v<typename Op::Acc, T>) {
    if (stride == sizeof(T)) return pairwise_contiguous(reinterpret_cast<const T*>(p), n);
  }
  if (stride == sizeof(T)) {
    const T* x = reinterpret_cast<const T*>(p);
    return pairwise_sum<Op>([x](int64_t i) { return x[i]; }, 0, n);
  }
  return pairwise_sum<Op>([p, stride](int64_t i) { return at<T>(p, i, stride); }, 0, n);
}

template <class Op> constexpr int extreme_of = 0;  // +1 for max, -1 for min
template <class T> constexpr int extreme_of<MaxOp<T>> = 1;
template <class T> constexpr int extreme_of<MinOp<T>> = -1;

// An integer as wide as T: a vector comparison's result.
template <class T>
using LaneFlag = std::conditional_t<sizeof(T) == 8, int64_t, std::conditional_t<sizeof(T) == 4, int32_t,
                                    std::conditional_t<sizeof(T) == 2, int16_t, int8_t>>>;

// 64 bytes of T (GCC vector extensions: one AVX-512 register, or two or four
// narrower ones on the clones built for narrower CPUs).
template <class T> using Vec64 __attribute__((vector_size(64))) = T;
template <class T> using Flags64 __attribute__((vector_size(64))) = LaneFlag<T>;

template <class T>
inline Vec64<T> load64(const T* p) {
  Vec64<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <int Extreme, class V>
inline V pick(V a, V b) {  // the lanes' extremes, a's where either is NaN as `a > b ? a : b` is
  return Extreme > 0 ? (a > b ? a : b) : (a < b ? a : b);
}

// The extreme of x[0, n) in vector registers, and whether a NaN is among
// them (then the extreme means nothing). Inlined into each vector clone.
template <int Extreme, class T>
__attribute__((always_inline)) inline T lane_extreme(const T* x, int64_t n, bool* any_nan) {
  constexpr int64_t kLanes = 64 / sizeof(T);
  T r = x[0];
  bool nan_seen = false;
  int64_t i = 0;
  if constexpr (!std::is_same_v<T, bool>) {
    if (n >= 2 * kLanes) {
      Vec64<T> m = load64(x);
      Flags64<T> nan = m != m;
      for (i = kLanes; i + kLanes <= n; i += kLanes) {
        const Vec64<T> v = load64(x + i);
        nan |= v != v;
        m = pick<Extreme>(v, m);
      }
      for (int64_t k = 0; k < kLanes; ++k) {
        nan_seen |= nan[k] != 0;
        r = pick<Extreme>(m[k], r);
      }
    }
  }
  for (; i < n; ++i) {
    nan_seen |= x[i] != x[i];
    r = pick<Extreme>(x[i], r);
  }
  *any_nan = nan_seen;
  return r;
}

// min/max of a contiguous run of real numbers in vector registers (built for
// AVX-512, AVX2 and baseline, the widest the CPU has chosen at load), NaN
// noted on the side (a serial NaN-aware loop is one element per max-latency).
// Any NaN is the result, as in NumPy: the first one.
template <int Extreme, class T>
KILN_VECTOR_CLONES T extreme_contiguous(const T* x, int64_t n) {
  bool any_nan;
  const T r = lane_extreme<Extreme>(x, n, &any_nan);
  if (any_nan)
    for (int64_t j = 0; j < n; ++j)
      if (x[j] != x[j]) return x[j];
  return r;
}

// The sum of a contiguous run of integers or bools in a wider integer:
// integer addition reorders exactly, so the widening adds run as vector
// lanes (built for AVX-512, AVX2 and baseline).
template <class Acc, class T>
KILN_VECTOR_CLONES Acc integer_sum_contiguous(const T* x, int64_t n) {
  Acc r = 0;
#pragma omp simd reduction(+ : r)
  for (int64_t i = 0; i < n; ++i) r += static_cast<Acc>(x[i]);
  return r;
}

// any/all of a contiguous run of one-byte bools, blocks of them OR-ed or
// AND-ed as vector lanes, stopping at the first block that decides it.
template <bool IsAny>
KILN_VECTOR_CLONES bool any_all_contiguous(const bool* x, int64_t n) {
  constexpr int64_t kBlock = 1024;
  const auto* bytes = reinterpret_cast<const uint8_t*>(x);
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t end = std::min(n, b + kBlock);
    uint8_t decides = 0;  // a true for any, a false for all
#pragma omp simd reduction(| : decides)
    for (int64_t i = b; i < end; ++i) decides |= static_cast<uint8_t>((bytes[i] != 0) == IsAny);
    if (decides) return IsAny;
  }
  return !IsAny;
}

// Reduces one run of n >= 1 elements.
template <class Op, class T>
typename Op::Acc reduce_run(const char* p, int64_t n, int64_t stride) {
  if constexpr (Op::pairwise) {
    return pairwise_sum<Op, T>(p, n, stride);
  } else {
    if constexpr ((std::is_same_v<Op, SumOp<T>> || std::is_same_v<Op, WideSumOp<T>>) && std::is_integral_v<T> &&
                  std::is_integral_v<typename Op::Acc>)
      if (stride == sizeof(T)) {
        using Read = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;  // bools' bytes are 0 and 1
        return integer_sum_contiguous<typename Op::Acc>(reinterpret_cast<const Read*>(p), n);
      }
    // the max of bools is any, the min all: stopping at the first that decides
    if constexpr (std::is_same_v<T, bool> && (std::is_same_v<Op, MaxOp<bool>> || std::is_same_v<Op, MinOp<bool>>))
      if (stride == sizeof(T)) return any_all_contiguous<std::is_same_v<Op, MaxOp<bool>>>(reinterpret_cast<const bool*>(p), n);
    if constexpr ((std::is_same_v<Op, AnyOp> || std::is_same_v<Op, AllOp>) && std::is_same_v<T, bool>)
      if (stride == sizeof(T)) return any_all_contiguous<std::is_same_v<Op, AnyOp>>(reinterpret_cast<const bool*>(p), n);
    if constexpr (extreme_of<Op> != 0 && std::is_arithmetic_v<T>)
      if (stride == sizeof(T) && n >= 64) return extreme_contiguous<extreme_of<Op>>(reinterpret_cast<const T*>(p), n);
    typename Op::Acc r = Op::load(at<T>(p, 0, stride));
    for (int64_t i = 1; i < n; ++i) r = Op::combine(r, Op::load(at<T>(p, i, stride)));
    return r;
  }
}

// Where a reduction's elements come from: memory at `base`, or a
// ComputedInput (a C-contiguous input computed a tile at a time into a
// buffer of the thread's, never stored whole).
struct Input {
  const char* base;
  const ComputedInput* computed;
};

// Elements a fill computes at once (64 KiB of the widest dtype: a tile
// stays in the core's L2 between its fill and its reduction). At least
// kOutputBlock, a row of the row strategy.
constexpr int64_t kTile = 4096;
static_assert(kTile >= kOutputBlock && kTile >= kPairwiseBlock);

template <class T>
T* thread_tile() {
  alignas(64) thread_local unsigned char tile[kTile * 16];
  static_assert(sizeof(T) <= 16);
  return reinterpret_cast<T*>(tile);
}

// Reduces the computed elements [first, first + n), combining them in the
// order reduce_run would combine them in memory: pairwise sums split as
// pairwise_sum splits until a piece fits a tile; a product of inexact
// numbers carries its accumulator through the tiles; the other folds
// (integers, bools, min, max) give the same value in any grouping.
template <class Op, class T>
typename Op::Acc computed_run(const ComputedInput& c, int64_t first, int64_t n) {
  T* x = thread_tile<T>();
  if constexpr (Op::pairwise) {
    if (n <= kTile) {
      c.fill(c.context, first, n, x);
      return reduce_run<Op, T>(reinterpret_cast<const char*>(x), n, sizeof(T));
    }
    int64_t half = n / 2;
    half -= half % 8;
    return Op::combine(computed_run<Op, T>(c, first, half), computed_run<Op, T>(c, first + half, n - half));
  } else {
    constexpr bool serial = std::is_same_v<Op, ProdOp<T>> && (is_float_v<T> || is_complex_v<T>);
    typename Op::Acc acc{};
    for (int64_t b = 0; b < n; b += kTile) {
      const int64_t len = std::min(kTile, n - b);
      c.fill(c.context, first + b, len, x);
      if constexpr (serial) {
        for (int64_t j = 0; j < len; ++j) acc = b + j == 0 ? Op::load(x[0]) : Op::combine(acc, Op::load(x[j]));
      } else {
        const auto r = reduce_run<Op, T>(reinterpret_cast<const char*>(x), len, sizeof(T));
        acc = b == 0 ? r : Op::combine(acc, r);
      }
    }
    return acc;
  }
}

// One run of n >= 1 elements from byte offset `offset`, `stride` apart (a
// computed input's runs are contiguous: the reduced axes move fastest).
template <class Op, class T>
typename Op::Acc reduce_run_at(const Input& in, int64_t offset, int64_t n, int64_t stride) {
  if (in.computed) return computed_run<Op, T>(*in.computed, offset / static_cast<int64_t>(sizeof(T)), n);
  return reduce_run<Op, T>(in.base + offset, n, stride);
}

// Reduces elements [begin, end) (C order over the reduced axes) from byte offset `base`.
template <class Op, class T>
typename Op::Acc reduce_range(const Input& in, int64_t base, int nd, const int64_t* shape, const int64_t* strides,
                              int64_t begin, int64_t end) {
  int64_t idx[kMaxDims];
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
  }
  typename Op::Acc acc{};
  bool first = true;
  while (begin < end) {
    int64_t p = base;
    for (int d = 0; d < nd; ++d) p += idx[d] * strides[d];
    int64_t run = std::min(shape[nd - 1] - idx[nd - 1], end - begin);
    auto r = reduce_run_at<Op, T>(in, p, run, strides[nd - 1]);
    acc = first ? r : Op::combine(acc, r);
    first = false;
    begin += run;
    idx[nd - 1] += run;
    for (int d = nd - 1; d > 0 && idx[d] == shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
  return acc;
}

// Byte offsets of kept index k in the input and the output.
void kept_offsets(const ReduceArgs& a, int64_t k, int64_t* in_off, int64_t* out_off) {
  int64_t i = 0, o = 0;
  for (int d = a.kept_ndim - 1; d >= 0; --d) {
    int64_t pos = k % a.shape[d];
    k /= a.shape[d];
    i += pos * a.in_strides[d];
    o += pos * a.out_strides[d];
  }
  *in_off = i;
  *out_off = o;
}

template <class Op, class T>
void reduce_by_runs(const ReduceArgs& a) {
  const int nd = a.reduce_ndim;
  const int64_t* rshape = a.shape + a.kept_ndim;
  const int64_t* rstrides = a.in_strides + a.kept_ndim;
  const Input in{a.in, a.computed};
  if (a.kept_size == 1) {
    // One output: split the reduced elements over the cores, then combine the
    // partial results in order.
    int threads = max_threads();
    std::vector<typename Op::Acc> partial(threads);
    std::vector<char> used(threads, 0);
    parallel_for(a.reduce_size, kCheapGrain, [&](int64_t begin, int64_t end) {
      int t = omp_in_parallel() ? omp_get_thread_num() : 0;
      partial[t] = reduce_range<Op, T>(in, 0, nd, rshape, rstrides, begin, end);
      used[t] = 1;
    });
    typename Op::Acc acc{};
    bool first = true;
    for (int t = 0; t < threads; ++t) {
      if (!used[t]) continue;
      acc = first ? partial[t] : Op::combine(acc, partial[t]);
      first = false;
    }
    *reinterpret_cast<out_t<Op, T>*>(a.out) = static_cast<out_t<Op, T>>(acc);
    return;
  }
  int64_t grain = std::max<int64_t>(1, kCheapGrain / a.reduce_size);
  parallel_for(a.kept_size, grain, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      int64_t in_off, out_off;
      kept_offsets(a, k, &in_off, &out_off);
      auto acc = reduce_range<Op, T>(in, in_off, nd, rshape, rstrides, 0, a.reduce_size);
      *reinterpret_cast<out_t<Op, T>*>(a.out + out_off) = static_cast<out_t<Op, T>>(acc);
    }
  });
}

template <class Op, class T>
void reduce_by_rows(const ReduceArgs& a) {
  using Acc = typename Op::Acc;
  const int inner = a.kept_ndim - 1;  // the kept axis that moves fastest
  const int64_t m = a.shape[inner], in_step = a.in_strides[inner], out_step = a.out_strides[inner];
  const int64_t outer = a.kept_size / m;
  const int64_t blocks = (m + kOutputBlock - 1) / kOutputBlock;
  const int nd = a.reduce_ndim;
  const int64_t* rshape = a.shape + a.kept_ndim;
  const int64_t* rstrides = a.in_strides + a.kept_ndim;
  int64_t grain = std::max<int64_t>(1, kCheapGrain / (a.reduce_size * kOutputBlock));
  parallel_for(outer * blocks, grain, [&](int64_t begin, int64_t end) {
    Acc acc[kOutputBlock];
    for (int64_t task = begin; task < end; ++task) {
      int64_t o = task / blocks, j0 = (task % blocks) * kOutputBlock;
      int64_t len = std::min(kOutputBlock, m - j0);
      int64_t in_off, out_off;
      kept_offsets(a, o * m, &in_off, &out_off);
      // A computed input's rows (contiguous, as in_step is then) are
      // computed into the thread's tile, one slot for each of the four rows
      // a sweep reads.
      static_assert(4 * kOutputBlock <= kTile);
      T* tile = a.computed ? thread_tile<T>() : nullptr;
      const int64_t base = in_off + j0 * in_step;
      int64_t idx[kMaxDims] = {};
      auto next_row = [&](int slot) {  // the row at idx, then idx moved on (C order over the reduced axes)
        int64_t row = base;
        for (int d = 0; d < nd; ++d) row += idx[d] * rstrides[d];
        for (int d = nd - 1; d >= 0; --d) {
          if (++idx[d] < rshape[d]) break;
          idx[d] = 0;
        }
        if (!tile) return a.in + row;
        T* at_slot = tile + slot * kOutputBlock;
        a.computed->fill(a.computed->context, row / static_cast<int64_t>(sizeof(T)), len, at_slot);
        return reinterpret_cast<const char*>(at_slot);
      };
      for (int64_t r = 0; r < a.reduce_size;) {
        if (r == 0) {
          const char* row = next_row(0);
          for (int64_t j = 0; j < len; ++j) acc[j] = Op::load(at<T>(row, j, in_step));
          r += 1;
        } else if (in_step == sizeof(T) && r + 4 <= a.reduce_size) {
          // Four rows a sweep, added in row order (the same roundings as
          // one at a time): four streams in flight, a quarter of the
          // accumulator's loads and stores.
          const T* x0 = reinterpret_cast<const T*>(next_row(0));
          const T* x1 = reinterpret_cast<const T*>(next_row(1));
          const T* x2 = reinterpret_cast<const T*>(next_row(2));
          const T* x3 = reinterpret_cast<const T*>(next_row(3));
          for (int64_t j = 0; j < len; ++j)
            acc[j] = Op::combine(Op::combine(Op::combine(Op::combine(acc[j], Op::load(x0[j])), Op::load(x1[j])),
                                             Op::load(x2[j])),
                                 Op::load(x3[j]));
          r += 4;
        } else {
          const char* row = next_row(0);
          for (int64_t j = 0; j < len; ++j) acc[j] = Op::combine(acc[j], Op::load(at<T>(row, j, in_step)));
          r += 1;
        }
      }
      char* out = a.out + out_off + j0 * out_step;
      for (int64_t j = 0; j < len; ++j)
        *reinterpret_cast<out_t<Op, T>*>(out + j * out_step) = static_cast<out_t<Op, T>>(acc[j]);
    }
  });
}

template <class Op, class T>
void reduce(const ReduceArgs& a) {
  auto mag = [](int64_t s) { return s < 0 ? -s : s; };
  bool rows = a.kept_ndim > 0 && a.reduce_ndim > 0 &&
              mag(a.in_strides[a.kept_ndim - 1]) < mag(a.in_strides[a.kept_ndim + a.reduce_ndim - 1]);
  if (rows) reduce_by_rows<Op, T>(a);
  else reduce_by_runs<Op, T>(a);
}

// argmin/argmax: the first extreme, or the first NaN, in C order.
// argmax/argmin of a contiguous run of real numbers in one vector pass and a
// short scan: blocks' extremes in vector registers, the first block holding
// the run's extreme kept (a strict comparison), then the first element of
// that block equal to it. A NaN is the answer where there is one: the first.
template <int Extreme, class T>
KILN_VECTOR_CLONES int64_t first_extreme_index(const T* x, int64_t n) {
  constexpr int64_t kBlock = 4096;
  T best = x[0];
  int64_t best_block = 0;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t len = std::min(kBlock, n - b);
    bool any_nan;
    const T m = lane_extreme<Extreme>(x + b, len, &any_nan);
    if (any_nan) {
      for (int64_t j = b; j < b + len; ++j)
        if (x[j] != x[j]) return j;
    }
    if (b == 0 || (Extreme > 0 ? m > best : m < best)) best = m, best_block = b;
  }
  for (int64_t j = best_block;; ++j)
    if (x[j] == best) return j;
}

// An arg reduction's running answer: the index of the first extreme (or
// first NaN) seen so far, and its value.
template <class T>
struct Found {
  int64_t index = -1;
  T value{};
};

// Whether `next` (found later in C order) replaces `best`: a first NaN wins
// and stays; otherwise a strictly better value.
template <class T, bool IsMax>
bool replaces(const Found<T>& best, const Found<T>& next) {
  if (next.index < 0) return false;
  if (best.index < 0) return true;
  if (DeviceOp<dev::op_isnan>::call(best.value)) return false;
  if (DeviceOp<dev::op_isnan>::call(next.value)) return true;
  return IsMax ? DeviceOp<dev::op_less>::call(best.value, next.value)
               : DeviceOp<dev::op_less>::call(next.value, best.value);
}

// The first extreme (or NaN) of n >= 1 contiguous elements.
template <class T, bool IsMax>
Found<T> first_extreme(const T* x, int64_t n) {
  if constexpr (std::is_arithmetic_v<T>) {
    if (n >= 64) {
      const int64_t i = first_extreme_index<IsMax ? 1 : -1>(x, n);
      return {i, x[i]};
    }
  }
  Found<T> best{0, x[0]};
  for (int64_t i = 1; i < n && !DeviceOp<dev::op_isnan>::call(best.value); ++i)
    if (replaces<T, IsMax>(best, Found<T>{i, x[i]})) best = {i, x[i]};
  return best;
}

// The same over computed elements [first, first + n), a tile at a time;
// indices count from `first`.
template <class T, bool IsMax>
Found<T> computed_extreme(const ComputedInput& c, int64_t first, int64_t n) {
  T* x = thread_tile<T>();
  Found<T> best;
  for (int64_t b = 0; b < n && !(best.index >= 0 && DeviceOp<dev::op_isnan>::call(best.value)); b += kTile) {
    const int64_t len = std::min(kTile, n - b);
    c.fill(c.context, first + b, len, x);
    Found<T> here = first_extreme<T, IsMax>(x, len);
    here.index += b;
    if (replaces<T, IsMax>(best, here)) best = here;
  }
  return best;
}

// Whether output k reads computed elements [k * reduce_size, (k + 1) *
// reduce_size): the reduced axes are the input's last, in C order.
bool reduced_axes_last(const ReduceArgs& a, int64_t item) {
  int64_t expect = item;
  for (int d = a.kept_ndim + a.reduce_ndim - 1; d >= 0; --d) {
    if (a.shape[d] != 1 && a.in_strides[d] != expect) return false;
    expect *= a.shape[d];
  }
  return true;
}

// The first extreme (or NaN) of one output's n elements, `piece(first, m)`
// answering for elements [first, first + m) (indices from first): the range
// split over the cores, the pieces' answers taken in order.
template <class T, bool IsMax, class Piece>
int64_t first_extreme_split(int64_t n, Piece piece) {
  std::vector<Found<T>> found(max_threads());
  parallel_for(n, kCheapGrain, [&](int64_t begin, int64_t end) {
    Found<T> part = piece(begin, end - begin);
    part.index += begin;
    found[omp_in_parallel() ? omp_get_thread_num() : 0] = part;
  });
  Found<T> best;
  for (const Found<T>& part : found)
    if (replaces<T, IsMax>(best, part)) best = part;
  return best.index;
}

template <class T, bool IsMax>
void arg_reduce(const ReduceArgs& a);

// argmin/argmax of a pending expression: each output's range computed a
// tile at a time. Where the reduced axes are not the last, the value is
// stored first and reduced as unfused code would.
template <class T, bool IsMax>
void computed_arg_reduce(const ReduceArgs& a) {
  const ComputedInput& c = *a.computed;
  const int64_t n = a.reduce_size;
  if (!reduced_axes_last(a, sizeof(T))) {
    std::vector<unsigned char> stored(static_cast<size_t>(a.kept_size * n) * sizeof(T));  // new's alignment
    parallel_for(a.kept_size * n, kTile, [&](int64_t begin, int64_t end) {
      c.fill(c.context, begin, end - begin, stored.data() + begin * static_cast<int64_t>(sizeof(T)));
    });
    ReduceArgs from_memory = a;
    from_memory.in = reinterpret_cast<const char*>(stored.data());
    from_memory.computed = nullptr;
    return arg_reduce<T, IsMax>(from_memory);
  }
  if (a.kept_size == 1) {
    *reinterpret_cast<int64_t*>(a.out) = first_extreme_split<T, IsMax>(
        n, [&](int64_t first, int64_t m) { return computed_extreme<T, IsMax>(c, first, m); });
    return;
  }
  parallel_for(a.kept_size, std::max<int64_t>(1, kCheapGrain / n), [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      int64_t in_off, out_off;
      kept_offsets(a, k, &in_off, &out_off);
      *reinterpret_cast<int64_t*>(a.out + out_off) = computed_extreme<T, IsMax>(c, k * n, n).index;
    }
  });
}

template <class T, bool IsMax>
void arg_reduce(const ReduceArgs& a) {
  if (a.computed) return computed_arg_reduce<T, IsMax>(a);
  const int nd = a.reduce_ndim;
  const int64_t* rshape = a.shape + a.kept_ndim;
  const int64_t* rstrides = a.in_strides + a.kept_ndim;
  const bool contiguous = nd == 1 && rstrides[0] == sizeof(T);
  if (a.kept_size == 1 && contiguous) {
    const T* x = reinterpret_cast<const T*>(a.in);
    *reinterpret_cast<int64_t*>(a.out) = first_extreme_split<T, IsMax>(
        a.reduce_size, [&](int64_t first, int64_t m) { return first_extreme<T, IsMax>(x + first, m); });
    return;
  }
  int64_t grain = std::max<int64_t>(1, kCheapGrain / a.reduce_size);
  parallel_for(a.kept_size, grain, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      int64_t in_off, out_off;
      kept_offsets(a, k, &in_off, &out_off);
      int64_t* out = reinterpret_cast<int64_t*>(a.out + out_off);
      if (contiguous) {
        *out = first_extreme<T, IsMax>(reinterpret_cast<const T*>(a.in + in_off), a.reduce_size).index;
        continue;
      }
      int64_t idx[kMaxDims] = {};
      Found<T> best;
      for (int64_t r = 0; r < a.reduce_size && !(r > 0 && DeviceOp<dev::op_isnan>::call(best.value)); ++r) {
        const char* p = a.in + in_off;
        for (int d = 0; d < nd; ++d) p += idx[d] * rstrides[d];
        const Found<T> here{r, *reinterpret_cast<const T*>(p)};
        if (replaces<T, IsMax>(best, here)) best = here;
        for (int d = nd - 1; d >= 0; --d) {
          if (++idx[d] < rshape[d]) break;
          idx[d] = 0;
        }
      }
      *out = best.index;
    }
  });
}

// Inclusive scans, accumulating in the output dtype (NumPy's accumulate).
template <class F, class T>
void scan(const ScanArgs& a) {
  int64_t grain = std::max<int64_t>(1, kCheapGrain / a.length);
  parallel_for(a.outer_size, grain, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      int64_t in_off = 0, out_off = 0, rem = k;
      for (int d = a.outer_ndim - 1; d >= 0; --d) {
        int64_t pos = rem % a.outer_shape[d];
        rem /= a.outer_shape[d];
        in_off += pos * a.in_outer_strides[d];
        out_off += pos * a.out_outer_strides[d];
      }
      const char* x = a.in + in_off;
      char* y = a.out + out_off;
      T acc = *reinterpret_cast<const T*>(x);
      *reinterpret_cast<T*>(y) = acc;
      for (int64_t i = 1; i < a.length; ++i) {
        acc = F::call(acc, *reinterpret_cast<const T*>(x + i * a.in_axis_stride));
        *reinterpret_cast<T*>(y + i * a.out_axis_stride) = acc;
      }
    }
  });
}

template <class... Ts>
void register_typed(KernelTable& t, TypeList<Ts...>) {
  auto& r = t.reduce;
  ((r[static_cast<int>(ReduceOp::sum)][dtype_index<Ts>] = &reduce<SumOp<Ts>, Ts>), ...);
  ((r[static_cast<int>(ReduceOp::prod)][dtype_index<Ts>] = &reduce<ProdOp<Ts>, Ts>), ...);
  ((r[static_cast<int>(ReduceOp::min)][dtype_index<Ts>] = &reduce<MinOp<Ts>, Ts>), ...);
  ((r[static_cast<int>(ReduceOp::max)][dtype_index<Ts>] = &reduce<MaxOp<Ts>, Ts>), ...);
  ((r[static_cast<int>(ReduceOp::argmin)][dtype_index<Ts>] = &arg_reduce<Ts, false>), ...);
  ((r[static_cast<int>(ReduceOp::argmax)][dtype_index<Ts>] = &arg_reduce<Ts, true>), ...);
  ((t.scan[static_cast<int>(ScanOp::cumulative_sum)][dtype_index<Ts>] = &scan<DeviceOp<dev::op_add>, Ts>), ...);
  ((t.scan[static_cast<int>(ScanOp::cumulative_prod)][dtype_index<Ts>] = &scan<DeviceOp<dev::op_multiply>, Ts>), ...);
}

template <class... Ts>
void register_widening_sums(KernelTable& t, TypeList<Ts...>) {
  ((t.widening_sum[dtype_index<Ts>] = &reduce<WideSumOp<Ts>, Ts>), ...);
}

}  // namespace

void register_reduction_kernels(KernelTable& t) {
  register_typed(t, AllTypes{});
  t.computed_reduce_input = ComputedInputForm::HostFill;
  t.reduce[static_cast<int>(ReduceOp::any)][dtype_index<bool>] = &reduce<AnyOp, bool>;
  t.reduce[static_cast<int>(ReduceOp::all)][dtype_index<bool>] = &reduce<AllOp, bool>;
  register_widening_sums(t, TypeList<bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>{});
}

}  // namespace kiln::cpu
