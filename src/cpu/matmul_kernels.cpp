// The matrix product on the CPU: float32/64 and complex64/128 through the
// BLAS's gemm; integer, bool and float16 with kiln's own loops (as NumPy,
// which has no BLAS for them either), rows spread over the cores.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "backend.hpp"
#include "blas_library.hpp"
#include "interrupts.hpp"
#include "parallel.hpp"
#include "types.hpp"

namespace kiln::cpu {
namespace {

// Row-major out = a @ b is column-major out^T = b^T a^T: gemm with the
// operands swapped and nothing transposed.
template <class T, class Int>
void gemm(void* fn, const T* a, const T* b, T* out, int64_t m, int64_t n, int64_t k) {
  using Gemm = void (*)(const char*, const char*, const Int*, const Int*, const Int*, const T*, const T*, const Int*,
                        const T*, const Int*, const T*, T*, const Int*, size_t, size_t);
  const char no = 'N';
  const Int rows = blas_int<Int>(n), cols = blas_int<Int>(m), inner = blas_int<Int>(k);
  const T one = T(1), zero = T(0);
  reinterpret_cast<Gemm>(fn)(&no, &no, &rows, &cols, &inner, &one, b, &rows, a, &inner, &zero, out, &rows, 1, 1);
}

template <class T>
void blas_matmul(const MatmulArgs& p) {
  const BlasLibrary& blas = blas_library();
  void* fn = blas.fn[static_cast<int>(Routine::gemm)][precision_index<T>];
  const T* a = reinterpret_cast<const T*>(p.a);
  const T* b = reinterpret_cast<const T*>(p.b);
  T* out = reinterpret_cast<T*>(p.out);
  // One gemm call cannot be stopped, so a long product is cut into bands of
  // rows of a and out, each a few billion flops (tenths of a second), with
  // Ctrl-C checked between them; bands of 128 rows or more keep gemm at speed.
  constexpr int64_t kFlopsPerBand = int64_t(4) << 30;
  const int64_t band = std::max<int64_t>(128, kFlopsPerBand / std::max<int64_t>(1, 2 * p.n * p.k));
  const InterruptWatch watch;
  for (int64_t i = 0; i < p.batch; ++i) {
    for (int64_t row = 0; row < p.m; row += band) {
      watch.check("matmul");
      const T *ai = a + i * p.a_stride + row * p.k, *bi = b + i * p.b_stride;
      T* oi = out + i * p.m * p.n + row * p.n;
      const int64_t rows = std::min(band, p.m - row);
      if (blas.ilp64) gemm<T, int64_t>(fn, ai, bi, oi, rows, p.n, p.k);
      else gemm<T, int32_t>(fn, ai, bi, oi, rows, p.n, p.k);
    }
  }
}

// out[i, :] = sum over l of a[i, l] * b[l, :], in the dtype's own arithmetic
// (wrapping integers; float16 accumulates in float32; bool is or of ands).
template <class T>
void loop_matmul(const MatmulArgs& p) {
  using Acc = std::conditional_t<std::is_same_v<T, float16>, float, T>;
  const T* a = reinterpret_cast<const T*>(p.a);
  const T* b = reinterpret_cast<const T*>(p.b);
  T* out = reinterpret_cast<T*>(p.out);
  parallel_for(p.batch * p.m, std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, p.n * p.k)),
               [&](int64_t begin, int64_t end) {
    std::vector<Acc> row(static_cast<size_t>(p.n));
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = r / p.m, at = r % p.m;
      const T* ar = a + i * p.a_stride + at * p.k;
      const T* bi = b + i * p.b_stride;
      std::fill(row.begin(), row.end(), Acc(0));
      for (int64_t l = 0; l < p.k; ++l) {
        const Acc x = static_cast<Acc>(ar[l]);
        const T* bl = bi + l * p.n;
        if constexpr (std::is_same_v<T, bool>) {
          if (x)
            for (int64_t j = 0; j < p.n; ++j) row[j] = row[j] || bl[j];
        } else {
          for (int64_t j = 0; j < p.n; ++j) row[j] += x * static_cast<Acc>(bl[j]);
        }
      }
      T* o = out + r * p.n;
      for (int64_t j = 0; j < p.n; ++j) o[j] = static_cast<T>(row[j]);
    }
  });
}

template <class... Ts>
void register_loops(KernelTable& t, TypeList<Ts...>) {
  ((t.matmul[dtype_index<Ts>] = &loop_matmul<Ts>), ...);
}

}  // namespace

void register_matmul_kernels(KernelTable& t) {
  register_loops(t, BoolIntTypes{});
  t.matmul[dtype_index<float16>] = &loop_matmul<float16>;
  t.matmul[dtype_index<float>] = &blas_matmul<float>;
  t.matmul[dtype_index<double>] = &blas_matmul<double>;
  t.matmul[dtype_index<c64>] = &blas_matmul<c64>;
  t.matmul[dtype_index<c128>] = &blas_matmul<c128>;
}

}  // namespace kiln::cpu
