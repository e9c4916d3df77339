#pragma once
// The text of a kiln::CompileError: the compiler's log, then the source lines
// around the first line the log names (marked with '>').
#include <string>

namespace kiln::detail {

// `first_error_line` <= 0 when the log names no line of `source`.
std::string describe_compile_failure(const std::string& program, const std::string& log, const std::string& source,
                                     int first_error_line);

}  // namespace kiln::detail
