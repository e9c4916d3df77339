"""kiln.scipy.ndimage's filters against SciPy's scipy.ndimage on every
device: each boundary mode, origins, float and integer input (SciPy's
truncating casts, its running-sum uniform filter bit for bit on the CPU),
Gaussian derivatives, the rank filters with footprints, output= and the
errors SciPy raises."""
import numpy as np
import pytest

import kiln
import kiln.scipy.ndimage as kn

nd = pytest.importorskip("scipy.ndimage")
MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]


def _check(got, want, rtol=1e-10):
    g = kiln.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=rtol)


@pytest.fixture
def images(rng):
    return rng.random((6, 7)), (rng.random((6, 7)) * 100).astype(np.int32)


@pytest.mark.parametrize("mode", MODES)
def test_correlations(device, mode, images, rng):
    w3, w4, w1 = rng.random((3, 3)), rng.random((2, 4)), rng.random(4)
    for image in images:
        k = kiln.asarray(image, device=device)
        for origin in (0, -1, (0, 1)):
            _check(kn.correlate(k, w3, mode=mode, cval=1.5, origin=origin),
                   nd.correlate(image, w3, mode=mode, cval=1.5, origin=origin))
            _check(kn.convolve(k, kiln.asarray(w4, device=device), mode=mode, cval=1.5, origin=origin),
                   nd.convolve(image, w4, mode=mode, cval=1.5, origin=origin))
        _check(kn.correlate1d(k, w1, axis=0, mode=mode), nd.correlate1d(image, w1, axis=0, mode=mode))
        _check(kn.convolve1d(k, w1, mode=mode, origin=1), nd.convolve1d(image, w1, mode=mode, origin=1))
        _check(kn.correlate(k, w1, axes=1, mode=mode), nd.correlate(image, w1, axes=1, mode=mode))


@pytest.mark.parametrize("mode", MODES)
def test_smoothing_and_derivative_filters(device, mode, images):
    for image in images:
        k = kiln.asarray(image, device=device)
        exact = 0 if device.type == "cpu" else 1  # the GPU's running sum is a parallel scan
        _check(kn.uniform_filter(k, 3, mode=mode), nd.uniform_filter(image, 3, mode=mode), 1e-8 + exact)
        _check(kn.uniform_filter1d(k, 4, axis=0, mode=mode, origin=1),
               nd.uniform_filter1d(image, 4, axis=0, mode=mode, origin=1), 1e-8 + exact)
        _check(kn.gaussian_filter(k, 1.3, mode=mode), nd.gaussian_filter(image, 1.3, mode=mode), 1e-8 + exact)
        _check(kn.gaussian_filter(k, (1.3, 0.7), order=(1, 2), mode=mode),
               nd.gaussian_filter(image, (1.3, 0.7), order=(1, 2), mode=mode), 1e-8 + exact)
        for name in ("sobel", "prewitt"):
            _check(getattr(kn, name)(k, axis=0, mode=mode), getattr(nd, name)(image, axis=0, mode=mode))
        _check(kn.laplace(k, mode=mode), nd.laplace(image, mode=mode))
        _check(kn.gaussian_laplace(k, 1.1, mode=mode), nd.gaussian_laplace(image, 1.1, mode=mode), 1e-8 + exact)
        _check(kn.gaussian_gradient_magnitude(k, 1.1, mode=mode),
               nd.gaussian_gradient_magnitude(image, 1.1, mode=mode), 1e-8 + exact)


@pytest.mark.parametrize("mode", MODES)
def test_order_statistic_filters(device, mode, images, rng):
    footprint = rng.random((3, 3)) > 0.4
    for image in images:
        k = kiln.asarray(image, device=device)
        for name in ("minimum_filter", "maximum_filter", "median_filter"):
            _check(getattr(kn, name)(k, size=3, mode=mode), getattr(nd, name)(image, size=3, mode=mode))
            _check(getattr(kn, name)(k, footprint=footprint, mode=mode, origin=(1, 0)),
                   getattr(nd, name)(image, footprint=footprint, mode=mode, origin=(1, 0)))
        _check(kn.rank_filter(k, -2, size=(2, 3), mode=mode), nd.rank_filter(image, -2, size=(2, 3), mode=mode))
        _check(kn.percentile_filter(k, 30, footprint=footprint, mode=mode),
               nd.percentile_filter(image, 30, footprint=footprint, mode=mode))
        _check(kn.minimum_filter1d(k, 4, axis=0, mode=mode, origin=-1),
               nd.minimum_filter1d(image, 4, axis=0, mode=mode, origin=-1))
        _check(kn.maximum_filter1d(k, 2, mode=mode), nd.maximum_filter1d(image, 2, mode=mode))


