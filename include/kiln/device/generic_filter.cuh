#pragma once
// The kernels that run a user's RawKernel function over every window (or
// line) of kiln.scipy.ndimage's generic filters, as CuPy's generic filters
// do. The including source compiles the user's function as a __device__
// function first and names it with one of the macros below.

// f(const double* window, int size, double* result), once a window.
#ifdef KILN_GENERIC_FILTER_WINDOW_FUNCTION
extern "C" __global__ void kiln_generic_filter_windows(const double* windows, long long count, double* out,
                                                       long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) KILN_GENERIC_FILTER_WINDOW_FUNCTION(windows + i * count, count, out + i);
}
#endif

// f(const double* line, ptrdiff_t length, double* out_line, ptrdiff_t out_length), once a line.
#ifdef KILN_GENERIC_FILTER_LINE_FUNCTION
extern "C" __global__ void kiln_generic_filter_lines(const double* lines, long long length, double* out,
                                                     long long out_length, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) KILN_GENERIC_FILTER_LINE_FUNCTION(lines + i * length, length, out + i * out_length, out_length);
}
#endif
