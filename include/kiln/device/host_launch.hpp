// What kiln passes to the entry point of a CUDA C kernel compiled for the CPU
// (see host_runtime.hpp): shared by libkiln and the kernel's library.
#ifndef KILN_HOST_LAUNCH_HPP
#define KILN_HOST_LAUNCH_HPP

namespace kiln_host {

struct Launch {
  unsigned grid[3], block[3];
  unsigned long shared_bytes;  // dynamic shared memory of each block
  // The kernel syncs its whole grid (kiln_grid_sync): every block runs at
  // once, each on an OS thread of its own, as a cooperative launch on a GPU
  // keeps all its blocks resident.
  int cooperative;
  char error[256];             // set when the kernel misbehaves; the launch then fails
  int faulted;                 // the error is a fault (a signal), not a refusal
  // libkiln's way back from a fault: a worker thread names the sigjmp_buf it
  // set before a block (nullptr after it); libkiln's handler of SIGSEGV,
  // SIGBUS, SIGILL and SIGFPE jumps there with the signal's number.
  void (*guard)(void* jump_buffer);
  // Set by libkiln's SIGINT handler (Ctrl-C): the blocks not yet started
  // are skipped and the launch fails with kInterrupted. Null: not watched.
  const volatile int* interrupted;
};

// The error a launch that Ctrl-C stopped ends with.
constexpr const char* kInterrupted = "interrupted (SIGINT)";

// kiln_entry_<i>(launch, args): runs the whole grid of kernel i; args point at
// the argument values, as cuLaunchKernel's do. 0, or -1 with launch->error set.
typedef int (*Entry)(Launch* launch, void** args);

// CUDA's launch limits at compute capability 9.0, the kernel language the
// CPU backend runs: a launch on the CPU keeps them, so that a kernel that
// launches there launches on a GPU, and kiln.cuda reports them as the host's
// device attributes in CPU mode.
constexpr unsigned kComputeCapability[2] = {9, 0};
constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
constexpr unsigned kMaxBlockThreads = 1024;
constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535, 65535};
constexpr unsigned kWarpSize = 32;
constexpr unsigned long kMaxDynamicShared = 228ul << 10;  // Hopper's per-block maximum

// The most blocks a cooperative launch of blocks of `block_threads` threads
// may have on the CPU (a GPU's limit is the blocks it holds at once). Each
// block is an OS thread for the launch's life, each of its threads a fiber
// with a stack of its own: two memory mappings, of the 65,530 Linux lets a
// process have by default.
constexpr unsigned kMaxCooperativeBlocks = 1024, kMaxCooperativeThreads = 16384;
inline unsigned max_cooperative_blocks(unsigned block_threads) {
  const unsigned by_threads = kMaxCooperativeThreads / (block_threads ? block_threads : 1);
  return by_threads < kMaxCooperativeBlocks ? by_threads : kMaxCooperativeBlocks;
}

}  // namespace kiln_host

#endif
