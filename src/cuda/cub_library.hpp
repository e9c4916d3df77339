#pragma once
// kiln's nvcc-compiled part, libkiln_cub.so (src/cuda/cub/), loaded with
// dlopen on first use. Looked for at $KILN_CUB_LIBRARY, then beside the
// binary that holds kiln (the Python package's directory), then in the build
// tree kiln was built in.
#include <cstddef>
#include <cstdint>

namespace kiln::cuda {

// The key types the library's radix sort is instantiated for.
enum class RadixKey : uint8_t { UInt8, Int8, UInt16, Int16, Float16, UInt32, Int32, Float32, UInt64, Int64, Float64 };
inline constexpr int kNumRadixKeys = 11;

// See src/cuda/cub/radix_sort.cuh.
using RadixSortFn = int (*)(void* temp, size_t* temp_bytes, void* keys, void* keys_alt, long long* values,
                            long long* values_alt, int n, int begin_bit, int end_bit, int* selector, void* stream);

// See src/cuda/cub/select_flagged.cu.
using CountFlagsFn = int (*)(void* temp, size_t* temp_bytes, const unsigned char* flags, long long* count,
                             long long n, void* stream);
using FlaggedPositionsFn = int (*)(void* temp, size_t* temp_bytes, const unsigned char* flags, long long* out,
                                   long long* count, long long n, void* stream);
using FlaggedValuesFn = int (*)(void* temp, size_t* temp_bytes, const void* values, int itemsize,
                                const unsigned char* flags, void* out, long long* count, long long n, void* stream);

// The entry points; CudaError saying where it looked when the library is missing.
RadixSortFn radix_sort_function(RadixKey key);
CountFlagsFn count_flags_function();
FlaggedPositionsFn flagged_positions_function();
FlaggedValuesFn flagged_values_function();
// CudaError naming `what` and the CUDA error, unless status is 0.
void check_cub(int status, const char* what);

}  // namespace kiln::cuda
