// LAPACK's factorizations on the GPU through cuSOLVER: stacks of small
// matrices in one batched call where a batched routine suits them
// (lapack_batched.hpp), otherwise one call per matrix of the batch, queued on
// the current stream, each with its own info; the infos come back to the host
// once, after the whole batch.
#include <algorithm>
#include <string>
#include <vector>

#include "backend.hpp"
#include "context.hpp"
#include "cusolver.hpp"
#include "kiln/error.hpp"
#include "lapack_batched.hpp"
#include "memory_pool.hpp"

namespace kiln::cuda {
namespace {

// The workspaces and the info of one call.
struct Workspace {
  void* device;
  size_t device_bytes;
  void* host;
  size_t host_bytes;
  int* info;
};

// One cuSOLVER routine over a batch of matrices: the handle, workspaces sized
// once by the routine's query, one call per matrix, and the infos copied to
// p.info after the last (the one wait).
class Batch {
 public:
  Batch(const LapackArgs& p, DType dt)
      : p_(p), item_(static_cast<int64_t>(itemsize(dt))), scope_(p.device), handle_(cusolver_handle(p.device)),
        infos_(allocate_device(sizeof(int) * std::max<int64_t>(1, p.batch), Device::cuda(p.device))) {}

  cusolverDnHandle_t handle() const { return handle_.handle; }
  cusolverDnParams_t params() const { return handle_.params; }
  // Element i of a batch of matrices of `elements` elements each.
  char* matrix(char* base, int64_t i, int64_t elements) const { return base + i * elements * item_; }

  // `query(&device_bytes, &host_bytes)` and `factor(i, workspace)` return the
  // routine's status; `routine` names it in errors.
  template <class Query, class Factor>
  void run(const char* routine, Query query, Factor factor) {
    size_t device_bytes = 0, host_bytes = 0;
    check(query(&device_bytes, &host_bytes), (std::string(routine) + "_bufferSize").c_str());
    BufferPtr device_work = allocate_device(std::max<size_t>(device_bytes, 1), Device::cuda(p_.device));
    std::vector<char> host_work(std::max<size_t>(host_bytes, 1));
    for (int64_t i = 0; i < p_.batch; ++i)
      check(factor(i, Workspace{device_work->data(), device_bytes, host_work.data(), host_bytes,
                                static_cast<int*>(infos_->data()) + i}),
            routine);
    infos_to_host(infos_->data(), p_.batch, p_.device, p_.info);
  }

 private:
  const LapackArgs& p_;
  int64_t item_;
  ContextScope scope_;
  CusolverHandle handle_;
  BufferPtr infos_;
};

cusolverStatus_t no_workspace(size_t*, size_t*) { return CUSOLVER_STATUS_SUCCESS; }

void getrf(const LapackArgs& p, DType dt) {
  if (getrf_batched(p, dt)) return;
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt);
  const int64_t lda = std::max<int64_t>(1, p.m), k = std::min(p.m, p.n);
  b.run(
      "cusolverDnXgetrf",
      [&](size_t* dbytes, size_t* hbytes) {
        return api.cusolverDnXgetrf_bufferSize(b.handle(), b.params(), p.m, p.n, t, p.a, lda, t, dbytes, hbytes);
      },
      [&](int64_t i, const Workspace& w) {
        return api.cusolverDnXgetrf(b.handle(), b.params(), p.m, p.n, t, b.matrix(p.a, i, p.m * p.n), lda,
                                    p.pivots + i * k, t, w.device, w.device_bytes, w.host, w.host_bytes, w.info);
      });
}

void getrs(const LapackArgs& p, DType dt) {
  if (getrs_batched(p, dt)) return;
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt);
  const int64_t ld = std::max<int64_t>(1, p.n);
  b.run("cusolverDnXgetrs", no_workspace, [&](int64_t i, const Workspace& w) {
    return api.cusolverDnXgetrs(b.handle(), b.params(), CUBLAS_OP_N, p.n, p.nrhs, t, b.matrix(p.a, i, p.n * p.n), ld,
                                p.pivots + i * p.n, t, b.matrix(p.b, i, p.n * p.nrhs), ld, w.info);
  });
}

void potrf(const LapackArgs& p, DType dt) {
  if (potrf_batched(p, dt)) return;
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt);
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int64_t ld = std::max<int64_t>(1, p.n);
  b.run(
      "cusolverDnXpotrf",
      [&](size_t* dbytes, size_t* hbytes) {
        return api.cusolverDnXpotrf_bufferSize(b.handle(), b.params(), uplo, p.n, t, p.a, ld, t, dbytes, hbytes);
      },
      [&](int64_t i, const Workspace& w) {
        return api.cusolverDnXpotrf(b.handle(), b.params(), uplo, p.n, t, b.matrix(p.a, i, p.n * p.n), ld, t,
                                    w.device, w.device_bytes, w.host, w.host_bytes, w.info);
      });
}

void geqrf(const LapackArgs& p, DType dt) {
  if (geqrf_batched(p, dt)) return;
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt);
  const int64_t lda = std::max<int64_t>(1, p.m), k = std::min(p.m, p.n);
  b.run(
      "cusolverDnXgeqrf",
      [&](size_t* dbytes, size_t* hbytes) {
        return api.cusolverDnXgeqrf_bufferSize(b.handle(), b.params(), p.m, p.n, t, p.a, lda, t, p.values, t, dbytes,
                                               hbytes);
      },
      [&](int64_t i, const Workspace& w) {
        return api.cusolverDnXgeqrf(b.handle(), b.params(), p.m, p.n, t, b.matrix(p.a, i, p.m * p.n), lda, t,
                                    b.matrix(p.values, i, k), t, w.device, w.device_bytes, w.host, w.host_bytes,
                                    w.info);
      });
}

