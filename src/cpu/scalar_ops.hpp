#pragma once
// Scalar semantics of the elementwise ops, one functor each, matching NumPy's
// (integer wrap-around, Python-style floor division and remainder, NaN
// propagation in minimum/maximum, lexicographic complex ordering).
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

#include "types.hpp"

namespace kiln::cpu::ops {

// Unsigned arithmetic wraps by definition; signed wraps here too because the
// backend is built with -fwrapv (NumPy's integer overflow wraps silently).
template <class T> T wrap_neg(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else return static_cast<T>(-x);
}

// Complex products and quotients as NumPy (and kiln's GPU code) compute
// them: the textbook product, without C99 Annex G's recovery of infinities
// that std::complex's operator* does (so inf * inf-ish overflow gives NaN
// parts, as in NumPy), and Smith's quotient with NumPy's zero divisor.
template <class R> std::complex<R> complex_multiply(std::complex<R> a, std::complex<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
template <class R> std::complex<R> complex_divide(std::complex<R> a, std::complex<R> b) {
  const R br = std::fabs(b.real()), bi = std::fabs(b.imag());
  if (br >= bi) {
    if (br == 0 && bi == 0) return {a.real() / br, a.imag() / br};
    const R rat = b.imag() / b.real(), scl = R(1) / (b.real() + b.imag() * rat);
    return {(a.real() + a.imag() * rat) * scl, (a.imag() - a.real() * rat) * scl};
  }
  const R rat = b.real() / b.imag(), scl = R(1) / (b.imag() + b.real() * rat);
  return {(a.real() * rat + a.imag()) * scl, (a.imag() * rat - a.real()) * scl};
}

// ---- arithmetic -----------------------------------------------------------
struct Add {
  template <class T> static T call(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else return static_cast<T>(a + b);
  }
};
struct Subtract {
  template <class T> static T call(T a, T b) { return static_cast<T>(a - b); }
};
struct Multiply {
  template <class T> static T call(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (is_complex_v<T>) return complex_multiply(a, b);
    else return static_cast<T>(a * b);
  }
};
struct Divide {
  template <class T> static T call(T a, T b) {
    if constexpr (is_complex_v<T>) return complex_divide(a, b);
    else return static_cast<T>(a / b);
  }
};

// NumPy's divmod for floats (npy_divmod): floor division consistent with the
// remainder, exact for representable quotients.
template <class T> void float_divmod(T a, T b, T* div_out, T* mod_out) {
  T mod = std::fmod(a, b);
  if (b == T(0)) {
    *mod_out = mod;
    *div_out = a / b;
    return;
  }
  T div = (a - mod) / b;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = std::copysign(T(0), b);
  }
  T floordiv;
  if (div != T(0)) {
    floordiv = std::floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = std::copysign(T(0), a / b);
  }
  *div_out = floordiv;
  *mod_out = mod;
}

struct FloorDivide {
  template <class T> static T call(T a, T b) {
    if constexpr (is_float_v<T>) {
      compute_t<T> d, m;
      float_divmod<compute_t<T>>(a, b, &d, &m);
      return static_cast<T>(d);
    } else {
      if (b == 0) return 0;  // NumPy returns 0 (with a warning) for integer x // 0
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return wrap_neg(a);
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    }
  }
};
struct Remainder {
  template <class T> static T call(T a, T b) {
    if constexpr (is_float_v<T>) {
      compute_t<T> d, m;
      float_divmod<compute_t<T>>(a, b, &d, &m);
      return static_cast<T>(m);
    } else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
        T r = static_cast<T>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
      } else {
        return static_cast<T>(a % b);
      }
    }
  }
};
struct Fmod {
  template <class T> static T call(T a, T b) {
    if constexpr (is_float_v<T>) {
      return static_cast<T>(std::fmod(compute_t<T>(a), compute_t<T>(b)));
    } else {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      return static_cast<T>(a % b);
    }
  }
};
struct Power {
  template <class T> static T call(T a, T b) {
    if constexpr (is_int_v<T>) {
      // Square-and-multiply with wrap-around; negative exponents were refused
      // before the kernel ran.
      using U = std::make_unsigned_t<T>;
      U base = static_cast<U>(a), result = 1;
      U e = static_cast<U>(b);
      while (e) {
        if (e & 1) result = static_cast<U>(result * base);
        base = static_cast<U>(base * base);
        e >>= 1;
      }
      return static_cast<T>(result);
    } else if constexpr (is_complex_v<T>) {
      // NumPy's nc_pow: zero bases by rule, integral exponents below 100 in
      // magnitude by repeated squaring, the rest through std::pow.
      using R = typename T::value_type;
      if (b == T(0)) return T(1);
      if (a == T(0)) return b.real() > 0 ? T(0) : T(NAN, NAN);
      if (b.imag() == 0 && b.real() == R(static_cast<long long>(b.real())) && std::fabs(b.real()) < 100) {
        long long n = static_cast<long long>(b.real());
        long long m = n < 0 ? -n : n;
        T result(1), p = a;
        for (long long mask = 1;; mask <<= 1) {
          if (m & mask) result *= p;
          if (m < (mask << 1)) break;
          p *= p;
        }
        return n < 0 ? T(1) / result : result;
      }
      return std::pow(a, b);
    } else {
      return static_cast<T>(std::pow(compute_t<T>(a), compute_t<T>(b)));
    }
  }
};

