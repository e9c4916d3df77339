#include "cccl.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "kiln/error.hpp"

namespace kiln::cuda {
namespace {

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

bool has_cub(const std::string& dir) { return exists(dir + "/cub/version.cuh"); }

std::string parent(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// Where a CUDA toolkit (or NVIDIA's wheels) may be, most specific first.
std::vector<std::string> toolkit_roots(const std::string& nvrtc_library) {
  std::vector<std::string> roots;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(env)) roots.push_back(v);
  // <root>/lib64/libnvrtc.so or <site-packages>/nvidia/cu13/lib/libnvrtc.so.13.
  if (!nvrtc_library.empty()) roots.push_back(parent(parent(nvrtc_library)));
#ifdef KILN_CUDA_INCLUDE_DIR
  roots.push_back(parent(KILN_CUDA_INCLUDE_DIR));
#endif
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::vector<std::string> candidates(const std::string& nvrtc_library) {
  std::vector<std::string> dirs;
  if (const char* v = std::getenv("KILN_CCCL_DIR")) dirs.push_back(v);
  for (const std::string& root : toolkit_roots(nvrtc_library)) {
    dirs.push_back(root + "/include/cccl");
    dirs.push_back(root + "/include");
  }
  return dirs;
}

// The first candidate that holds CUB, or "" (searched once).
const std::string& found_cccl(const std::string& nvrtc_library) {
  static const std::string found = [&] {
    for (const std::string& dir : candidates(nvrtc_library))
      if (has_cub(dir)) return dir;
    return std::string();
  }();
  return found;
}

}  // namespace

const std::string& cccl_include_dir(const std::string& nvrtc_library) {
  const std::string& found = found_cccl(nvrtc_library);
  if (found.empty()) {
    std::string searched;
    for (const std::string& dir : candidates(nvrtc_library)) searched += "\n  " + dir;
    throw CudaError("this operation is built on CUB, whose headers (CCCL) were not found; install the CUDA toolkit "
                    "or the nvidia-cuda-cccl wheel, or set KILN_CCCL_DIR. Searched:" + searched);
  }
  return found;
}

const std::vector<std::string>& toolkit_include_dirs(const std::string& nvrtc_library) {
  static const std::vector<std::string> found = [&] {
    std::vector<std::string> dirs;
    for (const std::string& root : toolkit_roots(nvrtc_library))
      if (exists(root + "/include/cuda.h")) {
        dirs.push_back(root + "/include");
        break;
      }
    const std::string& cccl = found_cccl(nvrtc_library);
    if (!cccl.empty() && (dirs.empty() || dirs[0] != cccl)) dirs.push_back(cccl);
    return dirs;
  }();
  return found;
}

const std::string& cccl_version(const std::string& nvrtc_library) {
  static const std::string version = [&] {
    std::ifstream in(cccl_include_dir(nvrtc_library) + "/cub/version.cuh");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("#define CUB_VERSION ", 0) == 0) return line;
    return std::string("unknown");
  }();
  return version;
}

}  // namespace kiln::cuda
