// matmul: NumPy's shape rules, then one batched product of C-contiguous
// matrices. A batch axis along which an operand does not vary is passed as a
// zero batch stride instead of being copied, and an a whose batch b does not
// vary over folds its batch into its rows (one larger product).
#include <string>

#include "kiln/error.hpp"
#include "kiln/linalg.hpp"
#include "kiln/ops.hpp"
#include "kiln/registry.hpp"

namespace kiln {
namespace {

std::string core_mismatch(const Array& a, const Array& b) {
  return "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
         "(n?,k),(k,m?)->(n?,m?) (size " + std::to_string(b.shape()[b.ndim() - 2]) + " is different from " +
         std::to_string(a.shape()[a.ndim() - 1]) + ")";
}

Shape batch_of(const Array& x) { return Shape(x.shape().begin(), x.shape().end() - 2); }

bool varies(const Array& x, const Shape& batch) {
  for (int64_t extent : batch_of(x))
    if (extent != 1) return true;
  return false;
}

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  for (const Array* x : {&a_in, &b_in})
    if (x->ndim() == 0)
      throw ValueError("matmul: Input operand " + std::to_string(x == &a_in ? 0 : 1) +
                       " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                       "requires 1)");
  if (a_in.device() != b_in.device())
    throw TypeError("matmul: b is on " + b_in.device().str() + " but a is on " + a_in.device().str());
  const DType dtype = result_type({a_in.dtype(), b_in.dtype()});
  const Array a = a_in.ndim() == 1 ? a_in.reshape({1, a_in.size()}) : a_in;
  const Array b = b_in.ndim() == 1 ? b_in.reshape({b_in.size(), 1}) : b_in;
  if (a.shape()[a.ndim() - 1] != b.shape()[b.ndim() - 2]) throw ValueError(core_mismatch(a, b));
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1], n = b.shape()[b.ndim() - 1];
  const Shape batch = broadcast_shapes(batch_of(a), batch_of(b));
  int64_t batch_size = 1;
  for (int64_t extent : batch) batch_size *= extent;

  Shape out_shape = batch;
  if (a_in.ndim() > 1) out_shape.push_back(m);
  if (b_in.ndim() > 1) out_shape.push_back(n);
  Shape full = batch;
  full.push_back(m);
  full.push_back(n);
  Array out = Array::empty(full, dtype, a.device());
  if (out.size() == 0) return out.reshape(out_shape);

  MatmulKernel kernel = kernel_table(a.device().kind).matmul[static_cast<int>(dtype)];
  if (!kernel) throw TypeError("matmul does not support " + std::string(name(dtype)) + " on " + a.device().str());
  const bool a_varies = varies(a, batch), b_varies = varies(b, batch);
  // x as C-contiguous (batch..., rows, cols), or as its one matrix when it
  // does not vary along the batch.
  auto operand = [&](const Array& x, bool along_batch, int64_t rows, int64_t cols) {
    if (!along_batch) return x.reshape({rows, cols}).as_contiguous(dtype);
    Shape shape = batch;
    shape.push_back(rows);
    shape.push_back(cols);
    return x.broadcast_to(shape).as_contiguous(dtype);
  };
  MatmulArgs args;
  args.device = a.device().index;
  args.n = n;
  args.k = k;
  Array a_rows, b_cols;
  if (a_varies && !b_varies) {  // one b for every matrix of a: a single (batch * m, k) product
    a_rows = operand(a, true, m, k);
    b_cols = operand(b, false, k, n);
    args.batch = 1;
    args.m = batch_size * m;
  } else {
    a_rows = operand(a, a_varies, m, k);
    b_cols = operand(b, b_varies, k, n);
    args.batch = batch_size;
    args.m = m;
    args.a_stride = a_varies ? m * k : 0;
    args.b_stride = b_varies ? k * n : 0;
  }
  args.a = a_rows.data();
  args.b = b_cols.data();
  args.out = out.data();
  if (k == 0) {
    out.assign(Scalar::from_int(0));
    return out.reshape(out_shape);
  }
  kernel(args);
  return out.reshape(out_shape);
}

}  // namespace kiln
