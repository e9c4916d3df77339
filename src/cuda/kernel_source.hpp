#pragma once
// CUDA C++ source for kiln's elementwise-shaped kernels: one output written
// from up to three inputs at each index, over coalesced strided operands or
// contiguous ones (with 32-bit indices when the size allows).
#include <string>

#include "kiln/dtype.hpp"
#include "kiln/ops.hpp"
#include "../core/op_types.hpp"

namespace kiln::cuda {

inline constexpr int kMaxKernelDims = 12;

// Vector: contiguous operands aligned to 16 bytes of the widest element, read
// and written 16 bytes at a time (a scalar loop does the tail). Strided2: the
// Strided layout's two-dimensional case, its offsets spelled out (half the
// time of the loop over any number of dimensions, H100, an 8192^2 broadcast
// sum). Transpose: a
// one-input kernel over two dimensions, the output's rows along dimension 0
// and the input's along dimension 1, moved through 32x32 tiles in shared
// memory so that both the input's reads and the output's writes are coalesced.
enum class Layout : uint8_t { Strided, Contiguous32, Contiguous64, Vector, Strided2, Transpose };
inline constexpr int kNumLayouts = 6;
inline constexpr int kTransposeTile = 32;
inline constexpr int kTransposeRowsPerPass = 8;  // the block is kTransposeTile x this
inline constexpr int kVectorBytes = 16;

// Bytes of `value` per input passed by value (a complex128 fits).
inline constexpr int kValueSlotBytes = 16;

// Mirrors the struct the generated kernels take by value.
struct KernelParams {
  char* data[4];
  // Contiguous layouts: 0 (broadcast value) or 1, in elements; every layout:
  // -1 for an input passed by value, read from value[kValueSlotBytes * k].
  long long step[4];
  long long shape[kMaxKernelDims];
  long long strides[4][kMaxKernelDims];  // bytes
  unsigned char value[48];               // inputs by value; fill's value; arange's start and step
  int ndim;
};

// What the dense layouts (Contiguous32/64, Vector) take instead: the
// fields they read, a fifth of the size (a launch copies its parameters).
struct DenseKernelParams {
  char* data[4];
  long long step[4];
  unsigned char value[48];
};
inline bool is_dense(Layout layout) {
  return layout == Layout::Contiguous32 || layout == Layout::Contiguous64 || layout == Layout::Vector;
}

struct KernelSpec {
  std::string name;
  int nin = 0;
  DType in[3] = {};
  DType out = DType::Bool;
  std::string expr;  // the output value from x0, x1, x2 (and p, i)
  Layout layout = Layout::Strided;
};

using detail::device_type;
// Elements per vector access for a kernel over these operand dtypes (1: none).
int vector_width(const KernelSpec& spec);
// The includes and the params struct, once per program.
std::string kernel_prelude();
// One extern "C" kernel.
std::string kernel_body(const KernelSpec& spec);

KernelSpec elementwise_spec(OpId op, DType loop, Layout layout);
KernelSpec cast_spec(DType from, DType to, Layout layout);
KernelSpec fill_spec(DType dt, Layout layout);
KernelSpec iota_spec(DType dt);

}  // namespace kiln::cuda

namespace kiln::cuda {

// Mirrors the struct reduction kernels take by value.
struct ReduceParams {
  const char* in;
  char* out;
  char* partial;  // two-pass reductions: split accumulators per output
  long long kept_shape[kMaxKernelDims], kept_in[kMaxKernelDims], kept_out[kMaxKernelDims];
  long long red_shape[kMaxKernelDims], red_in[kMaxKernelDims];
  long long kept_size, reduce_size, split, chunk;
  int kept_ndim, red_ndim;
};

struct ScanParams {
  const char* in;
  char* out;
  long long outer_shape[kMaxKernelDims], in_outer[kMaxKernelDims], out_outer[kMaxKernelDims];
  long long length, in_axis, out_axis, outer_size;
  int outer_ndim;
};

// One program with the kernels <name>_direct (a block per output),
// <name>_partial and <name>_final (two passes for long ranges), <name>_columns
// (a thread per output) and <name>_columns_partial/_final (columns with the
// rows split, two passes) for reduction `op` over dtype `dt`.
std::string reduce_source(const char* op, DType dt, const std::string& name);
// Scans (add or multiply over `dt`), built on CUB's block primitives, so
// compiled with the CCCL headers: <name>_init prepares the tile states,
// <name>_tiles scans tiles of kScanThreads * scan_tile_items(dt) elements in
// one pass, a block each, and <name>_columns gives each line a thread.
inline constexpr int kScanThreads = 256;
int scan_tile_items(DType dt);
std::string scan_source(bool multiply, DType dt, const std::string& name);

}  // namespace kiln::cuda
