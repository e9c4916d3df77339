#include "cufft.hpp"

#include <dlfcn.h>

#include <string>

#include "kiln/error.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

struct Loaded {
  Cufft api;
  std::string error;
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    void* lib = open_toolkit_library({"libcufft.so.12", "libcufft.so.11", "libcufft.so"});
    if (!lib) {
      l.error = "cuFFT (libcufft.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME";
      return l;
    }
#define KILN_CUFFT_RESOLVE(name)                                        \
  l.api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name)); \
  if (!l.api.name) {                                                    \
    l.error = "cuFFT is too old: it lacks " #name;                      \
    return l;                                                           \
  }
    KILN_CUFFT_FUNCTIONS(KILN_CUFFT_RESOLVE)
#undef KILN_CUFFT_RESOLVE
    return l;
  }();
  return loaded;
}

}  // namespace

const Cufft& cufft() {
  const Loaded& l = load();
  if (!l.error.empty()) throw CudaError(l.error);
  return l.api;
}

void check(cufftResult result, const char* what) {
  if (result != CUFFT_SUCCESS)
    throw CudaError(std::string(what) + " failed with cufftResult " + std::to_string(static_cast<int>(result)));
}

}  // namespace kiln::cuda
