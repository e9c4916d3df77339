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
// Headers by other libraries' names ("pycuda-complex.hpp"), built on the above.
const std::vector<std::pair<std::string, std::string>>& face_headers();

// Both lists: what a kernel's source may include from kiln.
inline std::vector<std::pair<std::string, std::string>> kernel_headers() {
  std::vector<std::pair<std::string, std::string>> all = device_headers();
  all.insert(all.end(), face_headers().begin(), face_headers().end());
  return all;
}

}  // namespace kiln::detail
