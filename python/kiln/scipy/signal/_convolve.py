"""Convolution and correlation of n-d signals (scipy.signal's convolve,
correlate, fftconvolve, oaconvolve, convolve2d, correlate2d,
choose_conv_method, correlation_lags).

The direct method adds one shifted, scaled copy of `in1` into the output per
element of `in2`, in the result dtype (integers wrap as SciPy's C loops
do); the FFT method multiplies real or complex n-d transforms of padded,
fast lengths (kiln.fft); both run on either device."""
import math

import numpy as np

import kiln

from .. import fft as _fft


def _arrays(in1, in2):
    in1, in2 = kiln.asarray(in1), kiln.asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    return in1, in2


def _check_mode(mode, method="direct"):
    if mode not in ("full", "same", "valid"):
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")
    if method not in ("auto", "direct", "fft"):
        raise ValueError("acceptable method flags are 'auto', 'direct', or 'fft'")


def _swap_needed(mode, shape1, shape2, axes=None):
    """For 'valid', the larger input must come first; SciPy requires one of
    them to be at least as large as the other along every (given) axis."""
    if mode != "valid":
        return False
    axes = range(len(shape1)) if axes is None else axes
    first_bigger = all(shape1[i] >= shape2[i] for i in axes)
    second_bigger = all(shape2[i] >= shape1[i] for i in axes)
    if not (first_bigger or second_bigger):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not first_bigger


def _crop(full, shape1, shape2, mode, axes):
    """The part of a full convolution that `mode` keeps, along `axes`."""
    if mode == "full":
        return full
    index = [slice(None)] * full.ndim
    for ax in axes:
        size = shape1[ax] if mode == "same" else shape1[ax] - shape2[ax] + 1
        start = (full.shape[ax] - size) // 2 if mode == "same" else shape2[ax] - 1
        index[ax] = slice(start, start + size)
    return kiln.ascontiguousarray(full[tuple(index)])  # SciPy's results are C-contiguous


def _direct(in1, in2, mode):
    dtype = np.result_type(np.dtype(in1.dtype), np.dtype(in2.dtype))
    if in1.ndim > 1 and dtype in (np.bool_, np.float16):
        raise ValueError(f"convolve: the direct method does not take {dtype} arrays of more than one dimension")
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    in1, in2 = in1.astype(dtype, copy=False), in2.astype(dtype, copy=False)
    full = kiln.zeros(tuple(a + b - 1 for a, b in zip(in1.shape, in2.shape)), dtype=dtype, device=in1.device)
    for tap in np.ndindex(*in2.shape):
        # a 0-d view of the tap: no value comes back to the host
        window = tuple(slice(t, t + s) for t, s in zip(tap, in1.shape))
        full[window] += in1 * in2[tap]
    return _crop(full, in1.shape, in2.shape, mode, range(in1.ndim))


def _transform_lengths(shape1, shape2, axes):
    return [_fft.next_fast_len(shape1[a] + shape2[a] - 1, True) for a in axes]


