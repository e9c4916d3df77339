#pragma once
// Arrays an @njit function makes on the CPU (np.empty, np.zeros, np.ones,
// np.full, their _like forms, np.arange; python/kiln/_jit/constructs/
// heap_arrays.py): 64-byte-aligned blocks of the C heap, each listed in the
// calling thread's arena. The entry that runs the function for Python frees
// the arena when the function returns (kiln_heap_release), except the block
// it hands to Python as a result's memory (kiln_heap_hand_over), which NumPy
// then owns and frees. A CUDA kernel makes no arrays, as in Numba.
// Included after jit_support.cuh, by the modules of kiln.numba's entries only.
#ifdef __CUDA_ARCH__
#error "jit_heap_arrays.cuh is for @njit functions run on the CPU: a CUDA kernel makes no arrays"
#endif
#include <stdlib.h>

// A block of the arena: its bytes, and whether the entry handed it to
// Python (then NumPy frees it, not the arena).
struct kiln_heap_block {
  void* address;
  long long bytes;
  bool handed;
};
struct kiln_heap_arena {
  kiln_heap_block* blocks;
  long long count, capacity;
};
inline kiln_heap_arena& kiln_heap_blocks() {
  static thread_local kiln_heap_arena arena{nullptr, 0, 0};
  return arena;
}
// A block of at least `bytes` listed in the arena, or nullptr where the
// heap has none that large.
inline void* kiln_heap_try_allocate(long long bytes) {
  kiln_heap_arena& arena = kiln_heap_blocks();
  if (arena.count == arena.capacity) {
    arena.capacity = arena.capacity ? 2 * arena.capacity : 16;
    arena.blocks = static_cast<kiln_heap_block*>(realloc(arena.blocks, arena.capacity * sizeof(kiln_heap_block)));
    if (!arena.blocks) abort();
  }
  // aligned_alloc wants a multiple of the alignment; an empty array gets a
  // block too, so that its data is a real address NumPy can own.
  const long long size = bytes > 0 ? (bytes + 63) / 64 * 64 : 64;
  void* block = aligned_alloc(64, size);
  if (block) arena.blocks[arena.count++] = kiln_heap_block{block, size, false};
  return block;
}
inline void* kiln_heap_allocate(long long bytes) {
  void* block = kiln_heap_try_allocate(bytes);
  if (!block) abort();  // the host is out of memory
  return block;
}

// The error codes of the module making arrays (heap_arrays.made defines
// it): NumPy's ValueError for an array of more bytes than an intp holds, or
// (memory) MemoryError for one the heap cannot give; 0 without a record.
int kiln_heap_failure(bool memory);

// A C-ordered array of `shape`. A negative dimension is NumPy's ValueError:
// recorded (the entry's record, `code`) and the array made empty, so the
// function goes on without touching memory it has not got; so is a size
// beyond an intp's bytes (ValueError) or the heap's (MemoryError).
template <class T, int ND>
kiln_view<T, ND> kiln_heap_array(const long long (&shape)[ND], kiln_jit_error_t* record, int code) {
  kiln_view<T, ND> a;
  bool negative = false, too_big = false;
  long long bytes = (long long)sizeof(T);
  for (int d = 0; d < ND; ++d) {
    negative = negative || shape[d] < 0;
    too_big = too_big || (shape[d] > 0 && __builtin_mul_overflow(bytes, shape[d], &bytes));
  }
  if (negative && record && code) kiln_jit_record(record, code);
  const bool refused = negative || too_big;
  if (too_big && !negative && record && kiln_heap_failure(false)) kiln_jit_record(record, kiln_heap_failure(false));
  long long count = 1;
  for (int d = ND - 1; d >= 0; --d) {
    a.shape[d] = refused ? 0 : shape[d];
    a.strides[d] = count * (long long)sizeof(T);
    count *= a.shape[d];
  }
  void* block = kiln_heap_try_allocate(count * (long long)sizeof(T));
  if (!block) {
    if (record && kiln_heap_failure(true)) kiln_jit_record(record, kiln_heap_failure(true));
    for (int d = 0; d < ND; ++d) a.shape[d] = 0;
    block = kiln_heap_allocate(0);
  }
  a.data = static_cast<T*>(block);
  return a;
}

