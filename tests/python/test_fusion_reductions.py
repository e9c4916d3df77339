"""Reductions of pending fused expressions (kiln.fusion): sum, prod, min,
max, any, all, argmin, argmax and var's one pass (and so mean, std)
compute the expression's elements as they read them, never storing the value, and combine them in the order they combine
stored elements, so the result is the unfused result bit for bit on both
devices (FMA contraction off): over every dtype, axes, keepdims, broadcast
and strided inputs, lengths past the CPU's tiles, and the pending result
itself still readable afterwards."""
import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, random_array
from test_fusion import fused, same_bits  # noqa: F401  (the fixture)


def both(fn, *arrays):
    """fn(*arrays) with fusion off and on, as NumPy arrays, and how many
    reductions computed a pending value on the way."""
    with kiln.fusion.disabled():
        plain = kiln.asnumpy(fn(*arrays))
    before = kiln.fusion.stats()["fused_reductions"]
    got = kiln.asnumpy(fn(*arrays))
    return got, plain, kiln.fusion.stats()["fused_reductions"] - before


def expression(dtype):
    if dtype == "bool":
        return lambda x, y: (x ^ y) | ~x
    return lambda x, y: x * y - x


REDUCTIONS = {
    "sum": kiln.sum, "prod": kiln.prod, "min": kiln.min, "max": kiln.max,
    "any": kiln.any, "all": kiln.all,
}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("reduction", sorted(REDUCTIONS))
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_fold_of_an_expression_matches_unfused(device, fused, dtype, reduction, axis):
    rng = np.random.default_rng(11)
    # prod of many large numbers overflows the same way both times; keep
    # them near one so that the values say something
    low, high = (0.5, 1.5) if reduction == "prod" and dtype.startswith(("float", "complex")) else (-5, 5)
    x = kiln.array(random_array((6, 35, 9), dtype, rng, low, high), device=device)
    y = kiln.array(random_array((6, 35, 9), dtype, rng, low, high), device=device)
    e = expression(dtype)
    got, plain, fused_count = both(lambda x, y: REDUCTIONS[reduction](e(x, y), axis=axis), x, y)
    same_bits(got, plain)
    # any/all of numbers and prod of narrow integers convert the expression
    # first: the conversion joins it
    assert fused_count == 1


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("reduction", ["argmin", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_arg_reduction_of_an_expression_matches_unfused(device, fused, dtype, reduction, axis):
    rng = np.random.default_rng(12)
    x = kiln.array(random_array((6, 35, 9), dtype, rng, -3, 3), device=device)
    y = kiln.array(random_array((6, 35, 9), dtype, rng, -3, 3), device=device)
    e = expression(dtype)
    got, plain, fused_count = both(lambda x, y: getattr(kiln, reduction)(e(x, y), axis=axis), x, y)
    np.testing.assert_array_equal(got, plain)
    assert fused_count == 1


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int16"])
@pytest.mark.parametrize("shape,axis", [((100_003,), None), ((40, 9_001), 1), ((9_001, 40), 0)])
def test_arg_reductions_over_long_ranges_find_the_first_extreme_or_nan(device, fused, dtype, shape, axis):
    # ties everywhere (values from a few integers) and NaNs placed past the
    # CPU's tiles: the first extreme, or the first NaN, in C order
    rng = np.random.default_rng(6)
    base = rng.integers(-4, 5, shape).astype(dtype)
    if dtype != "int16":
        base.reshape(-1)[[7_001, 50_000, 60_000]] = np.nan
    x = kiln.array(base, device=device)
    for name in ("argmin", "argmax"):
        got, plain, fused_count = both(lambda x: getattr(kiln, name)(x * 2 - 1, axis=axis), x)
        np.testing.assert_array_equal(got, plain)
        np.testing.assert_array_equal(got, getattr(np, name)(base * 2 - 1, axis=axis))
        assert fused_count == 1


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32"])
@pytest.mark.parametrize("axis", [None, 1])
def test_var_of_an_expression_matches_unfused(device, fused, dtype, axis):
    rng = np.random.default_rng(13)
    x = kiln.array(random_array((40, 3_001), dtype, rng, -3, 3), device=device)
    got, plain, fused_count = both(lambda x: kiln.var(x * 3 + 1, axis=axis), x)
    same_bits(got, plain)
    assert fused_count >= 1


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32", "uint8"])
@pytest.mark.parametrize("shape,axis", [((100_003,), None), ((300, 1_111), 1), ((300, 1_111), 0),
                                        ((5, 40_000), None), ((3, 9_000, 4), 1)])
def test_long_ranges_sum_as_stored_ones_do(device, fused, dtype, shape, axis):
    # past the CPU's tiles (pairwise pieces computed a tile at a time) and
    # the GPU's two-pass split
    rng = np.random.default_rng(5)
    x = kiln.array(random_array(shape, dtype, rng), device=device)
    got, plain, fused_count = both(lambda x: kiln.sum(x * 3 + x, axis=axis), x)
    same_bits(got, plain)
    assert fused_count == 1


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_long_product_carries_its_rounding_order(device, fused, dtype):
    rng = np.random.default_rng(8)
    x = kiln.array(random_array((20_001,), dtype, rng, 0.999, 1.001), device=device)
    got, plain, fused_count = both(lambda x: kiln.prod(x - 0.5 + x), x)
    same_bits(got, plain)
    assert fused_count == 1


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32"])
def test_widening_sum_of_an_expression(device, fused, dtype):
    rng = np.random.default_rng(2)
    x = kiln.array(random_array((70, 130), dtype, rng), device=device)
    y = kiln.array(random_array((70, 130), dtype, rng), device=device)
    e = expression(dtype)
    got, plain, fused_count = both(lambda x, y: kiln.sum(e(x, y), axis=1), x, y)
    same_bits(got, plain)
    assert got.dtype == (np.uint64 if dtype == "uint16" else np.int64)
    assert fused_count == 1


def test_mean_keepdims_and_out_of_place_dtype(device, fused):
    rng = np.random.default_rng(4)
    x = kiln.array(random_array((64, 257), "float32", rng), device=device)
    y = kiln.array(random_array((257,), "float32", rng), device=device)
    for fn in (lambda x, y: kiln.mean((x - y) ** 2, axis=1),
               lambda x, y: kiln.sum(x * y, axis=0, keepdims=True),
               lambda x, y: kiln.max(kiln.abs(x - y), axis=(0, 1), keepdims=True)):
        got, plain, fused_count = both(fn, x, y)
        same_bits(got, plain)
        assert fused_count == 1
    # a dtype= converts the expression, a step of its graph
    got, plain, fused_count = both(lambda x, y: kiln.sum(x * y, dtype=kiln.float64), x, y)
    same_bits(got, plain)
    assert fused_count == 1


def test_broadcast_and_strided_inputs(device, fused):
    rng = np.random.default_rng(6)
    big = kiln.array(random_array((90, 140), "float64", rng), device=device)
    col = kiln.array(random_array((90, 1), "float64", rng), device=device)
    for fn in (lambda: kiln.sum(big[::2, 1::3] * col[::2] + 1.5, axis=1),
               lambda: kiln.sum(big.T * 2 - col.T, axis=0),
               lambda: kiln.min(kiln.where(big > 0, big, col), axis=None),
               lambda: kiln.sum(big[:, 0] + big[0, :90])):
        got, plain, fused_count = both(lambda: fn())
        same_bits(got, plain)
        assert fused_count == 1


def test_pending_result_is_still_its_value_after_a_reduction(device, fused):
    rng = np.random.default_rng(9)
    x = kiln.array(random_array((500, 300), "float32", rng), device=device)
    e = x * 2 + 1
    total = kiln.sum(e)
    assert kiln.fusion.is_pending(e)  # reduced without storing it
    with kiln.fusion.disabled():
        plain = x * 2 + 1
    same_bits(kiln.asnumpy(e), kiln.asnumpy(plain))
    same_bits(kiln.asnumpy(total), kiln.asnumpy(kiln.sum(plain)))


def test_a_reduced_expression_dropped_unused_never_runs(device, fused):
    x = kiln.array(np.arange(200_000, dtype=np.float32), device=device)
    kiln.sum(x * 0.25 + 2)  # compiles the structure (kernels are keyed by it, not by the values)
    kiln.fusion.flush()  # what earlier tests left pending runs now, not at the copy below
    before = kiln.fusion.stats()
    total = kiln.sum(x * 0.5 + 1)
    after = kiln.fusion.stats()
    assert float(total) == float(np.sum(np.arange(200_000, dtype=np.float32) * np.float32(0.5) + 1))
    changed = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert changed == {"fused_reductions": 1, "ops_recorded": 2}


def test_a_reduction_whose_inputs_view_a_pending_result(device, fused):
    # scipy.sparse's sortedness test: the steps between neighbours of a
    # pending result. Computing that result, as the reduction reads it, used
    # to run what else read it too, the reduced expression among them, which
    # freed the graph the reduction was reading (a crash on the GPU).
    values = np.arange(5000, dtype=np.int64) * 3 - 7
    x = kiln.array(values, device=device)

    def sorted_flags(x):
        keys = x * 2 + 1
        step = keys[1:] - keys[:-1]
        return kiln.all(step >= 0), kiln.all(step > 0)

    sorted_flags(x)  # compiles
    kiln.fusion.flush()
    before = kiln.fusion.stats()
    flags = sorted_flags(x)
    after = kiln.fusion.stats()
    assert [bool(f) for f in flags] == [True, True]
    changed = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    # keys runs once (as the reductions' inputs read it); the steps never do
    assert changed == {"fused_reductions": 2, "ops_recorded": 5, "fused_launches": 1}


def test_a_view_of_a_pending_result_is_stored_first(device, fused):
    rng = np.random.default_rng(1)
    x = kiln.array(random_array((40, 60), "float64", rng), device=device)
    got, plain, fused_count = both(lambda x: kiln.sum((x * x)[::3, 5:]), x)
    same_bits(got, plain)
    assert fused_count == 0


def test_a_loop_over_one_reduced_expression_compiles_once(device, fused):
    rng = np.random.default_rng(3)
    arrays = [kiln.array(random_array((1000 + 7 * i,), "float32", rng), device=device) for i in range(4)]
    kiln.sum(arrays[0] * 1.25 - 3).item()
    before = kiln.fusion.stats()
    for a in arrays:
        kiln.sum(a * 2.5 - 1).item()
    after = kiln.fusion.stats()
    assert after["kernels_compiled"] == before["kernels_compiled"]
    assert after["fused_reductions"] == before["fused_reductions"] + len(arrays)


def test_a_long_graph_is_stored_first_on_a_gpu(device, fused):
    # A GPU reduction's module evaluates the graph in each of its read
    # paths; past 16 ops its build takes seconds, so the value is stored.
    # The CPU's tiles reuse the graph's elementwise kernel: any length.
    x = kiln.array(np.linspace(0, 1, 5000), device=device)

    def long_graph(x):
        t = x
        for _ in range(9):
            t = t * 0.5 + x
        return kiln.sum(t)

    got, plain, fused_count = both(long_graph, x)
    same_bits(got, plain)
    assert fused_count == (1 if device.type == "cpu" else 0)


@pytest.mark.parametrize("source,target", [("float32", "float64"), ("int16", "int64"), ("uint8", "float16"),
                                           ("int32", "complex128"), ("float64", "bool"), ("complex64", "bool"),
                                           ("float16", "float32"), ("bool", "int8")])
def test_astype_joins_the_graph(device, fused, source, target):
    # casts that cannot change a value (and casts to bool) are recorded
    rng = np.random.default_rng(12)
    x = kiln.array(random_array((40, 33), source, rng), device=device)
    got, plain, _ = both(lambda x: (x.astype(target) + x.astype(target)).astype(target), x)
    same_bits(got, plain)
    r = (x + x).astype(target)
    assert kiln.fusion.is_pending(r)
    assert kiln.fusion.inspect(r)["graph"].startswith(f"astype<{target}>(")


def test_value_changing_casts_run_at_once(device, fused):
    x = kiln.array(np.linspace(-3, 3, 100), device=device)
    for target in ("int32", "float32", "uint8"):
        r = (x * 2).astype(target)
        assert not kiln.fusion.is_pending(r)
        with kiln.fusion.disabled():
            same_bits(kiln.asnumpy(r), kiln.asnumpy((x * 2).astype(target)))
