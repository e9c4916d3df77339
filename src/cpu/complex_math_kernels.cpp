// Transcendental functions of complex numbers on the CPU (C99 Annex G branch
// cuts through std::complex, as NumPy's npymath follows).
#include <cmath>
#include <complex>

#include "backend.hpp"
#include "loops.hpp"

namespace kiln::cpu {
namespace {

#define KILN_COMPLEX_FUNCTOR(name, expr)                 \
  struct name {                                          \
    template <class T> static T call(T z) { return expr; } \
  };
KILN_COMPLEX_FUNCTOR(csqrt, std::sqrt(z))
KILN_COMPLEX_FUNCTOR(cexp, std::exp(z))
KILN_COMPLEX_FUNCTOR(cexp2, std::exp(z * typename T::value_type(M_LN2)))
KILN_COMPLEX_FUNCTOR(clog, std::log(z))
KILN_COMPLEX_FUNCTOR(clog2, std::log(z) / typename T::value_type(M_LN2))
KILN_COMPLEX_FUNCTOR(clog10, std::log10(z))
KILN_COMPLEX_FUNCTOR(csin, std::sin(z))
KILN_COMPLEX_FUNCTOR(ccos, std::cos(z))
KILN_COMPLEX_FUNCTOR(ctan, std::tan(z))
KILN_COMPLEX_FUNCTOR(casin, std::asin(z))
KILN_COMPLEX_FUNCTOR(cacos, std::acos(z))
KILN_COMPLEX_FUNCTOR(catan, std::atan(z))
KILN_COMPLEX_FUNCTOR(csinh, std::sinh(z))
KILN_COMPLEX_FUNCTOR(ccosh, std::cosh(z))
KILN_COMPLEX_FUNCTOR(ctanh, std::tanh(z))
KILN_COMPLEX_FUNCTOR(casinh, std::asinh(z))
KILN_COMPLEX_FUNCTOR(cacosh, std::acosh(z))
KILN_COMPLEX_FUNCTOR(catanh, std::atanh(z))
#undef KILN_COMPLEX_FUNCTOR

// exp(z) - 1 without cancellation for small z (NumPy's nc_expm1).
struct cexpm1 {
  template <class T> static T call(T z) {
    using R = typename T::value_type;
    R x = z.real(), y = z.imag();
    R s = std::sin(y / 2);
    return T(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
  }
};
// log(1 + z) (NumPy's nc_log1p).
struct clog1p {
  template <class T> static T call(T z) {
    using R = typename T::value_type;
    R x = z.real() + 1, y = z.imag();
    return T(std::log(std::hypot(x, y)), std::atan2(y, x));
  }
};

template <class F>
void reg(KernelTable& t, OpId op) {
  register_unary<F, kExpensiveGrain>(t, op, ComplexTypes{});
}

}  // namespace

void register_complex_math_kernels(KernelTable& t) {
  reg<csqrt>(t, OpId::sqrt);
  reg<cexp>(t, OpId::exp);
  reg<cexp2>(t, OpId::exp2);
  reg<cexpm1>(t, OpId::expm1);
  reg<clog>(t, OpId::log);
  reg<clog1p>(t, OpId::log1p);
  reg<clog2>(t, OpId::log2);
  reg<clog10>(t, OpId::log10);
  reg<csin>(t, OpId::sin);
  reg<ccos>(t, OpId::cos);
  reg<ctan>(t, OpId::tan);
  reg<casin>(t, OpId::asin);
  reg<cacos>(t, OpId::acos);
  reg<catan>(t, OpId::atan);
  reg<csinh>(t, OpId::sinh);
  reg<ccosh>(t, OpId::cosh);
  reg<ctanh>(t, OpId::tanh);
  reg<casinh>(t, OpId::asinh);
  reg<cacosh>(t, OpId::acosh);
  reg<catanh>(t, OpId::atanh);
}

}  // namespace kiln::cpu
