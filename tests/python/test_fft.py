"""kiln.fft and kiln.scipy.fft against numpy.fft on every device present:
every transform with n/s, axes and norm, the dtypes NumPy computes in,
views, batches, more than three axes, and bad input."""
import numpy as np
import pytest

import kiln
from conftest import assert_matches, random_array

@pytest.fixture(autouse=True)
def _cpu_fft_library(request):
    """The CPU's transforms need an FFTW3-interface library (make test
    installs FFTW where it can); without one, the CPU's cases are skipped."""
    if "device" in request.fixturenames and request.getfixturevalue("device").type == "cpu" \
            and not kiln._core._fft_library_path():
        pytest.skip("no FFTW3-interface library here: install libfftw3-double3 and libfftw3-single3")


RTOL = {"complex64": 1e-4, "float32": 1e-4, "float16": 2e-2, "complex128": 1e-11, "float64": 1e-11}


def _rtol(result):
    return RTOL.get(np.dtype(result.dtype).name, 1e-11)


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64", "float16", "int32", "bool"])
@pytest.mark.parametrize("name, kwargs", [
    ("fft", {}), ("fft", {"n": 5}), ("fft", {"n": 13, "axis": 0, "norm": "ortho"}), ("ifft", {"norm": "forward"}),
    ("ifft", {"axis": 1, "n": 3}), ("fft2", {}), ("ifft2", {"axes": (0, 2), "s": (4, 9)}), ("fftn", {}),
    ("ifftn", {"axes": (2, 0, 1), "norm": "ortho"}), ("fftn", {"s": (3, 2, 10), "axes": (0, 1, 2)}),
])
def test_complex_transforms(device, dtype, name, kwargs, rng):
    x = random_array((3, 4, 6), dtype, rng)
    want = getattr(np.fft, name)(x, **kwargs)
    got = getattr(kiln.fft, name)(kiln.asarray(x, device=device), **kwargs)
    # NumPy's float16 path loses about 1e-3 (kiln's error stays float32's).
    assert_matches(got, want, 2e-3 if dtype == "float16" else _rtol(want))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
@pytest.mark.parametrize("name, kwargs", [
    ("rfft", {}), ("rfft", {"n": 7, "axis": 0}), ("rfft2", {"norm": "forward"}), ("rfftn", {}),
    ("rfftn", {"s": (5, 4), "axes": (2, 1)}), ("ihfft", {"n": 9}), ("ihfft", {"norm": "ortho"}),
])
def test_real_forward_transforms(device, dtype, name, kwargs, rng):
    x = random_array((3, 4, 6), dtype, rng)
    want = getattr(np.fft, name)(x, **kwargs)
    assert_matches(getattr(kiln.fft, name)(kiln.asarray(x, device=device), **kwargs), want, _rtol(want))


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float64"])
@pytest.mark.parametrize("name, kwargs", [
    ("irfft", {}), ("irfft", {"n": 11}), ("irfft", {"n": 4, "axis": 1, "norm": "ortho"}), ("irfft2", {}),
    ("irfft2", {"s": (5, 8)}), ("irfftn", {}), ("irfftn", {"s": (2, 3, 7), "axes": (0, 1, 2), "norm": "forward"}),
    ("hfft", {}), ("hfft", {"n": 8, "norm": "ortho"}),
])
def test_real_inverse_transforms(device, dtype, name, kwargs, rng):
    x = random_array((3, 4, 6), dtype, rng)
    want = getattr(np.fft, name)(x, **kwargs)
    assert_matches(getattr(kiln.fft, name)(kiln.asarray(x, device=device), **kwargs), want, _rtol(want))


def test_views_many_axes_round_trips_and_out(device, rng):
    x = random_array((2, 3, 4, 5, 6), "complex128", rng)
    k = kiln.asarray(x, device=device)
    assert_matches(kiln.fft.fftn(k), np.fft.fftn(x), 1e-11)  # five axes: transformed three, then two
    assert_matches(kiln.fft.ifftn(k[:, ::-1, 1:], axes=(4, 1, 2, 0)), np.fft.ifftn(x[:, ::-1, 1:], axes=(4, 1, 2, 0)),
                   1e-11)
    r = random_array((2, 3, 4, 5), "float64", rng)
    kr = kiln.asarray(r, device=device)
    assert_matches(kiln.fft.rfftn(kr), np.fft.rfftn(r), 1e-11)
    assert_matches(kiln.fft.irfftn(kiln.fft.rfftn(kr), s=r.shape), r, 1e-11)
    assert_matches(kiln.fft.ifft(kiln.fft.fft(k)), x, 1e-11)
    out = kiln.empty(x.shape, dtype="complex128", device=device)
    assert kiln.fft.fft(k, out=out) is out
    assert_matches(out, np.fft.fft(x), 1e-11)


