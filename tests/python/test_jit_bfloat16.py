"""bfloat16 in kiln.cuda.jit's kernels (Numba's numba.cuda.bf16), on every
device present: conversions in each rounding mode against exact rounding
of the same values, arithmetic and math against ml_dtypes (NumPy's
bfloat16) rounding the float result once."""
import math

import numpy as np
import pytest

from kiln import cuda

ml_dtypes = pytest.importorskip("ml_dtypes")
from kiln.cuda import bf16  # noqa: E402

BF16 = np.dtype(ml_dtypes.bfloat16)


def _bits(values):
    return np.asarray(values, BF16).view(np.uint16)


def _rounded(x, mode):
    """The bfloat16 bits of the float x rounded in `mode`: ml_dtypes' nearest,
    or of the two neighbours around x the one the mode picks."""
    near = np.float64(x).astype(BF16)
    bits = int(np.array(near).view(np.uint16))
    value = float(near)
    if value == x or math.isnan(value) or mode == "rn":
        return bits
    other = bits + 1 if abs(value) < abs(x) else bits - 1  # the neighbour on x's other side
    lower, upper = sorted([bits, other], key=lambda b: float(np.array(b, np.uint16).view(BF16)))
    if mode == "rz":
        return lower if x > 0 else upper
    return lower if mode == "rd" else upper


@cuda.jit
def _from_floats(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rn(v))
        out[i, 1] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rz(v))
        out[i, 2] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rd(v))
        out[i, 3] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_ru(v))
        out[i, 4] = bf16.bfloat16_as_uint16(bf16.bfloat16(v))


@cuda.jit
def _from_int64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = bf16.bfloat16_as_uint16(bf16.int64_to_bfloat16_rn(v))
        out[i, 1] = bf16.bfloat16_as_uint16(bf16.int64_to_bfloat16_rz(v))
        out[i, 2] = bf16.bfloat16_as_uint16(bf16.int64_to_bfloat16_rd(v))
        out[i, 3] = bf16.bfloat16_as_uint16(bf16.int64_to_bfloat16_ru(v))


def test_conversions_round_in_each_mode(current):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(200) * 10.0 ** rng.integers(-30, 30, 200),
                        [0.0, -0.0, 1.0, 1.00390625, 1.0078125, 3e38, -3.4e38, np.inf, -np.inf, np.nan, 1e-40]])
    x = x.astype(np.float32)
    out = np.zeros((x.size, 5), np.uint16)
    _from_floats[4, 64](x, out)
    for k, mode in enumerate(("rn", "rz", "rd", "ru")):
        want = [_rounded(float(v), mode) for v in x]
        got = out[:, k]
        nan = np.isnan(x)
        np.testing.assert_array_equal(got[~nan], np.array(want, np.uint16)[~nan], err_msg=mode)
        assert np.all(np.isnan(got[nan].view(BF16).astype(np.float32)))
    np.testing.assert_array_equal(out[~np.isnan(x), 4], _bits(x[~np.isnan(x)]))

    ints = np.concatenate([rng.integers(-2**62, 2**62, 100), [0, 1, -1, 255, 257, 2**53 + 1, -2**63, 2**63 - 1]])
    out = np.zeros((ints.size, 4), np.uint16)
    _from_int64[4, 64](ints, out)
    for k, mode in enumerate(("rn", "rz", "rd", "ru")):
        for v, got in zip(ints.tolist(), out[:, k].tolist()):
            exact = float(np.array(got, np.uint16).view(BF16))
            if mode == "rz":
                assert abs(exact) <= abs(v)
            elif mode == "rd":
                assert exact <= v
            elif mode == "ru":
                assert exact >= v
            # one of the two neighbours of v, and the nearer for rn
            step = 2.0 ** (math.floor(math.log2(abs(v))) - 7) if v else 0.0
            assert abs(exact - v) <= (step / 2 if mode == "rn" else step)


@cuda.jit
def _to_ints(bits, out):
    i = cuda.grid(1)
    if i < bits.size:
        a = bf16.uint16_as_bfloat16(bits[i])
        out[i, 0] = bf16.bfloat16_to_int32_rn(a)
        out[i, 1] = bf16.bfloat16_to_int32_rz(a)
        out[i, 2] = bf16.bfloat16_to_int32_rd(a)
        out[i, 3] = bf16.bfloat16_to_int32_ru(a)
        out[i, 4] = bf16.bfloat16_to_uint8_rz(a)


