#include "compile_failure.hpp"

#include <sstream>

namespace kiln::detail {

std::string describe_compile_failure(const std::string& program, const std::string& log, const std::string& source,
                                     int first_error_line) {
  std::ostringstream out;
  out << "compiling " << program << " failed:\n" << log;
  if (first_error_line > 0) {
    std::istringstream lines(source);
    std::string text;
    for (int n = 1; std::getline(lines, text); ++n)
      if (n >= first_error_line - 3 && n <= first_error_line + 3)
        out << (n == first_error_line ? ">" : " ") << n << ": " << text << "\n";
  }
  return out.str();
}

}  // namespace kiln::detail
