#pragma once
// kiln.fuse's promise, kept per thread: a function it decorates runs as
// fused kernels, which cannot branch on an array's values. Reading a value
// into a Python scalar there (bool(), int(), float(), complex(), item())
// raises CuPy's TypeError instead of running the chain so far and
// splitting the function's kernels where the user did not ask.
namespace kiln::python {

// Entered and left by kiln.fuse's settings block around each call (a
// count, so nested fused calls nest).
void enter_fused_function();
void leave_fused_function();

// Throws TypeError naming `conversion` when this thread is inside a fused
// function.
void refuse_scalar_read_in_fused_function(const char* conversion);

}  // namespace kiln::python
