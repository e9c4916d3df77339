// LAPACK's factorizations on the GPU through cuSOLVER: one call per matrix of
// the batch, queued on the current stream, each with its own info; the infos
// come back to the host once, after the whole batch.
#include <algorithm>
#include <vector>

#include "backend.hpp"
#include "context.hpp"
#include "cusolver.hpp"
#include "kiln/error.hpp"
#include "memory_pool.hpp"

namespace kiln::cuda {
namespace {

cudaDataType data_type(DType dt) {
  switch (dt) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}
cudaDataType real_type(DType dt) { return dt == DType::Float32 || dt == DType::Complex64 ? CUDA_R_32F : CUDA_R_64F; }

// What every call of a batch shares: the handle, the workspaces and the infos.
class Batch {
 public:
  Batch(const LapackArgs& p, DType dt)
      : p_(p), dt_(dt), item_(static_cast<int64_t>(itemsize(dt))), scope_(p.device), h_(cusolver_handle(p.device)),
        infos_(allocate_device(sizeof(int) * std::max<int64_t>(1, p.batch), Device::cuda(p.device))) {}

  void workspaces(size_t device_bytes, size_t host_bytes) {
    device_bytes_ = device_bytes;
    host_bytes_ = host_bytes;
    device_work_ = allocate_device(std::max<size_t>(device_bytes, 1), Device::cuda(p_.device));
    host_work_.resize(std::max<size_t>(host_bytes, 1));
  }
  // Element i of a batch of matrices of `elements` elements each.
  char* matrix(char* base, int64_t i, int64_t elements) const { return base + i * elements * item_; }
  int* info(int64_t i) const { return static_cast<int*>(infos_->data()) + i; }
  // Copies the infos to p.info (this waits for the batch).
  void finish() const {
    std::vector<int> host(static_cast<size_t>(p_.batch));
    kernel_table(DeviceKind::CUDA).transfer(host.data(), Device::cpu(), infos_->data(), Device::cuda(p_.device),
                                            host.size() * sizeof(int));
    std::copy(host.begin(), host.end(), p_.info);
  }

