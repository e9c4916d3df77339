"""CuPy's ``cupyx.allow_synchronize``: a debugging aid that makes every wait
for a GPU inside the block (a copy to the host, an explicit synchronize)
raise ``kiln.DeviceSynchronized``, so code meant only to queue work finds
where it waits. The check is in kiln's CUDA layer, per thread. Without a GPU
nothing waits for one, so the block changes nothing."""
import contextlib

from .. import _core
from .._core import DeviceSynchronized  # noqa: F401  (a CUDAError)


@contextlib.contextmanager
def allow_synchronize(allow):
    setter = getattr(_core, "_set_synchronize_allowed", None)
    if setter is None:  # kiln built without CUDA: there is no GPU to wait for
        yield
        return
    previous = _core._synchronize_allowed()
    setter(bool(allow))
    try:
        yield
    finally:
        setter(previous)
