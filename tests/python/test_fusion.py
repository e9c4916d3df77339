"""Automatic fusion (kiln.fusion) and kiln.fuse: recorded chains of
elementwise ops give what op-by-op code gives (bit for bit on the CPU; on
the GPU with FMA contraction off), over dtypes, broadcasting, views, scalars,
in-place writes and aliasing; errors come from the call that caused them;
a loop over one expression compiles one kernel."""
import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, FLOAT_DTYPES, random_array


@pytest.fixture
def fused():
    """Every result recorded, each new graph compiled before it runs, no FMA
    contraction (so the GPU's fused kernel rounds as its op-by-op kernels)."""
    with kiln.fusion.configured(enabled=True, cpu_min_size=0, wait_for_compile=True, contract_fma=False):
        yield


def run_both(fn, *arrays):
    """fn over kiln arrays fused and unfused, as NumPy arrays."""
    with kiln.fusion.disabled():
        plain = kiln.asnumpy(fn(*arrays))
    result = fn(*arrays)
    return kiln.asnumpy(result), plain


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))


def test_expression_is_recorded_then_runs_as_one_kernel(device, fused):
    a = kiln.array(np.linspace(-3, 3, 1000, dtype=np.float32), device=device)
    before = kiln.fusion.stats()
    r = kiln.sin(a) * 2 + kiln.sqrt(kiln.abs(a))
    assert kiln.fusion.is_pending(r)
    info = kiln.fusion.inspect(r)
    assert info["graph"] == "add(multiply(sin(float32(1000,)), scalar:float32), sqrt(abs(float32(1000,))))"
    assert "op_sin::call" in info["source"] and "kiln_fused" in info["source"]
    got = kiln.asnumpy(r)
    assert not kiln.fusion.is_pending(r)
    after = kiln.fusion.stats()
    assert after["fused_launches"] == before["fused_launches"] + 1
    assert after["ops_recorded"] == before["ops_recorded"] + 5
    with kiln.fusion.disabled():
        plain = kiln.asnumpy(kiln.sin(a) * 2 + kiln.sqrt(kiln.abs(a)))
    same_bits(got, plain)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_mixed_chain_matches_unfused_for_every_dtype(device, fused, dtype):
    rng = np.random.default_rng(7)
    x = kiln.array(random_array((33, 17), dtype, rng), device=device)
    y = kiln.array(random_array((17,), dtype, rng), device=device)

    def chain(x, y):
        if dtype == "bool":
            return kiln.logical_xor(x & y, ~x) | (x == y)
        t = kiln.where(x > y, x - y, y * 2) + x
        return kiln.abs(t) + (t != 0)

    got, plain = run_both(chain, x, y)
    same_bits(got, plain)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_math_chain_matches_unfused(device, fused, dtype):
    rng = np.random.default_rng(3)
    x = kiln.array(random_array((40, 50), dtype, rng), device=device)
    got, plain = run_both(lambda x: kiln.exp(-x * x) / (1 + kiln.tanh(x)) - kiln.log1p(kiln.abs(x)), x)
    if device.type == "cpu":
        same_bits(got, plain)
    else:  # the GPU's math functions inline differently into a larger kernel
        np.testing.assert_allclose(got, plain, rtol=2e-3 if dtype == "float16" else 1e-6)


def test_casts_and_promotion_inside_a_graph(device, fused):
    i = kiln.array(np.arange(-50, 50, dtype=np.int16), device=device)
    f = kiln.array(np.linspace(0, 1, 100, dtype=np.float32), device=device)
    got, plain = run_both(lambda i, f: (i * 3 + 1) * f + (i > 0) - kiln.float64(0.5), i, f)
    assert got.dtype == np.float64
    same_bits(got, plain)
    ref = (np.arange(-50, 50, dtype=np.int16) * 3 + 1) * np.linspace(0, 1, 100, dtype=np.float32)
    ref = ref + (np.arange(-50, 50) > 0) - np.float64(0.5)
    np.testing.assert_array_equal(got, ref)


def test_broadcasting_views_and_negative_strides(device, fused):
    rng = np.random.default_rng(1)
    base = rng.standard_normal((20, 30))
    a = kiln.array(base, device=device)
    v = kiln.array(rng.standard_normal(30), device=device)
    got, plain = run_both(lambda a, v: (a[::-2, 3:].T * v[3:, None] - a[:10, ::-3].sum() + v[::-1][3:, None]), a, v)
    same_bits(got, plain)
    outer, plain = run_both(lambda v: v[:, None] + v[None, :] * 2, v)
    same_bits(outer, plain)


