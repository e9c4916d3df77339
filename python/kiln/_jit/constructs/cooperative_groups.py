"""Cooperative groups: ``cuda.cg.this_grid()`` and its ``sync()``, a barrier
across the whole grid (include/kiln/device/grid_sync.cuh). A kernel that
takes the grid group is cooperative, as in Numba: its module carries
kiln's cooperative marker, and both backends then launch it with all its
blocks running at once."""
from ..._numba_cuda import kernel_language as K
from .. import types as T
from .base import Construct

HEADER = "kiln/device/grid_sync.cuh"


class ThisGrid(Construct):
    """``cuda.cg.this_grid()``: the grid group."""

    def type(self, typer, node):
        typer.args(node, 0)
        typer.module.includes.add(HEADER)
        typer.module.cooperative = True
        return T.GRID_GROUP

    def emit(self, emitter, node):
        return "kiln_grid_group{}"


class GridSync(Construct):
    """``g.sync()`` of a grid group: every thread of the grid waits for all."""

    def type(self, typer, node):
        typer.args(node, 0)
        return None

    def emit(self, emitter, node):
        return "kiln_grid_sync()"


def constructs():
    return {K.cg.this_grid: ThisGrid()}


# By (the class of the owner's type, the method's name): found by
# constructs.for_method for ``g.sync()``.
METHODS = {(T.GridGroupType, "sync"): GridSync()}
