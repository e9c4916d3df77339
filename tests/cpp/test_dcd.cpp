// The C++ API's DCD reader and writer without Python: a round trip and a
// truncated file (see tests/python/test_dcd.py for the full set of cases).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "kiln/creation.hpp"
#include "kiln/dcd.hpp"
#include "kiln/error.hpp"

namespace {

float* floats(const kiln::Array& a) { return static_cast<float*>(a.buffer()->data()) + a.offset() / 4; }

std::string temp_path(const char* name) { return "/tmp/kiln-test-" + std::to_string(getpid()) + "-" + name; }

TEST(Dcd, RoundTripWithUnitCell) {
  using namespace kiln;
  Array x = Array::empty({2, 3}, DType::Float32), y = zeros({2, 3}, DType::Float32), z = zeros({2, 3}, DType::Float32);
  for (int i = 0; i < 6; ++i) floats(x)[i] = 0.5f * i;
  Array box = full({2, 3}, Scalar::from_double(40.0), DType::Float64);
  const std::string path = temp_path("round.dcd");
  dcd::write(path, x, y, z, box, {"a title"}, 1.5f);
  dcd::Reader reader(path);
  EXPECT_EQ(reader.header().frames, 2);
  EXPECT_EQ(reader.header().atoms, 3);
  EXPECT_TRUE(reader.header().has_unit_cell);
  ASSERT_EQ(reader.header().titles.size(), 1u);
  EXPECT_EQ(reader.header().titles[0], "a title");
  dcd::Frames f = reader.read(1, 1);
  EXPECT_EQ(floats(f.x)[2], 2.5f);
  EXPECT_EQ(static_cast<double*>(f.box.buffer()->data())[1], 40.0);
  EXPECT_THROW(reader.read(1, 2), kiln::IndexError);
  std::remove(path.c_str());
}

TEST(Dcd, TruncatedFileIsRefused) {
  using namespace kiln;
  Array x = zeros({3, 4}, DType::Float32);
  const std::string path = temp_path("cut.dcd");
  dcd::write(path, x, x, x, Array(), {}, 0);
  ASSERT_EQ(truncate(path.c_str(), 300), 0);
  EXPECT_THROW(dcd::Reader{path}, kiln::ValueError);
  std::remove(path.c_str());
}

}  // namespace
