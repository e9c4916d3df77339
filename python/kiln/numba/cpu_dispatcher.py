"""Numba's ``@njit``/``@jit`` on kiln: a function compiled for the host by
kiln's CUDA translator (Python to C++, typed by Numba's rules) and run by
the CPU backend as a one-thread kernel whose entry calls it and stores its
result. Specialised per argument types on first call, as Numba's
dispatcher is, and cached on disk as every kiln kernel is. Because it is a
``@cuda.jit(device=True)`` function too, a ``@cuda.jit`` kernel may call it
(Numba's documented CPU-GPU idiom), on a GPU or in the CPU's run of the kernel.

A function returns nothing, a scalar, one of the arrays it was given (the
same object, as the caller sees it), an array it made (np.empty, np.zeros...:
a NumPy array owning that memory, as Numba gives) or a view of one or of an
argument, or a tuple of those (nested too)."""
import ast
import ctypes
import itertools
import linecache

import numpy as np

from .._jit import types as T
from .._jit.constructs import heap_arrays
from .._jit.dispatcher import Dispatcher, _arg_type
from .._jit.errors import UnsupportedError
from .._numba_cuda import types as numba_types
from .._numba_cuda.types import typeof
from .._numba_cuda.kernel_language import prange  # noqa: F401  (Numba's name, exported by kiln.numba)

_entries = itertools.count()


