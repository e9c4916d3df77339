// Every kernel the CUDA backend can generate compiles with NVRTC for sm_90,
// and the disk cache returns, checks and repairs CUBINs. Needs NVRTC, not a GPU.
#ifdef KILN_WITH_CUDA
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../../src/core/fused_kernel.hpp"
#include "../../src/cuda/kernel_family_sources.hpp"
#include "../../src/cuda/kernel_source.hpp"
#include "../../src/cuda/module_cache.hpp"
#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/fusion.hpp"
#include "kiln/ops.hpp"

using namespace kiln;
using namespace kiln::cuda;

namespace {

constexpr int kHopper = 90;
// Transpose is a one-input layout: casts (copies) only.
constexpr Layout kLayouts[] = {Layout::Strided, Layout::Contiguous32, Layout::Contiguous64, Layout::Vector,
                               Layout::Strided2};

class CudaKernels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/kiln-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    setenv("KILN_CACHE_DIR", dir, 1);
  }
};

}  // namespace

// Compiles the programs on all cores (NVRTC is thread-safe); returns the
// names of those that failed, with their errors.
std::string compile_all(const std::vector<std::pair<std::string, std::string>>& programs,
                        Includes includes = Includes::Kiln) {
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::string failures;
  auto worker = [&] {
    for (size_t i = next++; i < programs.size(); i = next++) {
      try {
        cubin_for(programs[i].second, programs[i].first, kHopper, includes);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex);
        failures += programs[i].first + ": " + e.what() + "\n";
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  return failures;
}

TEST_F(CudaKernels, EveryElementwiseKernelCompiles) {
  std::vector<std::pair<std::string, std::string>> programs;
  for (int o = 0; o < kNumOps; ++o) {
    OpId op = static_cast<OpId>(o);
    std::string source = kernel_prelude();
    for (int d = 0; d < kNumDTypes; ++d)
      if (has_loop(op, static_cast<DType>(d)))
        for (Layout l : kLayouts) source += kernel_body(elementwise_spec(op, static_cast<DType>(d), l));
    programs.emplace_back(std::string(op_name(op)) + ".cu", source);
  }
  EXPECT_EQ(compile_all(programs), "");
}

TEST_F(CudaKernels, EveryCastFillAndIotaKernelCompiles) {
  std::vector<std::pair<std::string, std::string>> programs;
  for (int f = 0; f < kNumDTypes; ++f) {
    std::string source = kernel_prelude();
    for (int t = 0; t < kNumDTypes; ++t) {
      for (Layout l : kLayouts) source += kernel_body(cast_spec(static_cast<DType>(f), static_cast<DType>(t), l));
      source += kernel_body(cast_spec(static_cast<DType>(f), static_cast<DType>(t), Layout::Transpose));
    }
    for (Layout l : kLayouts) source += kernel_body(fill_spec(static_cast<DType>(f), l));
    if (!is_complex(static_cast<DType>(f))) source += kernel_body(iota_spec(static_cast<DType>(f)));
    programs.emplace_back("casts_from_" + std::string(name(static_cast<DType>(f))) + ".cu", source);
  }
  EXPECT_EQ(compile_all(programs), "");
}

TEST_F(CudaKernels, EveryReductionKernelCompiles) {
  const char* reductions[] = {"sum", "prod", "min", "max", "argmin", "argmax", "squared_deviations"};
  std::vector<std::pair<std::string, std::string>> programs;
  for (int d = 0; d < kNumDTypes; ++d) {
    DType dt = static_cast<DType>(d);
    for (const char* op : reductions)
      programs.emplace_back(std::string(op) + "_" + std::string(name(dt)) + ".cu", reduce_source(op, dt, "k"));
  }
  for (DType dt : {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32, DType::UInt32})
    programs.emplace_back("widening_sum_" + std::string(name(dt)) + ".cu", reduce_source("widening_sum", dt, "k"));
  programs.emplace_back("any.cu", reduce_source("any", DType::Bool, "k"));
  programs.emplace_back("all.cu", reduce_source("all", DType::Bool, "k"));
  EXPECT_EQ(compile_all(programs), "");
}

// Reductions of fused expressions (src/core/fused_kernel.cpp): the input
// that computes each element, for each dtype, over contiguous inputs and
// over broadcast and strided ones (the reductions' templates are those of
// the test above), and every reduction over a few dtypes.
TEST_F(CudaKernels, EveryFusedReductionInputCompiles) {
  fusion::Settings saved = fusion::settings(), s = saved;
  s.enabled = true;
  s.cpu_min_size = 0;
  fusion::set_settings(s);
  std::vector<std::pair<std::string, std::string>> programs;
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dt = static_cast<DType>(d);
    const bool is_bool = dt == DType::Bool;
    const Array x = zeros({8, 6}, dt), row = zeros({6}, dt), half = x.index({Slice{0, 8, 2}});
    const Array dense = is_bool ? logical_xor(x, x) : subtract(add(x, x), x);
    const Array strided = is_bool ? logical_and(half, row) : add(half, row);
    std::vector<int> folds = {is_bool ? int(ReduceOp::any) : int(ReduceOp::sum)};
    if (dt == DType::Bool || dt == DType::Int8 || dt == DType::Float32 || dt == DType::Complex128) {
      folds = {int(ReduceOp::min), int(ReduceOp::max), int(ReduceOp::argmin), int(ReduceOp::argmax),
               int(ReduceOp::squared_deviations)};
      if (is_bool) folds.insert(folds.end(), {int(ReduceOp::any), int(ReduceOp::all), fusion::kWideningSum});
      else folds.insert(folds.end(), {int(ReduceOp::sum), int(ReduceOp::prod)});
      if (dt == DType::Int8) folds.push_back(fusion::kWideningSum);
    }
    for (const Array* a : {&dense, &strided}) {
      ASSERT_TRUE(fusion::is_pending(*a));
      for (int fold : folds)
        programs.emplace_back("fused_" + std::to_string(fold) + "_" + std::string(name(dt)) +
                                  (a == &dense ? "" : "_strided") + ".cu",
                              fusion::fused_reduction_source(*a->buffer()->pending()->root(), fold));
    }
  }
  fusion::set_settings(saved);
  EXPECT_EQ(compile_all(programs), "");
}

// The hand-written families: counting, gather/scatter, random draws, sort helpers, binary search,
// integer matrix products, Householder's Q, slogdet's tail and the tiny matrices' inverse and Cholesky.
TEST_F(CudaKernels, EveryKernelFamilyCompiles) {
  EXPECT_EQ(compile_all({{"counting.cu", counting_kernel_source()},
                         {"gather.cu", gather_kernel_source()},
                         {"random.cu", random_kernel_source()},
                         {"sort.cu", sort_kernel_source()},
                         {"matmul.cu", matmul_kernel_source()},
                         {"householder.cu", householder_kernel_source()},
                         {"lu_determinant.cu", lu_determinant_kernel_source()},
                         {"small_matrix.cu", small_matrix_kernel_source()}}),
            "");
}

// The kernels kiln.scipy launches from its own headers (the distance
// transform's lower envelope, the rational filters' recurrences, the walks
// from peaks, the one-axis correlations, the spline interpolation, the
// connected components, the Bessel functions of real order): NVRTC compiles
// them when first used on a GPU, so compile them here without one.
TEST_F(CudaKernels, EveryScipyKernelHeaderCompiles) {
  EXPECT_EQ(compile_all({{"distance_transform.cu", "#include <kiln/device/distance_transform.cuh>\n"},
                         {"linear_filter.cu", "#include <kiln/device/linear_filter.cuh>\n"},
                         {"peak_finding.cu", "#include <kiln/device/peak_finding.cuh>\n"},
                         {"correlate1d.cu", "#include <kiln/device/correlate1d.cuh>\n"},
                         {"spline_interpolation.cu", "#include <kiln/device/spline_interpolation.cuh>\n"},
                         {"connected_components.cu", "#include <kiln/device/connected_components.cuh>\n"},
                         {"bessel_real_order.cu", "#include <kiln/device/bessel_real_order.cuh>\n"}}),
            "");
}

// Scans include CUB, found at run time as users' machines will find it.
TEST_F(CudaKernels, EveryScanKernelCompilesWithCub) {
  std::vector<std::pair<std::string, std::string>> programs;
  for (int d = 0; d < kNumDTypes; ++d) {
    DType dt = static_cast<DType>(d);
    programs.emplace_back("cumsum_" + std::string(name(dt)) + ".cu", scan_source(false, dt, "k"));
    programs.emplace_back("cumprod_" + std::string(name(dt)) + ".cu", scan_source(true, dt, "k"));
  }
  EXPECT_EQ(compile_all(programs, Includes::KilnAndCccl), "");
}

TEST_F(CudaKernels, DiskCacheReturnsChecksAndRepairs) {
  std::string source = kernel_prelude() + kernel_body(elementwise_spec(OpId::add, DType::Float32, Layout::Strided)) +
                       "// cache test\n";
  std::string first = cubin_for(source, "cache.cu", kHopper);
  EXPECT_EQ(cubin_for(source, "cache.cu", kHopper), first);
  // Corrupt every cached file: the next lookup must recompile, not trust it.
  std::string dir = cache_directory();
  std::string cmd = "for f in '" + dir + "'/*.cubin; do printf 'garbage' | dd of=\"$f\" bs=1 seek=40 conv=notrunc 2>/dev/null; done";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(cubin_for(source, "cache.cu", kHopper), first);
}

// The compiler's identity is kept beside the kernels, so that a process whose
// kernels are all cached never loads NVRTC (tested across processes on the GPU).
TEST_F(CudaKernels, DiskCacheRecordsTheCompilerItUsed) {
  cubin_for(kernel_prelude() + "// identity test\n", "identity.cu", kHopper);
  std::ifstream record(cache_directory() + "/nvrtc-identity");
  std::string library, version, fingerprint;
  ASSERT_TRUE(std::getline(record, library) && std::getline(record, version) && std::getline(record, fingerprint));
  EXPECT_NE(library.find("libnvrtc"), std::string::npos) << library;
  EXPECT_EQ(version.find('.'), version.find_first_not_of("0123456789")) << version;
  EXPECT_EQ(fingerprint.rfind("LD_LIBRARY_PATH=", 0), 0u) << fingerprint;
}

TEST_F(CudaKernels, CompileErrorsCarryTheLogAndSource) {
  try {
    cubin_for(kernel_prelude() + "extern \"C\" __global__ void k() { undefined_name(); }\n", "bad.cu", kHopper);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("undefined_name"), std::string::npos) << what;
    EXPECT_NE(what.find(">"), std::string::npos) << what;
  }
}
#endif  // KILN_WITH_CUDA
