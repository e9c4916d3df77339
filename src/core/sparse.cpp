// Sparse matrix products: argument checks and the common dtypes, then the
// backend's kernel (cuSPARSE on the GPU, a loop over rows on the CPU).
#include "kiln/sparse.hpp"

#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/registry.hpp"

namespace kiln {

Array csr_matvec(const Array& row_starts, const Array& columns, const Array& values, const Array& x, int64_t rows,
                 int64_t cols, bool transpose) {
  const Device device = values.device();
  for (const Array* a : {&row_starts, &columns, &x})
    if (a->device() != device)
      throw TypeError("kiln.csr_matvec: the operands are on " + a->device().str() + " and " + device.str());
  if (row_starts.ndim() != 1 || columns.ndim() != 1 || values.ndim() != 1 || x.ndim() != 1)
    throw ValueError("kiln.csr_matvec: row_starts, columns, values and x must be 1-D");
  if (rows < 0 || cols < 0 || row_starts.size() != rows + 1 || columns.size() != values.size())
    throw ValueError("kiln.csr_matvec: row_starts must hold rows + 1 = " + std::to_string(rows + 1) +
                     " offsets and columns one per value");
  if (x.size() != (transpose ? rows : cols))
    throw ValueError("kiln.csr_matvec: x has " + std::to_string(x.size()) + " elements, the matrix " +
                     std::to_string(transpose ? rows : cols) + (transpose ? " rows" : " columns"));
  for (const Array* a : {&row_starts, &columns})
    if (kind(a->dtype()) != DTypeKind::SignedInt)
      throw TypeError("kiln.csr_matvec: index arrays must be signed integers, got " + std::string(name(a->dtype())));
  DType dt = promote_types(values.dtype(), x.dtype());
  if (!is_inexact(dt) || dt == DType::Float16) dt = promote_types(dt, DType::Float32);
  SparseMatvecKernel kernel = kernel_table(device.kind).sparse_matvec[static_cast<int>(dt)];
  if (!kernel) throw TypeError("kiln.csr_matvec does not support " + std::string(name(dt)) + " on " + device.str());
  // One index type for both arrays, as cuSPARSE takes them.
  const DType index = row_starts.dtype() == DType::Int32 && columns.dtype() == DType::Int32 ? DType::Int32
                                                                                             : DType::Int64;
  const Array starts = row_starts.as_contiguous(index), cols_of = columns.as_contiguous(index);
  const Array v = values.as_contiguous(dt), in = x.as_contiguous(dt);
  Array y = zeros({transpose ? cols : rows}, dt, device);
  if (values.size() == 0 || y.size() == 0) return y;
  SparseMatvecArgs args;
  args.device = device.index;
  args.rows = rows;
  args.cols = cols;
  args.nnz = values.size();
  args.row_starts = starts.data();
  args.columns = cols_of.data();
  args.index_dtype = index;
  args.values = v.data();
  args.x = in.data();
  args.y = y.data();
  args.transpose = transpose;
  kernel(args);
  return y;
}

}  // namespace kiln
