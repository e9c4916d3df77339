"""kiln.scipy.signal against scipy.signal on every device: convolution and
correlation (direct and FFT, every mode, n-d, axes, integer wrap-around and
SciPy's result dtypes), 2-d convolution with each boundary, rational
filters with SciPy's zi/zf convention (lfilter, lfiltic, lfilter_zi,
filtfilt by padding and by Gustafsson's method, second-order sections),
median/order/Wiener filters, analytic signals, detrending, deconvolution,
and the host-designed coefficients arriving as kiln arrays."""
import warnings

import numpy as np
import pytest

import kiln
import kiln.scipy.signal as ks

ss = pytest.importorskip("scipy.signal")


def _same(got, want, rtol=1e-10, atol=1e-10):
    got = kiln.asnumpy(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def _random(shape, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        return rng.integers(0, 50, size=shape).astype(dt)
    x = rng.uniform(-1, 1, shape)
    return (x + 1j * rng.uniform(-1, 1, shape) if dt.kind == "c" else x).astype(dt)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shapes", [((10,), (3,)), ((5, 10), (2, 4)), ((3, 4, 6), (2, 2, 3)), ((4,), (9,))])
def test_convolve_and_correlate(device, dtype, shapes, rng):
    a, b = (_random(s, dtype, rng) for s in shapes)
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    tol = 1e-4 if dtype == "float32" else 1e-9
    for mode in ("full", "same", "valid"):
        for method in ("direct", "fft"):
            for name in ("convolve", "correlate"):
                _same(getattr(ks, name)(ka, kb, mode, method), getattr(ss, name)(a, b, mode, method), tol, tol)
        _same(ks.fftconvolve(ka, kb, mode), ss.fftconvolve(a, b, mode), tol, tol)
        _same(ks.oaconvolve(ka, kb, mode), ss.oaconvolve(a, b, mode), tol, tol)


def test_convolution_rules(device, rng):
    a, b = rng.random((2, 5, 5)), rng.random((2, 1, 3))
    ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
    for mode in ("full", "same", "valid"):
        _same(ks.fftconvolve(ka, kb, mode, axes=(1, 2)), ss.fftconvolve(a, b, mode, axes=(1, 2)))
    with pytest.raises(ValueError, match="dimensionality"):
        ks.convolve(ka, kiln.ones(3, device=device))
    with pytest.raises(ValueError, match="valid"):
        ks.convolve(kiln.ones((3, 5), device=device), kiln.ones((5, 3), device=device), "valid")
    with pytest.raises(ValueError):  # SciPy's direct n-d convolution takes no booleans
        ks.convolve(kiln.ones((3, 3), dtype=bool, device=device), kiln.ones((2, 2), dtype=bool, device=device),
                    method="direct")
    big = kiln.asarray(np.arange(10000.0), device=device)
    assert ks.choose_conv_method(big, big[:5000]) == ss.choose_conv_method(np.arange(10000.0), np.arange(5000.0))
    assert ks.choose_conv_method(kiln.arange(10, device=device), kiln.arange(5, device=device)) == "direct"
    for mode in ("full", "same", "valid"):
        _same(ks.correlation_lags(100, 90, mode), ss.correlation_lags(100, 90, mode))


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_convolve2d_and_correlate2d(device, dtype, boundary, rng):
    a = _random((7, 9), dtype, rng)
    tol = 1e-4 if dtype == "complex64" else 1e-9
    for kshape in ((3, 2), (3, 3), (2, 4), (9, 11)):
        b = _random(kshape, dtype, rng)
        ka, kb = kiln.asarray(a, device=device), kiln.asarray(b, device=device)
        for mode in ("same", "valid") + (("full",) if boundary == "fill" else ()):
            for fill in ((0, 2) if boundary == "fill" else (0,)):
                for name in ("convolve2d", "correlate2d"):
                    _same(getattr(ks, name)(ka, kb, mode, boundary, fill),
                          getattr(ss, name)(a, b, mode, boundary, fill), tol, tol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_lfilter_states_and_axes(device, dtype, rng):
    b, a = ss.butter(3, 0.25)
    b = (b * (1 + 0.5j)).astype(dtype) if dtype == "complex128" else b.astype(dtype)
    x = _random((3, 40, 2), dtype, rng)
    kx = kiln.asarray(x, device=device)
    tol = 1e-4 if dtype == "float32" else 1e-9
    for axis in (0, 1, -1):
        _same(ks.lfilter(b, a, kx, axis=axis), ss.lfilter(b, a, x, axis=axis), tol, tol)
        shape = list(x.shape)
        shape[axis] = 3
        zi = _random(shape, dtype, rng)
        got, zf = ks.lfilter(kiln.asarray(b, device=device), a, kx, axis=axis, zi=kiln.asarray(zi, device=device))
        want, wzf = ss.lfilter(b, a, x, axis=axis, zi=zi)
        _same(got, want, tol, tol)
        _same(zf, wzf, tol, tol)
    _same(ks.lfiltic(b, a, [1.0, 0.5, -0.2], [0.3, 0.1]), ss.lfiltic(b, a, [1.0, 0.5, -0.2], [0.3, 0.1]), tol, tol)
    _same(ks.lfilter_zi(b, a), ss.lfilter_zi(b, a), tol, tol)
    # a chained run continues where the first left off
    first, state = ks.lfilter(b, a, kx[0, :20, 0], zi=ks.lfilter_zi(b, a))
    second, _ = ks.lfilter(b, a, kx[0, 20:, 0], zi=state)
    whole, _ = ss.lfilter(b, a, x[0, :, 0], zi=ss.lfilter_zi(b, a))
    _same(kiln.concatenate([first, second]), whole, tol, tol)
    with pytest.raises(ValueError, match="zi"):
        ks.lfilter(b, a, kx, zi=kiln.zeros((3, 40, 5), device=device))
    with pytest.raises(ValueError, match="nonzero"):
        ks.lfilter(b, [0.0, 1.0], kx)


def test_forward_backward_and_sections(device, rng):
    b, a = ss.butter(4, 0.2)
    sos = ss.butter(6, [0.1, 0.4], btype="band", output="sos")
    x = rng.standard_normal((3, 120))
    kx = kiln.asarray(x, device=device)
    for padtype in ("odd", "even", "constant", None):
        _same(ks.filtfilt(b, a, kx, padtype=padtype), ss.filtfilt(b, a, x, padtype=padtype), 1e-8, 1e-8)
        _same(ks.sosfiltfilt(sos, kx, padtype=padtype), ss.sosfiltfilt(sos, x, padtype=padtype), 1e-8, 1e-8)
    for irlen in (None, 30):
        _same(ks.filtfilt(b, a, kx, method="gust", irlen=irlen), ss.filtfilt(b, a, x, method="gust", irlen=irlen),
              1e-8, 1e-8)
    _same(ks.filtfilt(b, a, kiln.asarray(x.T, device=device), axis=0), ss.filtfilt(b, a, x.T, axis=0), 1e-8, 1e-8)
    _same(ks.sosfilt(sos, kx), ss.sosfilt(sos, x), 1e-8, 1e-8)
    zi = ss.sosfilt_zi(sos)[:, None, :] * x[:, :1]
    got, zf = ks.sosfilt(kiln.asarray(sos, device=device), kx, zi=kiln.asarray(zi, device=device))
    want, wzf = ss.sosfilt(sos, x, zi=zi)
    _same(got, want, 1e-8, 1e-8)
    _same(zf, wzf, 1e-8, 1e-8)
    _same(ks.sosfilt_zi(sos), ss.sosfilt_zi(sos))
    with pytest.raises(ValueError, match="padlen"):
        ks.filtfilt(b, a, kx[:, :10])
    with pytest.raises(ValueError, match="sos"):
        ks.sosfilt(np.ones((2, 5)), kx)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
def test_symmetric_iir_filters(device, dtype, rng):
    """symiirorder1 and symiirorder2 against SciPy's: 1-D signals and the
    rows of 2-D ones, SciPy's default precision and chosen ones, poles at
    angle 0, pi and between."""
    for shape in ((40,), (3, 64)):
        x = _random(shape, dtype, rng)
        kx = kiln.asarray(x, device=device)
        tol = 1e-5 if dtype == "float32" else 1e-10
        for precision in (-1, 0.25, 1e-3):
            _same(ks.symiirorder1(kx, 2.0, 0.5, precision), ss.symiirorder1(x, 2.0, 0.5, precision), tol, tol)
        if dtype.startswith("complex"):
            continue
        for omega in (0.0, np.pi, 0.7):
            _same(ks.symiirorder2(kx, 0.4, omega), ss.symiirorder2(x, 0.4, omega), 100 * tol, 100 * tol)
    with pytest.raises(ValueError, match="z1"):
        ks.symiirorder1(kiln.ones(10, device=device), 1.0, 1.5)
    with pytest.raises(ValueError, match="did not converge"):
        ks.symiirorder1(kiln.ones(5, device=device), 1.0, 0.99)
    with pytest.raises(ValueError, match="r must be"):
        ks.symiirorder2(kiln.ones(10, device=device), 1.0, 0.5)
    with pytest.raises(ValueError, match="1D or 2D"):
        ks.symiirorder2(kiln.ones((2, 2, 10), device=device), 0.5, 0.5)


def test_nonlinear_filters_analytic_signals_and_detrending(device, rng):
    x = rng.integers(0, 100, (6, 11)).astype(np.float64)
    kx = kiln.asarray(x, device=device)
    _same(ks.medfilt(kx, 3), ss.medfilt(x, 3))
    _same(ks.medfilt2d(kx, (3, 5)), ss.medfilt2d(x, (3, 5)))
    domain = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], bool)
    _same(ks.order_filter(kx, kiln.asarray(domain, device=device), 2), ss.order_filter(x, domain, 2))
    _same(ks.wiener(kx, 3), ss.wiener(x, 3))
    _same(ks.wiener(kx, (3, 5), noise=10.0), ss.wiener(x, (3, 5), noise=10.0))
    with pytest.raises(ValueError, match="odd"):
        ks.medfilt(kx, 4)
    with pytest.raises(ValueError, match="not supported"):
        ks.medfilt(kiln.ones((3, 3), dtype=bool, device=device))
    for n in (None, 16):
        _same(ks.hilbert(kx, N=n), ss.hilbert(x, N=n))
        _same(ks.hilbert(kx.astype("float32"), N=n, axis=0), ss.hilbert(x.astype("float32"), N=n, axis=0), 1e-5, 1e-4)
    _same(ks.hilbert2(kx), ss.hilbert2(x))
    with pytest.raises(ValueError, match="real"):
        ks.hilbert(kiln.ones(4, dtype="complex64", device=device))
    for kind in ("linear", "constant"):
        for axis in (0, -1):
            _same(ks.detrend(kx, axis=axis, type=kind), ss.detrend(x, axis=axis, type=kind))
    _same(ks.detrend(kx, bp=[3, 7]), ss.detrend(x, bp=[3, 7]))
    integers = np.arange(24).reshape(4, 6) ** 2  # integer data detrends in float64, as SciPy's
    _same(ks.detrend(kiln.asarray(integers, device=device)), ss.detrend(integers))
    signal, divisor = x[0], np.array([1.0, 0.5, 0.25])
    for got, want in zip(ks.deconvolve(kiln.asarray(signal, device=device), divisor), ss.deconvolve(signal, divisor)):
        _same(got, want, 1e-8, 1e-8)


def test_designs_and_windows_are_kiln_arrays():
    b, a = ks.butter(4, 0.3)
    want_b, want_a = ss.butter(4, 0.3)
    _same(b, want_b)
    _same(a, want_a)
    _same(ks.firwin(31, 0.2), ss.firwin(31, 0.2))
    _same(ks.windows.hann(16), ss.windows.hann(16))
    _same(ks.get_window("hamming", 10), ss.get_window("hamming", 10))
    _all_same(ks.iirdesign(0.2, 0.3, 1, 40), ss.iirdesign(0.2, 0.3, 1, 40))
    system = ([1.0, 3.0], [1.0, 2.0, 5.0])
    _all_same(ks.impulse(system, N=20), ss.impulse(system, N=20))
    _all_same(ks.step(system, N=20), ss.step(system, N=20))
    _all_same(ks.bode(system, n=30), ss.bode(system, n=30))
    _all_same(ks.abcd_normalize([[1.0, 2.0], [3.0, 4.0]], [[1.0], [0.0]], [[1.0, 0.0]], [[0.0]]),
              ss.abcd_normalize([[1.0, 2.0], [3.0, 4.0]], [[1.0], [0.0]], [[1.0, 0.0]], [[0.0]]))


def _all_same(got, want, rtol=1e-8, atol=1e-10):
    for g, w in zip(got, want):
        _same(g, w, rtol, atol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_spectral_estimates(device, dtype, rng):
    x, y = _random((2, 700), dtype, rng), _random((2, 700), dtype, rng)
    kx, ky = kiln.asarray(x, device=device), kiln.asarray(y, device=device)
    tol = 2e-4 if dtype == "float32" else 1e-8
    for kw in ({}, {"nperseg": 100, "noverlap": 30, "nfft": 128}, {"scaling": "spectrum", "average": "median",
                                                                     "detrend": "linear"},
               {"return_onesided": False, "window": ("tukey", 0.3), "nperseg": 64}):
        with pytest.warns(UserWarning) if dtype.startswith("complex") and kw.get("return_onesided", True) \
                else _no_warning():
            _all_same(ks.welch(kx, **kw), ss.welch(x, **kw), tol, tol)
        _all_same(ks.csd(kx, ky, **kw), ss.csd(x, y, **kw), tol, tol)
    _all_same(ks.welch(kiln.asarray(x.T.copy(), device=device), nperseg=64, axis=0),
              ss.welch(x.T.copy(), nperseg=64, axis=0), tol, tol)
    if dtype.startswith("complex"):
        return
    _all_same(ks.periodogram(kx), ss.periodogram(x), tol, tol)
    _all_same(ks.periodogram(kx, nfft=500, window="hann"), ss.periodogram(x, nfft=500, window="hann"), tol, tol)
    _all_same(ks.coherence(kx, ky, nperseg=64), ss.coherence(x, y, nperseg=64), tol, tol)
    for mode in ("psd", "complex", "magnitude", "angle", "phase"):
        _all_same(ks.spectrogram(kx, mode=mode, nperseg=128), ss.spectrogram(x, mode=mode, nperseg=128), tol, tol)
    for scaling in ("spectrum", "psd"):
        for noverlap in (None, 40):
            f, t, z = ks.stft(kx, nperseg=64, noverlap=noverlap, scaling=scaling)
            _all_same((f, t, z), ss.stft(x, nperseg=64, noverlap=noverlap, scaling=scaling), tol, tol)
            tr, xr = ks.istft(z, nperseg=64, noverlap=noverlap, scaling=scaling)
            _all_same((tr, xr), ss.istft(kiln.asnumpy(z), nperseg=64, noverlap=noverlap, scaling=scaling), tol, tol)
            np.testing.assert_allclose(kiln.asnumpy(xr)[:, :700], x, rtol=tol, atol=tol)  # the round trip


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_waveforms_and_vector_strength(device):
    t = kiln.linspace(-3, 10, 200, device=device)
    tn = kiln.asnumpy(t)
    for method in ("linear", "quadratic", "logarithmic", "hyperbolic"):
        _same(ks.chirp(t, 1, 8, 3, method), ss.chirp(tn, 1, 8, 3, method))
    _same(ks.chirp(t, 1, 8, 3, "quadratic", vertex_zero=False), ss.chirp(tn, 1, 8, 3, "quadratic", vertex_zero=False))
    _same(ks.sawtooth(t, 0.3), ss.sawtooth(tn, 0.3))
    _same(ks.square(t, 0.3), ss.square(tn, 0.3))
    _all_same(ks.gausspulse(t / 1000, retquad=True, retenv=True), ss.gausspulse(tn / 1000, retquad=True, retenv=True))
    assert ks.gausspulse("cutoff") == ss.gausspulse("cutoff")
    _same(ks.unit_impulse((3, 4), "mid"), ss.unit_impulse((3, 4), "mid"))
    events = np.array([0.1, 1.05, 2.2, 2.9, 4.1])
    _all_same(ks.vectorstrength(kiln.asarray(events, device=device), 1.0), ss.vectorstrength(events, 1.0))
    _all_same(ks.vectorstrength(kiln.asarray(events, device=device), kiln.asarray([1.0, 0.7], device=device)),
              ss.vectorstrength(events, [1.0, 0.7]))
    with pytest.raises(ValueError, match="positive"):
        ks.vectorstrength(kiln.asarray(events, device=device), 0.0)


@pytest.mark.parametrize("shape, axis", [((40,), 0), ((3, 41), -1), ((40, 3), 0)])
def test_resampling(device, shape, axis, rng):
    x = rng.standard_normal(shape)
    for data in (x, x + 1j * rng.standard_normal(shape)):
        k = kiln.asarray(data, device=device)
        for num in (20, 21, 40, 81):
            for window in (None, "hann"):
                _same(ks.resample(k, num, axis=axis, window=window), ss.resample(data, num, axis=axis, window=window))
    k = kiln.asarray(x, device=device)
    got, t = ks.resample(k, 30, t=kiln.arange(shape[axis], device=device) * 0.5, axis=axis)
    want, wt = ss.resample(x, 30, t=np.arange(shape[axis]) * 0.5, axis=axis)
    _same(got, want)
    _same(t, wt)
    for up, down in ((2, 1), (1, 3), (3, 2), (5, 7)):
        for padtype in ("constant", "mean", "median", "maximum"):
            _same(ks.resample_poly(k, up, down, axis=axis, padtype=padtype),
                  ss.resample_poly(x, up, down, axis=axis, padtype=padtype))
    h = rng.random(7)
    _same(ks.upfirdn(h, k, 3, 2, axis=axis), ss.upfirdn(h, x, 3, 2, axis=axis))
    long_taps = rng.random(100)  # past 64 taps: the FFT convolution
    _same(ks.upfirdn(long_taps, k, 2, 3, axis=axis), ss.upfirdn(long_taps, x, 2, 3, axis=axis))
    with pytest.raises(NotImplementedError, match="mode"):
        ks.upfirdn(h, k, mode="wrap")


def test_chirp_z_transforms(device, rng):
    x = rng.standard_normal((3, 50))
    k = kiln.asarray(x, device=device)
    for kw in ({}, {"m": 20}, {"m": 70, "w": np.exp(-0.05j), "a": 0.9 * np.exp(0.3j)}):
        _same(ks.czt(k, **kw), ss.czt(x, **kw), 1e-8, 1e-8)
        _same(ks.czt(kiln.asarray(x.T, device=device), axis=0, **kw), ss.czt(x.T, axis=0, **kw), 1e-8, 1e-8)
    _same(ks.czt(k), np.fft.fft(x), 1e-8, 1e-8)  # the default spiral is the DFT
    _same(ks.zoom_fft(k, [0.1, 0.5], m=30, endpoint=True), ss.zoom_fft(x, [0.1, 0.5], m=30, endpoint=True), 1e-8, 1e-8)
    _same(ks.zoom_fft(k, 0.7), ss.zoom_fft(x, 0.7), 1e-8, 1e-8)
    _same(ks.CZT(50, 20).points(), ss.CZT(50, 20).points())
    with pytest.raises(ValueError, match="length"):
        ks.CZT(40)(k)
    with pytest.raises(ValueError, match="positive"):
        ks.czt(k, m=0)


def test_peak_finding(device, rng):
    x = np.convolve(np.round(rng.standard_normal(300) * 3) / 3, np.ones(3) / 3, "same")  # plateaus too
    k = kiln.asarray(x, device=device)
    for kw in ({}, {"height": 0.2}, {"height": (0, 1)}, {"threshold": 0.05}, {"distance": 10},
               {"prominence": 0.5}, {"width": 2}, {"prominence": 0.3, "wlen": 20}, {"plateau_size": (1, 3)},
               {"width": (1, 5), "rel_height": 0.8}, {"height": x * 0.5, "distance": 3.5}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # zero prominences or widths, as SciPy warns
            peaks, properties = ks.find_peaks(k, **kw)
            want, want_properties = ss.find_peaks(x, **kw)
        _same(peaks, want.astype(np.int64))
        assert set(properties) == set(want_properties)
        for name, value in want_properties.items():
            np.testing.assert_allclose(kiln.asnumpy(properties[name]), value)
    peaks = ss.find_peaks(x)[0]
    for got, want in zip(ks.peak_prominences(k, peaks, wlen=15), ss.peak_prominences(x, peaks, wlen=15)):
        np.testing.assert_allclose(kiln.asnumpy(got), want)
    for got, want in zip(ks.peak_widths(k, peaks, rel_height=0.3), ss.peak_widths(x, peaks, rel_height=0.3)):
        np.testing.assert_allclose(kiln.asnumpy(got), want)
    with pytest.raises(ValueError, match="not a valid index"):
        ks.peak_prominences(k, [300])
    with pytest.raises(ValueError, match="1-D"):
        ks.find_peaks(kiln.ones((3, 3), device=device))
    data = rng.random((5, 20))
    for name in ("argrelmax", "argrelmin"):
        for axis in (0, 1):
            for order in (1, 3):
                for mode in ("clip", "wrap"):
                    got = getattr(ks, name)(kiln.asarray(data, device=device), axis=axis, order=order, mode=mode)
                    for g, w in zip(got, getattr(ss, name)(data, axis=axis, order=order, mode=mode)):
                        np.testing.assert_array_equal(kiln.asnumpy(g), w)


def test_lombscargle(device, rng):
    x = np.sort(rng.random(100) * 10)
    y = np.sin(2 * x) + 0.3 * rng.standard_normal(100) + 0.5
    f, w = np.linspace(0.1, 5, 60), rng.random(100)
    kx, ky, kf = (kiln.asarray(v, device=device) for v in (x, y, f))
    for kw in ({}, {"normalize": True}, {"normalize": "amplitude"}, {"floating_mean": True},
               {"floating_mean": True, "normalize": True, "weights": w}):
        _same(ks.lombscargle(kx, ky, kf, **kw), ss.lombscargle(x, y, f, **kw), 1e-9, 1e-9)
    with pytest.raises(ValueError, match="equal non-zero length"):
        ks.lombscargle(kx, ky[:5], kf)
