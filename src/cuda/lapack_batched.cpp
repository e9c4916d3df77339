#include "lapack_batched.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "context.hpp"
#include "cublas.hpp"
#include "cusolver.hpp"
#include "grid_stride.hpp"
#include "kernel_family_sources.hpp"
#include "kernel_slots.hpp"
#include "kiln/error.hpp"
#include "memory_pool.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

// The largest sides sent to each batched routine. LU and Cholesky: cuBLAS's
// and cuSOLVER's batched kernels keep a matrix on one multiprocessor, which
// beats the blocked one-matrix routines up to a few hundred rows; the batched
// Jacobi routines (SVD, and eigh up to 32 a side) are limited to 32 by cuSOLVER.
constexpr int64_t kLuMaxSide = 256;
constexpr int64_t kCholeskyMaxSide = 256;
constexpr int64_t kEigenMaxSide = 256;
constexpr int64_t kJacobiMaxSide = 32;
// QR: cuBLAS's geqrfBatched and kiln's one-block-a-matrix Q, whose thread a
// column walks its column once a reflector.
constexpr int64_t kQrMaxSide = 256;

// A stack worth one batched call: more than one matrix, none larger than
// `max_side`, and counts that fit the routines' 32-bit arguments.
bool small_stack(const LapackArgs& p, int64_t max_side) {
  return p.batch > 1 && p.batch <= INT_MAX && std::max(p.m, p.n) <= max_side;
}

BufferPtr device_buffer(int device, size_t nbytes) {
  return allocate_device(std::max<size_t>(nbytes, 1), Device::cuda(device));
}

// A 1-d contiguous operand list for one of kiln's own kernels.
struct Contiguous {
  StridedArgs args;
  int64_t shape[1];
  int64_t strides[kMaxOperands][1];
  Contiguous(int device, int64_t size, std::initializer_list<std::pair<void*, int64_t>> operands) {
    args.device = device;
    args.ndim = 1;
    args.size = shape[0] = size;
    args.shape = shape;
    for (const auto& [data, item] : operands) {
      args.data[args.nargs] = static_cast<char*>(data);
      strides[args.nargs][0] = item;
      args.strides[args.nargs] = strides[args.nargs];
      ++args.nargs;
    }
  }
};

// The batched routines' array of matrix addresses, base + i * stride bytes,
// written by kiln's arange kernel on the stream (no host round trip).
BufferPtr matrix_addresses(int device, char* base, int64_t batch, int64_t stride) {
  BufferPtr out = device_buffer(device, sizeof(void*) * batch);
  const int64_t start = static_cast<int64_t>(reinterpret_cast<uintptr_t>(base));
  Contiguous c(device, batch, {{out->data(), 8}});
  kernel_table(DeviceKind::CUDA).iota[static_cast<int>(DType::Int64)](c.args, &start, &stride);
  return out;
}

// Pivots between kiln's int64 and the batched routines' int32.
void convert(int device, DType from, const void* in, DType to, void* out, int64_t count) {
  Contiguous c(device, count, {{const_cast<void*>(in), itemsize(from)}, {out, itemsize(to)}});
  kernel_table(DeviceKind::CUDA).cast[static_cast<int>(from)][static_cast<int>(to)](c.args);
}

// dst = src, or its conjugate, over a strided walk of `ndim` axes (byte
// strides): kiln's own copy or conj kernel.
void copy_strided(int device, DType dt, bool conjugate, int ndim, const int64_t* shape, const char* src,
                  const int64_t* src_strides, char* dst, const int64_t* dst_strides) {
  StridedArgs args;
  args.device = device;
  args.nargs = 2;
  args.ndim = ndim;
  args.size = 1;
  for (int d = 0; d < ndim; ++d) args.size *= shape[d];
  args.shape = shape;
  args.data[0] = const_cast<char*>(src);
  args.strides[0] = src_strides;
  args.data[1] = dst;
  args.strides[1] = dst_strides;
  const KernelTable& t = kernel_table(DeviceKind::CUDA);
  (conjugate ? t.elementwise[static_cast<int>(OpId::conj)][static_cast<int>(dt)]
             : t.cast[static_cast<int>(dt)][static_cast<int>(dt)])(args);
}

// dst[b, i, j] = conj(src[b, j, i]) over a stack of `batch` column-major
// n x n matrices: V into V^H.
void adjoint(int device, DType dt, const char* src, char* dst, int64_t batch, int64_t n) {
  const int64_t item = itemsize(dt), shape[3] = {batch, n, n};
  const int64_t dst_strides[3] = {n * n * item, n * item, item}, src_strides[3] = {n * n * item, item, n * item};
  copy_strided(device, dt, is_complex(dt), 3, shape, src, src_strides, dst, dst_strides);
}

