// Sorting and binary search on the GPU. Keys are sorted by CUB's radix sort
// (libkiln_cub.so): a copy of the keys with every NaN made the one positive
// quiet NaN, so that NaNs sort last as in NumPy (CUB orders NaNs by their
// bits). What a single radix sort of the keys cannot do is composed of
// stable sorts carrying the int64 positions:
//   - complex keys: by imaginary part, then real part, then NumPy's NaN
//     class (no NaN part, NaN imaginary part, NaN real part, both);
//   - several rows: all rows at once, then by row number, which keeps each
//     row's order.
// The small kernels around the sorts come from NVRTC.
#include <algorithm>
#include <atomic>
#include <string>

#include "backend.hpp"
#include "kernel_family_sources.hpp"
#include "context.hpp"
#include "cub_library.hpp"
#include "grid_stride.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "memory_pool.hpp"
#include "module_cache.hpp"

namespace kiln::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSM = 16;

}  // namespace

const char* sort_kernel_source() {
  return R"(
#include "kiln/device/types.cuh"
using namespace kiln::dev;

// Whether the bits v of a float of nan_bits bits (0: not a float) are a NaN.
template <class U>
__device__ bool is_nan_bits(U v, int nan_bits) {
  const U exponent = nan_bits == 16 ? (U)0x7c00 : nan_bits == 32 ? (U)0x7f800000u : (U)0x7ff0000000000000ull;
  const U magnitude = (U)((U)~(U)0 >> 1);  // all bits but the sign
  return nan_bits && (v & magnitude) > exponent;
}

// A key of U's width: the part-th U of element perm[i] (or i), every NaN
// made the positive quiet NaN when the keys are floating point.
template <class U>
__device__ void sort_keys(const U* in, const long long* perm, U* out, long long n, int parts, int part, int nan_bits) {
  const U quiet = nan_bits == 16 ? (U)0x7e00 : nan_bits == 32 ? (U)0x7fc00000u : (U)0x7ff8000000000000ull;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const U v = in[(perm ? perm[i] : i) * parts + part];
    out[i] = is_nan_bits(v, nan_bits) ? quiet : v;
  }
}
// NumPy's classes of complex values, sorted in this order: no NaN part (0),
// NaN imaginary part (1), NaN real part (2), both (3).
template <class U>
__device__ void nan_classes(const U* in, const long long* perm, unsigned char* out, long long n, int nan_bits) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const long long at = perm[i] * 2;
    out[i] = (unsigned char)(2 * is_nan_bits(in[at], nan_bits) + is_nan_bits(in[at + 1], nan_bits));
  }
}
extern "C" __global__ void kiln_sort_nan_classes_4(const unsigned int* in, const long long* perm, unsigned char* out,
                                                   long long n, int nan_bits) {
  nan_classes(in, perm, out, n, nan_bits);
}
extern "C" __global__ void kiln_sort_nan_classes_8(const unsigned long long* in, const long long* perm,
                                                   unsigned char* out, long long n, int nan_bits) {
  nan_classes(in, perm, out, n, nan_bits);
}
#define KILN_SORT_KEYS(name, U)                                                                             \
  extern "C" __global__ void name(const U* in, const long long* perm, U* out, long long n, int parts, int part, \
                                  int nan_bits) {                                                           \
    sort_keys(in, perm, out, n, parts, part, nan_bits);                                                     \
  }
KILN_SORT_KEYS(kiln_sort_keys_1, unsigned char)
KILN_SORT_KEYS(kiln_sort_keys_2, unsigned short)
KILN_SORT_KEYS(kiln_sort_keys_4, unsigned int)
KILN_SORT_KEYS(kiln_sort_keys_8, unsigned long long)

extern "C" __global__ void kiln_sort_iota(long long* out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = i;
}
extern "C" __global__ void kiln_sort_row_numbers(const long long* perm, unsigned* rows, long long n, long long row_length) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    rows[i] = (unsigned)(perm[i] / row_length);
}
extern "C" __global__ void kiln_sort_positions(const long long* perm, long long* out, long long n, long long row_length) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = perm[i] % row_length;
}

