#pragma once
// One generated kernel per fused graph structure (kiln/fusion.hpp): the
// graph flattened, keyed without strings, its CUDA C source written once,
// compiled by the device's backend on a worker thread, launched.
#include <cstdint>
#include <string>

#include "fusion_graph.hpp"
#include "kiln/registry.hpp"

namespace kiln::fusion {

// Distinct arrays one fused kernel reads (its parameter block's size).
inline constexpr int kMaxFusedInputs = 16;

// Computes `root` into `out` (root's shape, dtype and device, any layout;
// no input may read another view of its memory) with the graph's generated
// kernel. False when that kernel is not ready (a
// worker is compiling it, or it could not be built): the caller runs the
// graph op by op.
bool run_fused(const Node& root, const Array& out);
// A reduction's number for run_fused_reduce: a ReduceOp, or this for the
// widening sums (KernelTable::widening_sum).
inline constexpr int kWideningSum = kNumReduceOps;

// Reduces `root`'s value with `kernel`, the device's reduction `reduction`,
// computing each element where the reduction reads it instead of storing
// the value first. `args` describes the value as a C-contiguous input
// (`in` unused). False when the generated code is not ready (as run_fused):
// the caller reduces the stored value.
bool run_fused_reduce(const Node& root, Device device, int reduction, ReduceKernel kernel, ReduceArgs& args);
// The generated source for `root` (compiling nothing).
std::string fused_source(const Node& root);
// The GPU module reducing `root`'s value with `reduction` (compiling nothing).
std::string fused_reduction_source(const Node& root, int reduction);
// The graph as one line: "multiply(sin(float32[1000]), 2.0:float32)".
std::string describe(const Node& root);
uint64_t kernels_compiled();
uint64_t kernels_failed();

}  // namespace kiln::fusion
