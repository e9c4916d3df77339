#pragma once
// The op registry: each backend fills a KernelTable for its device kind, and
// the core dispatches through it after it has resolved types, broadcast shapes
// and allocated outputs. Lookups are array indexing: no strings, no hashing.
#include <cstdint>
#include <vector>

#include "kiln/buffer.hpp"
#include "kiln/compiled_module.hpp"
#include "kiln/device.hpp"
#include "kiln/dtype.hpp"
#include "kiln/ops.hpp"
#include "kiln/random.hpp"
#include "kiln/reductions.hpp"

namespace kiln {

inline constexpr int kMaxOperands = 4;

// Operands (inputs first, then the output) walked together over `shape`.
// Dimensions are already coalesced; strides are in bytes.
struct StridedArgs {
  int device = 0;  // index of the operands' device
  int nargs = 0;
  int ndim = 0;
  int64_t size = 0;
  const int64_t* shape = nullptr;
  char* data[kMaxOperands] = {};
  const int64_t* strides[kMaxOperands] = {};
  // Where not null, input k is one value in host memory (a Python scalar of
  // an elementwise op, in the loop's dtype): data[k] is the same pointer and
  // its strides are 0, which a CPU kernel reads as any broadcast input; a
  // GPU backend passes the value with the launch instead (no device copy).
  const void* by_value[kMaxOperands] = {};
};

// A reduction's input computed where it is read instead of read from
// memory: automatic fusion's pending expressions (kiln/fusion.hpp), so that
// `(a * b + c).sum()` never stores `a * b + c`. The input is C-contiguous;
// `in` is then null and offsets count from 0. Each backend says which form
// it takes (KernelTable::computed_reduce_input).
struct ComputedInput {
  // DeviceCode: the handles (RawKernel::handle) of the six kernels of a
  // module built from kiln/device/reduce_kernels.cuh with an input of its
  // own, in the order _direct, _partial, _final, _columns,
  // _columns_partial, _columns_final, and their parameter after the
  // reduction's own.
  const uintptr_t* kernels = nullptr;
  void* kernel_param = nullptr;
  // HostFill: writes elements [first, first + n) of the input to `dst`.
  void (*fill)(const void* context, int64_t first, int64_t n, void* dst) = nullptr;
  const void* context = nullptr;
};
enum class ComputedInputForm : uint8_t { None, DeviceCode, HostFill };

// Reduction of `in` over its trailing `reduce_ndim` axes into `out`, whose
// strides are given for the leading (kept) axes.
struct ReduceArgs {
  int device = 0;
  const char* in = nullptr;
  char* out = nullptr;
  int kept_ndim = 0;
  int reduce_ndim = 0;
  const int64_t* shape = nullptr;       // kept axes, then reduced axes
  const int64_t* in_strides = nullptr;  // same order
  const int64_t* out_strides = nullptr; // kept axes only
  int64_t kept_size = 0;
  int64_t reduce_size = 0;
  // Set: `in` is computed (sum, prod, min, max, any, all and the widening
  // sums take one).
  const ComputedInput* computed = nullptr;
};

// Inclusive scan of `in` along axis of length `length` into `out`, for every
// index of the other axes (`outer_*`).
struct ScanArgs {
  int device = 0;
  const char* in = nullptr;
  char* out = nullptr;
  int64_t length = 0;
  int64_t in_axis_stride = 0;
  int64_t out_axis_stride = 0;
  int outer_ndim = 0;
  int64_t outer_size = 0;
  const int64_t* outer_shape = nullptr;
  const int64_t* in_outer_strides = nullptr;
  const int64_t* out_outer_strides = nullptr;
};

// Counts (int64 out) or weight sums (float64 out) of the values x[0..n) into
// out[0..bins); every x is in [0, bins) and out starts zeroed.
struct BincountArgs {
  int device = 0;
  const int64_t* x = nullptr;
  const double* weights = nullptr;  // null for counts
  int64_t n = 0;
  char* out = nullptr;
  int64_t bins = 0;
};

// n values of a random draw into contiguous out (see kiln/random.hpp).
struct RandomArgs {
  int device = 0;
  char* out = nullptr;
  int64_t n = 0;
  uint64_t key = 0;
  uint64_t first_block = 0;
};

// out[o, j, i] = src[o, indices[j], i] for C-contiguous src (outer, axis_length,
// inner) and out (outer, count, inner), elements of itemsize bytes; indices
// are in [-axis_length, axis_length) (negative ones count from the end).
// With check_bounds, indices outside that range are skipped and the kernel
// returns the position j of the first of them (-1 when there is none): the
// check rides along the gather instead of a pass over the indices of its own.
struct GatherArgs {
  int device = 0;
  const char* src = nullptr;
  char* dst = nullptr;
  const int64_t* indices = nullptr;
  int64_t count = 0, axis_length = 0, outer = 0, inner = 0, itemsize = 0;
  bool check_bounds = false;
};

// A contiguous mask's true bytes (n of them), in order: with out null, only
// their number, into count; else, to out (count of them), their int64
// positions, or, with `values` set, the elements at those positions of the
// contiguous `values` (itemsize bytes each). Two reads of the mask. What the
// counting call leaves in `slices` (the backend's own) the writing call may reuse.
struct MaskCompactArgs {
  int device = 0;
  const uint8_t* mask = nullptr;
  int64_t n = 0;
  const char* values = nullptr;
  int64_t itemsize = 0;  // of values: 1, 2, 4, 8 or 16
  void* out = nullptr;
  int64_t count = 0;
  std::vector<int64_t> slices;
};

// dst[indices[j]] = values[j % value_count] for j < count, in a C-contiguous
// dst of `length` elements of itemsize bytes; indices in [-length, length).
struct ScatterArgs {
  int device = 0;
  char* dst = nullptr;
  const char* values = nullptr;
  const int64_t* indices = nullptr;
  int64_t count = 0, value_count = 0, length = 0, itemsize = 0;
};

// Sorts each of `rows` C-contiguous rows of n keys, stably, in NumPy's order
// (NaNs last; complex by real part, then imaginary): the sorted keys into
// `sorted` and/or each one's position within its row into `indices` (either
// may be null, not both).
struct SortArgs {
  int device = 0;
  const char* keys = nullptr;
  char* sorted = nullptr;
  int64_t* indices = nullptr;
  int64_t rows = 0, n = 0;
};

// out[j] = where values[j] would go in the ascending (NumPy's order) 1-D
// `sorted` of n keys: before the first key not less than it (left) or after
// the last key not greater than it (right). Both of one dtype, contiguous.
struct SearchArgs {
  int device = 0;
  const char* sorted = nullptr;
  int64_t n = 0;
  const char* values = nullptr;
  int64_t count = 0;
  int64_t* out = nullptr;
  bool right = false;
};

// out[p] = a[p] @ b[p] for p < batch: row-major C-contiguous matrices, a
// (m, k), b (k, n), out (m, n), all of one dtype; the batch strides are in
// elements, 0 where one matrix serves the whole batch.
struct MatmulArgs {
  int device = 0;
  const char* a = nullptr;
  const char* b = nullptr;
  char* out = nullptr;
  int64_t batch = 0, m = 0, n = 0, k = 0;
  int64_t a_stride = 0, b_stride = 0;  // out's is m * n
};

// LAPACK's factorizations of a batch of column-major matrices (each m x n,
// leading dimension m, one after another), in place, with LAPACK's
// conventions; `info` (host memory, one a matrix) gets LAPACK's info.
enum class LapackOp : uint8_t {
  getrf,  // LU with partial pivoting: pivots (1-based, min(m, n) a matrix)
  getrs,  // solves with getrf's factors: b (n x nrhs a matrix) is overwritten
  potrf,  // Cholesky: the `upper` or lower triangle of a
  geqrf,  // QR: R above the diagonal, reflectors below, their factors in values (min(m, n))
  orgqr,  // forms geqrf's Q in a (m x n) from its `reflectors` factors in values
  syevd,  // Hermitian eigenproblem: eigenvalues ascending in values (real), vectors in a when `vectors`
  geev,   // general eigenproblem of complex matrices: eigenvalues in values (complex, n a matrix), the
          // right eigenvectors (unit columns) in u (n x n) when `vectors`; a is destroyed
  gesvd,  // singular values descending in values (real); u (m x m or m x k) and vt (n x n or k x n)
          // when not null (`full` for the square ones), k = min(m, n); a is destroyed
  lu_slogdet,  // optional: slogdet from getrf's n x n factors in a and its pivots: each matrix's
               // sign into values (a's dtype), log|det| into b (real); without it the core
               // spells the same in array operations
  count_
};
inline constexpr int kNumLapackOps = static_cast<int>(LapackOp::count_);

// Stacks of tiny matrices in one pass, each n x n with n <= kSmallMatrixMaxSide,
// row-major (C-contiguous) unlike LapackOp's, in place: the core's result
// itself. Optional: without one (or for larger n) the core composes the
// LapackOps. `info` as getrf's (inverse) or potrf's (cholesky).
enum class SmallMatrixOp : uint8_t {
  inverse,   // a's inverse, by LU's partial pivoting; a singular matrix is left as it was
  cholesky,  // the `upper` (a = U^H U, read from the upper triangle) or lower factor, the
             // other triangle zeroed
  count_
};
inline constexpr int kNumSmallMatrixOps = static_cast<int>(SmallMatrixOp::count_);
inline constexpr int64_t kSmallMatrixMaxSide = 8;

struct LapackArgs {
  int device = 0;
  char* a = nullptr;
  int64_t batch = 0, m = 0, n = 0;
  char* b = nullptr;
  int64_t nrhs = 0;
  int64_t reflectors = 0;
  int64_t* pivots = nullptr;
  char* values = nullptr;
  char* u = nullptr;
  char* vt = nullptr;
  bool full = false, vectors = false, upper = false;
  int64_t* info = nullptr;
};

// y = A x, or A^T x with `transpose` (not conjugated), for the CSR matrix A
// of rows x cols with nnz entries: row_starts (rows + 1 of them) and
// columns both of `index_dtype` (int32 or int64), values, x and y
// contiguous of the table entry's dtype; y has cols elements with
// transpose, rows otherwise.
struct SparseMatvecArgs {
  int device = 0;
  int64_t rows = 0, cols = 0, nnz = 0;
  const void* row_starts = nullptr;
  const void* columns = nullptr;
  DType index_dtype = DType::Int32;
  const void* values = nullptr;
  const void* x = nullptr;
  void* y = nullptr;
  bool transpose = false;
};

// A batch of C-contiguous transforms over the last `rank` axes of logical
// sizes n[0..rank) (see kiln/fft.hpp): in and out are the batch's
// contiguous complex or real arrays; C2R may overwrite `in`.
struct FftArgs {
  int device = 0;
  uint8_t kind = 0;  // FftKind
  bool inverse = false;
  bool double_precision = false;
  const char* in = nullptr;
  char* out = nullptr;
  int rank = 1;
  int64_t n[3] = {};
  int64_t batch = 0;
};

using ElementwiseKernel = void (*)(const StridedArgs& args);
// Writes `value` (itemsize bytes of the array's dtype) to every element.
using FillKernel = void (*)(const StridedArgs& args, const void* value);
// out[i] = start + i * step for a contiguous out of args.size elements;
// start/step are values of the kernel's dtype.
using IotaKernel = void (*)(const StridedArgs& args, const void* start, const void* step);
using ReduceKernel = void (*)(const ReduceArgs& args);
using ScanKernel = void (*)(const ScanArgs& args);
using BincountKernel = void (*)(const BincountArgs& args);
using RandomKernel = void (*)(const RandomArgs& args);
using GatherKernel = int64_t (*)(const GatherArgs& args);
using ScatterKernel = void (*)(const ScatterArgs& args);
using MaskCompactKernel = void (*)(MaskCompactArgs& args);
using SortKernel = void (*)(const SortArgs& args);
using SearchKernel = void (*)(const SearchArgs& args);
using MatmulKernel = void (*)(const MatmulArgs& args);
using LapackKernel = void (*)(const LapackArgs& args);
using SparseMatvecKernel = void (*)(const SparseMatvecArgs& args);
using FftKernel = void (*)(const FftArgs& args);
using AllocateFn = BufferPtr (*)(size_t nbytes, Device device);
// Copies nbytes of contiguous memory between two devices, one of them this
// table's (the other may be the CPU).
using TransferFn = void (*)(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);
// dst = src cast from `from` to `to` in one pass between two devices of the
// kind: args' operands are src (on args.device) and dst (on dst_device).
// Returns false, having done nothing, where the devices cannot reach each
// other's memory (the core then packs and transfers).
using CastAcrossFn = bool (*)(const StridedArgs& args, DType from, DType to, int dst_device);
using PoolStatsFn = PoolStats (*)(Device device);
using FreeAllBlocksFn = void (*)(Device device);
using SetPoolLimitFn = void (*)(Device device, size_t bytes);
// The handle of the stream this thread's work on `device` goes to (0 on a
// device without streams).
using CurrentStreamFn = uintptr_t (*)(int device);

struct KernelTable {
  AllocateFn allocate = nullptr;
  PoolStatsFn pool_stats = nullptr;  // what `allocate` holds
  FreeAllBlocksFn free_all_blocks = nullptr;
  SetPoolLimitFn set_pool_limit = nullptr;
  TransferFn transfer = nullptr;
  CastAcrossFn cast_across = nullptr;  // optional
  // elementwise[op][loop dtype]: inputs and output of the loop dtype, except
  // where op_output_dtype says otherwise.
  ElementwiseKernel elementwise[kNumOps][kNumDTypes] = {};
  ElementwiseKernel cast[kNumDTypes][kNumDTypes] = {};  // [from][to]; [d][d] copies
  FillKernel fill[kNumDTypes] = {};
  IotaKernel iota[kNumDTypes] = {};
  // Reductions read and write the given dtype, except argmin/argmax (int64
  // out), any/all (bool in and out) and squared_deviations (optional: the
  // sum of squared deviations from the mean, var's one pass, out in the
  // real dtype of NumPy's mean's computation; var makes two passes without it).
  ReduceKernel reduce[kNumReduceOps][kNumDTypes] = {};
  // Optional: sum of a bool or narrower integer array straight into int64
  // (uint64 for unsigned), NumPy's default, without converting it first.
  ReduceKernel widening_sum[kNumDTypes] = {};
  // The form of ComputedInput the reductions above take (None: they read memory only).
  ComputedInputForm computed_reduce_input = ComputedInputForm::None;
  ScanKernel scan[kNumScanOps][kNumDTypes] = {};
  BincountKernel bincount[2] = {};  // [0] counts, [1] weight sums
  RandomKernel random[3][kNumDTypes] = {};  // [RandomKind][dtype]
  GatherKernel gather = nullptr;
  ScatterKernel scatter = nullptr;
  MaskCompactKernel compact_mask = nullptr;
  SortKernel sort[kNumDTypes] = {};
  SearchKernel search[kNumDTypes] = {};
  MatmulKernel matmul[kNumDTypes] = {};
  LapackKernel lapack[kNumLapackOps][kNumDTypes] = {};  // float32/64 and complex64/128
  LapackKernel small_matrix[kNumSmallMatrixOps][kNumDTypes] = {};  // the same dtypes
  FftKernel fft = nullptr;
  SparseMatvecKernel sparse_matvec[kNumDTypes] = {};  // float32/64 and complex64/128
  // Users' CUDA C (see kiln/compiled_module.hpp).
  CompileModuleFn compile_module = nullptr;
  CurrentStreamFn current_stream = nullptr;
};

// The table of a device kind, filled by its backend on first use.
KernelTable& kernel_table(DeviceKind kind);

namespace detail {
// Fills each device kind's table ([kind]) with what its backend offers.
// Defined where the library is assembled (src/backends.cpp), the one place
// that knows which backends were built: the core includes none of them.
void register_backends(KernelTable (&tables)[kNumDeviceKinds]);
}  // namespace detail

}  // namespace kiln
