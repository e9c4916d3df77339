"""``numba.cuda.cudadrv.devicearray``'s names, mapped to kiln's: device
arrays are kiln arrays, made like another with device_array_like."""
from kiln import ndarray as DeviceNDArray  # noqa: F401
from kiln.cuda import device_array_like as from_array_like  # noqa: F401