def test_zero_d_and_scalars(device, fused):
    z = kiln.array(np.float64(2.5), device=device)
    got, plain = run_both(lambda z: kiln.sqrt(z * 4) - 1, z)
    assert got.shape == ()
    same_bits(got, plain)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64", "complex64", "complex128"])
def test_dense_loop_covers_every_length_and_alignment(device, fused, dtype):
    """The GPU's dense loop computes several consecutive elements a thread
    (16-byte loads where aligned): every length around that width, and views
    starting one element in (not aligned), give op-by-op's values."""
    rng = np.random.default_rng(11)
    base = kiln.array(random_array((70,), dtype, rng), device=device)
    other = kiln.array(random_array((70,), dtype, rng), device=device)
    for start in (0, 1, 3):
        for n in (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 66):
            x, y = base[start:start + n], other[start:start + n]
            if dtype == "bool":
                got, plain = run_both(lambda x, y: (x ^ y) | ~x, x, y)
            else:
                got, plain = run_both(lambda x, y: (x + y) * y - x, x, y)
            same_bits(got, plain)


def test_pending_result_used_twice_and_kept(device, fused):
    a = kiln.array(np.arange(12.0).reshape(3, 4), device=device)
    t = a * 2          # kept by the caller while later graphs inline it
    u = t + 1
    w = t * t - u
    np.testing.assert_array_equal(kiln.asnumpy(w), ((np.arange(12.0) * 2) ** 2 - (np.arange(12.0) * 2 + 1)).reshape(3, 4))
    np.testing.assert_array_equal(kiln.asnumpy(t), np.arange(12.0).reshape(3, 4) * 2)
    np.testing.assert_array_equal(kiln.asnumpy(u[1:, ::2]), (np.arange(12.0).reshape(3, 4) * 2 + 1)[1:, ::2])


def test_recorded_ops_keep_operands_whose_python_objects_are_gone(device, fused):
    # The operators read their Python arguments in place (Operand::borrow); a
    # recorded op must hold its own reference, for these arrays' objects die
    # before the ops run.
    def lone_ops():
        a = kiln.array(np.arange(6.0), device=device)
        b = kiln.array(np.full(6, 3.0), device=device)
        return [a + b, b - a, a * 2.0, 1.0 - b, kiln.add(a, b), kiln.where(a > 2, a, b)]
    got = [kiln.asnumpy(r) for r in lone_ops()]
    a, b = np.arange(6.0), np.full(6, 3.0)
    for r, want in zip(got, [a + b, b - a, a * 2.0, 1.0 - b, a + b, np.where(a > 2, a, b)]):
        np.testing.assert_array_equal(r, want)
    c = kiln.array(np.arange(6.0), device=device)
    c += kiln.array(np.ones(6), device=device)  # the right side's object dies at once
    np.testing.assert_array_equal(kiln.asnumpy(c), np.arange(6.0) + 1)


def test_writing_an_input_runs_its_readers_first(device, fused):
    a = kiln.array(np.ones(8), device=device)
    b = a + 1            # recorded: reads a
    a[...] = 10          # a write into a must not change b
    a += 5
    c = a * 2
    np.testing.assert_array_equal(kiln.asnumpy(b), np.full(8, 2.0))
    np.testing.assert_array_equal(kiln.asnumpy(c), np.full(8, 30.0))


def test_in_place_and_aliasing(device, fused):
    base = np.arange(10.0)
    a = kiln.array(base, device=device)
    a += a[::-1] * 2
    expected = base + base[::-1] * 2
    np.testing.assert_array_equal(kiln.asnumpy(a), expected)
    b = a * 1
    b *= b + 1           # in place on a recorded result
    np.testing.assert_array_equal(kiln.asnumpy(b), expected * (expected + 1))
    out = kiln.empty(10, device=device)
    r = kiln.add(a * 3, 1, out=out)
    assert r is out
    np.testing.assert_array_equal(kiln.asnumpy(out), expected * 3 + 1)


