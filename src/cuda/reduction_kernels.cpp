// Launches the generated reduction and scan kernels. Few outputs over a long
// range run in two passes (per-chunk accumulators, then one per output) so
// that the whole GPU takes part; otherwise each block reduces one output.
// Scans run in one pass over tiles (CUB's decoupled look-back), or a thread
// per line where lines are short or lie side by side.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <string>
#include <utility>

#include "backend.hpp"
#include "context.hpp"
#include "kernel_slots.hpp"
#include "kernel_source.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "memory_pool.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kReduceThreads = 256;           // must match the kernels' shared arrays
constexpr int64_t kElementsPerBlock = 256 * 64;     // two-pass chunk size to aim for
constexpr size_t kMaxAccumulatorBytes = 32;         // the largest Acc (indexed<complex128>)
constexpr int64_t kMinRowsPerChunk = 64;             // rows a column-chunk thread walks at least
constexpr int64_t kShortScan = 16;                   // lines up to this long get a thread each
static_assert(kScanThreads == kReduceThreads, "scans launch through the same helper");

struct ReduceFunctions {
  CUfunction direct, partial, final_pass, columns, columns_partial, columns_final;
  // Blocks of the two-pass kernels resident on the whole device at once: the
  // chunks are sized to fill it in one wave, leaving no straggling second one.
  int64_t partial_resident, columns_partial_resident;
};
struct ScanFunctions {
  CUfunction init, tiles, columns;
};

std::atomic<ReduceFunctions*> reduce_slots[kNumReduceOps][kNumDTypes][kMaxDevices];
std::atomic<ReduceFunctions*> widening_sum_slots[kNumDTypes][kMaxDevices];
std::atomic<ScanFunctions*> scan_slots[kNumScanOps][kNumDTypes][kMaxDevices];

unsigned multiprocessors(int device) {
  return static_cast<unsigned>(cached_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
}

int64_t resident_blocks(CUfunction fn, int device) {
  ContextScope scope(device);
  int per_multiprocessor = 0;
  check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, fn, kReduceThreads, 0),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return int64_t{std::max(per_multiprocessor, 1)} * multiprocessors(device);
}

// Built once and kept for the life of the process, like the modules behind
// them: the kernels of reduction `op` (a red_<op> in reduce.cuh) over `dt`.
const ReduceFunctions& reduce_functions(std::atomic<ReduceFunctions*>& slot, const char* op, DType dt, int device) {
  return *load_or_build(slot, [&] {
    std::string name = std::string("kiln_reduce_") + op + "_" + std::string(kiln::name(dt));
    std::string source = reduce_source(op, dt, name);
    auto* f = new ReduceFunctions{load_kernel(device, source, name + "_direct"),
                                  load_kernel(device, source, name + "_partial"),
                                  load_kernel(device, source, name + "_final"),
                                  load_kernel(device, source, name + "_columns"),
                                  load_kernel(device, source, name + "_columns_partial"),
                                  load_kernel(device, source, name + "_columns_final")};
    f->partial_resident = resident_blocks(f->partial, device);
    f->columns_partial_resident = resident_blocks(f->columns_partial, device);
    return f;
  });
}

const ScanFunctions& scan_functions(ScanOp op, DType dt, int device) {
  check_device_index(device);
  return *load_or_build(scan_slots[int(op)][int(dt)][device], [&] {
    bool multiply = op == ScanOp::cumulative_prod;
    std::string name = std::string("kiln_scan_") + (multiply ? "prod_" : "sum_") + std::string(kiln::name(dt));
    std::string source = scan_source(multiply, dt, name);
    return new ScanFunctions{load_kernel(device, source, name + "_init", Includes::KilnAndCccl),
                             load_kernel(device, source, name + "_tiles", Includes::KilnAndCccl),
                             load_kernel(device, source, name + "_columns", Includes::KilnAndCccl)};
  });
}

void check_dims(int n, const char* what) {
  if (n > kMaxKernelDims)
    throw ValueError(std::string(what) + " with more than " + std::to_string(kMaxKernelDims) +
                     " dimensions after merging are not supported on CUDA yet");
}

