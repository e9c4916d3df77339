#include "own_directory.hpp"

#include <dlfcn.h>

namespace kiln::detail {

std::string own_directory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&own_directory), &info) || !info.dli_fname) return {};
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace kiln::detail