def test_in_place_ops_on_a_recorded_result_extend_its_graph(device, fused):
    base = np.arange(10.0)
    a = kiln.array(base, device=device)
    x = a * 2
    same = x
    x += 1
    x *= x               # both sides: the value before this op
    assert x is same and kiln.fusion.is_pending(x)
    assert kiln.fusion.inspect(x)["graph"].startswith("multiply(add(multiply(float64(10,)")
    head = x[:3] + 0     # reads part of x's buffer: x's next write must wait for it
    x -= 5
    expected = (base * 2 + 1) ** 2
    np.testing.assert_array_equal(kiln.asnumpy(head), expected[:3])
    np.testing.assert_array_equal(kiln.asnumpy(x), expected - 5)
    y = a + 0
    y += y[::-1]         # reads part of its own buffer: runs op by op
    np.testing.assert_array_equal(kiln.asnumpy(y), base + base[::-1])
    z = a * 1
    kiln.multiply(z, 2.0, out=z)
    kiln.add(z, a, out=z)
    np.testing.assert_array_equal(kiln.asnumpy(z), base * 3)


def test_update_of_existing_memory_runs_as_one_kernel(device, fused):
    base = np.linspace(0, 1, 50)
    v = kiln.array(base[::-1].copy(), device=device)
    x, plain = kiln.array(base, device=device), kiln.array(base, device=device)
    with kiln.fusion.disabled():
        plain += 0.5 * v * kiln.sin(v)
    before = kiln.fusion.stats()
    x += 0.5 * v * kiln.sin(v)       # x's own memory, written in place by one kernel
    assert kiln.fusion.stats()["fused_launches"] == before["fused_launches"] + 1
    same_bits(kiln.asnumpy(x), kiln.asnumpy(plain))
    kept = x * 1                      # recorded: reads x as it is now
    kiln.multiply(x, kiln.cos(v) + 1, out=x)
    np.testing.assert_array_equal(kiln.asnumpy(kept), kiln.asnumpy(plain))
    np.testing.assert_allclose(kiln.asnumpy(x), kiln.asnumpy(plain) * (np.cos(base[::-1]) + 1), rtol=1e-15)
    y = kiln.array(base, device=device)
    y[5:] += y[:-5] * 2 + 1           # reads another view of its memory: op by op, as eager code
    expected = base.copy()
    expected[5:] += base[:-5] * 2 + 1
    np.testing.assert_allclose(kiln.asnumpy(y), expected, rtol=1e-15)
    z = kiln.zeros((4, 50), device=device)[:, ::2]   # strided output
    z += v[::2] * 3 + 1
    np.testing.assert_allclose(kiln.asnumpy(z), np.broadcast_to(base[::-1][::2] * 3 + 1, (4, 25)), rtol=1e-15)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32", "float16"])
def test_strided_layouts_over_many_tiles(device, fused, dtype):
    # Large enough for several of a CPU kernel's gathered tiles (256
    # elements) on each thread, and for a thread's run to start mid-row:
    # transposed, reversed, stepped and broadcast leaves into a fresh and
    # into a strided output, and a reduction of the same value, bit for bit
    # as op by op (math functions on the CPU, as test_fusion_random's).
    rng = np.random.default_rng(7)
    base = kiln.array(random_array((301, 47), dtype, rng, low=-3, high=4), device=device)
    wide = kiln.array(random_array((47, 602), dtype, rng, low=-3, high=4), device=device)
    row = kiln.array(random_array((47,), dtype, rng, low=-3, high=4), device=device)
    math = device == "cpu" and dtype != "int32"

    def value(a, b, c):
        v = a * 2 + b[:, ::-1] - c
        return (kiln.sin(v) + kiln.exp(b * 0.25) if math else v * b) + 1

    def operands():
        return base, wide[:, ::2].T, row

    fused_value, plain = run_both(value, *operands())
    same_bits(fused_value, plain)
    out = kiln.zeros((301, 94), dtype=fused_value.dtype, device=device)
    with kiln.fusion.disabled():
        expected = kiln.zeros((301, 94), dtype=fused_value.dtype, device=device)
        expected[:, 1::2] = value(*operands())
    out[:, 1::2] = value(*operands())
    same_bits(kiln.asnumpy(out), kiln.asnumpy(expected))
    if dtype != "float16":
        summed, plain_sum = run_both(lambda *x: value(*x).sum(axis=0), *operands())
        np.testing.assert_allclose(summed, plain_sum, rtol=1e-5 if "64" not in dtype else 1e-12)


def test_memory_numpy_can_write_is_read_at_once(fused):
    # kiln.asarray shares a NumPy array's memory on the CPU: a write through
    # NumPy must not reach an expression recorded before it.
    base = np.ones(1000)
    a = kiln.asarray(base)
    b = a + 1
    assert not kiln.fusion.is_pending(b)
    base[:] = 7
    c = b * 2            # b is kiln's own memory: this one is recorded
    assert kiln.fusion.is_pending(c)
    np.testing.assert_array_equal(kiln.asnumpy(c), np.full(1000, 4.0))
    # Memory whose pointer went out (NumPy's view of a kiln array) is shared too.
    d = kiln.ones(1000)
    view = np.asarray(d)
    e = d - 1
    view[:] = 5
    np.testing.assert_array_equal(kiln.asnumpy(e), np.zeros(1000))