class CPUDispatcher(Dispatcher):
    """What ``@njit`` returns: called from Python it runs on the host;
    called from a kernel it is that kernel's device function."""

    def __init__(self, pyfunc, signatures=(), boundscheck=False, **numba_options):
        super().__init__(pyfunc, device=True, signatures=signatures, debug=bool(boundscheck))
        self.targetoptions = dict(numba_options, boundscheck=boundscheck)
        error_model = numba_options.get("error_model", "python")
        if error_model not in ("python", "numpy"):
            raise ValueError(f"error_model must be 'python' or 'numpy', not {error_model!r}")
        # Parsed at the first call, as Numba compiles lazily: decorating never fails
        self._function_options = {"parallel": bool(numba_options.get("parallel")), "error_model": error_model}
        self._entries = {}  # argument types -> (entry kernel dispatcher, what the call returns)
        self._numba_types = {}  # argument types -> the arguments' Numba types (layouts too), as first called
        self._return_types = {}  # argument types -> the return type (kiln's)

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != len(self.function.params):  # defaults and keywords, by Python's rules
            args = tuple(self.function.bind(args, kwargs))
        if self._declared_signatures:  # Numba's dispatch: the arguments convert to a declared signature
            args = self._cast_to_signature(args)
        types = tuple(_arg_type(a) for a in args)
        found = self._entries.get(types)
        if found is None:
            self.check_declared(types)
            found = self._entries[types] = self._entry(types)
            self._numba_types[types] = tuple(typeof(a) for a in args)
        entry, returns = found
        from .._numpy.creation import empty

        if isinstance(returns, int):  # the index of the argument array it returns
            entry[1, 1](*args, empty(1, dtype="int8", device="cpu"))
            return args[returns]
        # The outputs are on the CPU, so the launch runs there (NumPy arrays
        # alone would follow the default device).
        outs = [empty(1, dtype=kind.name, device="cpu") if isinstance(kind, np.dtype) else
                empty(3 + 2 * kind.ndim, dtype="int64", device="cpu") for _, kind in returns or []]
        entry[1, 1](*args, *(outs or [empty(1, dtype="int8", device="cpu")]))
        if returns is None:
            return None
        blocks = {}  # block address -> the NumPy array owning it (a tuple's arrays may share one)
        values = [out[0].item() if isinstance(kind, np.dtype) else _handed(out.get(), kind, args, blocks)
                  for out, (_, kind) in zip(outs, returns)]
        if returns[0][0] is None:  # a lone value
            return values[0]
        return _rebuilt([path for path, _ in returns], values)

    def _entry(self, types):
        """The one-thread kernel calling this function for `types`, and what a
        call gives back: None, an argument's index, a _Made array, or the
        (index path, dtype) of each scalar the result holds (the path None
        for a lone scalar)."""
        from .._jit.dispatcher import Module

        # The entry's module records what a raise, an assert, a division by
        # zero or a negative dimension raised, for the call to raise in Python
        # (Numba's CPU error model), without debug mode's bounds checks.
        typing = Module(self.debug, records=True)
        typing.host_entry = True
        _, returned = typing.device_function(self, types)
        self._return_types[types] = returned
        params = [f"a{i}" for i in range(len(types))]
        call = f"_kiln_target({', '.join(params)})"
        if returned is None:
            body, returns, outs = [call], None, ["out"]
        elif isinstance(returned, T.ArrayType) and self._returned_argument(types) is not None:
            body, returns, outs = [call], self._returned_argument(types), ["out"]
        elif T.is_scalar(returned) or isinstance(returned, T.ArrayType):
            returns, outs = [(None, _kind(returned))], ["out0"]
            body = [_stored(call, returns[0][1], "out0")]
        elif isinstance(returned, T.TupleType) and all(T.is_scalar(t) or isinstance(t, T.ArrayType)
                                                       for _, t in _leaves(returned)):
            returns = [(path, _kind(leaf)) for path, leaf in _leaves(returned)]
            outs = [f"out{k}" for k in range(len(returns))]
            body = [f"result = {call}"] + [_stored(f"result{''.join(f'[{i}]' for i in path)}", kind, f"out{k}")
                                           for k, (path, kind) in enumerate(returns)]
        else:
            raise UnsupportedError(f"{self.__name__}: returning a {returned} to Python is not supported yet "
                                   "(a scalar, an array, a tuple of those, or nothing)")
        if typing.makes_arrays:
            body.append("_kiln_release()")
        name = f"_kiln_njit_entry_{next(_entries)}"
        filename = f"<kiln.numba entry of {self.__name__}>"
        source = f"def {name}({', '.join(params + outs)}):\n" + "".join(f"    {line}\n" for line in body)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope = {"_kiln_target": self, "_kiln_hand_over": heap_arrays.hand_over, "_kiln_release": heap_arrays.release}
        exec(compile(source, filename, "exec"), scope)
        entry = Dispatcher(scope[name], debug=self.debug)
        entry.host_entry = True
        return entry, returns

    def _returned_argument(self, types):
        """The index of the array parameter every return statement returns,
        or None where the function returns an array it made."""
        node = self.function.node
        returned = {r.value.id if isinstance(r.value, ast.Name) else None
                    for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None}
        params = self.function.params
        if len(returned) == 1 and (name := returned.pop()) in params and \
                isinstance(types[params.index(name)], T.ArrayType):
            return params.index(name)
        return None

    @property
    def signatures(self):
        """Numba's: the argument types of each specialisation, declared or
        compiled so far (Numba's type objects)."""
        if self._declared_signatures:
            return super().signatures
        return list(self._numba_types.values())

    @property
    def nopython_signatures(self):
        """Numba's: the signature of each specialisation compiled so far
        (Numba's type objects: the arguments' as they came, the return type)."""
        return [numba_types.Signature(_numba_type(self._return_types[types]), args)
                for types, args in self._numba_types.items()]

    def inspect_types(self, signature=None):
        """Numba's annotated source: here the C++ each specialisation (or
        the one for the argument types `signature`) was translated to."""
        entries = self._entries.values() if signature is None else [self._entries[tuple(signature)]]
        return "\n\n".join(source for entry, _ in entries for source in entry._sources.values())


# _nrt: Numba's switch for its reference-counting runtime, which kiln does
# not have (a compiled function's arrays are freed at its return or owned by
# NumPy), so either value means the same. no_rewrites: Numba's switch for
# its IR rewrite passes (array expressions among them), which kiln does not
# have (it translates the AST), so it changes nothing either.
_OPTIONS = {"nopython", "nogil", "cache", "fastmath", "parallel", "boundscheck", "error_model", "inline",
            "locals", "target", "no_cpython_wrapper", "no_cfunc_wrapper", "forceinline", "looplift", "_nrt",
            "no_rewrites"}


def njit(signature_or_function=None, **options):
    """Numba's ``@njit``: bare, with options, or with signatures."""
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"njit: unexpected options {sorted(unknown)}")
    if options.get("nopython") is False or options.pop("forceobj", False):
        raise UnsupportedError("object mode (nopython=False, forceobj=True) is not in kiln: every compiled "
                               "function is nopython")
    options.pop("nopython", None)
    if callable(signature_or_function) and not isinstance(signature_or_function, str):
        return CPUDispatcher(signature_or_function, **options)
    signatures = [] if signature_or_function is None else (
        list(signature_or_function) if isinstance(signature_or_function, list) else [signature_or_function])

    def decorate(pyfunc):
        dispatcher = CPUDispatcher(pyfunc, signatures=signatures, **options)
        dispatcher.type_declared()
        return dispatcher

    return decorate


