#pragma once
// Exception types of the C++ API. Each maps to the Python exception of the same
// name in the nanobind module, so a message written here reaches the user as is.
#include <stdexcept>
#include <string>

namespace kiln {

struct ValueError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// A linear-algebra routine cannot give a result (a singular matrix, a
// matrix that is not positive definite, no convergence), as NumPy's
// LinAlgError, which is a ValueError.
struct LinAlgError : ValueError {
  using ValueError::ValueError;
};
struct IndexError : std::out_of_range {
  using std::out_of_range::out_of_range;
};
// An axis outside an array's dimensions: NumPy's AxisError in Python (which
// is both an IndexError and a ValueError).
struct AxisError : IndexError {
  using IndexError::IndexError;
};
struct OverflowError : std::overflow_error {
  using std::overflow_error::overflow_error;
};
// Raised when the process cannot get memory for an array (host or device).
struct OutOfMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A CUDA driver call failed (or no usable driver exists); the message names
// the CUDA error, e.g. CUDA_ERROR_NO_DEVICE.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A GPU whose CUDA context a kernel fault poisoned (an illegal address,
// a trap, a device-side assert...): the first such error and every later
// failing call on that device raise this, with one message naming the last
// kernel kiln launched before it. Only a new process can use the GPU again.
struct ContextPoisoned : CudaError {
  using CudaError::CudaError;
};
// A synchronization with a GPU where this thread said none may happen
// (kiln::cuda::set_synchronize_allowed; CuPy's cupyx.allow_synchronize).
struct DeviceSynchronized : CudaError {
  using CudaError::CudaError;
};

// A user's kernel faulted while it ran (on the CPU: a segmentation fault, bus
// error, illegal instruction or integer division by zero in one of its
// threads); the message names the kernel, the block and the thread.
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Work that stopped early because the user pressed Ctrl-C (SIGINT): Python
// raises KeyboardInterrupt for it.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Run-time compilation failed; the message holds the compiler's log and the
// source lines around the first error.
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace kiln