def test_output_argument_and_errors(device, images):
    image = images[0]
    k = kiln.asarray(image, device=device)
    out = kiln.empty(image.shape, dtype="float32", device=device)
    assert kn.gaussian_filter(k, 1.0, output=out) is out
    _check(out, nd.gaussian_filter(image, 1.0, output=np.float32), 1e-6)
    _check(kn.correlate1d(k, [1.0, 2.0], output="int16"), nd.correlate1d(image, [1.0, 2.0], output="int16"))
    with pytest.raises(ValueError, match="origin"):
        kn.correlate1d(k, [1.0, 2.0, 3.0], origin=2)
    with pytest.raises(RuntimeError, match="boundary mode"):
        kn.uniform_filter(k, 3, mode="sideways")
    with pytest.raises(RuntimeError, match="shape"):
        kn.correlate(k, np.ones(3))
    with pytest.raises(RuntimeError, match="rank"):
        kn.rank_filter(k, 9, size=3)


_RMS = r'''extern "C" __global__
void rms(const double* x, int filter_size, double* y) {
    double ss = 0;
    for (int i = 0; i < filter_size; ++i) { ss += x[i] * x[i]; }
    y[0] = ss / filter_size;
}'''
_SHIFT = r'''extern "C" __global__
void shift(const double* in, ptrdiff_t in_length, double* out, ptrdiff_t out_length) {
    for (int i = 0; i < out_length; ++i) { out[i] = in[i]; }
}'''


def test_generic_filters_with_python_functions_and_raw_kernels(device, images):
    """generic_filter and generic_filter1d take SciPy's Python callbacks and,
    as CuPy's do, a RawKernel applied to every window (line) on the array's
    device, and generic_filter a ReductionKernel over each window's values
    (``_raw_x`` the window, ``_in_ind.size()`` its size); other
    laplace/gradient derivatives through generic_laplace and
    generic_gradient_magnitude."""
    def below_centre(values):
        return (values[len(values) // 2] > values).sum()

    def rms(values):
        return (values * values).sum() / len(values)

    def shift(line, out):
        out[:] = line[:out.size]

    for image in images:
        k = kiln.asarray(image, device=device)
        want = nd.generic_filter(image, rms, size=3, mode="constant", cval=1.0)
        _check(kn.generic_filter(k, rms, size=3, mode="constant", cval=1.0), want)
        _check(kn.generic_filter(k, kiln.RawKernel(_RMS, "rms"), size=3, mode="constant", cval=1.0), want)
        rms_reduction = kiln.ReductionKernel("X x", "Y y", "x * x", "a + b", "y = a / _in_ind.size()", "0", "rms")
        _check(kn.generic_filter(k, rms_reduction, size=3, mode="constant", cval=1.0), want)
        below = kiln.ReductionKernel("X x", "Y y", "_raw_x[_in_ind.size() / 2] > x", "a + b", "y = a", "0",
                                     "below", reduce_type="int")
        footprint = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=bool)
        _check(kn.generic_filter(k, below, footprint=footprint, mode="wrap"),
               nd.generic_filter(image, below_centre, footprint=footprint, mode="wrap"))
        want = nd.generic_filter1d(image, shift, 3, axis=0, origin=1)
        _check(kn.generic_filter1d(k, shift, 3, axis=0, origin=1), want)
        _check(kn.generic_filter1d(k, kiln.RawKernel(_SHIFT, "shift"), 3, axis=0, origin=1), want)

        def derivative(x, axis, output, mode, cval):
            return nd.sobel(x, axis, output, mode, cval) if isinstance(x, np.ndarray) else \
                kn.sobel(x, axis, output, mode, cval)

        _check(kn.generic_laplace(k, derivative), nd.generic_laplace(image, derivative))
        _check(kn.generic_gradient_magnitude(k, derivative), nd.generic_gradient_magnitude(image, derivative))
    image = kiln.asarray(images[0], device=device)
    with pytest.raises(TypeError, match="function: takes a Python function or a RawKernel; ReductionKernel is not one"):
        kn.generic_filter1d(image, kiln.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "total"), 3)
    with pytest.raises(TypeError, match="1 input and 1 output"):
        kn.generic_filter(image, kiln.ReductionKernel("T x, T z", "T y", "x", "a + b", "y = a", "0", "two"), size=3)
    with pytest.raises(TypeError, match="ElementwiseKernel is not one"):
        kn.generic_filter(image, kiln.ElementwiseKernel("T x", "T y", "y = x", "copy"), size=3)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(15,), (6, 7), (4, 5, 6)])
