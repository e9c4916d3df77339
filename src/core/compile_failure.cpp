#include "compile_failure.hpp"

namespace kiln::detail {

// Plain string operations, no iostreams: on machines where two libstdc++
// builds share a process, iostreams' locale facets have crashed kiln.
std::string describe_compile_failure(const std::string& program, const std::string& log, const std::string& source,
                                     int first_error_line) {
  std::string out = "compiling " + program + " failed:\n" + log;
  if (first_error_line <= 0) return out;
  size_t begin = 0;
  for (int n = 1; begin <= source.size(); ++n) {
    size_t end = source.find('\n', begin);
    if (end == std::string::npos) end = source.size();
    if (n >= first_error_line - 3 && n <= first_error_line + 3)
      out += (n == first_error_line ? ">" : " ") + std::to_string(n) + ": " + source.substr(begin, end - begin) + "\n";
    if (n > first_error_line + 3 || end == source.size()) break;
    begin = end + 1;
  }
  return out;
}

}  // namespace kiln::detail
