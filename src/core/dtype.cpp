#include "kiln/dtype.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "kiln/error.hpp"

namespace kiln {
namespace {

struct DTypeTraits {
  std::string_view name;
  char code;
  uint8_t size;
  DTypeKind kind;
};

constexpr std::array<DTypeTraits, kNumDTypes> kTraits{{
    {"bool", '?', 1, DTypeKind::Bool},
    {"int8", 'b', 1, DTypeKind::SignedInt},
    {"uint8", 'B', 1, DTypeKind::UnsignedInt},
    {"int16", 'h', 2, DTypeKind::SignedInt},
    {"uint16", 'H', 2, DTypeKind::UnsignedInt},
    {"int32", 'i', 4, DTypeKind::SignedInt},
    {"uint32", 'I', 4, DTypeKind::UnsignedInt},
    {"int64", 'q', 8, DTypeKind::SignedInt},
    {"uint64", 'Q', 8, DTypeKind::UnsignedInt},
    {"float16", 'e', 2, DTypeKind::Float},
    {"float32", 'f', 4, DTypeKind::Float},
    {"float64", 'd', 8, DTypeKind::Float},
    {"complex64", 'F', 8, DTypeKind::Complex},
    {"complex128", 'D', 16, DTypeKind::Complex},
}};

const DTypeTraits& traits(DType dt) { return kTraits[static_cast<size_t>(dt)]; }

DType signed_int_of_size(size_t size) {
  switch (size) {
    case 1: return DType::Int8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
  }
}

// The smallest float that holds every value of an integer type of this size
// closely enough for NumPy: int8 -> float16, int16 -> float32, wider -> float64.
DType float_for_int_size(size_t size) {
  if (size == 1) return DType::Float16;
  if (size == 2) return DType::Float32;
  return DType::Float64;
}

DType wider(DType a, DType b) { return itemsize(a) >= itemsize(b) ? a : b; }

DType promote_ints(DType a, DType b) {
  DTypeKind ka = kind(a), kb = kind(b);
  if (ka == kb) return wider(a, b);
  DType s = ka == DTypeKind::SignedInt ? a : b;
  DType u = ka == DTypeKind::SignedInt ? b : a;
  if (itemsize(u) < itemsize(s)) return s;
  if (itemsize(u) == 8) return DType::Float64;
  return signed_int_of_size(itemsize(u) * 2);
}

}  // namespace

size_t itemsize(DType dt) { return traits(dt).size; }
DTypeKind kind(DType dt) { return traits(dt).kind; }
std::string_view name(DType dt) { return traits(dt).name; }
char type_char(DType dt) { return traits(dt).code; }
bool is_integer(DType dt) {
  return kind(dt) == DTypeKind::SignedInt || kind(dt) == DTypeKind::UnsignedInt;
}
bool is_floating(DType dt) { return kind(dt) == DTypeKind::Float; }
bool is_complex(DType dt) { return kind(dt) == DTypeKind::Complex; }
bool is_inexact(DType dt) { return is_floating(dt) || is_complex(dt); }

DType real_dtype(DType dt) {
  if (dt == DType::Complex64) return DType::Float32;
  if (dt == DType::Complex128) return DType::Float64;
  return dt;
}

DType complex_dtype(DType float_dt) {
  return float_dt == DType::Float64 ? DType::Complex128 : DType::Complex64;
}

bool dtype_from_name(std::string_view text, DType* out) {
  static const std::array<std::pair<std::string_view, DType>, 24> aliases{{
      {"bool_", DType::Bool},      {"?", DType::Bool},         {"b1", DType::Bool},
      {"i1", DType::Int8},         {"u1", DType::UInt8},       {"i2", DType::Int16},
      {"u2", DType::UInt16},       {"i4", DType::Int32},       {"u4", DType::UInt32},
      {"i8", DType::Int64},        {"u8", DType::UInt64},      {"f2", DType::Float16},
      {"f4", DType::Float32},      {"f8", DType::Float64},     {"c8", DType::Complex64},
      {"c16", DType::Complex128},  {"int", DType::Int64},      {"float", DType::Float64},
      {"complex", DType::Complex128}, {"half", DType::Float16}, {"single", DType::Float32},
      {"double", DType::Float64},  {"l", DType::Int64},        {"L", DType::UInt64},
  }};
  // NumPy accepts a leading byte-order mark for native or irrelevant order.
  if (!text.empty() && (text[0] == '<' || text[0] == '=' || text[0] == '|')) text.remove_prefix(1);
  for (int i = 0; i < kNumDTypes; ++i) {
    DType dt = static_cast<DType>(i);
    if (text == name(dt) || (text.size() == 1 && text[0] == type_char(dt))) {
      *out = dt;
      return true;
    }
  }
  for (const auto& [alias, dt] : aliases) {
    if (text == alias) {
      *out = dt;
      return true;
    }
  }
  return false;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  DTypeKind ka = kind(a), kb = kind(b);
  if (ka == DTypeKind::Bool) return b;
  if (kb == DTypeKind::Bool) return a;
  bool a_int = is_integer(a), b_int = is_integer(b);
  if (a_int && b_int) return promote_ints(a, b);
  if (a_int || b_int) {
    DType i = a_int ? a : b;
    DType x = a_int ? b : a;  // float or complex
    DType need = float_for_int_size(itemsize(i));
    if (is_floating(x)) return wider(x, need);
    DType need_complex = complex_dtype(need == DType::Float16 ? DType::Float32 : need);
    return wider(x, need_complex);
  }
  if (ka == DTypeKind::Float && kb == DTypeKind::Float) return wider(a, b);
  if (ka == DTypeKind::Complex && kb == DTypeKind::Complex) return wider(a, b);
  DType c = ka == DTypeKind::Complex ? a : b;
  DType f = ka == DTypeKind::Complex ? b : a;
  return f == DType::Float64 ? DType::Complex128 : c;
}

bool can_cast(DType from, DType to, Casting casting) {
  switch (casting) {
    case Casting::Unsafe: return true;
    case Casting::No:
    case Casting::Equiv: return from == to;
    case Casting::Safe: return promote_types(from, to) == to;
    case Casting::SameKind:
      return promote_types(from, to) == to ||
             static_cast<int>(kind(from)) <= static_cast<int>(kind(to));
  }
  return false;
}

DType promote_weak(DType array_dtype, ScalarKind scalar) {
  DTypeKind k = kind(array_dtype);
  switch (scalar) {
    case ScalarKind::Bool: return array_dtype;
    case ScalarKind::Int: return k == DTypeKind::Bool ? kDefaultInt : array_dtype;
    case ScalarKind::Float:
      return (k == DTypeKind::Float || k == DTypeKind::Complex) ? array_dtype : kDefaultFloat;
    case ScalarKind::Complex:
      if (k == DTypeKind::Complex) return array_dtype;
      if (k == DTypeKind::Float) return complex_dtype(array_dtype);
      return kDefaultComplex;
  }
  return array_dtype;
}

DType default_dtype(ScalarKind scalar) {
  switch (scalar) {
    case ScalarKind::Bool: return DType::Bool;
    case ScalarKind::Int: return kDefaultInt;
    case ScalarKind::Float: return kDefaultFloat;
    case ScalarKind::Complex: return kDefaultComplex;
  }
  return kDefaultFloat;
}

DType default_accumulation_dtype(DType dt) {
  if (kind(dt) == DTypeKind::Bool || kind(dt) == DTypeKind::SignedInt) return DType::Int64;
  if (kind(dt) == DTypeKind::UnsignedInt) return DType::UInt64;
  return dt;
}

FInfo finfo(DType dt) {
  switch (real_dtype(dt)) {
    case DType::Float16:
      return {16, std::ldexp(1.0, -10), 65504.0, -65504.0, std::ldexp(1.0, -14), 1e-3, 3, DType::Float16};
    case DType::Float32: {
      using L = std::numeric_limits<float>;
      return {32, L::epsilon(), L::max(), -L::max(), L::min(), 1e-6, 6, DType::Float32};
    }
    case DType::Float64: {
      using L = std::numeric_limits<double>;
      return {64, L::epsilon(), L::max(), -L::max(), L::min(), 1e-15, 15, DType::Float64};
    }
    default:
      throw TypeError("finfo: dtype must be a floating or complex type, got " + std::string(name(dt)));
  }
}

IInfo iinfo(DType dt) {
  if (!is_integer(dt))
    throw TypeError("iinfo: dtype must be an integer type, got " + std::string(name(dt)));
  int bits = static_cast<int>(itemsize(dt)) * 8;
  if (kind(dt) == DTypeKind::UnsignedInt) {
    uint64_t max = bits == 64 ? std::numeric_limits<uint64_t>::max() : ((uint64_t{1} << bits) - 1);
    return {bits, 0, max, dt};
  }
  int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max() : ((int64_t{1} << (bits - 1)) - 1);
  return {bits, -max - 1, static_cast<uint64_t>(max), dt};
}

}  // namespace kiln
