// fft: the dtype NumPy computes in, the output's shape, then the backend's
// batched transform over contiguous data.
#include "kiln/fft.hpp"

#include <string>

#include "kiln/error.hpp"
#include "kiln/registry.hpp"

namespace kiln {

Array fft(const Array& x, int rank, FftKind kind, bool inverse, int64_t last_length) {
  if (rank < 1 || rank > 3 || rank > x.ndim())
    throw ValueError("fft: transforms cover 1 to 3 axes and no more than x has, got " + std::to_string(rank) +
                     " for an array of " + std::to_string(x.ndim()) + " dimensions");
  const bool single = x.dtype() == DType::Float16 || x.dtype() == DType::Float32 || x.dtype() == DType::Complex64;
  const DType complex_type = single ? DType::Complex64 : DType::Complex128;
  const DType real_type = single ? DType::Float32 : DType::Float64;
  if (kind == FftKind::R2C && is_complex(x.dtype()))
    throw TypeError("fft: a real-to-complex transform takes real input, got " + std::string(name(x.dtype())));
  const DType in_type = kind == FftKind::R2C ? real_type : complex_type;
  Shape out_shape = x.shape();
  int64_t n[3] = {};
  for (int i = 0; i < rank; ++i) n[i] = x.shape()[x.ndim() - rank + i];
  const int last = x.ndim() - 1;
  if (kind == FftKind::R2C) out_shape[last] = n[rank - 1] / 2 + 1;
  if (kind == FftKind::C2R) {
    if (last_length < 1) throw ValueError("fft: the real output needs a length of at least 1, got " +
                                          std::to_string(last_length));
    if (x.shape()[last] != last_length / 2 + 1)
      throw ValueError("fft: a complex-to-real transform of length " + std::to_string(last_length) + " takes " +
                       std::to_string(last_length / 2 + 1) + " frequencies, got " + std::to_string(x.shape()[last]));
    out_shape[last] = n[rank - 1] = last_length;
  }
  for (int i = 0; i < rank; ++i)
    if (n[i] < 1) throw ValueError("fft: invalid number of data points (" + std::to_string(n[i]) + ") specified");
  Array out = Array::empty(out_shape, kind == FftKind::C2R ? real_type : complex_type, x.device());
  if (out.size() == 0) return out;
  // The C2R transforms of both libraries overwrite their input: hand them a copy.
  const Array in = kind == FftKind::C2R ? x.astype(in_type).as_contiguous(in_type) : x.as_contiguous(in_type);
  FftKernel kernel = kernel_table(x.device().kind).fft;
  if (!kernel) throw TypeError("fft is not supported on " + x.device().str());
  FftArgs args;
  args.device = x.device().index;
  args.kind = static_cast<uint8_t>(kind);
  args.inverse = kind == FftKind::C2R || (kind == FftKind::C2C && inverse);
  args.double_precision = !single;
  args.in = in.data();
  args.out = out.data();
  args.rank = rank;
  int64_t points = 1;
  for (int i = 0; i < rank; ++i) {
    args.n[i] = n[i];
    points *= n[i];
  }
  args.batch = (kind == FftKind::C2R ? out.size() : in.size()) / points;
  kernel(args);
  return out;
}

}  // namespace kiln