void launch_args(CUfunction fn, int device, unsigned blocks, void** args) {
  CUstream stream = reinterpret_cast<CUstream>(current_stream_handle(device));
  const unsigned grid[3] = {std::max(blocks, 1u), 1, 1}, block[3] = {kReduceThreads, 1, 1};
  launch_kernel(fn, grid, block, 0, stream, args);
}

// `input_param`: a computed input's parameter, after the reduction's own (or null).
void launch(CUfunction fn, int device, unsigned blocks, void* params, void* input_param = nullptr) {
  void* args[] = {params, input_param};
  launch_args(fn, device, blocks, args);
}

// Splits each output's reduced range into about `split` chunks (p.chunk, p.split)
// and gives p.partial room for one accumulator per (output, chunk). The buffer
// returns to the pool on the current stream, so work queued after the kernels
// that use it cannot overwrite it early.
BufferPtr split_ranges(ReduceParams& p, int64_t split, int device) {
  p.chunk = (p.reduce_size + split - 1) / split;
  p.split = (p.reduce_size + p.chunk - 1) / p.chunk;
  BufferPtr partial =
      allocate_device(static_cast<size_t>(p.kept_size * p.split) * kMaxAccumulatorBytes, Device::cuda(device));
  p.partial = static_cast<char*>(partial->data());
  return partial;
}

void run_reduce(const ReduceFunctions& f, const ReduceArgs& a) {
  ContextScope scope(a.device);
  void* input_param = a.computed ? a.computed->kernel_param : nullptr;
  ReduceParams p;
  std::memset(&p, 0, sizeof p);
  p.in = a.in;
  p.out = a.out;
  p.kept_ndim = a.kept_ndim;
  p.red_ndim = a.reduce_ndim;
  for (int d = 0; d < a.kept_ndim; ++d) {
    p.kept_shape[d] = a.shape[d];
    p.kept_in[d] = a.in_strides[d];
    p.kept_out[d] = a.out_strides[d];
  }
  for (int d = 0; d < a.reduce_ndim; ++d) {
    p.red_shape[d] = a.shape[a.kept_ndim + d];
    p.red_in[d] = a.in_strides[a.kept_ndim + d];
  }
  p.kept_size = a.kept_size;
  p.reduce_size = a.reduce_size;
  const unsigned sms = multiprocessors(a.device);
  const int64_t max_blocks = int64_t{sms} * 8;
  // A kept axis moving fastest, with outputs enough for a thread each: columns.
  auto mag = [](int64_t s) { return s < 0 ? -s : s; };
  if (a.kept_ndim > 0 && mag(a.in_strides[a.kept_ndim - 1]) < mag(a.in_strides[a.kept_ndim + a.reduce_ndim - 1]) &&
      a.kept_size >= int64_t{kReduceThreads} * 8) {
    // Enough threads to keep memory busy: split the rows when columns alone are too few.
    const int64_t want_threads = f.columns_partial_resident * kReduceThreads;
    int64_t split = std::min(want_threads / a.kept_size, a.reduce_size / kMinRowsPerChunk);
    if (split <= 1) {
      int64_t blocks = (a.kept_size + kReduceThreads - 1) / kReduceThreads;
      launch(f.columns, a.device, static_cast<unsigned>(std::min(blocks, max_blocks * 4)), &p, input_param);
      return;
    }
    BufferPtr partial = split_ranges(p, split, a.device);
    int64_t blocks = (a.kept_size * p.split + kReduceThreads - 1) / kReduceThreads;
    launch(f.columns_partial, a.device, static_cast<unsigned>(std::min(blocks, max_blocks * 8)), &p, input_param);
    blocks = (a.kept_size + kReduceThreads - 1) / kReduceThreads;
    launch(f.columns_final, a.device, static_cast<unsigned>(std::min(blocks, max_blocks * 4)), &p, input_param);
    return;
  }
  // Split each output's range when there are too few outputs to fill the GPU.
  int64_t split = 1;
  if (a.kept_size < f.partial_resident && a.reduce_size > 2 * kElementsPerBlock)
    split = std::min(f.partial_resident / a.kept_size, (a.reduce_size + kElementsPerBlock - 1) / kElementsPerBlock);
  if (split <= 1) {
    launch(f.direct, a.device, static_cast<unsigned>(std::min(a.kept_size, max_blocks * 4)), &p, input_param);
    return;
  }
  BufferPtr partial = split_ranges(p, split, a.device);
  launch(f.partial, a.device, static_cast<unsigned>(std::min<int64_t>(a.kept_size * p.split, max_blocks * 4)), &p, input_param);
  launch(f.final_pass, a.device, static_cast<unsigned>(std::min(a.kept_size, max_blocks * 4)), &p, input_param);
}