// np.zeros, np.ones and np.full: a new array with every element `value`.
template <class T, int ND> kiln_view<T, ND> kiln_filled(kiln_view<T, ND> a, T value) {
  const long long n = a.size();
  for (long long i = 0; i < n; ++i) a.data[i] = value;
  return a;
}

// np.arange(start, stop, step): NumPy's length, ceil((stop - start) / step),
// and elements start + i * step. A zero step is NumPy's ZeroDivisionError.
template <class T>
kiln_view<T, 1> kiln_arange(double start, double stop, double step, kiln_jit_error_t* record, int code) {
  long long n = 0;
  if (step == 0) {
    if (record && code) kiln_jit_record(record, code);
  } else {
    const double length = __builtin_ceil((stop - start) / step);
    n = length > 0 ? (long long)length : 0;
  }
  const long long shape[1] = {n};
  kiln_view<T, 1> a = kiln_heap_array<T, 1>(shape, nullptr, 0);
  for (long long i = 0; i < n; ++i) a.data[i] = (T)(start + (double)i * step);
  return a;
}

// np.linspace(start, stop, num, endpoint): NumPy's points, start + i * step
// with step (stop - start) / (num - 1) (num with endpoint false), the last
// exactly stop. A negative num is NumPy's ValueError.
inline kiln_view<double, 1> kiln_linspace(double start, double stop, long long num, bool endpoint,
                                          kiln_jit_error_t* record, int code) {
  if (num < 0) {
    if (record && code) kiln_jit_record(record, code);
    num = 0;
  }
  const long long shape[1] = {num};
  kiln_view<double, 1> a = kiln_heap_array<double, 1>(shape, nullptr, 0);
  const long long div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / (double)div : 0.0;
  for (long long i = 0; i < num; ++i) a.data[i] = start + (double)i * step;
  if (endpoint && num > 1) a.data[num - 1] = stop;
  return a;
}

// np.array of numbers written out: `values` in C order.
template <class T, int ND, class... V> kiln_view<T, ND> kiln_heap_values(const long long (&shape)[ND], V... values) {
  kiln_view<T, ND> a = kiln_heap_array<T, ND>(shape, nullptr, 0);
  T* next = a.data;
  ((*next++ = (T)values), ...);
  return a;
}

// np.copy(a), a.copy(): a new C-ordered array of a's elements.
template <class T, int ND> kiln_view<T, ND> kiln_heap_copy(const kiln_view<T, ND>& a) {
  kiln_view<T, ND> c = kiln_heap_array<T, ND>(a.shape, nullptr, 0);
  for (long long i = 0, n = a.size(); i < n; ++i) c.data[i] = kiln_nth(a, i);
  return c;
}

// The entry's last steps. kiln_heap_hand_over hands a result array to
// Python (an array the function made, or a view of one or of an argument):
// info is [address, block, block bytes, shape..., byte strides...], block
// the start of the arena block holding its elements, kept for Python to own,
// or 0 where they are not the arena's (an argument's memory).
// kiln_heap_release frees the blocks not handed over.
template <class T, int ND> void kiln_heap_hand_over(const kiln_view<T, ND>& a, const kiln_view<long long, 1>& info) {
  kiln_heap_arena& arena = kiln_heap_blocks();
  info.at(0) = (long long)a.data;
  info.at(1) = info.at(2) = 0;
  const char* data = reinterpret_cast<const char*>(a.data);
  for (long long k = 0; k < arena.count; ++k) {
    const char* start = static_cast<const char*>(arena.blocks[k].address);
    if (data >= start && data <= start + arena.blocks[k].bytes) {
      arena.blocks[k].handed = true;
      info.at(1) = (long long)start;
      info.at(2) = arena.blocks[k].bytes;
      break;
    }
  }
  for (int d = 0; d < ND; ++d) {
    info.at(3 + d) = a.shape[d];
    info.at(3 + ND + d) = a.strides[d];
  }
}
inline void kiln_heap_release() {
  kiln_heap_arena& arena = kiln_heap_blocks();
  for (long long k = 0; k < arena.count; ++k)
    if (!arena.blocks[k].handed) free(arena.blocks[k].address);
  arena.count = 0;
}
