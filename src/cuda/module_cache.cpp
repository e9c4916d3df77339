#include "module_cache.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <iterator>
#include <sstream>
#include <vector>

#include "../core/disk_cache.hpp"
#include "../core/sha256.hpp"
#include "cccl.hpp"
#include "context.hpp"
#include "../core/device_headers.hpp"
#include "kernel_resources.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "nvrtc.hpp"

namespace kiln::cuda {

// include/kiln/device/nvrtc_libc, embedded by CMake (kiln_embed_headers).
const std::vector<std::pair<std::string, std::string>>& nvrtc_libc_headers();

std::string cache_directory() { return detail::cache_directory(); }

namespace {

using detail::read_file;

const std::vector<std::string> kOptions = {"--std=c++17", "-DKILN_DEVICE_CODE=1"};

// What decides which NVRTC the dynamic loader would pick, and the file it
// picked: while these are unchanged, so is the compiler.
std::string loader_fingerprint(const std::string& library) {
  std::string f;
  for (const char* env : {"LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH"}) {
    const char* v = std::getenv(env);
    f += std::string(env) + "=" + (v ? v : "") + "\n";
  }
  for (const std::string& path : {std::string("/etc/ld.so.cache"), library}) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return {};
    f += path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_ino) + " " +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "\n";
  }
  return f;
}

struct CompilerIdentity {
  std::string library;  // the NVRTC file
  std::string version;  // "13.0"
};

