// Launches the generated elementwise, cast, fill and arange kernels. Each
// (kernel, layout, device) has a slot holding its loaded CUfunction: a hit is
// one atomic load, with no strings built and no source hashed; a miss
// generates the source and goes through the module cache.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "backend.hpp"
#include "context.hpp"
#include "kernel_slots.hpp"
#include "kernel_source.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kThreadsPerBlock = 256;
constexpr unsigned kBlocksPerMultiprocessor = 16;  // enough resident blocks to hide latency

struct Slot {
  std::atomic<CUfunction> fn[kMaxDevices] = {};
};

Slot elementwise_slots[kNumOps][kNumDTypes][kNumLayouts];
Slot cast_slots[kNumDTypes][kNumDTypes][kNumLayouts];
Slot fill_slots[kNumDTypes][kNumLayouts];
Slot iota_slots[kNumDTypes];

template <class MakeSpec>
CUfunction function_for(Slot& slot, int device, MakeSpec make_spec) {
  check_device_index(device);
  return load_or_build(slot.fn[device], [&] {
    KernelSpec spec = make_spec();
    return load_kernel(device, kernel_prelude() + kernel_body(spec), spec.name);
  });
}

unsigned max_blocks(int device) {
  return static_cast<unsigned>(cached_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)) *
         kBlocksPerMultiprocessor;
}

int64_t magnitude(int64_t s) { return s < 0 ? -s : s; }

// The Transpose layout takes the output's faster dimension as its columns
// (dimension 1): true when dimension 0 is the faster one, so that params_for
// swaps them.
bool output_runs_down(const StridedArgs& a) {
  const int out = a.nargs - 1;
  return magnitude(a.strides[out][0]) < magnitude(a.strides[out][1]);
}

// Contiguous when every operand is one dense run (or, for inputs, a single
// broadcast value), so the kernel can index them all by i; Vector when, in
// addition, each dense operand starts on a `width`-element boundary;
// otherwise Strided2 for two dimensions, Strided for more; but Transpose for
// a one-input kernel (`may_transpose`) over two dimensions whose input runs
// across the output's rows.
Layout choose_layout(const StridedArgs& a, const size_t* itemsizes, bool vectorise, bool may_transpose = false) {
  if (may_transpose && a.ndim == 2 && a.nargs == 2 && a.shape[0] > 1 && a.shape[1] > 1) {
    const int columns = output_runs_down(a) ? 0 : 1;
    const int64_t in_along_rows = magnitude(a.strides[0][1 - columns]);
    if (in_along_rows != 0 && in_along_rows < magnitude(a.strides[0][columns])) return Layout::Transpose;
  }
  if (a.ndim <= 1) {
    size_t widest = 1;
    for (int k = 0; k < a.nargs; ++k) widest = std::max(widest, itemsizes[k]);
    const int64_t width = static_cast<int64_t>(kVectorBytes / widest);  // as vector_width() computes it
    bool dense = true, aligned = vectorise && width > 1;
    for (int k = 0; k < a.nargs; ++k) {
      int64_t s = a.ndim ? a.strides[k][0] : 0;
      bool is_output = k == a.nargs - 1;
      if (!(s == static_cast<int64_t>(itemsizes[k]) || (s == 0 && (!is_output || a.size == 1)))) dense = false;
      if (s != 0 && reinterpret_cast<uintptr_t>(a.data[k]) % (itemsizes[k] * static_cast<size_t>(width)) != 0)
        aligned = false;
    }
    if (dense && aligned && a.size >= width) return Layout::Vector;
    if (dense) return a.size < (int64_t{1} << 31) ? Layout::Contiguous32 : Layout::Contiguous64;
  }
  return a.ndim == 2 ? Layout::Strided2 : Layout::Strided;
}

KernelParams params_for(const StridedArgs& a, Layout layout, const size_t* itemsizes) {
  KernelParams p;
  std::memset(&p, 0, sizeof p);
  for (int k = 0; k < a.nargs; ++k) p.data[k] = a.data[k];
  if (layout == Layout::Transpose) {
    const bool swap = output_runs_down(a);
    p.ndim = 2;
    for (int d = 0; d < 2; ++d) {
      const int from = swap ? 1 - d : d;
      p.shape[d] = a.shape[from];
      for (int k = 0; k < a.nargs; ++k) p.strides[k][d] = a.strides[k][from];
    }
  } else if (layout == Layout::Strided || layout == Layout::Strided2) {
    if (a.ndim > kMaxKernelDims)
      throw ValueError("arrays whose layout needs more than " + std::to_string(kMaxKernelDims) +
                       " dimensions after merging are not supported on CUDA yet");
    p.ndim = a.ndim;
    for (int d = 0; d < a.ndim; ++d) {
      p.shape[d] = a.shape[d];
      for (int k = 0; k < a.nargs; ++k) p.strides[k][d] = a.strides[k][d];
    }
  } else {
    for (int k = 0; k < a.nargs; ++k)
      p.step[k] = (a.ndim && a.strides[k][0] != 0) ? a.strides[k][0] / static_cast<int64_t>(itemsizes[k]) : 0;
  }
  // Inputs by value travel in the parameters, marked by step -1 in every
  // layout (the kernel never reads their host pointer).
  for (int k = 0; k < a.nargs; ++k)
    if (a.by_value[k]) {
      std::memcpy(p.value + kValueSlotBytes * k, a.by_value[k], itemsizes[k]);
      p.data[k] = nullptr;
      p.step[k] = -1;
    }
  return p;
}

constexpr int64_t kMaxGridY = 65535;