// The first `columns` columns of each column-major rows x rows matrix of a
// stack into a stack of rows x columns matrices.
void leading_columns(int device, DType dt, const char* src, char* dst, int64_t batch, int64_t rows,
                     int64_t columns) {
  const int64_t item = itemsize(dt), shape[2] = {batch, rows * columns};
  const int64_t src_strides[2] = {rows * rows * item, item}, dst_strides[2] = {rows * columns * item, item};
  copy_strided(device, dt, false, 2, shape, src, src_strides, dst, dst_strides);
}

// The host info of a cuBLAS routine with no numerical failure (getrs and
// geqrf batched), which only checks the arguments: -i for argument i
// refused; otherwise every matrix's LAPACK info is 0.
void arguments_checked(int info, const char* routine, const LapackArgs& p) {
  if (info != 0) throw CudaError(std::string(routine) + " refused argument " + std::to_string(-info));
  std::fill(p.info, p.info + p.batch, 0);
}

// Q's kernel and slogdet's per precision (S, D, C, Z) and device.
std::atomic<CUfunction> form_q_slots[4][kMaxDevices];
std::atomic<CUfunction> slogdet_slots[4][kMaxDevices];

}  // namespace

const char* householder_kernel_source() {
  return R"(#include "kiln/device/householder.cuh"
#define KILN_FORM_Q(name, T) \
  extern "C" __global__ void name(T* q, const T* tau, int m, int n, int k) { kiln::dev::form_q(q, tau, m, n, k); }
KILN_FORM_Q(kiln_form_q_s, float)
KILN_FORM_Q(kiln_form_q_d, double)
KILN_FORM_Q(kiln_form_q_c, kiln::dev::complex64)
KILN_FORM_Q(kiln_form_q_z, kiln::dev::complex128)
)";
}

int lapack_precision(DType dt) {
  switch (dt) {
    case DType::Float32: return 0;
    case DType::Float64: return 1;
    case DType::Complex64: return 2;
    default: return 3;
  }
}

cudaDataType lapack_data_type(DType dt) {
  static constexpr cudaDataType types[4] = {CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F};
  return types[lapack_precision(dt)];
}

cudaDataType lapack_real_type(DType dt) { return lapack_data_type(real_dtype(dt)); }

void infos_to_host(const void* device_infos, int64_t batch, int device, int64_t* out) {
  std::vector<int> infos(static_cast<size_t>(batch));
  kernel_table(DeviceKind::CUDA).transfer(infos.data(), Device::cpu(), device_infos, Device::cuda(device),
                                          infos.size() * sizeof(int));
  std::copy(infos.begin(), infos.end(), out);
}

bool getrf_batched(const LapackArgs& p, DType dt) {
  if (p.m != p.n || !small_stack(p, kLuMaxSide)) return false;
  ContextScope scope(p.device);
  const int n = static_cast<int>(p.n), batch = static_cast<int>(p.batch);
  BufferPtr a = matrix_addresses(p.device, p.a, batch, p.n * p.n * itemsize(dt));
  BufferPtr pivots = device_buffer(p.device, sizeof(int) * batch * n);
  BufferPtr infos = device_buffer(p.device, sizeof(int) * batch);
  check(cublas().getrf_batched[lapack_precision(dt)](cublas_handle(p.device), n,
                                                     static_cast<void* const*>(a->data()), n,
                                                     static_cast<int*>(pivots->data()),
                                                     static_cast<int*>(infos->data()), batch),
        "cublas<t>getrfBatched");
  convert(p.device, DType::Int32, pivots->data(), DType::Int64, p.pivots, p.batch * p.n);
  infos_to_host(infos->data(), p.batch, p.device, p.info);
  return true;
}

bool getrs_batched(const LapackArgs& p, DType dt) {
  if (!small_stack(p, kLuMaxSide) || p.nrhs > INT_MAX) return false;
  ContextScope scope(p.device);
  const int n = static_cast<int>(p.n), batch = static_cast<int>(p.batch);
  BufferPtr pivots = device_buffer(p.device, sizeof(int) * batch * n);
  convert(p.device, DType::Int64, p.pivots, DType::Int32, pivots->data(), p.batch * p.n);
  BufferPtr a = matrix_addresses(p.device, p.a, batch, p.n * p.n * itemsize(dt));
  BufferPtr b = matrix_addresses(p.device, p.b, batch, p.n * p.nrhs * itemsize(dt));
  int info = 0;
  check(cublas().getrs_batched[lapack_precision(dt)](cublas_handle(p.device), CUBLAS_OP_N, n,
                                                     static_cast<int>(p.nrhs),
                                                     static_cast<const void* const*>(a->data()), n,
                                                     static_cast<const int*>(pivots->data()),
                                                     static_cast<void* const*>(b->data()), n, &info, batch),
        "cublas<t>getrsBatched");
  arguments_checked(info, "cublas<t>getrsBatched", p);
  return true;
}

