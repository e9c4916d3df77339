#include "cufft.hpp"

#include <string>

#include "kiln/error.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

const LoadedApi<Cufft>& load() {
  static const LoadedApi<Cufft> loaded = load_api<Cufft>(
      "cuFFT", "cuFFT (libcufft.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME",
      [] { return open_toolkit_library({"libcufft.so.12", "libcufft.so.11", "libcufft.so"}); },
      [](void* lib, Cufft& api) -> const char* {
        KILN_CUFFT_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
        return nullptr;
      });
  return loaded;
}

}  // namespace

const Cufft& cufft() { return api_or_throw(load()); }

void check(cufftResult result, const char* what) {
  if (result != CUFFT_SUCCESS)
    throw CudaError(std::string(what) + " failed with cufftResult " + std::to_string(static_cast<int>(result)));
}

}  // namespace kiln::cuda
