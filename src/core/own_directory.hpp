#pragma once
// Where kiln's own binary is: companion libraries (libkiln_cub.so,
// libkiln_compiler_prefault.so) are installed beside it.
#include <string>

namespace kiln::detail {

// The directory of the binary that holds libkiln's code (libkiln.so, or a
// program linked with it statically); "" where the loader cannot say.
std::string own_directory();

// A companion file: `name` installed beside libkiln, else the build tree's
// copy at `build_path` (null where the build names none); "" where neither
// can be read.
std::string companion_file(const std::string& name, const char* build_path);

}  // namespace kiln::detail
