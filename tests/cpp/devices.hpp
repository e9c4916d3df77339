#pragma once
// The devices a C++ test runs on: the CPU and every GPU present.
#include <vector>

#include "kiln/device.hpp"
#ifdef KILN_WITH_CUDA
#include "kiln/cuda.hpp"
#endif

inline std::vector<kiln::Device> test_devices() {
  std::vector<kiln::Device> all = {kiln::Device::cpu()};
#ifdef KILN_WITH_CUDA
  for (int i = 0; i < kiln::cuda::device_count(); ++i) all.push_back(kiln::Device::cuda(i));
#endif
  return all;
}