def test_errors_are_raised_by_the_call_that_causes_them(device, fused):
    a = kiln.ones((3, 4), device=device)
    t = a * 2
    with pytest.raises(ValueError, match="broadcast"):
        t + kiln.ones(5, device=device)
    with pytest.raises(TypeError):
        kiln.bitwise_and(t, 1)
    with pytest.raises(OverflowError):
        kiln.ones(3, dtype="int8", device=device) + 1000


def test_a_loop_compiles_one_kernel(device, fused):
    x = kiln.array(np.linspace(0, 1, 257, dtype=np.float32), device=device)
    kiln.asnumpy(kiln.cos(x) * 0.5 + x)  # the structure's kernel exists now
    before = kiln.fusion.stats()
    for k in range(10):
        n = 100 + 37 * k  # another size and scalar each time: the same kernel
        y = kiln.array(np.linspace(0, 1, n, dtype=np.float32), device=device)
        r = kiln.cos(y) * (0.1 * k) + y
        np.testing.assert_allclose(kiln.asnumpy(r), np.cos(np.linspace(0, 1, n, dtype=np.float32)) *
                                   np.float32(0.1 * k) + np.linspace(0, 1, n, dtype=np.float32), rtol=1e-6)
    after = kiln.fusion.stats()
    assert after["kernels_compiled"] == before["kernels_compiled"]
    assert after["fused_launches"] == before["fused_launches"] + 10
    assert after["kernels_failed"] == 0, kiln.fusion.last_failure()


def test_a_result_dropped_unused_still_runs(device, fused):
    # Eager code spends the work; so does kiln, so that `f(x); sync()` times f.
    a = kiln.array(np.linspace(0, 1, 300), device=device)
    before = kiln.fusion.stats()
    kiln.sin(a) * 2 + 1          # never looked at
    t = kiln.cos(a) + 1          # inlined into u below: runs inside u's kernel only
    u = t * 3
    del t
    after = kiln.fusion.stats()
    assert after["fused_launches"] == before["fused_launches"] + 1
    np.testing.assert_allclose(kiln.asnumpy(u), (np.cos(np.linspace(0, 1, 300)) + 1) * 3, rtol=1e-15)
    assert kiln.fusion.stats()["fused_launches"] == before["fused_launches"] + 2


def test_first_sight_runs_op_by_op_without_waiting(device):
    with kiln.fusion.configured(enabled=True, cpu_min_size=0, wait_for_compile=False):
        a = kiln.array(np.arange(64.0), device=device)
        before = kiln.fusion.stats()
        # A structure no other test records: ten ops whose kernel is not built yet.
        r = kiln.arctan2(kiln.hypot(a, 3.0), kiln.cbrt(a + 7.0)) - kiln.fmod(a, 5.0) * kiln.exp2(-a)
        got = kiln.asnumpy(r)
        after = kiln.fusion.stats()
    ref = np.arctan2(np.hypot(np.arange(64.0), 3.0), np.cbrt(np.arange(64.0) + 7.0))
    ref = ref - np.fmod(np.arange(64.0), 5.0) * np.exp2(-np.arange(64.0))
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert after["unfused_runs"] + after["fused_launches"] == before["unfused_runs"] + before["fused_launches"] + 1


def test_graph_limits_split_long_chains(device):
    with kiln.fusion.configured(enabled=True, cpu_min_size=0, wait_for_compile=True, max_ops=4, max_inputs=2):
        xs = [kiln.array(np.full(5, float(k)), device=device) for k in range(4)]
        r = xs[0]
        for k in range(12):
            r = r + xs[k % 4] * 0.5
        got = kiln.asnumpy(r)
    ref = np.zeros(5)
    for k in range(12):
        ref = ref + np.full(5, float(k % 4)) * 0.5
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("read", ["read", "dropped"])
def test_a_long_loop_of_full_graphs_runs_without_deep_recursion(device, read):
    # Each graph outgrows max_ops, so each result is a leaf of the next: 5,000
    # of them used to run one inside another when the last was read or
    # dropped, overflowing the stack (a segmentation fault).
    with kiln.fusion.configured(enabled=True, cpu_min_size=0, wait_for_compile=False, max_ops=4):
        x = kiln.zeros(100, device=device)
        kiln.fusion.flush()
        before = kiln.fusion.stats()
        for _ in range(20000):
            x = x + 1.0
        if read == "read":
            np.testing.assert_array_equal(kiln.asnumpy(x), np.full(100, 20000.0))
        else:
            del x
            kiln.fusion.flush()
        after = kiln.fusion.stats()
    # every one of the 5,000 graphs of four ops ran once, read or dropped
    runs = lambda s: s["fused_launches"] + s["unfused_runs"]
    assert runs(after) - runs(before) == 5000