// NumPy's order: NaN after every number; complex values by NaN class (see
// nan_classes), then real part, then imaginary part.
template <class T> __device__ bool is_nan(T v) { return v != v; }
template <class T> __device__ bool nan_last_less(T a, T b) { return a < b || (is_nan(b) && !is_nan(a)); }
template <class T> __device__ bool numpy_less(T a, T b) { return a < b; }
template <> __device__ bool numpy_less(float a, float b) { return nan_last_less(a, b); }
template <> __device__ bool numpy_less(double a, double b) { return nan_last_less(a, b); }
template <> __device__ bool numpy_less(half a, half b) { return nan_last_less(to_float(a), to_float(b)); }
template <class R> __device__ bool complex_less(complex<R> a, complex<R> b) {
  const int class_a = 2 * is_nan(a.re) + is_nan(a.im), class_b = 2 * is_nan(b.re) + is_nan(b.im);
  if (class_a != class_b) return class_a < class_b;
  if (a.re != b.re && !is_nan(a.re)) return a.re < b.re;
  return a.im < b.im;
}
template <> __device__ bool numpy_less(complex64 a, complex64 b) { return complex_less(a, b); }
template <> __device__ bool numpy_less(complex128 a, complex128 b) { return complex_less(a, b); }

template <class T>
__device__ void search(const T* sorted, long long n, const T* values, long long count, long long* out, int right) {
  for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < count; j += (long long)gridDim.x * blockDim.x) {
    const T v = values[j];
    long long lo = 0, hi = n;
    while (lo < hi) {
      const long long mid = lo + (hi - lo) / 2;
      if (right ? !numpy_less(v, sorted[mid]) : numpy_less(sorted[mid], v)) lo = mid + 1;
      else hi = mid;
    }
    out[j] = lo;
  }
}
#define KILN_SEARCH(name, T)                                                                                  \
  extern "C" __global__ void name(const T* sorted, long long n, const T* values, long long count, long long* out, \
                                  int right) {                                                                \
    search(sorted, n, values, count, out, right);                                                             \
  }
KILN_SEARCH(kiln_search_bool, bool)
KILN_SEARCH(kiln_search_int8, int8)
KILN_SEARCH(kiln_search_uint8, uint8)
KILN_SEARCH(kiln_search_int16, int16)
KILN_SEARCH(kiln_search_uint16, uint16)
KILN_SEARCH(kiln_search_int32, int32)
KILN_SEARCH(kiln_search_uint32, uint32)
KILN_SEARCH(kiln_search_int64, int64)
KILN_SEARCH(kiln_search_uint64, uint64)
KILN_SEARCH(kiln_search_float16, half)
KILN_SEARCH(kiln_search_float32, float)
KILN_SEARCH(kiln_search_float64, double)
KILN_SEARCH(kiln_search_complex64, complex64)
KILN_SEARCH(kiln_search_complex128, complex128)
)";
}

