#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kiln {

// Order matters: it is NumPy's loop order (bool, signed before unsigned of each
// size, floats, complex), which type resolution walks to find the first loop an
// input can be cast to safely.
enum class DType : uint8_t {
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
inline constexpr int kNumDTypes = 14;

// NumPy's kind order b < u < i < f < c decides same_kind casts.
enum class DTypeKind : uint8_t { Bool, UnsignedInt, SignedInt, Float, Complex };

enum class Casting : uint8_t { No, Equiv, Safe, SameKind, Unsafe };

size_t itemsize(DType dt);
DTypeKind kind(DType dt);
std::string_view name(DType dt);  // "float32"
char type_char(DType dt);         // NumPy's one-letter code: 'f'
bool is_integer(DType dt);        // signed or unsigned, not bool
bool is_floating(DType dt);
bool is_complex(DType dt);
bool is_inexact(DType dt);        // floating or complex

// float32 for complex64, float64 for complex128, the dtype itself otherwise.
DType real_dtype(DType dt);
// complex64 for float16/float32, complex128 for float64.
DType complex_dtype(DType float_dt);
// Parse "float32", "f4", "f", "int", "complex", ... (NumPy spellings).
bool dtype_from_name(std::string_view text, DType* out);

// NumPy 2 promotion of two array dtypes (int64 with uint64 gives float64).
DType promote_types(DType a, DType b);
bool can_cast(DType from, DType to, Casting casting = Casting::Safe);

// The "weak" Python scalar kinds of NEP 50: a Python scalar takes the dtype of
// the array it meets unless its kind is higher.
enum class ScalarKind : uint8_t { Bool, Int, Float, Complex };
DType promote_weak(DType array_dtype, ScalarKind scalar);
// The dtype a Python scalar of this kind gets on its own.
DType default_dtype(ScalarKind scalar);

inline constexpr DType kDefaultInt = DType::Int64;
inline constexpr DType kDefaultFloat = DType::Float64;
inline constexpr DType kDefaultComplex = DType::Complex128;
// NumPy's sum/prod of a small integer accumulates in the platform integer.
DType default_accumulation_dtype(DType dt);

struct FInfo {
  int bits;
  double eps;
  double max;
  double min;
  double smallest_normal;
  double resolution;
  int precision;
  DType dtype;
};
struct IInfo {
  int bits;
  int64_t min;
  uint64_t max;
  DType dtype;
};
FInfo finfo(DType dt);  // TypeError unless floating or complex
IInfo iinfo(DType dt);  // TypeError unless an integer type

}  // namespace kiln
