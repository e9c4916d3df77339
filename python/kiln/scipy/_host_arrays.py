"""kiln arrays to SciPy on the host and back, for the parts of kiln.scipy
that leave small, coefficient-sized work to SciPy (signal's filter
design, interpolate's fitting)."""
import kiln


def to_host(value):
    """kiln arrays (in lists, tuples and dicts too) as NumPy arrays."""
    if isinstance(value, kiln.ndarray):
        return kiln.asnumpy(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_host(v) for v in value)
    if isinstance(value, dict):
        return {k: to_host(v) for k, v in value.items()}
    return value


def to_kiln(value, device):
    """NumPy arrays (and scalars, and tuples of them) as kiln arrays on `device`."""
    import numpy

    if isinstance(value, (numpy.ndarray, numpy.generic)):
        return kiln.asarray(value, device=device)
    if isinstance(value, tuple):
        return tuple(to_kiln(v, device) for v in value)
    return value


def device_of(value):
    """The device of the first kiln array in `value` (lists and tuples
    searched), else the default device."""
    found = _first_device(value)
    return kiln.default_device() if found is None else found


def on_one_device(values):
    """`values` (kiln arrays, NumPy arrays, lists, scalars) as kiln arrays,
    all on the device of the first kiln array among them."""
    device = device_of(values)
    return [kiln.asarray(v, device=device) for v in values]


def _first_device(value):
    if isinstance(value, kiln.ndarray):
        return value.device
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _first_device(v)
            if found is not None:
                return found
    return None
