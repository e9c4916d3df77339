// Sorting and binary search on the CPU, in NumPy's order. Rows are spread
// over the cores; one long row is sorted by libstdc++'s parallel stable merge
// sort (OpenMP).
#include <parallel/algorithm>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend.hpp"
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

template <class Iter, class Less>
void stable_sort(Iter first, Iter last, Less less, bool one_row) {
  if (one_row && last - first > 2 * kGrain && max_threads() > 1)
    __gnu_parallel::stable_sort(first, last, less);
  else
    std::stable_sort(first, last, less);
}

template <class T>
void sort_rows(const SortArgs& a) {
  const T* keys = reinterpret_cast<const T*>(a.keys);
  T* sorted = reinterpret_cast<T*>(a.sorted);
  const NumpyLess<T> less;
  const bool one_row = a.rows == 1;
  parallel_for(a.rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(a.n, 1)), [&](int64_t begin, int64_t end) {
    std::vector<Keyed<T>> keyed;
    for (int64_t r = begin; r < end; ++r) {
      const T* row = keys + r * a.n;
      if (!a.indices) {
        T* out = sorted + r * a.n;
        std::copy(row, row + a.n, out);
        stable_sort(out, out + a.n, less, one_row);
        continue;
      }
      keyed.resize(static_cast<size_t>(a.n));
      for (int64_t i = 0; i < a.n; ++i) keyed[i] = {row[i], i};
      stable_sort(keyed.begin(), keyed.end(), [&](const Keyed<T>& x, const Keyed<T>& y) { return less(x.key, y.key); },
                  one_row);
      for (int64_t i = 0; i < a.n; ++i) {
        a.indices[r * a.n + i] = keyed[i].index;
        if (sorted) sorted[r * a.n + i] = keyed[i].key;
      }
    }
  });
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
