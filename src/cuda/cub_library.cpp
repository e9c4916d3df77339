#include "cub_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "../core/own_directory.hpp"
#include "kiln/error.hpp"

namespace kiln::cuda {
namespace {

constexpr const char* kLibraryName = "libkiln_cub.so";

struct Loaded {
  RadixSortFn sort[kNumRadixKeys] = {};
  CountFlagsFn count_flags = nullptr;
  FlaggedPositionsFn flagged_positions = nullptr;
  FlaggedValuesFn flagged_values = nullptr;
  const char* (*error_string)(int) = nullptr;
  std::string error;  // empty when loaded
};

const Loaded& load() {
  static const Loaded loaded = [] {
    Loaded l;
    std::string candidates[3];
    if (const char* env = std::getenv("KILN_CUB_LIBRARY")) candidates[0] = env;
    candidates[1] = detail::own_directory() + "/" + kLibraryName;
#ifdef KILN_CUB_BUILD_PATH
    candidates[2] = KILN_CUB_BUILD_PATH;
#endif
    void* lib = nullptr;
    std::string tried;
    for (const std::string& path : candidates) {
      if (path.empty()) continue;
      if ((lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
      tried += "\n  " + path + ": " + dlerror();
    }
    if (!lib) {
      l.error = std::string("kiln's CUB part (") + kLibraryName +
                ") could not be loaded; it is built when CMake finds nvcc. Tried:" + tried;
      return l;
    }
    static const char* const names[kNumRadixKeys] = {
        "kiln_cub_radix_sort_uint8",  "kiln_cub_radix_sort_int8",    "kiln_cub_radix_sort_uint16",
        "kiln_cub_radix_sort_int16",  "kiln_cub_radix_sort_float16", "kiln_cub_radix_sort_uint32",
        "kiln_cub_radix_sort_int32",  "kiln_cub_radix_sort_float32", "kiln_cub_radix_sort_uint64",
        "kiln_cub_radix_sort_int64",  "kiln_cub_radix_sort_float64"};
    auto find = [&](const char* name) {
      void* symbol = dlsym(lib, name);
      if (!symbol && l.error.empty())
        l.error = std::string(kLibraryName) + " lacks " + name + ": it was built from other sources than kiln";
      return symbol;
    };
    for (int k = 0; k < kNumRadixKeys; ++k) l.sort[k] = reinterpret_cast<RadixSortFn>(find(names[k]));
    l.count_flags = reinterpret_cast<CountFlagsFn>(find("kiln_cub_count_flags"));
    l.flagged_positions = reinterpret_cast<FlaggedPositionsFn>(find("kiln_cub_flagged_positions"));
    l.flagged_values = reinterpret_cast<FlaggedValuesFn>(find("kiln_cub_flagged_values"));
    l.error_string = reinterpret_cast<const char* (*)(int)>(find("kiln_cub_error_string"));
    return l;
  }();
  return loaded;
}

const Loaded& loaded_or_throw() {
  const Loaded& l = load();
  if (!l.error.empty()) throw CudaError(l.error);
  return l;
}

}  // namespace

RadixSortFn radix_sort_function(RadixKey key) { return loaded_or_throw().sort[static_cast<int>(key)]; }
CountFlagsFn count_flags_function() { return loaded_or_throw().count_flags; }
FlaggedPositionsFn flagged_positions_function() { return loaded_or_throw().flagged_positions; }
FlaggedValuesFn flagged_values_function() { return loaded_or_throw().flagged_values; }

void check_cub(int status, const char* what) {
  if (status != 0) throw CudaError(std::string(what) + ": " + load().error_string(status));
}

}  // namespace kiln::cuda
