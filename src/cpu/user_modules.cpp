// Users' CUDA C on the CPU (kiln::RawModule through the CPU's KernelTable):
// the source compiled by the host compiler with an entry point for each
// name expression and each kernel that is not a template.
#include <algorithm>
#include <cctype>
#include <memory>

#include "backend.hpp"
#include "host_compiler.hpp"
#include "kiln/error.hpp"

namespace kiln::cpu {
namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_space(const std::string& s, size_t at) {
  while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
  return at;
}

// The identifier (with ::) starting at `at`, and where it ends.
std::pair<std::string, size_t> word_at(const std::string& s, size_t at) {
  size_t end = at;
  while (end < s.size() && (is_word(s[end]) || s[end] == ':')) ++end;
  return {s.substr(at, end - at), end};
}

// Whether the '>' at `close` ends a template's parameter list ("template <...>").
bool closes_template(const std::string& source, size_t close) {
  int depth = 0;
  for (size_t at = close + 1; at-- > 0;) {
    if (source[at] == '>') ++depth;
    if (source[at] == '<' && --depth == 0) {
      size_t end = at;
      while (end > 0 && std::isspace(static_cast<unsigned char>(source[end - 1]))) --end;
      size_t begin = end;
      while (begin > 0 && is_word(source[begin - 1])) --begin;
      return source.compare(begin, end - begin, "template") == 0;
    }
  }
  return false;
}

// The kernels of `source` that are not templates: "__global__ [words] void
// [__launch_bounds__(...)] name(" not preceded by a template's "<...>" (an
// #include <...> before a kernel is no template).
// Scanned by hand: std::regex breaks when libkiln and the process's
// libstdc++ differ in version.
std::vector<std::string> plain_kernels(const std::string& source) {
  std::vector<std::string> names;
  const std::string global = "__global__";
  for (size_t at = source.find(global); at != std::string::npos; at = source.find(global, at + 1)) {
    if ((at > 0 && is_word(source[at - 1])) || is_word(source[at + global.size()])) continue;
    size_t before = at;
    while (before > 0 && std::isspace(static_cast<unsigned char>(source[before - 1]))) --before;
    if (before > 0 && source[before - 1] == '>' && closes_template(source, before - 1))
      continue;  // a template: only its name expressions
    size_t p = skip_space(source, at + global.size());
    std::string word;
    while (p < source.size() && word != "void") {
      auto [w, end] = word_at(source, p);
      if (w.empty()) break;
      word = w;
      p = skip_space(source, end);
    }
    if (word != "void") continue;
    if (source.compare(p, 17, "__launch_bounds__") == 0) {
      size_t close = source.find(')', p);
      if (close == std::string::npos) continue;
      p = skip_space(source, close + 1);
    }
    auto [name, end] = word_at(source, p);
    if (!name.empty() && skip_space(source, end) < source.size() && source[skip_space(source, end)] == '(')
      names.push_back(name);
  }
  return names;
}

class HostCompiledModule : public CompiledModule {
 public:
  HostCompiledModule(std::shared_ptr<const HostModule> module, std::vector<std::string> kernels)
      : module_(std::move(module)), kernels_(std::move(kernels)) {}

  uintptr_t function(const std::string& name) const override {
    for (size_t i = 0; i < kernels_.size(); ++i)
      if (kernels_[i] == name) return i;
    throw ValueError("the module has no kernel named '" + name + "'");
  }
  std::pair<void*, size_t> global(const std::string& name) const override { return host_global(*module_, name); }
  void launch(uintptr_t function, const unsigned grid[3], const unsigned block[3], size_t shared_bytes, uintptr_t,
              void** args) const override {
    launch_host(*module_, function, grid, block, shared_bytes, args);
  }
  long long max_cooperative_blocks(uintptr_t, unsigned block_threads, size_t) const override {
    return kiln_host::max_cooperative_blocks(block_threads);
  }

 private:
  std::shared_ptr<const HostModule> module_;
  std::vector<std::string> kernels_;  // entry i runs kernels_[i]
};

std::shared_ptr<const CompiledModule> compile_module(int, const std::string& source,
                                                     const std::vector<std::string>& options,
                                                     const std::vector<std::string>& name_expressions) {
  std::vector<std::string> kernels = name_expressions;
  for (std::string& name : plain_kernels(source))
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) kernels.push_back(std::move(name));
  return std::make_shared<HostCompiledModule>(load_host_module(source, options, kernels), std::move(kernels));
}

uintptr_t no_stream(int) { return 0; }

}  // namespace

void register_user_modules(KernelTable& table) {
  table.compile_module = &compile_module;
  table.current_stream = &no_stream;
}

}  // namespace kiln::cpu
