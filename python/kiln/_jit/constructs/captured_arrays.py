"""Arrays a kernel names from its enclosing scope, as Numba's kernels may:
a NumPy array is frozen into the kernel as constant data when it is
compiled; a device array (a kiln array, or any object with
``__cuda_array_interface__``) is captured by reference, its address and
layout compiled in, so writes through it reach the array. Either is fixed
when the kernel is compiled, as in Numba: a kernel captures the array its
name held then."""
import numpy as np

from ..._core import ndarray
from ..._ndarray.cuda_array_interface import exported
from .. import types as T

_CONSTANT_BYTES = 64 << 10  # a GPU's constant memory


def captured(value):
    """(ArrayType, kind) of a value a kernel may capture, kind "constant" or
    "device"; None for anything else."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return T.ArrayType(value.dtype, value.ndim), "constant"
    if isinstance(value, ndarray):
        return T.ArrayType(np.dtype(value.dtype.name), value.ndim), "device"
    interface = exported(value)
    if interface is not None:
        return T.ArrayType(np.dtype(interface["typestr"]), len(interface["shape"])), "device"
    return None


def device_of(value):
    """The device a captured device array is on ("cpu" or "cuda:N")."""
    if isinstance(value, ndarray):
        return "cpu" if value.device.type == "cpu" else f"cuda:{value.device.index}"
    from ..._cuda.device import host_mode

    return "cpu" if host_mode() else "cuda"  # __cuda_array_interface__ is a GPU's, or the host's without one


def _c_strides(shape, itemsize):
    return [itemsize * int(np.prod(shape[k + 1:])) for k in range(len(shape))]


def view_code(emitter, node, value):
    """The kiln_view C++ of a captured array."""
    ty, kind = captured(value)
    c = T.c_name(ty.dtype)
    if kind == "constant":
        if value.nbytes > _CONSTANT_BYTES:
            emitter.typed.unsupported(node, f"capturing a NumPy array of {value.nbytes} bytes (constant data holds "
                                            f"{_CONSTANT_BYTES}): copy it to the device and pass it as an argument")
        data = emitter.module.constant_array(ty.dtype, value)
        shape, strides = value.shape, _c_strides(value.shape, value.itemsize)
    else:
        emitter.module.captured.append(value)
        if isinstance(value, ndarray):
            address, shape, strides = value.data.ptr, value.shape, value.strides
        else:
            interface = value.__cuda_array_interface__
            address, shape = interface["data"][0], tuple(interface["shape"])
            strides = interface.get("strides") or _c_strides(shape, ty.dtype.itemsize)
        data = f"reinterpret_cast<{c}*>({int(address)}ULL)"
    if ty.ndim == 0:
        return f"kiln_view<{c}, 0>{{{data}}}"
    return (f"kiln_view<{c}, {ty.ndim}>{{{data}, {{{', '.join(f'{int(s)}LL' for s in shape)}}}, "
            f"{{{', '.join(f'{int(s)}LL' for s in strides)}}}}}")