def _axes(axes, ndim):
    if axes is None:
        return list(range(ndim))
    axes = [axes] if np.ndim(axes) == 0 else list(axes)
    axes = [a + ndim if a < 0 else a for a in axes]
    if any(not 0 <= a < ndim for a in axes) or len(set(axes)) != len(axes):
        raise ValueError("axes exceeds dimensionality of input or repeats an axis")
    return sorted(axes)


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolve n-d arrays through their FFTs along `axes` (all by
    default; the other axes broadcast). Real inputs give float32 (half and
    single precision) or float64 results; complex stay complex."""
    in1, in2 = _arrays(in1, in2)
    _check_mode(mode)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        return kiln.empty((0,) * in1.ndim, dtype=in1.dtype, device=in1.device)
    axes = _axes(axes, in1.ndim)
    for ax in range(in1.ndim):
        if ax not in axes and in1.shape[ax] != in2.shape[ax] and 1 not in (in1.shape[ax], in2.shape[ax]):
            raise ValueError("incompatible shapes for in1 and in2: " f"{in1.shape} and {in2.shape}")
    # axes along which one input has length 1 need no transform: with none
    # left, the product is the convolution (in the inputs' own type)
    axes = [a for a in axes if in1.shape[a] != 1 and in2.shape[a] != 1]
    if _swap_needed(mode, in1.shape, in2.shape, axes):
        in1, in2 = in2, in1
    # 'same' keeps in1's shape along every axis, the others crop the transformed ones
    crop_axes = range(in1.ndim) if mode == "same" else axes
    if not axes:
        return kiln.ascontiguousarray(_crop(in1 * in2, in1.shape, in2.shape, mode, crop_axes))
    # SciPy's transforms: integers and booleans in double, half in single precision
    dtype = np.result_type(np.dtype(in1.dtype), np.dtype(in2.dtype))
    dtype = np.dtype(np.float64) if dtype.kind in "biu" else np.result_type(dtype, np.float32)
    in1, in2 = in1.astype(dtype, copy=False), in2.astype(dtype, copy=False)
    lengths = _transform_lengths(in1.shape, in2.shape, axes)
    if dtype.kind == "c":
        out = kiln.fft.ifftn(kiln.fft.fftn(in1, lengths, axes) * kiln.fft.fftn(in2, lengths, axes), axes=axes)
    else:
        out = kiln.fft.irfftn(kiln.fft.rfftn(in1, lengths, axes) * kiln.fft.rfftn(in2, lengths, axes), lengths, axes)
    index = [slice(None)] * out.ndim
    for ax in axes:
        index[ax] = slice(0, in1.shape[ax] + in2.shape[ax] - 1)
    out = out[tuple(index)].astype(dtype, copy=False)
    return kiln.ascontiguousarray(_crop(out, in1.shape, in2.shape, mode, crop_axes))


def oaconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.oaconvolve's result. Overlap-add is a way to save work
    when one input is much longer than the other; kiln computes it with one
    FFT convolution of the padded whole, which gives the same values."""
    return fftconvolve(in1, in2, mode, axes)


def choose_conv_method(in1, in2, mode="full", measure=False):
    """'direct' or 'fft', by SciPy's rules: booleans, and integers whose
    products could pass float64's exact integers, go direct; otherwise FFTs
    where their O(N log N) count of operations beats the direct O(n1 n2).
    Any number of dimensions, as SciPy's."""
    in1, in2 = _arrays(in1, in2)
    _check_mode(mode)
    if measure:
        raise NotImplementedError("choose_conv_method: measure=True is not supported")
    dtype = np.result_type(np.dtype(in1.dtype), np.dtype(in2.dtype))
    if dtype.kind == "b" or in1.size == 0 or in2.size == 0:
        return "direct"
    if dtype.kind in "iu":
        largest = float(kiln.abs(in1).max()) * float(kiln.abs(in2).max()) * min(in1.size, in2.size)
        if largest > 2 ** 52 - 1:
            return "direct"
    full = math.prod(a + b - 1 for a, b in zip(in1.shape, in2.shape))
    fft_ops = 3 * full * math.log2(max(full, 2))
    return "fft" if fft_ops < in1.size * in2.size else "direct"


def convolve(in1, in2, mode="full", method="auto"):
    """Convolve n-d arrays: 'direct' sums shifted copies, 'fft' goes
    through FFTs (rounded back to integers for integer inputs), 'auto'
    chooses as choose_conv_method."""
    in1, in2 = _arrays(in1, in2)
    _check_mode(mode, method)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        return kiln.empty((0,) * in1.ndim, dtype=in1.dtype, device=in1.device)
    if method == "auto":
        method = choose_conv_method(in1, in2, mode)
    if method == "direct":
        return _direct(in1, in2, mode)
    dtype = np.result_type(np.dtype(in1.dtype), np.dtype(in2.dtype))
    out = fftconvolve(in1, in2, mode)
    if dtype.kind in "biu":
        out = kiln.around(out)
    return out.astype(dtype)


def _reversed_conjugate(x):
    x = x[(slice(None, None, -1),) * x.ndim]
    return kiln.conj(x) if x.dtype.kind == "c" else x


