#pragma once
// The CUDA driver API, resolved from libcuda.so.1 with dlopen on first use:
// libkiln never links libcuda, so it loads on machines with no GPU or driver.
#include <cuda.h>
#include <cudaProfiler.h>

#include <string>

namespace kiln::cuda {

// Every driver entry point kiln calls, by its exported (versioned) symbol.
#define KILN_DRIVER_FUNCTIONS(X)                                                                  \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount)     \
  X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem_v2)               \
  X(cuDeviceGetUuid_v2) X(cuDevicePrimaryCtxRetain) X(cuCtxGetCurrent) X(cuCtxSetCurrent) X(cuCtxGetDevice)         \
  X(cuCtxSynchronize) X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) X(cuMemcpyPeerAsync) X(cuMemGetInfo_v2) X(cuMemGetAddressRange_v2) X(cuIpcGetMemHandle) X(cuIpcOpenMemHandle_v2) X(cuIpcCloseMemHandle) X(cuMemAlloc_v2) X(cuMemFree_v2) X(cuMemHostAlloc)      \
  X(cuMemFreeHost) X(cuMemcpyAsync) X(cuMemcpyHtoDAsync_v2) X(cuMemcpyDtoHAsync_v2)              \
  X(cuMemcpyDtoDAsync_v2) X(cuMemsetD8Async) X(cuStreamCreate) X(cuStreamDestroy_v2)             \
  X(cuStreamSynchronize) X(cuStreamQuery) X(cuStreamWaitEvent) X(cuEventCreate)                  \
  X(cuEventDestroy_v2) X(cuEventRecord) X(cuEventSynchronize) X(cuEventQuery)                    \
  X(cuEventElapsedTime) X(cuPointerGetAttributes) X(cuModuleLoadData) X(cuModuleGetFunction)     \
  X(cuLaunchKernel) X(cuLaunchCooperativeKernel) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) X(cuFuncGetAttribute)          \
  X(cuFuncSetAttribute) X(cuFuncSetCacheConfig) X(cuModuleGetGlobal_v2) X(cuLaunchHostFunc) X(cuProfilerStart) X(cuProfilerStop)

struct Driver {
#define KILN_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_DRIVER_FUNCTIONS(KILN_DRIVER_MEMBER)
#undef KILN_DRIVER_MEMBER
};

// The loaded driver with cuInit done; CudaError when there is none.
const Driver& driver();
// Whether a driver loads and initialises (never throws).
bool driver_available();
// Why driver() fails, or an empty string.
const char* driver_error();

// CudaError naming the CUresult (e.g. "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of memory)").
void check(CUresult result, const char* what);

// What a kernel fault is blamed on: kernels are named when looked up and
// every launch goes through launch_kernel, which notes its kernel, so a
// sticky error (the context is then poisoned: every later call on the
// device fails) names the last kernel kiln launched before it. check()
// raises ContextPoisoned for it, and for every later failure on that
// device, with one message.
void name_function(CUfunction fn, const std::string& name);
// cuLaunchKernel with one grid and block shape, checked; with
// `cooperative`, cuLaunchCooperativeKernel (all blocks resident at once).
void launch_kernel(CUfunction fn, const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                   CUstream stream, void** args, bool cooperative = false);

}  // namespace kiln::cuda
