// Direct access from one GPU to another's memory (over NVLink or PCIe), which
// copies between the two need to move device to device: without it the
// driver stages every such copy through host memory, at a tenth of NVLink's
// bandwidth. Enabled once a pair, on first use, as CuPy and PyTorch do;
// enabling maps all of the peer's allocations, past and future.
#include <atomic>
#include <mutex>

#include "context.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"

namespace kiln::cuda {
namespace {

// A pair's state: unknown until first asked, then mapped or impossible.
enum PeerState : int { kUnknown = 0, kMapped = 1, kImpossible = 2 };

}  // namespace

bool can_access_peer(int device, int peer) {
  check_device(device);
  check_device(peer);
  if (device == peer) return false;  // as cuDeviceCanAccessPeer
  const Driver& d = driver();
  CUdevice a, b;
  check(d.cuDeviceGet(&a, device), "cuDeviceGet");
  check(d.cuDeviceGet(&b, peer), "cuDeviceGet");
  int can = 0;
  check(d.cuDeviceCanAccessPeer(&can, a, b), "cuDeviceCanAccessPeer");
  return can != 0;
}

bool enable_peer_access(int device, int peer) {
  check_device_index(device);
  check_device_index(peer);
  static std::atomic<int> states[kMaxDevices][kMaxDevices] = {};
  std::atomic<int>& state = states[device][peer];
  if (int known = state.load(std::memory_order_acquire)) return known == kMapped;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (int known = state.load(std::memory_order_relaxed)) return known == kMapped;
  bool mapped = false;
  if (can_access_peer(device, peer)) {
    ContextScope scope(device);
    const CUresult r = driver().cuCtxEnablePeerAccess(primary_context(peer), 0);
    // Already enabled by another library sharing the primary contexts; a
    // refusal (too many peers) leaves copies staged through the host.
    mapped = r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  }
  state.store(mapped ? kMapped : kImpossible, std::memory_order_release);
  return mapped;
}

}  // namespace kiln::cuda
