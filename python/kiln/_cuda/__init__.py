"""CUDA's runtime beneath kiln's arrays: devices, streams, events, memory and
its pools, the runtime and driver calls, IPC, NVTX and the profiler.
kiln.cuda shows them under CuPy's and Numba's names."""