def test_in_place_op_on_a_result_too_big_to_extend(device):
    # x's graph is full, so `x += 1` cannot inline it: it used to read x's
    # buffer as a leaf while that buffer waited for the op itself.
    with kiln.fusion.configured(enabled=True, cpu_min_size=0, wait_for_compile=False, max_ops=4):
        x = kiln.zeros(100, device=device)
        for _ in range(4):
            x = x + 1.0
        x += 1.0
        x *= 2.0
        np.testing.assert_array_equal(kiln.asnumpy(x), np.full(100, 10.0))


def test_disabled_records_nothing(device):
    a = kiln.ones(100, device=device)
    with kiln.fusion.disabled():
        r = a * 2 + 1
        assert not kiln.fusion.is_pending(r)
        assert not kiln.fusion.is_enabled()


def test_cpu_threshold_keeps_small_arrays_eager():
    with kiln.fusion.configured(enabled=True, cpu_min_size=1000):
        assert not kiln.fusion.is_pending(kiln.ones(999) + 1)
        big = kiln.ones(1000) + 1
        assert kiln.fusion.is_pending(big)
        kiln.fusion.flush()
        assert not kiln.fusion.is_pending(big)


def test_configure_refuses_unknown_and_bad_settings():
    with pytest.raises(TypeError, match="unknown setting 'enable'"):
        kiln.fusion.configure(enable=False)
    with pytest.raises(ValueError, match="max_inputs"):
        kiln.fusion.configure(max_inputs=0)


def test_a_configured_block_puts_back_the_settings_it_found():
    before = kiln.fusion.settings()
    block = kiln.fusion.configured(max_ops=3, cpu_min_size=7)
    with block:
        assert kiln.fusion.settings() == {**before, "max_ops": 3, "cpu_min_size": 7}
        with kiln.fusion.configured(max_ops=5):
            assert kiln.fusion.settings() == {**before, "max_ops": 5, "cpu_min_size": 7}
            with block:  # entered again inside itself
                assert kiln.fusion.settings()["max_ops"] == 3
            assert kiln.fusion.settings()["max_ops"] == 5
        assert kiln.fusion.settings()["max_ops"] == 3
    assert kiln.fusion.settings() == before
    with pytest.raises(KeyError):
        with kiln.fusion.configured(max_ops=2):
            raise KeyError("inside")
    assert kiln.fusion.settings() == before


def test_a_configured_block_refuses_unknown_and_bad_settings_and_changes_nothing():
    before = kiln.fusion.settings()
    with pytest.raises(TypeError, match="configured: unknown setting 'enable'"):
        kiln.fusion.configured(enable=False)
    with pytest.raises(ValueError, match="max_inputs"):
        with kiln.fusion.configured(max_ops=9, max_inputs=0):
            pass
    assert kiln.fusion.settings() == before
    with kiln.fusion.configured(max_ops=9):
        pass
    assert kiln.fusion.settings() == before


def test_leaving_a_configured_block_runs_what_it_recorded(device):
    a = kiln.arange(8, dtype="float32", device=device)
    with kiln.fusion.configured(enabled=True, cpu_min_size=0):
        r = a * 2 + 1
        assert kiln.fusion.is_pending(r)
    assert not kiln.fusion.is_pending(r)
    np.testing.assert_array_equal(kiln.asnumpy(r), np.arange(8, dtype=np.float32) * 2 + 1)


