#pragma once
// CCCL (CUB, libcu++) headers for NVRTC: device-wide algorithms are built from
// CUB's block primitives in generated kernels, so its headers are needed at
// run time, not only at build time.
#include <string>
#include <vector>

namespace kiln::cuda {

// The directory that holds cub/ and cuda/std/; CudaError naming the places
// searched when none has them. Searched: $KILN_CCCL_DIR; $CUDA_HOME and
// $CUDA_PATH; beside `nvrtc_library` (the toolkit's, or NVIDIA's wheels'
// nvidia/cu13); the toolkit kiln was built with; /usr/local/cuda.
const std::string& cccl_include_dir(const std::string& nvrtc_library);
// The CUDA toolkit's include directory (curand_kernel.h, cuda_fp16.h...) and
// CCCL's, where found (possibly neither), for users' CUDA C: CuPy's
// RawKernel code may include the toolkit's headers, so kiln's may too.
const std::vector<std::string>& toolkit_include_dirs(const std::string& nvrtc_library);
// CUB's version line, part of the key of every cached kernel that uses it.
const std::string& cccl_version(const std::string& nvrtc_library);

}  // namespace kiln::cuda
