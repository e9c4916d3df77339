// Faults in users' kernels on the CPU: a segmentation fault, bus error,
// illegal instruction or integer division by zero in a kernel's thread
// becomes kiln::KernelError from the launch instead of killing the process.
#pragma once

namespace kiln::cpu {

// Kernel libraries call this (through kiln_host::Launch::guard) with the
// sigjmp_buf to come back to before each block, and nullptr after it. The
// first call installs kiln's handlers of the four signals; a signal in a
// thread that is not running a kernel block goes to the handler that was
// there before (Python's faulthandler, or the default).
void guard_thread_against_faults(void* jump_buffer);

}  // namespace kiln::cpu
