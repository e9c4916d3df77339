#include <gtest/gtest.h>

#include "kiln/kiln.hpp"
#include "kiln/registry.hpp"

using namespace kiln;

TEST(DType, PromotionFollowsNumPy2) {
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int64, DType::UInt64), DType::Float64);
  EXPECT_EQ(promote_types(DType::UInt32, DType::Int32), DType::Int64);
  EXPECT_EQ(promote_types(DType::Int16, DType::Float16), DType::Float32);
  EXPECT_EQ(promote_types(DType::UInt8, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Int32, DType::Float32), DType::Float64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Int8, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Bool, DType::Float16), DType::Float16);
}

TEST(DType, PromotionIsSymmetricAndSafe) {
  for (int i = 0; i < kNumDTypes; ++i) {
    for (int j = 0; j < kNumDTypes; ++j) {
      DType a = static_cast<DType>(i), b = static_cast<DType>(j);
      DType p = promote_types(a, b);
      EXPECT_EQ(p, promote_types(b, a));
      EXPECT_TRUE(can_cast(a, p, Casting::Safe));
      EXPECT_TRUE(can_cast(b, p, Casting::Safe));
    }
  }
}

TEST(DType, WeakScalarsTakeTheArrayDtype) {
  EXPECT_EQ(promote_weak(DType::Int8, ScalarKind::Int), DType::Int8);
  EXPECT_EQ(promote_weak(DType::Int8, ScalarKind::Float), DType::Float64);
  EXPECT_EQ(promote_weak(DType::Float32, ScalarKind::Float), DType::Float32);
  EXPECT_EQ(promote_weak(DType::Float32, ScalarKind::Complex), DType::Complex64);
  EXPECT_EQ(promote_weak(DType::Bool, ScalarKind::Int), DType::Int64);
  EXPECT_EQ(promote_weak(DType::UInt16, ScalarKind::Bool), DType::UInt16);
}

TEST(DType, CanCastSameKind) {
  EXPECT_TRUE(can_cast(DType::Float64, DType::Float16, Casting::SameKind));
  EXPECT_TRUE(can_cast(DType::UInt64, DType::Int8, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Int8, DType::UInt8, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Complex64, DType::Float64, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Float16, DType::Int64, Casting::Safe));
}

TEST(DType, NamesAndLimits) {
  DType d;
  ASSERT_TRUE(dtype_from_name("f4", &d));
  EXPECT_EQ(d, DType::Float32);
  ASSERT_TRUE(dtype_from_name("complex", &d));
  EXPECT_EQ(d, DType::Complex128);
  EXPECT_FALSE(dtype_from_name("float128", &d));
  EXPECT_EQ(iinfo(DType::Int8).min, -128);
  EXPECT_EQ(iinfo(DType::UInt64).max, UINT64_MAX);
  EXPECT_DOUBLE_EQ(finfo(DType::Float16).max, 65504.0);
  EXPECT_THROW(finfo(DType::Int32), TypeError);
}

TEST(Ops, CpuKernelsExistForExactlyTheLoopsTheCoreResolves) {
  const KernelTable& cpu = kernel_table(DeviceKind::CPU);
  for (int o = 0; o < kNumOps; ++o)
    for (int d = 0; d < kNumDTypes; ++d)
      EXPECT_EQ(cpu.elementwise[o][d] != nullptr, has_loop(static_cast<OpId>(o), static_cast<DType>(d)))
          << op_name(static_cast<OpId>(o)) << " " << name(static_cast<DType>(d));
}
