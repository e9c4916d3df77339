#pragma once
// The one part of kiln compiled by nvcc: CUB's device-wide radix sort, whose
// host-side dispatch (temporary storage, pass planning, kernel choice per
// architecture) cannot run through NVRTC. Built as its own library and
// loaded with dlopen by src/cuda/cub_library.cpp, so libkiln still never
// links the CUDA runtime or driver. One C entry point per key type:
//
//   int kiln_cub_radix_sort_<key>(void* temp, size_t* temp_bytes,
//       void* keys, void* keys_alt, long long* values, long long* values_alt,
//       int n, int begin_bit, int end_bit, int* selector, void* stream)
//
// sorts n keys (with int64 values when `values` is not null) stably in the
// double buffers, as cub::DeviceRadixSort does: with temp null it only writes
// the temporary bytes needed; otherwise the result lies in the buffer that
// *selector names (0: keys/values, 1: keys_alt/values_alt). Returns a
// cudaError_t.
#include <cuda_fp16.h>

#include <cub/device/device_radix_sort.cuh>

namespace kiln::cub_part {

template <class Key>
int radix_sort(void* temp, size_t* temp_bytes, void* keys, void* keys_alt, long long* values, long long* values_alt,
               int n, int begin_bit, int end_bit, int* selector, void* stream) {
  cub::DoubleBuffer<Key> k(static_cast<Key*>(keys), static_cast<Key*>(keys_alt));
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  cudaError_t status;
  if (values) {
    cub::DoubleBuffer<long long> v(values, values_alt);
    status = cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, k, v, n, begin_bit, end_bit, s);
  } else {
    status = cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, k, n, begin_bit, end_bit, s);
  }
  *selector = k.selector;
  return static_cast<int>(status);
}

}  // namespace kiln::cub_part

#define KILN_CUB_RADIX_SORT(suffix, Key)                                                                  \
  extern "C" __attribute__((visibility("default"))) int kiln_cub_radix_sort_##suffix(                    \
      void* temp, size_t* temp_bytes, void* keys, void* keys_alt, long long* values, long long* values_alt, \
      int n, int begin_bit, int end_bit, int* selector, void* stream) {                                   \
    return kiln::cub_part::radix_sort<Key>(temp, temp_bytes, keys, keys_alt, values, values_alt, n, begin_bit, \
                                           end_bit, selector, stream);                                    \
  }
