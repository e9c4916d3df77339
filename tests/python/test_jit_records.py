"""Records of NumPy structured dtypes in kiln.cuda.jit's kernels and in
Numba's host API (cuda.to_device, device_array, DeviceRecordArray), on every
device present, against the same operations done by NumPy."""
import numpy as np
import pytest

from kiln import cuda
from kiln.cuda.kernels.transpose import transpose
from kiln._numba_cuda.record_arrays import DeviceRecordArray

POINT = np.dtype([("x", np.float64), ("n", np.int32), ("z", np.complex64), ("tag", np.uint8, 5)], align=True)
PACKED = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])  # not aligned, but every field falls aligned
NESTED = np.dtype([("id", np.int16), ("p", POINT)], align=True)


def _points(n, rng):
    a = np.zeros(n, POINT)
    a["x"] = rng.uniform(-5, 5, n)
    a["n"] = rng.integers(-100, 100, n)
    a["z"] = rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)
    a["tag"] = rng.integers(0, 255, (n, 5))
    return a


@cuda.jit
def _scale_fields(points, factor):
    i = cuda.grid(1)
    if i < points.shape[0]:
        p = points[i]  # a reference: writes reach the array, as in Numba
        p.x = p.x * factor
        points[i].n += 1
        p["z"] = p.z * 2
        p.tag[4] = p.tag[0]


def test_fields_read_and_written_in_place(current):
    rng = np.random.default_rng(0)
    for n in (0, 1, 37):
        host = _points(n, rng)
        want = host.copy()
        want["x"] *= 1.5
        want["n"] += 1
        want["z"] *= 2
        want["tag"][:, 4] = want["tag"][:, 0]
        got = host.copy()
        _scale_fields[1, 64](got, 1.5)  # a NumPy structured array, written back
        np.testing.assert_array_equal(got, want)
        device = cuda.to_device(host)  # a DeviceRecordArray
        assert device.shape == (n,) and device.dtype == POINT and device.size == n
        _scale_fields[1, 64](device, 1.5)
        np.testing.assert_array_equal(device.copy_to_host(), want)
        rec = host.view(np.recarray)  # a recarray (numpy.record dtype) is the same type
        _scale_fields[1, 64](rec, 1.5)
        np.testing.assert_array_equal(np.asarray(rec).view(POINT), want)


@cuda.jit
def _copy_records(dst, src, order):
    i = cuda.grid(1)
    if i < dst.shape[0]:
        dst[i] = src[order[i]]


@cuda.jit
def _set_from_record(dst, rec, j):
    dst[j] = rec
    rec.n = -7  # a record argument is passed by reference: the host's record changes


def test_whole_records_copied(current):
    rng = np.random.default_rng(1)
    src = _points(20, rng)
    order = rng.permutation(20)
    dst = np.zeros(20, POINT)
    _copy_records[1, 32](dst, src, order)
    np.testing.assert_array_equal(dst, src[order])
    arr = np.zeros(3, POINT)
    holder = src.copy()
    _set_from_record[1, 1](arr, holder[5], 2)
    np.testing.assert_array_equal(arr[2], src[5])
    assert holder[5]["n"] == -7 and holder[4]["n"] == src[4]["n"]


@cuda.jit(device=True)
def _first_of(points):
    return points[0]  # a device function returns a record (a reference)


@cuda.jit
def _nested_and_packed(out, nested, packed):
    r = _first_of(nested)
    out[0] = r.p.x + r.id
    out[1] = r["p"]["n"]
    out[2] = nested[1][1].x  # r[1]: the second field (p)
    total = 0.0
    for a in range(3):
        for b in range(2):
            total += packed[0].j[a, b]
            packed[1].j[a, b] = packed[0].j[a, b] * 2
    out[3] = total + packed[0]["i"]
    nested[1].p = nested[0].p  # a nested record copied


