#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "../../src/core/block_pool.hpp"

namespace {

using kiln::BlockPool;
constexpr size_t MiB = size_t{1} << 20;

// Serves from the cache, else from a fresh fake segment, as the device pool does.
struct Harness {
  BlockPool pool;
  uintptr_t next_address = 1 << 30;
  std::map<uintptr_t, size_t> segments;

  BlockPool::Block* allocate(size_t nbytes, uintptr_t stream = 0) {
    size_t size = BlockPool::block_size(nbytes);
    if (BlockPool::Block* b = pool.take(size, stream)) return b;
    size_t segment = BlockPool::segment_size(size);
    uintptr_t address = next_address;
    next_address += segment + (1 << 20);
    segments[address] = segment;
    return pool.add_segment(address, segment, size, stream);
  }
  void release_all() {
    pool.release_free_segments([this](uintptr_t p, size_t bytes) {
      ASSERT_EQ(segments.at(p), bytes);
      segments.erase(p);
    });
  }
};

TEST(BlockPool, SizesRoundToTheGranuleAndSegmentsToTheirClass) {
  EXPECT_EQ(BlockPool::block_size(0), 512u);
  EXPECT_EQ(BlockPool::block_size(513), 1024u);
  EXPECT_EQ(BlockPool::segment_size(512), 2 * MiB);
  EXPECT_EQ(BlockPool::segment_size(MiB), 2 * MiB);
  EXPECT_EQ(BlockPool::segment_size(MiB + 512), 20 * MiB);
  EXPECT_EQ(BlockPool::segment_size(11 * MiB), 12 * MiB);
}

TEST(BlockPool, SmallBlocksShareASegment) {
  Harness h;
  BlockPool::Block* a = h.allocate(1000);
  BlockPool::Block* b = h.allocate(3000);
  EXPECT_EQ(h.segments.size(), 1u);
  EXPECT_EQ(b->address, a->address + 1024);
  EXPECT_EQ(h.pool.used_bytes(), 1024u + 3072u);
  EXPECT_EQ(h.pool.held_bytes(), 2 * MiB);
  h.pool.give(a);
  h.pool.give(b);
  EXPECT_EQ(h.pool.used_bytes(), 0u);
  h.release_all();
  EXPECT_TRUE(h.segments.empty());
  EXPECT_EQ(h.pool.held_bytes(), 0u);
}

TEST(BlockPool, ALargeFreedBlockIsSplitAndMergedBack) {
  Harness h;
  BlockPool::Block* big = h.allocate(64 * MiB);
  uintptr_t base = big->address;
  h.pool.give(big);
  BlockPool::Block* x = h.allocate(16 * MiB);
  BlockPool::Block* y = h.allocate(32 * MiB);
  EXPECT_EQ(h.segments.size(), 1u);  // both carved from the freed 64 MiB
  EXPECT_EQ(x->address, base);
  EXPECT_EQ(y->address, base + 16 * MiB);
  h.pool.give(x);
  h.pool.give(y);
  BlockPool::Block* again = h.allocate(64 * MiB);  // neighbours merged into one block
  EXPECT_EQ(again->address, base);
  EXPECT_EQ(h.segments.size(), 1u);
  h.pool.give(again);
}

TEST(BlockPool, SmallRequestsDoNotFragmentLargeSegments) {
  Harness h;
  h.pool.give(h.allocate(64 * MiB));
  h.allocate(1000);
  EXPECT_EQ(h.segments.size(), 2u);
}

TEST(BlockPool, BlocksAreReusedOnlyOnTheirStream) {
  Harness h;
  BlockPool::Block* a = h.allocate(4 * MiB, /*stream=*/1);
  uintptr_t address = a->address;
  h.pool.give(a);
  BlockPool::Block* b = h.allocate(4 * MiB, /*stream=*/2);
  EXPECT_NE(b->address, address);
  BlockPool::Block* c = h.allocate(4 * MiB, /*stream=*/1);
  EXPECT_EQ(c->address, address);
}

TEST(BlockPool, APartlyUsedSegmentIsKept) {
  Harness h;
  BlockPool::Block* a = h.allocate(1000);
  h.pool.give(h.allocate(2000));
  h.release_all();
  EXPECT_EQ(h.segments.size(), 1u);
  h.pool.give(a);
  h.release_all();
  EXPECT_TRUE(h.segments.empty());
}

// A small block given back serves the next request of its size on its
// stream as it is; a request it cannot serve merges it back first, so the
// memory freed at one size still serves another.
TEST(BlockPool, ASmallBlockGivenBackServesItsSizeAgainAndMergesWhenNeeded) {
  Harness h;
  BlockPool::Block* a = h.allocate(4000);
  uintptr_t address = a->address;
  h.pool.give(a);
  EXPECT_EQ(h.pool.used_bytes(), 0u);
  BlockPool::Block* again = h.allocate(4000);
  EXPECT_EQ(again, a);
  EXPECT_EQ(again->address, address);
  EXPECT_EQ(h.pool.used_bytes(), 4096u);
  h.pool.give(again);
  EXPECT_NE(h.allocate(4000, /*stream=*/1)->address, address);  // not on another stream
  // Two blocks given back, neither of the size asked next, with too little
  // left in their segment: they merge, and serve it with no new segment.
  Harness g;
  BlockPool::Block* x = g.allocate(768 * 1024);
  uintptr_t base = x->address;
  g.pool.give(g.allocate(768 * 1024));
  g.pool.give(x);
  ASSERT_EQ(g.segments.size(), 1u);
  EXPECT_EQ(g.allocate(MiB)->address, base);
  EXPECT_EQ(g.segments.size(), 1u);
}

// More small blocks given back than are kept aside: the oldest merge, and
// all of them are whole segments again once released.
TEST(BlockPool, ManySmallBlocksGivenBackAllMerge) {
  Harness h;
  std::vector<BlockPool::Block*> blocks;
  for (int i = 0; i < 40; ++i) blocks.push_back(h.allocate(512 * (1 + i % 5)));
  for (BlockPool::Block* b : blocks) h.pool.give(b);
  EXPECT_EQ(h.pool.used_bytes(), 0u);
  h.release_all();
  EXPECT_TRUE(h.segments.empty());
}

// Random allocations and releases: live blocks never overlap, and once all are
// released every segment is whole again.
TEST(BlockPool, RandomTrafficKeepsBlocksDisjointAndMergesFully) {
  Harness h;
  std::mt19937 rng(7);
  std::vector<BlockPool::Block*> live;
  for (int step = 0; step < 20000; ++step) {
    if (live.empty() || rng() % 3 != 0) {
      size_t n = rng() % 4 == 0 ? rng() % (40 * MiB) : rng() % 100000;
      live.push_back(h.allocate(n, rng() % 2));
    } else {
      size_t i = rng() % live.size();
      h.pool.give(live[i]);
      live[i] = live.back();
      live.pop_back();
    }
  }
  std::map<uintptr_t, size_t> spans;
  size_t used = 0;
  for (BlockPool::Block* b : live) {
    spans[b->address] = b->size;
    used += b->size;
  }
  EXPECT_EQ(used, h.pool.used_bytes());
  uintptr_t end = 0;
  for (auto [address, size] : spans) {
    EXPECT_GE(address, end);
    end = address + size;
  }
  for (BlockPool::Block* b : live) h.pool.give(b);
  h.release_all();
  EXPECT_TRUE(h.segments.empty());
  EXPECT_EQ(h.pool.held_bytes(), 0u);
}

}  // namespace
