#pragma once
// CUDA C kernels with barriers, rewritten for the CPU into loops over a
// block's threads between the barriers (see barrier_regions.cpp).
#include <set>
#include <string>

namespace kiln::cpu {

// `source` with each kernel whose __syncthreads() calls can be split at
// rewritten into its blockwise form: a whole block in one call, the
// statements between two barriers run as one loop over the block's threads,
// the locals that live across barriers kept one per thread. Such a kernel
// takes a trailing kiln_host::Blockwise parameter, by which host_runtime.hpp
// knows to run it once a block instead of as fibers. Kernels it cannot
// split (warp intrinsics, barriers in device functions or in expressions,
// goto, macros that hide statements, `auto` locals across barriers...) are
// left as they are, and keep their fibers; a source with nothing to split
// comes back unchanged. The rewrite needs no type information, so a kernel
// whose rewrite does not compile is rewritten again without it, or the
// source compiled as it was (host_compiler.cpp).
// `file` is the name #line directives give the source's lines; kernels with
// a line in `as_written` are left as they are.
std::string split_at_barriers(const std::string& source, const std::string& file, const std::set<int>& as_written);

}  // namespace kiln::cpu
