"""CUDA's bit intrinsics as Numba spells them: ``cuda.popc``, ``cuda.brev``,
``cuda.clz``, ``cuda.ffs`` (each over the argument's own width), ``cuda.selp``
(a select of two values by a predicate), and Python's ``int.bit_count()``."""
import numpy as np

from ..._numba_cuda import kernel_language as K
from .. import types as T
from ..cxx import cast
from .base import Construct, NeverNegative


def _unsigned(ty, code):
    """`code` as the unsigned integer of its own width, zero-extended to 32 or 64 bits."""
    width = ty.itemsize * 8
    word = "unsigned long long" if width == 64 else "unsigned int"
    narrow = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}[width]
    return f"(({word})({narrow})({code}))", width


class BitCount(NeverNegative):
    """``cuda.popc(x)`` and ``x.bit_count()`` (of |x|, as Python's)."""

    def __init__(self, of_magnitude=False):
        self.of_magnitude = of_magnitude

    def _argument(self, node):
        return node.func.value if self.of_magnitude else node.args[0]

    def type(self, typer, node):
        ty = typer.expr(self._argument(node))
        if not T.is_int(ty):
            typer.typing(node, f"counting bits needs an integer, not {ty}")
        return T.INT64 if self.of_magnitude else ty

    def emit(self, emitter, node):
        argument = self._argument(node)
        ty, code = emitter.type_of(argument), emitter.expr(argument)
        if self.of_magnitude and ty.kind == "i":
            code = f"(({code}) < 0 ? -({code}) : ({code}))"
        word, width = _unsigned(ty, code)
        return f"(({T.c_name(emitter.type_of(node))})" + (f"__popcll({word}))" if width == 64 else f"__popc({word}))")


class BitIntrinsic(Construct):
    """``cuda.brev``, ``cuda.clz``, ``cuda.ffs``: of the argument's own width."""

    def __init__(self, name):
        self.name = name

    def type(self, typer, node):
        ty, = typer.args(node, 1)
        if not T.is_int(ty):
            typer.typing(node, f"cuda.{self.name} needs an integer, not {ty}")
        if self.name == "brev" and ty.itemsize not in (4, 8):
            typer.typing(node, f"cuda.brev takes 32- or 64-bit integers, not {ty}")
        return np.dtype("uint32") if self.name == "ffs" else ty

    def emit(self, emitter, node):
        (code, ty), = emitter.args(node)
        word, width = _unsigned(ty, code)
        long = "ll" if width == 64 else ""
        r = T.c_name(emitter.type_of(node))
        if self.name == "brev":
            return f"(({r})__brev{long}({word}))"
        if self.name == "ffs":
            return f"(({r})__ffs{long}((long long){word}))"
        # leading zeros within the type's own width
        return f"(({r})(__clz{long}((long long){word}) - {(64 if width == 64 else 32) - width}))"


class Select(Construct):
    """``cuda.selp(predicate, a, b)``: a where the predicate holds, else b."""

    def type(self, typer, node):
        _, ta, tb = typer.args(node, 3)
        return ta if ta == tb else T.promote(ta, tb)

    def emit(self, emitter, node):
        (p, _), (a, _), (b, _) = emitter.args(node)
        r = emitter.type_of(node)
        return f"((bool)({p}) ? {cast(r, a)} : {cast(r, b)})"


def _scalar_methods():
    from .builtins_ import Conjugate

    return {"bit_count": BitCount(of_magnitude=True), "conjugate": Conjugate()}


SCALAR_METHODS = _scalar_methods()


def constructs():
    return {K.popc: BitCount(), K.brev: BitIntrinsic("brev"), K.clz: BitIntrinsic("clz"),
            K.ffs: BitIntrinsic("ffs"), K.selp: Select()}
