// NVIDIA's cooperative groups (<cooperative_groups.h>) for CUDA C that
// kiln's CPU backend compiles, over the CPU runtime's barriers and warp
// exchanges (host_runtime.hpp): the thread block, the grid (its sync() in a
// cooperative launch), tiles of 1 to 32 threads made by tiled_partition,
// with their shuffles and votes, coalesced groups and the free functions
// sync(), thread_rank() and num_threads(). Only the host compiler sees this
// file; NVRTC compiles NVIDIA's own header. cg::reduce and the scans are in
// <cooperative_groups/reduce.h> and <cooperative_groups/scan.h>, as there.
#pragma once

namespace cooperative_groups {
namespace details {

inline unsigned long long block_rank_of_thread() {
  return threadIdx.x + static_cast<unsigned long long>(blockDim.x) * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned long long threads_in_block() {
  return static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z;
}
inline unsigned lane_id() { return static_cast<unsigned>(block_rank_of_thread() % warpSize); }
// The lanes of the calling thread's tile of n threads (a power of two up to
// a warp): an aligned run of its warp.
inline unsigned tile_lanes(unsigned n) {
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1u) << (lane_id() / n * n);
}

// Lane `rank` of the group whose lanes are the bits of `mask` (its rank-th set bit).
inline int lane_of_rank(unsigned mask, unsigned rank) {
  for (int lane = 0; lane < warpSize; ++lane)
    if ((mask >> lane) & 1u) {
      if (rank == 0) return lane;
      --rank;
    }
  return -1;
}

}  // namespace details

class thread_block {
 public:
  void sync() const { __syncthreads(); }
  unsigned long long thread_rank() const { return details::block_rank_of_thread(); }
  unsigned long long num_threads() const { return details::threads_in_block(); }
  unsigned long long size() const { return num_threads(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

class grid_group {
 public:
  // Valid only in a cooperative launch (RawKernel's enable_cooperative_groups);
  // elsewhere sync() stops the launch with kiln's KernelError.
  bool is_valid() const { return true; }
  void sync() const { kiln_host::grid_sync(); }
  unsigned long long block_rank() const {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  unsigned long long num_blocks() const { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
  unsigned long long thread_rank() const { return block_rank() * details::threads_in_block() + details::block_rank_of_thread(); }
  unsigned long long num_threads() const { return num_blocks() * details::threads_in_block(); }
  unsigned long long size() const { return num_threads(); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
inline grid_group this_grid() { return grid_group(); }

// Threads of one warp that take part in the group's exchanges: a tile's
// aligned run of lanes, or a coalesced group's lanes. Shuffles take and
// votes give ranks within the group.
class warp_group {
 public:
  explicit warp_group(unsigned mask) : mask_(mask) {}
  unsigned get_mask() const { return mask_; }
  void sync() const { __syncwarp(mask_); }
  unsigned long long num_threads() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
  unsigned long long size() const { return num_threads(); }
  unsigned thread_rank() const {
    return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << details::lane_id()) - 1u)));
  }
  template <class T> T shfl(T v, unsigned rank) const {
    return __shfl_sync(mask_, v, details::lane_of_rank(mask_, rank % static_cast<unsigned>(num_threads())));
  }
  int any(int p) const { return __any_sync(mask_, p); }
  int all(int p) const { return __all_sync(mask_, p); }
  // Bit r set when the thread of rank r voted true.
  unsigned ballot(int p) const { return compact(__ballot_sync(mask_, p)); }
  template <class T> unsigned match_any(T v) const { return compact(__match_any_sync(mask_, v)); }
  template <class T> unsigned match_all(T v, int& pred) const { return compact(__match_all_sync(mask_, v, &pred)); }

 protected:
  // Lane bits (within mask_) as rank bits.
  unsigned compact(unsigned lanes) const {
    unsigned out = 0, rank = 0;
    for (int lane = 0; lane < warpSize; ++lane)
      if ((mask_ >> lane) & 1u) {
        if ((lanes >> lane) & 1u) out |= 1u << rank;
        ++rank;
      }
    return out;
  }
  unsigned mask_;
};

// A tile of N threads (a power of two, at most a warp) of the block, as
// tiled_partition<N> makes: consecutive ranks of the block, aligned in a warp.
template <unsigned N> class thread_block_tile : public warp_group {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads");

 public:
  thread_block_tile() : warp_group(details::tile_lanes(N)) {}
  static constexpr unsigned long long num_threads() { return N; }
  static constexpr unsigned long long size() { return N; }
  unsigned thread_rank() const { return static_cast<unsigned>(details::block_rank_of_thread() % N); }
  unsigned long long meta_group_rank() const { return details::block_rank_of_thread() / N; }
  unsigned long long meta_group_size() const { return (details::threads_in_block() + N - 1) / N; }
  template <class T> T shfl(T v, int rank) const { return __shfl_sync(mask_, v, rank, N); }
  template <class T> T shfl_up(T v, unsigned delta) const { return __shfl_up_sync(mask_, v, delta, N); }
  template <class T> T shfl_down(T v, unsigned delta) const { return __shfl_down_sync(mask_, v, delta, N); }
  template <class T> T shfl_xor(T v, int lane_mask) const { return __shfl_xor_sync(mask_, v, lane_mask, N); }
};

// tiled_partition(parent, n) with n known at run time: a group of n threads
// (a power of two up to a warp) exchanging as a tile does.
class thread_group : public warp_group {
 public:
  explicit thread_group(unsigned n) : warp_group(details::tile_lanes(n)), n_(n) {}
  unsigned long long num_threads() const { return n_; }
  unsigned long long size() const { return n_; }
  unsigned thread_rank() const { return static_cast<unsigned>(details::block_rank_of_thread() % n_); }

 private:
  unsigned n_;
};

template <unsigned N, class Parent> thread_block_tile<N> tiled_partition(const Parent&) { return thread_block_tile<N>(); }
template <class Parent> thread_group tiled_partition(const Parent&, unsigned n) { return thread_group(n); }

// The threads of the warp that call it together, at that call.
class coalesced_group : public warp_group {
 public:
  explicit coalesced_group(unsigned mask) : warp_group(mask) {}
  template <class T> T shfl_up(T v, unsigned delta) const {
    const unsigned r = thread_rank();
    return shfl(v, r >= delta ? r - delta : r);
  }
  template <class T> T shfl_down(T v, unsigned delta) const {
    const unsigned r = thread_rank();
    return shfl(v, r + delta < num_threads() ? r + delta : r);
  }
};
inline coalesced_group kiln_coalesced(unsigned mask) { return coalesced_group(mask); }
// A macro so that __activemask() names the caller's site (host_runtime.hpp).
#define coalesced_threads() kiln_coalesced(__activemask())

template <class Group> void sync(const Group& g) { g.sync(); }
template <class Group> auto thread_rank(const Group& g) { return g.thread_rank(); }
template <class Group> auto num_threads(const Group& g) { return g.num_threads(); }

}  // namespace cooperative_groups
