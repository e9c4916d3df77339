#include "host_compiler.hpp"

#include "barrier_regions.hpp"
#include "child_process.hpp"
#include "interrupts.hpp"
#include "kernel_faults.hpp"
#include "parallel.hpp"
#include "standby_compiler.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "../core/compile_failure.hpp"
#include "../core/device_headers.hpp"
#include "../core/disk_cache.hpp"
#include "../core/own_directory.hpp"
#include "../core/sha256.hpp"
#include "kiln/compiled_module.hpp"
#include "kiln/config.hpp"
#include "kiln/error.hpp"

namespace kiln::cpu {

// host_launch.hpp, host_language.hpp and host_runtime.hpp, embedded by CMake
// (kiln_embed_headers), in that order.
const std::vector<std::pair<std::string, std::string>>& host_runtime_headers();
// Headers by CUDA libraries' names that only CPU kernels see (curand_kernel.h:
// on a GPU, NVRTC finds NVIDIA's own in the toolkit), embedded by CMake.
const std::vector<std::pair<std::string, std::string>>& host_face_headers();

namespace {

constexpr const char* kSourceName = "kernel.cu";  // what compiler messages call the user's source
// -fno-semantic-interposition lets the kernel be inlined into the loop over
// a block's threads (an exported function could otherwise be replaced at
// load time).
// (-shared is added where the driver links a library.)
const std::vector<std::string> kFlags = {"-std=c++17", "-O2",    "-fPIC",           "-fopenmp",
                                         "-fwrapv",    "-fno-math-errno", "-fno-semantic-interposition",
                                         "-w"};
// TLS descriptors make the thread-local builtins (threadIdx and friends) a
// register-preserving call the compiler hoists out of that loop, instead of
// a __tls_get_addr call per thread (6x slower on a vector add). GCC's x86-64
// spelling; other compilers keep their default.
const std::string kTlsDescriptors = "-mtls-dialect=gnu2";

// The instruction set kiln's own vectorised loops pick when libkiln loads
// (vector_clones.hpp: x86-64-v4, v3 or the baseline), so that kernels call
// the same libmvec variants and round as those loops do: a fused kernel's
// sin matches kiln.sin's bit for bit. No contraction of a*b + c into an FMA,
// which op-by-op loops cannot do either.
std::vector<std::string> isa_flags() {
  std::vector<std::string> flags;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) flags.push_back("-march=x86-64-v4");
  else if (__builtin_cpu_supports("x86-64-v3")) flags.push_back("-march=x86-64-v3");
  flags.push_back("-ffp-contract=off");
  // GCC 12's straight-line (SLP) vectoriser still fuses a pair like
  // {a*r + b, b*r - a} into one vfmsubadd whatever -ffp-contract says: a
  // CPython-style complex quotient then lost its exact 1 + 0j for x / x.
  // The loops' vectoriser, which kernels rely on, is not affected.
  flags.push_back("-fno-tree-slp-vectorize");
#endif
#if defined(KILN_HAVE_LIBMVEC)
  flags.push_back("-DKILN_HAVE_LIBMVEC");  // kiln/device/fused.cuh declares the vector variants
#endif
  return flags;
}

struct Compiler {
  std::vector<std::string> command;  // e.g. {"ccache", "g++"} from $CXX
  std::string identity;              // its path and file identity: part of the cache key
  std::vector<std::string> flags;    // kFlags and what this compiler adds
  std::string linker;                // "gold", "lld" (-fuse-ld=) or "" for the compiler's default
  // Not a compiler cache (ccache, sccache, distcc, icecc): those preprocess
  // the source, then compile it again, and would read a kernel sent on
  // standard input twice. Such a compiler is not started ahead.
  bool reads_source_once = true;
};

bool is_compiler_cache(const std::string& path) {
  char resolved[PATH_MAX];
  const std::string real = realpath(path.c_str(), resolved) ? resolved : path;
  const std::string name = real.substr(real.rfind('/') + 1);
  for (const char* cache : {"ccache", "sccache", "distcc", "icecc"})
    if (name.find(cache) != std::string::npos) return true;
  return false;
}

std::string find_in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string run_compiler(const std::vector<std::string>& args, int* status);
void remove_tree(const std::string& path);
// A faster linker than the default (GNU ld) where one is installed and
// links a C++ library with this compiler (a compiler installed apart from
// the system's, as on the GPU machines, can leave gold without the paths
// of its C++ library): linking a kernel's library took 67 ms with ld, 19
// with gold and 33 with lld on the 2-core machine, of a small kernel's
// 150 ms. The probe runs once per compiler; its answer is kept in the
// cache directory.
std::string chosen_linker(const Compiler& c) {
  const std::string cache = detail::ensure_cache_directory();
  const std::string record =
      cache.empty() ? "" : cache + "/linker-" + detail::Sha256().update(c.identity).hex_digest().substr(0, 24);
  std::string chosen = record.empty() ? "" : detail::read_file(record);
  if (chosen.empty()) {
    chosen = "default";
    char dir[] = "/tmp/kiln-linker-XXXXXX";
    if (mkdtemp(dir)) {
      for (const char* name : {"gold", "lld"}) {
        if (find_in_path(std::string("ld.") + name).empty()) continue;
        std::vector<std::string> args = c.command;
        args.insert(args.end(), {std::string("-fuse-ld=") + name, "-shared", "-fPIC", "-fopenmp", "-x", "c++",
                                 "/dev/null", "-o", std::string(dir) + "/probe.so"});
        int status = 0;
        run_compiler(args, &status);
        if (exited_cleanly(status)) {
          chosen = name;
          break;
        }
      }
      remove_tree(dir);
    }
    if (!record.empty()) detail::write_atomically(cache, record, chosen);
  }
  return chosen == "default" ? "" : chosen;
}

const Compiler& found_compiler() {
  static const Compiler found = [] {
    std::vector<std::vector<std::string>> choices;
    if (const char* cxx = std::getenv("CXX")) {
      std::istringstream words(cxx);
      std::vector<std::string> command;
      for (std::string w; words >> w;) command.push_back(w);
      if (!command.empty()) choices.push_back(command);
    }
    for (const char* name : {"c++", "g++", "clang++"}) choices.push_back({name});
    for (auto& command : choices) {
      std::string path = find_in_path(command.back());
      struct stat st;
      if (path.empty() || stat(path.c_str(), &st) != 0) continue;
      Compiler c{command, "", kFlags};
#if defined(__x86_64__)
      if (path.find("clang") == std::string::npos) c.flags.push_back(kTlsDescriptors);
#endif
      for (const std::string& f : isa_flags()) c.flags.push_back(f);
      for (const std::string& word : command) {
        c.identity += word + " ";
        c.reads_source_once = c.reads_source_once && !is_compiler_cache(find_in_path(word));
      }
      c.identity += path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec);
      c.linker = chosen_linker(c);
      if (!c.linker.empty()) c.flags.push_back("-fuse-ld=" + c.linker);
      return c;
    }
    return Compiler{};
  }();
  if (found.command.empty())
    throw CompileError("running CUDA C on the CPU needs a host C++ compiler: none of $CXX, c++, g++, clang++ "
                       "was found on PATH");
  return found;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` without its __align__(n) (the buffer is 16-byte aligned already, and
// an __align__ would apply to the pointer that replaces the array).
std::string without_align(std::string text) {
  for (size_t at; (at = text.find("__align__")) != std::string::npos;) {
    size_t close = text.find(')', at);
    text.erase(at, close == std::string::npos ? std::string::npos : close - at + 1);
  }
  return text;
}

// `extern __shared__ T name[];` (the dynamic shared memory sized at launch)
// becomes a pointer into the OS thread's shared buffer, on the same line.
// Scanned by hand: std::regex breaks when libkiln and the process's
// libstdc++ differ in version.
std::string with_dynamic_shared(const std::string& source) {
  std::string out;
  size_t last = 0;
  for (size_t at = source.find("extern"); at != std::string::npos; at = source.find("extern", at + 1)) {
    if (at > 0 && is_word(source[at - 1])) continue;
    size_t shared = source.find_first_not_of(" \t\r\n", at + 6);
    if (shared == std::string::npos || source.compare(shared, 10, "__shared__") != 0) continue;
    size_t end = source.find(';', shared);
    if (end == std::string::npos) break;
    std::string decl = source.substr(shared + 10, end - shared - 10);  // " T name[]"
    size_t close = decl.find_last_not_of(" \t\r\n");
    if (close == std::string::npos || decl[close] != ']') continue;
    size_t open = decl.find_last_not_of(" \t\r\n", close - 1);
    if (open == std::string::npos || decl[open] != '[') continue;
    size_t name_end = decl.find_last_not_of(" \t\r\n", open - 1) + 1, name_begin = name_end;
    while (name_begin > 0 && is_word(decl[name_begin - 1])) --name_begin;
    const std::string name = decl.substr(name_begin, name_end - name_begin);
    const std::string type = without_align(decl.substr(0, name_begin));
    if (name.empty() || type.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    out += source.substr(last, at - last) + "static thread_local " + type + "* const " + name +
           " = reinterpret_cast<" + type + "*>(kiln_host::dynamic_shared());";
    last = end + 1;
    at = end;
  }
  return out + source.substr(last);
}

// How a module's blocks may run, read from its source as written (before
// split_at_barriers): barriers and warp intrinsics (__shfl_sync,
// __ballot_sync, __syncwarp..., and cooperative groups, whose methods are
// made of them) need a block's threads as fibers that can stop and meet,
// unless a kernel loops over them itself between its barriers (blockwise);
// so do waits on libcu++'s cuda::barrier (`waits`), where a thread loops
// until others arrive, and such a source is never split at its barriers.
// A grid sync needs every block's fibers at once. The entry points compile
// the form their kernel runs in (kiln_host::run_grid).
struct BlockForms {
  bool barriers = false, waits = false, cooperative = false;
};
BlockForms block_forms(const std::string& source) {
  BlockForms forms;
  forms.waits = source.find("cuda/barrier") != std::string::npos;
  forms.barriers = forms.waits || source.find("__syncthreads") != std::string::npos ||
                   source.find("_sync(") != std::string::npos || source.find("__syncwarp") != std::string::npos ||
                   source.find("__activemask") != std::string::npos ||
                   source.find("cooperative_groups") != std::string::npos;
  forms.cooperative = is_cooperative(source);
  return forms;
}

// <stdint.h>'s names that a kernel source may declare itself, as NVRTC lets
// it (NVRTC declares none of them unless the source includes <cstdint>):
// `typedef unsigned long long uint64_t;` in a preamble. The host runtime has
// the C library's already, of other types (uint64_t is unsigned long), so
// each such name the source declares is renamed throughout the source.
constexpr const char* kFixedWidthNames[] = {"int8_t",   "int16_t",  "int32_t",  "int64_t",  "uint8_t",
                                            "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t",
                                            "intmax_t", "uintmax_t"};
bool declares_type(const std::string& source, const std::string& name) {
  for (size_t at = source.find(name); at != std::string::npos; at = source.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at > 0 && is_word(source[at - 1])) || (end < source.size() && is_word(source[end]))) continue;
    const size_t next = source.find_first_not_of(" \t\r\n", end);
    if (next != std::string::npos && source[next] == ';') {  // typedef ... name;
      const size_t statement = at == 0 ? std::string::npos : source.find_last_of(";{}", at - 1);
      std::istringstream lines(source.substr(statement == std::string::npos ? 0 : statement + 1,
                                             at - (statement == std::string::npos ? 0 : statement + 1)));
      std::string line, first_word;  // the statement's first word, preprocessor lines left out
      while (first_word.empty() && std::getline(lines, line)) {
        const size_t word = line.find_first_not_of(" \t\r");
        if (word != std::string::npos && line[word] != '#') first_word = line.substr(word, 7);
      }
      if (first_word == "typedef") return true;
    }
    if (next != std::string::npos && source[next] == '=') {  // using name = ...;
      const size_t before = source.find_last_not_of(" \t\r\n", at - 1);
      if (before != std::string::npos && before >= 4 && source.compare(before - 4, 5, "using") == 0) return true;
    }
  }
  return false;
}
std::string own_fixed_width_names(const std::string& source) {
  std::string defines;
  for (const char* name : kFixedWidthNames)
    if (declares_type(source, name)) defines += std::string("#define ") + name + " kiln_user_" + name + "\n";
  return defines;
}

// The user's source with its own line numbers, then an entry point per
// kernel; the host runtime before them is `prelude` (its text, or nothing
// where a precompiled header brings it).
std::string translation_unit(const std::string& prelude, const std::string& source,
                             const std::vector<std::string>& kernels, const BlockForms& forms) {
  std::string tu = prelude;
  tu += own_fixed_width_names(source);
  tu += "#line 1 \"" + std::string(kSourceName) + "\"\n" + with_dynamic_shared(source) + "\n";
  tu += "#line 1 \"kiln-entries\"\n";
  const std::string form = std::string(forms.barriers ? "true" : "false") + ", " + (forms.cooperative ? "true" : "false");
  for (size_t i = 0; i < kernels.size(); ++i)
    tu += "extern \"C\" int kiln_entry_" + std::to_string(i) + "(kiln_host::Launch* l, void** args) { return kiln_host::run_grid<&(" +
          kernels[i] + "), " + form + ">(l, args); }\n" +
          "extern \"C\" const int kiln_blockwise_" + std::to_string(i) + " = kiln_host::blockwise<&(" +
          kernels[i] + ")>;\n";
  return tu;
}

const std::string& host_runtime_text() {
  static const std::string text = [] {
    std::string joined;
    for (const auto& [name, text_of] : host_runtime_headers()) joined += text_of;
    return joined;
  }();
  return text;
}

// The device headers' digest, part of every key that depends on them.
const std::string& device_headers_digest() {
  static const std::string digest = [] {
    detail::Sha256 headers;
    const auto kernel_headers = detail::kernel_headers();
    for (const auto* list : {&kernel_headers, &host_face_headers()})
      for (const auto& [name, text] : *list) headers.update(name + "\n" + text);
    return headers.hex_digest();
  }();
  return digest;
}

// The host runtime's grid machinery is compiled where this precedes it
// (host_runtime.hpp): once into kiln_runtime.o, or into a kernel compiled
// with the runtime as text.
const std::string kMachineryDefinitions = "#define KILN_HOST_RUNTIME_DEFINITIONS\n";
// libmvec.hpp's wrappers, which kernels call for the math functions as
// kiln's own loops do, compiled where this precedes the runtime. Where they
// are not installed (below).
const std::string kWrapperDefinitions =
    "#define KILN_LIBMVEC_DEFINITIONS\n"
    "#include \"kiln/device/libmvec.hpp\"\n";
const std::string kRuntimeObject = "kiln_runtime.o";

// The wrappers' object libkiln was built with, installed beside it (or in
// the build tree); "" where there is none. kiln_runtime.o links it instead
// of compiling the wrappers, which took 0.45 s of a fresh cache's first
// fused kernel on the 2-core machine. The same object as libkiln's loops
// call: kernels and loops compute through the same code.
const std::string& installed_wrappers() {
  // KILN_LIBMVEC_WRAPPERS_BUILD_PATH: set by CMake
  static const std::string path = detail::companion_file("kiln_libmvec_wrappers.o", KILN_LIBMVEC_WRAPPERS_BUILD_PATH);
  return path;
}
// The main file of compilers started ahead (standby_compiler.hpp).
const std::string kStandbyMain = "standby.cpp";

// What kiln.cuda.jit's kernels start with: their support header, which the
// jit's precompiled header holds too.
const std::string kJitInclude = "#include <kiln/device/jit_support.cuh>";
bool is_jit_source(const std::string& source) { return source.compare(0, kJitInclude.size(), kJitInclude) == 0; }

// g++ and clang name positions as "kernel.cu:<line>:<column>: error".
int first_error_line(const std::string& log) {
  const std::string marker = std::string(kSourceName) + ":";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    int line = std::atoi(log.c_str() + at + marker.size());
    if (line > 0) return line;
  }
  return 0;
}

std::string run_compiler(const std::vector<std::string>& args, int* status) {
  // Beside the output (in the call's private directory): the last argument
  // is not always the output (-lmvec follows it), and a log named after it
  // landed in the working directory, shared by every compile running there.
  // A call with no output (a -print-file-name query) logs to a private file.
  const auto output = std::find(args.begin(), args.end(), "-o");
  std::string log_path = "/tmp/kiln-compiler-log-XXXXXX";
  if (output != args.end() && output + 1 != args.end()) log_path = output[1] + ".log";
  else if (int fd = mkstemp(log_path.data()); fd >= 0) close(fd);
  else throw CompileError("could not create a log file for the host compiler in /tmp");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  const int rc = spawn_child(args, &actions, &pid);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw CompileError("could not run the host compiler " + args[0] + ": " + std::strerror(rc));
  *status = wait_for_child(pid);
  std::string log = detail::read_file(log_path);
  unlink(log_path.c_str());
  if (WIFSIGNALED(*status))
    log += "the host compiler " + args[0] + " was killed by signal " + std::to_string(WTERMSIG(*status)) + "\n";
  return log;
}

// The headers kernels include (kiln/device/..., pycuda-complex.hpp,
// curand_kernel.h, cooperative_groups/reduce.h) written under `dir`, for the
// compiler's -I, with the directories their names have.
void write_device_headers(const std::string& dir) {
  const auto kernel_headers = detail::kernel_headers();
  for (const auto* list : {&kernel_headers, &host_face_headers()})
    for (const auto& [name, text] : *list) {
      for (size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
        mkdir((dir + "/" + name.substr(0, slash)).c_str(), 0700);
      const std::string path = dir + "/" + name;
      detail::write_atomically(path.substr(0, path.rfind('/')), path, text);
    }
}

void remove_tree(const std::string& path) {
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string child = path + "/" + name;
      struct stat st;
      if (lstat(child.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(child);
      else unlink(child.c_str());
    }
    closedir(d);
  }
  rmdir(path.c_str());
}

std::vector<std::string> compiler_arguments(const std::string& include_dir) {
  std::vector<std::string> args = found_compiler().command;
  args.insert(args.end(), found_compiler().flags.begin(), found_compiler().flags.end());
  args.push_back("-I" + include_dir);
  return args;
}

// What the direct link needs from the compiler: the C runtime's start and
// end files of a shared library and the compiler's support library, by
// absolute path. Empty where the compiler names one it cannot find.
std::vector<std::string> startup_files(const Compiler& c) {
  std::vector<std::string> files;
  for (const char* query : {"-print-file-name=crti.o", "-print-file-name=crtbeginS.o", "-print-libgcc-file-name",
                            "-print-file-name=crtendS.o", "-print-file-name=crtn.o"}) {
    std::vector<std::string> args = c.command;
    args.push_back(query);
    int status = 0;
    std::string path = run_compiler(args, &status);
    path.erase(path.find_last_not_of(" \t\r\n") + 1);
    if (!exited_cleanly(status) || path.empty() || path[0] != '/' || access(path.c_str(), R_OK) != 0)
      return {};
    files.push_back(path);
  }
  return files;
}

// The direct link of a kernel's library: the linker itself (gold or lld,
// where the compiler uses one) over the C runtime's start files, the
// kernel's object, the runtime's machinery, kiln_deps.so (below), libgcc and
// the end files. Through the compiler driver, a small kernel's link took
// 18 ms on the 2-core machine, most of it reading the symbol tables of
// libstdc++, libgomp, libmvec, libm and libc; directly, 4 ms. The kernel's
// library then needs only kiln_deps.so, which needs those libraries: the
// symbols the kernel takes from them are found when it loads, among its own
// dependencies. Worked out when a runtime directory is built and kept there
// (a process that only loads cached kernels asks the compiler nothing), one
// word a line, kObjects where the objects go. Empty: link through the driver.
const std::string kObjects = "<objects>";
std::vector<std::string> direct_link_command(const Compiler& c) {
  const std::string linker = c.linker.empty() ? "" : find_in_path("ld." + c.linker);
  const std::vector<std::string> files = linker.empty() ? std::vector<std::string>{} : startup_files(c);
  if (files.empty()) return {};
  // crti.o, crtbeginS.o, the objects and kiln_deps.so, libgcc.a, crtendS.o, crtn.o
  return {linker, "--eh-frame-hdr", "--hash-style=gnu", "-shared", files[0], files[1], kObjects, files[2], files[3],
          files[4]};
}

struct RuntimeDirectory {
  std::string path;          // "" where it cannot be made
  std::vector<std::string> direct_link;  // the direct link's command (direct_link_command), or empty
};

// The directory of the device headers, of the precompiled host runtime
// (kiln_host.hpp and its .gch; for `jit`, with jit_support.cuh too) that
// every kernel compiles against, of the runtime's compiled grid machinery
// (kiln_runtime.o) that every kernel links, and of kiln_deps.so, a library
// of no code that needs every shared library a kernel calls into: parsing
// the runtime and the C++ library headers it needs, compiling the
// machinery, and linking against those libraries were most of a small
// kernel's compile time. Built once per compiler, flags and headers, in the
// cache directory (in a private directory renamed into place, so processes
// that race agree). kiln_deps.so's soname names its directory; loaded once
// per process (locally: no symbol of it or its libraries joins the global
// scope, where it could stand in for another library's own copies), it is
// what a kernel's library that needs that soname gets when it loads.
// Without a directory, kernels compile with the runtime, machinery and all,
// as text, and link through the compiler driver.
const RuntimeDirectory& runtime_directory(bool jit) {
  static std::mutex mutex;
  static std::map<bool, RuntimeDirectory> made;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = made.find(jit); it != made.end()) return it->second;
  std::string header = host_runtime_text() + (jit ? kJitInclude + "\n" : std::string());
  detail::Sha256 h;
  h.update(detail::kKilnVersion).update("\nhost runtime, kiln_deps.so by soname, direct-link, standby main\n");
  h.update(found_compiler().identity + "\n");
  for (const std::string& f : found_compiler().flags) h.update(f + "\n");
  h.update(device_headers_digest() + "\n");
  const std::string wrappers = installed_wrappers();
  h.update(wrappers.empty() ? "wrappers compiled\n" : "wrappers " + detail::read_file(wrappers) + "\n");
  const std::string cache = detail::ensure_cache_directory();
  const std::string digest = h.update(header).hex_digest().substr(0, 24);
  const std::string dir = cache.empty() ? "" : cache + "/runtime-" + digest;
  const std::string deps = dir + "/kiln_deps.so", link_record = dir + "/direct-link";
  struct stat st;
  // direct-link is written last, also where kiln_deps.so could not be linked
  if (!dir.empty() && stat(link_record.c_str(), &st) != 0) {
    std::string building = cache + "/.runtime-XXXXXX";
    if (mkdtemp(building.data())) {
      write_device_headers(building);
      detail::write_atomically(building, building + "/kiln_host.hpp", header);
      detail::write_atomically(building, building + "/kiln_runtime.cpp",
                               kMachineryDefinitions + (wrappers.empty() ? kWrapperDefinitions : "") +
                                   host_runtime_text());
      detail::write_atomically(building, building + "/" + kStandbyMain, kStandbyMainText);
      std::vector<std::string> args = compiler_arguments(building);
      std::vector<std::string> header = args, machinery = args, libraries = args;
      header.insert(header.end(), {"-x", "c++-header", building + "/kiln_host.hpp", "-o", building + "/kiln_host.hpp.gch"});
      // With the installed wrappers: the machinery's object, then both as one (ld -r)
      const std::string machinery_object = building + (wrappers.empty() ? "/" + kRuntimeObject : "/machinery.o");
      machinery.insert(machinery.end(), {"-c", "-x", "c++", building + "/kiln_runtime.cpp", "-o", machinery_object});
      std::vector<std::string> combined = found_compiler().command;
      combined.insert(combined.end(), {"-r", "-nostdlib", machinery_object, wrappers, "-o", building + "/" + kRuntimeObject});
      libraries.insert(libraries.end(), {"-shared", "-Wl,-soname,libkiln-deps-" + digest + ".so", "-Wl,--no-as-needed",
                                         "-x", "c++", "/dev/null", "-o", building + "/kiln_deps.so"});
#if defined(KILN_HAVE_LIBMVEC)
      libraries.push_back("-lmvec");
#endif
      // The three run at once, each one compiler process: the first kernel
      // waits for all of them.
      auto succeeds = [](const std::vector<std::string>& command) {
        int status = 0;
        run_compiler(command, &status);
        return exited_cleanly(status);
      };
      std::future<bool> machinery_built = std::async(std::launch::async, [&] {
        return succeeds(machinery) && (wrappers.empty() || succeeds(combined));
      });
      // Without kiln_deps.so, kernels link through the driver
      std::future<std::string> link = std::async(std::launch::async, [&] {
        std::string words;
        if (succeeds(libraries))
          for (const std::string& word : direct_link_command(found_compiler())) words += word + "\n";
        return words;
      });
      const bool header_built = succeeds(header);
      const bool built = machinery_built.get() && header_built;
      detail::write_atomically(building, building + "/direct-link", link.get());
      if (!built || rename(building.c_str(), dir.c_str()) != 0) remove_tree(building);  // lost a race: theirs is as good
    }
  }
  RuntimeDirectory& result = made[jit];
  if (dir.empty() || stat((dir + "/kiln_host.hpp.gch").c_str(), &st) != 0 ||
      stat((dir + "/" + kRuntimeObject).c_str(), &st) != 0)
    return result;
  result.path = dir;
  std::istringstream link(detail::read_file(link_record));
  std::vector<std::string> command;
  for (std::string word; std::getline(link, word);) command.push_back(word);
  if (!command.empty() && dlopen(deps.c_str(), RTLD_NOW | RTLD_LOCAL) != nullptr) result.direct_link = command;
  return result;
}

// `tu` compiled from a file in `dir` (`after` as in compile_ahead).
CompilerOutput compile_file(std::vector<std::string> args, const std::vector<std::string>& after,
                            const std::string& dir, const std::string& tu) {
  const std::string cpp = dir + "/kernel.cpp", output = dir + "/kernel.out";
  detail::write_atomically(dir, cpp, tu);
  args.insert(args.end(), {"-x", "c++", cpp});
  args.insert(args.end(), after.begin(), after.end());
  args.insert(args.end(), {"-o", output});
  CompilerOutput result;
  result.log = run_compiler(args, &result.status);
  if (exited_cleanly(result.status)) result.path = output;
  return result;
}

// Compiles to a shared library; returns its bytes. CompileError otherwise,
// with `*error_line` (where given) the source line of the first error.
// `direct`: link directly where the runtime directory allows it.
std::string compile(const std::string& source, const std::vector<std::string>& kernels, const BlockForms& forms,
                    const std::vector<std::string>& options, bool direct, int* error_line = nullptr) {
  char dir[] = "/tmp/kiln-host-XXXXXX";
  if (!mkdtemp(dir)) throw CompileError("could not create a temporary directory for the host compiler");
  const RuntimeDirectory& runtime = runtime_directory(is_jit_source(source));
  direct = direct && !runtime.direct_link.empty();
  if (runtime.path.empty()) write_device_headers(dir);
  const std::string tu = translation_unit(
      runtime.path.empty() ? kMachineryDefinitions + kWrapperDefinitions + host_runtime_text() : "", source, kernels,
      forms);
  std::vector<std::string> args = compiler_arguments(runtime.path.empty() ? dir : runtime.path);
  if (!runtime.path.empty()) args.insert(args.end(), {"-include", runtime.path + "/kiln_host.hpp"});
  for (const std::string& o : options)
    if (o.rfind("-D", 0) == 0 || o.rfind("-U", 0) == 0 || o.rfind("-I", 0) == 0) args.push_back(o);
  // An object for the direct link, else the library through the driver
  std::vector<std::string> after = {"-c"};
  if (!direct) {
    after.clear();
    if (!runtime.path.empty()) after = {"-x", "none", runtime.path + "/" + kRuntimeObject};
    after.push_back("-shared");
#if defined(KILN_HAVE_LIBMVEC)
    after.push_back("-lmvec");
#endif
  }
  // By a compiler started ahead where it can be (its main file lies in the
  // runtime directory)
  CompilerRunning running;
  const CompilerOutput compiled = found_compiler().reads_source_once && !runtime.path.empty() && compiles_ahead()
                                      ? compile_ahead(args, runtime.path + "/" + kStandbyMain, after, tu)
                                      : compile_file(args, after, dir, tu);
  std::string log = compiled.log, library;
  int status = compiled.status;
  if (!compiled.path.empty()) {
    if (direct) {
      const std::string so = std::string(dir) + "/kernel.so";
      std::vector<std::string> link;
      for (const std::string& word : runtime.direct_link) {
        if (word != kObjects) link.push_back(word);
        else link.insert(link.end(), {compiled.path, runtime.path + "/" + kRuntimeObject, runtime.path + "/kiln_deps.so"});
      }
      link.insert(link.end(), {"-o", so});
      log = run_compiler(link, &status);
      library = detail::read_file(so);
    } else {
      library = detail::read_file(compiled.path);
    }
    unlink(compiled.path.c_str());
  }
  remove_tree(dir);
  if (!exited_cleanly(status) || library.empty()) {
    const int line = first_error_line(log);
    if (error_line) *error_line = line;
    throw CompileError(detail::describe_compile_failure(kSourceName, log, source, line));
  }
  return library;
}

// dlopen needs a file: a private copy of the checked bytes, unlinked once
// open. Null, with the reason in `*error`, where it does not load.
void* try_open_library(const std::string& bytes, std::string* error) {
  std::string dir = detail::ensure_cache_directory();
  if (dir.empty()) dir = "/tmp";
  std::string path = dir + "/.load-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) throw CompileError("could not write a kernel library to " + dir);
  bool ok = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  ok = close(fd) == 0 && ok;
  void* handle = ok ? dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (!handle) *error = ok ? dlerror() : "short write";
  unlink(path.c_str());
  return handle;
}

}  // namespace

std::shared_ptr<const HostModule> load_host_module(const std::string& source, const std::vector<std::string>& options,
                                                   const std::vector<std::string>& kernels) {
  // Kernels with barriers rewritten to run a block without fibers. The
  // rewrite knows no types: a kernel whose rewrite does not compile is
  // compiled as written (the library is kept under the first try's key).
  std::set<int> unsplit;  // lines of kernels to leave as written
  const BlockForms forms = block_forms(source);
  std::string split = is_jit_source(source) || forms.waits ? source : split_at_barriers(source, kSourceName, unsplit);
  const std::string tu = translation_unit(host_runtime_text(), split, kernels, forms);
  detail::Sha256 h;
  h.update(detail::kKilnVersion).update("\nhost\n").update(found_compiler().identity + "\n");
  for (const std::string& f : found_compiler().flags) h.update(f + "\n");
  for (const std::string& o : options) h.update(o + "\n");
  h.update(device_headers_digest() + "\n");
  // A directly linked library loads only where its kiln_deps.so was loaded first
  const bool linked_directly = !runtime_directory(is_jit_source(source)).direct_link.empty();
  h.update(linked_directly ? "direct link, kiln_deps.so by soname\n" : "driver link\n");
  const std::string key = h.update(tu).hex_digest();

  static std::mutex mutex;
  static auto* loaded = new std::map<std::string, std::shared_ptr<const HostModule>>;  // modules stay loaded
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded->find(key); it != loaded->end()) return it->second;

  const std::string path = detail::cache_directory() + "/" + key + ".so";
  auto compiled = [&](bool direct) {
    for (;;) {
      int line = 0;
      try {
        return compile(split, kernels, forms, options, direct, &line);
      } catch (const CompileError&) {
        if (split == source) throw;
        const std::string fewer =
            line > 0 && unsplit.insert(line).second ? split_at_barriers(source, kSourceName, unsplit) : source;
        split = fewer == split ? source : fewer;
      }
    }
  };
  std::string library = detail::load_checked(path), error;
  bool fresh = library.empty();
  if (fresh) library = compiled(true);
  void* handle = try_open_library(library, &error);
  // A directly linked library that needs a symbol none of kiln_deps.so's
  // libraries has, or a cached one that no longer loads: linked again
  // through the compiler driver, which names the libraries it links (a
  // library the driver just linked would only fail the same way again).
  if (!handle && (!fresh || linked_directly)) {
    library = compiled(false);
    handle = try_open_library(library, &error);
    fresh = true;
  }
  if (!handle) throw CompileError("could not load the compiled kernel library: " + error);
  if (fresh) detail::store_checked(path, library);
  auto module = std::make_shared<HostModule>();
  module->library = handle;
  module->uses_barriers = forms.barriers;
  module->cooperative = forms.cooperative;
  module->names = kernels;
  for (size_t i = 0; i < kernels.size(); ++i) {
    void* entry = dlsym(module->library, ("kiln_entry_" + std::to_string(i)).c_str());
    if (!entry) throw CompileError("the compiled kernel library lacks the entry for " + kernels[i]);
    module->entries.push_back(reinterpret_cast<kiln_host::Entry>(entry));
    void* blockwise = dlsym(module->library, ("kiln_blockwise_" + std::to_string(i)).c_str());
    module->blockwise.push_back(blockwise && *static_cast<const int*>(blockwise));
  }
  loaded->emplace(key, module);
  return module;
}

std::pair<void*, size_t> host_global(const HostModule& module, const std::string& name) {
  void* address = dlsym(module.library, name.c_str());
  Dl_info info;
  void* entry = nullptr;  // the symbol's ElfW(Sym), which holds its size
  if (address) dladdr1(address, &info, &entry, RTLD_DL_SYMENT);
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  if (!symbol || ELF64_ST_TYPE(symbol->st_info) != STT_OBJECT)
    throw ValueError("the module has no global variable named '" + name + "'");
  return {address, static_cast<size_t>(symbol->st_size)};
}

void launch_host(const HostModule& module, size_t kernel, const unsigned grid[3], const unsigned block[3],
                 size_t shared_bytes, void** args) {
  // CUDA's limits (host_launch.hpp), so that a kernel that launches here launches on a GPU.
  const unsigned long long threads = 1ull * block[0] * block[1] * block[2];
  for (int d = 0; d < 3; ++d) {
    if (grid[d] == 0 || block[d] == 0) throw ValueError("grid and block dimensions must be at least 1");
    if (block[d] > kiln_host::kMaxBlockDim[d])
      throw ValueError("block dimension " + std::to_string(d) + " is " + std::to_string(block[d]) +
                       "; the limit is " + std::to_string(kiln_host::kMaxBlockDim[d]));
    if (grid[d] > kiln_host::kMaxGridDim[d])
      throw ValueError("grid dimension " + std::to_string(d) + " is " + std::to_string(grid[d]) +
                       "; the limit is " + std::to_string(kiln_host::kMaxGridDim[d]));
  }
  if (threads > kiln_host::kMaxBlockThreads)
    throw ValueError("a block of " + std::to_string(threads) + " threads is more than the limit of " +
                     std::to_string(kiln_host::kMaxBlockThreads));
  if (shared_bytes > kiln_host::kMaxDynamicShared)
    throw ValueError("shared_mem of " + std::to_string(shared_bytes) + " bytes is more than the limit of " +
                     std::to_string(kiln_host::kMaxDynamicShared));
  const unsigned long long blocks = 1ull * grid[0] * grid[1] * grid[2];
  if (module.cooperative && blocks > kiln_host::max_cooperative_blocks(static_cast<unsigned>(threads)))
    throw ValueError("a cooperative launch (the kernel syncs its grid) of " + std::to_string(blocks) +
                     " blocks is more than the " +
                     std::to_string(kiln_host::max_cooperative_blocks(static_cast<unsigned>(threads))) +
                     " blocks of this size the CPU runs at once (max_cooperative_grid_blocks)");
  kiln_host::Launch launch{};
  for (int d = 0; d < 3; ++d) {
    launch.grid[d] = grid[d];
    launch.block[d] = block[d];
  }
  launch.shared_bytes = shared_bytes;
  launch.cooperative = module.cooperative;
  launch.guard = &guard_thread_against_faults;
  launch.interrupted = watch_interrupts();
  if (module.entries.at(kernel)(&launch, args) != 0) {
    const std::string name = kernel < module.names.size() ? module.names[kernel] : "a kernel";
    if (std::string(launch.error) == kiln_host::kInterrupted)
      throw Interrupted(name + " was interrupted on the CPU (SIGINT): the blocks not yet started did not run");
    if (launch.faulted)
      throw KernelError(name + " stopped with " + launch.error +
                        " on the CPU; memory the kernel could write may be damaged, the process goes on");
    throw std::runtime_error(name + " failed on the CPU: " + launch.error);
  }
}

}  // namespace kiln::cpu

namespace kiln {

HostCompiler host_compiler() {
  const cpu::Compiler& c = cpu::found_compiler();
  return {c.command, c.identity};
}

}  // namespace kiln
