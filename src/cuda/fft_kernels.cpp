// Fourier transforms on the GPU through cuFFT. Plans are cached per device
// and shape (making one costs far more than running a small transform), the
// least recently used dropped beyond kMaxPlans; a plan runs under the cache's
// lock, since a cuFFT plan is bound to one stream at a time.
#include <cstring>
#include <list>
#include <mutex>
#include <string>

#include "backend.hpp"
#include "context.hpp"
#include "cufft.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "kiln/fft.hpp"

namespace kiln::cuda {
namespace {

constexpr size_t kMaxPlans = 32;

struct PlanKey {
  int device;
  uint8_t kind;
  bool double_precision;
  int rank;
  int64_t n[3];
  int64_t batch;
  bool operator==(const PlanKey& o) const {
    return device == o.device && kind == o.kind && double_precision == o.double_precision && rank == o.rank &&
           batch == o.batch && std::memcmp(n, o.n, sizeof(n)) == 0;
  }
};

struct CachedPlan {
  PlanKey key;
  cufftHandle handle;
};

std::mutex cache_mutex;
std::list<CachedPlan> cache;  // most recently used first

int fits_int(int64_t v, const char* what) {
  if (v > INT32_MAX) throw ValueError(std::string("fft on CUDA: ") + what + " does not fit cuFFT's int");
  return static_cast<int>(v);
}

cufftType type_of(const FftArgs& a) {
  switch (static_cast<FftKind>(a.kind)) {
    case FftKind::C2C: return a.double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    case FftKind::R2C: return a.double_precision ? CUFFT_D2Z : CUFFT_R2C;
    default: return a.double_precision ? CUFFT_Z2D : CUFFT_C2R;
  }
}

// The plan for `key`, made on a miss; the caller holds cache_mutex.
cufftHandle plan_for(const FftArgs& a, const PlanKey& key) {
  for (auto it = cache.begin(); it != cache.end(); ++it)
    if (it->key == key) {
      cache.splice(cache.begin(), cache, it);
      return it->handle;
    }
  int n[3];
  for (int i = 0; i < a.rank; ++i) n[i] = fits_int(a.n[i], "a transform length");
  cufftHandle handle = 0;
  check(cufft().cufftPlanMany(&handle, a.rank, n, nullptr, 1, 0, nullptr, 1, 0, type_of(a),
                              fits_int(a.batch, "the number of transforms")),
        "cufftPlanMany");
  cache.push_front({key, handle});
  if (cache.size() > kMaxPlans) {
    cufft().cufftDestroy(cache.back().handle);
    cache.pop_back();
  }
  return handle;
}

void fft_entry(const FftArgs& a) {
  PlanKey key{a.device, a.kind, a.double_precision, a.rank, {a.n[0], a.n[1], a.n[2]}, a.batch};
  ContextScope scope(a.device);
  std::lock_guard<std::mutex> lock(cache_mutex);
  const Cufft& api = cufft();
  cufftHandle plan = plan_for(a, key);
  check(api.cufftSetStream(plan, reinterpret_cast<cudaStream_t>(current_stream_handle(a.device))), "cufftSetStream");
  void* in = const_cast<char*>(a.in);
  void* out = a.out;
  const int direction = a.inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  switch (type_of(a)) {
    case CUFFT_C2C:
      check(api.cufftExecC2C(plan, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), direction),
            "cufftExecC2C");
      break;
    case CUFFT_Z2Z:
      check(api.cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out),
                             direction),
            "cufftExecZ2Z");
      break;
    case CUFFT_R2C:
      check(api.cufftExecR2C(plan, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)), "cufftExecR2C");
      break;
    case CUFFT_D2Z:
      check(api.cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out)),
            "cufftExecD2Z");
      break;
    case CUFFT_C2R:
      check(api.cufftExecC2R(plan, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)), "cufftExecC2R");
      break;
    default:
      check(api.cufftExecZ2D(plan, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out)),
            "cufftExecZ2D");
  }
}

}  // namespace

void register_fft_kernels(KernelTable& t) { t.fft = &fft_entry; }

}  // namespace kiln::cuda