def test_nested_records_subarrays_and_device_functions(current):
    rng = np.random.default_rng(2)
    nested = np.zeros(2, NESTED)
    nested["id"] = [3, 4]
    nested["p"] = _points(2, rng)
    packed = np.zeros(2, PACKED)
    packed["i"] = [5, 6]
    packed["j"][0] = rng.uniform(-1, 1, (3, 2)).astype(np.float32)
    out = np.zeros(4)
    want_nested, want_packed = nested.copy(), packed.copy()
    want_packed["j"][1] = want_packed["j"][0] * 2
    want_nested["p"][1] = want_nested["p"][0]
    before = nested.copy()
    _nested_and_packed[1, 1](out, nested, packed)
    np.testing.assert_allclose(out, [before["p"]["x"][0] + 3, before["p"]["n"][0], before["p"]["x"][1],
                                     packed["j"][0].astype(np.float64).sum() + 5])
    np.testing.assert_array_equal(nested, want_nested)
    np.testing.assert_array_equal(packed, want_packed)


def test_shared_and_constant_record_arrays(current):
    values = np.array([(1.5, 2), (3.5, -4)], dtype=[("x", float), ("y", np.int64)])
    rec = cuda.from_dtype(values.dtype)

    @cuda.jit
    def through_shared(src, dst, consts):
        sm = cuda.shared.array(8, dtype=rec)
        c = cuda.const.array_like(values)
        t = cuda.threadIdx.x
        sm[t] = src[t]
        cuda.syncthreads()
        dst[t] = sm[7 - t]
        dst[t].x += c[t % 2]["x"]
        consts[t] = c[t % 2].y

    src = np.zeros(8, values.dtype)
    src["x"], src["y"] = np.arange(8) * 0.5, np.arange(8)
    dst, consts = np.zeros(8, values.dtype), np.zeros(8, np.int64)
    through_shared[1, 8](src, dst, consts)
    want = src[::-1].copy()
    want["x"] += values["x"][np.arange(8) % 2]
    np.testing.assert_array_equal(dst, want)
    np.testing.assert_array_equal(consts, values["y"][np.arange(8) % 2])


def test_device_record_arrays(current):
    rng = np.random.default_rng(3)
    host = _points(12, rng).reshape(3, 4)
    d = cuda.to_device(host)
    assert d.ndim == 2 and d.strides == host.strides and len(d) == 3
    np.testing.assert_array_equal(d.copy_to_host(), host)
    t = cuda.device_array_like(host.T)  # F order, as NumPy's order="K"
    transpose(d, t)
    np.testing.assert_array_equal(t.copy_to_host(), host.T)
    empty = cuda.device_array((2, 0), dtype=POINT)
    assert empty.copy_to_host().shape == (2, 0)
    out = np.zeros((3, 4), POINT)
    d.copy_to_host(out)
    np.testing.assert_array_equal(out, host)
    d.copy_to_device(np.zeros((3, 4), POINT))
    assert not d.copy_to_host()["x"].any()
    assert cuda.is_cuda_array(d) and d.__cuda_array_interface__["descr"] == POINT.descr
    with pytest.raises(ValueError, match="shape"):
        d.copy_to_device(np.zeros(5, POINT))
    with pytest.raises(TypeError, match="structured"):
        DeviceRecordArray((3,), np.float32)


def test_record_types_and_refusals(current):
    aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    unaligned = np.dtype([("x", np.float16), ("y", np.float16)])
    assert cuda.from_dtype(aligned) != cuda.from_dtype(unaligned)  # NumPy calls them equal
    assert cuda.types.as_dtype(cuda.from_dtype(aligned)) == aligned

    @cuda.jit
    def nothing(a, out):
        pass

    nothing[1, 1](cuda.to_device(np.zeros(1, aligned)), np.zeros(1))
    nothing[1, 1](cuda.to_device(np.zeros(1, unaligned)), np.zeros(1))
    assert len(nothing.signatures) == 2

    misaligned = cuda.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)]))
    with pytest.raises(cuda.TypingError, match="type float64 is not aligned"):
        @cuda.jit((misaligned[:],))
        def reads_b(a):
            a[0].a = a[0].b

    @cuda.jit
    def no_such_field(a):
        a[0].w = 1

    with pytest.raises(cuda.TypingError, match="no field 'w'"):
        no_such_field[1, 1](np.zeros(1, aligned))

    @cuda.jit
    def record_arithmetic(a):
        a[0] = a[0] + 1

    with pytest.raises(cuda.TypingError):
        record_arithmetic[1, 1](np.zeros(1, aligned))
