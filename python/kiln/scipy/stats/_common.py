"""What the statistics share: SciPy's result types and its argument checks."""
import numpy as np

import kiln


def floating(*arrays):
    """The arrays as kiln arrays of SciPy's result type for them: their
    common type, made floating (integers and booleans give float64)."""
    arrays = [kiln.asarray(a) for a in arrays]
    dtype = np.result_type(*[np.dtype(a.dtype) for a in arrays])
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    return [a.astype(dtype, copy=False) for a in arrays]


def along(a, axis):
    """`a` and the axis to reduce: None ravels, as SciPy's statistics do."""
    return (a.reshape(-1), 0) if axis is None else (a, axis)


def check_nan_policy(nan_policy, *arrays):
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"nan_policy must be 'propagate', 'omit' or 'raise', not {nan_policy!r}")
    if nan_policy == "raise" and any(bool(kiln.isnan(a).any()) for a in arrays if a.dtype.kind in "fc"):
        raise ValueError("The input contains nan values")
    return nan_policy == "omit"
