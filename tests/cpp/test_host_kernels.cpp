// CUDA C compiled for the CPU: barrier-free kernels, barriers through fibers,
// dynamic shared memory, atomics, templates, and the errors.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <numeric>
#include <string>
#include <vector>

#include "../../src/cpu/host_compiler.hpp"
#include "../../src/cpu/parallel.hpp"
#include "kiln/error.hpp"

using namespace kiln;

namespace {

class HostKernels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/kiln-host-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    setenv("KILN_CACHE_DIR", dir, 1);
  }
};

void launch(const cpu::HostModule& m, size_t kernel, unsigned grid, unsigned block, size_t shared,
            std::vector<void*> args) {
  unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  cpu::launch_host(m, kernel, g, b, shared, args.data());
}

}  // namespace

TEST_F(HostKernels, VectorAddRunsWithoutFibers) {
  auto m = cpu::load_host_module(R"(
extern "C" __global__ void add(const float* __restrict__ x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
})", {}, {"add"});
  EXPECT_FALSE(m->uses_barriers);
  std::vector<float> x(1000), y(1000), out(1000);
  std::iota(x.begin(), x.end(), 0.0f);
  std::iota(y.begin(), y.end(), 1.0f);
  const float *px = x.data(), *py = y.data();
  float* po = out.data();
  int n = 1000;
  launch(*m, 0, 4, 256, 0, {&px, &py, &po, &n});
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2.0f * i + 1.0f);
}

TEST_F(HostKernels, BlockReductionWithBarriersAndDynamicSharedMemory) {
  auto m = cpu::load_host_module(R"(
template <class T>
__global__ void block_sum(const T* in, T* out, int n) {
  extern __shared__ __align__(16) unsigned char raw[];
  T* buf = reinterpret_cast<T*>(raw);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, buf[0]);
})", {"-DUNUSED=1", "--use_fast_math"}, {"block_sum<double>", "block_sum<int>"});
  EXPECT_TRUE(m->uses_barriers);
  EXPECT_TRUE(m->blockwise.at(0) && m->blockwise.at(1));  // split at its barriers (barrier_regions.cpp)
  std::vector<int> in(10000);
  std::iota(in.begin(), in.end(), 0);
  int total = 0, n = 10000;
  const int* pin = in.data();
  int* pout = &total;
  launch(*m, 1, 40, 256, 256 * sizeof(int), {&pin, &pout, &n});
  EXPECT_EQ(total, 10000 * 9999 / 2);
}

// Which kernels barrier_regions.cpp splits: barriers as statements in if,
// for, while and do (with return, break and continue around them) are
// split, `auto` locals across them too; a barrier in a device function, a
// warp vote or shuffle keep fibers, and so does a kernel whose rewrite does
// not compile (a local across a barrier that a macro declares) while its
// neighbours stay split.
TEST_F(HostKernels, KernelsWithBarriersRunBlockwiseWhereTheyCanBeSplit) {
  auto m = cpu::load_host_module(R"(
#define DECLARE(name) float name = threadIdx.x
__device__ void meet() { __syncthreads(); }
extern "C" __global__ void split(int* p, int n) {
  __shared__ int s[64];
  for (int i = 0; i < n; ++i) {
    if (i == 2) continue;
    s[threadIdx.x] = i;
    __syncthreads();
    if (threadIdx.x >= 60) return;
    p[threadIdx.x] += s[63 - threadIdx.x];
    __syncthreads();
  }
}
extern "C" __global__ void via_function(int* p) { meet(); p[threadIdx.x] = 1; __syncthreads(); }
extern "C" __global__ void vote(int* p) { __syncthreads(); p[threadIdx.x] = __syncthreads_or(threadIdx.x == 3); }
extern "C" __global__ void shuffle(int* p) { __syncthreads(); p[threadIdx.x] = __shfl_sync(~0u, 7, 0); }
extern "C" __global__ void automatic(int* p) { auto v = threadIdx.x; __syncthreads(); p[v] = 2; }
extern "C" __global__ void macro(float* p) { DECLARE(v); __syncthreads(); p[threadIdx.x] = v; }
)", {}, {"split", "via_function", "vote", "shuffle", "automatic", "macro"});
  EXPECT_EQ(m->blockwise, (std::vector<bool>{true, false, false, false, true, false}));
  std::vector<int> out(64, 0);
  int* po = out.data();
  int n = 4;
  launch(*m, 0, 1, 64, 0, {&po, &n});
  // i = 0, 1, 3 (2 continued); threads 60-63 return in the first round, after
  // which the shared slots that 0-3 read keep its 0.
  for (int t = 4; t < 60; ++t) EXPECT_EQ(out[t], 0 + 1 + 3) << t;
  for (int t : {0, 3, 60, 63}) EXPECT_EQ(out[t], 0) << t;
  for (size_t k = 1; k < 5; ++k) {
    std::vector<int> each(64, 0);
    int* pe = each.data();
    launch(*m, k, 1, 64, 0, {&pe});
    EXPECT_EQ(each[3], k == 1 ? 1 : k == 2 ? 1 : k == 3 ? 7 : 2) << k;
  }
  std::vector<float> v(64);
  float* pv = v.data();
  launch(*m, 5, 1, 64, 0, {&pv});
  EXPECT_EQ(v[9], 9.0f);
}

