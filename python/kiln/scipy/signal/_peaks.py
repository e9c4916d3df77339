"""Finding peaks in 1-d signals and measuring them (scipy.signal's
argrelextrema, argrelmax, argrelmin, find_peaks, peak_prominences,
peak_widths).

Local maxima, plateaus, heights and thresholds are array operations on the
signal's device (a peak is where the next non-zero step after a rise is a
fall); prominences and widths walk outwards from each peak, a thread a peak
(include/kiln/device/peak_finding.cuh). Only the distance rule, greedy by
height over the (few) peaks, runs on the host, as SciPy's does."""
import math
import warnings

import numpy as np

import kiln

from ..._cupy_kernels.raw import header_kernels, launch_size


def _kernels():
    return header_kernels("peak_finding.cuh", ("kiln_peak_prominences", "kiln_peak_widths"))


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """Indices (a tuple, as nonzero) of the elements of `data` for which
    comparator(x, neighbour) holds for every neighbour up to `order` away
    along `axis`; 'clip' repeats the end values, 'wrap' wraps around."""
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"mode must be 'clip' or 'wrap', not {mode!r}")
    data = kiln.asarray(data)
    n = data.shape[axis]
    locs = kiln.arange(n, device=data.device)
    keep = kiln.ones(data.shape, dtype=bool, device=data.device)
    for shift in range(1, int(order) + 1):
        for step in (shift, -shift):
            neighbours = locs + step
            neighbours = kiln.clip(neighbours, 0, n - 1) if mode == "clip" else neighbours % n
            keep &= comparator(data, kiln.take(data, neighbours, axis=axis))
            if not bool(keep.any()):
                return kiln.nonzero(keep)
    return kiln.nonzero(keep)