def test_fuse_decorator_compiles_the_function(device):
    @kiln.fuse(kernel_name="squared_diff")
    def squared_diff(x, y):
        return (x - y) * (x - y)

    @kiln.fuse
    def norm_sum(x, y):
        return kiln.sum(kiln.sqrt(x * x + y * y))

    x = kiln.array(np.linspace(-1, 1, 50), device=device)
    y = kiln.array(np.linspace(2, 0, 50), device=device)
    before = kiln.fusion.stats()
    got = squared_diff(x, y)
    assert not kiln.fusion.is_pending(got)
    assert kiln.fusion.stats()["fused_launches"] == before["fused_launches"] + 1
    np.testing.assert_allclose(kiln.asnumpy(got), (np.linspace(-1, 1, 50) - np.linspace(2, 0, 50)) ** 2)
    np.testing.assert_allclose(float(norm_sum(x, y)), np.hypot(np.linspace(-1, 1, 50), np.linspace(2, 0, 50)).sum())
    # NumPy arrays run on NumPy, as with cupy.fuse.
    np.testing.assert_allclose(squared_diff(np.arange(3.0), 1.0), [1.0, 0.0, 1.0])
    assert "squared_diff" in repr(squared_diff)


def test_a_fused_function_cannot_branch_on_array_values(device):
    # CuPy's contract: the function is a kernel, so reading a value into a
    # Python scalar inside it raises TypeError (CuPy's tracer says so too).
    @kiln.fuse()
    def branches(x):
        if x > 0:
            return x
        return -x

    x = kiln.array(np.arange(-4, 5).reshape(3, 3), device=device)
    with pytest.raises(TypeError, match="bool.*Python scalar"):
        branches(x)
    for read, name in ((float, "float"), (int, "int"), (complex, "complex"), (lambda s: s.item(), "item")):
        reads = kiln.fuse(lambda x, read=read: read(kiln.sum(x)))
        with pytest.raises(TypeError, match=name + r"\(\).*Python scalar"):
            reads(x)
    # Outside the fused call (after a refusal too) values read as before;
    # NumPy arrays run on NumPy, which branches.
    assert bool(x[2, 2]) and float(kiln.sum(x)) == 0.0 and kiln.sum(x).item() == 0
    np.testing.assert_array_equal(branches(np.array([-2.0])), [2.0])



FORKED_CHILD = r"""
import os, sys, time
import numpy as np
import kiln
kiln.fusion.configure(enabled=True, cpu_min_size=0, wait_for_compile=False)
a = kiln.array(np.linspace(0, 1, 100), device="cpu")  # CUDA itself does not work in a forked child
kiln.asnumpy(kiln.tanh(a) * 3 - 1)  # the parent's worker thread starts
pid = os.fork()
if pid == 0:
    deadline = time.time() + 30
    while time.time() < deadline:
        before = kiln.fusion.stats()["fused_launches"]
        got = kiln.asnumpy(kiln.arcsinh(a) * 2 + kiln.cosh(a))
        if kiln.fusion.stats()["fused_launches"] > before:
            x = np.linspace(0, 1, 100)
            sys.exit(0 if np.allclose(got, np.arcsinh(x) * 2 + np.cosh(x)) else 4)  # static destructors run
        time.sleep(0.05)
    sys.exit(3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_a_forked_child_compiles_with_a_worker_of_its_own(tmp_path):
    # The worker thread exists only in the process that started it: a fork
    # waits for its compile in flight, and the child starts a worker of its
    # own and exits cleanly. (A fresh process: a child forked after OpenMP
    # has run its thread pool cannot use it, kiln's loops included.)
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FORKED_CHILD], timeout=120, capture_output=True, text=True,
                          env={**__import__("os").environ, "KILN_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]


QUICK_EXIT = r"""
import numpy as np
import kiln
kiln.fusion.configure(enabled=True, cpu_min_size=0, wait_for_compile=False)
a = kiln.array(np.linspace(0, 1, 100))
print(kiln.asnumpy(kiln.sinh(a) * 2 - a).sum())  # op by op now; the kernel is queued
"""


def test_a_short_program_leaves_its_kernels_in_the_disk_cache(tmp_path):
    # A program that exits right after queueing a new expression's kernel
    # waits for it to be built, so its next run finds it on disk and builds
    # nothing (the cache's files stay as they were).
    import os
    import subprocess
    import sys

    env = {**os.environ, "KILN_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-c", QUICK_EXIT], timeout=120, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr[-2000:]
    files = sorted((p.name, p.stat().st_ino) for p in (tmp_path / "cache").iterdir())
    assert any(not name.startswith(("nvrtc-identity", "host-identity")) for name, _ in files), files
    second = subprocess.run([sys.executable, "-c", QUICK_EXIT], timeout=120, capture_output=True, text=True, env=env)
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stdout == first.stdout
    assert sorted((p.name, p.stat().st_ino) for p in (tmp_path / "cache").iterdir()) == files