bool potrf_batched(const LapackArgs& p, DType dt) {
  if (!small_stack(p, kCholeskyMaxSide)) return false;
  ContextScope scope(p.device);
  const int n = static_cast<int>(p.n), batch = static_cast<int>(p.batch);
  BufferPtr a = matrix_addresses(p.device, p.a, batch, p.n * p.n * itemsize(dt));
  BufferPtr infos = device_buffer(p.device, sizeof(int) * batch);
  const CusolverHandle h = cusolver_handle(p.device);
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  check(cusolver().potrf_batched[lapack_precision(dt)](h.handle, uplo, n, static_cast<void**>(a->data()), n,
                                                       static_cast<int*>(infos->data()), batch),
        "cusolverDn<t>potrfBatched");
  infos_to_host(infos->data(), p.batch, p.device, p.info);
  return true;
}

// cuBLAS's batched QR wants m >= n (the core's wide matrices go one at a
// time).
bool geqrf_batched(const LapackArgs& p, DType dt) {
  if (p.m < p.n || !small_stack(p, kQrMaxSide)) return false;
  ContextScope scope(p.device);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), batch = static_cast<int>(p.batch);
  BufferPtr a = matrix_addresses(p.device, p.a, batch, p.m * p.n * itemsize(dt));
  BufferPtr tau = matrix_addresses(p.device, p.values, batch, p.n * itemsize(dt));
  int info = 0;
  check(cublas().geqrf_batched[lapack_precision(dt)](cublas_handle(p.device), m, n,
                                                     static_cast<void* const*>(a->data()), m,
                                                     static_cast<void* const*>(tau->data()), &info, batch),
        "cublas<t>geqrfBatched");
  arguments_checked(info, "cublas<t>geqrfBatched", p);
  return true;
}

const char* lu_determinant_kernel_source() {
  return R"(#include "kiln/device/lu_determinant.cuh"
#define KILN_LU_SLOGDET(name, T, R)                                                                     \
  extern "C" __global__ void name(const T* lu, const long long* pivots, int n, long long batch, T* sign, \
                                  R* logabsdet) {                                                       \
    kiln::dev::lu_slogdet(lu, pivots, n, batch, sign, logabsdet);                                       \
  }
KILN_LU_SLOGDET(kiln_lu_slogdet_s, float, float)
KILN_LU_SLOGDET(kiln_lu_slogdet_d, double, double)
KILN_LU_SLOGDET(kiln_lu_slogdet_c, kiln::dev::complex64, float)
KILN_LU_SLOGDET(kiln_lu_slogdet_z, kiln::dev::complex128, double)
)";
}

void lu_slogdet(const LapackArgs& p, DType dt) {
  check_device_index(p.device);
  const int precision = lapack_precision(dt);
  static const char* const names[4] = {"kiln_lu_slogdet_s", "kiln_lu_slogdet_d", "kiln_lu_slogdet_c",
                                       "kiln_lu_slogdet_z"};
  CUfunction fn = load_or_build(slogdet_slots[precision][p.device], [&] {
    return load_kernel(p.device, lu_determinant_kernel_source(), names[precision]);
  });
  const void* lu = p.a;
  const void* pivots = p.pivots;
  int n = static_cast<int>(p.n);
  long long batch = p.batch;
  void* sign = p.values;
  void* logabsdet = p.b;
  void* args[] = {&lu, &pivots, &n, &batch, &sign, &logabsdet};
  launch_grid_stride(fn, p.device, grid_stride_blocks(p.device, p.batch, 128, 8), 128, args);
  std::fill(p.info, p.info + p.batch, 0);
}