void launch(CUfunction fn, const StridedArgs& a, KernelParams& p, Layout layout) {
  if (a.size == 0) return;
  ContextScope scope(a.device);
  unsigned n32 = static_cast<unsigned>(a.size);
  long long n64 = a.size;
  DenseKernelParams dense;
  if (is_dense(layout)) {
    std::memcpy(dense.data, p.data, sizeof dense.data);
    std::memcpy(dense.step, p.step, sizeof dense.step);
    std::memcpy(dense.value, p.value, sizeof dense.value);
  }
  void* args[] = {is_dense(layout) ? static_cast<void*>(&dense) : static_cast<void*>(&p),
                  layout == Layout::Contiguous32 ? static_cast<void*>(&n32) : static_cast<void*>(&n64)};
  CUstream stream = reinterpret_cast<CUstream>(current_stream_handle(a.device));
  auto ceil_div = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  unsigned grid[3] = {1, 1, 1}, block[3] = {kThreadsPerBlock, 1, 1};
  if (layout == Layout::Transpose) {  // a block a tile; the kernel loops over any tiles beyond the grid
    block[0] = kTransposeTile;
    block[1] = kTransposeRowsPerPass;
    grid[0] = static_cast<unsigned>(std::min<int64_t>(ceil_div(p.shape[1], kTransposeTile), int64_t{INT_MAX}));
    grid[1] = static_cast<unsigned>(std::min<int64_t>(ceil_div(p.shape[0], kTransposeTile), kMaxGridY));
  } else {
    grid[0] = static_cast<unsigned>(std::min<int64_t>(ceil_div(a.size, kThreadsPerBlock), max_blocks(a.device)));
  }
  launch_kernel(fn, grid, block, 0, stream, args);
}

void run_elementwise(OpId op, DType loop, const StridedArgs& a) {
  size_t itemsizes[4];
  for (int k = 0; k + 1 < a.nargs; ++k) itemsizes[k] = itemsize((op == OpId::where && k == 0) ? DType::Bool : loop);
  itemsizes[a.nargs - 1] = itemsize(loop_output_dtype(op, loop));
  Layout layout = choose_layout(a, itemsizes, true);
  CUfunction fn = function_for(elementwise_slots[int(op)][int(loop)][int(layout)], a.device,
                               [&] { return elementwise_spec(op, loop, layout); });
  KernelParams p = params_for(a, layout, itemsizes);
  launch(fn, a, p, layout);
}

void run_cast(DType from, DType to, const StridedArgs& a) {
  size_t itemsizes[2] = {itemsize(from), itemsize(to)};
  Layout layout = choose_layout(a, itemsizes, true, true);
  CUfunction fn = function_for(cast_slots[int(from)][int(to)][int(layout)], a.device,
                               [&] { return cast_spec(from, to, layout); });
  KernelParams p = params_for(a, layout, itemsizes);
  launch(fn, a, p, layout);
}

void run_fill(DType dt, const StridedArgs& a, const void* value) {
  size_t itemsizes[1] = {itemsize(dt)};
  Layout layout = choose_layout(a, itemsizes, false);
  CUfunction fn = function_for(fill_slots[int(dt)][int(layout)], a.device, [&] { return fill_spec(dt, layout); });
  KernelParams p = params_for(a, layout, itemsizes);
  std::memcpy(p.value, value, itemsize(dt));
  launch(fn, a, p, layout);
}

void run_iota(DType dt, const StridedArgs& a, const void* start, const void* step) {
  size_t itemsizes[1] = {itemsize(dt)};
  CUfunction fn = function_for(iota_slots[int(dt)], a.device, [&] { return iota_spec(dt); });
  KernelParams p = params_for(a, Layout::Contiguous64, itemsizes);
  std::memcpy(p.value, start, itemsize(dt));
  std::memcpy(p.value + kValueSlotBytes, step, itemsize(dt));
  launch(fn, a, p, Layout::Contiguous64);
}

// Table entries: one tiny function per (op, dtype) so the table stays plain
// function pointers, as the CPU backend's.
template <int O, int D> void elementwise_entry(const StridedArgs& a) { run_elementwise(OpId(O), DType(D), a); }
template <int F, int T> void cast_entry(const StridedArgs& a) { run_cast(DType(F), DType(T), a); }
template <int D> void fill_entry(const StridedArgs& a, const void* v) { run_fill(DType(D), a, v); }
template <int D> void iota_entry(const StridedArgs& a, const void* s, const void* t) { run_iota(DType(D), a, s, t); }

template <int O, int... D>
void register_op(KernelTable& t, std::integer_sequence<int, D...>) {
  ((t.elementwise[O][D] = has_loop(OpId(O), DType(D)) ? &elementwise_entry<O, D> : nullptr), ...);
}
template <int... O>
void register_ops(KernelTable& t, std::integer_sequence<int, O...>) {
  (register_op<O>(t, std::make_integer_sequence<int, kNumDTypes>{}), ...);
}
template <int F, int... T>
void register_casts_from(KernelTable& t, std::integer_sequence<int, T...>) {
  ((t.cast[F][T] = &cast_entry<F, T>), ...);
}
template <int... D>
void register_per_dtype(KernelTable& t, std::integer_sequence<int, D...> all) {
  (register_casts_from<D>(t, all), ...);
  ((t.fill[D] = &fill_entry<D>), ...);
  ((t.iota[D] = is_complex(DType(D)) ? nullptr : &iota_entry<D>), ...);
}

}  // namespace

void register_elementwise_kernels(KernelTable& t) {
  register_ops(t, std::make_integer_sequence<int, kNumOps>{});
  register_per_dtype(t, std::make_integer_sequence<int, kNumDTypes>{});
}

}  // namespace kiln::cuda
