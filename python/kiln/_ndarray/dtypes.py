"""kiln's dtype objects, and its scalar types.

The dtypes compare equal to NumPy's dtypes and scalar types and to their
names, can be passed wherever NumPy expects a dtype, and are called to make
NumPy scalars. NumPy itself is imported only when one of those conversions
needs it.

The scalar types (``kiln.float32``, ``kiln.int64``, ``kiln.bool_`` and
NumPy's aliases for them) are NumPy's, as CuPy's are (``cupy.float32 is
numpy.float32``): code that keys dictionaries by them, asks
``issubclass(t, kiln.floating)`` or hands them to SciPy as ``output=``
works unchanged. ``kiln.dtype(x).type`` is that scalar type.
"""
import builtins
import sys

from .. import _core


class dtype:
    """One of kiln's fourteen data types (``kiln.float32`` and friends).
    ``kiln.dtype(x)`` is the kiln dtype of anything NumPy's ``numpy.dtype``
    takes that names one of them (a name, a NumPy type, a Python type)."""

    __slots__ = ("_num", "name", "char", "itemsize", "kind", "_numpy")

    def __new__(cls, obj=float, align=False, copy=False):
        return normalize(float if obj is None else obj)

    @classmethod
    def _make(cls, num):
        made = object.__new__(cls)
        made._num = num
        made.name, made.char, made.itemsize, made.kind = _core._dtype_info(num)
        made._numpy = None
        return made

    def __repr__(self):
        return f"kiln.{self.name}"

    def __str__(self):
        return self.name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        if other is self:
            return True
        if other is None:  # NumPy's dtype(None) is float64, and its dtypes compare so
            return self.name == "float64"
        try:
            return normalize(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __reduce__(self):
        return (_from_name, (self.name,))

    @property
    def str(self):
        """NumPy's array-interface type string, e.g. '<f4'."""
        order = "|" if self.itemsize == 1 else "<"
        return f"{order}{self.kind}{self.itemsize}"

    @property
    def dtype(self):
        """The equal ``numpy.dtype`` (lets NumPy accept kiln dtypes)."""
        if self._numpy is None:
            import numpy

            self._numpy = numpy.dtype(self.name)
        return self._numpy

    @property
    def __class__(self):
        """NumPy's class of the equal NumPy dtype once NumPy is loaded, so
        that code asking ``isinstance(x, numpy.dtype)`` (SciPy's ``output=``
        arguments, NumPy's Python helpers) takes a kiln dtype for the NumPy
        dtype it stands for, as a CuPy user's dtypes are NumPy's; ``type(x)``
        stays kiln.dtype. Before NumPy is loaded nothing can ask."""
        return dtype if "numpy" not in sys.modules else type(self.dtype)

    @property
    def type(self):
        return self.dtype.type

    def __call__(self, value=0):
        """A NumPy scalar of this type, as ``numpy.float32(value)`` gives."""
        return self.dtype.type(value)

    def __getattr__(self, name):
        """The rest of ``numpy.dtype``'s attributes (``descr``, ``byteorder``,
        ``isnative``, ``num``, ``alignment``, ``fields``...), read from the equal
        NumPy dtype, so code that inspects dtypes NumPy's way works unchanged."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.dtype, name)


_ALL = [dtype._make(i) for i in range(_core._num_dtypes())]
_BY_NAME = {d.name: d for d in _ALL}
_PYTHON_TYPES = {builtins.bool: "bool", int: "int64", float: "float64", complex: "complex128"}


def _from_name(name):
    return _BY_NAME[name]


def _from_numpy_module(obj):
    module = getattr(obj, "__module__", None)
    return isinstance(module, builtins.str) and module.split(".")[0] == "numpy"


# NumPy's dtypes and scalar types already seen, -> kiln dtype: they are
# kiln's own scalar types, so normalize meets them at every call.
_FROM_NUMPY = {}


def normalize(obj, arg="dtype"):
    """Any dtype-like (kiln dtype, NumPy dtype or type, name, Python type) -> kiln dtype."""
    if type(obj) is dtype:
        return obj
    try:
        return _FROM_NUMPY[obj]
    except (KeyError, TypeError):
        pass
    if isinstance(obj, builtins.str):
        num = _core._dtype_from_name(obj)
        if num >= 0:
            return _ALL[num]
    elif isinstance(obj, type) and obj in _PYTHON_TYPES:
        return _BY_NAME[_PYTHON_TYPES[obj]]
    elif _from_numpy_module(type(obj)) or _from_numpy_module(obj):
        import numpy

        try:
            npd = numpy.dtype(obj)
        except TypeError:
            npd = None
        if npd is not None and npd.isnative and npd.name in _BY_NAME:
            if isinstance(obj, (type, numpy.dtype)):
                _FROM_NUMPY[obj] = _BY_NAME[npd.name]
            return _BY_NAME[npd.name]
    elif obj is None:
        raise TypeError(f"{arg}: None is not a dtype")
    elif isinstance(getattr(obj, "dtype", None), dtype) and not hasattr(obj, "shape"):
        return obj.dtype  # a type object that names a dtype (Numba's float32), as NumPy reads .dtype
    raise TypeError(f"{arg}: data type {obj!r} is not supported by kiln")


(bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
 float16, float32, float64, complex64, complex128) = _ALL

# kiln's public scalar type names (NumPy's, with its aliases) -> dtype name.
SCALAR_TYPE_NAMES = {d.name: d.name for d in _ALL} | {
    "bool_": "bool", "half": "float16", "single": "float32", "double": "float64", "csingle": "complex64",
    "cdouble": "complex128", "intp": "int64", "uintp": "uint64", "float_": "float64", "complex_": "complex128",
    "int_": "int64", "byte": "int8", "ubyte": "uint8", "short": "int16", "ushort": "uint16", "intc": "int32",
    "uintc": "uint32", "long": "int64", "ulong": "uint64", "longlong": "int64", "ulonglong": "uint64",
    "uint": "uint64",
}


def scalar_type(name):
    """The scalar type kiln's namespace calls `name` (NumPy's, as CuPy's)."""
    return _BY_NAME[SCALAR_TYPE_NAMES[name]].type


def _limits_dtype(type):
    """finfo's and iinfo's argument as a dtype-like: an array (not a NumPy
    scalar type, which has a shape descriptor) gives its dtype."""
    return type.dtype if hasattr(type, "shape") and not isinstance(type, builtins.type) else type


class finfo:
    """Machine limits of a floating or complex dtype (array API ``finfo``)."""

    def __init__(self, type):
        dt = _limits_dtype(type)
        (self.bits, self.eps, self.max, self.min, self.smallest_normal,
         self.resolution, self.precision, self.dtype) = _core._finfo(normalize(dt, "type"))
        self.tiny = self.smallest_normal

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, "
                f"dtype={self.dtype.name})")


