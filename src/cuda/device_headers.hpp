#pragma once
// The texts of include/kiln/device/*.cuh, embedded at build time so that
// NVRTC can include them wherever kiln is installed.
#include <string>
#include <utility>
#include <vector>

namespace kiln::cuda {

const std::vector<std::pair<std::string, std::string>>& device_headers();

}  // namespace kiln::cuda
