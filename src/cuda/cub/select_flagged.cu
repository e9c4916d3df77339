// Mask compaction with CUB's device-wide primitives (see radix_sort.cuh for
// why this part is compiled by nvcc). Two C entry points, each a cudaError_t,
// each writing only the temporary bytes it needs when `temp` is null:
//
//   int kiln_cub_count_flags(void* temp, size_t* temp_bytes,
//       const unsigned char* flags, long long* count, long long n, void* stream)
//     *count (device memory) = how many of the n flags are nonzero;
//
//   int kiln_cub_flagged_positions(void* temp, size_t* temp_bytes,
//       const unsigned char* flags, long long* out, long long* count,
//       long long n, void* stream)
//     out = the positions of the nonzero flags in order, one pass of
//     cub::DeviceSelect::Flagged over a counting sequence; *count (device
//     memory) = their number;
//
//   int kiln_cub_flagged_values(void* temp, size_t* temp_bytes,
//       const void* values, int itemsize, const unsigned char* flags,
//       void* out, long long* count, long long n, void* stream)
//     the same with the flagged elements of `values` (itemsize 1, 2, 4, 8
//     or 16 bytes, copied as one value) in place of their positions.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

template <int bytes> struct alignas(bytes) Element {
  unsigned char b[bytes];
};

template <int bytes>
cudaError_t flagged(void* temp, size_t* temp_bytes, const void* values, const unsigned char* flags, void* out,
                    long long* count, long long n, cudaStream_t stream) {
  return cub::DeviceSelect::Flagged(temp, *temp_bytes, static_cast<const Element<bytes>*>(values), flags,
                                    static_cast<Element<bytes>*>(out), count, n, stream);
}

struct FlagValue {
  __host__ __device__ long long operator()(unsigned char flag) const { return flag != 0; }
};

}  // namespace

extern "C" __attribute__((visibility("default"))) int kiln_cub_count_flags(void* temp, size_t* temp_bytes,
                                                                           const unsigned char* flags,
                                                                           long long* count, long long n,
                                                                           void* stream) {
  const thrust::transform_iterator<FlagValue, const unsigned char*> values(flags, FlagValue{});
  return static_cast<int>(
      cub::DeviceReduce::Sum(temp, *temp_bytes, values, count, n, static_cast<cudaStream_t>(stream)));
}

extern "C" __attribute__((visibility("default"))) int kiln_cub_flagged_positions(void* temp, size_t* temp_bytes,
                                                                                 const unsigned char* flags,
                                                                                 long long* out, long long* count,
                                                                                 long long n, void* stream) {
  const thrust::counting_iterator<long long> positions(0);
  return static_cast<int>(cub::DeviceSelect::Flagged(temp, *temp_bytes, positions, flags, out, count, n,
                                                     static_cast<cudaStream_t>(stream)));
}

extern "C" __attribute__((visibility("default"))) int kiln_cub_flagged_values(void* temp, size_t* temp_bytes,
                                                                              const void* values, int itemsize,
                                                                              const unsigned char* flags, void* out,
                                                                              long long* count, long long n,
                                                                              void* stream) {
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (itemsize) {
    case 1: return static_cast<int>(flagged<1>(temp, temp_bytes, values, flags, out, count, n, s));
    case 2: return static_cast<int>(flagged<2>(temp, temp_bytes, values, flags, out, count, n, s));
    case 4: return static_cast<int>(flagged<4>(temp, temp_bytes, values, flags, out, count, n, s));
    case 8: return static_cast<int>(flagged<8>(temp, temp_bytes, values, flags, out, count, n, s));
    case 16: return static_cast<int>(flagged<16>(temp, temp_bytes, values, flags, out, count, n, s));
  }
  return static_cast<int>(cudaErrorInvalidValue);
}