struct Negative {
  template <class T> static T call(T x) { return wrap_neg(x); }
};
struct Positive {
  template <class T> static T call(T x) { return x; }
};
struct Abs {
  template <class T> static auto call(T x) {
    if constexpr (is_complex_v<T>) return std::hypot(x.real(), x.imag());
    else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) return x;
    else if constexpr (is_float_v<T>) return static_cast<T>(std::fabs(compute_t<T>(x)));
    else return x < 0 ? wrap_neg(x) : x;
  }
};
struct Sign {
  template <class T> static T call(T x) {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      if (std::isnan(x.real()) || std::isnan(x.imag())) return T(NAN, NAN);
      R m = std::hypot(x.real(), x.imag());
      if (m == 0) return T(0);
      if (std::isinf(m)) {
        // Infinite parts point along the axes they lie on.
        R re = std::isinf(x.real()) ? std::copysign(R(1), x.real()) : R(0);
        R im = std::isinf(x.imag()) ? std::copysign(R(1), x.imag()) : R(0);
        R n = std::hypot(re, im);
        return T(re / n, im / n);
      }
      return T(x.real() / m, x.imag() / m);
    } else if constexpr (std::is_unsigned_v<T>) {
      return x > 0 ? 1 : 0;
    } else {
      return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x);
    }
  }
};
struct Reciprocal {
  template <class T> static T call(T x) {
    if constexpr (is_int_v<T>) {
      if (x == 0) return 0;
      return static_cast<T>(1 / x);
    } else if constexpr (is_complex_v<T>) {
      // NumPy's (and kiln's GPU's) scaled form: 1 / (0 + 0j) is NaN + NaN j.
      using R = typename T::value_type;
      if (std::fabs(x.imag()) <= std::fabs(x.real())) {
        const R r = x.imag() / x.real(), d = x.real() + x.imag() * r;
        return {R(1) / d, -r / d};
      }
      const R r = x.real() / x.imag(), d = x.imag() + x.real() * r;
      return {r / d, R(-1) / d};
    } else {
      return static_cast<T>(T(1) / x);
    }
  }
};
struct Square {
  template <class T> static T call(T x) { return static_cast<T>(x * x); }
};

