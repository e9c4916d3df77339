#pragma once
// C++ element types of the dtypes and type lists for kernel registration.
#include <complex>
#include <cstdint>
#include <type_traits>

#include "kiln/dtype.hpp"
#include "kiln/float16.hpp"

namespace kiln::cpu {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

template <class T> struct dtype_of;
#define KILN_DTYPE_OF(T, D) template <> struct dtype_of<T> { static constexpr DType value = DType::D; };
KILN_DTYPE_OF(bool, Bool)
KILN_DTYPE_OF(int8_t, Int8)
KILN_DTYPE_OF(uint8_t, UInt8)
KILN_DTYPE_OF(int16_t, Int16)
KILN_DTYPE_OF(uint16_t, UInt16)
KILN_DTYPE_OF(int32_t, Int32)
KILN_DTYPE_OF(uint32_t, UInt32)
KILN_DTYPE_OF(int64_t, Int64)
KILN_DTYPE_OF(uint64_t, UInt64)
KILN_DTYPE_OF(float16, Float16)
KILN_DTYPE_OF(float, Float32)
KILN_DTYPE_OF(double, Float64)
KILN_DTYPE_OF(c64, Complex64)
KILN_DTYPE_OF(c128, Complex128)
#undef KILN_DTYPE_OF

template <class T> inline constexpr int dtype_index = static_cast<int>(dtype_of<T>::value);

template <class T> inline constexpr bool is_complex_v = std::is_same_v<T, c64> || std::is_same_v<T, c128>;
template <class T> inline constexpr bool is_float_v =
    std::is_same_v<T, float16> || std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// float16 computes through float, as NumPy's half loops do.
template <class T> using compute_t = std::conditional_t<std::is_same_v<T, float16>, float, T>;

template <class... Ts> struct TypeList {};
using IntTypes = TypeList<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
using FloatTypes = TypeList<float16, float, double>;
using ComplexTypes = TypeList<c64, c128>;

template <class... L> struct concat;
template <class... A> struct concat<TypeList<A...>> { using type = TypeList<A...>; };
template <class... A, class... B, class... R>
struct concat<TypeList<A...>, TypeList<B...>, R...> { using type = typename concat<TypeList<A..., B...>, R...>::type; };
template <class... L> using concat_t = typename concat<L...>::type;

using RealTypes = concat_t<IntTypes, FloatTypes>;
using InexactTypes = concat_t<FloatTypes, ComplexTypes>;
using NumericTypes = concat_t<IntTypes, InexactTypes>;
using AllTypes = concat_t<TypeList<bool>, NumericTypes>;
using BoolIntTypes = concat_t<TypeList<bool>, IntTypes>;
using BoolRealTypes = concat_t<TypeList<bool>, RealTypes>;

}  // namespace kiln::cpu
