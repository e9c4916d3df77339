#include "nvrtc.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <cstring>

#include "../core/compile_failure.hpp"
#include "kiln/error.hpp"
#include "loaded_api.hpp"
#include "toolkit_library.hpp"

namespace kiln::cuda {
namespace {

#define KILN_NVRTC_FUNCTIONS(X)                                                             \
  X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcCompileProgram)       \
  X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN)     \
  X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcDestroyProgram) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName)

struct Nvrtc {
#define KILN_NVRTC_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_NVRTC_FUNCTIONS(KILN_NVRTC_MEMBER)
#undef KILN_NVRTC_MEMBER
};

const Nvrtc& nvrtc() {
  static const LoadedApi<Nvrtc> loaded = load_api<Nvrtc>(
      "NVRTC", "NVRTC (libnvrtc.so) could not be loaded: install the CUDA toolkit or set CUDA_HOME",
      [] { return open_toolkit_library({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}); },
      [](void* lib, Nvrtc& api) -> const char* {
        KILN_NVRTC_FUNCTIONS(KILN_RESOLVE_OR_RETURN)
        return nullptr;
      });
  return api_or_throw(loaded);
}

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw CudaError(std::string(what) + ": " + nvrtc().nvrtcGetErrorString(r));
}

// NVRTC names positions as "<program>(<line>): error ...".
int first_error_line(const std::string& log, const std::string& program) {
  size_t at = log.find(program + "(");
  return at == std::string::npos ? 0 : std::atoi(log.c_str() + at + program.size() + 1);
}

}  // namespace

std::pair<int, int> nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtc().nvrtcVersion(&major, &minor), "nvrtcVersion");
  return {major, minor};
}

std::string nvrtc_library_path() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(nvrtc().nvrtcVersion), &info) == 0 || !info.dli_fname) return {};
  return info.dli_fname;
}

namespace {

std::string program_log(const Nvrtc& api, nvrtcProgram program) {
  size_t size = 0;
  api.nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  api.nvrtcGetProgramLog(program, log.data());
  log.resize(std::strlen(log.c_str()));  // the size counted the terminating NUL
  return log;
}

// Compiles `source` for `target` ("sm_90" for a CUBIN, "compute_90" for
// PTX) and returns what `take` reads from the program (and its log in
// `log_out`, where given).
template <class Take>
std::string compile_program(const std::string& source, const std::string& program_name, const std::string& target,
                            const std::vector<std::string>& options,
                            const std::vector<std::pair<std::string, std::string>>& headers,
                            const std::vector<std::string>& name_expressions, std::vector<std::string>* lowered_names,
                            Take take, std::string* log_out = nullptr) {
  const Nvrtc& api = nvrtc();
  std::vector<const char*> header_sources, header_names;
  for (const auto& [name, text] : headers) {
    header_names.push_back(name.c_str());
    header_sources.push_back(text.c_str());
  }
  nvrtcProgram program;
  check(api.nvrtcCreateProgram(&program, source.c_str(), program_name.c_str(), static_cast<int>(headers.size()),
                               header_sources.data(), header_names.data()),
        "nvrtcCreateProgram");
  for (const std::string& e : name_expressions)
    check(api.nvrtcAddNameExpression(program, e.c_str()), "nvrtcAddNameExpression");
  std::vector<std::string> all = options;
  all.push_back("--gpu-architecture=" + target);
  std::vector<const char*> argv;
  for (const std::string& o : all) argv.push_back(o.c_str());
  nvrtcResult r = api.nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  if (r != NVRTC_SUCCESS) {
    const std::string log = program_log(api, program);
    api.nvrtcDestroyProgram(&program);
    throw CompileError(detail::describe_compile_failure(program_name, log, source, first_error_line(log, program_name)));
  }
  std::string output = take(api, program);
  if (log_out) *log_out = program_log(api, program);
  for (const std::string& e : name_expressions) {
    const char* lowered = nullptr;
    check(api.nvrtcGetLoweredName(program, e.c_str(), &lowered), "nvrtcGetLoweredName");
    lowered_names->push_back(lowered);
  }
  api.nvrtcDestroyProgram(&program);
  return output;
}

}  // namespace

std::string compile_cubin(const std::string& source, const std::string& program_name, int arch,
                          const std::vector<std::string>& options,
                          const std::vector<std::pair<std::string, std::string>>& headers,
                          const std::vector<std::string>& name_expressions, std::vector<std::string>* lowered_names,
                          std::string* log) {
  return compile_program(
      source, program_name, "sm_" + std::to_string(arch), options, headers, name_expressions, lowered_names,
      [](const Nvrtc& api, nvrtcProgram program) {
        size_t size = 0;
        check(api.nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
        std::string cubin(size, '\0');
        check(api.nvrtcGetCUBIN(program, cubin.data()), "nvrtcGetCUBIN");
        return cubin;
      },
      log);
}

std::string compile_ptx(const std::string& source, const std::string& program_name, int arch,
                        const std::vector<std::string>& options,
                        const std::vector<std::pair<std::string, std::string>>& headers) {
  return compile_program(source, program_name, "compute_" + std::to_string(arch), options, headers, {}, nullptr,
                         [](const Nvrtc& api, nvrtcProgram program) {
                           size_t size = 0;
                           check(api.nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
                           std::string ptx(size, '\0');
                           check(api.nvrtcGetPTX(program, ptx.data()), "nvrtcGetPTX");
                           ptx.resize(std::strlen(ptx.c_str()));  // the size counted the terminating NUL
                           return ptx;
                         });
}

}  // namespace kiln::cuda