def test_to_integers_round_and_saturate(current):
    values = np.array([1.5, 2.5, -1.5, -2.5, 0.75, -0.75, 1e10, -1e10, 300.0, -3.0, np.nan], np.float32)
    bits = _bits(values)
    out = np.zeros((values.size, 5), np.int64)
    _to_ints[1, 32](bits, out)
    v = values.astype(BF16).astype(np.float64)
    sat = np.where(np.isnan(v), 0, v)
    for k, fn in enumerate((np.rint, np.trunc, np.floor, np.ceil)):
        want = np.clip(fn(sat), -2**31, 2**31 - 1).astype(np.int64)
        np.testing.assert_array_equal(out[:, k], want)
    np.testing.assert_array_equal(out[:, 4], np.clip(np.trunc(sat), 0, 255))


@cuda.jit
def _arithmetic(a, b, out, flags):
    i = cuda.grid(1)
    if i < a.size:
        x = bf16.bfloat16(a[i])
        y = bf16.bfloat16(b[i])
        out[i, 0] = bf16.bfloat16_to_float32(bf16.hadd(x, y))
        out[i, 1] = bf16.bfloat16_to_float32(bf16.hsub(x, y))
        out[i, 2] = bf16.bfloat16_to_float32(bf16.hmul(x, y))
        out[i, 3] = bf16.bfloat16_to_float32(bf16.hdiv(x, y))
        out[i, 4] = bf16.bfloat16_to_float32(x * y + x)  # operators: each rounded
        out[i, 5] = bf16.bfloat16_to_float32(math.sqrt(bf16.habs(x)))
        out[i, 6] = bf16.bfloat16_to_float32(bf16.hmax(x, y))
        out[i, 7] = bf16.bfloat16_to_float32(bf16.hadd_sat(x, y))
        out[i, 8] = bf16.bfloat16_to_float32(bf16.hfma_relu(x, y, x))
        flags[i, 0] = bf16.hlt(x, y)
        flags[i, 1] = bf16.hne(x, y)
        flags[i, 2] = bf16.hisnan(x)
        flags[i, 3] = bf16.hisinf(bf16.hdiv(x, bf16.bfloat16(0.0))) != 0


def test_arithmetic_comparisons_and_math(current):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(64) * 8).astype(np.float32)
    b = (rng.standard_normal(64) * 8).astype(np.float32)
    a[0], b[1] = np.nan, 0.0
    out = np.zeros((64, 9), np.float32)
    flags = np.zeros((64, 4), np.bool_)
    _arithmetic[1, 64](a, b, out, flags)
    x, y = a.astype(BF16).astype(np.float32), b.astype(BF16).astype(np.float32)

    def once(v):  # the float result rounded once to bfloat16
        return np.asarray(v, np.float32).astype(BF16).astype(np.float32)

    with np.errstate(all="ignore"):
        want = [once(x + y), once(x - y), once(x * y), once(x / y), once(once(x * y) + x), once(np.sqrt(np.abs(x))),
                once(np.fmax(x, y)), np.where(np.isnan(x + y), 0, np.clip(once(x + y), 0, 1)),
                np.where(once(x * y + x) < 0, 0, once(x * y + x))]
        for k, w in enumerate(want):
            np.testing.assert_array_equal(out[:, k], w.astype(np.float32), err_msg=str(k))
        np.testing.assert_array_equal(flags[:, 0], x < y)
        np.testing.assert_array_equal(flags[:, 1], (x < y) | (x > y))
        np.testing.assert_array_equal(flags[:, 2], np.isnan(x))
        np.testing.assert_array_equal(flags[:, 3], np.isinf(x / 0))


def test_host_side():
    assert cuda.is_bfloat16_supported()
    assert bf16.bfloat16(1.5).dtype == BF16
    with pytest.raises(RuntimeError, match="inside a kiln.cuda.jit kernel"):
        bf16.hadd(1, 2)
