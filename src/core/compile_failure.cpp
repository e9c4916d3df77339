#include "compile_failure.hpp"

#include <cstdlib>
#include <vector>

namespace kiln::detail {

// Plain string operations, no iostreams: on machines where two libstdc++
// builds share a process, iostreams' locale facets have crashed kiln.
std::string describe_compile_failure(const std::string& program, const std::string& log, const std::string& source,
                                     int first_error_line) {
  std::string out = "compiling " + program + " failed:\n" + log;
  if (first_error_line <= 0) return out;
  // Each line with the number the compiler gives it: a "#line N" directive
  // (a wrapper around a user's code, a translated Python function) makes the
  // next line N.
  std::vector<std::pair<int, std::string>> lines;
  int number = 1;
  for (size_t begin = 0; begin <= source.size();) {
    size_t end = source.find('\n', begin);
    if (end == std::string::npos) end = source.size();
    const std::string text = source.substr(begin, end - begin);
    if (text.compare(0, 6, "#line ") == 0 && std::atoi(text.c_str() + 6) > 0) {
      number = std::atoi(text.c_str() + 6);
    } else {
      lines.emplace_back(number++, text);
    }
    if (end == source.size()) break;
    begin = end + 1;
  }
  for (const auto& [n, text] : lines)
    if (n >= first_error_line - 3 && n <= first_error_line + 3)
      out += (n == first_error_line ? ">" : " ") + std::to_string(n) + ": " + text + "\n";
  return out;
}

}  // namespace kiln::detail
