// Philox4x32-10 against the known-answer vectors published with Random123
// (Salmon et al., SC'11; kat_vectors, "philox4x32 10" lines).
#include <gtest/gtest.h>

#include "kiln/device/philox.h"

TEST(Philox, KnownAnswerVectors) {
  struct Case {
    unsigned int counter[4], key[2], expected[4];
  };
  const Case cases[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Case& c : cases) {
    kiln::philox::Block b = kiln::philox::generate(c.counter[0], c.counter[1], c.counter[2], c.counter[3], c.key[0],
                                                   c.key[1]);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b.v[j], c.expected[j]) << "word " << j;
  }
}

TEST(Philox, StreamBlocksAndConversions) {
  // Block i of key k is the counter (i low, i high, 0, 0) under key (k low, k high).
  kiln::philox::Block a = kiln::philox::stream_block(0x0000000500000007ull, 0x0000000300000002ull);
  kiln::philox::Block b = kiln::philox::generate(2, 3, 0, 0, 7, 5);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(a.v[j], b.v[j]);
  EXPECT_EQ(kiln::philox::uniform_float(0), 0.0f);
  EXPECT_LT(kiln::philox::uniform_float(0xffffffffu), 1.0f);
  EXPECT_GT(kiln::philox::minus_two_log_fraction(0xffffffffu), 0.0f);  // u < 1
  EXPECT_GT(kiln::philox::open_uniform_double(0, 0), 0.0);
  EXPECT_LT(kiln::philox::uniform_double(0xffffffffu, 0xffffffffu), 1.0);
}
