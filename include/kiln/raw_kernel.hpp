#pragma once
// A kernel of CUDA C source, for C++ programs: compiled by NVRTC for a GPU
// or by the host C++ compiler for the CPU (against include/kiln/device), on
// first use on each device, and cached on disk like every kiln kernel. The
// C++ face of kiln.RawKernel.
//
//   kiln::RawKernel add(source, "add");
//   add(kiln::Device::cuda(), {blocks}, {256}, 0, x, y, out, n);  // kiln::Arrays and scalars
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "kiln/array.hpp"
#include "kiln/device.hpp"
#include "kiln/error.hpp"

namespace kiln {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

class RawKernel {
 public:
  // `name` is the kernel's symbol (extern "C") or a C++ name expression
  // ("scale<float>"). `options` are NVRTC's; -D, -U and -I also reach the
  // host compiler.
  RawKernel(std::string source, std::string name, std::vector<std::string> options = {});

  // Launches on `device`, on its current stream on a GPU (asynchronously,
  // like every GPU op; on the CPU the call returns when the grid is done).
  // `args` point at each parameter's value, as cuLaunchKernel takes them.
  void launch(Device device, Dim3 grid, Dim3 block, void** args, size_t shared_bytes = 0) const;

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

 private:
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

  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace kiln
