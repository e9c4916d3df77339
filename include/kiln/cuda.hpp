#pragma once
// CUDA devices, streams, events and the device memory pool. Everything here
// loads the driver on first use; on a machine without one, is_available()
// is false and the rest throws kiln::CudaError.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kiln/buffer.hpp"

namespace kiln::cuda {

bool is_available();       // a driver and at least one device
int device_count();        // 0 without a driver
std::string unavailable_reason();
int driver_version();      // e.g. 13000
// The cuSOLVER kiln loads (no GPU needed): major * 1000 + minor * 100 + patch,
// e.g. 12001; CudaError when it cannot be loaded.
int cusolver_version();

struct DeviceInfo {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  size_t total_memory = 0;
  int multiprocessors = 0;
  int pci_domain = 0, pci_bus = 0, pci_device = 0;
  std::string uuid;          // "GPU-xxxxxxxx-..."
  bool kernel_timeout = false;
  int fp32_per_fp64 = 0;     // single- to double-precision performance ratio
};
DeviceInfo device_info(int device);
// A CUdevice_attribute's value (see cuda.h for the numbering).
int device_attribute(int device, int attribute);
void mem_info(int device, size_t* free_bytes, size_t* total_bytes);
// Whether `device` can read and write `peer`'s memory directly (NVLink or
// PCIe); false for the device itself, as cuDeviceCanAccessPeer.
bool can_access_peer(int device, int peer);
// Maps `peer`'s memory into `device`'s context where the hardware allows, once
// (later calls answer from memory); returns whether it is mapped. Copies
// between two GPUs call it themselves.
bool enable_peer_access(int device, int peer);
// The device that owns `address` (device or managed memory), or -1 for
// memory CUDA does not know or host memory.
int pointer_device(uintptr_t address);
void synchronize(int device);

// CUDA IPC. The handle of the allocation holding `address` (a kiln pool
// segment, or any cuMemAlloc block), with the address's offset into it.
struct IpcExport {
  std::string handle;  // CUipcMemHandle's 64 bytes
  uint64_t offset = 0;
  uint64_t allocation_bytes = 0;
  int device = 0;
};
IpcExport ipc_export(uintptr_t address);
// Maps another process's allocation into `device`'s context by its handle:
// the allocation's base address here (closed by ipc_close).
uintptr_t ipc_open(const std::string& handle, int device);
void ipc_close(uintptr_t base, int device);
// The CUDA profiler's collection on `device` (Nsight Systems' --capture-range=cudaProfilerApi).
void profiler_start(int device);
void profiler_stop(int device);

// Whether this thread may wait for a GPU: when not, a copy to the host and
// an explicit synchronize throw DeviceSynchronized (a debugging aid: code
// that should only queue work finds where it waits). Allowed by default.
void set_synchronize_allowed(bool allowed);
bool synchronize_allowed();
// Throws DeviceSynchronized naming `what` unless synchronizing is allowed.
void check_synchronize_allowed(const char* what);

// The device this thread works on (0 unless changed); makes its primary
// context current, sharing it with PyTorch, CuPy and Numba.
int current_device();
void set_current_device(int device);

class Event;

// A CUDA stream of one device. Copies share the stream object; a stream kiln
// created is destroyed with its last copy.
class Stream {
 public:
  static Stream null(int device);  // the legacy default stream
  static Stream create(int device, bool non_blocking);
  static Stream external(int device, uintptr_t handle);  // owned by someone else

  uintptr_t handle() const;
  int device() const;
  bool is_null() const { return handle() == 0; }
  void synchronize() const;
  bool done() const;  // whether all work has finished
  void wait(const Event& event) const;
  // Runs fn(data) on a driver thread once the work queued so far is done;
  // later work on the stream waits for it (cuLaunchHostFunc).
  void launch_host_func(void (*fn)(void*), void* data) const;
  bool operator==(const Stream& o) const { return handle() == o.handle() && device() == o.device(); }

  struct State;

 private:
  explicit Stream(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

// The stream this thread's operations on `device` run on (the null stream
// unless changed).
Stream current_stream(int device);
uintptr_t current_stream_handle(int device);  // the same, without making a Stream (0 for the null stream)
void set_current_stream(const Stream& stream);

class Event {
 public:
  static Event create(int device, bool timing = true, bool blocking = false);
  void record(const Stream& stream);
  void synchronize() const;
  bool done() const;
  // Milliseconds from `start` to this event; both must be recorded and done.
  float elapsed_ms_since(const Event& start) const;
  uintptr_t handle() const;
  int device() const;

  struct State;

 private:
  explicit Event(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

// The caching device allocator of each device (see memory_pool.cpp).
PoolStats pool_stats(int device);
void free_all_blocks(int device);
void set_pool_limit(int device, size_t bytes);

// Attributes of a compiled user kernel (kiln::RawKernel::handle on a GPU is
// its CUfunction): a CUfunction_attribute's value, and setting one.
int function_attribute(uintptr_t function, int attribute);
void set_function_attribute(uintptr_t function, int attribute, int value);
// The kernel's preferred split of on-chip memory between L1 and shared
// memory (a CUfunc_cache: 0 none, 1 shared, 2 L1, 3 equal).
void set_function_cache_config(uintptr_t function, int config);

// The PTX NVRTC makes of kernel `source` for compute_<arch>, with kiln's
// device headers and `options` (what cuda.jit's inspect_asm and compile_ptx
// show). Needs NVRTC only, not a GPU; CompileError with the log on failure.
std::string ptx(const std::string& source, int arch, const std::vector<std::string>& options);

// What kernel `kernel` (its name, or a name expression such as "f<float>")
// of `source` uses on a GPU of compute capability <arch>, as NVRTC and
// ptxas report compiling it with kiln's device headers and `options`: what
// cuFuncGetAttribute gives on such a GPU, found without one.
struct KernelResources {
  int num_regs = 0;
  int64_t local_bytes = 0;   // a thread's stack frame
  int64_t shared_bytes = 0;  // static shared memory
  int64_t const_bytes = 0;   // the module's __constant__ data
};
KernelResources kernel_resources(const std::string& source, int arch, const std::vector<std::string>& options,
                                 const std::string& kernel);

// Copies `nbytes` between any two addresses CUDA knows (device, pinned or
// ordinary host memory; the direction is inferred from them), and fills
// `nbytes` at a device address with `value`, queued on `stream` (a CUstream)
// of `device`.
void copy_bytes(uintptr_t dst, uintptr_t src, size_t nbytes, int device, uintptr_t stream);
void fill_bytes(uintptr_t dst, unsigned char value, size_t nbytes, int device, uintptr_t stream);

// Page-locked host memory from the pinned pool, for fast asynchronous copies.
std::shared_ptr<void> alloc_pinned(size_t nbytes);
size_t pinned_pool_bytes();

}  // namespace kiln::cuda
