// kiln::RawModule and kiln::RawKernel: a module is compiled for each device
// on first use there by that device kind's backend (which caches it on
// disk), and a kernel remembers its handle per device, so a launch after the
// first is a lookup and the backend's launch.
#include "kiln/raw_kernel.hpp"

#include <mutex>

#include "kiln/registry.hpp"

namespace kiln {
namespace {

// Per-device slots: 0 for the CPU, 1 + index for CUDA devices.
size_t slot(Device device) { return device.kind == DeviceKind::CPU ? 0 : 1 + static_cast<size_t>(device.index); }

}  // namespace

struct RawModule::State {
  std::string source;
  std::vector<std::string> options, name_expressions;
  std::mutex mutex;
  std::vector<std::shared_ptr<const CompiledModule>> compiled;  // by slot; null until compiled
};

RawModule::RawModule(std::string source, std::vector<std::string> options, std::vector<std::string> name_expressions)
    : state_(std::make_shared<State>()) {
  state_->source = std::move(source);
  state_->options = std::move(options);
  state_->name_expressions = std::move(name_expressions);
}

const std::string& RawModule::source() const { return state_->source; }
const std::vector<std::string>& RawModule::options() const { return state_->options; }
const std::vector<std::string>& RawModule::name_expressions() const { return state_->name_expressions; }

std::shared_ptr<const CompiledModule> RawModule::compiled(Device device) const {
  State& s = *state_;
  const size_t at = slot(device);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.compiled.size() <= at) s.compiled.resize(at + 1);
  if (!s.compiled[at]) {
    CompileModuleFn compile = kernel_table(device.kind).compile_module;
    if (!compile) throw CudaError("kiln was built without a backend for " + device.str());
    s.compiled[at] = compile(device.index, s.source, s.options, s.name_expressions);
  }
  return s.compiled[at];
}

std::pair<void*, size_t> RawModule::global(Device device, const std::string& name) const {
  return compiled(device)->global(name);
}

RawKernel RawModule::function(std::string name) const { return RawKernel(*this, std::move(name)); }

struct RawKernel::State {
  State(RawModule m, std::string n) : module(std::move(m)), name(std::move(n)) {}
  RawModule module;
  std::string name;
  struct Resolved {
    std::shared_ptr<const CompiledModule> module;
    uintptr_t function = 0;
  };
  std::mutex mutex;
  // By slot; null until first used there. Entries are never replaced, so a
  // launch may use one after the lock is released.
  std::vector<std::unique_ptr<const Resolved>> resolved;
};

RawKernel::RawKernel(RawModule module, std::string name)
    : state_(std::make_shared<State>(std::move(module), std::move(name))) {
  if (state_->name.empty()) throw ValueError("kiln::RawKernel: name must not be empty");
}

RawKernel::RawKernel(std::string source, std::string name, std::vector<std::string> options)
    : RawKernel(RawModule(std::move(source), std::move(options), {name}), name) {}

const std::string& RawKernel::name() const { return state_->name; }
const RawModule& RawKernel::module() const { return state_->module; }

namespace {

const RawKernel::State::Resolved& resolve(RawKernel::State& s, Device device) {
  const size_t at = slot(device);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (at < s.resolved.size() && s.resolved[at]) return *s.resolved[at];
  }
  // Compiled outside the lock: the module serialises its own compiles.
  std::shared_ptr<const CompiledModule> module = s.module.compiled(device);
  const uintptr_t function = module->function(s.name);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.resolved.size() <= at) s.resolved.resize(at + 1);
  if (!s.resolved[at]) s.resolved[at].reset(new RawKernel::State::Resolved{std::move(module), function});
  return *s.resolved[at];
}

}  // namespace

uintptr_t RawKernel::handle(Device device) const { return resolve(*state_, device).function; }

bool RawKernel::cooperative() const { return is_cooperative(state_->module.source()); }

long long RawKernel::max_cooperative_blocks(Device device, Dim3 block, size_t shared_bytes) const {
  const State::Resolved& kernel = resolve(*state_, device);
  return kernel.module->max_cooperative_blocks(kernel.function, block.x * block.y * block.z, shared_bytes);
}

void RawKernel::launch(Device device, Dim3 grid, Dim3 block, void** args, size_t shared_bytes,
                       std::optional<uintptr_t> stream) const {
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  const State::Resolved& kernel = resolve(*state_, device);
  const uintptr_t on = stream ? *stream : kernel_table(device.kind).current_stream(device.index);
  kernel.module->launch(kernel.function, g, b, shared_bytes, on, args);
}

}  // namespace kiln
