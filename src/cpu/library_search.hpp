#pragma once
// The first of several shared libraries that opens and has what kiln needs,
// for the CPU libraries kiln loads with dlopen (BLAS/LAPACK, FFT).
#include <dlfcn.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::cpu {

// Api has a `path` member; resolve(void* handle, Api&) says whether the
// library has everything. std::runtime_error(`missing` + the candidates
// tried and why) when none does.
template <class Api, class Resolve>
const Api* open_first(const std::vector<std::string>& candidates, Resolve resolve, const std::string& lacks,
                      const std::string& missing) {
  std::string tried;
  for (const std::string& path : candidates) {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      tried += "\n  " + path + ": not found";
      continue;
    }
    auto api = std::make_unique<Api>();
    if (resolve(lib, *api)) {
      api->path = path;
      return api.release();
    }
    tried += "\n  " + path + ": " + lacks;
  }
  throw std::runtime_error(missing + " Tried:" + tried);
}

}  // namespace kiln::cpu
