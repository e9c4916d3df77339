// kiln::RawKernel, the C++ API for CUDA C kernels: the same source on the CPU
// and on every GPU present, arguments as arrays and values, and the errors.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "devices.hpp"
#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/raw_kernel.hpp"
#ifdef KILN_WITH_CUDA
#include "kiln/cuda.hpp"
#endif

using namespace kiln;

namespace {

const char* const kScaleAdd = R"(
template <class T>
__global__ void scale_add(const T* x, T* out, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += factor * x[i];
}
extern "C" __global__ void block_sums(const int* x, int* out) {
  extern __shared__ int part[];
  part[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
})";

class RawKernelApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/kiln-raw-kernel-api-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    setenv("KILN_CACHE_DIR", dir, 1);
  }
};

}  // namespace

TEST_F(RawKernelApi, TemplateKernelWithArraysAndValues) {
  RawKernel kernel(kScaleAdd, "scale_add<double>");
  for (Device device : test_devices()) {
    const int n = 1000;
    Array x = arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Float64, device);
    Array out = full({n}, Scalar::from_double(1.0), DType::Float64, device);
    kernel(device, {(n + 127) / 128}, {128}, 0, x, out, 2.5, n);
    Array host = out.to(Device::cpu());
    const double* v = reinterpret_cast<const double*>(host.data());
    for (int i = 0; i < n; ++i) ASSERT_EQ(v[i], 1.0 + 2.5 * i) << device.str() << " element " << i;
  }
}

TEST_F(RawKernelApi, SharedMemoryAndBarriers) {
  RawKernel kernel(kScaleAdd, "block_sums");
  for (Device device : test_devices()) {
    Array x = full({4 * 64}, Scalar::from_int(3), DType::Int32, device);
    Array out = zeros({4}, DType::Int32, device);
    kernel(device, {4}, {64}, 64 * sizeof(int), x, out);
    Array host = out.to(Device::cpu());
    for (int b = 0; b < 4; ++b) EXPECT_EQ(reinterpret_cast<const int*>(host.data())[b], 3 * 64) << device.str();
  }
}

TEST_F(RawKernelApi, ErrorsAreExceptions) {
  EXPECT_THROW(RawKernel("", ""), ValueError);
  RawKernel broken("extern \"C\" __global__ void f(int* p) { p[0] = undeclared; }", "f");
  Array p = zeros({1}, DType::Int32);
  EXPECT_THROW(broken(Device::cpu(), {1}, {1}, 0, p), CompileError);
  RawKernel kernel(kScaleAdd, "block_sums");
  Array x = zeros({64}, DType::Int32);
  EXPECT_THROW(kernel(Device::cpu(), {1}, {0}, 0, x, x), ValueError);  // an empty block
#ifdef KILN_WITH_CUDA
  if (cuda::device_count() > 0) EXPECT_THROW(kernel(Device::cuda(0), {1}, {64}, 256, x, x), TypeError);
#endif
}

// One module, several kernels: a name expression for the template, the
// plain kernels by their symbols, a __device__ variable, one compile a device.
TEST_F(RawKernelApi, ModuleWithNameExpressionsPlainKernelsAndGlobals) {
  const std::string source = std::string(kScaleAdd) + R"(
__device__ int counter = 41;
extern "C" __global__ void bump(int* out) { out[0] = ++counter; }
extern "C" __global__ void __launch_bounds__(64) launch_bounded(int* out) { out[threadIdx.x] = 7; }
)";
  RawModule module(source, {"-DUNUSED=1"}, {"scale_add<float>"});
  for (Device device : test_devices()) {
    auto [address, size] = module.global(device, "counter");
    EXPECT_NE(address, nullptr) << device.str();
    EXPECT_EQ(size, sizeof(int)) << device.str();
    Array out = zeros({1}, DType::Int32, device);
    module.function("bump")(device, {1}, {1}, 0, out);
    EXPECT_EQ(reinterpret_cast<const int*>(out.to(Device::cpu()).data())[0], 42) << device.str();
    Array x = full({8}, Scalar::from_double(2.0), DType::Float32, device);
    Array y = zeros({8}, DType::Float32, device);
    module.function("scale_add<float>")(device, {1}, {8}, 0, x, y, 3.0f, 8);
    EXPECT_EQ(reinterpret_cast<const float*>(y.to(Device::cpu()).data())[7], 6.0f) << device.str();
    Array seven = zeros({64}, DType::Int32, device);
    module.function("launch_bounded")(device, {1}, {64}, 0, seven);
    EXPECT_EQ(reinterpret_cast<const int*>(seven.to(Device::cpu()).data())[63], 7) << device.str();
    EXPECT_EQ(module.compiled(device), module.compiled(device)) << "compiled once per device";
    EXPECT_THROW(module.function("missing")(device, {1}, {1}, 0, out), ValueError) << device.str();
    EXPECT_THROW(module.global(device, "missing"), ValueError) << device.str();
    EXPECT_NE(module.function("bump").handle(device), module.function("block_sums").handle(device));
  }
}
