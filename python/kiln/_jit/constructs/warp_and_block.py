"""Barriers, fences, warp shuffles and votes, and ``cuda.fma``."""
import numpy as np

from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast, fn
from .base import Construct

_STATEMENTS = {"syncthreads": "__syncthreads()", "syncwarp": "__syncwarp()", "threadfence": "__threadfence()",
               "threadfence_block": "__threadfence_block()", "threadfence_system": "__threadfence_system()"}
_BLOCK_VOTES = {"syncthreads_count": "__syncthreads_count", "syncthreads_and": "__syncthreads_and",
                "syncthreads_or": "__syncthreads_or"}
_SHUFFLES = {"shfl_sync": "__shfl_sync", "shfl_up_sync": "__shfl_up_sync", "shfl_down_sync": "__shfl_down_sync",
             "shfl_xor_sync": "__shfl_xor_sync"}
_WARP_VOTES = {"all_sync": "__all_sync", "any_sync": "__any_sync", "ballot_sync": "__ballot_sync",
               "eq_sync": None}


class Statement(Construct):
    """A barrier or fence: a call with no value (``cuda.syncwarp(mask)`` takes a mask)."""

    def __init__(self, code):
        self.code = code

    def type(self, typer, node):
        typer.args(node, 1 if node.args and self.code == "__syncwarp()" else 0)
        return None

    def emit(self, emitter, node):
        if node.args:
            return f"__syncwarp((unsigned)({emitter.expr(node.args[0])}))"
        return self.code


class BlockVote(Construct):
    """``cuda.syncthreads_count(p)`` and friends: a barrier that also counts or tests."""

    def __init__(self, function):
        self.function = function

    def type(self, typer, node):
        typer.args(node, 1)
        return T.INT32

    def emit(self, emitter, node):
        (predicate, _), = emitter.args(node)
        return f"{self.function}((int)({predicate}))"


class Shuffle(Construct):
    """``cuda.shfl_*_sync(mask, value, lane or delta)``: the value's type."""

    def __init__(self, function):
        self.function = function

    def type(self, typer, node):
        return typer.args(node, 3)[1]

    def emit(self, emitter, node):
        (mask, _), (value, _), (lane, _) = emitter.args(node)
        return f"{self.function}((unsigned)({mask}), {value}, (int)({lane}))"


class WarpVote(Construct):
    """``cuda.all_sync(mask, p)``, ``any_sync``, ``ballot_sync`` (a uint32 of lanes)."""

    def __init__(self, name):
        self.name = name

    def type(self, typer, node):
        mask, predicate = typer.args(node, 2)
        if not T.is_int(mask):  # Numba's rules and words
            typer.typing(node, f"cuda.{self.name}: Mask type must be an integer, not {mask}")
        if not (T.is_int(predicate) or predicate.kind == "b"):
            typer.typing(node, f"cuda.{self.name}: Predicate must be an integer or boolean, not {predicate}")
        return np.dtype("uint32") if self.name == "ballot_sync" else T.INT32

    def emit(self, emitter, node):
        (mask, _), (predicate, _) = emitter.args(node)
        if self.name == "eq_sync":  # every lane's predicate the same: all true or all false
            p = f"(int)({predicate})"
            return f"(__all_sync((unsigned)({mask}), {p}) || !__any_sync((unsigned)({mask}), {p}))"
        return f"{_WARP_VOTES[self.name]}((unsigned)({mask}), (int)({predicate}))"


class ActiveMask(Construct):
    """``cuda.activemask()``: the lanes of the warp running this call; ``cuda.lanemask_lt()``: the lanes below this one."""

    def __init__(self, code):
        self.code = code

    def type(self, typer, node):
        typer.args(node, 0)
        return np.dtype("uint32")

    def emit(self, emitter, node):
        return self.code


class Match(Construct):
    """``cuda.match_any_sync(mask, value)``: the lanes holding the same value;
    ``cuda.match_all_sync(mask, value)``: (the mask if all lanes hold it, else 0, whether they do)."""

    def __init__(self, every):
        self.every = every

    def type(self, typer, node):
        typer.args(node, 2)
        return T.TupleType([np.dtype("uint32"), T.BOOL]) if self.every else np.dtype("uint32")

    def emit(self, emitter, node):
        (mask, _), (value, _) = emitter.args(node)
        if self.every:
            return f"kiln_match_all((unsigned)({mask}), {value})"
        return f"__match_any_sync((unsigned)({mask}), {value})"


class FusedMultiplyAdd(Construct):
    """``cuda.fma(a, b, c)``: a * b + c rounded once."""

    def type(self, typer, node):
        ta, tb, tc = typer.args(node, 3)
        return T.promote(T.promote(ta, tb), tc)

    def emit(self, emitter, node):
        r = emitter.type_of(node)
        return f"{fn('fma', r)}({', '.join(cast(r, c) for c, _ in emitter.args(node))})"


def constructs():
    table = {getattr(K, name): Statement(code) for name, code in _STATEMENTS.items()}
    table.update({getattr(K, name): BlockVote(f) for name, f in _BLOCK_VOTES.items()})
    table.update({getattr(K, name): Shuffle(f) for name, f in _SHUFFLES.items()})
    table.update({getattr(K, name): WarpVote(name) for name in _WARP_VOTES})
    table[K.fma] = FusedMultiplyAdd()
    table[K.activemask] = ActiveMask("__activemask()")
    table[K.lanemask_lt] = ActiveMask("kiln_lanemask_lt()")
    table[K.match_any_sync] = Match(every=False)
    table[K.match_all_sync] = Match(every=True)
    return table
