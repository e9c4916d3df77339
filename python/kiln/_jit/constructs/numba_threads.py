"""Numba's threading API in @njit functions on the CPU (set_num_threads,
get_num_threads, get_thread_id, set_parallel_chunksize,
get_parallel_chunksize, and ``with parallel_chunksize(n):``): OpenMP's
settings of the running thread, the same that kiln.numba's functions of
these names set from Python (_numba_cuda/numba_threads.py,
include/kiln/device/jit_numba_threads.cuh). Inside a prange loop's body the
chunk size reads 0, as Numba resets it for the loop's threads. A CUDA
kernel has none of them, as in Numba."""
import ast

from ..._numba_cuda import numba_threads as api
from .. import types as T
from .base import Construct

HEADER = "kiln/device/jit_numba_threads.cuh"


def _host_only(typer, node, name):
    if not typer.module.host_entry:
        typer.unsupported(node, f"{name}() in a CUDA kernel (Numba's threading API is its CPU compiler's)")
    typer.module.includes.add(HEADER)


def _integer_argument(typer, node, name, what):
    if len(node.args) != 1 or node.keywords:
        typer.typing(node, f"{name}() takes one argument")
    argument = node.args[0]
    if isinstance(argument, ast.Constant) and not isinstance(argument.value, int):  # a string compiled code has not
        typer.typing(node, f"{what} must be an integer, got {argument.value!r}")
    if not T.is_int(typer.expr(argument)):
        typer.typing(node, f"{what} must be an integer, got {typer.expr(argument)}")


class Getter(Construct):
    def __init__(self, name, code):
        self.name, self.code = name, code

    def type(self, typer, node):
        if node.args or node.keywords:
            typer.typing(node, f"{self.name}() takes no arguments")
        _host_only(typer, node, self.name)
        return T.INT64

    def emit(self, emitter, node):
        return self.code


class GetChunksize(Getter):
    def emit(self, emitter, node):
        return "0LL" if emitter.in_openmp_loop() else self.code


class Setter(Construct):
    """A call taking one integer (`what` it is, in Numba's words), giving `result`."""

    def __init__(self, name, what, result):
        self.name, self.what, self.result = name, what, result

    def type(self, typer, node):
        _integer_argument(typer, node, self.name, self.what)
        _host_only(typer, node, self.name)
        return self.result


class SetNumThreads(Setter):
    def checks(self, emitter, node):
        n, limit = emitter.expr(node.args[0]), api._limit()
        return [(f"({n}) < 1 || ({n}) > {limit}", ValueError, f"The number of threads must be between 1 and {limit}")]

    def emit(self, emitter, node):
        return f"omp_set_num_threads((int)({emitter.expr(node.args[0])}))"


class SetChunksize(Setter):
    def checks(self, emitter, node):
        return [(f"({emitter.expr(node.args[0])}) < 0", ValueError,
                 "chunksize must be greater than or equal to zero")]

    def emit(self, emitter, node):
        return f"kiln_numba_set_chunksize((long long)({emitter.expr(node.args[0])}))"


class ChunksizeBlock(SetChunksize):
    """``with parallel_chunksize(n):``, the one context manager compiled code takes."""

    def enter(self, emitter, node, name):
        """The C++ declaration whose life is the with block's."""
        return f"kiln_numba_chunksize_scope {name}((long long)({emitter.expr(node.args[0])}));"


def constructs():
    return {
        api.get_num_threads: Getter("get_num_threads", "(long long)omp_get_max_threads()"),
        api.get_thread_id: Getter("get_thread_id", "(long long)omp_get_thread_num()"),
        api.get_parallel_chunksize: GetChunksize("get_parallel_chunksize", "kiln_numba_chunksize()"),
        api.set_num_threads: SetNumThreads("set_num_threads", "The number of threads", None),
        api.set_parallel_chunksize: SetChunksize("set_parallel_chunksize", "The parallel chunksize", T.INT64),
        api.parallel_chunksize: ChunksizeBlock("parallel_chunksize", "The parallel chunksize", None),
    }