namespace {

enum Helper { kKeys1, kKeys2, kKeys4, kKeys8, kNanClasses4, kNanClasses8, kIota, kRowNumbers, kPositions, kNumHelpers };
std::atomic<CUfunction> helper_slots[kNumHelpers][kMaxDevices];
std::atomic<CUfunction> search_slots[kNumDTypes][kMaxDevices];

CUfunction helper(Helper h, int device) {
  static const char* const names[kNumHelpers] = {
      "kiln_sort_keys_1",        "kiln_sort_keys_2", "kiln_sort_keys_4",      "kiln_sort_keys_8",   "kiln_sort_nan_classes_4",
      "kiln_sort_nan_classes_8", "kiln_sort_iota",   "kiln_sort_row_numbers", "kiln_sort_positions"};
  check_device_index(device);
  return load_or_build(helper_slots[h][device], [&] { return load_kernel(device, sort_kernel_source(), names[h]); });
}

void launch(CUfunction fn, int device, int64_t n, void** args) {
  launch_grid_stride(fn, device, grid_stride_blocks(device, n, kThreads, kBlocksPerSM), kThreads, args);
}

// The radix sort's view of a dtype: its key type, bytes a key, and the
// floating-point width whose NaNs must be made one (0 for integers).
struct KeyLayout {
  RadixKey radix;
  int bytes;
  int nan_bits;
  int parts;  // 2 for complex: each part is its own key
};

KeyLayout key_layout(DType dt) {
  switch (dt) {
    case DType::Bool: case DType::UInt8: return {RadixKey::UInt8, 1, 0, 1};
    case DType::Int8: return {RadixKey::Int8, 1, 0, 1};
    case DType::UInt16: return {RadixKey::UInt16, 2, 0, 1};
    case DType::Int16: return {RadixKey::Int16, 2, 0, 1};
    case DType::Float16: return {RadixKey::Float16, 2, 16, 1};
    case DType::UInt32: return {RadixKey::UInt32, 4, 0, 1};
    case DType::Int32: return {RadixKey::Int32, 4, 0, 1};
    case DType::Float32: return {RadixKey::Float32, 4, 32, 1};
    case DType::UInt64: return {RadixKey::UInt64, 8, 0, 1};
    case DType::Int64: return {RadixKey::Int64, 8, 0, 1};
    case DType::Float64: return {RadixKey::Float64, 8, 64, 1};
    case DType::Complex64: return {RadixKey::Float32, 4, 32, 2};
    case DType::Complex128: return {RadixKey::Float64, 8, 64, 2};
  }
  return {};
}

// A pair of device buffers for a double-buffered sort.
struct DoubleBuffer {
  BufferPtr owned[2];
  char* data[2] = {};
  DoubleBuffer(size_t bytes, int device, char* first = nullptr) {
    for (int i = 0; i < 2; ++i) {
      if (i == 0 && first) {
        data[0] = first;
        continue;
      }
      owned[i] = allocate_device(bytes, Device::cuda(device));
      data[i] = static_cast<char*>(owned[i]->data());
    }
  }
};

// One stable radix sort of n keys (and positions) in the double buffers, on
// the current stream; returns which buffer holds the result.
int radix_sort(int device, RadixKey key, int end_bit, DoubleBuffer& keys, DoubleBuffer* positions, int64_t n) {
  ContextScope scope(device);
  void* stream = reinterpret_cast<void*>(current_stream_handle(device));
  RadixSortFn sort = radix_sort_function(key);
  long long* values[2] = {positions ? reinterpret_cast<long long*>(positions->data[0]) : nullptr,
                          positions ? reinterpret_cast<long long*>(positions->data[1]) : nullptr};
  size_t temp_bytes = 0;
  int selector = 0;
  check_cub(sort(nullptr, &temp_bytes, keys.data[0], keys.data[1], values[0], values[1], static_cast<int>(n), 0,
                 end_bit, &selector, stream),
            "cub::DeviceRadixSort (temporary storage)");
  BufferPtr temp = allocate_device(std::max<size_t>(temp_bytes, 1), Device::cuda(device));
  check_cub(sort(temp->data(), &temp_bytes, keys.data[0], keys.data[1], values[0], values[1], static_cast<int>(n), 0,
                 end_bit, &selector, stream),
            "cub::DeviceRadixSort");
  return selector;
}

// keys[i] = the sort key of element perm[i] (i without perm), part `part`.
void extract_keys(int device, const KeyLayout& k, const char* in, const int64_t* perm, char* out, int64_t n, int part) {
  const Helper h = k.bytes == 1 ? kKeys1 : k.bytes == 2 ? kKeys2 : k.bytes == 4 ? kKeys4 : kKeys8;
  long long count = n;
  int parts = k.parts, nan_bits = k.nan_bits;
  void* args[] = {&in, &perm, &out, &count, &parts, &part, &nan_bits};
  launch(helper(h, device), device, n, args);
}

void copy_device(int device, void* dst, const void* src, size_t bytes) {
  kernel_table(DeviceKind::CUDA).transfer(dst, Device::cuda(device), src, Device::cuda(device), bytes);
}

int bit_width(uint64_t v) {
  int bits = 0;
  while (v >> bits) ++bits;
  return bits;
}

void sort(const SortArgs& a, DType dt) {
  const int64_t total = a.rows * a.n;
  if (total > INT32_MAX)
    throw ValueError("kiln.sort on CUDA sorts at most 2**31 - 1 elements at once, got " + std::to_string(total));
  const int device = a.device;
  const KeyLayout k = key_layout(dt);
  const size_t key_bytes = static_cast<size_t>(total) * k.bytes;
  const int end_bit = 8 * k.bytes;

  // One row of real keys, sorted keys wanted alone: sort a canonical copy in place.
  if (!a.indices && a.rows == 1 && k.parts == 1) {
    DoubleBuffer keys(key_bytes, device, a.sorted);
    extract_keys(device, k, a.keys, nullptr, keys.data[0], total, 0);
    const int selector = radix_sort(device, k.radix, end_bit, keys, nullptr, total);
    if (selector == 1) copy_device(device, a.sorted, keys.data[1], key_bytes);
    return;
  }

  // Otherwise sort positions: perm[i] is the element that goes i-th.
  DoubleBuffer keys(key_bytes, device);
  DoubleBuffer perm(static_cast<size_t>(total) * 8, device);
  {
    int64_t* out = reinterpret_cast<int64_t*>(perm.data[0]);
    long long count = total;
    void* args[] = {&out, &count};
    launch(helper(kIota, device), device, total, args);
  }
  int current = 0;  // which perm buffer holds the positions so far
  auto sort_by = [&](RadixKey radix, int bits) {
    if (current == 1) {
      std::swap(perm.data[0], perm.data[1]);
      std::swap(perm.owned[0], perm.owned[1]);
    }
    current = radix_sort(device, radix, bits, keys, &perm, total);
  };
  // Least significant key first: each stable sort keeps the order of the one before.
  for (int part = k.parts - 1; part >= 0; --part) {
    extract_keys(device, k, a.keys, part == k.parts - 1 ? nullptr : reinterpret_cast<int64_t*>(perm.data[current]),
                 keys.data[0], total, part);
    sort_by(k.radix, end_bit);
  }
  if (k.parts == 2) {
    const char* in = a.keys;
    const int64_t* positions = reinterpret_cast<int64_t*>(perm.data[current]);
    char* classes = keys.data[0];
    long long count = total;
    int nan_bits = k.nan_bits;
    void* args[] = {&in, &positions, &classes, &count, &nan_bits};
    launch(helper(k.bytes == 4 ? kNanClasses4 : kNanClasses8, device), device, total, args);
    sort_by(RadixKey::UInt8, 2);
  }
  if (a.rows > 1) {
    DoubleBuffer rows(static_cast<size_t>(total) * 4, device);
    keys = std::move(rows);
    const int64_t* positions = reinterpret_cast<int64_t*>(perm.data[current]);
    unsigned* numbers = reinterpret_cast<unsigned*>(keys.data[0]);
    long long count = total, row_length = a.n;
    void* args[] = {&positions, &numbers, &count, &row_length};
    launch(helper(kRowNumbers, device), device, total, args);
    sort_by(RadixKey::UInt32, bit_width(static_cast<uint64_t>(a.rows - 1)));
  }
  const int64_t* final_perm = reinterpret_cast<int64_t*>(perm.data[current]);
  if (a.sorted) {
    GatherArgs g;
    g.device = device;
    g.src = a.keys;
    g.dst = a.sorted;
    g.indices = final_perm;
    g.count = g.axis_length = total;
    g.outer = g.inner = 1;
    g.itemsize = static_cast<int64_t>(itemsize(dt));
    kernel_table(DeviceKind::CUDA).gather(g);
  }
  if (a.indices) {
    int64_t* out = a.indices;
    long long count = total, row_length = a.n;
    void* args[] = {&final_perm, &out, &count, &row_length};
    launch(helper(kPositions, device), device, total, args);
  }
}

template <int D>
void sort_entry(const SortArgs& a) {
  sort(a, static_cast<DType>(D));
}

template <int D>
void search_entry(const SearchArgs& a) {
  const DType dt = static_cast<DType>(D);
  check_device_index(a.device);
  CUfunction fn = load_or_build(search_slots[D][a.device], [&] {
    return load_kernel(a.device, sort_kernel_source(), "kiln_search_" + std::string(name(dt)));
  });
  const char* sorted = a.sorted;
  const char* values = a.values;
  long long n = a.n, count = a.count;
  int64_t* out = a.out;
  int right = a.right;
  void* args[] = {&sorted, &n, &values, &count, &out, &right};
  launch(fn, a.device, a.count, args);
}

template <int... D>
void register_all(KernelTable& t, std::integer_sequence<int, D...>) {
  ((t.sort[D] = &sort_entry<D>), ...);
  ((t.search[D] = &search_entry<D>), ...);
}

}  // namespace

void register_sort_kernels(KernelTable& table) { register_all(table, std::make_integer_sequence<int, kNumDTypes>{}); }

}  // namespace kiln::cuda
