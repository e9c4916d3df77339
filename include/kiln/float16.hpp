#pragma once
// IEEE binary16 on the host. GCC and Clang provide _Float16 with correctly
// rounded conversions; arithmetic goes through float, as NumPy's does.
namespace kiln {
using float16 = _Float16;
}
