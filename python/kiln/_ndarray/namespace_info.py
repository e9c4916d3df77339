"""The array API's inspection object, ``kiln.__array_namespace_info__()``:
what kiln can do, its devices and default dtypes, and its dtypes by kind."""
from .. import _core
from . import dtypes as _dtypes
from .device import default_device

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]


class Info:
    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        return default_device()

    def default_dtypes(self, *, device=None):
        return {"real floating": _dtypes.normalize("float64"), "complex floating": _dtypes.normalize("complex128"),
                "integral": _dtypes.normalize("int64"), "indexing": _dtypes.normalize("int64")}

    def devices(self):
        from .. import cuda

        count = cuda.device_count() if cuda.is_available() else 0
        return [_core.Device("cpu")] + [_core.Device(f"cuda:{i}") for i in range(count)]

    def dtypes(self, *, device=None, kind=None):
        """The dtypes of ``kind`` (a name, a tuple of names, or None for all of the standard's)."""
        kinds = ("bool", "numeric") if kind is None else ((kind,) if isinstance(kind, str) else tuple(kind))
        names = []
        for k in kinds:
            if k not in _KINDS:
                raise ValueError(f"unknown dtype kind {k!r}; expected one of {sorted(_KINDS)}")
            names.extend(n for n in _KINDS[k] if n not in names)
        return {n: _dtypes.normalize(n) for n in names}


def __array_namespace_info__():
    return Info()