void run_scan(ScanOp op, DType dt, const ScanArgs& a) {
  check_dims(a.outer_ndim, "scans");
  const ScanFunctions& f = scan_functions(op, dt, a.device);
  ContextScope scope(a.device);
  ScanParams p;
  std::memset(&p, 0, sizeof p);
  p.in = a.in;
  p.out = a.out;
  p.outer_ndim = a.outer_ndim;
  for (int d = 0; d < a.outer_ndim; ++d) {
    p.outer_shape[d] = a.outer_shape[d];
    p.in_outer[d] = a.in_outer_strides[d];
    p.out_outer[d] = a.out_outer_strides[d];
  }
  p.length = a.length;
  p.in_axis = a.in_axis_stride;
  p.out_axis = a.out_axis_stride;
  p.outer_size = a.outer_size;
  const int64_t sms = multiprocessors(a.device);
  auto mag = [](int64_t s) { return s < 0 ? -s : s; };
  // Short lines, or many lines side by side in memory: a thread per line.
  const bool side_by_side = a.outer_ndim > 0 && mag(a.in_outer_strides[a.outer_ndim - 1]) < mag(a.in_axis_stride);
  if (a.length <= kShortScan || (side_by_side && a.outer_size >= int64_t{kScanThreads} * 8)) {
    int64_t blocks = (a.outer_size + kScanThreads - 1) / kScanThreads;
    launch(f.columns, a.device, static_cast<unsigned>(std::min(blocks, sms * 32)), &p);
    return;
  }
  const int64_t tile = int64_t{kScanThreads} * scan_tile_items(dt);
  long long tiles_per_line = (a.length + tile - 1) / tile;
  if (a.outer_size * tiles_per_line > std::numeric_limits<int>::max())
    throw ValueError("cumulative scans of more than 2**31 tiles are not supported on CUDA");
  int tiles = static_cast<int>(a.outer_size * tiles_per_line);
  // An upper bound of CUB's ScanTileState::AllocationSize (a status word and
  // two values per tile, a warp's padding, alignment); the init kernel checks it.
  unsigned long long bytes = (static_cast<unsigned long long>(tiles) + 32) * (2 * itemsize(dt) + 16) + 1024;
  BufferPtr state = allocate_device(bytes, Device::cuda(a.device));
  void* storage = state->data();
  void* init_args[] = {&storage, &bytes, &tiles};
  launch_args(f.init, a.device, static_cast<unsigned>((tiles + kScanThreads - 1) / kScanThreads), init_args);
  void* tile_args[] = {&p, &storage, &bytes, &tiles, &tiles_per_line};
  launch_args(f.tiles, a.device, static_cast<unsigned>(tiles), tile_args);
}

void check_reduce_args(const ReduceArgs& a) {
  check_dims(a.kept_ndim, "reductions");
  check_dims(a.reduce_ndim, "reductions");
  check_device_index(a.device);
}

