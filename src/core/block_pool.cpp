#include "block_pool.hpp"

#include <tuple>

namespace kiln {
namespace {

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

}  // namespace

bool BlockPool::Order::operator()(const Block* a, const Block* b) const {
  return std::tie(a->small, a->stream, a->size, a->address) < std::tie(b->small, b->stream, b->size, b->address);
}

BlockPool::~BlockPool() {
  for (Block* b : free_) delete b;
  for (int i = 0; i < recent_count_; ++i) delete recent_[i];
}

size_t BlockPool::block_size(size_t nbytes) { return round_up(nbytes == 0 ? 1 : nbytes, kGranule); }

size_t BlockPool::segment_size(size_t size) {
  if (size <= kSmallLimit) return kSmallSegment;
  if (size <= kMediumLimit) return kMediumSegment;
  return round_up(size, kLargeGranule);
}

BlockPool::Block* BlockPool::take(size_t size, uintptr_t stream) {
  for (int i = recent_count_ - 1; i >= 0; --i) {
    if (recent_[i]->size != size || recent_[i]->stream != stream) continue;
    used_ += size;
    return take_recent(i);
  }
  Block key{0, size, stream, size <= kSmallLimit, true, nullptr, nullptr};
  auto it = free_.lower_bound(&key);
  if (it == free_.end() || (*it)->small != key.small || (*it)->stream != stream) {
    if (recent_count_ == 0) return nullptr;
    merge_recent();  // memory freed at other sizes may serve this one merged
    return take(size, stream);
  }
  Block* b = *it;
  free_.erase(it);
  return split(b, size);
}

BlockPool::Block* BlockPool::add_segment(uintptr_t address, size_t segment_bytes, size_t size, uintptr_t stream) {
  held_ += segment_bytes;
  return split(new Block{address, segment_bytes, stream, size <= kSmallLimit, false, nullptr, nullptr}, size);
}

// Marks `block` in use, cutting off the rest as a free block when it is big
// enough to be worth keeping: any remainder in small segments; in larger ones
// only a remainder that is itself too large to be small, so that small
// requests never fragment big segments.
BlockPool::Block* BlockPool::split(Block* block, size_t size) {
  const size_t rest = block->size - size;
  if (block->small ? rest >= kGranule : rest > kSmallLimit) {
    Block* tail = new Block{block->address + size, rest, block->stream, block->small, true, block, block->next};
    if (block->next) block->next->prev = tail;
    block->next = tail;
    block->size = size;
    free_.insert(tail);
  }
  block->free = false;
  used_ += block->size;
  return block;
}

void BlockPool::give(Block* block) {
  used_ -= block->size;
  if (!block->small) {
    merge_in(block);
    return;
  }
  if (recent_count_ == kRecent) merge_in(take_recent(0));
  recent_[recent_count_++] = block;
}

BlockPool::Block* BlockPool::take_recent(int i) {
  Block* b = recent_[i];
  for (int j = i + 1; j < recent_count_; ++j) recent_[j - 1] = recent_[j];
  --recent_count_;
  return b;
}

void BlockPool::merge_recent() {
  for (int i = 0; i < recent_count_; ++i) merge_in(recent_[i]);
  recent_count_ = 0;
}

void BlockPool::merge_in(Block* block) {
  block->free = true;
  if (Block* next = block->next; next && next->free) {
    free_.erase(next);
    block->size += next->size;
    block->next = next->next;
    if (block->next) block->next->prev = block;
    delete next;
  }
  if (Block* prev = block->prev; prev && prev->free) {
    free_.erase(prev);
    prev->size += block->size;
    prev->next = block->next;
    if (prev->next) prev->next->prev = prev;
    delete block;
    block = prev;
  }
  free_.insert(block);
}

}  // namespace kiln
