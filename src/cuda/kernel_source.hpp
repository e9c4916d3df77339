#pragma once
// CUDA C++ source for kiln's elementwise-shaped kernels: one output written
// from up to three inputs at each index, over coalesced strided operands or
// contiguous ones (with 32-bit indices when the size allows).
#include <string>

#include "kiln/dtype.hpp"
#include "kiln/ops.hpp"

namespace kiln::cuda {

inline constexpr int kMaxKernelDims = 12;

enum class Layout : uint8_t { Strided, Contiguous32, Contiguous64 };
inline constexpr int kNumLayouts = 3;

// Mirrors the struct the generated kernels take by value.
struct KernelParams {
  char* data[4];
  long long step[4];  // contiguous layouts: 0 (broadcast value) or 1, in elements
  long long shape[kMaxKernelDims];
  long long strides[4][kMaxKernelDims];  // bytes
  unsigned char value[32];               // fill value, or arange's start and step
  int ndim;
};

struct KernelSpec {
  std::string name;
  int nin = 0;
  DType in[3] = {};
  DType out = DType::Bool;
  std::string expr;  // the output value from x0, x1, x2 (and p, i)
  Layout layout = Layout::Strided;
};

const char* device_type(DType dt);
// The includes and the params struct, once per program.
std::string kernel_prelude();
// One extern "C" kernel.
std::string kernel_body(const KernelSpec& spec);

KernelSpec elementwise_spec(OpId op, DType loop, Layout layout);
KernelSpec cast_spec(DType from, DType to, Layout layout);
KernelSpec fill_spec(DType dt, Layout layout);
KernelSpec iota_spec(DType dt);

}  // namespace kiln::cuda