// The kernels of a computed input's module (ComputedInput::kernels), with
// their occupancy, found once per module and kept like kiln's own.
const ReduceFunctions& computed_functions(const ComputedInput& in, int device) {
  static std::mutex mutex;
  static std::unordered_map<uintptr_t, const ReduceFunctions*> known;
  std::lock_guard<std::mutex> lock(mutex);
  const ReduceFunctions*& f = known[in.kernels[0]];
  if (!f) {
    auto* made = new ReduceFunctions{};
    CUfunction* slots[] = {&made->direct, &made->partial, &made->final_pass,
                           &made->columns, &made->columns_partial, &made->columns_final};
    for (int k = 0; k < 6; ++k) *slots[k] = reinterpret_cast<CUfunction>(in.kernels[k]);
    made->partial_resident = resident_blocks(made->partial, device);
    made->columns_partial_resident = resident_blocks(made->columns_partial, device);
    f = made;
  }
  return *f;
}

template <int O, int D> void reduce_entry(const ReduceArgs& a) {
  check_reduce_args(a);
  if (a.computed) return run_reduce(computed_functions(*a.computed, a.device), a);
  run_reduce(reduce_functions(reduce_slots[O][D][a.device], reduce_name(ReduceOp(O)), DType(D), a.device), a);
}
template <int D> void widening_sum_entry(const ReduceArgs& a) {
  check_reduce_args(a);
  if (a.computed) return run_reduce(computed_functions(*a.computed, a.device), a);
  run_reduce(reduce_functions(widening_sum_slots[D][a.device], "widening_sum", DType(D), a.device), a);
}
template <int O, int D> void scan_entry(const ScanArgs& a) { run_scan(ScanOp(O), DType(D), a); }

template <int... D>
void register_dtypes(KernelTable& t, std::integer_sequence<int, D...>) {
  constexpr int sum = int(ReduceOp::sum), prod = int(ReduceOp::prod), mn = int(ReduceOp::min),
                mx = int(ReduceOp::max), amin = int(ReduceOp::argmin), amax = int(ReduceOp::argmax),
                deviations = int(ReduceOp::squared_deviations);
  ((t.reduce[sum][D] = &reduce_entry<sum, D>), ...);
  ((t.reduce[prod][D] = &reduce_entry<prod, D>), ...);
  ((t.reduce[mn][D] = &reduce_entry<mn, D>), ...);
  ((t.reduce[mx][D] = &reduce_entry<mx, D>), ...);
  ((t.reduce[amin][D] = &reduce_entry<amin, D>), ...);
  ((t.reduce[amax][D] = &reduce_entry<amax, D>), ...);
  ((t.reduce[deviations][D] = &reduce_entry<deviations, D>), ...);
  ((t.scan[int(ScanOp::cumulative_sum)][D] = &scan_entry<int(ScanOp::cumulative_sum), D>), ...);
  ((t.scan[int(ScanOp::cumulative_prod)][D] = &scan_entry<int(ScanOp::cumulative_prod), D>), ...);
}

}  // namespace

void register_reduction_kernels(KernelTable& t) {
  register_dtypes(t, std::make_integer_sequence<int, kNumDTypes>{});
  t.computed_reduce_input = ComputedInputForm::DeviceCode;
  constexpr int bool_index = int(DType::Bool);
  t.reduce[int(ReduceOp::any)][bool_index] = &reduce_entry<int(ReduceOp::any), bool_index>;
  t.reduce[int(ReduceOp::all)][bool_index] = &reduce_entry<int(ReduceOp::all), bool_index>;
  t.widening_sum[bool_index] = &widening_sum_entry<bool_index>;
  t.widening_sum[int(DType::Int8)] = &widening_sum_entry<int(DType::Int8)>;
  t.widening_sum[int(DType::UInt8)] = &widening_sum_entry<int(DType::UInt8)>;
  t.widening_sum[int(DType::Int16)] = &widening_sum_entry<int(DType::Int16)>;
  t.widening_sum[int(DType::UInt16)] = &widening_sum_entry<int(DType::UInt16)>;
  t.widening_sum[int(DType::Int32)] = &widening_sum_entry<int(DType::Int32)>;
  t.widening_sum[int(DType::UInt32)] = &widening_sum_entry<int(DType::UInt32)>;
}

}  // namespace kiln::cuda
