"""Cooperative groups in kiln.cuda.jit (Numba's ``cuda.cg.this_grid()`` and
its ``sync()``): kernels that take the grid group launch cooperatively, with
every block running at once, on every device present; results against
NumPy."""
import numpy as np
import pytest

import kiln
from kiln import cuda
from kiln.cuda import int32


def _sequential_rows(m):
    # Each row is written from the previous one by the "opposite" thread: a
    # grid that did not sync between rows would read rows not yet written.
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


def _rows_reference(shape):
    return np.tile(np.arange(shape[0], dtype=np.int32), (shape[1], 1)).T


@pytest.mark.parametrize("shape, block", [((8, 32), 32), ((64, 256), 64), ((40, 96), 32)])
def test_grid_sync_orders_every_block(current, shape, block):
    kernel = cuda.jit(_sequential_rows)
    for host in (np.zeros(shape, np.int32), np.zeros(shape, np.int32)):
        kernel[shape[1] // block, block](host)
        np.testing.assert_array_equal(host, _rows_reference(shape))
    on_device = kiln.zeros(shape, dtype=kiln.int32)
    kernel[shape[1] // block, block](on_device)
    np.testing.assert_array_equal(kiln.asnumpy(on_device), _rows_reference(shape))


@cuda.jit
def _two_phase_sum(x, partial, total):
    # Phase 1: each block adds its slice into shared memory; phase 2, after
    # the grid barrier, the grid's first thread adds the blocks' sums.
    acc = cuda.shared.array(1, np.float64)
    i = cuda.grid(1)
    if cuda.threadIdx.x == 0:
        acc[0] = 0.0
    cuda.syncthreads()
    if i < x.size:
        cuda.atomic.add(acc, 0, x[i])
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        partial[cuda.blockIdx.x] = acc[0]
    cuda.cg.this_grid().sync()
    if i == 0:
        s = 0.0
        for b in range(partial.size):
            s += partial[b]
        total[0] = s


def test_grid_sync_with_shared_memory_and_block_barriers(current):
    rng = np.random.default_rng(1)
    for n in (1, 64, 1000):
        x = rng.standard_normal(n)
        blocks = (n + 63) // 64
        partial, total = np.zeros(blocks), np.zeros(1)
        _two_phase_sum[blocks, 64](x, partial, total)
        np.testing.assert_allclose(total[0], x.sum(), rtol=1e-12)
        np.testing.assert_allclose(partial, [x[k * 64:(k + 1) * 64].sum() for k in range(blocks)], rtol=1e-12)


@cuda.jit(device=True)
def _sync_grid():
    cuda.cg.this_grid().sync()


@cuda.jit
def _mirror_2d(a, out):
    # A 2-D grid of 2-D blocks; the grid syncs in a device function.
    x, y = cuda.grid(2)
    a[y, x] = y * a.shape[1] + x
    _sync_grid()
    out[y, x] = a[a.shape[0] - 1 - y, a.shape[1] - 1 - x]


def test_grid_sync_in_a_device_function_over_a_2d_grid(current):
    a, out = np.zeros((12, 16), np.int64), np.zeros((12, 16), np.int64)
    _mirror_2d[(4, 3), (4, 4)](a, out)
    values = np.arange(12 * 16).reshape(12, 16)
    np.testing.assert_array_equal(a, values)
    np.testing.assert_array_equal(out, values[::-1, ::-1])
    assert all(k.cooperative for k in _mirror_2d.overloads.values())


def test_kernels_that_take_the_grid_are_cooperative_and_others_are_not(current):
    @cuda.jit
    def takes_the_grid(a):
        cuda.cg.this_grid()  # Numba marks the kernel cooperative without a sync
        a[0] = 1.0

    @cuda.jit
    def plain(a):
        a[0] = cuda.grid(1)

    a = np.full(1, np.nan)
    takes_the_grid[1, 1](a)
    assert a[0] == 1.0
    plain[1, 1](a)
    assert [k.cooperative for k in takes_the_grid.overloads.values()] == [True]
    assert [k.cooperative for k in plain.overloads.values()] == [False]


def test_a_kernel_calling_a_cooperative_device_function_is_cooperative(current):
    # Numba's declare_device(use_cooperative=True): the linked function may
    # sync the grid, so a kernel calling it launches cooperatively.
    source = cuda.CUSource('extern "C" __device__ int twice(int* out, int a) { *out = 2 * a; return 0; }')
    cooperative = cuda.declare_device("twice", "int32(int32)", link=[source], use_cooperative=True)
    plain = cuda.declare_device("twice", "int32(int32)", link=[source])

    @cuda.jit
    def calls_cooperative(a):
        a[cuda.grid(1)] = cooperative(cuda.grid(1))

    @cuda.jit
    def calls_plain(a):
        a[cuda.grid(1)] = plain(cuda.grid(1))

    for kernel in (calls_cooperative, calls_plain):
        a = np.zeros(64, np.int32)
        kernel[2, 32](a)
        np.testing.assert_array_equal(a, 2 * np.arange(64))
    assert [k.cooperative for k in calls_cooperative.overloads.values()] == [True]
    assert [k.cooperative for k in calls_plain.overloads.values()] == [False]


def test_max_cooperative_grid_blocks(current):
    sig = (int32[:, ::1],)
    kernel = cuda.jit(sig)(_sequential_rows)
    overload = kernel.overloads[sig]  # declared signatures are there before a launch, as in Numba
    blocks = overload.max_cooperative_grid_blocks(256)
    assert blocks >= 1
    assert overload.max_cooperative_grid_blocks((16, 16)) == blocks
    assert overload.max_cooperative_grid_blocks((16, 4, 4)) == blocks
    assert overload.max_cooperative_grid_blocks(32, 0) >= blocks
    for bad in (0, (0, 4), (1, 2, 3, 4), 2.5):
        with pytest.raises(ValueError, match="blockdim"):
            overload.max_cooperative_grid_blocks(bad)
    # A launch of more blocks than can run at once is refused, naming the limit.
    most = overload.max_cooperative_grid_blocks(32)
    with pytest.raises(ValueError, match=f"cooperative launch .* {most + 1} blocks .*{most}"):
        kernel[most + 1, 32](np.zeros((2, 32 * (most + 1)), np.int32))
    # The most it may have runs.
    m = np.zeros((3, 32 * most), np.int32)
    kernel[most, 32](m)
    np.testing.assert_array_equal(m, _rows_reference(m.shape))


def test_a_fault_in_a_cooperative_launch_on_the_cpu_ends_the_launch():
    @cuda.jit
    def faults_between_syncs(a, far):
        g = cuda.cg.this_grid()
        for k in range(4):
            g.sync()
            if k == 2 and cuda.grid(1) == 37:
                a[far] = 1.0  # an unmapped page: the other blocks wait at the barrier meanwhile
            else:
                a[cuda.grid(1)] = k

    a = kiln.zeros(64, device="cpu")
    with pytest.raises(kiln.KernelError, match=r"segmentation fault .* block \(1, 0, 0\), thread \(5, 0, 0\)"):
        faults_between_syncs[2, 32](a, 1 << 40)
    faults_between_syncs[2, 32](a, 0)  # kiln goes on: the same kernel runs again
    np.testing.assert_array_equal(kiln.asnumpy(a), np.full(64, 3.0))