TEST_F(HostKernels, CompileErrorsQuoteTheUsersLines) {
  try {
    cpu::load_host_module("__global__ void k(int* p) {\n  *p = undefined_name;\n}\n", {}, {"k"});
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("undefined_name"), std::string::npos) << what;
    EXPECT_NE(what.find(">2: "), std::string::npos) << what;
  }
}

TEST_F(HostKernels, WarpShufflesExchangeBetweenLanes) {
  auto m = cpu::load_host_module(R"(
    extern "C" __global__ void k(int* p) {
      int v = threadIdx.x;
      for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
      p[threadIdx.x] = __shfl_sync(0xffffffffu, v, 0);
    })", {}, {"k"});
  std::vector<int> out(64);
  int* po = out.data();
  launch(*m, 0, 1, 64, 0, {&po});
  EXPECT_EQ(out[0], 31 * 32 / 2);             // lanes 0..31
  EXPECT_EQ(out[63], (32 + 63) * 32 / 2);     // lanes 32..63: the second warp
}

TEST_F(HostKernels, FaultsBecomeKernelErrors) {
  auto m = cpu::load_host_module("extern \"C\" __global__ void k(int* p) { p[threadIdx.x] = 1; }", {}, {"k"});
  int* bad = reinterpret_cast<int*>(uintptr_t{16});  // an unmapped page
  try {
    launch(*m, 0, 1, 4, 0, {&bad});
    FAIL() << "expected KernelError";
  } catch (const KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("segmentation fault"), std::string::npos) << e.what();
  }
  std::vector<int> fine(4);
  int* pf = fine.data();
  launch(*m, 0, 1, 4, 0, {&pf});  // and kernels go on running
  EXPECT_EQ(fine[3], 1);
}

TEST_F(HostKernels, BadLaunchShapesNameTheLimit) {
  auto m = cpu::load_host_module("__global__ void k(int* p) {}", {}, {"k"});
  int* p = nullptr;
  EXPECT_THROW(launch(*m, 0, 1, 2048, 0, {&p}), ValueError);
  EXPECT_THROW(launch(*m, 0, 1, 32, size_t{1} << 30, {&p}), ValueError);
}

namespace {

// Random kernels whose barriers stand in uniform control flow (the shapes
// barrier_regions.cpp splits: if, for, while and do around barriers, with
// breaks the whole block takes, per-thread returns and trailing continues,
// locals that cross barriers), for a differential test of the blockwise
// form against fibers.
class KernelWriter {
 public:
  explicit KernelWriter(unsigned seed) : state_(seed * 2654435761u + 1) {}

  std::string kernel() {
    body_.clear();
    emit("unsigned acc = in[blockIdx.x * 64 + threadIdx.x];");
    exchange();
    statements(0, false);
    emit("out[blockIdx.x * 64 + threadIdx.x] = acc;");
    return "extern \"C\" __global__ void k(unsigned* out, const unsigned* in) {\n  __shared__ unsigned s[64];\n"
           "  const unsigned t = threadIdx.x;\n" + body_ + "}\n";
  }

 private:
  unsigned next(unsigned n) {
    state_ = state_ * 1103515245u + 12345u;
    return (state_ >> 8) % n;
  }
  std::string num(unsigned n) { return std::to_string(next(n) + 1); }
  void emit(const std::string& line) { body_ += std::string(2 * (depth_ + 1), ' ') + line + "\n"; }

  // One shared-memory exchange, barriers around it.
  void exchange() {
    const std::string v = "v" + std::to_string(++names_);
    emit("unsigned " + v + " = acc * " + num(7) + "u + t;");
    emit("s[t] = " + v + ";");
    emit("__syncthreads();");
    emit("acc = acc * " + num(5) + "u + s[(t + " + num(63) + ") % 64] + " + v + ";");
    emit("__syncthreads();");
  }