def jit(signature_or_function=None, forceobj=False, **options):
    """Numba's ``@jit``: nopython mode, as Numba 0.59 made its default."""
    if forceobj:
        raise UnsupportedError("object mode (forceobj=True) is not in kiln: every compiled function is nopython")
    return njit(signature_or_function, **options)


def _numba_type(ty):
    """kiln's type of a result as Numba's type object."""
    if ty is None:
        return numba_types.none
    if isinstance(ty, T.TupleType):
        return numba_types.Tuple([_numba_type(t) for t in ty.items])
    if isinstance(ty, T.ArrayType):
        return numba_types.Array(numba_types.from_dtype(np.dtype(ty.dtype)), ty.ndim, "C")
    return numba_types.from_dtype(np.dtype(ty.name))


def _leaves(tuple_type, path=()):
    """(index path, type) of each non-tuple element of a tuple type, in order."""
    for i, item in enumerate(tuple_type.items):
        if isinstance(item, T.TupleType):
            yield from _leaves(item, path + (i,))
        else:
            yield path + (i,), item


def _rebuilt(paths, values):
    """The nested tuple whose leaves at the index `paths` are `values`."""
    root = {}
    for path, value in zip(paths, values):
        node = root
        for index in path[:-1]:
            node = node.setdefault(index, {})
        node[path[-1]] = value

    def as_tuple(node):
        return tuple(as_tuple(node[k]) if isinstance(node[k], dict) else node[k] for k in sorted(node))

    return as_tuple(root)


class _Made:
    """A result array, handed over by the entry (an array the function made,
    or a view of one or of an argument): its dtype and number of dimensions."""

    def __init__(self, array_type):
        self.dtype, self.ndim = np.dtype(array_type.dtype), array_type.ndim


def _kind(ty):
    """What a result leaf is to the entry: a scalar's dtype, or a _Made array."""
    return _Made(ty) if isinstance(ty, T.ArrayType) else np.dtype(ty.name)


def _stored(code, kind, out):
    """The entry's line storing the result leaf `code` into its output `out`."""
    return f"_kiln_hand_over({code}, {out})" if isinstance(kind, _Made) else f"{out}[0] = {code}"


def _handed(info, made, args, blocks):
    """The NumPy array of a handed-over result: info is [address, block,
    block bytes, shape..., byte strides...] (jit_heap_arrays.cuh's
    kiln_heap_hand_over); its elements lie in a block the function made
    (then NumPy owns the block) or in an argument's memory (a view of it)."""
    address, block, size = (int(v) for v in info[:3])
    shape = tuple(int(v) for v in info[3:3 + made.ndim])
    strides = tuple(int(v) for v in info[3 + made.ndim:3 + 2 * made.ndim])
    if block:
        owner = blocks.get(block)
        if owner is None:
            owner = blocks[block] = np.asarray(_HeapBlock(block, (size,), np.dtype(np.uint8)))
    else:
        owner = next((a for a in args if isinstance(a, np.ndarray) and _holds(a, address)), None)
        if owner is None:
            raise UnsupportedError("a compiled function returned an array whose memory is neither its own nor "
                                   "an argument's")
    return np.asarray(_View(owner, address, shape, strides, made.dtype))


def _holds(array, address):
    low, high = np.lib.array_utils.byte_bounds(array)
    return low <= address <= high


class _View:
    """Elements at `address` (inside `owner`'s memory) as NumPy's array
    interface; the array over it keeps `owner` alive."""

    def __init__(self, owner, address, shape, strides, dtype):
        self.owner = owner
        self.__array_interface__ = {"data": (address, False), "shape": shape, "strides": strides,
                                    "typestr": dtype.str, "descr": dtype.descr, "version": 3}


_free = ctypes.CDLL(None).free
_free.argtypes = [ctypes.c_void_p]


class _HeapBlock:
    """An array's memory from the C heap, made by a compiled function
    (include/kiln/device/jit_heap_arrays.cuh), as NumPy's array interface:
    the NumPy array over it keeps it, and it frees the block with the array."""

    def __init__(self, address, shape, dtype):
        self.address = address
        self.__array_interface__ = {"data": (address, False), "shape": shape, "typestr": dtype.str,
                                    "descr": dtype.descr, "version": 3}

    def __del__(self):
        _free(self.address)
