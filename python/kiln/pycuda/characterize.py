"""PyCUDA's ``pycuda.characterize``: what the current device's kernels can use."""
import sys

import numpy as np

from . import driver
from .._ndarray.device import default_device


def platform_bits():
    return 64 if sys.maxsize > 2 ** 32 else 32


def has_double_support():
    """Whether kernels can use double precision: every device kiln runs on can."""
    return default_device().type == "cpu" or driver.Context.get_device().compute_capability() >= (1, 3)


def has_stack():
    return default_device().type == "cpu" or driver.Context.get_device().compute_capability() >= (2, 0)


def sizeof(type_name, preamble=""):
    """sizeof(type_name) as a kernel sees it, measured by a kernel on the current device."""
    from .compiler import SourceModule
    from .gpuarray import empty

    module = SourceModule(f"#include <kiln/device/kernel_params.cuh>\n{preamble}\n"
                          f"KILN_GENERATED_KERNEL write_size(size_t* output) {{ *output = sizeof({type_name}); }}",
                          no_extern_c=True)
    output = empty((), dtype=np.uintp)
    module.get_function("write_size")(output, block=(1, 1, 1), grid=(1, 1))
    return int(output.get())
