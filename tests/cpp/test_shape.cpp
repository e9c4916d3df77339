#include <gtest/gtest.h>

#include "kiln/kiln.hpp"

using namespace kiln;

TEST(Shape, BroadcastShapes) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {1, 4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({2, 3, 4}, {4}), (Shape{2, 3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {5}), (Shape{5}));
  EXPECT_EQ(broadcast_shapes({0, 3}, {1, 3}), (Shape{0, 3}));
  EXPECT_THROW(broadcast_shapes({3}, {4}), ValueError);
}

TEST(Shape, ContiguityAndStrides) {
  Strides s = contiguous_strides({2, 3, 4}, 4);
  EXPECT_EQ(s, (Strides{48, 16, 4}));
  EXPECT_TRUE(is_c_contiguous({2, 3, 4}, s, 4));
  EXPECT_FALSE(is_f_contiguous({2, 3, 4}, s, 4));
  EXPECT_TRUE(is_f_contiguous({2, 3}, {4, 8}, 4));
}

TEST(Shape, CoalesceMergesContiguousDims) {
  Shape shape{2, 3, 4};
  Strides a{96, 32, 8}, b{0, 0, 8};
  Strides* all[] = {&a, &b};
  coalesce_dims(shape, all, 2);
  EXPECT_EQ(shape, (Shape{6, 4}));
  EXPECT_EQ(a, (Strides{32, 8}));
  EXPECT_EQ(b, (Strides{0, 8}));
}

TEST(Shape, ReshapeStridesWithoutCopy) {
  Strides out;
  EXPECT_TRUE(reshape_strides({6, 4}, {32, 8}, {2, 3, 4}, &out));
  EXPECT_EQ(out, (Strides{96, 32, 8}));
  // A transposed matrix cannot be flattened without a copy.
  EXPECT_FALSE(reshape_strides({4, 6}, {8, 32}, {24}, &out));
}

TEST(Shape, NormalizeAxis) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_THROW(normalize_axis(3, 3), IndexError);
}
