// Byte copies between host and device memory, or between devices, on the
// current stream of the device involved. Copies that touch host memory
// synchronise, since the host side may be read or freed right after.
//
// Pageable host memory cannot be read by the copy engines: the driver stages
// it through its own small pinned buffers one at a time, at a fraction of the
// bus's speed. Large pageable copies are staged here instead, in chunks
// through pinned buffers from the pool: the CPU threads fill (or drain) one
// buffer while the copy engine moves another.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "context.hpp"
#include "kiln/cuda.hpp"
#include "transfer.hpp"

namespace kiln::cuda {
namespace {

constexpr size_t kStagedMinimum = size_t{1} << 20;  // smaller copies go straight to the driver
constexpr size_t kStagingChunk = size_t{8} << 20;   // bytes per pipelined chunk
constexpr int kStagingBuffers = 3;                  // chunks in flight
constexpr int kMaxCopyThreads = 8;                  // host memcpy threads; more only contend
constexpr size_t kCopyThreadBytes = size_t{1} << 20;  // per thread at least

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

bool is_pinned(const void* p) {
  // The plural form answers 0 for memory the driver does not know (pageable)
  // where the singular one fails, which tools such as compute-sanitizer report.
  unsigned type = 0;
  CUpointer_attribute attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void* values[] = {&type};
  CUresult r = driver().cuPointerGetAttributes(1, &attribute, values, dptr(p));
  return r == CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST;
}

void parallel_memcpy(void* dst, const void* src, size_t n) {
  const int threads = static_cast<int>(std::clamp<size_t>(n / kCopyThreadBytes, 1,
                                                          std::min(kMaxCopyThreads, omp_get_max_threads())));
  const size_t part = (n + threads - 1) / threads;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int t = 0; t < threads; ++t) {
    size_t lo = std::min(n, t * part), hi = std::min(n, lo + part);
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
  }
}

// Pinned buffers and an event per buffer marking when its copy is done.
class Staging {
 public:
  explicit Staging(size_t nbytes) {
    const Driver& d = driver();
    for (int i = 0; i < kStagingBuffers; ++i) {
      buffers_[i] = alloc_pinned(std::min(nbytes, kStagingChunk));
      check(d.cuEventCreate(&events_[i], CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    }
  }
  // Waits for the copies in flight (also when unwinding from an error), so
  // that the buffers go back to the pool unused.
  ~Staging() {
    for (CUevent e : events_) {
      if (!e) continue;
      driver().cuEventSynchronize(e);
      driver().cuEventDestroy_v2(e);
    }
  }
  char* buffer(int i) const { return static_cast<char*>(buffers_[i].get()); }
  void record(int i, CUstream s) { check(driver().cuEventRecord(events_[i], s), "cuEventRecord"); }
  void wait(int i) { check(driver().cuEventSynchronize(events_[i]), "cuEventSynchronize"); }

 private:
  std::shared_ptr<void> buffers_[kStagingBuffers];
  CUevent events_[kStagingBuffers] = {};
};

void staged_to_device(CUdeviceptr dst, const char* src, size_t nbytes, CUstream s) {
  Staging staging(nbytes);
  for (size_t off = 0, i = 0; off < nbytes; off += kStagingChunk, ++i) {
    const int slot = static_cast<int>(i % kStagingBuffers);
    const size_t len = std::min(kStagingChunk, nbytes - off);
    if (i >= kStagingBuffers) staging.wait(slot);  // the buffer's previous chunk has left
    parallel_memcpy(staging.buffer(slot), src + off, len);
    check(driver().cuMemcpyHtoDAsync_v2(dst + off, staging.buffer(slot), len, s), "cuMemcpyHtoDAsync");
    staging.record(slot, s);
  }
}

void staged_to_host(char* dst, CUdeviceptr src, size_t nbytes, CUstream s) {
  Staging staging(nbytes);
  const size_t chunks = (nbytes + kStagingChunk - 1) / kStagingChunk;
  auto start = [&](size_t i) {
    const int slot = static_cast<int>(i % kStagingBuffers);
    const size_t off = i * kStagingChunk, len = std::min(kStagingChunk, nbytes - off);
    check(driver().cuMemcpyDtoHAsync_v2(staging.buffer(slot), src + off, len, s), "cuMemcpyDtoHAsync");
    staging.record(slot, s);
  };
  for (size_t i = 0; i < std::min<size_t>(chunks, kStagingBuffers); ++i) start(i);
  for (size_t i = 0; i < chunks; ++i) {
    const int slot = static_cast<int>(i % kStagingBuffers);
    const size_t off = i * kStagingChunk, len = std::min(kStagingChunk, nbytes - off);
    staging.wait(slot);
    parallel_memcpy(dst + off, staging.buffer(slot), len);
    if (i + kStagingBuffers < chunks) start(i + kStagingBuffers);
  }
}

}  // namespace

void transfer(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  if (nbytes == 0) return;
  const Driver& d = driver();
  const bool to_host = dst_device.kind == DeviceKind::CPU;
  const bool from_host = src_device.kind == DeviceKind::CPU;
  const int device = from_host ? dst_device.index : src_device.index;
  ContextScope scope(device);
  Stream stream = current_stream(device);
  CUstream s = reinterpret_cast<CUstream>(stream.handle());
  if (to_host) {
    check_synchronize_allowed("a copy from the GPU to the host");
    if (nbytes >= kStagedMinimum && !is_pinned(dst))
      staged_to_host(static_cast<char*>(dst), dptr(src), nbytes, s);
    else
      check(d.cuMemcpyDtoHAsync_v2(dst, dptr(src), nbytes, s), "cuMemcpyDtoHAsync");
  } else if (from_host) {
    if (nbytes >= kStagedMinimum && !is_pinned(src))
      staged_to_device(dptr(dst), static_cast<const char*>(src), nbytes, s);
    else
      check(d.cuMemcpyHtoDAsync_v2(dptr(dst), src, nbytes, s), "cuMemcpyHtoDAsync");
  } else {
    // The destination block may still be in use by work queued on its
    // device's stream, which this stream does not follow.
    current_stream(dst_device.index).synchronize();
    // Device to device where the two can map each other's memory; the driver
    // stages the copy through the host otherwise.
    enable_peer_access(src_device.index, dst_device.index);
    enable_peer_access(dst_device.index, src_device.index);
    check(d.cuMemcpyPeerAsync(dptr(dst), primary_context(dst_device.index), dptr(src),
                              primary_context(src_device.index), nbytes, s),
          "cuMemcpyPeerAsync");
  }
  stream.synchronize();
}

bool cast_across(const StridedArgs& args, DType from, DType to, int dst_device) {
  const ElementwiseKernel cast = kernel_table(DeviceKind::CUDA).cast[static_cast<int>(from)][static_cast<int>(to)];
  if (!cast || !enable_peer_access(args.device, dst_device)) return false;
  // As transfer(): dst's memory may still be in use by its device's stream,
  // and its later work there must find the copy done.
  current_stream(dst_device).synchronize();
  cast(args);
  current_stream(args.device).synchronize();
  return true;
}

}  // namespace kiln::cuda

namespace kiln::cuda {

void copy_bytes(uintptr_t dst, uintptr_t src, size_t nbytes, int device, uintptr_t stream) {
  if (nbytes == 0) return;
  ContextScope scope(device);
  check(driver().cuMemcpyAsync(static_cast<CUdeviceptr>(dst), static_cast<CUdeviceptr>(src), nbytes,
                               reinterpret_cast<CUstream>(stream)),
        "cuMemcpyAsync");
}

void fill_bytes(uintptr_t dst, unsigned char value, size_t nbytes, int device, uintptr_t stream) {
  if (nbytes == 0) return;
  ContextScope scope(device);
  check(driver().cuMemsetD8Async(static_cast<CUdeviceptr>(dst), value, nbytes, reinterpret_cast<CUstream>(stream)),
        "cuMemsetD8Async");
}

}  // namespace kiln::cuda
