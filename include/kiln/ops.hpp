#pragma once
// Elementwise functions of the C++ API. Each accepts arrays or scalars,
// broadcasts, promotes as NumPy 2 does and optionally writes into `out`.
#include <complex>
#include <initializer_list>
#include <optional>
#include <variant>

#include "kiln/array.hpp"
#include "kiln/op_list.hpp"

namespace kiln {

enum class OpId : uint8_t {
#define KILN_OP_ENUM(name, arity) name,
  KILN_ELEMENTWISE_OPS(KILN_OP_ENUM)
#undef KILN_OP_ENUM
  count_
};
inline constexpr int kNumOps = static_cast<int>(OpId::count_);

const char* op_name(OpId op);
int op_arity(OpId op);
// Whether `op` has a loop running in `loop` (its inputs converted to that
// dtype); every backend provides kernels for exactly these pairs.
bool has_loop(OpId op, DType loop);
// The dtype op's result has when its loop runs in `loop`.
DType loop_output_dtype(OpId op, DType loop);

// An argument of an elementwise op: an array, or a scalar (weak when it came
// from a Python or C++ literal).
class Operand {
 public:
  Operand(Array a) : value_(std::move(a)) {}
  Operand(Scalar s) : value_(s) {}
  Operand(bool v) : value_(Scalar::from_bool(v)) {}
  Operand(int v) : value_(Scalar::from_int(v)) {}
  Operand(long v) : value_(Scalar::from_int(v)) {}
  Operand(long long v) : value_(Scalar::from_int(v)) {}
  Operand(double v) : value_(Scalar::from_double(v)) {}
  Operand(std::complex<double> v) : value_(Scalar::from_complex(v)) {}

  // An operand that reads `a` where it is, for a call that ends before `a`
  // can change or go away (the Python bindings' arguments, which the
  // caller's frame keeps alive): building it copies no Array (a binary
  // operator made up to three copies, 5-13% of a small op's host work). A
  // copy of it owns a copy of `a`, so whatever keeps an operand past the
  // call (a recorded fused op) never holds the reference; a move keeps it
  // as it is.
  static Operand borrow(const Array& a) { return Operand(&a); }
  Operand(const Operand& o) : value_(o.owned()) {}
  Operand(Operand&&) = default;
  Operand& operator=(const Operand& o) {
    value_ = o.owned();
    return *this;
  }
  Operand& operator=(Operand&&) = default;

  bool is_array() const { return value_.index() != 1; }
  const Array& array() const {
    const Array* const* borrowed = std::get_if<const Array*>(&value_);
    return borrowed ? **borrowed : std::get<Array>(value_);
  }
  const Scalar& scalar() const { return std::get<Scalar>(value_); }

 private:
  using Value = std::variant<Array, Scalar, const Array*>;
  explicit Operand(const Array* a) : value_(a) {}
  Value owned() const {
    if (const Array* const* borrowed = std::get_if<const Array*>(&value_)) return Value(std::in_place_index<0>, **borrowed);
    return value_;
  }
  Value value_;
};

// The general entry: `args` has op_arity(op) operands.
Array apply(OpId op, const Operand* args, int count, const Array* out = nullptr);
inline Array apply(OpId op, std::initializer_list<Operand> args, const Array* out = nullptr) {
  return apply(op, args.begin(), static_cast<int>(args.size()), out);
}
inline Array apply(OpId op, const std::vector<Operand>& args, const Array* out = nullptr) {
  return apply(op, args.data(), static_cast<int>(args.size()), out);
}
// The result dtype the op would give for these operands (TypeError when none).
DType result_dtype(OpId op, const std::vector<Operand>& args);
// NumPy's result_type over arrays, dtypes and weak scalars.
DType result_type(const std::vector<DType>& dtypes, const std::vector<Scalar>& scalars = {});

#define KILN_DECLARE_OP_1(name) Array name(const Operand& x, const Array* out = nullptr);
#define KILN_DECLARE_OP_2(name) \
  Array name(const Operand& x1, const Operand& x2, const Array* out = nullptr);
#define KILN_DECLARE_OP_3(name) \
  Array name(const Operand& x1, const Operand& x2, const Operand& x3, const Array* out = nullptr);
#define KILN_DECLARE_OP(name, arity) KILN_DECLARE_OP_##arity(name)
KILN_ELEMENTWISE_OPS(KILN_DECLARE_OP)
#undef KILN_DECLARE_OP
#undef KILN_DECLARE_OP_1
#undef KILN_DECLARE_OP_2
#undef KILN_DECLARE_OP_3

// NumPy's `a ** b` operator: power, except NumPy's fast paths for a Python
// number b: a numeric array to 2 runs as square, a float or complex array to
// 0.5 or -1 as sqrt or reciprocal (same dtypes; faster, and NumPy's results).
Array power_operator(const Array& a, const Operand& b, const Array* out = nullptr);

// NumPy's round(x, decimals): half to even.
Array round(const Operand& x, int decimals = 0, const Array* out = nullptr);

// C++ operators, as NumPy's on arrays.
#define KILN_BINARY_OPERATOR(sym, fn)                                                 \
  inline Array operator sym(const Array& a, const Operand& b) { return fn(a, b); }    \
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>               \
  inline Array operator sym(T a, const Array& b) { return fn(Operand(a), b); }
KILN_BINARY_OPERATOR(+, add)
KILN_BINARY_OPERATOR(-, subtract)
KILN_BINARY_OPERATOR(*, multiply)
KILN_BINARY_OPERATOR(/, divide)
KILN_BINARY_OPERATOR(%, remainder)
KILN_BINARY_OPERATOR(&, bitwise_and)
KILN_BINARY_OPERATOR(|, bitwise_or)
KILN_BINARY_OPERATOR(^, bitwise_xor)
KILN_BINARY_OPERATOR(<<, bitwise_left_shift)
KILN_BINARY_OPERATOR(>>, bitwise_right_shift)
KILN_BINARY_OPERATOR(==, equal)
KILN_BINARY_OPERATOR(!=, not_equal)
KILN_BINARY_OPERATOR(<, less)
KILN_BINARY_OPERATOR(<=, less_equal)
KILN_BINARY_OPERATOR(>, greater)
KILN_BINARY_OPERATOR(>=, greater_equal)
#undef KILN_BINARY_OPERATOR
inline Array operator-(const Array& a) { return negative(a); }
inline Array operator~(const Array& a) { return bitwise_invert(a); }

}  // namespace kiln
