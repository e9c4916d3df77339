"""CUDA C kernels with __syncthreads() in the shapes users write them: on the
CPU most run blockwise (src/cpu/barrier_regions.cpp: loops over the block's
threads between barriers), the rest as fibers; on a GPU as written. Every
result is checked against NumPy on every device present."""
import numpy as np
import pytest

import kiln

SOURCE = r"""
#define TILE 8

// Early return before the barriers, a tree reduction in a loop around them.
extern "C" __global__ void block_sums(const float* x, float* out, int n) {
  __shared__ float s[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  out[blockIdx.x] = s[0];
}

// A grid-stride loop over tiles around two barriers, with a continue the
// whole block takes, one each thread takes alone, and a break.
extern "C" __global__ void tile_max(const int* x, int* out, int tiles, int stop_at) {
  __shared__ int tile[TILE];
  int best = -1;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (t % 3 == 1) continue;          // the same for the whole block
    if (t >= stop_at) break;
    __syncthreads();
    tile[threadIdx.x] = x[t * TILE + threadIdx.x];
    __syncthreads();
    if (tile[threadIdx.x] % 2) continue;  // this thread only
    for (int k = 0; k < TILE; ++k) best = max(best, tile[k] + (int)threadIdx.x);
  }
  out[blockIdx.x * TILE + threadIdx.x] = best;
}

// while and do-while around barriers; a parameter each thread moves; a
// local array kept across barriers; an if around a barrier.
extern "C" __global__ void shifts(float* x, int rounds) {
  __shared__ float s[32];
  x += blockIdx.x * blockDim.x;
  float history[3] = {0.0f, 0.0f, 0.0f};
  int r = 0;
  while (r < rounds) {
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
    history[r % 3] += x[threadIdx.x];
    __syncthreads();
    ++r;
  }
  if (blockIdx.x % 2 == 0) {
    int again = 1;
    do {
      s[threadIdx.x] = history[0] + history[1] + history[2];
      __syncthreads();
      x[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
      __syncthreads();
      --again;
    } while (again > 0);
  } else {
    __syncthreads();
    x[threadIdx.x] = -history[0];
  }
}

// Two-dimensional blocks, dynamic shared memory, a struct local across a
// barrier, a constant sizing a shared array.
struct Pair { float lo, hi; };
extern "C" __global__ void transpose_pairs(const float* in, float* out, int n) {
  const int W = 8;
  __shared__ float t[W][W + 1];
  extern __shared__ float spare[];
  Pair p = {in[(blockIdx.y * W + threadIdx.y) * n + blockIdx.x * W + threadIdx.x], 0.0f};
  t[threadIdx.y][threadIdx.x] = p.lo;
  spare[threadIdx.y * W + threadIdx.x] = 2.0f * p.lo;
  __syncthreads();
  p.hi = t[threadIdx.x][threadIdx.y] + spare[threadIdx.x * W + threadIdx.y];
  out[(blockIdx.x * W + threadIdx.y) * n + blockIdx.y * W + threadIdx.x] = p.hi;
}

// A barrier in a device function: the kernel keeps its fibers.
__device__ float neighbour(float* s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
  return s[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void rotate(const float* x, float* out) {
  __shared__ float s[32];
  float v = neighbour(s, x[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = v;
}

// Votes and auto locals across barriers: fibers too.
extern "C" __global__ void votes(const int* x, int* out) {
  __shared__ int s[32];
  auto v = x[threadIdx.x];
  s[threadIdx.x] = v;
  __syncthreads();
  const int c = __syncthreads_count(s[31 - threadIdx.x] > 0);
  out[threadIdx.x] = c + v;
}

// A loop without a condition that the whole block leaves by a break; a
// #pragma before a loop around barriers; a switch whose continue and break
// are the loop's and its own.
extern "C" __global__ void rounds(const int* x, int* out, int limit) {
  __shared__ int total;
  int mine = 0;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
#pragma unroll 2
  for (int r = 0;; ++r) {
    atomicAdd(&total, 1);
    __syncthreads();
    if (total >= limit) break;
    __syncthreads();  // every thread has read total
    switch (x[threadIdx.x] % 3) {
      case 0: mine += r; break;
      case 1: if (r % 2) continue; mine += 2 * r; break;
      default: mine -= 1;
    }
  }
  out[threadIdx.x] = mine * 1000 + total;
}

template <class T>
__global__ void scan(const T* x, T* out) {
  __shared__ T s[32];
  T acc = x[blockIdx.x * blockDim.x + threadIdx.x];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    T add = threadIdx.x >= d ? s[threadIdx.x - d] : T(0);
    __syncthreads();
    acc += add;
    s[threadIdx.x] = acc;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
"""


@pytest.fixture(scope="module")
def module():
    return kiln.RawModule(code=SOURCE, name_expressions=["scan<double>", "scan<int>"])


def test_reduction_with_early_return(module, device):
    x = np.random.default_rng(0).random(1000).astype(np.float32)
    blocks = (x.size + 63) // 64
    out = kiln.zeros(blocks, dtype="float32", device=device)
    module.get_function("block_sums")((blocks,), (64,), (kiln.asarray(x, device=device), out, np.int32(x.size)))
    expect = np.add.reduceat(x, np.arange(0, x.size, 64))
    np.testing.assert_allclose(kiln.asnumpy(out), expect, rtol=1e-5)