bool orgqr_batched(const LapackArgs& p, DType dt) {
  if (!small_stack(p, kQrMaxSide)) return false;
  check_device_index(p.device);
  const int precision = lapack_precision(dt);
  static const char* const names[4] = {"kiln_form_q_s", "kiln_form_q_d", "kiln_form_q_c", "kiln_form_q_z"};
  CUfunction fn = load_or_build(form_q_slots[precision][p.device], [&] {
    return load_kernel(p.device, householder_kernel_source(), names[precision]);
  });
  void* q = p.a;
  const void* tau = p.values;
  int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.reflectors);
  void* args[] = {&q, &tau, &m, &n, &k};
  // A warp's worth of threads at least, one a column up to 256.
  const unsigned threads = static_cast<unsigned>(std::min<int64_t>(256, (p.n + 31) / 32 * 32));
  launch_grid_stride(fn, p.device, static_cast<unsigned>(p.batch), threads, args);
  std::fill(p.info, p.info + p.batch, 0);
  return true;
}

// Jacobi over the stack (syevjBatched, up to 32 a side): its sweeps keep a
// small matrix in one block, faster there than XsyevBatched's reduction to
// tridiagonal form. Eigenvalues ascending, vectors in a, as syevd leaves them.
void syevj_batched(const LapackArgs& p, DType dt) {
  const Cusolver& api = cusolver();
  const CusolverHandle h = cusolver_handle(p.device);
  const cusolverEigMode_t jobz = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int n = static_cast<int>(p.n), batch = static_cast<int>(p.batch), i = lapack_precision(dt);
  syevjInfo_t raw = nullptr;
  check(api.cusolverDnCreateSyevjInfo(&raw), "cusolverDnCreateSyevjInfo");
  std::unique_ptr<syevjInfo, cusolverStatus_t (*)(syevjInfo_t)> params(raw, api.cusolverDnDestroySyevjInfo);
  int lwork = 0;
  check(api.syevj_batched_buffer_size[i](h.handle, jobz, uplo, n, p.a, n, p.values, &lwork, params.get(), batch),
        "cusolverDn<t>syevjBatched_bufferSize");
  BufferPtr work = device_buffer(p.device, static_cast<size_t>(std::max(lwork, 1)) * itemsize(dt));
  BufferPtr infos = device_buffer(p.device, sizeof(int) * batch);
  check(api.syevj_batched[i](h.handle, jobz, uplo, n, p.a, n, p.values, work->data(), lwork,
                             static_cast<int*>(infos->data()), params.get(), batch),
        "cusolverDn<t>syevjBatched");
  infos_to_host(infos->data(), p.batch, p.device, p.info);
}

bool syevd_batched(const LapackArgs& p, DType dt) {
  const Cusolver& api = cusolver();
  if (small_stack(p, kJacobiMaxSide)) {
    ContextScope scope(p.device);
    syevj_batched(p, dt);
    return true;
  }
  if (!small_stack(p, kEigenMaxSide) || !api.cusolverDnXsyevBatched) return false;
  ContextScope scope(p.device);
  const CusolverHandle h = cusolver_handle(p.device);
  const cudaDataType t = lapack_data_type(dt), r = lapack_real_type(dt);
  const cusolverEigMode_t jobz = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = p.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  size_t device_bytes = 0, host_bytes = 0;
  check(api.cusolverDnXsyevBatched_bufferSize(h.handle, h.params, jobz, uplo, p.n, t, p.a, p.n, r, p.values, t,
                                              &device_bytes, &host_bytes, p.batch),
        "cusolverDnXsyevBatched_bufferSize");
  BufferPtr work = device_buffer(p.device, device_bytes);
  std::vector<char> host_work(std::max<size_t>(host_bytes, 1));
  BufferPtr infos = device_buffer(p.device, sizeof(int) * p.batch);
  check(api.cusolverDnXsyevBatched(h.handle, h.params, jobz, uplo, p.n, t, p.a, p.n, r, p.values, t, work->data(),
                                   device_bytes, host_work.data(), host_bytes, static_cast<int*>(infos->data()),
                                   p.batch),
        "cusolverDnXsyevBatched");
  infos_to_host(infos->data(), p.batch, p.device, p.info);
  return true;
}

