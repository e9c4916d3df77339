#pragma once
// Numba's threading API in @njit functions on the CPU (python/kiln/_jit/
// constructs/numba_threads.py; kiln.numba.threads from Python): the thread
// count and the chunk size of prange loops are OpenMP's settings of the
// calling thread (its ICVs), which the loops read (schedule(runtime)) and
// which a thread keeps between calls, as Numba's are thread-local.
//
// A chunk size of n > 0 is the schedule (monotonic dynamic, n); anything
// else, the runtime's own default (dynamic, 1) included, is Numba's 0: the
// iterations divided evenly, a static schedule, which kiln_numba_schedule
// makes of it before a loop.
#ifdef __CUDA_ARCH__
#error "jit_numba_threads.cuh is for @njit functions run on the CPU"
#endif

constexpr omp_sched_t kiln_numba_chunked = static_cast<omp_sched_t>(omp_sched_dynamic | omp_sched_monotonic);

inline long long kiln_numba_chunksize() {
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  return kind == kiln_numba_chunked ? chunk : 0;
}

// Sets the chunk size (n >= 0, checked by the caller); the one it replaces.
inline long long kiln_numba_set_chunksize(long long n) {
  const long long old = kiln_numba_chunksize();
  if (n > 0) omp_set_schedule(kiln_numba_chunked, static_cast<int>(n));
  else omp_set_schedule(omp_sched_static, 0);
  return old;
}

// Before a prange loop: the runtime's default schedule becomes Numba's 0.
inline void kiln_numba_schedule() {
  if (kiln_numba_chunksize() == 0) omp_set_schedule(omp_sched_static, 0);
}

// `with parallel_chunksize(n):` in an @njit function: n inside the block,
// the chunk size before it after (however the block is left).
struct kiln_numba_chunksize_scope {
  long long old;
  explicit kiln_numba_chunksize_scope(long long n) : old(kiln_numba_set_chunksize(n)) {}
  ~kiln_numba_chunksize_scope() { kiln_numba_set_chunksize(old); }
  kiln_numba_chunksize_scope(const kiln_numba_chunksize_scope&) = delete;
  kiln_numba_chunksize_scope& operator=(const kiln_numba_chunksize_scope&) = delete;
};
