// LAPACK's factorizations on the CPU, one matrix of the batch after another
// (the library spreads a large one over the cores; small ones run on the
// calling thread). Workspace sizes come from LAPACK's own queries (lwork = -1).
#include <algorithm>
#include <complex>
#include <vector>

#include "backend.hpp"
#include "blas_library.hpp"
#include "types.hpp"

namespace kiln::cpu {
namespace {

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };

// One precision T of LAPACK with integers Int (the library's width).
template <class T, class Int>
struct Lapack {
  using R = typename real_of<T>::type;
  static constexpr bool kComplex = is_complex_v<T>;

  static void* fn(Routine r) { return blas_library().fn[static_cast<int>(r)][precision_index<T>]; }
  static Int I(int64_t v) { return blas_int<Int>(v); }
  static Int lwork_from(T w) { return static_cast<Int>(std::real(w)); }
  static T* matrix(const LapackArgs& p, char* base, int64_t i, int64_t size) {
    return reinterpret_cast<T*>(base) + i * size;
  }

  static void getrf(const LapackArgs& p) {
    using F = void (*)(const Int*, const Int*, T*, const Int*, Int*, Int*);
    const Int m = I(p.m), n = I(p.n), lda = std::max<Int>(1, m);
    const int64_t k = std::min(p.m, p.n);
    std::vector<Int> pivots(static_cast<size_t>(std::max<int64_t>(k, 1)));
    for (int64_t i = 0; i < p.batch; ++i) {
      Int info = 0;
      reinterpret_cast<F>(fn(Routine::getrf))(&m, &n, matrix(p, p.a, i, p.m * p.n), &lda, pivots.data(), &info);
      std::copy(pivots.begin(), pivots.begin() + k, p.pivots + i * k);
      p.info[i] = info;
    }
  }

  static void getrs(const LapackArgs& p) {
    using F = void (*)(const char*, const Int*, const Int*, const T*, const Int*, const Int*, T*, const Int*, Int*,
                       size_t);
    const char no = 'N';
    const Int n = I(p.n), nrhs = I(p.nrhs), ld = std::max<Int>(1, n);
    std::vector<Int> pivots(static_cast<size_t>(std::max<int64_t>(p.n, 1)));
    for (int64_t i = 0; i < p.batch; ++i) {
      std::copy(p.pivots + i * p.n, p.pivots + (i + 1) * p.n, pivots.begin());
      Int info = 0;
      reinterpret_cast<F>(fn(Routine::getrs))(&no, &n, &nrhs, matrix(p, p.a, i, p.n * p.n), &ld, pivots.data(),
                                              matrix(p, p.b, i, p.n * p.nrhs), &ld, &info, 1);
      p.info[i] = info;
    }
  }

  static void potrf(const LapackArgs& p) {
    using F = void (*)(const char*, const Int*, T*, const Int*, Int*, size_t);
    const char uplo = p.upper ? 'U' : 'L';
    const Int n = I(p.n), ld = std::max<Int>(1, n);
    for (int64_t i = 0; i < p.batch; ++i) {
      Int info = 0;
      reinterpret_cast<F>(fn(Routine::potrf))(&uplo, &n, matrix(p, p.a, i, p.n * p.n), &ld, &info, 1);
      p.info[i] = info;
    }
  }

  static void geqrf(const LapackArgs& p) {
    using F = void (*)(const Int*, const Int*, T*, const Int*, T*, T*, const Int*, Int*);
    const Int m = I(p.m), n = I(p.n), lda = std::max<Int>(1, m), query = -1;
    const int64_t k = std::min(p.m, p.n);
    T size{};
    Int info = 0;
    F f = reinterpret_cast<F>(fn(Routine::geqrf));
    f(&m, &n, nullptr, &lda, nullptr, &size, &query, &info);
    const Int lwork = std::max<Int>(1, lwork_from(size));
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t i = 0; i < p.batch; ++i) {
      f(&m, &n, matrix(p, p.a, i, p.m * p.n), &lda, matrix(p, p.values, i, k), work.data(), &lwork, &info);
      p.info[i] = info;
    }
  }

