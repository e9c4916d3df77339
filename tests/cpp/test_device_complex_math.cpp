// The GPU's complex functions (kiln/device/complex_math.cuh) compiled for the
// CPU and compared with glibc's, which NumPy's are: special values (infinite,
// NaN and signed-zero parts), both sides of every branch cut, overflow and
// underflow edges, and random values. Machines without a GPU check the
// functions' logic this way; the GPU's own math library differs by an ulp or
// two, which the tolerance allows, and the GPU runs the NumPy comparisons too.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

// What device code gets from CUDA, for the host compiler. The header's half
// conversions are PTX (asm), which no test here reaches, so asm is dropped.
using namespace std;
#define __device__
#define __forceinline__ inline
#define asm(...)
static inline float __int_as_float(int i) {
  float f;
  memcpy(&f, &i, sizeof f);
  return f;
}
static inline double __longlong_as_double(long long i) {
  double d;
  memcpy(&d, &i, sizeof d);
  return d;
}
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
#include "kiln/device/complex_math.cuh"
#undef asm
#undef __forceinline__
#undef __device__

namespace {

namespace dev = kiln::dev;

template <class R>
using Function = std::pair<dev::complex<R> (*)(dev::complex<R>), std::complex<R> (*)(const std::complex<R>&)>;

template <class R>
std::vector<std::pair<std::string, Function<R>>> functions() {
  return {{"exp", {dev::cexp<R>, std::exp<R>}},       {"log", {dev::clog<R>, std::log<R>}},
          {"sqrt", {dev::csqrt<R>, std::sqrt<R>}},    {"sinh", {dev::csinh<R>, std::sinh<R>}},
          {"cosh", {dev::ccosh<R>, std::cosh<R>}},    {"tanh", {dev::ctanh<R>, std::tanh<R>}},
          {"sin", {dev::csin<R>, std::sin<R>}},       {"cos", {dev::ccos<R>, std::cos<R>}},
          {"tan", {dev::ctan<R>, std::tan<R>}},       {"asinh", {dev::casinh<R>, std::asinh<R>}},
          {"acosh", {dev::cacosh<R>, std::acosh<R>}}, {"atanh", {dev::catanh<R>, std::atanh<R>}},
          {"asin", {dev::casin<R>, std::asin<R>}},    {"acos", {dev::cacos<R>, std::acos<R>}},
          {"atan", {dev::catan<R>, std::atan<R>}}};
}

// NumPy's comparison in the array API tests: NaN matches NaN, infinities
// match exactly, the rest within 8 eps absolute plus 8 eps relative.
template <class R>
bool close(R got, R want) {
  const R tol = 8 * std::numeric_limits<R>::epsilon();
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= tol + tol * std::fabs(want);
}

template <class R>
std::vector<std::complex<R>> arguments() {
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  const R huge = std::numeric_limits<R>::max(), tiny = std::numeric_limits<R>::denorm_min();
  const std::vector<R> parts = {0, -R(0), 1, -1, R(0.5), -R(0.5), 2, R(0.999), R(1.001), R(1.5707963267948966),
                                R(3.141592653589793), 3, 30, -30, 89, -89, 120, 700, -710, 1000, R(1e-3), R(1e-20),
                                R(1e10), R(1e20), huge, -huge, std::numeric_limits<R>::min(), tiny, inf, -inf, nan};
  std::vector<std::complex<R>> z;
  for (R re : parts)
    for (R im : parts) z.emplace_back(re, im);
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> exponent(-8, sizeof(R) == 4 ? 8 : 30), unit(-3, 3), offset(-1e-3, 1e-3);
  auto magnitude = [&] { return R((rng() & 1 ? 1 : -1) * std::pow(10.0, exponent(rng))); };
  for (int i = 0; i < 4000; ++i) {
    z.emplace_back(magnitude(), magnitude());
    z.emplace_back(R(unit(rng)), R(unit(rng)));
    z.emplace_back(magnitude(), rng() & 1 ? R(0) : -R(0));  // the real axis, both zeros: branch cuts
    z.emplace_back(rng() & 1 ? R(0) : -R(0), magnitude());  // the imaginary axis
    z.emplace_back(R((rng() & 1 ? 1 : -1) + offset(rng)), R(offset(rng)));  // near +-1
  }
  return z;
}

template <class R>
void compare_with_glibc() {
  for (const auto& [name, f] : functions<R>()) {
    int failures = 0;
    for (std::complex<R> z : arguments<R>()) {
      const dev::complex<R> got = f.first(dev::make_complex(z.real(), z.imag()));
      const std::complex<R> want = f.second(z);
      if (!close(got.re, want.real()) || !close(got.im, want.imag())) {
        if (++failures <= 5)
          ADD_FAILURE() << name << "(" << z.real() << ", " << z.imag() << "): got (" << got.re << ", " << got.im
                        << "), glibc (" << want.real() << ", " << want.imag() << ")";
      }
    }
    EXPECT_EQ(failures, 0) << name;
  }
}

}  // namespace

TEST(DeviceComplexMath, Complex64MatchesGlibc) { compare_with_glibc<float>(); }
TEST(DeviceComplexMath, Complex128MatchesGlibc) { compare_with_glibc<double>(); }