def test_fourier_filters(device, dtype, shape, rng):
    """The Fourier filters on full transforms and on real transforms (n, axis),
    against scipy.ndimage: values and SciPy's output types."""
    x = (rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if dtype.startswith("complex") else 0))
    full = np.fft.fftn(x).astype(dtype if dtype.startswith("complex") else "complex128")
    half = np.fft.rfft(x.real, axis=0).astype("complex128")
    tol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    for name, arg in (("fourier_gaussian", 1.5), ("fourier_uniform", 2.5), ("fourier_ellipsoid", 1.7),
                      ("fourier_shift", 1.25)):
        for a, kw in ((x.astype(dtype), {}), (full, {}), (half, {"n": shape[0], "axis": 0})):
            want = getattr(nd, name)(a, arg, **kw)
            got = getattr(kn, name)(kiln.asarray(a, device=device), arg, **kw)
            assert got.dtype == want.dtype and got.device == device
            np.testing.assert_allclose(kiln.asnumpy(got), want, rtol=tol, atol=tol)
    with pytest.raises(RuntimeError, match="rank"):
        kn.fourier_gaussian(kiln.asarray(full, device=device), [1.0] * (len(shape) + 1))
    with pytest.raises(np.exceptions.AxisError):
        kn.fourier_shift(kiln.asarray(full, device=device), 1.0, axis=len(shape))


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16", "int32", "float32", "float64"])
@pytest.mark.parametrize("mode", MODES + ["grid-wrap", "grid-mirror", "grid-constant"])
def test_one_axis_correlations_read_through_the_boundary(device, dtype, mode, rng):
    """correlate1d and convolve1d in one kernel (the boundary read through
    the mode, no padded copy): every mode, lines shorter than the filter
    (the extension repeats), origins at both ends, each axis of a 3-d
    array, zero taps, a strided view, integer outputs that truncate."""
    x = (rng.random((5, 3, 9)) * 50).astype(dtype)
    k = kiln.asarray(x, device=device)
    for weights in ([1.0, -2.0, 0.0, 3.5, 0.25], [0.5, 0.5], rng.standard_normal(11), [2.0]):
        w = np.asarray(weights)
        for origin in {0, -(w.size // 2), (w.size - 1) // 2}:
            for axis in (0, 1, 2):
                kw = dict(axis=axis, mode=mode, cval=1.5, origin=origin)
                _check(kn.correlate1d(k, w, **kw), nd.correlate1d(x, w, **kw), 1e-5)
                _check(kn.convolve1d(k, w, **kw), nd.convolve1d(x, w, **kw), 1e-5)
    view = x[::-1, :, ::2]
    _check(kn.correlate1d(kiln.asarray(x, device=device)[::-1, :, ::2], [1.0, 2.0, 1.0], mode=mode),
           nd.correlate1d(view, [1.0, 2.0, 1.0], mode=mode), 1e-5)
    _check(kn.gaussian_filter(k, 1.5, mode=mode, output="float64"),
           nd.gaussian_filter(x, 1.5, mode=mode, output="float64"), 1e-6)


def test_measurements_by_label(device, rng):
    """sum_labels (and sum), mean and center_of_mass against SciPy: no
    labels, labels without an index (labels > 0), a scalar index, a
    sequence index with labels that do not occur, negative and large
    labels, broadcast labels, integer and float input."""
    x = rng.standard_normal((6, 9))
    xi = (rng.random((6, 9)) * 20).astype(np.int32)
    labels = rng.integers(-2, 4, (6, 9))
    labels[0, 0] = 1000
    for data in (x, xi):
        k, kl = kiln.asarray(data, device=device), kiln.asarray(labels, device=device)
        for name in ("sum_labels", "sum", "mean"):
            ours, theirs = getattr(kn, name), getattr(nd, name)
            for args in ((), (kl,), (kl, 1), (kl, [3, -2, 7, 1000, 0])):
                host = tuple(labels if isinstance(a, kiln.ndarray) else a for a in args)
                got, want = ours(k, *args), theirs(data, *host)
                np.testing.assert_allclose(kiln.asnumpy(kiln.asarray(got)), np.asarray(want, dtype=np.float64),
                                           rtol=1e-10, atol=1e-10)
        row_labels = kiln.asarray(labels[:1], device=device)  # broadcast over the rows
        np.testing.assert_allclose(kiln.asnumpy(kn.sum_labels(k, row_labels, [1, 2])),
                                   nd.sum_labels(data, labels[:1], [1, 2]))
    positive = np.abs(x) + 0.1
    kp = kiln.asarray(positive, device=device)
    for args in ((), (kiln.asarray(labels, device=device), 2)):
        host = tuple(labels if isinstance(a, kiln.ndarray) else a for a in args)
        got, want = kn.center_of_mass(kp, *args), nd.center_of_mass(positive, *host)
        np.testing.assert_allclose([float(c) for c in got], want, rtol=1e-10)
    got = kn.center_of_mass(kp, kiln.asarray(labels, device=device), [1, 3])
    want = nd.center_of_mass(positive, labels, [1, 3])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose([float(c) for c in g], w, rtol=1e-10)
