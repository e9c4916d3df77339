"""Random numbers in ``@njit`` functions, as Numba has them: NumPy's legacy
functions (``np.random.seed``, ``random``, ``rand``, ``randn``, ``uniform``,
``normal``, ``standard_normal``, ``randint``; a number, or with a size an
array of them) and Python's ``random`` module (``random.seed``, ``random``,
``uniform``, ``gauss``, ``randint``, ``randrange``), each a Mersenne Twister
of its own per thread (include/kiln/device/jit_random.cuh). Seeded inside a
compiled function they draw what NumPy's legacy RandomState or CPython's
random module would draw after the same seed; a compiled function's
generators are not Python's, as in Numba."""
import random

import numpy as np

from .. import types as T
from . import heap_arrays
from .base import Construct

HEADER = "kiln/device/jit_random.cuh"


def _uses(typer, node):
    if not typer.module.host_entry:
        typer.unsupported(node, "random numbers in a CUDA kernel (kiln.random, or numba.cuda.random's "
                                "xoroshiro128p, on a GPU)")
    typer.module.includes.add(HEADER)


class Seed(Construct):
    def __init__(self, c_function):
        self.c_function = c_function

    def type(self, typer, node):
        if len(node.args) != 1 or not T.is_int(typer.expr(node.args[0])):
            typer.typing(node, "seed() takes one integer in a compiled function")
        _uses(typer, node)
        return None

    def emit(self, emitter, node):
        return f"{self.c_function}((long long)({emitter.expr(node.args[0])}))"


class Draw(Construct):
    """A float64 draw: `code` is its C++, a format of the arguments' codes
    (after `defaults` fills the missing ones); `size_at`, where the function has
    NumPy's size=, is its position (an array of draws, each by `code`);
    `dims` says the arguments are an array's extents (np.random.rand)."""

    def __init__(self, names, defaults, code, size_at=None, dims=False, result=T.FLOAT64, stop_alone=False):
        self.names, self.defaults, self.code = names, defaults, code
        self.size_at, self.dims, self.result = size_at, dims, result
        self.stop_alone = stop_alone  # randint(high), randrange(stop): one argument is the range's end

    def _values(self, node):
        """The argument nodes by position (keywords placed), and the size node."""
        given = list(node.args)
        size = None
        if self.size_at is not None and len(given) > self.size_at:
            size = given.pop(self.size_at)
        values = given + [None] * (len(self.names) - len(given))
        for k in node.keywords:
            if k.arg == "size" and self.size_at is not None:
                size = k.value
            elif k.arg in self.names:
                values[self.names.index(k.arg)] = k.value
        return values[:len(self.names)], size

    def type(self, typer, node):
        _uses(typer, node)
        if self.dims:
            for a in node.args:
                if not T.is_int(typer.expr(a)):
                    typer.typing(node, "the extents of the random array are integers")
            if not node.args:
                return self.result
            heap_arrays.made(typer, node, (ValueError, "negative dimensions are not allowed"))
            return T.ArrayType(self.result, len(node.args))
        values, size = self._values(node)
        if len(node.args) > len(self.names) + (self.size_at is not None):
            typer.typing(node, f"takes at most {len(self.names)} numbers")
        for v, name in zip(values, self.names):
            if v is None and self.defaults.get(name) is None and not (self.stop_alone and values[0] is not None):
                typer.typing(node, f"needs its argument {name!r}")
            if v is not None:
                typer.scalars(node, typer.expr(v))
        if size is None:
            return self.result
        heap_arrays.made(typer, node, (ValueError, "negative dimensions are not allowed"))
        return T.ArrayType(self.result, heap_arrays.shape_ndim(typer, size))

    def emit(self, emitter, node):
        c = T.c_name(emitter.type_of(node).dtype if isinstance(emitter.type_of(node), T.ArrayType) else self.result)
        if self.dims:
            draw = self.code
            if not node.args:
                return draw
            shape = [f"(long long)({emitter.expr(a)})" for a in node.args]
        else:
            values, size = self._values(node)
            if self.stop_alone and values[1] is None:
                values = [None, values[0]]
            codes = [f"({emitter.expr(v)})" if v is not None else self.defaults.get(name) or "0"
                     for v, name in zip(values, self.names)]
            draw = self.code.format(*codes)
            if size is None:
                return draw
            shape = heap_arrays.shape_codes(emitter, size)
        made = f"kiln_heap_array<{c}, {len(shape)}>({{{', '.join(shape)}}}, {heap_arrays.record(emitter, node)})"
        # a host compiler's lambda: random arrays are made by host entries only
        return f"kiln_filled_by({made}, [&]() {{ return ({c})({draw}); }})"


def constructs():
    numpy_random = np.random
    return {
        numpy_random.seed: Seed("kiln_numpy_seed"),
        random.seed: Seed("kiln_python_seed"),
        numpy_random.random: Draw([], {}, "kiln_numpy_random()", size_at=0),
        numpy_random.random_sample: Draw([], {}, "kiln_numpy_random()", size_at=0),
        numpy_random.rand: Draw([], {}, "kiln_numpy_random()", dims=True),
        numpy_random.randn: Draw([], {}, "kiln_numpy_gauss()", dims=True),
        numpy_random.standard_normal: Draw([], {}, "kiln_numpy_gauss()", size_at=0),
        numpy_random.uniform: Draw(["low", "high"], {"low": "0.0", "high": "1.0"},
                                   "((double){0} + ((double){1} - (double){0}) * kiln_numpy_random())",
                                   size_at=2),
        numpy_random.normal: Draw(["loc", "scale"], {"loc": "0.0", "scale": "1.0"},
                                  "((double){0} + (double){1} * kiln_numpy_gauss())", size_at=2),
        numpy_random.randint: Draw(["low", "high"], {"high": None},
                                   "kiln_numpy_randint((long long){0}, (long long){1})", size_at=2,
                                   result=T.INT64, stop_alone=True),
        random.random: Draw([], {}, "kiln_python_random()"),
        random.uniform: Draw(["a", "b"], {}, ("((double){0} + ((double){1} - (double){0}) * "
                                                    "kiln_python_random())")),
        random.gauss: Draw(["mu", "sigma"], {"mu": "0.0", "sigma": "1.0"},
                           "kiln_python_gauss((double){0}, (double){1})"),
        random.randint: Draw(["a", "b"], {}, "kiln_python_randrange((long long){0}, (long long){1} + 1)",
                             result=T.INT64),
        random.randrange: Draw(["start", "stop"], {"stop": None},
                               "kiln_python_randrange((long long){0}, (long long){1})", result=T.INT64,
                               stop_alone=True),
    }