def test_frequencies_and_shifts(device):
    for n, d in ((8, 1.0), (7, 0.25), (1, 3.0)):
        assert_matches(kiln.fft.fftfreq(n, d, device=device), np.fft.fftfreq(n, d))
        assert_matches(kiln.fft.rfftfreq(n, d, device=device), np.fft.rfftfreq(n, d))
    assert kiln.fft.fftfreq(4, device=device, dtype="float32").dtype == kiln.float32
    x = np.arange(30).reshape(5, 6)
    k = kiln.asarray(x, device=device)
    for axes in (None, 0, (1,), (0, 1)):
        assert_matches(kiln.fft.fftshift(k, axes), np.fft.fftshift(x, axes))
        assert_matches(kiln.fft.ifftshift(k, axes), np.fft.ifftshift(x, axes))


def test_bad_input(device):
    k = kiln.ones((4, 4), dtype="complex64", device=device)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kiln.fft.fft(k, n=0)
    with pytest.raises(ValueError, match="Invalid norm value"):
        kiln.fft.fft(k, norm="unitary")
    with pytest.raises(ValueError, match="different lengths"):
        kiln.fft.fftn(k, s=(2, 2, 2), axes=(0, 1))
    with pytest.raises(ValueError, match="out of bounds"):
        kiln.fft.fft(k, axis=2)
    with pytest.raises(TypeError, match="real"):
        kiln.fft.rfft(k)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kiln.fft.irfft(kiln.ones(1, dtype="complex64", device=device))


def test_scipy_fft_names(device, rng):
    x = random_array((4, 6), "complex128", rng)
    k = kiln.asarray(x, device=device)
    sp = kiln.scipy.fft
    assert_matches(sp.fft(k, overwrite_x=True, workers=2), np.fft.fft(x), 1e-11)
    assert_matches(sp.irfftn(k, s=(4, 10), axes=(0, 1)), np.fft.irfftn(x, s=(4, 10), axes=(0, 1)), 1e-11)
    # hfftn is irfftn of the conjugate with the opposite normalisation.
    assert_matches(sp.hfftn(k), np.fft.irfftn(np.conj(x), norm="forward"), 1e-11)
    assert_matches(sp.ihfft2(k.real), np.conj(np.fft.rfft2(x.real, norm="forward")), 1e-11)
    with pytest.raises(NotImplementedError, match="plan"):
        sp.fft(k, plan=object())
    smooth = [n for n in range(1, 3000) if all(p in (2, 3, 5, 7) for p in _factors(n))]
    for target in (0, 1, 7, 11, 97, 1021, 2311):
        want = 0 if target == 0 else min(n for n in smooth if n >= target)
        assert sp.next_fast_len(target) == want


def _factors(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


@pytest.mark.parametrize("function", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "float16"])
def test_scipy_cosine_and_sine_transforms(device, function, dtype, rng):
    """Types 2 and 3 against SciPy's, over norms, orthogonalize, n (cropping
    and zero-padding), axes, and the n-dimensional forms; types 1 and 4 are
    refused as CuPy refuses them."""
    scipy_fft = pytest.importorskip("scipy.fft")
    x = random_array((6, 5), dtype, rng)
    k = kiln.asarray(x, device=device)
    ours, theirs = getattr(kiln.scipy.fft, function), getattr(scipy_fft, function)
    rtol = 2e-3 if dtype in ("float32", "float16") else 1e-10
    for type_ in (2, 3):
        for norm in (None, "backward", "ortho", "forward"):
            for n, axis in ((None, -1), (3, 0), (9, -1)):
                assert_matches(ours(k, type=type_, n=n, axis=axis, norm=norm),
                               theirs(x, type=type_, n=n, axis=axis, norm=norm), rtol)
        if dtype != "complex128":  # SciPy ignores orthogonalize for complex input unless norm is "ortho"
            assert_matches(ours(k, type=type_, orthogonalize=True), theirs(x, type=type_, orthogonalize=True), rtol)
        assert_matches(getattr(kiln.scipy.fft, function + "n")(k, type=type_, s=(4, -1), norm="ortho"),
                       getattr(scipy_fft, function + "n")(x, type=type_, s=(4, -1), norm="ortho"), rtol)
    for type_ in (1, 4):
        with pytest.raises(NotImplementedError, match="types 2 and 3"):
            ours(k, type=type_)
    with pytest.raises(ValueError, match="data points"):
        ours(k, n=0)
    with pytest.raises(ValueError, match="norm"):
        ours(k, norm="sideways")
    with pytest.raises(ValueError, match="shape requires more axes"):
        getattr(kiln.scipy.fft, function + "n")(k, s=(2, 2, 2))


