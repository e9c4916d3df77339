#pragma once
// The CUDA C kernels of a user's extension module: the .cu sources (or
// cuda_sources) of kiln.cpp_extension.load/load_inline and CMake's
// kiln_add_kernels(). They are compiled when first launched on a device,
// for that device (NVRTC on a GPU, the host compiler on the CPU), and
// cached on disk like kiln's own kernels, so one build of the extension
// runs on a machine with or without a GPU.
//
//   static const kiln::RawKernel histogram = kiln::extension::kernel("pair_histogram");
//   histogram(positions.device(), {blocks}, {threads}, 0, positions, counts, n);
#include <string>

#include "kiln/raw_kernel.hpp"

namespace kiln::extension {

// The module of all the extension's kernels (defined by the source file the
// build generates from them).
const RawModule& kernels();

// The kernel `name` of that module: a kernel's symbol (extern "C") or a
// name expression the build was told about.
inline RawKernel kernel(const std::string& name) { return kernels().function(name); }

}  // namespace kiln::extension
