// The C++ sorting API (kiln/sorting.hpp) on the CPU and on every GPU present:
// NumPy's order (NaN last), stability, rows along an axis, binary search and
// unique_all.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "devices.hpp"
#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/sorting.hpp"

using namespace kiln;

namespace {

template <class T>
Array array_of(const std::vector<T>& values, DType dtype, Device device, Shape shape = {}) {
  Array host = Array::empty(shape.empty() ? Shape{static_cast<int64_t>(values.size())} : shape, dtype);
  std::memcpy(host.data(), values.data(), values.size() * sizeof(T));
  return host.to(device);
}

template <class T>
std::vector<T> values_of(const Array& a) {
  Array host = a.to(Device::cpu()).as_contiguous(a.dtype());
  const T* p = reinterpret_cast<const T*>(host.data());
  return std::vector<T>(p, p + host.size());
}

}  // namespace

TEST(Sorting, NanLastAndStable) {
  const double nan = std::nan("");
  for (Device device : test_devices()) {
    Array x = array_of<double>({3.0, nan, -1.0, 3.0, -INFINITY, 0.5}, DType::Float64, device);
    std::vector<double> sorted = values_of<double>(sort(x));
    EXPECT_EQ(std::vector<double>(sorted.begin(), sorted.end() - 1),
              (std::vector<double>{-INFINITY, -1.0, 0.5, 3.0, 3.0}))
        << device.str();
    EXPECT_TRUE(std::isnan(sorted.back())) << device.str();
    EXPECT_EQ(values_of<int64_t>(argsort(x)), (std::vector<int64_t>{4, 2, 5, 0, 3, 1})) << device.str();
  }
}

TEST(Sorting, RowsAlongEitherAxis) {
  for (Device device : test_devices()) {
    Array x = array_of<int32_t>({5, 1, 4, 2, 2, 9}, DType::Int32, device, {2, 3});
    EXPECT_EQ(values_of<int32_t>(sort(x, 1)), (std::vector<int32_t>{1, 4, 5, 2, 2, 9})) << device.str();
    EXPECT_EQ(values_of<int64_t>(argsort(x, 0)), (std::vector<int64_t>{1, 0, 0, 0, 1, 1})) << device.str();
    EXPECT_THROW(sort(x, 2), IndexError);
  }
}

TEST(Sorting, SearchsortedAndUniqueAll) {
  for (Device device : test_devices()) {
    Array sorted = array_of<float>({1.0f, 2.0f, 2.0f, 4.0f}, DType::Float32, device);
    Array probes = array_of<int16_t>({2, 0, 5}, DType::Int16, device);
    EXPECT_EQ(values_of<int64_t>(searchsorted(sorted, probes)), (std::vector<int64_t>{1, 0, 4})) << device.str();
    EXPECT_EQ(values_of<int64_t>(searchsorted(sorted, probes, true)), (std::vector<int64_t>{3, 0, 4})) << device.str();

    UniqueAll u = unique_all(array_of<int64_t>({7, 3, 7, 7, 1}, DType::Int64, device));
    EXPECT_EQ(values_of<int64_t>(u.values), (std::vector<int64_t>{1, 3, 7})) << device.str();
    EXPECT_EQ(values_of<int64_t>(u.indices), (std::vector<int64_t>{4, 1, 0})) << device.str();
    EXPECT_EQ(values_of<int64_t>(u.inverse), (std::vector<int64_t>{2, 1, 2, 2, 0})) << device.str();
    EXPECT_EQ(values_of<int64_t>(u.counts), (std::vector<int64_t>{1, 1, 3})) << device.str();
  }
}
