#include "toolkit_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace kiln::cuda {

void* open_toolkit_library(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
  std::vector<std::string> dirs;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(env)) {
      dirs.push_back(std::string(v) + "/lib64/");
      dirs.push_back(std::string(v) + "/lib/");  // where CUDA 13's toolkit puts NCCL
    }
  dirs.push_back("/usr/local/cuda/lib64/");
  dirs.push_back("/usr/local/cuda/lib/");
  for (const std::string& dir : dirs)
    for (const char* name : names)
      if (void* lib = dlopen((dir + name).c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  return nullptr;
}

}  // namespace kiln::cuda
