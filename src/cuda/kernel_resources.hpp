#pragma once
// Reading a kernel's resources out of what NVRTC gives for a CUBIN: ptxas's
// report (-Xptxas=-v) and the CUBIN's ELF sections. Needs no GPU.
#include <cstdint>
#include <string>

#include "kiln/cuda.hpp"

namespace kiln::cuda {

// Registers, stack frame (local memory) and static shared memory of entry
// function `function` (its mangled name) in ptxas's -v report; CompileError
// when the report has no such entry.
KernelResources ptxas_resources(const std::string& report, const std::string& function);

// The size in bytes of section `name` of an ELF64 image (a CUBIN), 0 when
// it has none; CompileError when `image` is not ELF64.
uint64_t elf_section_size(const std::string& image, const std::string& name);

}  // namespace kiln::cuda
