"""kiln.cuda.jit: Numba's kernels, unchanged but for `from kiln import cuda`,
on every device present, compared with NumPy."""
import cmath
import enum
import linecache
import math
import os
import sys

import warnings

import numpy as np
import pytest

import kiln
from kiln import cuda

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "kernels"))
import numba_matmul  # noqa: E402
from numba_matmul import TPB  # noqa: E402




@cuda.jit
def add_one_2d(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] += 1


def test_seed_2d_add_one(current):
    a = np.arange(35.0).reshape(5, 7)
    d = cuda.to_device(a)
    add_one_2d[(2, 2), (4, 4)](d)
    np.testing.assert_array_equal(d.copy_to_host(), a + 1)


# Numba's documented matmuls (examples/kernels/numba_matmul.py), shared with bench/jit.py.
matmul = cuda.jit(numba_matmul.matmul)
fast_matmul = cuda.jit(numba_matmul.fast_matmul)


@pytest.mark.parametrize("kernel", [matmul, fast_matmul])
def test_numba_matmuls(current, kernel):
    rng = np.random.default_rng(0)
    n = 48
    A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    C = cuda.device_array((n, n), dtype=np.float32)
    kernel[(n // TPB, n // TPB), (TPB, TPB)](cuda.to_device(A), cuda.to_device(B), C)
    np.testing.assert_allclose(C.copy_to_host(), A @ B, rtol=1e-5)


@cuda.jit
def block_sum(values, partial):
    buf = cuda.shared.array(128, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = values[i] if i < values.size else 0.0
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


def test_shared_memory_block_sum_with_a_while_loop(current):
    values = np.random.default_rng(1).random(1000)
    partial = cuda.device_array(8, dtype=np.float64)
    block_sum[8, 128](cuda.to_device(values), partial)
    np.testing.assert_allclose(partial.copy_to_host(), [values[k * 128:(k + 1) * 128].sum() for k in range(8)])


@cuda.jit
def staged_block_work(values, out, rounds):
    """Barriers in a range() loop and in an if over the block, a 3-D block,
    locals carried across barriers, a shared array made inside the loop."""
    tx, ty, tz = cuda.threadIdx.x, cuda.threadIdx.y, cuda.threadIdx.z
    i = cuda.blockIdx.x * 16 + tx + 4 * (ty + 2 * tz)
    acc = 0.0
    for r in range(rounds):
        tile = cuda.shared.array((2, 2, 4), dtype=np.float64)
        if r == 0:
            tile[tz, ty, tx] = values[i] if i < values.size else 0.0
        cuda.syncthreads()
        acc += tile[(tz + r) % 2, ty, tx]  # a neighbour's value
        cuda.syncthreads()
        tile[tz, ty, tx] = tile[tz, ty, tx] * 0.5
    if cuda.blockIdx.x % 2 == 0:
        cuda.syncthreads()
        acc += 1.0
    if i < values.size:
        out[i] = acc


@cuda.jit
def sum_without_the_first_thread(values, out):
    """The first thread of each block returns before the barriers (threads
    that exit no longer hold a barrier up); the block's first running thread
    decides the while loop."""
    buf = cuda.shared.array(64, dtype=np.float64)
    if cuda.threadIdx.x == 0:
        return
    t = cuda.threadIdx.x - 1
    buf[t] = values[cuda.grid(1)]
    if t == 62:
        buf[63] = 0.0
    step = 32
    cuda.syncthreads()
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


def _cpu_form(kernel, *args):
    from kiln._jit.dispatcher import _arg_type
    return "kiln_host::Blockwise)" in kernel.source_for(tuple(_arg_type(a) for a in args))[0]


def test_barriers_in_loops_and_ifs(current):
    values = np.random.default_rng(3).random(70)
    out = cuda.to_device(np.zeros(70))
    staged_block_work[5, (4, 2, 2)](cuda.to_device(values), out, 3)
    tile = np.zeros((5, 2, 2, 4))
    tile.reshape(-1)[:70] = values
    tz = np.arange(2)[:, None, None]
    expected = sum(0.5 ** r * tile[:, (tz + r) % 2, np.arange(2)[:, None], np.arange(4)] for r in range(3))
    expected += (np.arange(5) % 2 == 0)[:, None, None, None]
    np.testing.assert_allclose(out.copy_to_host(), expected.reshape(-1)[:70])
    assert _cpu_form(staged_block_work, out, out, 3)  # the CPU runs it blockwise


def test_threads_that_return_before_the_barriers(current):
    values = np.random.default_rng(4).random(3 * 64)
    out = cuda.to_device(np.zeros(3))
    sum_without_the_first_thread[3, 64](cuda.to_device(values), out)
    np.testing.assert_allclose(out.copy_to_host(), values.reshape(3, 64)[:, 1:].sum(axis=1))
    assert _cpu_form(sum_without_the_first_thread, out, out)


@cuda.jit
def leaves_a_barrier_loop(values, out):
    buf = cuda.shared.array(32, dtype=np.int64)
    tid = cuda.threadIdx.x
    buf[tid] = values[tid]
    for k in range(32):
        cuda.syncthreads()
        if k == values[0]:
            break  # uniform, but a break of a loop with a barrier keeps the fibers
    out[tid] = buf[(tid + 1) % 32] + cuda.syncthreads_count(tid < 7)


def test_kernels_the_cpu_runs_as_fibers_still_meet(current):
    values = np.arange(32, dtype=np.int64) + 3
    out = cuda.to_device(np.zeros(32, dtype=np.int64))
    leaves_a_barrier_loop[1, 32](cuda.to_device(values), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.roll(values, -1) + 7)
    assert not _cpu_form(leaves_a_barrier_loop, out, out)


@pytest.mark.parametrize("kind", ["local", "shared"])
@pytest.mark.parametrize("alignment", [None, 16, 256])
def test_array_alignment_and_address(current, kind, alignment):
    @cuda.jit
    def address_of_local(out):
        a = cuda.local.array(5, dtype=np.uint8, alignment=alignment)
        a[0] = 1
        out[0] = a.ctypes.data

    @cuda.jit
    def address_of_shared(out):
        a = cuda.shared.array((5, 3), dtype=np.uint8, alignment=alignment)
        a[0, 0] = 1
        out[0] = a.ctypes.data

    out = cuda.to_device(np.zeros(1, dtype=np.uint64))
    (address_of_local if kind == "local" else address_of_shared)[1, 1](out)
    address = int(out.copy_to_host()[0])
    assert address != 0 and address % (alignment or 1) == 0


@pytest.mark.parametrize("alignment, error, message", [
    (0, ValueError, "Alignment must be positive"), (24, ValueError, "Alignment must be a power of 2"),
    (4, ValueError, "Alignment must be a multiple of 8"),
    (1.0, kiln.cuda.TypingError, "alignment must be a constant integer")])
def test_bad_alignments_are_numbas_errors(current, alignment, error, message):
    @cuda.jit
    def aligned(out):
        a = cuda.shared.array(4, dtype=np.uint8, alignment=alignment)
        out[0] = a.ctypes.data

    with pytest.raises(error, match=message):
        aligned[1, 1](cuda.to_device(np.zeros(1, dtype=np.uint64)))


@cuda.jit
def skips_a_round(out):
    t = cuda.threadIdx.x
    for r in range(3):
        if r == 1:
            continue  # the whole round, barrier and all, for every thread
        cuda.syncthreads()
        out[t] += 1


def test_a_continue_of_a_loop_with_barriers_skips_the_whole_iteration(current):
    out = cuda.to_device(np.zeros(4, dtype=np.int64))
    skips_a_round[1, 4](out)
    np.testing.assert_array_equal(out.copy_to_host(), [2, 2, 2, 2])
    assert not _cpu_form(skips_a_round, out)  # a continue inside an if keeps the fibers


@cuda.jit
def histogram(values, bins):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < values.shape[0]:
        cuda.atomic.add(bins, values[i] % bins.shape[0], 1)
        i += stride


def test_histogram_with_atomic_add(current):
    values = np.random.default_rng(2).integers(0, 1000, 5000).astype(np.int32)
    bins = cuda.to_device(np.zeros(10, dtype=np.int32))
    histogram[4, 64](cuda.to_device(values), bins)
    np.testing.assert_array_equal(bins.copy_to_host(), np.bincount(values % 10, minlength=10))


@cuda.jit
def rdf_pairs(x, y, z, box, nbins, cut, hist):
    """The N-Ways lab's pair kernel: one thread per unique pair (i < j) from a
    triangular index, minimum-image distances, an atomic histogram."""
    n = x.shape[0]
    pair = cuda.grid(1)
    if pair >= n * (n - 1) // 2:
        return
    i = int((2 * n - 1 - math.sqrt((2 * n - 1) ** 2 - 8 * pair)) // 2)
    while (i + 1) * (2 * n - i - 2) // 2 <= pair:
        i += 1
    while i * (2 * n - i - 1) // 2 > pair:
        i -= 1
    j = pair - i * (2 * n - i - 1) // 2 + i + 1
    dx = x[i] - x[j]
    dy = y[i] - y[j]
    dz = z[i] - z[j]
    dx -= box * round(dx / box)
    dy -= box * round(dy / box)
    dz -= box * round(dz / box)
    r = math.sqrt(dx * dx + dy * dy + dz * dz)
    if r < cut:
        cuda.atomic.add(hist, int(r / (cut / nbins)), 2)


def test_rdf_pair_kernel(current):
    rng = np.random.default_rng(3)
    n, box, nbins = 300, 10.0, 50
    pos = rng.random((3, n)) * box
    hist = cuda.to_device(np.zeros(nbins, dtype=np.int64))
    pairs = n * (n - 1) // 2
    rdf_pairs[(pairs + 127) // 128, 128](*(cuda.to_device(p) for p in pos), box, nbins, box / 2, hist)
    d = pos[:, :, None] - pos[:, None, :]
    d -= box * np.round(d / box)
    r = np.sqrt((d ** 2).sum(axis=0))[np.triu_indices(n, 1)]
    expected = 2 * np.bincount((r[r < box / 2] / (box / 2 / nbins)).astype(int), minlength=nbins)
    np.testing.assert_array_equal(hist.copy_to_host(), expected)


@cuda.jit(device=True)
def clamp(v, lo, hi):
    if v < lo:
        return lo
    return hi if v > hi else v


@cuda.jit(device=True)
def smooth(a, i):
    total = a[i]
    count = 1
    if i > 0:
        total += a[i - 1]
        count += 1
    if i + 1 < a.shape[0]:
        total += a[i + 1]
        count += 1
    return clamp(total / count, 0.0, 10.0)


@cuda.jit
def smooth_kernel(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = smooth(a, i)


def test_device_functions_return_values(current):
    a = np.array([0.0, 3.0, 30.0, 3.0, -9.0])
    out = cuda.device_array(5)
    smooth_kernel[1, 32](cuda.to_device(a), out)
    windows = [a[max(i - 1, 0):i + 2].mean() for i in range(5)]
    np.testing.assert_allclose(out.copy_to_host(), np.clip(windows, 0, 10))


@cuda.jit
def scale_rows(a, factor):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = a[i, j] * factor + i


def test_strided_views_and_scalars(current):
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    d = cuda.to_device(base)
    view = d[::2, 1::3]  # a non-contiguous view
    scale_rows[(1, 1), (8, 8)](view, 2)
    expected = base.copy()
    expected[::2, 1::3] = base[::2, 1::3] * 2 + np.arange(3)[:, None]
    np.testing.assert_array_equal(d.copy_to_host(), expected)


@cuda.jit
def constructs(ints, floats, out):
    i = cuda.grid(1)
    if i >= ints.shape[0]:
        return
    a = ints[i]
    b = floats[i]
    local = cuda.local.array(3, dtype=np.int64)
    for k in range(3):
        local[k] = a * k
    acc = 0
    for k in range(10, 0, -3):
        if k == 4:
            continue
        acc += k
    n = 0
    while True:
        n += 1
        if n >= 5:
            break
    q, r = a // 3, a % 3
    lo, hi = (a, -a) if a < 0 else (-a, a)
    out[i, 0] = q
    out[i, 1] = r
    out[i, 2] = a / 4
    out[i, 3] = math.floor(b) + abs(a) + min(a, 2) + max(b, 0.5)
    out[i, 4] = round(b) + int(b) + float(a > 1) + (1 if a and not b > 100 else 0)
    out[i, 5] = local[2] + acc + n
    out[i, 6] = a ** 2 + (a << 1) + (a & 6) - (a ^ 1)
    out[i, 7] = math.sqrt(abs(b)) + math.exp(-abs(b)) + math.pi + hi - lo
    out[i, 8] = 1.0 if math.isnan(b / b) else 0.0


def test_each_construct_matches_python(current):
    ints = np.array([-7, -3, 0, 1, 2, 5, 9], dtype=np.int64)
    floats = np.array([-2.5, -0.5, 0.0, 1.5, 2.5, 3.7, 100.5])
    out = cuda.device_array((7, 9))
    constructs[1, 32](cuda.to_device(ints), cuda.to_device(floats), out)
    expected = []
    for a, b in zip(ints.tolist(), floats.tolist()):
        acc = sum(k for k in range(10, 0, -3) if k != 4)
        lo, hi = (a, -a) if a < 0 else (-a, a)
        expected.append([a // 3, a % 3, a / 4, math.floor(b) + abs(a) + min(a, 2) + max(b, 0.5),
                         round(b) + int(b) + float(a > 1) + (1 if a and not b > 100 else 0),
                         a * 2 + acc + 5, a ** 2 + (a << 1) + (a & 6) - (a ^ 1),
                         math.sqrt(abs(b)) + math.exp(-abs(b)) + math.pi + hi - lo,
                         1.0 if b == 0 else 0.0])
    np.testing.assert_allclose(out.copy_to_host(), expected, rtol=1e-12)


@cuda.jit
def typed_sum(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        cuda.atomic.add(out, 0, a[i])
        cuda.atomic.max(out, 1, a[i])
        cuda.atomic.min(out, 2, a[i])


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "float32", "float64"])
def test_atomics_and_new_dtypes_specialise(current, dtype):
    a = (np.arange(1, 41) % 17).astype(dtype)
    out = cuda.to_device(np.array([0, 0, 100], dtype=dtype))
    typed_sum[2, 32](cuda.to_device(a), out)
    np.testing.assert_allclose(out.copy_to_host(), [a.sum(), a.max(), a.min()])


@cuda.jit("void(float32[:], int32)")
def fill(a, value):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = value


def test_explicit_signatures_forall_and_numpy_arguments(current):
    a = cuda.device_array(100, dtype=np.float32)
    fill.forall(100)(a, 7)
    np.testing.assert_array_equal(a.copy_to_host(), np.full(100, 7, np.float32))
    host = np.zeros(10, dtype=np.float32)
    if current.type == "cpu":
        fill[1, 32](host, 3)  # on the CPU the kernel writes NumPy's memory
    else:
        with pytest.warns(cuda.PerformanceWarning):
            fill[1, 32](host, 3)  # copied to the GPU and back, as Numba does
    np.testing.assert_array_equal(host, 3)
    with pytest.raises(TypeError, match="declared for"):
        fill[1, 32](cuda.device_array(4, dtype=np.float64), 1)


def test_errors_name_the_construct_file_and_line(current):
    def uses_a_list(a):
        a[0] = [1, 2][0]

    def unknown_name(a):
        a[0] = not_defined_anywhere  # noqa: F821

    def uses_a_set(a):
        a[0] = len({1, 2})

    def mixes_types(a):
        x = 1.0
        x = a  # an array assigned to a float

    for fn, kind, what in ((uses_a_list, cuda.UnsupportedError, "List"),
                           (uses_a_set, cuda.UnsupportedError, "Set"),
                           (unknown_name, cuda.TypingError, "not_defined_anywhere"),
                           (mixes_types, cuda.TypingError, "'x'")):
        kernel = cuda.jit(fn)
        with pytest.raises(kind, match=rf"{what}.*test_jit.py:\d+"):
            kernel[1, 1](cuda.device_array(2))
        assert issubclass(kind, kiln.CompileError)
    with pytest.raises(TypeError, match="takes 1 arguments, got 2"):
        add_one_2d[1, 1](cuda.device_array((2, 2)), 1)
    with pytest.raises(ValueError, match=r"add_one_2d: the launch configuration was not specified"):
        add_one_2d(cuda.device_array((2, 2)))
    with pytest.raises(RuntimeError, match="can only be used inside a kiln.cuda.jit kernel"):
        cuda.syncthreads()


@cuda.jit
def from_the_end(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a[i - 2] + a[-1]
        j = 1 - i
        out[i] += a[j] * 10


def test_negative_indices_count_from_the_end(current):
    a = np.arange(5.0)
    out = cuda.device_array(3)
    from_the_end[1, 8](cuda.to_device(a), out)
    np.testing.assert_array_equal(out.copy_to_host(), [a[i - 2] + a[-1] + a[1 - i] * 10 for i in range(3)])


WEIGHTS = np.array([1.0, 10.0, 100.0])  # read through cuda.const.array_like


@cuda.jit
def more_constructs(cube, grid2, counts, out):
    i = cuda.grid(1)
    tid = cuda.threadIdx.x
    dyn = cuda.shared.array(0, dtype=np.float64)  # sized by the launch's sharedmem
    weights = cuda.const.array_like(WEIGHTS)
    dyn[tid] = tid * 2.0
    total = cuda.syncthreads_count(tid % 2 == 0)
    every = cuda.syncthreads_and(tid < 100)
    some = cuda.syncthreads_or(tid == 3)
    cuda.threadfence()
    if i < out.shape[0]:
        v = 0.0
        for a in range(cube.shape[0]):
            for b in range(cube.shape[1]):
                for c in range(cube.shape[2]):
                    v += cube[a, b, c] * weights[c]
        if tid == 0:
            kind = 1
        elif tid < 3:
            kind = 2
        else:
            kind = 3
        out[i] = v + dyn[(tid + 1) % cuda.blockDim.x] * 1000 + total * 1e5 + every * 1e7 + some * 1e8 + \
            kind * 1e9 + cube.ndim * 1e10 + (cuda.warpsize - 32) + cuda.laneid * 0 + \
            math.log(math.exp(2.0)) + math.atan2(0.0, 1.0) + math.hypot(3.0, 4.0) + math.copysign(1.0, -0.0)
        cuda.atomic.sub(grid2, (0, 0), 1)
        cuda.atomic.and_(counts, 0, 0xFF)
        cuda.atomic.or_(counts, 1, 1 << tid)
        cuda.atomic.xor(counts, 2, 1)
        cuda.atomic.exch(counts, 3, 7)
        cuda.atomic.inc(counts, 4, 3)
        cuda.atomic.dec(counts, 5, 100)
        cuda.atomic.cas(counts, 6, 0, tid + 1)


def test_remaining_constructs(current):
    cube = np.arange(24, dtype=np.float64).reshape(2, 3, 4)[:, :, :3]  # a 3-D view
    grid2 = cuda.to_device(np.zeros((2, 2), dtype=np.int64))
    counts = cuda.to_device(np.array([0x1FF, 0, 0, 0, 0, 50, 0], dtype=np.uint32))
    out = cuda.device_array(4)
    more_constructs[1, 4, 0, 4 * 8](cuda.to_device(cube), grid2, counts, out)
    v = (cube * WEIGHTS).sum()
    tail = 2.0 + 0.0 + 5.0 - 1.0
    expected = [v + ((t + 1) % 4) * 2 * 1000 + 2e5 + 1e7 + 1e8 + (1 if t == 0 else 2 if t < 3 else 3) * 1e9 + 3e10 + tail
                for t in range(4)]
    np.testing.assert_allclose(out.copy_to_host(), expected)
    assert grid2.copy_to_host()[0, 0] == -4
    c = counts.copy_to_host()
    assert c[0] == 0xFF and c[1] == 0b1111 and c[2] == 0 and c[3] == 7 and c[4] == 0 and c[5] == 46
    assert 1 <= c[6] <= 4  # the first thread to arrive wins the compare-and-swap


@cuda.jit
def _views_and_loops(a, out, out2):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]  # a view of one row
        total = 0.0
        for x in row:
            total += x
        for step in (4, 2, 1):  # a tuple literal
            total += step
        for j, r in enumerate(a[::-1]):  # rows of a reversed view, counted
            total += r[0] * j
        for x, y in zip(a[i, 1:], a[i, :-1]):
            total += x - y
        out[i] = total
        out2[i, :2] = a[i, 1:3]  # a view assigned from a view
        out2[i, 2:] = -1.0  # and from a number


def test_views_slices_and_loops_over_arrays_tuples_enumerate_zip(current):
    a = np.random.default_rng(3).random((5, 4))
    out, out2 = cuda.device_array(5), cuda.device_array((5, 4))
    _views_and_loops[1, 8](kiln.asarray(a, device=current), out, out2)
    flipped = a[::-1]
    want = a.sum(1) + 7 + sum(flipped[j, 0] * j for j in range(5)) + (a[:, 1:] - a[:, :-1]).sum(1)
    np.testing.assert_allclose(kiln.asnumpy(out), want)
    want2 = np.concatenate([a[:, 1:3], -np.ones((5, 2))], axis=1)
    np.testing.assert_array_equal(kiln.asnumpy(out2), want2)


def test_vectorize_is_a_ufunc_on_both_devices(current):
    @cuda.vectorize(["float32(float32, float32)", "float64(float64, float64)"])
    def scaled_add(x, y):
        return 2 * x + y

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = scaled_add(kiln.asarray(x, device=current), np.float32(1.5))
    assert got.dtype == kiln.float32 and got.device == current
    np.testing.assert_array_equal(kiln.asnumpy(got), 2 * x + 1.5)
    host = scaled_add(x, x[0])  # NumPy in, NumPy out (broadcast)
    assert isinstance(host, np.ndarray)
    np.testing.assert_array_equal(host, 2 * x + x[0])

    @cuda.vectorize
    def add(x, y):
        return x + y

    for n in (1, 2, 7, 64):  # odd lengths carry their last element
        assert add.reduce(kiln.arange(n, device=current)) == n * (n - 1) // 2
    with pytest.raises(TypeError, match="no signature"):
        scaled_add(np.arange(3, dtype=np.complex64), 1)


@cuda.jit
def _warp_functions(values, sums, ballots, shuffled, matched, active):
    i = cuda.grid(1)
    v = values[i]
    total = v
    for offset in (16, 8, 4, 2, 1):  # a warp's tree sum, by shuffles down
        total += cuda.shfl_down_sync(0xFFFFFFFF, total, offset)
    lane = cuda.threadIdx.x % 32
    if lane == 0:
        sums[i // 32] = total
    ballots[i] = cuda.ballot_sync(0xFFFFFFFF, v > 5)
    shuffled[i] = cuda.shfl_xor_sync(0xFFFFFFFF, v, 1) + cuda.shfl_sync(0xFFFFFFFF, v, 3)
    matched[i] = cuda.match_any_sync(0xFFFFFFFF, v % 3)
    cuda.syncwarp()
    if lane < 20:
        active[i] = cuda.activemask()  # only the lanes in this branch
    else:
        active[i] = cuda.activemask()  # and those in the other one


def test_warp_shuffles_votes_and_matches_as_cuda_defines_them(current):
    values = np.random.default_rng(5).integers(0, 10, 64).astype(np.int32)
    outs = [cuda.device_array(2, dtype=np.int32)] + [cuda.device_array(64, dtype=np.uint32) for _ in range(4)]
    _warp_functions[1, 64](kiln.asarray(values, device=current), *outs)
    sums, ballots, shuffled, matched, active = (kiln.asnumpy(o) for o in outs)
    warps = values.reshape(2, 32)
    np.testing.assert_array_equal(sums, warps.sum(1))
    bits = 1 << np.arange(32)
    np.testing.assert_array_equal(ballots.reshape(2, 32), np.repeat([(bits * (w > 5)).sum() for w in warps], 32).reshape(2, 32))
    lanes = np.arange(64)
    np.testing.assert_array_equal(shuffled, values[lanes ^ 1] + values[lanes // 32 * 32 + 3])
    want = [(bits * (w % 3 == w[k] % 3)).sum() for w in warps for k in range(32)]
    np.testing.assert_array_equal(matched, want)
    np.testing.assert_array_equal(active.reshape(2, 32)[:, :20], (1 << 20) - 1)
    np.testing.assert_array_equal(active.reshape(2, 32)[:, 20:], 0xFFFFFFFF - ((1 << 20) - 1))


def test_a_fault_in_a_kernel_on_the_cpu_is_a_kernel_error_and_kiln_goes_on():
    @cuda.jit
    def writes_far_away(a, far):
        i = cuda.grid(1)
        if i == 5:
            a[far] = 1.0  # an index far outside the array: an unmapped page

    divides = kiln.RawKernel(r"""
    extern "C" __global__ void divides(long long* a, long long d) {
        const long long i = blockIdx.x * blockDim.x + threadIdx.x;
        a[i] = i / d;  // C's division: a division by zero traps on x86
    }""", "divides")

    a = kiln.zeros(8, device="cpu")
    with pytest.raises(kiln.KernelError, match=r"writes_far_away stopped with a segmentation fault .* "
                                               r"block \(0, 0, 0\)"):
        writes_far_away[1, 8](a, 1 << 40)

    @cuda.jit
    def faults_after_a_barrier(a, far):
        cuda.syncthreads()  # its threads run as fibers, so the faulting thread is known
        if cuda.grid(1) == 5:
            a[far] = 1.0

    with pytest.raises(kiln.KernelError, match=r"block \(1, 0, 0\), thread \(1, 0, 0\)"):
        faults_after_a_barrier[2, 4](a, 1 << 40)
    ints = kiln.zeros(8, dtype=kiln.int64, device="cpu")
    with pytest.raises(kiln.KernelError, match="integer division by zero"):
        divides((2,), (4,), (ints, np.int64(0)))
    divides((2,), (4,), (ints, np.int64(2)))  # the process, the backend and the kernel go on working
    np.testing.assert_array_equal(kiln.asnumpy(ints), np.arange(8) // 2)



@cuda.jit(device=True)
def _add_two(a, b):
    return a + b


@cuda.jit(device=True)
def _apply(op, a, b):
    return op(a, b)  # op is known when the kernel compiles: a device function passed in


@cuda.jit(device=True)
def _scaled_pair(x, scale):
    return x * scale, x + scale  # a tuple result


@cuda.jit(cuda.void(cuda.complex128[:], cuda.float64[:, ::1], cuda.float64))  # Numba's type objects
def _typed_signature(z, grid_out, scale):
    gid = cuda.grid(2)  # a tuple value, indexing an array whole
    if gid[0] < grid_out.shape[0] and gid[1] < grid_out.shape[1]:
        grid_out[gid] = _apply(_add_two, gid[0] * 10.0, gid[1]) * scale
        i = gid[0] * grid_out.shape[1] + gid[1]
        if i < z.size:
            doubled, shifted = _scaled_pair(z[i], scale)
            z[i] = doubled.conjugate() + cmath.sqrt(shifted) + complex(0.0, doubled.real)


def test_type_object_signatures_tuples_complex_numbers_and_function_arguments(current):
    z0 = np.array([1 + 2j, -3 + 0.5j, 0.25 - 1j, 2j])
    z = kiln.asarray(z0.copy(), device=current)  # (on the CPU kiln may share NumPy's memory)
    grid_out = cuda.device_array((3, 4))
    _typed_signature[(1, 1), (4, 4)](z, grid_out, 1.5)
    rows, cols = np.indices((3, 4))
    np.testing.assert_allclose(kiln.asnumpy(grid_out), (rows * 10.0 + cols) * 1.5)
    doubled = z0 * 1.5
    np.testing.assert_allclose(kiln.asnumpy(z), np.conj(doubled) + np.sqrt(z0 + 1.5) + 1j * doubled.real)
    assert cuda.types.typeof(np.zeros((2, 2), np.float32)) == cuda.float32[:, ::1]
    assert str(cuda.void(cuda.float32[:], cuda.int32)) == "none(array(float32, 1d, A), int32)"


@cuda.jit
def _sum_tuple_arrays(pair, scalars, out):
    i = cuda.grid(1)
    if i < len(pair[0]):
        out[i] = pair[0][i] * pair[1][i] + scalars.scale
        out[i] += len(scalars.nothing) + len(pair) * 100
    if i == 0:
        out[0] += scalars.nested[1][0]


def test_tuples_of_arrays_empty_nested_and_named_tuples_as_arguments(current):
    """Numba's tuple arguments: arrays inside them (kiln arrays, and NumPy
    arrays, copied to the device and back as at the top level), empty and
    nested tuples, a namedtuple's fields by name."""
    import collections

    Scalars = collections.namedtuple("Scalars", "scale nothing nested")
    a0, b0 = np.arange(6.0), np.linspace(1, 2, 6)
    scalars = Scalars(0.5, (), ((), (7, 8)))
    for a, b in ((kiln.asarray(a0, device=current), kiln.asarray(b0, device=current)), (a0, b0)):
        out = kiln.zeros(6, device=current)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cuda.PerformanceWarning)
            _sum_tuple_arrays[2, 4]((a, b), scalars, out)
        want = a0 * b0 + 0.5 + 200
        want[0] += 7
        np.testing.assert_allclose(kiln.asnumpy(out), want)

    @cuda.jit
    def writes_into_tuple(arrays):
        i = cuda.grid(1)
        if i < arrays[0].size:
            arrays[0][i] = arrays[1][i] + 1

    host_out, host_in = np.zeros(5), np.arange(5.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cuda.PerformanceWarning)
        writes_into_tuple[1, 8]((host_out, host_in))
    np.testing.assert_array_equal(host_out, host_in + 1)  # copied back from a GPU, or written in place


_CMATH_NAMES = ("sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh",
                "exp", "log", "sqrt")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cmath_gives_cpython_special_values(current, dtype):
    """cmath in a kernel answers as CPython's cmath (as Numba's does) where
    C99 leaves a sign or a NaN open, though kiln's ufuncs answer as NumPy's:
    every function over zeros, ones, pi, infinities and NaN in both parts;
    cmath.rect over the same grid."""
    import itertools

    reals = [-0.0, 0.0, 1.0, -1.0, math.pi, -math.pi, math.inf, -math.inf, math.nan]
    values = np.array([complex(x, y) for x, y in itertools.product(reals, reals)], dtype=dtype)
    radii, angles = (np.array(v) for v in zip(*itertools.product(reals, reals)))
    tolerance = 1e-5 if dtype == "complex64" else 1e-14

    def same(got, want):
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            if math.isnan(w) or math.isinf(w) or w == 0:
                assert (math.isnan(g), math.copysign(1, g) if not math.isnan(w) else 0, g if math.isinf(w) else 0) \
                    == (math.isnan(w), math.copysign(1, w) if not math.isnan(w) else 0, w if math.isinf(w) else 0)
            else:
                assert abs(g - w) <= tolerance * abs(w)

    for name in _CMATH_NAMES:
        function = getattr(cmath, name)
        source = f"def apply(z, out):\n    i = cuda.grid(1)\n    if i < z.size:\n        out[i] = cmath.{name}(z[i])\n"
        scope = {"cuda": cuda, "cmath": cmath}
        filename = f"<cmath.{name}>"
        # The source where inspect finds it, so no bytecode translator (depyf) is needed.
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), scope)
        kernel = cuda.jit(scope["apply"])
        z = kiln.asarray(values, device=current)
        out = kiln.zeros(values.size, dtype=dtype, device=current)
        kernel[1, 128](z, out)
        for v, got in zip(values, kiln.asnumpy(out)):
            try:
                want = function(complex(v))
            except ValueError:  # CPython's domain errors
                continue
            if dtype == "complex64":
                want = complex(np.complex64(want)) if all(abs(p) < 3e38 or math.isinf(p) or math.isnan(p)
                                                          for p in (want.real, want.imag)) else want
            same(complex(got), want)

    @cuda.jit
    def rect(r, phi, out):
        i = cuda.grid(1)
        if i < r.size:
            out[i] = cmath.rect(r[i], phi[i])

    out = kiln.zeros(radii.size, dtype="complex128", device=current)
    rect[1, 128](kiln.asarray(radii, device=current), kiln.asarray(angles, device=current), out)
    for r, phi, got in zip(radii, angles, kiln.asnumpy(out)):
        try:
            want = cmath.rect(r, phi)
        except ValueError:
            continue
        same(complex(got), want)


def test_real_and_imag_of_arrays_are_writable_views(current):
    """a.real and a.imag of a complex array in a kernel are views of the
    parts (atomics and stores reach the array), as NumPy's and Numba's; of a
    real array, .real is the array."""
    @cuda.jit
    def bump(z, x, out):
        i = cuda.grid(1)
        if i < z.size:
            cuda.atomic.add(z.real, i, 1)
            cuda.atomic.add(z.imag, i, 2)
            parts = z.imag
            parts[i] += z.real[i]
            out[i] = x.real[i] * 2

    z0 = np.arange(6) + 10j * np.arange(6)
    for dtype in ("complex64", "complex128"):
        z = kiln.asarray(z0.astype(dtype), device=current)
        x = kiln.asarray(np.arange(6.0), device=current)
        out = kiln.zeros(6, device=current)
        bump[1, 8](z[::-1], x, out)  # a strided view too
        want = (z0.real + 1) + 1j * (z0.imag + 2 + z0.real + 1)
        np.testing.assert_allclose(kiln.asnumpy(z), want)
        np.testing.assert_array_equal(kiln.asnumpy(out), np.arange(6.0) * 2)


def test_debug_mode_raises_what_a_thread_raised_or_asserted(current):
    @cuda.jit(debug=True)
    def checked(do_raise, a):
        i = cuda.grid(1)
        if do_raise and i == 5:
            raise ValueError("five is bad")
        assert a[i] >= 0, "negative input"
        a[i] += 1

    a = kiln.zeros(8, device=current)
    checked[2, 4](False, a)
    with pytest.raises(ValueError, match=r"In function 'checked', file .*test_jit.py, line \d+, tid=\[1, 0, 0\] "
                                         r"ctaid=\[1, 0, 0\]: five is bad"):
        checked[2, 4](True, a)
    with pytest.raises(AssertionError, match="negative input"):
        checked[2, 4](False, kiln.full(8, -1.0, device=current))
    checked[2, 4](False, a)  # the record was cleared
    np.testing.assert_array_equal(kiln.asnumpy(a), [3, 3, 3, 3, 3, 2, 3, 3])

    @cuda.jit
    def unchecked(a):
        assert a[0] > 100  # outside debug mode asserts are not checked, as Numba's
        if a[0] < 100:
            raise ValueError  # and a raise only ends the thread
        a[0] = -1.0

    unchecked[1, 1](a)
    assert kiln.asnumpy(a)[0] == 3


@cuda.jit
def _ufunc_into(x, y, out):
    np.arctan2(x, y, out)


@cuda.jit
def _ufunc_numbers(x, y, out):
    out[0] = np.hypot(x, y)
    out[1] = np.floor(x) + np.less(np.int64(-1), np.uint64(1))  # NumPy's floor keeps floats; -1 < 1 exactly
    out[2] = np.logical_xor(x, 0.0) + np.degrees(y)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8"])
def test_numpy_ufuncs_in_kernels_follow_numpy(current, dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((3, 4)) * 5).astype(dtype)
    y = (rng.standard_normal(4) * 5).astype(dtype)  # broadcast along the rows
    out = kiln.zeros((3, 4), dtype=np.result_type(np.arctan2(x[:1, :1], y[:1])), device=current)
    _ufunc_into[1, 1](kiln.asarray(x, device=current), kiln.asarray(y, device=current), out)
    np.testing.assert_allclose(kiln.asnumpy(out), np.arctan2(x, y), rtol=1e-6)
    for value in (np.float32(2.5), np.float64(-1.5), 0.0):
        got = kiln.zeros(3, device=current)
        _ufunc_numbers[1, 1](value, 3.0, got)
        want = [np.hypot(value, 3.0), np.floor(value) + 1, np.logical_xor(value, 0.0) + np.degrees(3.0)]
        np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=1e-6)

    @cuda.jit
    def no_output(a, o):
        o[0] = np.sin(a)

    with pytest.raises(cuda.TypingError, match=r"np.sin of arrays needs an output array"):
        no_output[1, 1](out, out)


def test_reduce_random_states_and_ptx(current):
    sum_reduce = cuda.Reduce(lambda a, b: a + b)
    for n in (1, 17, 1025, 70001):
        values = kiln.asarray(np.arange(n, dtype=np.float64) + 1, device=current)
        assert sum_reduce(values) == n * (n + 1) / 2
    assert sum_reduce(np.zeros(0), init=5) == 5

    @cuda.reduce
    def largest(a, b):
        return max(a, b)

    res = kiln.zeros(1, dtype=np.int32, device=current)
    assert largest(kiln.asarray(np.array([3, 9, 2], np.int32), device=current), res=res) is None
    assert kiln.asnumpy(res)[0] == 9 and largest(np.array([3, 9, 2], np.int32), init=100) == 100

    # Numba's xoroshiro128+ streams, number for number (the first two states of seed 1 as Numba makes them)
    # in Numba's record array of (s0, s1) pairs
    states = cuda.random.create_xoroshiro128p_states(64, seed=1)
    assert states.dtype == cuda.random.xoroshiro128p_dtype and states.shape == (64,)
    assert states.copy_to_host()[:2].tolist() == [(10451216379200822465, 10451216379200822465),
                                                  (8341117667364343960, 7824662623250379246)]
    later = cuda.random.create_xoroshiro128p_states(10, seed=1, subsequence_start=3)
    np.testing.assert_array_equal(states.copy_to_host()[3:13], later.copy_to_host())

    @cuda.jit
    def draw(states, out):
        t = cuda.grid(1)
        for i in range(16):
            out[t * 16 + i] = cuda.random.xoroshiro128p_uniform_float32(states, t)

    out = kiln.zeros(64 * 16, dtype=np.float32, device=current)
    draw[2, 32](states, out)
    got = kiln.asnumpy(out)
    assert 0 <= got.min() and got.max() < 1 and abs(got.mean() - 0.5) < 0.03

    ptx, result = cuda.compile_ptx(lambda x, y: x * y, (cuda.float32, cuda.float32), device=True)
    assert ".visible .func" in ptx and "mul.f32" in ptx and result == cuda.float32
    assert "atom.global.add.f32" in next(iter(_atomic_add_one.inspect_asm().values()))


@cuda.jit("void(float32[::1])")
def _atomic_add_one(a):
    cuda.atomic.add(a, 0, 1.0)


def test_specialize_overloads_and_launch_checks(current):
    @cuda.jit
    def fill(a, v):
        a[cuda.grid(1)] = v

    only = fill.specialize(cuda.float32[::1], cuda.float32)
    assert fill.specialize(cuda.float32[::1], cuda.float32) is only and len(fill.specializations) == 1
    a = kiln.zeros(4, dtype=np.float32, device=current)
    only[1, 4](a, 2.5)
    assert kiln.asnumpy(a).tolist() == [2.5] * 4 and len(only.overloads) == 1
    with pytest.raises(RuntimeError, match="already specialized"):
        only.specialize(cuda.float32[::1], cuda.float32)
    with pytest.raises(TypeError, match="No matching definition for argument type"):
        only[1, 4](kiln.zeros(4, device=current), 1.0)
    with pytest.raises(ValueError, match="griddim must be a sequence of 1, 2 or 3 integers"):
        fill[(1, 2, 3, 4), 1]
    with pytest.raises(TypeError, match="blockdim must be a sequence of integers"):
        fill[1, 2.0]

    @cuda.jit
    def keyword_names(a, xor):  # locals named like C++ keywords
        int = a.size
        a[0] = xor + int

    keyword_names[1, 1](a, 3.0)
    assert kiln.asnumpy(a)[0] == 7.0


def test_debug_mode_checks_every_index(current):
    @cuda.jit(debug=True)
    def shifted(a, out, by):
        i = cuda.grid(1)
        tile = cuda.local.array(4, dtype=np.float32)
        tile[i % 4] = a[i + by]
        out[i] = tile[by]

    a = kiln.arange(8, dtype=np.float32, device=current)
    out = kiln.zeros(8, dtype=np.float32, device=current)
    shifted[2, 4](a, out, 0)
    np.testing.assert_array_equal(kiln.asnumpy(out)[::4], [0, 4])
    # threads 2 and 3 of block 1 overflow; the first to get there is reported
    with pytest.raises(IndexError, match=r"In function 'shifted', file .*test_jit.py, line \d+, tid=\[[23], 0, 0\] "
                                         r"ctaid=\[1, 0, 0\]: index [89] is out of bounds for axis 0 with size 8 "
                                         r"\(array 'a'\)"):
        shifted[2, 4](a, out, 2)
    with pytest.raises(IndexError, match=r"index 5 is out of bounds for axis 0 with size 4 \(array 'tile'\)"):
        shifted[1, 1](a, out, 5)

    @cuda.jit(debug=True)
    def rows(m, out):
        out[0] = m[cuda.threadIdx.x][1]

    m = kiln.ones((2, 3), device=current)
    with pytest.raises(IndexError, match=r"index 2 is out of bounds for axis 0 with size 2 \(array 'm'\)"):
        rows[1, 3](m, kiln.zeros(1, device=current))


def test_guvectorize_broadcasts_loop_dimensions(current):
    @cuda.guvectorize(["void(float32[:, :], float32[:, :], float32[:, :])"], "(m,n),(n,p)->(m,p)")
    def matmul(a, b, c):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                c[i, j] = 0
                for k in range(a.shape[1]):
                    c[i, j] += a[i, k] * b[k, j]

    a = np.arange(3 * 2 * 4, dtype=np.float32).reshape(3, 2, 4)
    b = np.arange(4 * 5, dtype=np.float32).reshape(4, 5)  # broadcast over a's loop dimension
    np.testing.assert_allclose(matmul(a, b), a @ b)  # NumPy in, NumPy out
    got = matmul(kiln.asarray(a, device=current), kiln.asarray(b, device=current))
    np.testing.assert_allclose(kiln.asnumpy(got), a @ b)

    @cuda.guvectorize(["void(int32, int32[:])"], "()->()")
    def twice(x, out):
        out[0] = x * 2

    assert twice(10) == 20
    np.testing.assert_array_equal(twice(np.arange(5, dtype=np.int32)), np.arange(5) * 2)
    with pytest.raises(TypeError, match="gufunc accepts 1 positional arguments"):
        twice()


def test_integer_arithmetic_is_64_bit_as_numba_types_it(current):
    """Numba types integer arithmetic as 64-bit (signed unless every operand
    is unsigned): int32 + int32 does not wrap at 2**31, nor the global index
    blockIdx.x * blockDim.x + threadIdx.x of a grid past 2**31 threads."""
    from kiln.cuda import int32, uint32

    @cuda.jit
    def arithmetic(out):
        a, u = int32(2_000_000_000), uint32(4_000_000_000)
        out[0] = a + a
        out[1] = a * int32(3)
        out[2] = -int32(-2_147_483_648)
        out[3] = u + u
        out[4] = a + u
        out[5] = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x

    out = kiln.zeros(6, dtype="float64", device=current)
    arithmetic[1, 1](out)
    assert kiln.asnumpy(out).tolist() == [4e9, 6e9, 2**31, 8e9, 6e9, 0]


def test_a_local_assigned_one_constant_sizes_arrays(current):
    """``N = 100`` then ``cuda.shared.array(N, int32)``: a local assigned once
    from a constant is that constant, as in Numba; forall refuses a negative
    count with Numba's ValueError."""
    from kiln.cuda import int32

    @cuda.jit("void(int32[::1])")
    def reversed_through_shared(out):
        N = 64
        block = cuda.shared.array(N, int32)
        scratch = cuda.local.array(N // 2, int32)
        i = cuda.threadIdx.x
        scratch[0] = i
        block[i] = scratch[0]
        cuda.syncthreads()
        out[i] = block[N - 1 - i]

    out = kiln.zeros(64, dtype="int32", device=current)
    reversed_through_shared[1, 64](out)
    assert kiln.asnumpy(out).tolist() == list(range(63, -1, -1))
    with pytest.raises(ValueError, match="negative task count"):
        reversed_through_shared.forall(-1)


def test_nested_enumerate_and_zip(current):
    """``enumerate(zip(a, b))`` and ``zip(enumerate(a), b)`` walk in step as
    in Python, the targets unpacked to match."""

    @cuda.jit
    def walks(x, y, out):
        for i, (xv, yv) in enumerate(zip(x, y), 10):
            out[0, i - 10] = i * 100 + xv + yv
        for (i, xv), yv in zip(enumerate(x), y):
            out[1, i] = i * 100 + xv * yv

    x, y = np.arange(5.0), np.arange(5.0) + 1
    out = kiln.zeros((2, 5), device=current)
    walks[1, 1](kiln.asarray(x, device=current), kiln.asarray(y, device=current), out)
    want = [[i * 100 + a + b for i, (a, b) in enumerate(zip(x, y), 10)],
            [i * 100 + a * b for (i, a), b in zip(enumerate(x), y)]]
    np.testing.assert_array_equal(kiln.asnumpy(out), want)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "complex128"])
def test_builtin_pow_is_the_power_operator(current, dtype):
    @cuda.jit
    def powers(r, x, y):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = pow(x[i], y[i])

    x = (np.arange(1, 5) * (1 + 0.5j if dtype.startswith("complex") else 1)).astype(dtype)
    y = np.array([2, 3, 0.5, 1], dtype=dtype)
    r = kiln.zeros(4, dtype=dtype, device=current)
    powers[1, 4](r, kiln.asarray(x, device=current), kiln.asarray(y, device=current))
    np.testing.assert_allclose(kiln.asnumpy(r), x ** y, rtol=1e-6)


def test_dynamic_shared_memory_has_the_launch_size(current):
    """cuda.shared.array(0, dtype) holds the launch's dynamic shared bytes:
    its len() is theirs, and slices count from its real end."""
    from kiln.cuda import int32

    @cuda.jit
    def reverse_slice(x):
        dynamic = cuda.shared.array(0, dtype=int32)
        odd_from_the_end = dynamic[-1::-2]
        for k in range(6):
            dynamic[k] = 99
        for k in range(3):
            odd_from_the_end[k] = k + 1
        for k in range(6):
            x[k] = dynamic[k]
        x[6] = len(dynamic)

    out = kiln.zeros(7, dtype="int32", device=current)
    reverse_slice[1, 1, 0, 24](out)
    assert kiln.asnumpy(out).tolist() == [99, 3, 99, 2, 99, 1, 6]


def test_kernels_may_be_named_like_c_library_functions(current):
    """A kernel called div or rand (C library functions) compiles: kernels
    live in a namespace of their own. (One that calls the C function of its
    own name, a kernel exp calling math.exp, still does not.)"""
    from kiln.cuda import float32, int32, void

    @cuda.jit(void(float32[:, :], int32, int32))
    def div(grid, l_x, l_y):
        for x in range(l_x):
            for y in range(l_y):
                grid[x, y] /= 2.0

    @cuda.jit
    def rand(a):
        a[0] = math.exp(a[0])

    grid = kiln.ones((2, 2), dtype="float32", device=current)
    div[1, 1](grid, 2, 2)
    assert kiln.asnumpy(grid).tolist() == [[0.5, 0.5], [0.5, 0.5]]
    one = kiln.zeros(1, device=current)
    rand[1, 1](one)
    assert kiln.asnumpy(one).tolist() == [1.0]


def test_fp16_functions_round_as_float16_and_take_literals(current):
    """cuda.fp16's functions compute in float and round once to float16; a
    literal argument (2, 2.5, 0.1) is first a float16, as in Numba."""

    @cuda.jit
    def halves(x, out):
        out[0] = cuda.fp16.hmul(x[0], 2)
        out[1] = cuda.fp16.hmul(x[0], 2.5)
        out[2] = cuda.fp16.hadd(x[1], 0.1)
        out[3] = cuda.fp16.hfma(x[0], x[1], x[2])
        out[4] = cuda.fp16.hsqrt(x[2])

    x = np.array([321, 1, 3], dtype=np.float16)
    out = kiln.zeros(5, dtype="float16", device=current)
    halves[1, 1](kiln.asarray(x, device=current), out)
    f16 = np.float16
    want = [x[0] * f16(2), x[0] * f16(2.5), x[1] + f16(0.1), f16(np.float32(x[0]) * x[1] + x[2]), np.sqrt(x[2])]
    assert kiln.asnumpy(out).tolist() == [float(w) for w in want]


TIMES2 = cuda.CUSource("""
extern "C" __device__ int times2(int* out, int a) { *out = a * 2; return 0; }
""")


def test_declared_device_functions_from_cuda_cpp(current, tmp_path):
    times2 = cuda.declare_device("times2", "int32(int32)", link=TIMES2)
    assert times2.name == "times2" and times2.sig.args == (cuda.int32,) and times2.sig.return_type == cuda.int32
    on_disk = tmp_path / "plus.cu"
    on_disk.write_text('extern "C" __device__ double plus_half(double a) { return a + 0.5; }\n')
    plus_half = cuda.declare_device("plus_half", cuda.float64(cuda.float64), link=[str(on_disk)], abi="c")
    seven = cuda.declare_device("seven", "int32()", abi="c")  # defined in the kernel's own link=

    @cuda.jit
    def twice(x):  # a @cuda.jit function called from a kernel runs as a device function, as in Numba
        return times2(x)

    @cuda.jit(link=[cuda.CUSource('extern "C" __device__ int seven() { return 7; }')])
    def kernel(r, f, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = twice(x[i]) + seven()
            f[i] = plus_half(x[i])

    x = np.arange(10, dtype=np.int32)
    r, f = cuda.to_device(np.zeros(10, dtype=np.int32)), cuda.to_device(np.zeros(10))
    kernel[1, 32](r, f, cuda.to_device(x))
    np.testing.assert_array_equal(r.copy_to_host(), x * 2 + 7)
    np.testing.assert_array_equal(f.copy_to_host(), x + 0.5)


def test_declared_functions_may_spell_the_result_pointer_otherwise(current):
    """Numba's convention passes the result slot untyped as far as the linker
    knows: C code taking `unsigned int *` for an int32 result links, as it
    does in Numba, and may include the CUDA toolkit's curand_kernel.h (kiln's
    own cuRAND XORWOW on the CPU)."""
    source = cuda.CUSource("""
    #include <curand_kernel.h>
    extern "C" __device__ int first_draw(unsigned int *out, unsigned long long seed) {
      curandStateXORWOW_t state;
      curand_init(seed, 1, 0, &state);
      *out = curand(&state);
      return 0;
    }""")
    if current.type == "cuda" and not os.path.exists("/usr/local/cuda/include/curand_kernel.h") \
            and "CUDA_HOME" not in os.environ:
        pytest.skip("no CUDA toolkit headers here")
    first_draw = cuda.declare_device("first_draw", cuda.int32(cuda.uint64), link=[source])

    @cuda.jit
    def kernel(x, seed):
        x[0] = first_draw(seed)

    x = np.zeros(1, dtype=np.uint32)
    kernel[1, 1](x, 1)
    assert x[0] == 323845807  # cuRAND's first XORWOW draw for seed 1, subsequence 1


def test_declare_device_refuses_what_it_cannot_take(tmp_path):
    with pytest.raises(TypeError, match="Return type must be provided"):
        cuda.declare_device("f1", "(float32[:],)")
    with pytest.raises(TypeError, match="Return type must be provided"):
        cuda.declare_device("f1", (cuda.float32[:],))
    with pytest.raises(NotImplementedError, match="Unsupported ABI"):
        cuda.declare_device("f1", "int32()", abi="fortran")
    with pytest.raises(NotImplementedError, match="device linker"):
        cuda.declare_device("f1", "int32()", link=str(tmp_path / "f.ptx"))
    with pytest.raises(TypeError, match="CUSource or the path"):
        cuda.jit(link=[42])


def loops_with_else(x, out):
    # for ... else and while ... else: the else runs unless a break of that loop ended it
    found = -1
    for i in range(x.size):
        if x[i] < 0:
            found = i
            break
    else:
        found = 100
    out[0] = found
    k = 0
    while k < 3:
        for j in range(4):  # a break here leaves only this loop
            if j == 1:
                break
        k += 1
    else:
        out[1] = k
    total = 0
    for n, r in enumerate(range(10, 0, -3)):  # range() inside enumerate: 10, 7, 4, 1
        total += n * r
    out[2] = total


def test_loops_with_else_and_ranges_in_enumerate(current):
    kernel = cuda.jit(loops_with_else)
    for values in (np.array([3, 1, -2, 5]), np.array([3, 1, 2, 5])):
        out = cuda.to_device(np.zeros(3, dtype=np.int64))
        kernel[1, 1](cuda.to_device(values), out)
        expected = np.zeros(3, dtype=np.int64)
        loops_with_else(values, expected)  # the same function as Python runs it
        np.testing.assert_array_equal(out.copy_to_host(), expected)


def test_arrays_captured_from_the_enclosing_scope(current):
    table = np.arange(12, dtype=np.int64).reshape(3, 4)  # frozen into the kernel as constant data
    shared = cuda.to_device(np.array([1.0, 2.0, 3.0, 4.0, 5.0], dtype=np.float32))  # captured by reference
    scalar = cuda.to_device(np.array(42.0, dtype=np.float32))

    @cuda.jit(device=True)
    def read_shared(i):
        return shared[i]

    @cuda.jit
    def kernel(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = read_shared(i) + table[1, i % 4] + scalar[()]
            shared[i] = 2 * shared[i]  # writes reach the captured array

    out = cuda.device_array(5, dtype=np.float32)
    kernel[1, 5](out)
    np.testing.assert_array_equal(out.copy_to_host(), [1 + 4 + 42, 2 + 5 + 42, 3 + 6 + 42, 4 + 7 + 42, 5 + 4 + 42])
    np.testing.assert_array_equal(shared.copy_to_host(), [2, 4, 6, 8, 10])

    big = np.zeros(1 << 14)  # 128 KiB: more than constant data holds

    @cuda.jit
    def reads_big(out):
        out[0] = big[3]

    with pytest.raises(cuda.UnsupportedError, match="copy it to the device and pass it as an argument"):
        reads_big[1, 1](out)


REDUCED = (np.array([1.5, np.nan, -2.0, 4.0]), np.array([[3, 0, 7], [1, 9, 2]], dtype=np.int32), np.array(2.5),
           np.array([[np.nan, np.nan]]))
REDUCTIONS = ("sum", "prod", "mean", "var", "std", "min", "max", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
              "nanmin", "nanmax", "all", "any", "count_nonzero")


@pytest.mark.parametrize("name", REDUCTIONS)
def test_numpy_reductions_of_whole_arrays_in_kernels(current, name):
    reduce = getattr(np, name)

    @cuda.jit
    def kernel(out):
        k = 0
        for a in cuda.literal_unroll(REDUCED):  # each array its own type: the loop is unrolled
            out[k] = reduce(a)
            k += 1

    out = cuda.to_device(np.zeros(len(REDUCED)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's all-NaN warnings
        kernel[1, 1](out)
        expected = [float(reduce(a)) for a in REDUCED]
    np.testing.assert_allclose(out.copy_to_host(), expected, rtol=1e-15, equal_nan=True)


def test_zero_dimensional_arrays_in_kernels(current):
    @cuda.jit
    def broadcast(a0, b, out):
        np.add(a0, b, out)  # a 0-d array broadcasts as a number

    @cuda.jit(debug=True)
    def parts(z0, out):
        r = z0.imag
        out[0] = r[()] * 3 + z0[()].real  # a[()] is checked in debug mode too

    out = cuda.to_device(np.zeros(3))
    broadcast[1, 1](cuda.to_device(np.array(2.0)), cuda.to_device(np.arange(3.0)), out)
    np.testing.assert_array_equal(out.copy_to_host(), [2.0, 3.0, 4.0])
    parts[1, 1](cuda.to_device(np.array(2.0 + 1.5j)), out)
    assert out.copy_to_host()[0] == 1.5 * 3 + 2.0


def test_round_to_digits_of_float32_is_computed_in_double(current):
    @cuda.jit
    def rounded(out, x, n):
        out[0] = round(x, n)

    out = cuda.to_device(np.zeros(1, dtype=np.float32))
    rounded[1, 1](out, np.float32(0.3425), 3)  # float32(0.3425) is just above the half: 0.343, as Numba gives
    assert out.copy_to_host()[0] == np.float32(0.343)


def test_launch_bounds_refuse_bigger_blocks_on_every_device(current):
    @cuda.jit(launch_bounds=128)
    def bounded(out):
        out[cuda.grid(1)] = 1

    out = cuda.to_device(np.zeros(256, dtype=np.int32))
    bounded[2, 128](out)
    assert bounded.signatures == list(bounded.overloads)  # Numba's: the compiled specialisations
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE.*launch_bounds of 128"):
        bounded[1, (16, 16)](out)


def test_guvectorize_refuses_as_numba_does(current):
    with pytest.raises(TypeError, match="cannot return values: signature .* specifies int32 return type"):
        @cuda.guvectorize([cuda.int32(cuda.int32[:], cuda.int32[:])], "(m)->(m)")
        def returns(x, y):
            pass
    with pytest.raises(TypeError, match="nopython flag must be True"):
        cuda.guvectorize([cuda.void(cuda.float32[:], cuda.float32[:])], "(x)->(x)", nopython=False)
    with pytest.raises(TypeError, match="The following target options are not supported: 'what1'"):
        cuda.guvectorize([cuda.void(cuda.float32[:], cuda.float32[:])], "(x)->(x)", what1=True)

    @cuda.guvectorize([cuda.void(cuda.float32[:], cuda.float32[:])], "(x)->(x)")
    def doubled(a, b):
        for i in range(a.shape[0]):
            b[i] = a[i] * 2

    x = np.arange(4, dtype=np.float32)
    with pytest.raises(ValueError, match="'out' as both positional and keyword"):
        doubled(x, x, out=x)
    np.testing.assert_array_equal(doubled(x), x * 2)


def test_float16_arithmetic_is_one_f16_instruction_and_matches_numpy(current):
    from kiln.cuda import fp16

    @cuda.jit
    def half_ops(a, b, out, flags, c8):
        i = cuda.grid(1)
        if i < a.size:
            x, y = a[i], b[i]
            out[i, 0] = x + y
            out[i, 1] = x - y
            out[i, 2] = x * y
            out[i, 3] = -x
            out[i, 4] = abs(x)
            out[i, 5] = fp16.hfma(x, y, x)
            out[i, 6] = np.float16(c8[i])
            flags[i, 0] = x > y
            flags[i, 1] = x != y
            flags[i, 2] = x <= y

    rng = np.random.default_rng(3)
    a = (rng.standard_normal(300) * 100).astype(np.float16)
    b = (rng.standard_normal(300) * 100).astype(np.float16)
    a[:3], b[:3] = [np.nan, 1, -0.0], [1, np.nan, 0.0]
    c8 = rng.integers(-128, 128, 300).astype(np.int8)
    out = kiln.zeros((300, 7), dtype=np.float16, device=current)
    flags = kiln.zeros((300, 3), dtype=np.bool_, device=current)
    half_ops[3, 128](kiln.asarray(a, device=current), kiln.asarray(b, device=current), out, flags,
                     kiln.asarray(c8, device=current))
    with np.errstate(all="ignore"):
        want = np.stack([a + b, a - b, a * b, -a, abs(a),
                         (a.astype(np.float64) * b + a).astype(np.float16), c8.astype(np.float16)], axis=1)
    np.testing.assert_array_equal(kiln.asnumpy(out), want)
    np.testing.assert_array_equal(kiln.asnumpy(flags), np.stack([a > b, a != b, a <= b], axis=1))
    ptx = half_ops.inspect_asm(tuple(cuda.types.float16[:] if k < 2 else t for k, t in enumerate(
        (None, None, cuda.types.float16[:, :], cuda.types.boolean[:, :], cuda.types.int8[:]))))
    for instruction in ("add.f16", "sub.f16", "mul.f16", "neg.f16", "abs.f16", "fma.rn.f16", "setp.gt.f16",
                        "setp.neu.f16", "cvt.rn.f16.s8"):
        assert instruction in ptx


def test_min_max_of_floats_are_fmin_fmax_and_float_keeps_a_float_type(current):
    @cuda.jit
    def extremes(a, b, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i, 0] = max(a[i], b[i])
            out[i, 1] = min(a[i], b[i])
            out[i, 2] = max(a[i], b[i], 0.5)  # three arguments: Python's comparisons

    a = np.array([1.0, np.nan, 3.0, -1.0], dtype=np.float32)
    b = np.array([np.nan, 2.0, 0.0, -2.0], dtype=np.float32)
    out = kiln.zeros((4, 3), dtype=np.float32, device=current)
    extremes[1, 4](kiln.asarray(a, device=current), kiln.asarray(b, device=current), out)
    got = kiln.asnumpy(out)
    np.testing.assert_array_equal(got[:, 0], np.fmax(a, b))
    np.testing.assert_array_equal(got[:, 1], np.fmin(a, b))
    np.testing.assert_array_equal(got[:, 2], [max(x, y, np.float32(0.5)) for x, y in zip(a, b)])

    def as_float(x):
        return float(x)

    for numba_type in (cuda.types.float32, cuda.types.float16):
        _, result = cuda.compile_ptx(as_float, (numba_type,), device=True)
        assert result == numba_type  # Numba's float() of a float keeps its type
    _, result = cuda.compile_ptx(as_float, (cuda.types.int32,), device=True)
    assert result == cuda.types.float64


def test_declared_signatures_are_typed_when_decorating():
    def grid_of(n, out):
        out[0] = cuda.grid(n)  # n must be a constant

    with pytest.raises(cuda.TypingError, match="RequireLiteralValue"):
        cuda.jit("void(int32, int64[:])")(grid_of)
    cuda.jit(grid_of)  # without a signature nothing is typed until a launch


@cuda.jit("int64(int64)", device=True)
def _fib_declared(n):
    if n < 2:
        return n
    return _fib_declared(n - 1) + _fib_declared(n - 2)


@cuda.jit(device=True)
def _fib_inferred(n):
    if n < 2:
        return n
    return _fib_inferred(n - 1) + _fib_inferred(n - 2)


@cuda.jit(device=True)
def _is_even(n):
    return True if n == 0 else _is_odd(n - 1)


@cuda.jit(device=True)
def _is_odd(n):
    return False if n == 0 else _is_even(n - 1)


def test_recursive_device_functions(current):
    @cuda.jit
    def fibs(out, evens):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i, 0] = _fib_declared(i)
            out[i, 1] = _fib_inferred(i)
            evens[i] = _is_even(i)

    out = kiln.zeros((12, 2), dtype=np.int64, device=current)
    evens = kiln.zeros(12, dtype=np.bool_, device=current)
    fibs[1, 12](out, evens)
    want = [0, 1]
    while len(want) < 12:
        want.append(want[-1] + want[-2])
    np.testing.assert_array_equal(kiln.asnumpy(out), np.stack([want, want], axis=1))
    np.testing.assert_array_equal(kiln.asnumpy(evens), np.arange(12) % 2 == 0)

    @cuda.jit(device=True)
    def forever(x):
        return forever(x)

    def calls_forever():
        forever(1)

    with pytest.raises(cuda.TypingError, match="runaway recursion"):
        cuda.jit("void()")(calls_forever)


def test_declared_signatures_resolve_as_numba_and_kernel_attributes(current):
    def add(r, x, y):
        r[0] = x + y

    f = cuda.jit(["(float64[::1], float32, float32)", "(float64[::1], float64, float64)"])(add)
    r = kiln.zeros(1, dtype=np.float64, device=current)
    f[1, 1](r, np.float32(1), np.float32(2 ** -25))
    assert float(r[0]) == 1.0  # float32 arithmetic
    f[1, 1](r, 1, 2 ** -25)  # int64 and float64: the float64 signature, converted safely
    assert float(r[0]) == 1.0000000298023224
    ambiguous = cuda.jit(["(float64[::1], float32, float64)", "(float64[::1], float64, float32)",
                          "(float64[::1], int64, int64)"])(add)
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        ambiguous[1, 1](r, 1.0, 2.0)

    @cuda.jit
    def scratch(ary):
        local = cuda.local.array(16, dtype=ary.dtype)  # an argument's dtype is a constant
        for j in range(16):
            local[j] = j
        for j in range(16):
            ary[j] = local[15 - j]

    out = kiln.zeros(16, dtype=np.float32, device=current)
    scratch[1, 1](out)
    np.testing.assert_array_equal(kiln.asnumpy(out), np.arange(15, -1, -1, dtype=np.float32))
    signature = (cuda.types.float32[::1],)
    # A GPU's figures; without one, those of the kernel compiled by NVRTC for
    # compute capability 9.0 (ptxas's report, no GPU needed).
    assert scratch.get_regs_per_thread(signature) > 0
    assert 0 < scratch.get_max_threads_per_block(signature) <= 1024
    assert scratch.get_regs_per_thread()[signature] == scratch.get_regs_per_thread(signature)
    assert scratch.get_shared_mem_per_block(signature) == 0


def test_kernel_resources_with_or_without_a_gpu(current):
    """Shared, local and constant memory as cuFuncGetAttribute gives them,
    on a GPU or (without one) from ptxas's report of the kernel compiled for
    compute capability 9.0."""
    @cuda.jit
    def staged(ary, show):
        tile = cuda.shared.array(100, dtype=cuda.float32)
        scratch = cuda.local.array(300, dtype=cuda.float64)
        i = cuda.grid(1)
        tile[i % 100] = ary[i]
        for j in range(300):
            scratch[j] = ary[(i + j) % ary.size]
        cuda.syncthreads()
        ary[i] = tile[(i + 1) % 100] + scratch[(i * 7) % 300]
        if show:
            print(i)

    out = kiln.zeros(128, dtype=np.float32, device=current)
    staged[1, 128](out, False)
    signature = (cuda.types.float32[::1], cuda.types.boolean)
    assert staged.get_shared_mem_per_block(signature) == 400
    assert staged.get_local_mem_per_thread(signature) >= 300 * 8
    assert staged.get_const_mem_size(signature) >= len("%lld\n")  # print's format, in constant memory
    regs = staged.get_regs_per_thread(signature)
    assert 0 < regs <= 255 and 0 < staged.get_max_threads_per_block(signature) <= 1024


class _Fruit(enum.Enum):
    apple = 1
    pear = (2, 3)  # any value: a member is compared by identity


class _Size(enum.IntEnum):
    small = 2
    large = 500


class _Rank(enum.IntEnum):
    two = 2
    deuce = 2  # an alias of two


def test_enum_members(current):
    """Enum and IntEnum members as Numba has them: arguments and module-level
    members compared with ==, !=, is and is not; an IntEnum's member named
    at module level is its integer (arithmetic, casts); Fruit["apple"]."""
    @cuda.jit
    def compare(a, b, out):
        out[0] = a == b
        out[1] = a != b
        out[2] = a is b
        out[3] = a is not b

    pairs = [(_Fruit.apple, _Fruit.apple), (_Fruit.apple, _Fruit.pear), (_Size.small, _Rank.two),
             (_Rank.two, _Rank.deuce), (_Size.small, _Size.large)]
    for a, b in pairs:
        got = np.zeros(4, np.bool_)
        compare[1, 1](a, b, got)
        np.testing.assert_array_equal(got, [a == b, a != b, a is b, a is not b])

    @cuda.jit
    def constants(x, out):
        out[0] = _Fruit.apple == _Fruit["pear"]
        out[1] = x + _Size.large if x > _Rank["two"] else np.int32(_Size.small) - x
        out[2] = _Fruit.pear is _Fruit["pear"]

    out = np.zeros(3, np.int64)
    constants[1, 1](7, out)
    np.testing.assert_array_equal(out, [0, 507, 1])
    constants[1, 1](1, out)
    assert out[1] == 1

    @cuda.jit
    def ordered(a, b, out):
        out[0] = a < b

    with pytest.raises(cuda.TypingError, match="compared with ==, !=, is and is not"):
        ordered[1, 1](_Fruit.apple, _Fruit.pear, np.zeros(1, np.bool_))


def test_selp_selects(current):
    @cuda.jit
    def pick(a, b, c):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = cuda.selp(a[i] < b, np.int64(3), c[i])

    a, c = np.arange(32, dtype=np.int64), np.full(32, 17, np.int64)
    pick[1, 32](a, 6, c)
    np.testing.assert_array_equal(a, np.where(np.arange(32) < 6, 3, 17))


def test_numba_device_arrays_convert_to_numpy(current):
    """Arrays made by Numba's host API convert to host copies, as Numba's
    device arrays do; arrays made by kiln's (CuPy's) API refuse on a GPU."""
    h = np.arange(6.0).reshape(2, 3)
    made = [cuda.to_device(h)]
    if current.type == "cuda" or cuda.device.host_mode():  # CPU arrays beside a GPU have no CUDA interface
        made.append(cuda.as_cuda_array(cuda.to_device(h)))
    for d in made:
        np.testing.assert_equal(d, h)
        assert np.asarray(d).tolist() == h.tolist()
    empty = cuda.device_array((2, 2), dtype=np.int32)
    assert np.asarray(empty).shape == (2, 2)
    plain = kiln.asarray(h, device=current)
    if current.type == "cpu":
        np.testing.assert_equal(np.asarray(plain), h)
    else:
        with pytest.raises(TypeError, match="Implicit conversion"):
            np.asarray(plain)
        with pytest.raises(TypeError, match="Implicit conversion"):
            np.asarray(cuda.to_device(h), copy=False)


def test_devicearray_module(current):
    """Numba's cuda.devicearray: DeviceNDArray is the type of the host API's
    device arrays; auto_device copies host objects (not device arrays) and
    refuses a host array that is not one block of memory."""
    x = np.arange(10.0)
    d = cuda.to_device(x)
    assert isinstance(d, cuda.devicearray.DeviceNDArray) and cuda.devicearray.is_cuda_ndarray(d)
    assert not cuda.devicearray.is_cuda_ndarray(x)
    assert cuda.devicearray.auto_device(d) == (d, False)
    got, copied = cuda.devicearray.auto_device(2)
    assert copied and got.shape == () and got.copy_to_host() == 2 and got.device == current
    got, copied = cuda.devicearray.auto_device(x.reshape(2, 5).T)  # Fortran order is one block too
    np.testing.assert_array_equal(got.copy_to_host(), x.reshape(2, 5).T)
    with pytest.raises(ValueError, match="non-contiguous buffer"):
        cuda.devicearray.auto_device(x[:-1:2])


def test_debug_mode_division_and_tuple_index(current):
    """Python's error model in debug mode, as Numba's: a zero divisor raises
    ZeroDivisionError and stops the thread there; a tuple indexed out of
    range by a number known only when running raises IndexError. Outside
    debug mode a shape indexed by a running number still works."""
    @cuda.jit(debug=True)
    def divide(r, x, y):
        r[0] = y[0] / x[0]
        r[1] = y[0]

    r = np.zeros(2)
    divide[1, 1](r, np.ones(1) * 4, np.ones(1))
    assert r.tolist() == [0.25, 1.0]
    r[:] = 0
    with pytest.raises(ZeroDivisionError, match="In function 'divide'.*: division by zero"):
        divide[1, 1](r, np.zeros(1), np.ones(1))
    assert r.tolist() == [0.0, 0.0]  # stopped before the store

    def extent(ary, out, k):
        out[0] = ary.shape[-k]

    out = np.zeros(1, np.int64)
    cuda.jit(extent)[1, 1](np.zeros((3, 5)), out, 1)
    assert out[0] == 5
    with pytest.raises(IndexError, match="tuple index out of range"):
        cuda.jit(debug=True)(extent)[1, 1](np.zeros((3, 5)), out, 3)


def test_numba_host_details(current):
    """per_thread_default_stream, vectorize's option errors and warnings,
    warp vote typing, the copy warning for host arrays (none for mapped)."""
    s = cuda.per_thread_default_stream()
    assert int(s.handle) == 2
    s.synchronize()
    with pytest.raises(KeyError, match="Unrecognized options"):
        cuda.vectorize(["float32(float32)"], nonexistent=2)
    with pytest.warns(RuntimeWarning, match="nopython kwarg for cuda target is redundant"):
        cuda.vectorize(["float32(float32)"], nopython=True)

    def vote(mask, predicate, result):
        i = cuda.grid(1)
        result[i] = cuda.all_sync(mask[i], predicate[i])

    with pytest.raises(cuda.TypingError, match="Mask type must be an integer"):
        cuda.jit("void(float32[:], int32[:], int32[:])")(vote)
    with pytest.raises(cuda.TypingError, match="Predicate must be an integer or boolean"):
        cuda.jit("void(int32[:], float64[:], int32[:])")(vote)

    @cuda.jit
    def bump(r):
        r[0] += 1

    if current.type != "cpu":
        with pytest.warns(cuda.PerformanceWarning, match="Host array used in CUDA kernel will incur"):
            bump[1, 1](np.zeros(1))
        mapped = cuda.mapped_array(1)
        mapped[0] = 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            bump[1, 1](mapped)
        assert mapped[0] == 2


def test_vector_types(current):
    """CUDA's vector types by Numba's names and aliases: made from numbers
    and smaller vectors, read by .x .y .z .w; loops over tuples of vectors,
    a loop name reused for vectors of another size."""
    from kiln.cuda.vector_types import vector_types

    assert cuda.float4 is cuda.float32x4 and cuda.short2 is cuda.int16x2 and cuda.ulonglong3 is cuda.uint64x3
    assert vector_types["float64x3"].num_elements == 3 and vector_types["float64x3"].base_type == cuda.float64

    @cuda.jit
    def build(out):
        a = cuda.float32x2(1.5, 2)
        b = cuda.float4(a, 3, cuda.float32x1(4.25))
        c = cuda.int16x3(b.w, a)  # converted to int16: 4, 1, 2
        k = 0
        for v in tuple((a, a)):
            out[k] = v.x + v.y
            k += 1
        for v in (b,):
            out[k] = v.x * 1000 + v.y * 100 + v.z * 10 + v.w
            k += 1
        out[k] = c.x * 100 + c.y * 10 + c.z

    out = np.zeros(4)
    build[1, 1](out)
    np.testing.assert_allclose(out, [3.5, 3.5, 1500 + 200 + 30 + 4.25, 412])

    @cuda.jit
    def extents(out):
        for n in tuple(out.shape):  # tuple() of a one-item shape
            out[0] = n

    extents[1, 1](out)
    assert out[0] == 4

    @cuda.jit
    def wrong_count(out):
        out[0] = cuda.float32x3(1.0, 2.0).x

    with pytest.raises(cuda.TypingError, match="has 3 components"):
        wrong_count[1, 1](out)


def test_numba_arrays_keep_their_stream(current):
    """Numba's device arrays remember the stream they were made on, export it
    through __cuda_array_interface__ (none without one) and import it back as
    an external stream."""
    if current.type == "cpu" and not cuda.device.host_mode():
        pytest.skip("arrays on the CPU beside a GPU have no __cuda_array_interface__ to carry a stream")
    s = cuda.stream()
    made = cuda.device_array(4, stream=s)
    assert made.stream is s and made.__cuda_array_interface__["stream"] == int(s.handle)
    plain = cuda.device_array(4)
    assert plain.stream == 0 and plain.__cuda_array_interface__["stream"] is None
    mapped = cuda.mapped_array(3, stream=s)
    assert mapped.__cuda_array_interface__["stream"] == int(s.handle)
    assert cuda.mapped_array(3).__cuda_array_interface__["stream"] is None

    class Foreign:
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    imported = cuda.as_cuda_array(Foreign(made))
    assert imported.stream.external and int(imported.stream.handle) == int(s.handle)
    assert cuda.as_cuda_array(Foreign(plain)).stream == 0
    made.copy_to_device(np.arange(4.0))
    np.testing.assert_array_equal(made.copy_to_host(), np.arange(4.0))  # on the array's stream


def test_a_foreign_arrays_stream_is_synchronized_as_numba_does(current, monkeypatch):
    """The Numba face synchronizes the stream an imported interface names
    before using the memory: once in as_cuda_array, once per foreign argument
    of a launch; not kiln's current stream (its order suffices), and
    sync=False and config.CUDA_ARRAY_INTERFACE_SYNC = 0 skip it."""
    if current.type == "cpu" and not cuda.device.host_mode():
        pytest.skip("arrays on the CPU beside a GPU have no __cuda_array_interface__ to carry a stream")
    from unittest import mock

    class Foreign:
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    s1, s2 = cuda.stream(), cuda.stream()
    a, b = Foreign(cuda.device_array(4, stream=s1)), Foreign(cuda.device_array(4, stream=s2))
    no_stream = Foreign(cuda.device_array(4))

    @cuda.jit
    def fill(x, y):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = i
            y[i] = 2 * i

    with mock.patch.object(cuda.Stream, "synchronize", autospec=True) as sync:
        cuda.as_cuda_array(a)
        assert [c.args[0].handle for c in sync.call_args_list] == [s1.handle]
        cuda.as_cuda_array(a, sync=False)
        cuda.as_cuda_array(no_stream)
        on_current = Foreign(cuda.device_array(4))
        on_current.__cuda_array_interface__ = dict(on_current.__cuda_array_interface__, stream=1)
        cuda.as_cuda_array(on_current)  # kiln's current stream (the null stream, 1) orders it already
        assert sync.call_count == 1
        fill[1, 4](a, b)
        assert sorted(int(c.args[0].handle) for c in sync.call_args_list[1:]) == sorted([int(s1.handle), int(s2.handle)])
        monkeypatch.setattr(cuda.config, "CUDA_ARRAY_INTERFACE_SYNC", 0)
        cuda.as_cuda_array(a)
        fill[1, 4](a, b)
        assert sync.call_count == 3
    cuda.synchronize()
    np.testing.assert_array_equal(cuda.as_cuda_array(b).copy_to_host(), 2 * np.arange(4.0))


def test_pointer_arguments_and_carray(current):
    """CPointer parameters take addresses (indexed without bounds), and
    carray/farray view them as arrays, as Numba's kernels have them."""
    from kiln.cuda import carray, farray
    from kiln.cuda.types import CPointer

    ptr = CPointer(cuda.int32)

    @cuda.jit(cuda.void(ptr, cuda.int32, ptr, cuda.uint32))
    def axpy(r, a, x, n):
        i = cuda.grid(1)
        if i < n:
            r[i] = a * x[i] + r[i]

    x, r = cuda.to_device(np.arange(10, dtype=np.int32)), cuda.to_device(np.ones(10, dtype=np.int32))
    axpy[1, 16](int(r.gpu_data.device_pointer), 3, int(x.gpu_data.device_pointer), 10)
    np.testing.assert_array_equal(r.copy_to_host(), 3 * np.arange(10) + 1)

    @cuda.jit(cuda.void(CPointer(cuda.float32), cuda.float32[:, :], cuda.float32[:, :]))
    def views(p, c_out, f_out):
        c = carray(p, (2, 3))
        f = farray(p, (2, 3), dtype=cuda.float32)
        for i in range(2):
            for j in range(3):
                c_out[i, j] = c[i, j]
                f_out[i, j] = f[i, j]

    data = cuda.to_device(np.arange(6, dtype=np.float32))
    c_out, f_out = np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float32)
    views[1, 1](int(data.gpu_data.device_pointer), c_out, f_out)
    np.testing.assert_array_equal(c_out, np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(f_out, np.arange(6).reshape(2, 3, order="F"))


def test_print_in_kernels(current, tmp_path):
    """print() in a kernel, run in a child process (the kernel's printf writes
    to the process's stdout): numbers, bfloat16 as a float, spread tuples,
    and more than 32 items (the raw format, with a warning, as Numba)."""
    import subprocess

    env = {**os.environ, "KILN_DEVICE": "cpu" if current.type == "cpu" else "cuda"}

    def run(body, launch):
        script = tmp_path / "printing.py"
        script.write_text(f"import numpy as np\nfrom kiln import cuda\n\n@cuda.jit\ndef k(r):\n    {body}\n\n"
                          f"{launch}\ncuda.synchronize()\n")
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip(), done.stderr

    out, _ = run("t = (r[1], r[2])\n    print(r[0], cuda.bfloat16(0.9375), *(r[1], r[2]), *t)", "k[1, 1](np.arange(3))")
    assert out == "0 0.937500 1 2 1 2"
    items = ", ".join(f"r[{i}]" for i in range(33))
    out, err = run(f"print({items})", "k[1, 1](np.arange(33))")
    assert out == " ".join(["%lld"] * 33) and "cannot print more than 32 items" in err

    if current.type == "cuda":  # the format strings are in constant memory, as Numba's are
        @cuda.jit
        def prints(value, really):
            if really:
                print(value)

        prints[1, 1](1, False)
        assert prints.get_const_mem_size(cuda.void(cuda.int64, cuda.boolean)) >= len("%lld\n")


def test_decompiled_spread_calls_are_inlined():
    """The lists depyf builds for calls of many or spread arguments (what a
    kernel from python -c decompiles to) become the call's arguments."""
    import ast

    from kiln._jit.function import _inline_built_lists

    tree = ast.parse("def k(r):\n    t = [r[0], r[1]]\n    t.append(r[2])\n    t.extend((r[3], r[4]))\n"
                     "    t.extend(u)\n    print(*tuple(t))\n")
    _inline_built_lists(tree.body[0])
    assert ast.unparse(tree.body[0].body[0]) == "print(r[0], r[1], r[2], r[3], r[4], *u)"


@cuda.jit(device=True, forceinline=True)
def _load_by_name(gmem, value):
    if value == "one":
        gmem[cuda.threadIdx.x] = 1.0
    elif value != "zero":
        gmem[cuda.threadIdx.x] = 2.0
    else:
        gmem[cuda.threadIdx.x] = 0.0


def test_string_literal_arguments(current):
    """A device function's string literal argument is a constant it is
    specialised on; comparing it with strings is decided when compiling."""
    @cuda.jit
    def kernel(buff, pick):
        if pick == 0:
            _load_by_name(buff, "one")
        elif pick == 1:
            _load_by_name(buff, "zero")
        else:
            _load_by_name(buff, "two")

    buff = cuda.to_device(np.full(4, 9, np.float32))
    for pick, want in ((0, 1.0), (1, 0.0), (2, 2.0)):
        kernel[1, 4](buff, pick)
        assert buff.copy_to_host().tolist() == [want] * 4


@cuda.jit
def _reshape_to_2d(arr, newshape, got):
    y = arr.reshape(newshape)
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            got[i, j] = y[i, j]


@cuda.jit
def _reshape_extents(arr, n, got):
    y = arr.reshape(n, -1)  # the extents as arguments
    got[0] = y.shape[0]
    got[1] = y.shape[1]


def test_array_reshape_in_kernels(current):
    """a.reshape(shape) in a kernel: a view of a C-contiguous array (of up to
    8 dimensions) with one -1 inferred; a size that does not fit gives an
    empty view, never memory outside the array."""
    base = np.arange(24.0)
    for arr in (base, base.reshape(1, 8, 1, 1, 3, 1), base.reshape(2, 3, 4)):
        for shape in ((4, 6), (8, 3), (-1, 12), (24, -1)):
            want = arr.reshape(shape)
            got = np.zeros(want.shape)
            _reshape_to_2d[1, 1](arr, shape, got)
            np.testing.assert_array_equal(got, want)
    on_device = kiln.asarray(base.reshape(2, 12), device=current)
    got = kiln.zeros((3, 8), device=current)
    _reshape_to_2d[1, 1](on_device, (3, 8), got)
    np.testing.assert_array_equal(kiln.asnumpy(got), base.reshape(3, 8))
    extents = np.zeros(2, np.int64)
    for n, want in ((4, [4, 6]), (5, [0, 0]), (0, [0, 0])):  # 5 and 0 do not divide 24: an empty view
        _reshape_extents[1, 1](base, n, extents)
        assert extents.tolist() == want
    strided = kiln.asarray(base, device=current)[::2]  # not contiguous: an empty view
    on_device = kiln.zeros(2, dtype=kiln.int64, device=current)
    _reshape_extents[1, 1](strided, 3, on_device)
    assert kiln.asnumpy(on_device).tolist() == [0, 0]
    with pytest.raises(TypeError, match="more than 8 dimensions"):
        _reshape_extents[1, 1](np.zeros((1,) * 9), 1, extents)


def test_array_view_and_reduction_methods_in_kernels(current):
    @cuda.jit
    def methods(raw, a, out, words):
        out[0] = a.sum()
        out[1] = a.mean()
        out[2] = a.max()
        out[3] = a.min()
        out[4] = a.reshape(a.size).std()
        out[5] = a.prod()
        w = raw.view(np.int32)
        for i in range(w.shape[0]):
            words[i] = w[i]
        words[w.shape[0]] = raw[4:8].view(np.uint32)[0]

    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 2.0, (3, 4))
    raw = rng.integers(0, 255, 16).astype(np.uint8)
    out, words = np.zeros(6), np.zeros(5, np.int64)
    methods[1, 1](raw, a, out, words)
    np.testing.assert_allclose(out, [a.sum(), a.mean(), a.max(), a.min(), a.std(), a.prod()], rtol=1e-12)
    assert words[:4].tolist() == raw.view(np.int32).tolist() and words[4] == raw[4:8].view(np.uint32)[0]


def test_kernels_and_ufuncs_pickle_by_value(current):
    """Kernels defined inside a function (calling a device function from
    their closure), their configured launches and CUDA ufuncs pickle by
    value, as Numba's do, and run after loading."""
    import pickle

    scale = 3

    @cuda.jit(device=True)
    def inner(a):
        return a * scale + 1

    @cuda.jit
    def kernel(arr):
        i = cuda.grid(1)
        if i < arr.size:
            arr[i] = inner(arr[i]) + np.float64(math.floor(0.5))

    @cuda.jit("void(float64[:])")
    def declared(arr):
        arr[0] = inner(arr[0])

    @cuda.vectorize(["float64(float64)", "int64(int64)"])
    def twice(x):
        return x * 2

    for original, threads, want in ((kernel, 4, [1.0, 4.0, 7.0, 10.0]), (declared, 1, [1.0, 1.0, 2.0, 3.0])):
        again = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(original))))
        arr = np.arange(4.0)
        again[1, threads](arr)
        assert arr.tolist() == want
    launch = pickle.loads(pickle.dumps(kernel[5, 8]))
    assert launch.griddim == (5, 1, 1) and launch.blockdim == (8, 1, 1)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(twice))(np.arange(3)), [0, 2, 4])


def test_pre_launch_callbacks_run_before_each_launch_of_their_configuration(current):
    """Numba's configured launches: callback(kernel, configuration) runs
    before each launch through that configuration, a new `kernel[...]`
    has none, and a configuration with callbacks refuses to pickle."""
    import pickle

    @cuda.jit
    def bump(arr):
        arr[0] += 1

    configured = bump[1, 1]
    seen = []
    configured.pre_launch_callbacks.append(lambda kernel, launch: seen.append((arr[0], launch.griddim)))
    arr = np.zeros(1)
    configured(arr)
    configured(arr)
    assert seen == [(0.0, (1, 1, 1)), (1.0, (1, 1, 1))]
    bump[1, 1](arr)
    assert arr[0] == 3 and len(seen) == 2 and bump[1, 1].pre_launch_callbacks == []
    with pytest.raises(pickle.PicklingError, match="pre-launch callbacks"):
        pickle.dumps(configured)


def test_complex_builds_its_parts_as_python_does(current):
    """complex(re, im): real parts stand as they are (inf + nan j stays so,
    -0.0 keeps its sign; multiplying by 1j lost both); complex arguments add
    their other parts, as CPython's complex_new."""
    @cuda.jit
    def build(re, im, z, out):
        out[0] = complex(re[0], im[0])
        out[1] = complex(re[1], im[1])
        out[2] = complex(z[0], im[1])
        out[3] = complex(re[2], z[1])
        out[4] = complex(z[0], z[1])

    re = np.array([math.inf, 1.0, 2.5])
    im = np.array([math.nan, -0.0])
    z = np.array([1 + 2j, -3 + 4j])
    out = np.zeros(5, dtype=np.complex128)
    build[1, 1](re, im, z, out)
    want = [complex(re[0], im[0]), complex(re[1], im[1]), complex(z[0], im[1]), complex(re[2], z[1]),
            complex(z[0], z[1])]
    for got, w in zip(out, want):
        assert (np.isnan(got.real), np.isnan(got.imag)) == (math.isnan(w.real), math.isnan(w.imag))
        if not math.isnan(w.real):
            assert got.real == w.real and math.copysign(1, got.real) == math.copysign(1, w.real)
        if not math.isnan(w.imag):
            assert got.imag == w.imag and math.copysign(1, got.imag) == math.copysign(1, w.imag)


def test_cmath_log_is_cpythons(current):
    """cmath.log of one and two arguments as CPython computes them (c_log's
    log1p form near |z| = 1, its scaling of huge and subnormal parts, the
    quotient divided by its denominator): equal to CPython's in double
    precision, x / x exactly 1 + 0j."""
    @cuda.jit
    def logs(x, b, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i, 0] = cmath.log(x[i], b[i])
            out[i, 1] = cmath.log(x[i])

    pairs = [(-math.pi * 1j, -math.pi * 1j), (1 + 1j, -math.pi + 0j), (1 + 1j, 2 + 0j), (0.9 + 0.6j, 3 - 1j),
             (1e-310 + 1e-310j, 3 + 0j), (1e308 + 1e308j, 0.5 + 0.5j), (-2.5 + 0j, 1j)]
    x = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    out = np.zeros((len(pairs), 2), dtype=np.complex128)
    logs[1, 32](x, b, out)
    want = np.array([[cmath.log(p, q), cmath.log(p)] for p, q in pairs])
    assert out[0, 0] == 1 and math.copysign(1, out[0, 0].imag) == -1  # x / x, CPython's -0.0
    if current.type == "cpu":  # the C library CPython uses
        np.testing.assert_array_equal(out, want)
    else:  # a GPU's log, log1p and atan2 are within an ulp or two of it
        np.testing.assert_allclose(out, want, rtol=1e-15)


_CAPTURED = np.array([1, 2, 3])[::-1]
_CAPTURED_2D = np.arange(6.0).reshape(2, 3)


def test_a_captured_arrays_copy_is_a_writable_local_array(current):
    """copy() of a captured NumPy array (its shape known when compiling): a
    per-thread local array holding its values, writable, the captured
    array unchanged (Numba's test_array_copy)."""
    @cuda.jit
    def copies(out, out2):
        q = _CAPTURED.copy()
        q[0] += 10
        for i in range(len(out)):
            out[i] = q[i]
        g = _CAPTURED_2D.copy()
        g[1, 2] = -1.0
        out2[0] = g[1, 2] + g[0, 1] + _CAPTURED_2D[1, 2]

    out, out2 = np.zeros(3), np.zeros(1)
    copies[1, 1](out, out2)
    np.testing.assert_array_equal(out, [13, 2, 1])
    assert out2[0] == 5.0


@cuda.jit
def _local_arrays_across_barriers(x, out):
    """Each thread's local array lives across barriers (a local array kept
    the kernel off the blockwise form on the CPU before)."""
    s = cuda.shared.array(64, dtype=np.float64)
    acc = cuda.local.array(3, dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    for r in range(3):
        acc[r] = x[i] * (r + 1)
    for r in range(3):
        s[t] = acc[r]
        cuda.syncthreads()
        acc[r] += s[(t + 1) % 64]
        cuda.syncthreads()
    out[i] = acc[0] + acc[1] + acc[2]


def test_local_arrays_across_barriers_run_blockwise(current):
    x = np.arange(128.0)
    out = np.zeros(128)
    _local_arrays_across_barriers[2, 64](x, out)
    rows = x.reshape(2, 64)
    np.testing.assert_array_equal(out, sum((r + 1) * (rows + np.roll(rows, -1, axis=1)) for r in range(3)).ravel())
    assert _cpu_form(_local_arrays_across_barriers, out, out)


@cuda.jit
def _aligned_local_array_across_a_barrier(out):
    a = cuda.local.array(3, dtype=np.float64, alignment=64)
    s = cuda.shared.array(32, dtype=np.float64)
    s[cuda.threadIdx.x] = 1.0
    cuda.syncthreads()
    a[0] = s[0]
    out[cuda.threadIdx.x] = a.ctypes.data % 64


def test_an_aligned_local_array_keeps_its_alignment_beside_barriers(current):
    """alignment= holds for every thread's array (the blockwise form's
    scratch memory aligns only to the element, so such a kernel keeps fibers)."""
    out = np.ones(32, dtype=np.int64)
    _aligned_local_array_across_a_barrier[1, 32](out)
    assert not out.any()
