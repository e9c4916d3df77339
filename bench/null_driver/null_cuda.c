/* A CUDA driver that runs nothing: every call succeeds at once, memory is host
   memory, launches return without running. For counting the host
   instructions of kiln's CUDA path (callgrind) on a machine with no GPU. */
#include <cuda.h>
#include <cudaProfiler.h>
/* cuda.h maps this name to its _v2; kiln looks up the name itself. */
#undef cuEventElapsedTime
#include <stdlib.h>
#include <string.h>

static __thread CUcontext current;
static int ctx_token, mod_token, stream_token, event_token;

CUresult cuInit(unsigned f) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int* v) { *v = 13000; return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char** s) { *s = "CUDA_ERROR_NULL_DRIVER"; return CUDA_SUCCESS; }
CUresult cuGetErrorString(CUresult r, const char** s) { *s = "null driver"; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int* n) { *n = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice* d, int i) { *d = i; return CUDA_SUCCESS; }
CUresult cuDeviceGetName(char* name, int len, CUdevice d) { strncpy(name, "Null GPU", len); return CUDA_SUCCESS; }
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice d) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 49152; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    default: *v = 1;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t* b, CUdevice d) { *b = (size_t)80 << 30; return CUDA_SUCCESS; }
CUresult cuDeviceGetUuid_v2(CUuuid* u, CUdevice d) { memset(u, 7, sizeof *u); return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice d) { *c = (CUcontext)&ctx_token; return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(CUcontext* c) { *c = current; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { current = c; return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(CUdevice* d) { *d = 0; return CUDA_SUCCESS; }
CUresult cuCtxSynchronize(void) { return CUDA_SUCCESS; }
CUresult cuDeviceCanAccessPeer(int* c, CUdevice a, CUdevice b) { *c = 0; return CUDA_SUCCESS; }
CUresult cuCtxEnablePeerAccess(CUcontext c, unsigned f) { return CUDA_SUCCESS; }
CUresult cuMemcpyPeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) {
  memcpy((void*)d, (void*)s, n); return CUDA_SUCCESS; }
CUresult cuMemGetInfo_v2(size_t* f, size_t* t) { *f = *t = (size_t)80 << 30; return CUDA_SUCCESS; }
CUresult cuMemGetAddressRange_v2(CUdeviceptr* b, size_t* s, CUdeviceptr p) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuIpcGetMemHandle(CUipcMemHandle* h, CUdeviceptr p) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuIpcOpenMemHandle_v2(CUdeviceptr* p, CUipcMemHandle h, unsigned f) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuIpcCloseMemHandle(CUdeviceptr p) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t n) { void* m = NULL; if (posix_memalign(&m, 256, n ? n : 1)) return CUDA_ERROR_OUT_OF_MEMORY; *p = (CUdeviceptr)m; return CUDA_SUCCESS; }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void*)p); return CUDA_SUCCESS; }
CUresult cuMemHostAlloc(void** p, size_t n, unsigned f) { return posix_memalign(p, 256, n ? n : 1) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS; }
CUresult cuMemFreeHost(void* p) { free(p); return CUDA_SUCCESS; }
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { memcpy((void*)d, (void*)s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void* s, size_t n, CUstream st) { memcpy((void*)d, s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoHAsync_v2(void* d, CUdeviceptr s, size_t n, CUstream st) { memcpy(d, (void*)s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { memmove((void*)d, (void*)s, n); return CUDA_SUCCESS; }
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream st) { memset((void*)d, v, n); return CUDA_SUCCESS; }
CUresult cuStreamCreate(CUstream* s, unsigned f) { *s = (CUstream)&stream_token; return CUDA_SUCCESS; }
CUresult cuStreamDestroy_v2(CUstream s) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream s) { return CUDA_SUCCESS; }
CUresult cuStreamQuery(CUstream s) { return CUDA_SUCCESS; }
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) { return CUDA_SUCCESS; }
CUresult cuEventCreate(CUevent* e, unsigned f) { *e = (CUevent)&event_token; return CUDA_SUCCESS; }
CUresult cuEventDestroy_v2(CUevent e) { return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent e, CUstream s) { return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent e) { return CUDA_SUCCESS; }
CUresult cuEventQuery(CUevent e) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float* ms, CUevent a, CUevent b) { *ms = 0; return CUDA_SUCCESS; }
CUresult cuPointerGetAttributes(unsigned n, CUpointer_attribute* a, void** d, CUdeviceptr p) { return CUDA_ERROR_INVALID_VALUE; }
CUresult cuModuleLoadData(CUmodule* m, const void* image) { *m = (CUmodule)&mod_token; return CUDA_SUCCESS; }
/* A handle of its own per function (its name), as the real driver gives. */
CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) { *f = (CUfunction)strdup(name); return CUDA_SUCCESS; }
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned sh, CUstream s, void** p, void** e) { return CUDA_SUCCESS; }
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned sh, CUstream s, void** p) { return CUDA_SUCCESS; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, CUfunction f, int b, size_t s) { *n = 8; return CUDA_SUCCESS; }
CUresult cuFuncGetAttribute(int* v, CUfunction_attribute a, CUfunction f) { *v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0; return CUDA_SUCCESS; }
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) { return CUDA_SUCCESS; }
CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache c) { return CUDA_SUCCESS; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr* p, size_t* n, CUmodule m, const char* name) { return CUDA_ERROR_NOT_FOUND; }
CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void* d) { fn(d); return CUDA_SUCCESS; }
CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }
/* NVRTC asks the driver for its private tables when one is loaded. */
CUresult cuGetExportTable(const void** table, const CUuuid* id) { return CUDA_ERROR_NOT_SUPPORTED; }