// The NVRTC a cache miss would load, known without loading it: loading takes
// milliseconds, more than the first op of a process with a warm cache may.
// The last process that loaded it left its answer in the cache directory,
// with the loader's fingerprint; the answer holds while that is unchanged.
const CompilerIdentity& compiler_identity() {
  static const CompilerIdentity id = [] {
    const std::string record = cache_directory() + "/nvrtc-identity";
    std::istringstream saved(read_file(record));
    CompilerIdentity known;
    std::getline(saved, known.library);
    std::getline(saved, known.version);
    std::string fingerprint((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
    if (!known.library.empty() && !fingerprint.empty() && fingerprint == loader_fingerprint(known.library))
      return known;
    auto [major, minor] = nvrtc_version();
    CompilerIdentity loaded{nvrtc_library_path(), std::to_string(major) + "." + std::to_string(minor)};
    fingerprint = loader_fingerprint(loaded.library);
    const std::string dir = detail::ensure_cache_directory();
    if (!fingerprint.empty() && !dir.empty())
      detail::write_atomically(dir, record, loaded.library + "\n" + loaded.version + "\n" + fingerprint);
    return loaded;
  }();
  return id;
}

// What NVRTC can include: kiln's device headers and the C library stand-ins
// (include/kiln/device/nvrtc_libc, embedded by CMake).
const std::vector<std::pair<std::string, std::string>>& nvrtc_headers() {
  static const std::vector<std::pair<std::string, std::string>> all = [] {
    std::vector<std::pair<std::string, std::string>> headers = detail::kernel_headers();
    const auto& libc = nvrtc_libc_headers();
    headers.insert(headers.end(), libc.begin(), libc.end());
    return headers;
  }();
  return all;
}

// Everything besides the source that changes what NVRTC produces.
const std::string& build_identity() {
  static const std::string id = [] {
    detail::Sha256 h;
    h.update(detail::kKilnVersion);
    h.update("nvrtc " + compiler_identity().version);
    for (const std::string& o : kOptions) h.update(o + "\n");
    for (const auto& [name, text] : nvrtc_headers()) h.update(name + "\n" + text);
    return h.hex_digest();
  }();
  return id;
}

int device_arch(int device) {
  return cached_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
         cached_attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
}

}  // namespace

namespace {

// The CUBIN (and the lowered names of `name_expressions`) for `source`, from
// the disk cache or NVRTC. Cached payload: the count of names, the names a
// line each, then the CUBIN.
std::string cached_compile(const std::string& source, const std::string& program_name, int arch, Includes includes,
                           const std::vector<std::string>& user_options,
                           const std::vector<std::string>& name_expressions, std::vector<std::string>* lowered) {
  detail::Sha256 h;
  h.update(build_identity()).update("sm_" + std::to_string(arch) + "\n");
  std::vector<std::string> options = kOptions;
  if (includes == Includes::KilnAndCccl) {
    options.push_back("-I" + cccl_include_dir(compiler_identity().library));
    h.update(cccl_version(compiler_identity().library) + "\n");
  }
  if (includes == Includes::KilnAndToolkit)
    for (const std::string& dir : toolkit_include_dirs(compiler_identity().library)) {
      options.push_back("-I" + dir);
      h.update("include " + dir + "\n");
    }
  for (const std::string& o : user_options) {
    options.push_back(o);
    h.update("option " + o + "\n");
  }
  for (const std::string& e : name_expressions) h.update("name " + e + "\n");
  const std::string path = cache_directory() + "/" + h.update(source).hex_digest() + ".cubin";
  if (std::string payload = detail::load_checked(path); !payload.empty()) {
    // Parsed with plain string operations: the header is ours and small.
    size_t at = payload.find('\n');
    std::vector<std::string> names;
    bool ok = at != std::string::npos && at > 0 &&
              payload.find_first_not_of("0123456789") == at &&
              std::stoul(payload.substr(0, at)) == name_expressions.size();
    for (size_t i = 0; ok && i < name_expressions.size(); ++i) {
      size_t end = payload.find('\n', at + 1);
      ok = end != std::string::npos;
      if (ok) names.push_back(payload.substr(at + 1, end - at - 1));
      at = end;
    }
    if (ok) {
      if (lowered) *lowered = names;
      return payload.substr(at + 1);
    }
  }
  std::vector<std::string> names;
  std::string cubin = compile_cubin(source, program_name, arch, options, nvrtc_headers(), name_expressions, &names);
  std::string stored = std::to_string(names.size()) + "\n";
  for (const std::string& n : names) stored += n + "\n";
  detail::store_checked(path, stored + cubin);
  if (lowered) *lowered = names;
  return cubin;
}

CUmodule load_module(int device, const std::string& cubin) {
  ContextScope scope(device);
  CUmodule module;
  // Modules stay loaded for the life of the process: their functions are cached.
  check(driver().cuModuleLoadData(&module, cubin.data()), "cuModuleLoadData");
  return module;
}

}  // namespace

namespace {

// kiln's NVRTC options, the toolkit's include directories, then `user_options`.
std::vector<std::string> program_options(const std::vector<std::string>& user_options) {
  std::vector<std::string> options = kOptions;
  for (const std::string& dir : toolkit_include_dirs(compiler_identity().library)) options.push_back("-I" + dir);
  options.insert(options.end(), user_options.begin(), user_options.end());
  return options;
}

}  // namespace

std::string ptx(const std::string& source, int arch, const std::vector<std::string>& user_options) {
  return compile_ptx(source, "kernel.cu", arch, program_options(user_options), nvrtc_headers());
}

KernelResources kernel_resources(const std::string& source, int arch, const std::vector<std::string>& user_options,
                                 const std::string& kernel) {
  std::vector<std::string> options = program_options(user_options);
  options.push_back("-Xptxas=-v");
  std::vector<std::string> lowered;
  std::string report;
  const std::string cubin = compile_cubin(source, "kernel.cu", arch, options, nvrtc_headers(), {kernel}, &lowered, &report);
  KernelResources r = ptxas_resources(report, lowered.at(0));
  // User __constant__ data is constant bank 3 (bank 0 holds the parameters).
  r.const_bytes = static_cast<int64_t>(elf_section_size(cubin, ".nv.constant3"));
  return r;
}

std::string cubin_for(const std::string& source, const std::string& program_name, int arch, Includes includes) {
  return cached_compile(source, program_name, arch, includes, {}, {}, nullptr);
}

CUmodule load_program(int device, const std::string& source, const std::vector<std::string>& options,
                      const std::vector<std::string>& name_expressions, std::vector<std::string>* lowered_names) {
  return load_module(device, cached_compile(source, "kernel.cu", device_arch(device), Includes::KilnAndToolkit, options,
                                            name_expressions, lowered_names));
}

CUfunction load_kernel(int device, const std::string& source, const std::string& kernel_name, Includes includes) {
  CUmodule module = load_module(device, cubin_for(source, kernel_name + ".cu", device_arch(device), includes));
  ContextScope scope(device);
  CUfunction fn;
  check(driver().cuModuleGetFunction(&fn, module, kernel_name.c_str()), "cuModuleGetFunction");
  name_function(fn, kernel_name);
  return fn;
}

}  // namespace kiln::cuda
