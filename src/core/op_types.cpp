#include "op_types.hpp"

#include <algorithm>
#include <string>

#include "kiln/error.hpp"

namespace kiln::detail {
namespace {

using Mask = uint16_t;
constexpr Mask bit(DType d) { return Mask(1u << static_cast<int>(d)); }
constexpr Mask kBool = bit(DType::Bool);
constexpr Mask kInts = bit(DType::Int8) | bit(DType::UInt8) | bit(DType::Int16) |
                       bit(DType::UInt16) | bit(DType::Int32) | bit(DType::UInt32) |
                       bit(DType::Int64) | bit(DType::UInt64);
constexpr Mask kFloats = bit(DType::Float16) | bit(DType::Float32) | bit(DType::Float64);
constexpr Mask kComplex = bit(DType::Complex64) | bit(DType::Complex128);
constexpr Mask kInexact = kFloats | kComplex;
constexpr Mask kSingleDouble = bit(DType::Float32) | bit(DType::Float64);  // SciPy's special functions' loops
constexpr Mask kReal = kInts | kFloats;
constexpr Mask kNumeric = kInts | kInexact;
constexpr Mask kAll = kBool | kNumeric;

enum class Out : uint8_t { Same, Bool, Real };

struct Rule {
  Mask loops;
  Out out = Out::Same;
  bool bool_input_is_error = false;  // NumPy refuses bool for -x and a - b
  bool ints_to_float64 = false;      // true division
  bool logical = false;              // inputs cast to bool
  bool double_first = false;         // a dtype without its own loop takes float64's if it can (SciPy's d->d first)
};

Rule rule_for(OpId op) {
  switch (op) {
    case OpId::negative:
    case OpId::positive: return {kNumeric, Out::Same, true};
    case OpId::subtract: return {kNumeric, Out::Same, true};
    case OpId::abs: return {kAll, Out::Real};
    case OpId::sign: return {kNumeric, Out::Same, true};
    case OpId::reciprocal:
    case OpId::square:
    case OpId::power: return {kNumeric};
    case OpId::sqrt: case OpId::exp: case OpId::exp2: case OpId::expm1: case OpId::log:
    case OpId::log1p: case OpId::log2: case OpId::log10: case OpId::sin: case OpId::cos:
    case OpId::tan: case OpId::asin: case OpId::acos: case OpId::atan: case OpId::sinh:
    case OpId::cosh: case OpId::tanh: case OpId::asinh: case OpId::acosh: case OpId::atanh:
    case OpId::rint: return {kInexact};
    case OpId::cbrt: case OpId::deg2rad: case OpId::rad2deg: case OpId::atan2:
    case OpId::hypot: case OpId::logaddexp: case OpId::copysign: case OpId::nextafter:
      return {kFloats};
    case OpId::floor: case OpId::ceil: case OpId::trunc:
      // NumPy 2 keeps integer dtypes for these (they are exact there).
      return {kBool | kReal};
    case OpId::isnan: case OpId::isinf: case OpId::isfinite:
    case OpId::equal: case OpId::not_equal: case OpId::less: case OpId::less_equal:
    case OpId::greater: case OpId::greater_equal: return {kAll, Out::Bool};
    case OpId::signbit: return {kFloats, Out::Bool};
    case OpId::logical_not: case OpId::logical_and: case OpId::logical_or:
    case OpId::logical_xor: return {kBool, Out::Bool, false, false, true};
    case OpId::bitwise_invert: case OpId::bitwise_and: case OpId::bitwise_or:
    case OpId::bitwise_xor: return {kBool | kInts};
    case OpId::bitwise_left_shift: case OpId::bitwise_right_shift: return {kInts};
    case OpId::conj: return {kNumeric};
    // SciPy's loop order decides where other dtypes go: erfinv's f->f comes
    // first (int8 gives float32), the others' d->d (int8 gives float64).
    case OpId::erfinv: case OpId::erfcinv: return {kSingleDouble};
    case OpId::erf: case OpId::erfc: case OpId::gammaln: case OpId::gamma: case OpId::j0: case OpId::j1:
    case OpId::y0: case OpId::y1: return {kSingleDouble, Out::Same, false, false, false, true};
    case OpId::divide: return {kInexact, Out::Same, false, true};
    case OpId::floor_divide: case OpId::remainder: case OpId::fmod: return {kReal};
    case OpId::add: case OpId::multiply: case OpId::minimum: case OpId::maximum:
    case OpId::fmin: case OpId::fmax: case OpId::clip: case OpId::where: return {kAll};
    case OpId::count_: break;
  }
  return {0};
}

}  // namespace

}  // namespace kiln::detail

namespace kiln {

bool has_loop(OpId op, DType loop) { return (detail::rule_for(op).loops & detail::bit(loop)) != 0; }

DType loop_output_dtype(OpId op, DType loop) {
  switch (detail::rule_for(op).out) {
    case detail::Out::Bool: return DType::Bool;
    case detail::Out::Real: return real_dtype(loop);
    case detail::Out::Same: break;
  }
  return loop;
}

}  // namespace kiln

namespace kiln::detail {

bool is_comparison(OpId op) {
  return op == OpId::equal || op == OpId::not_equal || op == OpId::less || op == OpId::less_equal ||
         op == OpId::greater || op == OpId::greater_equal;
}

LoopTypes resolve_loop(OpId op, DType promoted, const DType* inputs, int count) {
  const Rule r = rule_for(op);
  auto no_loop = [&] {
    return TypeError(std::string("kiln.") + op_name(op) + " is not supported for dtype " +
                     std::string(name(promoted)));
  };
  DType loop = promoted;
  if (r.logical) {
    loop = DType::Bool;
  } else if (r.bool_input_is_error && promoted == DType::Bool) {
    throw no_loop();
  } else if (r.ints_to_float64 && !is_inexact(promoted)) {
    loop = DType::Float64;
  } else if (!(r.loops & bit(promoted))) {
    bool found = false;
    for (int k = 0; k < kNumDTypes && !found; ++k) {
      DType d = static_cast<DType>(r.double_first ? kNumDTypes - 1 - k : k);
      bool fits = count ? std::all_of(inputs, inputs + count, [&](DType in) { return can_cast(in, d, Casting::Safe); })
                        : can_cast(promoted, d, Casting::Safe);
      if ((r.loops & bit(d)) && fits) {
        loop = d;
        found = true;
      }
    }
    if (!found) throw no_loop();
  }
  return {loop, loop_output_dtype(op, loop)};
}

const char* device_type(DType dt) {
  switch (dt) {
    case DType::Bool: return "bool";
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::UInt16: return "uint16";
    case DType::Int32: return "int32";
    case DType::UInt32: return "uint32";
    case DType::Int64: return "int64";
    case DType::UInt64: return "uint64";
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
  }
  return "";
}

}  // namespace kiln::detail
