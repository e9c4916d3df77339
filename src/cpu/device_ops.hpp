#pragma once
// The elementwise ops' scalar semantics in the CPU's precompiled loops: the
// device headers' definitions (kiln/device/ops.cuh), the same ones generated
// code compiles on both devices, called on the CPU backend's element types.
// So a fused kernel and kiln's own loop compute each op alike, bit for bit.
//
// Include this before kiln's API headers: the device headers call the C
// math functions unqualified from namespace kiln::dev, and where kiln's
// array functions (kiln::sqrt(const Operand&)...) are declared already,
// that lookup stops at them instead of reaching the C library's.
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kiln/device/host_language.hpp"
#include "kiln/device/ops.cuh"
#include "types.hpp"

namespace kiln::cpu {

// The device headers' type with a CPU element type's bits, and back.
template <class T> struct device_type_of { using type = T; };
template <> struct device_type_of<int64_t> { using type = dev::int64; };    // long, there long long
template <> struct device_type_of<uint64_t> { using type = dev::uint64; };
template <> struct device_type_of<float16> { using type = dev::half; };
template <class R> struct device_type_of<std::complex<R>> { using type = dev::complex<R>; };
template <class D> struct host_type_of { using type = D; };
template <> struct host_type_of<dev::int64> { using type = int64_t; };
template <> struct host_type_of<dev::uint64> { using type = uint64_t; };
template <> struct host_type_of<dev::half> { using type = float16; };
template <class R> struct host_type_of<dev::complex<R>> { using type = std::complex<R>; };

template <class To, class From> inline To same_bits(From x) {
  static_assert(sizeof(To) == sizeof(From), "an element type and its device type have the same bits");
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (dev::is_complex<To>::value) {
    return dev::make_complex(x.real(), x.imag());  // part by part: a copy of the bytes stops vectorisation
  } else if constexpr (dev::is_complex<From>::value) {
    return To(x.re, x.im);
  } else {
    To t;
    std::memcpy(&t, &x, sizeof t);
    return t;
  }
}

// Op (a dev::op_<name>) as the CPU loops call it (loops.hpp).
template <class Op> struct DeviceOp {
  template <class... T> static auto call(T... x) {
    auto r = Op::call(same_bits<typename device_type_of<T>::type>(x)...);
    return same_bits<typename host_type_of<decltype(r)>::type>(r);
  }
};

// A ternary op's first operand type for operands of type T (ternary_loop).
struct Clip : DeviceOp<dev::op_clip> {
  template <class T> using first_operand = T;
};
struct Where : DeviceOp<dev::op_where> {
  template <class T> using first_operand = bool;
};

}  // namespace kiln::cpu
