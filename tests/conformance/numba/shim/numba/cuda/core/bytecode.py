"""Numba's bytecode classes, which test_flow_control.py imports at its top
(see controlflow.py): names only; using one raises."""
from .controlflow import _NumbaInternal


class FunctionIdentity(_NumbaInternal):
    pass


class ByteCode(_NumbaInternal):
    pass


def _fix_LOAD_GLOBAL_arg(arg):  # noqa: N802  (Numba's name)
    raise NotImplementedError("Numba's bytecode helper; kiln has no Numba IR")
