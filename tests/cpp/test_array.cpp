#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kiln/kiln.hpp"

using namespace kiln;

namespace {

std::vector<double> values(const Array& a) {
  Array c = a.astype(DType::Float64);
  const double* p = reinterpret_cast<const double*>(c.data());
  return std::vector<double>(p, p + c.size());
}

Array iota(int64_t n) {
  return arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Float64);
}

}  // namespace

TEST(Array, BasicIndexingMakesViews) {
  Array a = iota(24).reshape({2, 3, 4});
  Array v = a.index({int64_t{1}, Slice{std::nullopt, std::nullopt, -1}, Ellipsis{}, NewAxis{}});
  EXPECT_EQ(v.shape(), (Shape{3, 4, 1}));
  EXPECT_TRUE(v.shares_buffer_with(a));
  EXPECT_EQ(values(v.index({int64_t{0}})), (std::vector<double>{20, 21, 22, 23}));
  EXPECT_THROW(a.index({int64_t{2}}), IndexError);
  EXPECT_THROW(a.index({Slice{0, 1, 0}}), ValueError);
}

TEST(Array, AsContiguousCopiesOnlyWhenItMust) {
  Array a = iota(12).reshape({3, 4});
  Array same = a.as_contiguous(DType::Float64);
  EXPECT_TRUE(same.shares_buffer_with(a));
  Array t = a.permute_dims({1, 0}).as_contiguous(DType::Float64);
  EXPECT_FALSE(t.shares_buffer_with(a));
  EXPECT_TRUE(t.is_c_contiguous());
  EXPECT_EQ(values(t.index({int64_t{1}})), (std::vector<double>{1, 5, 9}));
  Array i = a.as_contiguous(DType::Int32);
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(values(i), values(a));
}

TEST(Array, ReshapeTransposeBroadcast) {
  Array a = iota(6).reshape({2, 3});
  EXPECT_TRUE(a.reshape({3, 2}).shares_buffer_with(a));
  Array t = a.transpose();
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_FALSE(t.is_c_contiguous());
  EXPECT_TRUE(t.is_f_contiguous());
  EXPECT_EQ(values(t.ravel()), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  Array b = iota(3).broadcast_to({2, 3});
  EXPECT_EQ(b.strides(), (Strides{0, 8}));
  EXPECT_THROW(iota(3).broadcast_to({4}), ValueError);
  EXPECT_EQ(a.expand_dims({0, -1}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(a.expand_dims({0}).squeeze().shape(), (Shape{2, 3}));
  EXPECT_THROW(a.squeeze({0}), ValueError);
}

TEST(Array, ElementwiseAndOperators) {
  Array a = iota(4);
  Array b = a * 2 + 1;
  EXPECT_EQ(values(b), (std::vector<double>{1, 3, 5, 7}));
  Array i8 = full({3}, Scalar::from_int(100), DType::Int8);
  Array wrapped = i8 + i8;  // NumPy's integer arithmetic wraps
  EXPECT_EQ(wrapped.dtype(), DType::Int8);
  EXPECT_EQ(values(wrapped)[0], -56);
  EXPECT_EQ((i8 + 1.5).dtype(), DType::Float64);
  EXPECT_EQ((a < 2.0).dtype(), DType::Bool);
  EXPECT_THROW(iota(3) + iota(4), ValueError);
}

TEST(Array, ReductionsAndScans) {
  Array a = iota(6).reshape({2, 3});
  EXPECT_EQ(values(sum(a, std::vector<int64_t>{0})), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(values(max(a, std::vector<int64_t>{1})), (std::vector<double>{2, 5}));
  EXPECT_EQ(values(cumulative_sum(a, 1)), (std::vector<double>{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(argmax(a).item().i, 5);
  EXPECT_DOUBLE_EQ(mean(a).item().f, 2.5);
  EXPECT_THROW(max(iota(0)), ValueError);
}

TEST(Array, AssignCastsAndBroadcasts) {
  Array a = zeros({2, 3}, DType::Int32);
  a.index({int64_t{1}}).assign(iota(3));
  EXPECT_EQ(values(a), (std::vector<double>{0, 0, 0, 0, 1, 2}));
  a.assign(Scalar::from_double(7.9));
  EXPECT_EQ(values(a)[0], 7);
}

TEST(Array, MixedDevicesAreATypeError) {
  // Host memory labelled cuda:0 is enough for the dispatch checks, which run
  // before any kernel or allocation.
  float storage[4] = {};
  Array on_gpu(wrap_memory(storage, sizeof storage, Device::cuda(0), nullptr), DType::Float32, {4}, {4});
  EXPECT_THROW(add(zeros({4}, DType::Float32), on_gpu), TypeError);
  // No such device: CudaError without a GPU, ValueError with one.
  EXPECT_ANY_THROW(zeros({2}, DType::Float32, Device::cuda(99)));
  EXPECT_THROW(Device::parse("gpu"), ValueError);
}

TEST(Array, ReadmeExample) {
  Array x = linspace(Scalar::from_double(0), Scalar::from_double(1), 5);
  Array y = sin(x) * 2.0 + 1;
  Array s = sum(y, std::vector<int64_t>{0});
  EXPECT_EQ(y.dtype(), DType::Float64);
  EXPECT_NEAR(s.item().f, 5.0 + 2.0 * (std::sin(0.25) + std::sin(0.5) + std::sin(0.75) + std::sin(1.0)), 1e-12);
}
