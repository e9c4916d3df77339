// Byte copies between host and device memory, or between devices, on the
// current stream of the device involved. Copies that touch host memory
// synchronise, since the host side may be read or freed right after.
#include "context.hpp"
#include "kiln/cuda.hpp"
#include "transfer.hpp"

namespace kiln::cuda {

void transfer(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = driver();
  const bool to_host = dst_device.kind == DeviceKind::CPU;
  const bool from_host = src_device.kind == DeviceKind::CPU;
  const int device = from_host ? dst_device.index : src_device.index;
  ContextScope scope(device);
  Stream stream = current_stream(device);
  CUstream s = reinterpret_cast<CUstream>(stream.handle());
  auto dptr = [](const void* p) { return reinterpret_cast<CUdeviceptr>(p); };
  if (to_host) {
    check(d.cuMemcpyDtoHAsync_v2(dst, dptr(src), nbytes, s), "cuMemcpyDtoHAsync");
  } else if (from_host) {
    check(d.cuMemcpyHtoDAsync_v2(dptr(dst), src, nbytes, s), "cuMemcpyHtoDAsync");
  } else {
    // Unified addressing: the driver picks a peer or a staged path.
    check(d.cuMemcpyAsync(dptr(dst), dptr(src), nbytes, s), "cuMemcpyAsync");
  }
  stream.synchronize();
}

}  // namespace kiln::cuda
