"""Numba's foreign device functions: CUDA C++ a kernel calls, declared with
``cuda.declare_device(name, signature, link=...)`` and linked from
``cuda.CUSource`` text or ``.cu`` files (also ``@cuda.jit(link=...)``).

kiln compiles a kernel from C++ source on both devices, so "linking" is
putting the source in the kernel's translation unit: NVRTC compiles it for
a GPU, the host compiler for the CPU. What only a device linker could take
(PTX, cubins, fatbins, objects, archives, LTO-IR) is refused by name.

A function keeps Numba's calling convention (``abi="numba"``): ``extern "C"
__device__ int name(R* result, A0 a0, ...)`` returns 0 and writes its result
through the first pointer (a void function's is ``void*``); with ``abi="c"``
it is ``extern "C" __device__ R name(A0 a0, ...)``. kiln calls either
through an inline wrapper (constructs/extern_functions.py).
"""
import os

_LINKER_ONLY = (".ptx", ".cubin", ".fatbin", ".o", ".a", ".ltoir", ".lib", ".obj")


class CUSource:
    """CUDA C++ source to link, as Numba's ``cuda.CUSource(data, name=...)``."""

    def __init__(self, data, name=None):
        if isinstance(data, bytes):
            data = data.decode()
        if not isinstance(data, str):
            raise TypeError(f"CUSource takes the source as str or bytes, not {type(data).__name__}")
        self.data, self.name = data, name or "<CUSource>"

    def __repr__(self):
        return f"CUSource({self.name})"


def linked_sources(link):
    """The source texts of a ``link=`` argument: a CUSource or a path, or a
    list, tuple or set of them (a set's order made definite by its texts)."""
    if link is None:
        return []
    texts = [_text_of(item) for item in (link if isinstance(link, (list, tuple, set, frozenset)) else [link])]
    return sorted(texts) if isinstance(link, (set, frozenset)) else texts


def _text_of(item):
    if isinstance(item, CUSource):
        return item.data
    if isinstance(item, (str, os.PathLike)):
        path = os.fspath(item)
        if path.endswith(_LINKER_ONLY):
            raise NotImplementedError(f"link: {path!r} is for a device linker; kiln compiles kernels from CUDA C++ "
                                      f"source on both devices, so link .cu files or CUSource text")
        with open(path) as f:
            return f.read()
    raise TypeError(f"link: expected a CUSource or the path of a .cu file, got {type(item).__name__}")


class ExternFunction:
    """What ``declare_device`` returns: callable in kernels and device functions."""

    _kiln_extern_function = True

    def __init__(self, name, sig, sources, abi, cooperative=False):
        self.name, self.sig, self.sources, self.abi = name, sig, sources, abi
        self.cooperative = cooperative  # it syncs the grid: a kernel calling it launches cooperatively

    def __repr__(self):
        return f"<declared device function {self.name}{self.sig.args}>"

    def __call__(self, *args):
        raise TypeError(f"{self.name} is a declared device function: it runs only inside kernels")


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Numba's ``cuda.declare_device``: a device function defined in CUDA C++
    (the linked sources), with its Numba signature ("int32(int32)" or
    ``int32(int32)``) and calling convention (`abi`, see the module's
    docstring). `use_cooperative` says the function syncs the grid (a
    cooperative group): a kernel calling it launches cooperatively, all its
    blocks resident at once, as one calling ``cuda.cg.this_grid()`` does."""
    from .._jit import types as T
    from . import types as numba_types

    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi!r} (declare_device takes 'numba' or 'c')")
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"declare_device: the name must be a C identifier, got {name!r}")
    if isinstance(sig, (tuple, list)) or (isinstance(sig, str) and sig.strip().startswith("(")):
        raise TypeError("Return type must be provided for device declarations")
    if isinstance(sig, str):
        result, args = T.parse_signature(sig)
        as_type = (lambda t: numba_types.Array(t.dtype, t.ndim) if isinstance(t, T.ArrayType)
                   else numba_types.from_dtype(t))
        sig = numba_types.Signature(numba_types.void if result is None else as_type(result), [as_type(a) for a in args])
    elif not isinstance(sig, numba_types.Signature):
        raise TypeError(f"declare_device: expected a signature such as 'int32(int32)', got {sig!r}")
    return ExternFunction(name, sig, linked_sources(link), abi, bool(use_cooperative))
