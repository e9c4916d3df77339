// Dtype conversion (also plain copies), fill and arange on the CPU.
#include <cstring>

#include "backend.hpp"
#include "loops.hpp"
#include "parallel.hpp"

namespace kiln::cpu {
namespace {

// NumPy's conversion rules: complex to real drops the imaginary part, nonzero
// is True, float16 goes through float.
template <class To, class From>
To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_complex_v<From>) return x.real() != 0 || x.imag() != 0;
    else return x != From(0);
  } else if constexpr (is_complex_v<From> && is_complex_v<To>) {
    return To(static_cast<typename To::value_type>(x.real()), static_cast<typename To::value_type>(x.imag()));
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(x.real());
  } else if constexpr (is_complex_v<To>) {
    return To(static_cast<typename To::value_type>(compute_t<From>(x)), 0);
  } else if constexpr (std::is_same_v<From, float16> || std::is_same_v<To, float16>) {
    if constexpr (is_int_v<To>) return static_cast<To>(static_cast<float>(x));
    else if constexpr (std::is_same_v<To, float16> && (std::is_same_v<From, int64_t> || std::is_same_v<From, uint64_t>))
      return static_cast<To>(static_cast<double>(x));
    else return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

template <class From, class To>
void cast_loop(char* const* d, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(From) && s[1] == sizeof(To)) {
    const From* x = reinterpret_cast<const From*>(d[0]);
    To* y = reinterpret_cast<To*>(d[1]);
    if constexpr (std::is_same_v<From, To>) {
      std::memcpy(y, x, static_cast<size_t>(n) * sizeof(To));
    } else {
      for (int64_t i = 0; i < n; ++i) y[i] = convert<To>(x[i]);
    }
    return;
  }
  if (s[0] == 0 && s[1] == sizeof(To)) {  // broadcast value: a fill
    const To v = convert<To>(*reinterpret_cast<const From*>(d[0]));
    To* y = reinterpret_cast<To*>(d[1]);
    for (int64_t i = 0; i < n; ++i) y[i] = v;
    return;
  }
  const char* x = d[0];
  char* y = d[1];
  for (int64_t i = 0; i < n; ++i, x += s[0], y += s[1])
    *reinterpret_cast<To*>(y) = convert<To>(*reinterpret_cast<const From*>(x));
}

template <class T>
void fill(const StridedArgs& out, const void* value) {
  // A copy from the value seen as a zero-stride operand.
  const int64_t zero_strides[kMaxDims] = {};
  StridedArgs a = out;
  a.nargs = 2;
  a.data[0] = const_cast<char*>(static_cast<const char*>(value));
  a.strides[0] = zero_strides;
  a.data[1] = out.data[0];
  a.strides[1] = out.strides[0];
  run_strided(a, &cast_loop<T, T>, kCheapGrain);
}

template <class T>
void iota(const StridedArgs& out, const void* start_ptr, const void* step_ptr) {
  T start, step;
  std::memcpy(&start, start_ptr, sizeof(T));
  std::memcpy(&step, step_ptr, sizeof(T));
  T* y = reinterpret_cast<T*>(out.data[0]);
  parallel_for(out.size, kCheapGrain, [&](int64_t begin, int64_t end) {
    using C = compute_t<T>;
    for (int64_t i = begin; i < end; ++i) {
      if constexpr (std::is_integral_v<T>)
        y[i] = static_cast<T>(static_cast<int64_t>(start) + i * static_cast<int64_t>(step));
      else y[i] = static_cast<T>(C(start) + static_cast<C>(i) * C(step));
    }
  });
}

template <class From, class... To>
void register_casts_from(KernelTable& t, TypeList<To...>) {
  ((t.cast[dtype_index<From>][dtype_index<To>] = &run_loop<&cast_loop<From, To>, kCheapGrain>), ...);
}

template <class... Ts>
void register_all(KernelTable& t, TypeList<Ts...> all) {
  (register_casts_from<Ts>(t, all), ...);
  ((t.fill[dtype_index<Ts>] = &fill<Ts>), ...);
}

template <class... Ts>
void register_iota(KernelTable& t, TypeList<Ts...>) {
  ((t.iota[dtype_index<Ts>] = &iota<Ts>), ...);
}

}  // namespace

void register_cast_kernels(KernelTable& t) {
  register_all(t, AllTypes{});
  register_iota(t, BoolRealTypes{});
}

}  // namespace kiln::cpu
