// A caching best-fit allocator over segments (large allocations from the
// device): a request is served by the smallest cached block that fits, split
// when much larger, and a released block merges with its free neighbours, so
// memory freed at one size serves another. Free blocks are kept per stream (an
// opaque tag) and handed out only to work on that stream, which keeps reuse
// stream-ordered without events. A small block given back waits unmerged
// among the few last given, for a request of its size on its stream (a loop
// of small ops frees and takes one size every call). Not thread-safe: the
// owner holds a lock.
// It knows nothing of CUDA, so it is tested on any machine.
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>

namespace kiln {

class BlockPool {
 public:
  struct Block {
    uintptr_t address;
    size_t size;
    uintptr_t stream;
    bool small;  // lives in a small-block segment
    bool free;
    Block* prev;  // neighbours in the same segment
    Block* next;
  };

  static constexpr size_t kGranule = 512;                     // every block size is a multiple
  static constexpr size_t kSmallLimit = size_t{1} << 20;      // blocks up to this are small...
  static constexpr size_t kSmallSegment = size_t{2} << 20;    // ...and share 2 MiB segments
  static constexpr size_t kMediumLimit = size_t{10} << 20;    // blocks up to this share...
  static constexpr size_t kMediumSegment = size_t{20} << 20;  // ...20 MiB segments
  static constexpr size_t kLargeGranule = size_t{2} << 20;    // larger segments round to this

  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool();  // forgets the blocks; segments are the owner's to free

  // The size a request of `nbytes` takes, and the segment to allocate for it
  // when no cached block fits.
  static size_t block_size(size_t nbytes);
  static size_t segment_size(size_t block_size);

  // A cached block of `size` (from block_size) for `stream`, or nullptr.
  Block* take(size_t size, uintptr_t stream);
  // Adopts a new segment of `segment_bytes` at `address` and returns a block of
  // `size` from its start; the rest stays cached.
  Block* add_segment(uintptr_t address, size_t segment_bytes, size_t size, uintptr_t stream);
  void give(Block* block);
  // Forgets every wholly free segment, calling free_segment(address, bytes) for
  // each; the caller makes sure no queued work still uses them.
  template <class F> void release_free_segments(F free_segment);

  size_t used_bytes() const { return used_; }
  size_t held_bytes() const { return held_; }

 private:
  struct Order {  // small/large first, then stream, then best fit, then address
    bool operator()(const Block* a, const Block* b) const;
  };
  Block* split(Block* block, size_t size);
  // Makes a block free and merges it with its free neighbours.
  void merge_in(Block* block);
  // Merges every recently given block in.
  void merge_recent();
  // Removes recent_[i] from the recently given blocks and returns it.
  Block* take_recent(int i);
  std::set<Block*, Order> free_;
  // The small blocks given back last, oldest first: free but not in free_
  // yet, so their neighbours see them as in use.
  static constexpr int kRecent = 8;
  Block* recent_[kRecent] = {};
  int recent_count_ = 0;
  size_t used_ = 0, held_ = 0;
};

template <class F> void BlockPool::release_free_segments(F free_segment) {
  merge_recent();
  for (auto it = free_.begin(); it != free_.end();) {
    Block* b = *it;
    if (b->prev == nullptr && b->next == nullptr) {
      free_segment(b->address, b->size);
      held_ -= b->size;
      it = free_.erase(it);
      delete b;
    } else {
      ++it;
    }
  }
}

}  // namespace kiln
