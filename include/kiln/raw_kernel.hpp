#pragma once
// Kernels of CUDA C source: compiled by NVRTC for a GPU or by the host C++
// compiler for the CPU (against include/kiln/device), on first use on each
// device, by that device's backend (kiln/compiled_module.hpp), and cached on
// disk like every kiln kernel. This is the one user-kernel path: the Python
// faces (RawKernel, RawModule, SourceModule, ElementwiseKernel,
// ReductionKernel, cuda.jit) are built on these two classes.
//
//   kiln::RawKernel add(source, "add");
//   add(kiln::Device::cuda(), {blocks}, {256}, 0, x, y, out, n);  // kiln::Arrays and scalars
//
//   kiln::RawModule module(source, {"-DN=4"}, {"scale<float>"});
//   kiln::RawKernel scale = module.function("scale<float>");
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kiln/array.hpp"
#include "kiln/compiled_module.hpp"
#include "kiln/device.hpp"
#include "kiln/error.hpp"

namespace kiln {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

class RawKernel;

// One CUDA C source and its options, compiled for each device it is used on.
class RawModule {
 public:
  // `options` are NVRTC's; -D, -U and -I also reach the host compiler.
  // `name_expressions` are C++ names of kernels to instantiate and look up
  // by that spelling ("scale<float>"); kernels that are not templates are
  // found by their symbol without one.
  RawModule(std::string source, std::vector<std::string> options = {},
            std::vector<std::string> name_expressions = {});

  // The kernel `name` (a name expression, or a kernel's symbol). Nothing is
  // compiled until it is launched; ValueError then if there is no such kernel.
  RawKernel function(std::string name) const;
  // The address and size of the __device__ or __constant__ variable `name`
  // on `device` (compiling the module there if needed).
  std::pair<void*, size_t> global(Device device, const std::string& name) const;
  // The module compiled for `device` (on first use; CompileError on failure).
  std::shared_ptr<const CompiledModule> compiled(Device device) const;

  const std::string& source() const;
  const std::vector<std::string>& options() const;
  const std::vector<std::string>& name_expressions() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

class RawKernel {
 public:
  // A kernel with a module of its own: `name` is the kernel's symbol
  // (extern "C") or a C++ name expression ("scale<float>").
  RawKernel(std::string source, std::string name, std::vector<std::string> options = {});

  // Launches on `device`, on `stream` (a CUstream) or else the device's
  // current stream on a GPU (asynchronously, like every GPU op; on the CPU
  // the call returns when the grid is done). `args` point at each
  // parameter's value, as cuLaunchKernel takes them.
  void launch(Device device, Dim3 grid, Dim3 block, void** args, size_t shared_bytes = 0,
              std::optional<uintptr_t> stream = std::nullopt) const;

  // The backend's handle of the compiled kernel on `device` (a CUfunction on
  // a GPU), compiling it there if needed.
  uintptr_t handle(Device device) const;

  // Whether the kernel syncs its grid, and so launches cooperatively (its
  // module's source holds kiln::kCooperativeMarker).
  bool cooperative() const;
  // The most blocks of `block` threads (with `shared_bytes` of dynamic
  // shared memory) a cooperative launch on `device` can have.
  long long max_cooperative_blocks(Device device, Dim3 block, size_t shared_bytes = 0) const;

  // The same with the arguments themselves: each kiln::Array becomes its
  // data pointer (it must be on `device`); other values are passed as they
  // are, so their types must be the kernel's parameter types.
  template <class... Args>
  void operator()(Device device, Dim3 grid, Dim3 block, size_t shared_bytes, const Args&... args) const {
    auto values = std::make_tuple(argument_value(device, args)...);
    std::apply([&](auto&... v) {
      void* pointers[] = {static_cast<void*>(&v)..., nullptr};
      launch(device, grid, block, pointers, shared_bytes);
    }, values);
  }

  const std::string& name() const;
  const RawModule& module() const;

  struct State;

 private:
  friend class RawModule;
  RawKernel(RawModule module, std::string name);

  template <class T>
  static auto argument_value(Device device, const T& a) {
    if constexpr (std::is_same_v<T, Array>) {
      if (a.device() != device)
        throw TypeError("kiln::RawKernel: an array argument is on " + a.device().str() + ", the launch on " +
                        device.str());
      return static_cast<void*>(a.data());
    } else {
      static_assert(std::is_trivially_copyable_v<T>, "kernel arguments are arrays or trivially copyable values");
      return a;
    }
  }

  std::shared_ptr<State> state_;
};

}  // namespace kiln
