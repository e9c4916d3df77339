#pragma once
// Connected components of an n-d grid (scipy.ndimage.label) by parallel
// union-find: every foreground element starts as its own root; for each
// neighbour the structuring element names, the two trees are joined under
// the smaller root with atomicMin (the label-equivalence union-find of Playne
// and Hawick, "A new algorithm for parallel connected-component labelling on
// GPUs", IEEE TPDS 2018); then every element is pointed straight at its
// root. A root is the smallest flat index of its component, so ranking the
// roots numbers the components in raster order, as SciPy numbers them.
// Compiles under NVRTC and under the host compiler alike.

#define KILN_CC_MAX_DIMS 32

// The root of i's tree (parent[i] == i); parent is read as other threads
// rewrite it, hence volatile: a stale parent is still an ancestor.
__device__ __forceinline__ long long kiln_cc_root(const volatile long long* parent, long long i) {
  long long p = parent[i];
  while (p != i) {
    i = p;
    p = parent[i];
  }
  return i;
}

// Joins the trees of a and b: the larger root is hung under the smaller. If
// another thread re-hung that root first, its new parent is joined instead.
__device__ __forceinline__ void kiln_cc_join(long long* parent, long long a, long long b) {
  for (;;) {
    a = kiln_cc_root(parent, a);
    b = kiln_cc_root(parent, b);
    if (a == b) return;
    if (a < b) {
      const long long t = a;
      a = b;
      b = t;
    }
    const long long was = atomicMin(&parent[a], b);
    if (was == a) return;
    a = was;
  }
}

// parent[i] = i for a foreground element, -1 for background.
extern "C" __global__ void kiln_cc_start(const unsigned char* foreground, long long* parent, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    parent[i] = foreground[i] ? i : -1;
}

// Each foreground element joins its foreground neighbours at the structure's
// offsets (ndim steps of -1, 0 or 1 each) that come before it in raster
// order; the structure is symmetric, so each pair is joined once.
extern "C" __global__ void kiln_cc_join_neighbours(const unsigned char* foreground, long long* parent,
                                                   const long long* shape, int ndim, const long long* offsets,
                                                   int count, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    if (!foreground[i]) continue;
    long long at[KILN_CC_MAX_DIMS];
    for (long long rest = i, d = ndim - 1; d >= 0; --d) {
      at[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (int o = 0; o < count; ++o) {
      const long long* step = offsets + (long long)o * ndim;
      long long j = 0;
      bool inside = true;
      for (int d = 0; d < ndim && inside; ++d) {
        const long long c = at[d] + step[d];
        inside = c >= 0 && c < shape[d];
        j = j * shape[d] + c;
      }
      if (inside && j < i && foreground[j]) kiln_cc_join(parent, i, j);
    }
  }
}

// Every element pointed straight at its root (after all joins are done).
extern "C" __global__ void kiln_cc_flatten(long long* parent, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    if (parent[i] >= 0) parent[i] = kiln_cc_root(parent, i);
}
