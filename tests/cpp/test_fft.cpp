// The C++ FFT API (kiln/fft.hpp) against a direct sum on the CPU and every
// GPU present: complex, real-to-complex and complex-to-real, batched.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "devices.hpp"
#include "kiln/error.hpp"
#include "kiln/fft.hpp"

using namespace kiln;
using cd = std::complex<double>;

namespace {

std::vector<cd> direct_dft(const std::vector<cd>& x, int sign) {
  const size_t n = x.size();
  std::vector<cd> out(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j) out[k] += x[j] * std::polar(1.0, sign * 2 * M_PI * double(j * k) / double(n));
  return out;
}

template <class T>
std::vector<T> values_of(const Array& a) {
  Array host = a.to(Device::cpu());
  const T* p = reinterpret_cast<const T*>(host.data());
  return std::vector<T>(p, p + host.size());
}

}  // namespace

TEST(Fft, MatchesTheDirectSum) {
  if (fft_library_path().empty()) GTEST_SKIP() << "no FFTW3-interface library for the CPU";
  const int n = 12, batch = 3;
  std::vector<cd> signal(n * batch);
  for (int i = 0; i < n * batch; ++i) signal[i] = cd(std::sin(0.7 * i), std::cos(1.3 * i));
  for (Device device : test_devices()) {
    Array host = Array::empty({batch, n}, DType::Complex128);
    std::memcpy(host.data(), signal.data(), signal.size() * sizeof(cd));
    const Array x = host.to(device);
    for (bool inverse : {false, true}) {
      std::vector<cd> got = values_of<cd>(fft(x, 1, FftKind::C2C, inverse));
      for (int b = 0; b < batch; ++b) {
        std::vector<cd> row(signal.begin() + b * n, signal.begin() + (b + 1) * n);
        std::vector<cd> want = direct_dft(row, inverse ? +1 : -1);
        for (int k = 0; k < n; ++k) EXPECT_NEAR(std::abs(got[b * n + k] - want[k]), 0.0, 1e-10) << device.str();
      }
    }
    // Real to complex and back: the n / 2 + 1 frequencies, then n * x.
    Array real = fft(x, 1, FftKind::C2C, false).real().astype(DType::Float64);
    Array half = fft(real, 1, FftKind::R2C, false);
    EXPECT_EQ(half.shape()[1], n / 2 + 1);
    std::vector<double> back = values_of<double>(fft(half, 1, FftKind::C2R, true, n));
    std::vector<double> original = values_of<double>(real);
    for (size_t i = 0; i < back.size(); ++i) EXPECT_NEAR(back[i], n * original[i], 1e-9) << device.str();
    EXPECT_THROW(fft(half, 1, FftKind::C2R, true, n + 4), ValueError);
    EXPECT_THROW(fft(x, 1, FftKind::R2C, false), TypeError);
  }
}