// ---- ordering -------------------------------------------------------------
template <class T> bool is_nan(T x) {
  if constexpr (is_complex_v<T>) return std::isnan(x.real()) || std::isnan(x.imag());
  else if constexpr (is_float_v<T>) return x != x;
  else return false;
}
// Lexicographic for complex, as NumPy orders complex numbers.
template <class T> bool less(T a, T b) {
  if constexpr (is_complex_v<T>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
template <class T> bool less_equal(T a, T b) {
  if constexpr (is_complex_v<T>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}

struct Maximum {
  template <class T> static T call(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(a, b) ? b : a;
  }
};
struct Minimum {
  template <class T> static T call(T a, T b) {
    if (is_nan(a)) return a;
    if (is_nan(b)) return b;
    return less(b, a) ? b : a;
  }
};
struct Fmax {
  template <class T> static T call(T a, T b) {
    if (is_nan(b)) return a;
    if (is_nan(a)) return b;
    return less(a, b) ? b : a;
  }
};
struct Fmin {
  template <class T> static T call(T a, T b) {
    if (is_nan(b)) return a;
    if (is_nan(a)) return b;
    return less(b, a) ? b : a;
  }
};
struct Clip {
  template <class T> using first_operand = T;
  template <class T> static T call(T x, T lo, T hi) { return Minimum::call(Maximum::call(x, lo), hi); }
};
struct Where {
  template <class T> using first_operand = bool;
  template <class T> static T call(bool c, T x, T y) { return c ? x : y; }
};

// ---- comparisons and predicates ---------------------------------------------
struct Equal {
  template <class T> static bool call(T a, T b) { return a == b; }
};
struct NotEqual {
  template <class T> static bool call(T a, T b) { return a != b; }
};
struct Less {
  template <class T> static bool call(T a, T b) { return less(a, b); }
};
struct LessEqual {
  template <class T> static bool call(T a, T b) { return less_equal(a, b); }
};
struct Greater {
  template <class T> static bool call(T a, T b) { return less(b, a); }
};
struct GreaterEqual {
  template <class T> static bool call(T a, T b) { return less_equal(b, a); }
};
struct LogicalAnd {
  static bool call(bool a, bool b) { return a && b; }
};
struct LogicalOr {
  static bool call(bool a, bool b) { return a || b; }
};
struct LogicalXor {
  static bool call(bool a, bool b) { return a != b; }
};
struct LogicalNot {
  static bool call(bool a) { return !a; }
};
struct IsNan {
  template <class T> static bool call(T x) { return is_nan(x); }
};
struct IsInf {
  template <class T> static bool call(T x) {
    if constexpr (is_complex_v<T>) return std::isinf(x.real()) || std::isinf(x.imag());
    else if constexpr (is_float_v<T>) return std::isinf(compute_t<T>(x));
    else return false;
  }
};
struct IsFinite {
  template <class T> static bool call(T x) {
    if constexpr (is_complex_v<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
    else if constexpr (is_float_v<T>) return std::isfinite(compute_t<T>(x));
    else return true;
  }
};
struct SignBit {
  template <class T> static bool call(T x) { return std::signbit(compute_t<T>(x)); }
};

// ---- bitwise --------------------------------------------------------------
struct BitwiseAnd {
  template <class T> static T call(T a, T b) { return static_cast<T>(a & b); }
};
struct BitwiseOr {
  template <class T> static T call(T a, T b) { return static_cast<T>(a | b); }
};
struct BitwiseXor {
  template <class T> static T call(T a, T b) { return static_cast<T>(a ^ b); }
};
struct BitwiseInvert {
  template <class T> static T call(T x) {
    if constexpr (std::is_same_v<T, bool>) return !x;
    else return static_cast<T>(~x);
  }
};
// Shifts by the type's width or more give 0 (or -1 for negative values shifted
// right), as NumPy defines them; C++ leaves those undefined.
struct LeftShift {
  template <class T> static T call(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return 0;
    return static_cast<T>(static_cast<U>(a) << static_cast<U>(b));
  }
};
struct RightShift {
  template <class T> static T call(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) {
      if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
      else return 0;
    }
    return static_cast<T>(a >> b);
  }
};

// ---- rounding and parts -------------------------------------------------------
#define KILN_ROUNDING_OP(Name, fn)                                         \
  struct Name {                                                            \
    template <class T> static T call(T x) {                                \
      if constexpr (is_float_v<T>) return static_cast<T>(fn(compute_t<T>(x))); \
      else return x;                                                       \
    }                                                                      \
  };
KILN_ROUNDING_OP(Floor, std::floor)
KILN_ROUNDING_OP(Ceil, std::ceil)
KILN_ROUNDING_OP(Trunc, std::trunc)
#undef KILN_ROUNDING_OP
struct Rint {
  template <class T> static T call(T x) {
    if constexpr (is_complex_v<T>) return T(std::nearbyint(x.real()), std::nearbyint(x.imag()));
    else return static_cast<T>(std::nearbyint(compute_t<T>(x)));
  }
};
struct Conj {
  template <class T> static T call(T x) {
    if constexpr (is_complex_v<T>) return std::conj(x);
    else return x;
  }
};

}  // namespace kiln::cpu::ops