// One-sided Jacobi over the stack. gesvdjBatched always forms the square U
// and returns V itself, so the reduced U is its leading columns and vt is V's
// adjoint; the core passes m >= n, so vt is n x n in both modes.
bool gesvd_batched(const LapackArgs& p, DType dt) {
  if (!small_stack(p, kJacobiMaxSide)) return false;
  ContextScope scope(p.device);
  const Cusolver& api = cusolver();
  const CusolverHandle h = cusolver_handle(p.device);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), batch = static_cast<int>(p.batch);
  const int64_t item = itemsize(dt), k = std::min(p.m, p.n);
  const bool vectors = p.u != nullptr;
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  gesvdjInfo_t raw = nullptr;
  check(api.cusolverDnCreateGesvdjInfo(&raw), "cusolverDnCreateGesvdjInfo");
  std::unique_ptr<gesvdjInfo, cusolverStatus_t (*)(gesvdjInfo_t)> params(raw, api.cusolverDnDestroyGesvdjInfo);
  // The square U goes straight to u in full mode, otherwise through scratch;
  // without vectors both still get memory, which cuSOLVER does not promise
  // to leave unread.
  BufferPtr u_square, v = device_buffer(p.device, batch * p.n * p.n * item);
  if (!vectors || !p.full) u_square = device_buffer(p.device, batch * p.m * p.m * item);
  char* u = vectors && p.full ? p.u : static_cast<char*>(u_square->data());
  void* v_data = v->data();
  const int i = lapack_precision(dt);
  int lwork = 0;
  check(api.gesvdj_batched_buffer_size[i](h.handle, jobz, m, n, p.a, m, p.values, u, m, v_data, n, &lwork,
                                          params.get(), batch),
        "cusolverDn<t>gesvdjBatched_bufferSize");
  BufferPtr work = device_buffer(p.device, static_cast<size_t>(std::max(lwork, 1)) * item);
  BufferPtr infos = device_buffer(p.device, sizeof(int) * batch);
  check(api.gesvdj_batched[i](h.handle, jobz, m, n, p.a, m, p.values, u, m, v_data, n, work->data(), lwork,
                              static_cast<int*>(infos->data()), params.get(), batch),
        "cusolverDn<t>gesvdjBatched");
  if (vectors) {
    if (!p.full) leading_columns(p.device, dt, u, p.u, p.batch, p.m, k);
    adjoint(p.device, dt, static_cast<char*>(v->data()), p.vt, p.batch, p.n);
  }
  infos_to_host(infos->data(), p.batch, p.device, p.info);
  return true;
}

// Jacobi a matrix at a time where the batched form stops (over 32 a side):
// at 256 a side three times as fast as gesvd's QR iteration (H100, 100
// matrices: 2.73 s vs PyTorch's 0.91 with Jacobi). U comes reduced (econ) or
// square; V is n x n either way (the core passes m >= n), so vt is its adjoint.
void gesvdj_each(const LapackArgs& p, DType dt) {
  ContextScope scope(p.device);
  const Cusolver& api = cusolver();
  const CusolverHandle h = cusolver_handle(p.device);
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), i = lapack_precision(dt);
  const int64_t item = itemsize(dt), k = std::min(p.m, p.n), real_item = itemsize(real_dtype(dt));
  const bool vectors = p.u != nullptr;
  const int econ = vectors && p.full ? 0 : 1;
  const int64_t u_size = p.m * (econ ? k : p.m);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  gesvdjInfo_t raw = nullptr;
  check(api.cusolverDnCreateGesvdjInfo(&raw), "cusolverDnCreateGesvdjInfo");
  std::unique_ptr<gesvdjInfo, cusolverStatus_t (*)(gesvdjInfo_t)> params(raw, api.cusolverDnDestroyGesvdjInfo);
  // Without vectors U and V still get memory, which cuSOLVER does not promise to leave unread.
  BufferPtr v = device_buffer(p.device, p.batch * p.n * p.n * item), u_scratch;
  if (!vectors) u_scratch = device_buffer(p.device, u_size * item);
  auto u_of = [&](int64_t b) { return vectors ? p.u + b * u_size * item : static_cast<char*>(u_scratch->data()); };
  auto v_of = [&](int64_t b) { return static_cast<char*>(v->data()) + (vectors ? b * p.n * p.n * item : 0); };
  int lwork = 0;
  check(api.gesvdj_buffer_size[i](h.handle, jobz, econ, m, n, p.a, m, p.values, u_of(0), m, v_of(0), n, &lwork,
                                  params.get()),
        "cusolverDn<t>gesvdj_bufferSize");
  BufferPtr work = device_buffer(p.device, static_cast<size_t>(std::max(lwork, 1)) * item);
  BufferPtr infos = device_buffer(p.device, sizeof(int) * p.batch);
  for (int64_t b = 0; b < p.batch; ++b)
    check(api.gesvdj[i](h.handle, jobz, econ, m, n, p.a + b * p.m * p.n * item, m, p.values + b * k * real_item,
                        u_of(b), m, v_of(b), n, work->data(), lwork, static_cast<int*>(infos->data()) + b,
                        params.get()),
          "cusolverDn<t>gesvdj");
  if (vectors) adjoint(p.device, dt, static_cast<char*>(v->data()), p.vt, p.batch, p.n);
  infos_to_host(infos->data(), p.batch, p.device, p.info);
}

}  // namespace kiln::cuda
