"""Numba's kernel language, one construct a unit: what each call or name a
kernel may use means, as a typing rule (used by infer.py) and a C++ rule
(used by emit.py) side by side, so adding a construct touches one file.

Constructs are found by the Python object a kernel's expression names
(``cuda.syncthreads``, ``math.sqrt``, ``abs``, ``np.float32``), not by its
spelling, so ``from kiln.cuda import syncthreads`` works as ``cuda.syncthreads``.
"""
import numpy as np

from ..._numba_cuda import bf16
from ..._numba_cuda import types as numba_types

from . import (array_methods, array_reductions, atomics, bfloat16, bit_operations, builtins_, complex_functions,
               cooperative_groups, extern_functions, half_precision, heap_arrays, math_functions, numba_threads,
               numpy_ufuncs, operator_functions, pointer_arrays, random_numbers, thread_indexing, vectors,
               warp_and_block)


_TABLE = {}
# numpy_ufuncs after math_functions: np.sqrt is NumPy's ufunc (its types), math.sqrt Python's.
for _family in (atomics, bfloat16, bit_operations, builtins_, complex_functions, cooperative_groups, half_precision,
                math_functions, numpy_ufuncs, array_reductions, heap_arrays, numba_threads, operator_functions,
                pointer_arrays, random_numbers, thread_indexing, vectors, warp_and_block):
    _TABLE.update(_family.constructs())


_METHODS = {**array_methods.METHODS, **cooperative_groups.METHODS, **heap_arrays.METHODS}


def for_method(owner_type, name):
    """The construct of the method `name` of a value of `owner_type`, or None."""
    return _METHODS.get((type(owner_type), name))


def for_value(value):
    """The construct `value` (what an expression names) stands for, or None."""
    try:
        found = _TABLE.get(value)
    except TypeError:  # unhashable
        return None
    if found is not None:
        return found
    if (isinstance(value, type) and issubclass(value, np.generic)) or isinstance(value, numba_types.Number) or \
            value is bf16.bfloat16:
        return builtins_.CAST
    if getattr(value, "_kiln_device_function", None) is not None or hasattr(value, "_kiln_jitable"):
        return builtins_.DEVICE_CALL  # a @cuda.jit function called in a kernel runs as a device function, as in Numba
    if getattr(value, "_kiln_extern_function", False):
        return extern_functions.EXTERN_CALL
    return None