// The typed orgqr/ungqr: T is the element (any type of its size and layout);
// their workspace is counted in elements.
template <class T, class BufferSize, class Form>
void orgqr_typed(const LapackArgs& p, DType dt, BufferSize buffer_size, Form form) {
  Batch b(p, dt);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.reflectors),
            lda = std::max(1, m);
  int lwork = 0;
  b.run(
      "cusolverDn<t>orgqr",
      [&](size_t* dbytes, size_t*) {
        const cusolverStatus_t status = buffer_size(b.handle(), m, n, k, reinterpret_cast<const T*>(p.a), lda,
                                                    reinterpret_cast<const T*>(p.values), &lwork);
        *dbytes = static_cast<size_t>(std::max(lwork, 1)) * sizeof(T);
        return status;
      },
      [&](int64_t i, const Workspace& w) {
        return form(b.handle(), m, n, k, reinterpret_cast<T*>(b.matrix(p.a, i, p.m * p.n)), lda,
                    reinterpret_cast<const T*>(b.matrix(p.values, i, p.reflectors)), static_cast<T*>(w.device), lwork,
                    w.info);
      });
}

void orgqr(const LapackArgs& p, DType dt) {
  if (std::max({p.m, p.n, p.reflectors}) > INT32_MAX)
    throw ValueError("qr on CUDA: a matrix side does not fit cuSOLVER's orgqr (32-bit sizes)");
  if (orgqr_batched(p, dt)) return;
  const Cusolver& api = cusolver();
  switch (dt) {
    case DType::Float32: return orgqr_typed<float>(p, dt, api.cusolverDnSorgqr_bufferSize, api.cusolverDnSorgqr);
    case DType::Float64: return orgqr_typed<double>(p, dt, api.cusolverDnDorgqr_bufferSize, api.cusolverDnDorgqr);
    case DType::Complex64:
      return orgqr_typed<cuComplex>(p, dt, api.cusolverDnCungqr_bufferSize, api.cusolverDnCungqr);
    default:
      return orgqr_typed<cuDoubleComplex>(p, dt, api.cusolverDnZungqr_bufferSize, api.cusolverDnZungqr);
  }
}

void syevd(const LapackArgs& p, DType dt) {
  if (syevd_batched(p, dt)) return;
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt), r = lapack_real_type(dt);
  const cusolverEigMode_t jobz = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int64_t ld = std::max<int64_t>(1, p.n), real_item = r == CUDA_R_32F ? 4 : 8;
  b.run(
      "cusolverDnXsyevd",
      [&](size_t* dbytes, size_t* hbytes) {
        return api.cusolverDnXsyevd_bufferSize(b.handle(), b.params(), jobz, uplo, p.n, t, p.a, ld, r, p.values, t,
                                               dbytes, hbytes);
      },
      [&](int64_t i, const Workspace& w) {
        return api.cusolverDnXsyevd(b.handle(), b.params(), jobz, uplo, p.n, t, b.matrix(p.a, i, p.n * p.n), ld, r,
                                    p.values + i * p.n * real_item, t, w.device, w.device_bytes, w.host,
                                    w.host_bytes, w.info);
      });
}

// Complex matrices (the core solves real ones as complex); no left vectors.
void geev(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = lapack_data_type(dt);
  const cusolverEigMode_t jobvr = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t ld = std::max<int64_t>(1, p.n);
  b.run(
      "cusolverDnXgeev",
      [&](size_t* dbytes, size_t* hbytes) {
        return api.cusolverDnXgeev_bufferSize(b.handle(), b.params(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, p.n, t, p.a,
                                              ld, t, p.values, t, nullptr, ld, t, p.u, ld, t, dbytes, hbytes);
      },
      [&](int64_t i, const Workspace& w) {
        return api.cusolverDnXgeev(b.handle(), b.params(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, p.n, t,
                                   b.matrix(p.a, i, p.n * p.n), ld, t, b.matrix(p.values, i, p.n), t, nullptr, ld, t,
                                   p.vectors ? b.matrix(p.u, i, p.n * p.n) : nullptr, ld, t, w.device,
                                   w.device_bytes, w.host, w.host_bytes, w.info);
      });
}

// The core arranges m >= n. Jacobi: the batched routine up to 32 a side,
// then one call a matrix.
void gesvd(const LapackArgs& p, DType dt) {
  if (gesvd_batched(p, dt)) return;
  gesvdj_each(p, dt);
}

}  // namespace

void register_lapack_kernels(KernelTable& t) {
  auto row = [&](LapackOp op) -> LapackKernel (&)[kNumDTypes] { return t.lapack[static_cast<int>(op)]; };
  fill_lapack_row<&getrf>(row(LapackOp::getrf));
  fill_lapack_row<&getrs>(row(LapackOp::getrs));
  fill_lapack_row<&potrf>(row(LapackOp::potrf));
  fill_lapack_row<&geqrf>(row(LapackOp::geqrf));
  fill_lapack_row<&orgqr>(row(LapackOp::orgqr));
  fill_lapack_row<&syevd>(row(LapackOp::syevd));
  fill_lapack_row<&gesvd>(row(LapackOp::gesvd));
  fill_lapack_row<&lu_slogdet>(row(LapackOp::lu_slogdet));
  auto& geev_row = row(LapackOp::geev);
  geev_row[static_cast<int>(DType::Complex64)] = &lapack_entry<&geev, static_cast<int>(DType::Complex64)>;
  geev_row[static_cast<int>(DType::Complex128)] = &lapack_entry<&geev, static_cast<int>(DType::Complex128)>;
}

}  // namespace kiln::cuda
