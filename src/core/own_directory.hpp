#pragma once
// Where kiln's own binary is: companion libraries (libkiln_cub.so,
// libkiln_compiler_prefault.so) are installed beside it.
#include <string>

namespace kiln::detail {

// The directory of the binary that holds libkiln's code (libkiln.so, or a
// program linked with it statically); "" where the loader cannot say.
std::string own_directory();

}  // namespace kiln::detail