def argrelmax(data, axis=0, order=1, mode="clip"):
    """Indices of the relative maxima of `data` along `axis`."""
    return argrelextrema(data, kiln.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    """Indices of the relative minima of `data` along `axis`."""
    return argrelextrema(data, kiln.less, axis, order, mode)


def _signal(x):
    x = kiln.asarray(x)
    if x.ndim != 1:
        raise ValueError(f"`x` must be a 1-D array, not {x.ndim}-D")
    return x.astype(kiln.float64)


def _peak_indices(peaks, x):
    peaks = kiln.asarray(peaks, device=x.device)
    if peaks.size == 0:
        peaks = peaks.astype(kiln.int64)
    if peaks.ndim != 1 or peaks.dtype.kind not in "iu":
        raise ValueError("`peaks` must be a 1-D array of integers")
    peaks = peaks.astype(kiln.int64)
    if peaks.size:
        outside = peaks[(peaks < 0) | (peaks >= x.size)]
        if outside.size:
            raise ValueError(f"peak {int(outside[0])} is not a valid index for `x`")
    return peaks


def _window(wlen):
    if wlen is None:
        return -1
    if wlen > 1:
        return math.ceil(wlen) // 2
    raise ValueError(f"`wlen` must be larger than 1, was {wlen}")


def _prominences(x, peaks, half_window):
    count = peaks.size
    prominence = kiln.empty(count, dtype=kiln.float64, device=x.device)
    left, right = (kiln.empty(count, dtype=kiln.int64, device=x.device) for _ in range(2))
    if count:
        _kernels()[0](*launch_size(count, threads=128, max_blocks=None),
                      (x, np.int64(x.size), peaks, np.int64(count), np.int64(half_window), prominence, left, right))
        if bool((prominence == 0).any()):
            warnings.warn("some peaks have a prominence of 0", RuntimeWarning, stacklevel=3)
    return prominence, left, right


def peak_prominences(x, peaks, wlen=None):
    """How far each peak stands out: its height above the higher of the
    lowest points reached walking left and right until the signal rises
    above it (within `wlen` samples centred on it); returns (prominences,
    left_bases, right_bases)."""
    x = _signal(x)
    return _prominences(x, _peak_indices(peaks, x), _window(wlen))


def _widths(x, peaks, rel_height, prominence, left, right):
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    count = peaks.size
    out = [kiln.empty(count, dtype=kiln.float64, device=x.device) for _ in range(4)]
    if count:
        _kernels()[1](*launch_size(count, threads=128, max_blocks=None),
                      (x, peaks, np.int64(count), np.float64(rel_height), prominence, left, right, *out))
        if bool((out[0] == 0).any()):
            warnings.warn("some peaks have a width of 0", RuntimeWarning, stacklevel=3)
    return tuple(out)


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Each peak's width at rel_height of its prominence below the top:
    (widths, width_heights, left_ips, right_ips), the crossings
    interpolated between samples."""
    x = _signal(x)
    peaks = _peak_indices(peaks, x)
    if prominence_data is None:
        prominence, left, right = _prominences(x, peaks, _window(wlen))
    else:
        prominence, left, right = (kiln.asarray(a, device=x.device) for a in prominence_data)
        prominence, left, right = prominence.astype(kiln.float64), left.astype(kiln.int64), right.astype(kiln.int64)
        if not (prominence.shape == left.shape == right.shape == peaks.shape):
            raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
        # each base inside x and at or beyond its peak, as the walks would leave them
        if peaks.size and bool(((left < 0) | (left > peaks) | (right >= x.size) | (right < peaks)).any()):
            raise ValueError("prominence data is invalid: a base lies outside x or on the wrong side of its peak")
    return _widths(x, peaks, rel_height, prominence, left, right)


def _local_maxima(x):
    """Peaks (the middle of a flat top, rounded down) and the first and
    last sample of each top: a non-zero step up followed, after any flat
    run, by a non-zero step down."""
    steps = x[1:] - x[:-1]
    moving = kiln.flatnonzero(steps != 0)
    signs = kiln.sign(steps[moving])
    turns = kiln.flatnonzero((signs[:-1] > 0) & (signs[1:] < 0))
    left = moving[turns] + 1
    right = moving[turns + 1]
    return (left + right) // 2, left, right


def _bounds(interval, x, peaks):
    """The (min, max) of a condition, arrays given per sample taken at the peaks."""
    try:
        low, high = interval
    except (TypeError, ValueError):
        low, high = interval, None

    def at_peaks(bound, name):
        if bound is None or np.ndim(bound) == 0 and not isinstance(bound, kiln.ndarray):
            return bound
        bound = kiln.asarray(bound, device=x.device)
        if bound.size != x.size:
            raise ValueError(f"array size of {name} interval border must match x")
        return bound[peaks]

    return at_peaks(low, "lower"), at_peaks(high, "upper")


def _within(values, low, high):
    keep = kiln.ones(values.shape, dtype=bool, device=values.device)
    if low is not None:
        keep &= low <= values
    if high is not None:
        keep &= values <= high
    return keep


def _by_distance(peaks, heights, distance):
    """SciPy's rule: from the highest peak down, each kept peak removes
    the lower ones closer than `distance` (host, over the peaks only)."""
    peaks, heights = kiln.asnumpy(peaks), kiln.asnumpy(heights)
    distance = math.ceil(distance)
    keep = np.ones(peaks.size, dtype=bool)
    for j in np.argsort(heights)[::-1]:
        if not keep[j]:
            continue
        k = j - 1
        while k >= 0 and peaks[j] - peaks[k] < distance:
            keep[k] = False
            k -= 1
        k = j + 1
        while k < peaks.size and peaks[k] - peaks[j] < distance:
            keep[k] = False
            k += 1
    return keep


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None,
               rel_height=0.5, plateau_size=None):
    """The local maxima of a 1-d signal that meet the given conditions
    (each a minimum, or a (min, max) pair, numbers or per-sample arrays),
    and the properties computed on the way."""
    x = _signal(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left_edges, right_edges = _local_maxima(x)
    properties = {}

    def select(keep):
        nonlocal peaks, properties
        keep = kiln.asarray(keep, device=x.device)
        peaks = peaks[keep]
        properties = {key: value[keep] for key, value in properties.items()}

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        properties.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        select(_within(sizes, *_bounds(plateau_size, x, peaks)))
    if height is not None:
        heights = x[peaks]
        properties["peak_heights"] = heights
        select(_within(heights, *_bounds(height, x, peaks)))
    if threshold is not None:
        low, high = _bounds(threshold, x, peaks)
        left_t, right_t = x[peaks] - x[peaks - 1], x[peaks] - x[peaks + 1]
        keep = kiln.ones(peaks.shape, dtype=bool, device=x.device)
        if low is not None:
            keep &= low <= kiln.minimum(left_t, right_t)
        if high is not None:
            keep &= kiln.maximum(left_t, right_t) <= high
        properties.update(left_thresholds=left_t, right_thresholds=right_t)
        select(keep)
    if distance is not None:
        select(_by_distance(peaks, x[peaks], distance))
    if prominence is not None or width is not None:
        properties.update(zip(["prominences", "left_bases", "right_bases"],
                              _prominences(x, peaks, _window(wlen))))
    if prominence is not None:
        select(_within(properties["prominences"], *_bounds(prominence, x, peaks)))
    if width is not None:
        properties.update(zip(["widths", "width_heights", "left_ips", "right_ips"],
                              _widths(x, peaks, rel_height, properties["prominences"], properties["left_bases"],
                                      properties["right_bases"])))
        select(_within(properties["widths"], *_bounds(width, x, peaks)))
    return peaks, properties