  static void orgqr(const LapackArgs& p) {
    using F = void (*)(const Int*, const Int*, const Int*, T*, const Int*, const T*, T*, const Int*, Int*);
    const Int m = I(p.m), n = I(p.n), k = I(p.reflectors), lda = std::max<Int>(1, m), query = -1;
    T size{};
    Int info = 0;
    F f = reinterpret_cast<F>(fn(Routine::orgqr));
    f(&m, &n, &k, nullptr, &lda, nullptr, &size, &query, &info);
    const Int lwork = std::max<Int>(1, lwork_from(size));
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t i = 0; i < p.batch; ++i) {
      f(&m, &n, &k, matrix(p, p.a, i, p.m * p.n), &lda, matrix(p, p.values, i, p.reflectors), work.data(), &lwork,
        &info);
      p.info[i] = info;
    }
  }

  static void syevd(const LapackArgs& p) {
    const char jobz = p.vectors ? 'V' : 'N', uplo = p.upper ? 'U' : 'L';
    const Int n = I(p.n), ld = std::max<Int>(1, n), query = -1;
    Int info = 0, iwork_size = 0;
    T work_size{};
    R rwork_size{};
    auto call = [&](T* a, R* w, T* work, Int lwork, R* rwork, Int lrwork, Int* iwork, Int liwork) {
      if constexpr (kComplex) {
        using F = void (*)(const char*, const char*, const Int*, T*, const Int*, R*, T*, const Int*, R*, const Int*,
                           Int*, const Int*, Int*, size_t, size_t);
        reinterpret_cast<F>(fn(Routine::syevd))(&jobz, &uplo, &n, a, &ld, w, work, &lwork, rwork, &lrwork, iwork,
                                                &liwork, &info, 1, 1);
      } else {
        using F = void (*)(const char*, const char*, const Int*, T*, const Int*, R*, T*, const Int*, Int*,
                           const Int*, Int*, size_t, size_t);
        reinterpret_cast<F>(fn(Routine::syevd))(&jobz, &uplo, &n, a, &ld, w, work, &lwork, iwork, &liwork, &info, 1,
                                                1);
      }
    };
    call(nullptr, nullptr, &work_size, query, &rwork_size, query, &iwork_size, query);
    std::vector<T> work(static_cast<size_t>(std::max<Int>(1, lwork_from(work_size))));
    std::vector<R> rwork(static_cast<size_t>(std::max<Int>(1, static_cast<Int>(rwork_size))));
    std::vector<Int> iwork(static_cast<size_t>(std::max<Int>(1, iwork_size)));
    for (int64_t i = 0; i < p.batch; ++i) {
      call(matrix(p, p.a, i, p.n * p.n), reinterpret_cast<R*>(p.values) + i * p.n, work.data(),
           static_cast<Int>(work.size()), rwork.data(), static_cast<Int>(rwork.size()), iwork.data(),
           static_cast<Int>(iwork.size()));
      p.info[i] = info;
    }
  }

  // Complex matrices only (the core solves real ones as complex): cgeev/zgeev.
  static void geev(const LapackArgs& p) {
    if constexpr (kComplex) {
      using F = void (*)(const char*, const char*, const Int*, T*, const Int*, T*, T*, const Int*, T*, const Int*,
                         T*, const Int*, R*, Int*, size_t, size_t);
      const char jobvl = 'N', jobvr = p.vectors ? 'V' : 'N';
      const Int n = I(p.n), ld = std::max<Int>(1, n), query = -1;
      Int info = 0;
      std::vector<R> rwork(static_cast<size_t>(std::max<int64_t>(1, 2 * p.n)));
      T size{};
      const auto f = reinterpret_cast<F>(fn(Routine::geev));
      f(&jobvl, &jobvr, &n, nullptr, &ld, nullptr, nullptr, &ld, nullptr, &ld, &size, &query, rwork.data(), &info, 1,
        1);
      std::vector<T> work(static_cast<size_t>(std::max<Int>(1, lwork_from(size))));
      const Int lwork = static_cast<Int>(work.size());
      for (int64_t i = 0; i < p.batch; ++i) {
        f(&jobvl, &jobvr, &n, matrix(p, p.a, i, p.n * p.n), &ld, matrix(p, p.values, i, p.n), nullptr, &ld,
          p.vectors ? matrix(p, p.u, i, p.n * p.n) : nullptr, &ld, work.data(), &lwork, rwork.data(), &info, 1, 1);
        p.info[i] = info;
      }
    }
  }

  // gesvd's contract through LAPACK's gesdd (divide and conquer, as NumPy uses).
  static void gesvd(const LapackArgs& p) {
    const int64_t k = std::min(p.m, p.n);
    const char jobz = !p.u ? 'N' : p.full ? 'A' : 'S';
    const Int m = I(p.m), n = I(p.n), lda = std::max<Int>(1, m), ldu = std::max<Int>(1, m),
              ldvt = std::max<Int>(1, jobz == 'A' ? n : static_cast<Int>(k)), query = -1;
    const int64_t u_size = p.m * (p.full ? p.m : k), vt_size = (p.full ? p.n : k) * p.n;
    Int info = 0;
    std::vector<Int> iwork(static_cast<size_t>(std::max<int64_t>(1, 8 * k)));
    std::vector<R> rwork;
    if constexpr (kComplex) {
      const int64_t big = std::max(p.m, p.n);
      rwork.resize(static_cast<size_t>(std::max<int64_t>(
          1, jobz == 'N' ? 7 * k : k * std::max(5 * k + 7, 2 * big + 2 * k + 1))));
    }
    auto call = [&](T* a, R* s, T* u, T* vt, T* work, Int lwork) {
      if constexpr (kComplex) {
        using F = void (*)(const char*, const Int*, const Int*, T*, const Int*, R*, T*, const Int*, T*, const Int*,
                           T*, const Int*, R*, Int*, Int*, size_t);
        reinterpret_cast<F>(fn(Routine::gesdd))(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork,
                                                rwork.data(), iwork.data(), &info, 1);
      } else {
        using F = void (*)(const char*, const Int*, const Int*, T*, const Int*, R*, T*, const Int*, T*, const Int*,
                           T*, const Int*, Int*, Int*, size_t);
        reinterpret_cast<F>(fn(Routine::gesdd))(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork,
                                                iwork.data(), &info, 1);
      }
    };
    T size{};
    call(nullptr, nullptr, nullptr, nullptr, &size, query);
    std::vector<T> work(static_cast<size_t>(std::max<Int>(1, lwork_from(size))));
    for (int64_t i = 0; i < p.batch; ++i) {
      call(matrix(p, p.a, i, p.m * p.n), reinterpret_cast<R*>(p.values) + i * k,
           p.u ? matrix(p, p.u, i, u_size) : nullptr, p.vt ? matrix(p, p.vt, i, vt_size) : nullptr, work.data(),
           static_cast<Int>(work.size()));
      p.info[i] = info;
    }
  }
};