  void statements(int level, bool in_loop) {
    const unsigned count = 1 + next(3);
    for (unsigned i = 0; i < count; ++i) {
      const unsigned pick = level >= 2 ? next(3) : next(8);
      if (pick == 0) {
        exchange();
      } else if (pick == 1) {
        emit("if ((acc ^ t) % " + num(5) + "u == 0u) acc += " + num(100) + "u; else acc ^= " + num(255) + "u;");
      } else if (pick == 2) {
        emit("if (acc % " + num(13) + "u == 3u) { out[blockIdx.x * 64 + t] = acc + 7u; return; }");
      } else if (pick == 3) {
        emit("if ((blockIdx.x + " + num(3) + "u) % 2u == 0u) {");
        nested(level, in_loop);
        emit("} else {");
        nested(level, in_loop);
        emit("}");
      } else if (pick == 4 || pick == 5) {
        const std::string i = "i" + std::to_string(++names_);
        emit("for (unsigned " + i + " = 0; " + i + " < " + num(3) + "u; ++" + i + ") {");
        nested(level, true);
        emit("  if (" + i + " == " + num(4) + "u + blockIdx.x) break;");
        emit("  acc += " + i + ";");
        emit("  if (acc % 3u == 1u) continue;");
        emit("  acc ^= 5u;");
        emit("}");
      } else if (pick == 6) {
        const std::string w = "w" + std::to_string(++names_);
        emit("unsigned " + w + " = " + num(3) + "u;");
        emit("while (" + w + " > 0u) {");
        nested(level, true);
        emit("  " + w + " -= 1u;");
        emit("}");
      } else {
        const std::string w = "d" + std::to_string(++names_);
        emit("unsigned " + w + " = blockIdx.x % 2u;");
        emit("do {");
        nested(level, true);
        emit("  " + w + " += 1u;");
        emit("} while (" + w + " < 2u);");
      }
    }
    (void)in_loop;
  }
  void nested(int level, bool in_loop) {
    ++depth_;
    statements(level + 1, in_loop);
    --depth_;
  }

  unsigned state_;
  int depth_ = 0, names_ = 0;
  std::string body_;
};

}  // namespace

// The blockwise form gives what fibers give, bit for bit, over random
// kernels of the shapes it splits; each of them does run blockwise.
TEST_F(HostKernels, BlockwiseKernelsAgreeWithFibers) {
  std::vector<unsigned> in(3 * 64);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned>(i * 2654435761u >> 7);
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const std::string source = KernelWriter(seed).kernel();
    // A statement macro keeps a kernel from being split: the same kernel as fibers.
    const std::string fibers = "#define KILN_TEST_AS_FIBERS ;\n" + source;
    const size_t body = fibers.find("__shared__");
    auto split = cpu::load_host_module(source, {}, {"k"});
    auto whole = cpu::load_host_module(fibers.substr(0, body) + "KILN_TEST_AS_FIBERS " + fibers.substr(body), {}, {"k"});
    ASSERT_TRUE(split->blockwise.at(0)) << source;
    ASSERT_FALSE(whole->blockwise.at(0));
    std::vector<unsigned> a(in.size()), b(in.size());
    const unsigned* pin = in.data();
    unsigned *pa = a.data(), *pb = b.data();
    launch(*split, 0, 3, 64, 0, {&pa, &pin});
    launch(*whole, 0, 3, 64, 0, {&pb, &pin});
    EXPECT_EQ(a, b) << source;
  }
}

// A loop split evenly over every core waits for the share on a core a
// compiler holds, so loops take one thread fewer while kiln runs one.
TEST(ParallelLoops, ACompilerRunningTakesOneThreadFromTheLoops) {
  const int all = kiln::cpu::max_threads();
  EXPECT_EQ(kiln::cpu::loop_threads(), all);
  {
    kiln::cpu::CompilerRunning running;
    EXPECT_EQ(kiln::cpu::loop_threads(), std::max(1, all - 1));
    int threads_seen = 0;
    kiln::cpu::parallel_for(int64_t{1} << 20, 1, [&](int64_t, int64_t) {
#pragma omp atomic
      ++threads_seen;
    });
    EXPECT_EQ(threads_seen, std::max(1, all - 1));
  }
  EXPECT_EQ(kiln::cpu::loop_threads(), all);
}
