"""PyCUDA's ``import pycuda.autoinit``: makes the current GPU's context current
(kiln does that on first use anyway) and names it ``device`` and ``context``.
Without a GPU, ``device`` is None and kernels run on the CPU."""
from . import cuda, driver

if cuda.is_available():
    device = driver.Device(cuda.get_device_id())
    context = device.make_context()
else:
    device = None
    context = driver.Context()
