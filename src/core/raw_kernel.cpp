// kiln::RawKernel: compiles its source for each device on first use (the
// backends cache the result on disk) and launches there.
#include "kiln/raw_kernel.hpp"

#include <mutex>

#include "../cpu/host_compiler.hpp"
#ifdef KILN_WITH_CUDA
#include "kiln/cuda.hpp"
#endif

namespace kiln {

struct RawKernel::State {
  std::string source, name;
  std::vector<std::string> options;
  std::mutex mutex;
  std::shared_ptr<const cpu::HostModule> host;
#ifdef KILN_WITH_CUDA
  std::vector<uintptr_t> functions;  // per CUDA device; 0 until compiled
#endif
};

RawKernel::RawKernel(std::string source, std::string name, std::vector<std::string> options)
    : state_(std::make_shared<State>()) {
  if (name.empty()) throw ValueError("kiln::RawKernel: name must not be empty");
  state_->source = std::move(source);
  state_->name = std::move(name);
  state_->options = std::move(options);
}

const std::string& RawKernel::name() const { return state_->name; }

void RawKernel::launch(Device device, Dim3 grid, Dim3 block, void** args, size_t shared_bytes) const {
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  State& s = *state_;
  if (device.kind == DeviceKind::CPU) {
    std::shared_ptr<const cpu::HostModule> module;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (!s.host) s.host = cpu::load_host_module(s.source, s.options, {s.name});
      module = s.host;
    }
    cpu::launch_host(*module, 0, g, b, shared_bytes, args);
    return;
  }
#ifdef KILN_WITH_CUDA
  uintptr_t function;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.functions.size() <= static_cast<size_t>(device.index)) s.functions.resize(device.index + 1);
    if (!s.functions[device.index]) {
      cuda::UserModule module = cuda::load_user_module(device.index, s.source, s.options, {s.name});
      s.functions[device.index] = cuda::user_function(module, module.lowered_names.at(0));
    }
    function = s.functions[device.index];
  }
  cuda::launch_user_kernel(function, device.index, g, b, shared_bytes, cuda::current_stream_handle(device.index), args);
#else
  throw CudaError("kiln was built without CUDA");
#endif
}

}  // namespace kiln