def test_scipy_fft_backend_protocol(device, rng):
    """scipy.fft.set_backend(kiln.scipy.fft) runs SciPy's calls on kiln arrays
    with kiln's functions; NumPy arrays are left to other backends."""
    scipy_fft = pytest.importorskip("scipy.fft")
    x = random_array((8,), "float64", rng)
    k = kiln.asarray(x, device=device)
    with scipy_fft.set_backend(kiln.scipy.fft):
        got = scipy_fft.dct(k, norm="ortho")
        spectrum = scipy_fft.rfft(k)
    assert isinstance(got, kiln.ndarray) and isinstance(spectrum, kiln.ndarray)
    assert_matches(got, scipy_fft.dct(x, norm="ortho"), 1e-12)
    assert_matches(spectrum, np.fft.rfft(x), 1e-12)
    assert kiln.scipy.fft.__ua_convert__([_Dispatchable(x, np.ndarray, False)], False) is NotImplemented


class _Dispatchable:
    def __init__(self, value, type_, coercible):
        self.value, self.type, self.coercible = value, type_, coercible


@pytest.mark.parametrize("n", [8, 9, 5, 12])
def test_scipy_fftpack(device, n, rng):
    """kiln.scipy.fftpack against scipy.fftpack: the complex transforms (single
    precision kept) and rfft/irfft in fftpack's packed real order."""
    sf = pytest.importorskip("scipy.fftpack")
    import kiln.scipy.fftpack as kf

    x = rng.standard_normal((3, 10))
    k = kiln.asarray(x, device=device)
    for name, args in (("fft", (n,)), ("ifft", (n,)), ("fftn", ((3, n),)), ("ifft2", ((2, n),))):
        np.testing.assert_allclose(kiln.asnumpy(getattr(kf, name)(k, *args)), getattr(sf, name)(x, *args),
                                   rtol=1e-12, atol=1e-12)
    assert kf.fft(kiln.asarray(x.astype(np.float32), device=device)).dtype == sf.fft(x.astype(np.float32)).dtype
    for axis in (0, 1):
        packed = kf.rfft(k, n, axis=axis)
        np.testing.assert_allclose(kiln.asnumpy(packed), sf.rfft(x, n, axis=axis), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(kiln.asnumpy(kf.irfft(packed, n, axis=axis)), sf.irfft(sf.rfft(x, n, axis=axis),
                                   n, axis=axis), rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError):
        kf.rfft(k + 1j)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_scipy_fast_hankel_transform(device, dtype):
    """fht, ifht and fhtoffset against SciPy's: 1-d and 2-d inputs, even and
    odd lengths, with and without bias and offset, and SciPy's result types;
    through scipy.fft's backend protocol too."""
    sfft = pytest.importorskip("scipy.fft")
    import kiln.scipy.fft as kfft

    for n in (9, 10):
        r = np.logspace(-4, 4, n)
        dln = np.log(r[1] / r[0])
        for mu, bias in ((0.5, 0.0), (-1.2, 0.8), (0.3, -0.5)):
            offset = sfft.fhtoffset(dln, mu, bias=bias)
            assert kfft.fhtoffset(dln, mu, bias=bias) == pytest.approx(offset, rel=1e-12)
            a = np.stack([r ** (mu + 1) * np.exp(-r ** 2 / 2)] * 3).astype(dtype)
            for name in ("fht", "ifht"):
                want = getattr(sfft, name)(a, dln, mu, offset=offset, bias=bias)
                got = getattr(kfft, name)(kiln.asarray(a, device=device), dln, mu, offset=offset, bias=bias)
                assert got.dtype == want.dtype and got.shape == want.shape
                tol = 1e-4 if dtype == "float32" else 1e-10
                np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=tol, atol=tol * np.abs(want).max())
    x = kiln.asarray(np.logspace(-2, 2, 10), device=device)
    with sfft.set_backend(kfft):
        got = sfft.fht(x, float(np.log(10 ** 0.444)), mu=0.5)
    assert isinstance(got, kiln.ndarray)
