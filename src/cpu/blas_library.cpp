#include "blas_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "kiln/config.hpp"
#include "library_search.hpp"

namespace kiln::cpu {
namespace {

std::mutex candidates_mutex;
std::vector<std::string>& added_candidates() {
  static std::vector<std::string> paths;
  return paths;
}

struct Spelling {
  const char* prefix;
  const char* suffix;
  bool ilp64;
};
constexpr Spelling kSpellings[] = {{"scipy_", "_64_", true}, {"", "_64_", true}, {"", "64_", true}, {"", "_", false}};

const char* const kNames[kNumRoutines][4] = {
    {"sgemm", "dgemm", "cgemm", "zgemm"},     {"sgetrf", "dgetrf", "cgetrf", "zgetrf"},
    {"sgetrs", "dgetrs", "cgetrs", "zgetrs"}, {"spotrf", "dpotrf", "cpotrf", "zpotrf"},
    {"sgeqrf", "dgeqrf", "cgeqrf", "zgeqrf"}, {"sorgqr", "dorgqr", "cungqr", "zungqr"},
    {"ssyevd", "dsyevd", "cheevd", "zheevd"}, {"sgesdd", "dgesdd", "cgesdd", "zgesdd"},
    {"sgeev", "dgeev", "cgeev", "zgeev"}};

// Every routine under the library's spelling, or false.
bool resolve(void* lib, BlasLibrary& out) {
  for (const Spelling& s : kSpellings) {
    if (!dlsym(lib, (std::string(s.prefix) + "dgemm" + s.suffix).c_str())) continue;
    for (int r = 0; r < kNumRoutines; ++r)
      for (int t = 0; t < 4; ++t)
        if (!(out.fn[r][t] = dlsym(lib, (std::string(s.prefix) + kNames[r][t] + s.suffix).c_str()))) return false;
    out.ilp64 = s.ilp64;
    out.set_threads_here = reinterpret_cast<int (*)(int)>(dlsym(lib, "openblas_set_num_threads_local"));
    return true;
  }
  return false;
}

}  // namespace

SmallCallsOnThisThread::SmallCallsOnThisThread(bool small) {
  if (small && blas_library().set_threads_here) saved_ = blas_library().set_threads_here(1);
}

SmallCallsOnThisThread::~SmallCallsOnThisThread() {
  if (saved_ > 0) blas_library().set_threads_here(saved_);
}

const BlasLibrary& blas_library() {
  static const BlasLibrary* loaded = [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("KILN_BLAS_LIBRARY")) candidates.push_back(env);
    {
      std::lock_guard<std::mutex> lock(candidates_mutex);
      candidates.insert(candidates.end(), added_candidates().begin(), added_candidates().end());
    }
    for (const char* name : {"libscipy_openblas64_.so", "libopenblas64_.so.0", "libopenblas.so.0", "liblapack.so.3"})
      candidates.push_back(name);
    return open_first<BlasLibrary>(
        candidates, resolve, "lacks BLAS/LAPACK routines kiln needs",
        "kiln found no BLAS/LAPACK for the CPU; install OpenBLAS (e.g. the scipy-openblas64 wheel or the "
        "libopenblas0 package) or set KILN_BLAS_LIBRARY to its path.");
  }();
  return *loaded;
}

}  // namespace kiln::cpu

namespace kiln {

void add_blas_library_candidate(const std::string& path) {
  std::lock_guard<std::mutex> lock(cpu::candidates_mutex);
  cpu::added_candidates().push_back(path);
}

std::string blas_library_path() {
  try {
    return cpu::blas_library().path;
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace kiln