class iinfo:
    """Limits of an integer dtype (array API ``iinfo``)."""

    def __init__(self, type):
        dt = _limits_dtype(type)
        self.bits, self.min, self.max, self.dtype = _core._iinfo(normalize(dt, "type"))

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"


_KIND_GROUPS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype, kind):
    """Array API ``isdtype``: whether ``dtype`` is of ``kind`` (a name, a dtype or a tuple)."""
    dt = normalize(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, builtins.str):
        if kind not in _KIND_GROUPS:
            raise ValueError(f"kind: unknown dtype kind {kind!r}")
        return dt.kind in _KIND_GROUPS[kind]
    return dt == normalize(kind, "kind")


def common_type(*arrays):
    """NumPy's common_type: the inexact scalar type all ``arrays`` fit
    (integers count as float64), as NumPy's type (``numpy.float64``)."""
    complex_, size = False, 2
    for a in arrays:
        kind = a.dtype.kind
        if kind == "b":
            raise TypeError("can't get common type for non-numeric array")
        complex_ |= kind == "c"
        size = builtins.max(size, 8 if kind in "iu" else a.dtype.itemsize // (2 if kind == "c" else 1))
    name = f"complex{16 * size}" if complex_ else f"float{8 * size}"
    return _BY_NAME[name].type
