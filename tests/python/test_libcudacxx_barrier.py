"""libcu++'s cuda::barrier (<cuda/barrier>) in CUDA C kernels: NVIDIA's own
on a GPU, kiln's on the CPU (include/kiln/device/host_faces/cuda/barrier),
where a thread that waits lets its block's other threads run. Results are
checked against NumPy on every device present."""
import numpy as np
import pytest

import kiln

SOURCE = r"""
#include <cuda/barrier>

// Split arrival and wait around independent work, and arrive_and_wait.
extern "C" __global__ void rotate_twice(const float* x, float* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float s[64];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  auto token = bar.arrive();
  const float mine = 3.0f * x[i];  // work that needs no other thread
  bar.wait(std::move(token));
  const float next = s[(threadIdx.x + 1) % blockDim.x];
  bar.arrive_and_wait();  // every thread has read s before it is written again
  s[threadIdx.x] = next + mine;
  bar.arrive_and_wait();
  out[i] = s[(threadIdx.x + 1) % blockDim.x];
}

// Odd threads leave after the first phase; the even ones meet twice more.
extern "C" __global__ void drop_odd(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int count;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    count = 0;
  }
  __syncthreads();
  atomicAdd(&count, 1);
  if (threadIdx.x % 2) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  const int first = count;
  bar.arrive_and_wait();
  atomicAdd(&count, 10);
  bar.arrive_and_wait();
  out[threadIdx.x / 2] = first * 1000 + count;
}

// A barrier of one thread completes at its own arrival.
extern "C" __global__ void lone(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  init(&bar, 1);
  for (int k = 0; k < 3; ++k) bar.arrive_and_wait();
  out[blockIdx.x] = blockIdx.x + 1;
}

// Waits for an arrival that never comes: a GPU would hang.
extern "C" __global__ void waits_for_nobody(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  init(&bar, 2);
  bar.arrive_and_wait();
  out[0] = 1;
}
"""


@pytest.fixture(scope="module")
def module():
    return kiln.RawModule(code=SOURCE)


def test_split_arrival_and_wait(module, device):
    x = np.random.default_rng(0).random(128).astype(np.float32)
    out = kiln.zeros(128, dtype="float32", device=device)
    module.get_function("rotate_twice")((2,), (64,), (kiln.asarray(x, device=device), out))
    blocks = x.reshape(2, 64)
    nxt = np.roll(blocks, -1, axis=1)
    expect = np.roll(nxt + 3.0 * blocks, -1, axis=1).ravel()
    np.testing.assert_allclose(kiln.asnumpy(out), expect, rtol=1e-6)


def test_threads_that_drop_out(module, device):
    out = kiln.zeros(32, dtype="int32", device=device)
    module.get_function("drop_odd")((1,), (64,), (out,))
    # every thread counted before the first phase completed; then the 32 even ones add 10 each
    np.testing.assert_array_equal(kiln.asnumpy(out), np.full(32, 64 * 1000 + 64 + 320))


def test_a_barrier_of_one_thread(module, device):
    out = kiln.zeros(3, dtype="int32", device=device)
    module.get_function("lone")((3,), (1,), (out,))
    np.testing.assert_array_equal(kiln.asnumpy(out), [1, 2, 3])


def test_a_wait_no_thread_can_end_fails_the_launch_on_the_cpu(module):
    out = kiln.zeros(1, dtype="int32", device="cpu")
    with pytest.raises(RuntimeError, match=r"waited for others \(cuda::barrier\)"):
        module.get_function("waits_for_nobody")((1,), (1,), (out,))
    assert float((kiln.ones(3, device="cpu") * 2).sum()) == 6.0  # kiln goes on


LINKED = r"""
#include <cuda/barrier>
// The block's barrier: __shared__ in a function (at namespace scope NVCC
// refuses a __shared__ variable with a constructor).
__device__ cuda::barrier<cuda::thread_scope_block>* block_barrier() {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  return &bar;
}
extern "C" __device__ int set_up() {
  if (threadIdx.x == 0) init(block_barrier(), blockDim.x);
  return 0;
}
extern "C" __device__ int neighbour(int v) {
  __shared__ int values[64];
  values[threadIdx.x] = v;
  block_barrier()->arrive_and_wait();
  return values[(threadIdx.x + 1) % blockDim.x];
}
"""


def test_a_python_kernel_with_a_barrier_calling_cuda_c_that_waits(current):
    # The kernel's own syncthreads alone would have it run blockwise on the
    # CPU, where the linked code's wait could not let other threads run.
    from kiln import cuda

    source = cuda.CUSource(LINKED)
    set_up = cuda.declare_device("set_up", "int32()", link=source, abi="c")
    neighbour = cuda.declare_device("neighbour", "int32(int32)", link=source, abi="c")

    @cuda.jit
    def rotate(x, out):
        i = cuda.threadIdx.x
        set_up()
        cuda.syncthreads()
        out[i] = neighbour(x[i])

    x = np.arange(10, 42, dtype=np.int32)
    out = cuda.to_device(np.zeros(32, dtype=np.int32))
    rotate[1, 32](cuda.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.roll(x, -1))
