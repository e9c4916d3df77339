// Sorting and binary search on the CPU, in NumPy's order. Rows are spread
// over the cores. Integer, bool, float32 and float64 rows are radix sorted
// (a byte at a time, stable: a pass over memory per byte instead of log n
// comparisons per key; one long row's passes split over the cores); float16
// and complex rows by comparison, one long row with libstdc++'s parallel
// stable merge sort (OpenMP). Ctrl-C stops a sort
// between radix passes and between rows.
#include <parallel/algorithm>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "interrupts.hpp"
#include "parallel.hpp"
#include "types.hpp"

namespace kiln::cpu {
namespace {

constexpr int64_t kGrain = 1 << 15;  // keys a core sorts or searches at least

// NumPy's sort order: NaN after every number. Complex values fall in four
// classes, each after the one before: no NaN part, NaN imaginary part, NaN
// real part, both NaN; within a class by real part, then imaginary part.
template <class T>
bool nan_last_less(T a, T b) {
  if constexpr (is_float_v<T>) return a < b || (b != b && a == a);
  else return a < b;
}

template <class T>
struct NumpyLess {
  bool operator()(const T& a, const T& b) const {
    if constexpr (is_complex_v<T>) {
      const int class_a = 2 * std::isnan(a.real()) + std::isnan(a.imag());
      const int class_b = 2 * std::isnan(b.real()) + std::isnan(b.imag());
      if (class_a != class_b) return class_a < class_b;
      if (a.real() != b.real() && !std::isnan(a.real())) return a.real() < b.real();
      return a.imag() < b.imag();
    } else {
      return nan_last_less(a, b);
    }
  }
};

template <class T>
struct Keyed {
  T key;
  int64_t index;
};

template <class T>
inline constexpr bool radix_sortable_v = std::is_integral_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;
constexpr int64_t kRadixMin = 256;  // shorter rows: comparisons cost less than 256-entry histograms
constexpr int64_t kParallelRadixSlice = 1 << 16;  // keys a thread of one row's radix sort takes at least

template <class T>
using RadixBits = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

// An unsigned integer ordered as NumpyLess orders the keys: signed integers
// with the sign bit flipped; floats by their bits, negatives reversed, -0.0
// as 0.0 and every NaN as the largest (after +inf, all equal).
template <class T>
RadixBits<T> radix_key(T v) {
  using U = RadixBits<T>;
  constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
  if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? U(static_cast<U>(v) ^ sign) : static_cast<U>(v);
  } else {
    if (v != v) return U(~U(0));
    if (v == 0) return sign;
    U u;
    std::memcpy(&u, &v, sizeof u);
    return (u & sign) ? U(~u) : U(u | sign);
  }
}

// Least-significant-digit radix sort of items[0, n) by radix_key(key(item)),
// a byte per pass (bytes all keys share are skipped), stable; `scratch` holds
// n items. Returns false, items part sorted, when Ctrl-C came.
template <class Item, class Key>
bool radix_sort(Item* items, Item* scratch, int64_t n, Key key, const InterruptWatch& watch) {
  using U = decltype(radix_key(key(items[0])));
  constexpr int kBytes = sizeof(U);
  std::vector<int64_t> counts(kBytes * 256, 0);
  for (int64_t i = 0; i < n; ++i) {
    const U k = radix_key(key(items[i]));
    for (int b = 0; b < kBytes; ++b) ++counts[b * 256 + ((k >> (8 * b)) & 255)];
  }
  Item *from = items, *to = scratch;
  for (int b = 0; b < kBytes; ++b) {
    if (watch.stop()) return false;
    int64_t* offset = counts.data() + b * 256;
    if (offset[(radix_key(key(from[0])) >> (8 * b)) & 255] == n) continue;
    int64_t start = 0;
    for (int d = 0; d < 256; ++d) start += std::exchange(offset[d], start);
    for (int64_t i = 0; i < n; ++i) to[offset[(radix_key(key(from[i])) >> (8 * b)) & 255]++] = from[i];
    std::swap(from, to);
  }
  if (from != items) std::copy(from, from + n, items);
  return true;
}

// radix_sort of one long row over `chunks` threads: each pass every thread
// counts its slice's digits, the slices' counts are laid out digit by digit
// (slice order within a digit keeps the sort stable), and every thread
// scatters its slice. A pass costs an extra read (the counts change with the
// order) but the reads and the scatter are split over the cores.
template <class Item, class Key>
bool radix_sort_parallel(Item* items, Item* scratch, int64_t n, Key key, const InterruptWatch& watch, int chunks) {
  using U = decltype(radix_key(key(items[0])));
  constexpr int kBytes = sizeof(U);
  std::vector<int64_t> counts(static_cast<size_t>(chunks) * 256);
  Item *from = items, *to = scratch;
  auto slice = [&](int c) { return std::pair<int64_t, int64_t>{n * c / chunks, n * (c + 1) / chunks}; };
  for (int b = 0; b < kBytes; ++b) {
    if (watch.stop()) return false;
    const int shift = 8 * b;
#pragma omp parallel for num_threads(chunks) schedule(static, 1)
    for (int c = 0; c < chunks; ++c) {
      int64_t* h = counts.data() + c * 256;
      std::fill(h, h + 256, 0);
      const auto [lo, hi] = slice(c);
      for (int64_t i = lo; i < hi; ++i) ++h[(radix_key(key(from[i])) >> shift) & 255];
    }
    int64_t start = 0;
    bool one_digit = false;
    for (int d = 0; d < 256 && !one_digit; ++d) {
      int64_t total = 0;
      for (int c = 0; c < chunks; ++c) total += counts[c * 256 + d];
      one_digit = total == n;  // every key has this digit: nothing moves
    }
    if (one_digit) continue;
    for (int d = 0; d < 256; ++d)
      for (int c = 0; c < chunks; ++c) start += std::exchange(counts[c * 256 + d], start);
#pragma omp parallel for num_threads(chunks) schedule(static, 1)
    for (int c = 0; c < chunks; ++c) {
      int64_t* offset = counts.data() + c * 256;
      const auto [lo, hi] = slice(c);
      for (int64_t i = lo; i < hi; ++i) to[offset[(radix_key(key(from[i])) >> shift) & 255]++] = from[i];
    }
    std::swap(from, to);
  }
  if (from != items) {
#pragma omp parallel for num_threads(chunks) schedule(static, 1)
    for (int c = 0; c < chunks; ++c) {
      const auto [lo, hi] = slice(c);
      std::copy(from + lo, from + hi, items + lo);
    }
  }
  return true;
}

template <class Iter, class Less>
void stable_sort(Iter first, Iter last, Less less, bool one_row) {
  if (one_row && last - first > 2 * kGrain && max_threads() > 1)
    __gnu_parallel::stable_sort(first, last, less);
  else
    std::stable_sort(first, last, less);
}

// Sorts one row's n items by their keys (key(item), of type T): radix where
// the key type allows and the row is long enough, else by comparison.
// `scratch` is allocated on first use and reused for the next rows.
template <class T, class Item, class Key>
void sort_row(Item* items, int64_t n, Key key, bool one_row, std::unique_ptr<Item[]>& scratch,
              const InterruptWatch& watch) {
  if constexpr (radix_sortable_v<T>) {
    if (n >= kRadixMin) {
      if (!scratch) scratch.reset(new Item[n]);  // not a vector: vector<bool> has no data()
      const int chunks = one_row ? static_cast<int>(std::min<int64_t>(max_threads(), n / kParallelRadixSlice)) : 1;
      if (chunks > 1)
        radix_sort_parallel(items, scratch.get(), n, key, watch, chunks);
      else
        radix_sort(items, scratch.get(), n, key, watch);
      return;
    }
  }
  const NumpyLess<T> less;
  stable_sort(items, items + n, [&](const Item& x, const Item& y) { return less(key(x), key(y)); }, one_row);
}

template <class T>
void sort_rows(const SortArgs& a) {
  const T* keys = reinterpret_cast<const T*>(a.keys);
  T* sorted = reinterpret_cast<T*>(a.sorted);
  const bool one_row = a.rows == 1;
  const InterruptWatch watch;
  parallel_for(a.rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(a.n, 1)), [&](int64_t begin, int64_t end) {
    std::vector<Keyed<T>> keyed;
    std::unique_ptr<T[]> scratch;
    std::unique_ptr<Keyed<T>[]> keyed_scratch;
    for (int64_t r = begin; r < end && !watch.stop(); ++r) {
      const T* row = keys + r * a.n;
      // One row's copies in and out are split over the cores too (other
      // rows already run in parallel).
      auto each = [&](auto body) {
        if (one_row) parallel_for(a.n, kGrain, [&](int64_t lo, int64_t hi) { for (int64_t i = lo; i < hi; ++i) body(i); });
        else for (int64_t i = 0; i < a.n; ++i) body(i);
      };
      if (!a.indices) {
        T* out = sorted + r * a.n;
        each([&](int64_t i) { out[i] = row[i]; });
        sort_row<T>(out, a.n, [](T v) { return v; }, one_row, scratch, watch);
        continue;
      }
      keyed.resize(static_cast<size_t>(a.n));
      each([&](int64_t i) { keyed[i] = {row[i], i}; });
      sort_row<T>(keyed.data(), a.n, [](const Keyed<T>& x) { return x.key; }, one_row, keyed_scratch, watch);
      each([&](int64_t i) {
        a.indices[r * a.n + i] = keyed[i].index;
        if (sorted) sorted[r * a.n + i] = keyed[i].key;
      });
    }
  });
  watch.check(a.indices ? "argsort" : "sort");
}

template <class T>
void search(const SearchArgs& a) {
  const T* first = reinterpret_cast<const T*>(a.sorted);
  const T* last = first + a.n;
  const T* values = reinterpret_cast<const T*>(a.values);
  const NumpyLess<T> less;
  parallel_for(a.count, kGrain, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j)
      a.out[j] = (a.right ? std::upper_bound(first, last, values[j], less)
                          : std::lower_bound(first, last, values[j], less)) - first;
  });
}

template <class... Ts>
void register_typed(KernelTable& t, TypeList<Ts...>) {
  ((t.sort[dtype_index<Ts>] = &sort_rows<Ts>), ...);
  ((t.search[dtype_index<Ts>] = &search<Ts>), ...);
}

}  // namespace

void register_sort_kernels(KernelTable& table) { register_typed(table, AllTypes{}); }

}  // namespace kiln::cpu
