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
//     memory) = their number.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

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