def test_continue_and_break_in_a_loop_around_barriers(module, device):
    tiles, grid, stop_at = 23, 3, 19
    x = np.random.default_rng(1).integers(0, 100, tiles * 8).astype(np.int32)
    out = kiln.zeros(grid * 8, dtype="int32", device=device)
    module.get_function("tile_max")((grid,), (8,), (kiln.asarray(x, device=device), out, np.int32(tiles),
                                                     np.int32(stop_at)))
    expect = np.full((grid, 8), -1)
    for b in range(grid):
        for t in range(b, tiles, grid):
            if t % 3 == 1:
                continue
            if t >= stop_at:
                break
            tile = x[t * 8:(t + 1) * 8]
            for lane in range(8):
                if tile[lane] % 2 == 0:
                    expect[b, lane] = max(expect[b, lane], tile.max() + lane)
    np.testing.assert_array_equal(kiln.asnumpy(out), expect.ravel())


def test_loops_assigned_parameters_and_local_arrays(module, device):
    blocks, rounds = 4, 5
    x = np.random.default_rng(2).random(blocks * 32).astype(np.float32)
    k = kiln.asarray(x, device=device, copy=True)
    module.get_function("shifts")((blocks,), (32,), (k, np.int32(rounds)))
    expect = x.reshape(blocks, 32).copy()
    history = np.zeros((blocks, 32, 3), np.float32)
    for r in range(rounds):
        expect = np.roll(expect, -1, axis=1)
        history[:, :, r % 3] += expect
    for b in range(blocks):
        if b % 2 == 0:
            expect[b] = history[b].sum(axis=1)[::-1]
        else:
            expect[b] = -history[b, :, 0]
    np.testing.assert_allclose(kiln.asnumpy(k), expect.ravel(), rtol=1e-5)


def test_two_dimensional_blocks_structs_and_dynamic_shared_memory(module, device):
    n = 24
    a = np.random.default_rng(3).random((n, n)).astype(np.float32)
    out = kiln.zeros((n, n), dtype="float32", device=device)
    module.get_function("transpose_pairs")((n // 8, n // 8), (8, 8), (kiln.asarray(a, device=device), out, np.int32(n)),
                                           shared_mem=8 * 8 * 4)
    np.testing.assert_allclose(kiln.asnumpy(out), 3 * a.T, rtol=1e-6)


def test_kernels_that_keep_their_fibers(module, device):
    x = np.arange(32, dtype=np.float32)
    out = kiln.zeros(32, dtype="float32", device=device)
    module.get_function("rotate")((1,), (32,), (kiln.asarray(x, device=device), out))
    np.testing.assert_array_equal(kiln.asnumpy(out), np.roll(x, -1))
    v = np.arange(-10, 22, dtype=np.int32)
    counts = kiln.zeros(32, dtype="int32", device=device)
    module.get_function("votes")((1,), (32,), (kiln.asarray(v, device=device), counts))
    np.testing.assert_array_equal(kiln.asnumpy(counts), (v > 0).sum() + v)


def test_kernels_with_fibers_in_blocks_of_one_thread(module, device):
    # On the CPU a block of one thread runs without fibers, its barriers met at once.
    x = np.arange(1, 5, dtype=np.float32)
    out = kiln.zeros(4, dtype="float32", device=device)
    module.get_function("rotate")((4,), (1,), (kiln.asarray(x, device=device), out))
    np.testing.assert_array_equal(kiln.asnumpy(out), [1, 0, 0, 0])  # each block's one thread reads x[0]
    count = kiln.RawKernel(r"""
extern "C" __global__ void count_positive(const int* x, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __syncthreads_count(x[i] > 0);
}""", "count_positive")
    v = np.array([-1, 2, 5], dtype=np.int32)
    counts = kiln.zeros(3, dtype="int32", device=device)
    count((3,), (1,), (kiln.asarray(v, device=device), counts))
    np.testing.assert_array_equal(kiln.asnumpy(counts), [0, 1, 1])


def test_forever_loops_switches_and_pragmas(module, device):
    x = np.arange(16, dtype=np.int32) * 7
    out = kiln.zeros(16, dtype="int32", device=device)
    module.get_function("rounds")((1,), (16,), (kiln.asarray(x, device=device), out, np.int32(100)))
    expect = []
    rounds = 6  # 16 threads add 16 a round: 112 >= 100 in the 7th, which breaks before its switch
    for v in x:
        mine = 0
        for r in range(rounds):
            if v % 3 == 0:
                mine += r
            elif v % 3 == 1:
                if r % 2 == 0:
                    mine += 2 * r
            else:
                mine -= 1
        expect.append(mine * 1000 + 16 * (rounds + 1))
    np.testing.assert_array_equal(kiln.asnumpy(out), expect)


@pytest.mark.parametrize("name,dtype", [("scan<double>", np.float64), ("scan<int>", np.int32)])
def test_templates_split_per_instantiation(module, device, name, dtype):
    x = np.random.default_rng(4).integers(0, 50, 96).astype(dtype)
    out = kiln.zeros(96, dtype=dtype, device=device)
    module.get_function(name)((3,), (32,), (kiln.asarray(x, device=device), out))
    np.testing.assert_allclose(kiln.asnumpy(out), np.cumsum(x.reshape(3, 32), axis=1).ravel())


def test_a_fault_in_a_blockwise_kernel_names_block_and_thread():
    kernel = kiln.RawKernel(r"""
extern "C" __global__ void bad(float* x) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (blockIdx.x == 1 && threadIdx.x == 5) x[(size_t)1 << 40] = s[0];
}""", "bad")
    x = kiln.zeros(64, dtype="float32", device="cpu")
    with pytest.raises(kiln.KernelError, match=r"block \(1, 0, 0\), thread \(5, 0, 0\)"):
        kernel((2,), (64,), (x,))
    y = kiln.ones(3, device="cpu")  # the process goes on
    assert float((y + y).sum()) == 6.0