def correlate(in1, in2, mode="full", method="auto"):
    """Cross-correlate n-d arrays: the convolution of `in1` with `in2`
    reversed and conjugated."""
    in1, in2 = _arrays(in1, in2)
    _check_mode(mode, method)
    if in1.ndim == 0:
        return in1 * kiln.conj(in2)
    if mode == "valid" and _swap_needed(mode, in1.shape, in2.shape):
        # SciPy correlates the other way round and reverses the result
        return kiln.ascontiguousarray(_reversed_conjugate(convolve(in2, _reversed_conjugate(in1), mode, method)))
    return convolve(in1, _reversed_conjugate(in2), mode, method)


def correlation_lags(in1_len, in2_len, mode="full"):
    """The lag of each index of a 1-d cross-correlation of signals of
    lengths `in1_len` and `in2_len`."""
    if mode == "full":
        return kiln.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = kiln.arange(-in2_len + 1, in1_len)
        mid = lags.size // 2
        lag_bound = in1_len // 2
        return lags[mid - lag_bound:mid + lag_bound + (in1_len % 2)]
    if mode == "valid":
        lag_bound = in1_len - in2_len
        return kiln.arange(lag_bound + 1) if lag_bound >= 0 else kiln.arange(lag_bound, 1)
    raise ValueError("Mode must be one of 'full', 'same', or 'valid'")


_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
               "symm": "symmetric", "symmetric": "symmetric"}


def _convolve2d(in1, in2, mode, boundary, fillvalue, name):
    in1, in2 = _arrays(in1, in2)
    if in1.ndim != 2:
        raise ValueError(f"{name} inputs must both be 2-D arrays")
    _check_mode(mode)
    if boundary not in _BOUNDARIES:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' "
                         "(or 'symm').")
    dtype = np.result_type(np.dtype(in1.dtype), np.dtype(in2.dtype))
    if dtype in (np.bool_, np.float16):
        raise ValueError(f"{name}: {dtype} arrays are not supported")
    if in1.size == 0 or in2.size == 0:
        return kiln.empty((0, 0), dtype=dtype, device=in1.device)
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    in1, in2 = in1.astype(dtype, copy=False), in2.astype(dtype, copy=False)
    if mode == "valid":
        return _direct(in1, in2, "valid")
    # Extend in1 by the kernel's reach beyond each edge, then keep the
    # valid part: the full convolution with SciPy's boundary values.
    reach = [(s - 1, s - 1) for s in in2.shape]
    kind = _BOUNDARIES[boundary]
    if kind == "constant":
        fill = kiln.asarray(fillvalue).astype(dtype)
        extended = kiln.pad(in1, reach, mode="constant", constant_values=fill)
    else:
        extended = kiln.pad(in1, reach, mode=kind)
    full = _direct(extended, in2, "valid")
    return _crop(full, in1.shape, in2.shape, mode, (0, 1))


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d convolution with SciPy's boundary handling: 'fill' (with
    `fillvalue`), 'wrap' or 'symm'."""
    return _convolve2d(in1, in2, mode, boundary, fillvalue, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """2-d cross-correlation with SciPy's boundary handling."""
    in1, in2 = _arrays(in1, in2)
    if mode == "valid" and in1.ndim == 2 and _swap_needed(mode, in1.shape, in2.shape):
        # SciPy correlates the other way round and reverses the result
        return kiln.ascontiguousarray(_convolve2d(in2, _reversed_conjugate(in1), mode, boundary, fillvalue,
                                                  "correlate2d")[::-1, ::-1])
    flipped = _reversed_conjugate(in2) if in2.ndim == 2 else in2
    if mode != "same":
        return _convolve2d(in1, flipped, mode, boundary, fillvalue, "correlate2d")
    # SciPy centres a 'same' correlation on the kernel's other middle (they
    # differ for even sides): from the full result, start at s2 - 1 - (s2 - 1) // 2.
    full = _convolve2d(in1, flipped, "full", boundary, fillvalue, "correlate2d")
    return kiln.ascontiguousarray(full[tuple(slice(s2 - 1 - (s2 - 1) // 2, s2 - 1 - (s2 - 1) // 2 + s1)
                                             for s1, s2 in zip(in1.shape, in2.shape))])
