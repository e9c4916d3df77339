// Automatic fusion from the C++ API (kiln/fusion.hpp): a chain of ops is
// recorded, runs as one generated kernel when its memory is needed, gives
// what running the ops one by one gives, and a write into an input runs the
// graphs that read it first. On the CPU and every GPU present.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <vector>

#include "devices.hpp"
#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/fusion.hpp"
#include "kiln/ops.hpp"
#include "kiln/reductions.hpp"

using namespace kiln;

namespace {

// Every result recorded, each new graph compiled before it runs.
class Fusion : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/kiln-fusion-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    setenv("KILN_CACHE_DIR", dir, 1);
  }
  void SetUp() override {
    saved_ = fusion::settings();
    fusion::Settings s = saved_;
    s.enabled = true;
    s.cpu_min_size = 0;
    s.wait_for_compile = true;
    fusion::set_settings(s);
  }
  void TearDown() override { fusion::set_settings(saved_); }
  fusion::Settings saved_;
};

std::vector<double> values(const Array& a) {
  Array host = a.to(Device::cpu()).as_contiguous(DType::Float64);
  std::vector<double> v(static_cast<size_t>(host.size()));
  std::memcpy(v.data(), host.data(), v.size() * sizeof(double));
  return v;
}

Array expression(const Array& a) { return sin(a) * 2.0 + sqrt(abs(a)) - a * a; }

}  // namespace

TEST_F(Fusion, ChainRunsAsOneKernelWithOpByOpResults) {
  for (Device d : test_devices()) {
    Array a = linspace(Scalar::from_double(-3), Scalar::from_double(3), 1001).to(d);
    const fusion::Stats before = fusion::stats();
    Array fused = expression(a);
    EXPECT_TRUE(fusion::is_pending(fused)) << d.str();
    EXPECT_NE(fusion::pending_source(fused).find("kiln_fused"), std::string::npos);
    std::vector<double> got = values(fused);
    EXPECT_FALSE(fusion::is_pending(fused));
    EXPECT_EQ(fusion::stats().fused_launches, before.fused_launches + 1) << d.str();

    fusion::Settings off = fusion::settings();
    off.enabled = false;
    fusion::set_settings(off);
    std::vector<double> plain = values(expression(a));
    SetUp();
    ASSERT_EQ(got.size(), plain.size());
    EXPECT_EQ(std::memcmp(got.data(), plain.data(), got.size() * sizeof(double)), 0) << d.str();
  }
}

TEST_F(Fusion, ReductionOfAnExpressionNeverStoresIt) {
  for (Device d : test_devices()) {
    Array a = linspace(Scalar::from_double(-3), Scalar::from_double(3), 100001).astype(DType::Float32).to(d);
    const fusion::Stats before = fusion::stats();
    Array fused = expression(a);
    Array total = sum(fused);
    EXPECT_TRUE(fusion::is_pending(fused)) << d.str();  // its value was never stored
    EXPECT_EQ(fusion::stats().fused_reductions, before.fused_reductions + 1) << d.str();
    EXPECT_EQ(fusion::stats().fused_launches, before.fused_launches) << d.str();
    std::vector<double> got = values(total);  // a GPU's copy to the host runs what is pending (fused)

    fusion::Settings off = fusion::settings();
    off.enabled = false;
    fusion::set_settings(off);
    std::vector<double> plain = values(sum(expression(a)));
    SetUp();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(std::memcmp(got.data(), plain.data(), sizeof(double)), 0) << d.str() << " " << got[0] << " " << plain[0];
  }
}

TEST_F(Fusion, SafeCastsJoinTheGraphAndOthersRunAtOnce) {
  for (Device d : test_devices()) {
    Array a = linspace(Scalar::from_double(-3), Scalar::from_double(3), 1001).astype(DType::Float32).to(d);
    Array widened = (a * 2.0f).astype(DType::Float64);  // float32 -> float64 cannot change a value
    EXPECT_TRUE(fusion::is_pending(widened)) << d.str();
    EXPECT_EQ(fusion::pending_graph(widened).rfind("astype<float64>(", 0), 0u) << fusion::pending_graph(widened);
    Array truncated = (a * 2.0f).astype(DType::Int32);  // float -> int can
    EXPECT_FALSE(fusion::is_pending(truncated)) << d.str();

    std::vector<double> got = values(widened);
    fusion::Settings off = fusion::settings();
    off.enabled = false;
    fusion::set_settings(off);
    std::vector<double> plain = values((a * 2.0f).astype(DType::Float64));
    SetUp();
    ASSERT_EQ(got.size(), plain.size());
    EXPECT_EQ(std::memcmp(got.data(), plain.data(), got.size() * sizeof(double)), 0) << d.str();
  }
}

TEST_F(Fusion, WritingAnInputRunsItsReadersFirst) {
  for (Device d : test_devices()) {
    Array a = ones({64}, DType::Float32, d);
    Array b = a * 3.0f + 1.0f;  // recorded: reads a
    a.assign(Scalar::from_double(10));
    EXPECT_EQ(values(b), std::vector<double>(64, 4.0)) << d.str();
  }
}

TEST_F(Fusion, FlushRunsEverythingRecorded) {
  for (Device d : test_devices()) {
    Array a = ones({8}, DType::Float64, d);
    Array b = exp(a) - 1.0;
    ASSERT_TRUE(fusion::is_pending(b));
    fusion::flush();
    EXPECT_FALSE(fusion::is_pending(b));
  }
}

TEST_F(Fusion, ABorrowedOperandIsCopiedAsAnArrayOfItsOwn) {
  for (Device d : test_devices()) {
    Operand kept(0);
    Array recorded;
    {
      Array a = arange(Scalar::from_double(0), Scalar::from_double(6), Scalar::from_double(1), DType::Float64, d);
      const Operand borrowed = Operand::borrow(a);
      ASSERT_TRUE(borrowed.is_array());
      EXPECT_EQ(&borrowed.array(), &a);  // read in place
      kept = borrowed;                   // a copy owns its own Array
      EXPECT_NE(&kept.array(), &a);
      EXPECT_TRUE(kept.array().shares_buffer_with(a));
      recorded = apply(OpId::add, {Operand::borrow(a), Operand(1.0)});
      ASSERT_TRUE(fusion::is_pending(recorded));  // the recorded op copied its operand
    }
    EXPECT_EQ(values(kept.array()), (std::vector<double>{0, 1, 2, 3, 4, 5})) << d.str();
    EXPECT_EQ(values(recorded), (std::vector<double>{1, 2, 3, 4, 5, 6})) << d.str();
  }
}

TEST_F(Fusion, BadSettingsAreRefused) {
  fusion::Settings s = fusion::settings();
  s.max_inputs = 0;
  EXPECT_THROW(fusion::set_settings(s), ValueError);
}
