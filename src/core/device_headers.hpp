#pragma once
// The texts of the include/kiln/device headers that kernels include,
// embedded at build time (CMake's kiln_embed_headers) so that NVRTC and the
// host compiler can include them wherever kiln is installed.
#include <string>
#include <utility>
#include <vector>

namespace kiln::detail {

// (include name "kiln/device/ops.cuh", text) pairs.
const std::vector<std::pair<std::string, std::string>>& device_headers();

}  // namespace kiln::detail