  const LapackArgs& p_;
  DType dt_;
  int64_t item_;
  ContextScope scope_;
  CusolverHandle h_;
  BufferPtr infos_, device_work_;
  std::vector<char> host_work_;
  size_t device_bytes_ = 0, host_bytes_ = 0;
  void* dwork() const { return device_work_->data(); }
  void* hwork() { return host_work_.data(); }
};

void getrf(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = data_type(dt);
  const int64_t lda = std::max<int64_t>(1, p.m), k = std::min(p.m, p.n);
  size_t dbytes = 0, hbytes = 0;
  check(api.cusolverDnXgetrf_bufferSize(b.h_.handle, b.h_.params, p.m, p.n, t, p.a, lda, t, &dbytes, &hbytes),
        "cusolverDnXgetrf_bufferSize");
  b.workspaces(dbytes, hbytes);
  for (int64_t i = 0; i < p.batch; ++i)
    check(api.cusolverDnXgetrf(b.h_.handle, b.h_.params, p.m, p.n, t, b.matrix(p.a, i, p.m * p.n), lda,
                               p.pivots + i * k, t, b.dwork(), dbytes, b.hwork(), hbytes, b.info(i)),
          "cusolverDnXgetrf");
  b.finish();
}

void getrs(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const cudaDataType t = data_type(dt);
  const int64_t ld = std::max<int64_t>(1, p.n);
  for (int64_t i = 0; i < p.batch; ++i)
    check(cusolver().cusolverDnXgetrs(b.h_.handle, b.h_.params, CUBLAS_OP_N, p.n, p.nrhs, t,
                                      b.matrix(p.a, i, p.n * p.n), ld, p.pivots + i * p.n, t,
                                      b.matrix(p.b, i, p.n * p.nrhs), ld, b.info(i)),
          "cusolverDnXgetrs");
  b.finish();
}

void potrf(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = data_type(dt);
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int64_t ld = std::max<int64_t>(1, p.n);
  size_t dbytes = 0, hbytes = 0;
  check(api.cusolverDnXpotrf_bufferSize(b.h_.handle, b.h_.params, uplo, p.n, t, p.a, ld, t, &dbytes, &hbytes),
        "cusolverDnXpotrf_bufferSize");
  b.workspaces(dbytes, hbytes);
  for (int64_t i = 0; i < p.batch; ++i)
    check(api.cusolverDnXpotrf(b.h_.handle, b.h_.params, uplo, p.n, t, b.matrix(p.a, i, p.n * p.n), ld, t,
                               b.dwork(), dbytes, b.hwork(), hbytes, b.info(i)),
          "cusolverDnXpotrf");
  b.finish();
}

void geqrf(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = data_type(dt);
  const int64_t lda = std::max<int64_t>(1, p.m), k = std::min(p.m, p.n);
  size_t dbytes = 0, hbytes = 0;
  check(api.cusolverDnXgeqrf_bufferSize(b.h_.handle, b.h_.params, p.m, p.n, t, p.a, lda, t, p.values, t, &dbytes,
                                        &hbytes),
        "cusolverDnXgeqrf_bufferSize");
  b.workspaces(dbytes, hbytes);
  for (int64_t i = 0; i < p.batch; ++i)
    check(api.cusolverDnXgeqrf(b.h_.handle, b.h_.params, p.m, p.n, t, b.matrix(p.a, i, p.m * p.n), lda, t,
                               b.matrix(p.values, i, k), t, b.dwork(), dbytes, b.hwork(), hbytes, b.info(i)),
          "cusolverDnXgeqrf");
  b.finish();
}

// The typed orgqr/ungqr: T is the element (any type of its size and layout).
template <class T, class BufferSize, class Form>
void orgqr_typed(const LapackArgs& p, DType dt, BufferSize buffer_size, Form form) {
  Batch b(p, dt);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.reflectors),
            lda = std::max(1, m);
  int lwork = 0;
  check(buffer_size(b.h_.handle, m, n, k, reinterpret_cast<const T*>(p.a), lda, reinterpret_cast<const T*>(p.values),
                    &lwork),
        "cusolverDn<t>orgqr_bufferSize");
  b.workspaces(static_cast<size_t>(std::max(lwork, 1)) * sizeof(T), 0);
  for (int64_t i = 0; i < p.batch; ++i)
    check(form(b.h_.handle, m, n, k, reinterpret_cast<T*>(b.matrix(p.a, i, p.m * p.n)), lda,
               reinterpret_cast<const T*>(b.matrix(p.values, i, p.reflectors)), static_cast<T*>(b.dwork()), lwork,
               b.info(i)),
          "cusolverDn<t>orgqr");
  b.finish();
}

void orgqr(const LapackArgs& p, DType dt) {
  if (std::max({p.m, p.n, p.reflectors}) > INT32_MAX)
    throw ValueError("qr on CUDA: a matrix side does not fit cuSOLVER's orgqr (32-bit sizes)");
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
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = data_type(dt), r = real_type(dt);
  const cusolverEigMode_t jobz = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int64_t ld = std::max<int64_t>(1, p.n), real_item = r == CUDA_R_32F ? 4 : 8;
  size_t dbytes = 0, hbytes = 0;
  check(api.cusolverDnXsyevd_bufferSize(b.h_.handle, b.h_.params, jobz, uplo, p.n, t, p.a, ld, r, p.values, t, &dbytes,
                                        &hbytes),
        "cusolverDnXsyevd_bufferSize");
  b.workspaces(dbytes, hbytes);
  for (int64_t i = 0; i < p.batch; ++i)
    check(api.cusolverDnXsyevd(b.h_.handle, b.h_.params, jobz, uplo, p.n, t, b.matrix(p.a, i, p.n * p.n), ld, r,
                               p.values + i * p.n * real_item, t, b.dwork(), dbytes, b.hwork(), hbytes, b.info(i)),
          "cusolverDnXsyevd");
  b.finish();
}

// cuSOLVER's gesvd wants m >= n, which the core arranges.
void gesvd(const LapackArgs& p, DType dt) {
  Batch b(p, dt);
  const Cusolver& api = cusolver();
  const cudaDataType t = data_type(dt), r = real_type(dt);
  const signed char job = !p.u ? 'N' : p.full ? 'A' : 'S';
  const int64_t k = std::min(p.m, p.n), lda = std::max<int64_t>(1, p.m), ldu = lda,
                ldvt = std::max<int64_t>(1, p.full ? p.n : k), real_item = r == CUDA_R_32F ? 4 : 8;
  const int64_t u_size = p.m * (p.full ? p.m : k), vt_size = (p.full ? p.n : k) * p.n;
  size_t dbytes = 0, hbytes = 0;
  check(api.cusolverDnXgesvd_bufferSize(b.h_.handle, b.h_.params, job, job, p.m, p.n, t, p.a, lda, r, p.values, t,
                                        p.u, ldu, t, p.vt, ldvt, t, &dbytes, &hbytes),
        "cusolverDnXgesvd_bufferSize");
  b.workspaces(dbytes, hbytes);
  for (int64_t i = 0; i < p.batch; ++i)
    check(api.cusolverDnXgesvd(b.h_.handle, b.h_.params, job, job, p.m, p.n, t, b.matrix(p.a, i, p.m * p.n), lda, r,
                               p.values + i * k * real_item, t, p.u ? b.matrix(p.u, i, u_size) : nullptr, ldu, t,
                               p.vt ? b.matrix(p.vt, i, vt_size) : nullptr, ldvt, t, b.dwork(), dbytes, b.hwork(),
                               hbytes, b.info(i)),
          "cusolverDnXgesvd");
  b.finish();
}

template <void (*Op)(const LapackArgs&, DType), int D>
void entry(const LapackArgs& p) {
  Op(p, static_cast<DType>(D));
}

template <void (*Op)(const LapackArgs&, DType)>
void register_op(KernelTable& t, LapackOp op) {
  auto& row = t.lapack[static_cast<int>(op)];
  row[static_cast<int>(DType::Float32)] = &entry<Op, static_cast<int>(DType::Float32)>;
  row[static_cast<int>(DType::Float64)] = &entry<Op, static_cast<int>(DType::Float64)>;
  row[static_cast<int>(DType::Complex64)] = &entry<Op, static_cast<int>(DType::Complex64)>;
  row[static_cast<int>(DType::Complex128)] = &entry<Op, static_cast<int>(DType::Complex128)>;
}

}  // namespace

void register_lapack_kernels(KernelTable& t) {
  register_op<&getrf>(t, LapackOp::getrf);
  register_op<&getrs>(t, LapackOp::getrs);
  register_op<&potrf>(t, LapackOp::potrf);
  register_op<&geqrf>(t, LapackOp::geqrf);
  register_op<&orgqr>(t, LapackOp::orgqr);
  register_op<&syevd>(t, LapackOp::syevd);
  register_op<&gesvd>(t, LapackOp::gesvd);
}

}  // namespace kiln::cuda
