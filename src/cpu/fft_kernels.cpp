// Fourier transforms on the CPU through the FFTW3 interface, loaded with
// dlopen on first use (kiln links no FFT library). Plans are made with
// FFTW_ESTIMATE (no trial runs) for each call's arrays and destroyed after
// it; the planner is not thread-safe, so planning holds a lock. Where the
// library offers FFTW's threads interface (MKL's does; FFTW's own is its
// libfftw3_threads companion), a large transform is planned over kiln's CPU
// threads: single-threaded, a million-point transform took longer than
// SciPy's pocketfft on a 16-core host.
#include <dlfcn.h>

#include <complex>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend.hpp"
#include "kiln/device.hpp"
#include "kiln/error.hpp"
#include "kiln/fft.hpp"
#include "library_search.hpp"

namespace kiln::cpu {
namespace {

constexpr int kForward = -1, kBackward = +1;
constexpr unsigned kEstimate = 1u << 6;

// One precision of the FFTW3 interface (R: float or double).
template <class R>
struct Fftw {
  using Complex = R[2];
  using Plan = void*;
  Plan (*plan_c2c)(int, const int*, int, Complex*, const int*, int, int, Complex*, const int*, int, int, int,
                   unsigned) = nullptr;
  Plan (*plan_r2c)(int, const int*, int, R*, const int*, int, int, Complex*, const int*, int, int, unsigned) = nullptr;
  Plan (*plan_c2r)(int, const int*, int, Complex*, const int*, int, int, R*, const int*, int, int, unsigned) = nullptr;
  void (*execute)(Plan) = nullptr;
  void (*destroy)(Plan) = nullptr;
  void (*plan_with_nthreads)(int) = nullptr;  // null: plans run on the calling thread
  std::string path;
};

// FFTW's threads interface, from the library itself (MKL) or FFTW's
// companion library; initialised once, or left out where it fails.
template <class R>
void resolve_threads(void* lib, const char* prefix, Fftw<R>& f) {
  const std::string init_name = std::string(prefix) + "init_threads";
  const std::string plan_name = std::string(prefix) + "plan_with_nthreads";
  void* init = dlsym(lib, init_name.c_str());
  void* plan = dlsym(lib, plan_name.c_str());
  if (!init || !plan) {
    void* threads = dlopen(sizeof(R) == 4 ? "libfftw3f_threads.so.3" : "libfftw3_threads.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!threads) return;
    init = dlsym(threads, init_name.c_str());
    plan = dlsym(threads, plan_name.c_str());
  }
  if (init && plan && reinterpret_cast<int (*)()>(init)() != 0)
    f.plan_with_nthreads = reinterpret_cast<void (*)(int)>(plan);
}

template <class R>
bool resolve(void* lib, const char* prefix, Fftw<R>& f) {
  auto sym = [&](const char* name) { return dlsym(lib, (std::string(prefix) + name).c_str()); };
  f.plan_c2c = reinterpret_cast<decltype(f.plan_c2c)>(sym("plan_many_dft"));
  f.plan_r2c = reinterpret_cast<decltype(f.plan_r2c)>(sym("plan_many_dft_r2c"));
  f.plan_c2r = reinterpret_cast<decltype(f.plan_c2r)>(sym("plan_many_dft_c2r"));
  f.execute = reinterpret_cast<decltype(f.execute)>(sym("execute"));
  f.destroy = reinterpret_cast<decltype(f.destroy)>(sym("destroy_plan"));
  if (!(f.plan_c2c && f.plan_r2c && f.plan_c2r && f.execute && f.destroy)) return false;
  resolve_threads(lib, prefix, f);
  return true;
}

template <class R>
const Fftw<R>& fftw() {
  static const Fftw<R>* loaded = [] {
    constexpr bool single = sizeof(R) == 4;
    const char* prefix = single ? "fftwf_" : "fftw_";
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("KILN_FFT_LIBRARY")) candidates.push_back(env);
    candidates.push_back(single ? "libfftw3f.so.3" : "libfftw3.so.3");
    candidates.push_back("libmkl_rt.so.2");
    candidates.push_back("libmkl_rt.so");
    return open_first<Fftw<R>>(
        candidates, [&](void* lib, Fftw<R>& f) { return resolve(lib, prefix, f); }, "lacks the FFTW3 interface",
        std::string("kiln found no FFT library for the CPU; install FFTW (e.g. the ") +
            (single ? "libfftw3-single3" : "libfftw3-double3") +
            " package) or set KILN_FFT_LIBRARY to a library with the FFTW3 interface.");
  }();
  return *loaded;
}

std::mutex planner;

template <class R>
void transform(const FftArgs& a) {
  const Fftw<R>& f = fftw<R>();
  using Complex = typename Fftw<R>::Complex;
  int n[3];
  for (int i = 0; i < a.rank; ++i) {
    if (a.n[i] > INT32_MAX) throw ValueError("fft on the CPU: a length of " + std::to_string(a.n[i]) + " is too long");
    n[i] = static_cast<int>(a.n[i]);
  }
  if (a.batch > INT32_MAX) throw ValueError("fft on the CPU: too many transforms in one call");
  const int batch = static_cast<int>(a.batch);
  int64_t real_points = 1;
  for (int i = 0; i < a.rank; ++i) real_points *= a.n[i];
  const int complex_points = static_cast<int>(real_points / a.n[a.rank - 1] * (a.n[a.rank - 1] / 2 + 1));
  auto* in = const_cast<char*>(a.in);
  void* plan = nullptr;
  {
    std::lock_guard<std::mutex> lock(planner);
    // threads pay from about 32k points a call (below, their start-up is most of the time)
    if (f.plan_with_nthreads) f.plan_with_nthreads(real_points * a.batch >= (1 << 15) ? cpu_thread_count() : 1);
    switch (static_cast<FftKind>(a.kind)) {
      case FftKind::C2C:
        plan = f.plan_c2c(a.rank, n, batch, reinterpret_cast<Complex*>(in), nullptr, 1, static_cast<int>(real_points),
                          reinterpret_cast<Complex*>(a.out), nullptr, 1, static_cast<int>(real_points),
                          a.inverse ? kBackward : kForward, kEstimate);
        break;
      case FftKind::R2C:
        plan = f.plan_r2c(a.rank, n, batch, reinterpret_cast<R*>(in), nullptr, 1, static_cast<int>(real_points),
                          reinterpret_cast<Complex*>(a.out), nullptr, 1, complex_points, kEstimate);
        break;
      case FftKind::C2R:
        plan = f.plan_c2r(a.rank, n, batch, reinterpret_cast<Complex*>(in), nullptr, 1, complex_points,
                          reinterpret_cast<R*>(a.out), nullptr, 1, static_cast<int>(real_points), kEstimate);
        break;
    }
  }
  if (!plan) throw std::runtime_error("fft on the CPU: " + f.path + " could not plan the transform");
  f.execute(plan);
  std::lock_guard<std::mutex> lock(planner);
  f.destroy(plan);
}

void fft_entry(const FftArgs& a) {
  if (a.double_precision) transform<double>(a);
  else transform<float>(a);
}

}  // namespace

void register_fft_kernels(KernelTable& t) { t.fft = &fft_entry; }

}  // namespace kiln::cpu

namespace kiln {

std::string fft_library_path() {
  try {
    return cpu::fftw<double>().path;
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace kiln
