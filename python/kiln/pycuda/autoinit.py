"""PyCUDA's ``import pycuda.autoinit``: makes the current GPU's context current
(kiln does that on first use anyway) and names it ``device`` and ``context``.
Without a GPU, ``device`` is the host (driver.Device(0)) and kernels run on the CPU."""
from .. import cuda
from . import driver

device = driver.Device(cuda.get_device_id() if cuda.is_available() else 0)
context = device.make_context()
