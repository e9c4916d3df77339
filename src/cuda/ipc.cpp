// CUDA IPC: another process maps an allocation of this one by a 64-byte
// handle (cuIpcGetMemHandle / cuIpcOpenMemHandle), as Numba's get_ipc_handle
// and CuPy's runtime.ipcGetMemHandle export device memory. kiln's pool hands
// out blocks inside larger cuMemAlloc segments, so a handle names the
// segment and the importer adds the block's offset.
#include <cstring>

#include "context.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"

namespace kiln::cuda {

IpcExport ipc_export(uintptr_t address) {
  const int device = pointer_device(address);
  if (device < 0) throw ValueError("ipc: address " + std::to_string(address) + " is not device memory");
  ContextScope scope(device);
  const Driver& d = driver();
  CUdeviceptr base = 0;
  size_t size = 0;
  check(d.cuMemGetAddressRange_v2(&base, &size, static_cast<CUdeviceptr>(address)), "cuMemGetAddressRange");
  CUipcMemHandle handle;
  check(d.cuIpcGetMemHandle(&handle, base), "cuIpcGetMemHandle");
  IpcExport out;
  out.handle.assign(handle.reserved, sizeof handle.reserved);
  out.offset = address - static_cast<uintptr_t>(base);
  out.allocation_bytes = size;
  out.device = device;
  return out;
}

uintptr_t ipc_open(const std::string& handle, int device) {
  CUipcMemHandle h;
  if (handle.size() != sizeof h.reserved)
    throw ValueError("ipc: a handle is " + std::to_string(sizeof h.reserved) + " bytes, got " +
                     std::to_string(handle.size()));
  std::memcpy(h.reserved, handle.data(), sizeof h.reserved);
  check_device(device);
  ContextScope scope(device);
  CUdeviceptr base = 0;
  // Lazy peer access: a handle from another GPU's memory opens too.
  check(driver().cuIpcOpenMemHandle_v2(&base, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), "cuIpcOpenMemHandle");
  return static_cast<uintptr_t>(base);
}

void ipc_close(uintptr_t base, int device) {
  check_device(device);
  ContextScope scope(device);
  check(driver().cuIpcCloseMemHandle(static_cast<CUdeviceptr>(base)), "cuIpcCloseMemHandle");
}

}  // namespace kiln::cuda
