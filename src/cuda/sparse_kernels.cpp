// CSR matrix-vector products on the GPU with cuSPARSE's SpMV (the transposed
// product, a CSC matrix's, with its TRANSPOSE operation), on kiln's stream.
#include <algorithm>
#include <memory>

#include "backend.hpp"
#include "context.hpp"
#include "cusparse.hpp"
#include "lapack_batched.hpp"
#include "memory_pool.hpp"

namespace kiln::cuda {
namespace {

template <class Descr, class Destroy>
auto owned(Descr descr, Destroy destroy) {
  return std::unique_ptr<std::remove_pointer_t<Descr>, Destroy>(descr, destroy);
}

template <int D>
void matvec(const SparseMatvecArgs& a) {
  const DType dt = static_cast<DType>(D);
  const Cusparse& api = cusparse();
  ContextScope scope(a.device);
  cusparseHandle_t handle = cusparse_handle(a.device);
  const cudaDataType t = lapack_data_type(dt);
  const cusparseIndexType_t index = a.index_dtype == DType::Int32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  cusparseSpMatDescr_t raw_matrix = nullptr;
  check(api.cusparseCreateCsr(&raw_matrix, a.rows, a.cols, a.nnz, const_cast<void*>(a.row_starts),
                              const_cast<void*>(a.columns), const_cast<void*>(a.values), index, index,
                              CUSPARSE_INDEX_BASE_ZERO, t),
        "cusparseCreateCsr");
  auto matrix = owned(raw_matrix, api.cusparseDestroySpMat);
  cusparseDnVecDescr_t raw_x = nullptr, raw_y = nullptr;
  const int64_t x_size = a.transpose ? a.rows : a.cols, y_size = a.transpose ? a.cols : a.rows;
  check(api.cusparseCreateDnVec(&raw_x, x_size, const_cast<void*>(a.x), t), "cusparseCreateDnVec");
  auto x = owned(raw_x, api.cusparseDestroyDnVec);
  check(api.cusparseCreateDnVec(&raw_y, y_size, a.y, t), "cusparseCreateDnVec");
  auto y = owned(raw_y, api.cusparseDestroyDnVec);
  // alpha = 1, beta = 0 in the compute type (complex: imaginary parts 0).
  const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  const bool single = dt == DType::Float32 || dt == DType::Complex64;
  const void* alpha = single ? static_cast<const void*>(one_f) : one;
  const void* beta = single ? static_cast<const void*>(zero_f) : zero;
  const cusparseOperation_t op = a.transpose ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  // CSR_ALG2: cuSPARSE documents it as giving the same bits on every run,
  // which the default algorithm does not promise.
  const cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_CSR_ALG2;
  size_t bytes = 0;
  check(api.cusparseSpMV_bufferSize(handle, op, alpha, matrix.get(), x.get(), beta, y.get(), t, algorithm,
                                    &bytes),
        "cusparseSpMV_bufferSize");
  BufferPtr work = allocate_device(std::max<size_t>(bytes, 1), Device::cuda(a.device));
  check(api.cusparseSpMV(handle, op, alpha, matrix.get(), x.get(), beta, y.get(), t, algorithm, work->data()),
        "cusparseSpMV");
}

}  // namespace

void register_sparse_kernels(KernelTable& table) {
  constexpr int f32 = static_cast<int>(DType::Float32), f64 = static_cast<int>(DType::Float64),
                c64 = static_cast<int>(DType::Complex64), c128 = static_cast<int>(DType::Complex128);
  table.sparse_matvec[f32] = &matvec<f32>;
  table.sparse_matvec[f64] = &matvec<f64>;
  table.sparse_matvec[c64] = &matvec<c64>;
  table.sparse_matvec[c128] = &matvec<c128>;
}

}  // namespace kiln::cuda