// Matrices up to this side are factored on the calling thread (see
// SmallCallsOnThisThread); the library's threads pay off above it.
constexpr int64_t kOneThreadMaxSide = 64;

template <class T, void (*F32)(const LapackArgs&), void (*F64)(const LapackArgs&)>
void with_width(const LapackArgs& p) {
  SmallCallsOnThisThread one_thread(std::max(p.m, p.n) <= kOneThreadMaxSide);
  if (blas_library().ilp64) F64(p);
  else F32(p);
}

template <class T>
void register_precision(KernelTable& t) {
  using L32 = Lapack<T, int32_t>;
  using L64 = Lapack<T, int64_t>;
  constexpr int d = dtype_index<T>;
  t.lapack[static_cast<int>(LapackOp::getrf)][d] = &with_width<T, &L32::getrf, &L64::getrf>;
  t.lapack[static_cast<int>(LapackOp::getrs)][d] = &with_width<T, &L32::getrs, &L64::getrs>;
  t.lapack[static_cast<int>(LapackOp::potrf)][d] = &with_width<T, &L32::potrf, &L64::potrf>;
  t.lapack[static_cast<int>(LapackOp::geqrf)][d] = &with_width<T, &L32::geqrf, &L64::geqrf>;
  t.lapack[static_cast<int>(LapackOp::orgqr)][d] = &with_width<T, &L32::orgqr, &L64::orgqr>;
  t.lapack[static_cast<int>(LapackOp::syevd)][d] = &with_width<T, &L32::syevd, &L64::syevd>;
  t.lapack[static_cast<int>(LapackOp::gesvd)][d] = &with_width<T, &L32::gesvd, &L64::gesvd>;
  if constexpr (is_complex_v<T>) t.lapack[static_cast<int>(LapackOp::geev)][d] = &with_width<T, &L32::geev, &L64::geev>;
}

}  // namespace

void register_lapack_kernels(KernelTable& t) {
  register_precision<float>(t);
  register_precision<double>(t);
  register_precision<c64>(t);
  register_precision<c128>(t);
}

}  // namespace kiln::cpu
