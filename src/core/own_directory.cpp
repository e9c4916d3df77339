#include "own_directory.hpp"

#include <dlfcn.h>
#include <unistd.h>

namespace kiln::detail {

std::string own_directory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&own_directory), &info) || !info.dli_fname) return {};
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string companion_file(const std::string& name, const char* build_path) {
  const std::string installed = own_directory() + "/" + name;
  if (access(installed.c_str(), R_OK) == 0) return installed;
  if (build_path && access(build_path, R_OK) == 0) return build_path;
  return {};
}

}  // namespace kiln::detail
