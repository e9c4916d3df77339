"""Numba's type objects (``numba.types``, also ``numba.float32`` and the
rest at the top level): scalar types that are called to cast inside kernels
(``float32(x)``) or to write a signature (``void(float32[:], int32)``), and
array types made by indexing one (``float32[:, ::1]``). kiln.cuda.jit reads
them wherever Numba takes a type: signatures, ``cuda.local.array(n,
dtype=types.int32)``, casts.
"""
from .._ndarray.dtypes import normalize


class Type:
    """A Numba type: named, compared by name."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Type) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    @property
    def key(self):
        """What identifies the type: its name (``np.iinfo(int8.key)``), as in Numba."""
        return self.name

    def __call__(self, *args):
        """With types: the signature returning this type; with values: a cast
        (the value as this type, as a kernel's ``float32(x)`` makes it)."""
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) != 1:
            raise TypeError(f"{self.name}() takes one value to cast")
        return self._cast(args[0])

    def _cast(self, value):
        raise TypeError(f"{self.name} cannot cast values")


class Number(Type):
    """A scalar type: ``dtype`` is the kiln dtype it stands for."""

    def __init__(self, name, dtype_name):
        super().__init__(name)
        self.dtype = normalize(dtype_name)

    def _cast(self, value):
        return self.dtype.type(value)

    def __getitem__(self, spec):
        """``float32[:]``, ``float32[:, :]``, ``float32[:, ::1]`` (C order), ``float32[::1, :]`` (F order)."""
        spec = spec if isinstance(spec, tuple) else (spec,)
        if not all(isinstance(s, slice) for s in spec):
            raise TypeError(f"{self.name}[...] takes slices (':' or '::1'), one per dimension")
        steps = [s.step for s in spec]
        layout = "C" if steps[-1] == 1 and all(s is None for s in steps[:-1]) else \
            "F" if steps[0] == 1 and all(s is None for s in steps[1:]) else "A"
        return Array(self, len(spec), layout)


class Boolean(Number):
    """``boolean``."""


class Integer(Number):
    """The signed and unsigned integer types."""

    @property
    def signed(self):
        return self.dtype.kind == "i"

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8


class Float(Number):
    """float16, float32 and float64."""

    @property
    def bitwidth(self):
        return self.dtype.itemsize * 8


class Complex(Number):
    """complex64 and complex128: ``underlying_float`` is the type of each part."""

    @property
    def underlying_float(self):
        return float32 if self.dtype.itemsize == 8 else float64  # noqa: F821


class Array(Type):
    """An array type: element type, dimensions and layout ('C', 'F' or 'A')."""

    def __init__(self, dtype, ndim, layout="A", readonly=False):
        self.element = dtype if isinstance(dtype, Type) else from_dtype(dtype)
        self.dtype, self.ndim, self.layout = self.element.dtype, int(ndim), layout
        dims = ", ".join(":" for _ in range(self.ndim))
        super().__init__(f"array({self.element}, {self.ndim}d, {layout})" if dims else f"{self.element}[]")


class BaseTuple(Type):
    """A tuple type: ``types`` are its items' types."""

    def __init__(self, name, types):
        self.types = tuple(types)
        super().__init__(name)

    @property
    def count(self):
        return len(self.types)

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    def __getitem__(self, index):
        return self.types[index]


class Tuple(BaseTuple):
    """``Tuple((int64, float32))``: a tuple of those types (a UniTuple where
    they are one type, as Numba makes it)."""

    def __new__(cls, types):
        types = tuple(types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        return super().__new__(cls)

    def __init__(self, types):
        super().__init__(f"Tuple({', '.join(map(str, types))})", types)


class UniTuple(BaseTuple):
    """``UniTuple(float64, 3)``: a tuple of `count` items of one type."""

    def __init__(self, dtype, count):
        self.dtype = dtype
        super().__init__(f"UniTuple({dtype} x {int(count)})", (dtype,) * int(count))


class Record(Type):
    """A NumPy structured dtype as a Numba type (``from_dtype`` of one):
    ``dtype`` is the NumPy dtype; ``rec[:]`` is an array of such records.
    The name spells each field (name, type, offset), the size and whether
    the dtype is aligned, so two dtypes differing in layout differ."""

    def __init__(self, dtype):
        fields = ",".join(f"{name}[type={dtype.fields[name][0]};offset={dtype.fields[name][1]}]"
                          for name in dtype.names)
        super().__init__(f"Record({fields};{dtype.itemsize};{dtype.isalignedstruct})")
        self.dtype = dtype

    __getitem__ = Number.__getitem__


class NPDatetime(Type):
    """``NPDatetime("D")``: NumPy's datetime64 of a unit (``from_dtype`` of
    one); ``dtype`` is the NumPy dtype."""

    kind = "M"

    def __init__(self, unit):
        import numpy as np  # not at import: kiln imports without NumPy

        self.unit = unit
        self.dtype = np.dtype(f"{self.kind}8[{unit}]")
        super().__init__(self.dtype.name)

    def _cast(self, value):
        return self.dtype.type(value, self.unit)

    __getitem__ = Number.__getitem__


class NPTimedelta(NPDatetime):
    """``NPTimedelta("D")``: NumPy's timedelta64 of a unit."""

    kind = "m"


class CPointer(Type):
    """``CPointer(int32)``: a raw pointer to elements of a type (a kernel's
    argument given as an address, ``carray(ptr, shape)``'s first argument)."""

    def __init__(self, dtype, addrspace=None):
        self.dtype = dtype
        super().__init__(f"CPointer({dtype})")


class Dummy(Type):
    """A type known by name alone (Numba's base of opaque types): what Numba
    calls ``ellipsis``, ``slice2_type``, ``unicode_type`` and the like, which
    kiln's signatures do not take."""


class NoneType(Type):
    """``void`` (``none``): what a kernel returns."""


class Signature:
    """``void(float32[:], int32)``: a return type and the argument types."""

    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __repr__(self):
        return f"{self.return_type}({', '.join(map(str, self.args))})"

    def __eq__(self, other):
        return isinstance(other, Signature) and (self.return_type, self.args) == (other.return_type, other.args)

    def __hash__(self):
        return hash((self.return_type, self.args))


_NUMBERS = {"boolean": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
            "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "float16": "float16",
            "float32": "float32", "float64": "float64", "complex64": "complex64", "complex128": "complex128"}
_CLASSES = {"b": Boolean, "i": Integer, "u": Integer, "f": Float, "c": Complex}
globals().update({name: _CLASSES[normalize(dtype_name).kind](name, dtype_name) for name, dtype_name in _NUMBERS.items()})
void = none = NoneType("none")
ellipsis, slice2_type, slice3_type, voidptr = Dummy("ellipsis"), Dummy("slice<a:b>"), Dummy("slice<a:b:c>"), Dummy("void*")
unicode_type = string = Dummy("unicode_type")
bool_ = b1 = boolean  # noqa: F821  (made just above)
i1, i2, i4, i8 = int8, int16, int32, int64  # noqa: F821
u1, u2, u4, u8 = uint8, uint16, uint32, uint64  # noqa: F821
f2, f4, f8, c8, c16 = float16, float32, float64, complex64, complex128  # noqa: F821
byte, uchar, char, short, ushort = uint8, uint8, int8, int16, uint16  # noqa: F821
intc, uintc, int_, uint, long_, ulong = int32, uint32, int64, uint64, int64, uint64  # noqa: F821
longlong, ulonglong = int64, uint64  # noqa: F821
intp, uintp, ssize_t, size_t = int64, uint64, int64, uint64  # noqa: F821
float_, double, complex_ = float32, float64, complex128  # noqa: F821

integer_domain = frozenset([int8, int16, int32, int64, uint8, uint16, uint32, uint64])  # noqa: F821
real_domain = frozenset([float32, float64])  # noqa: F821
complex_domain = frozenset([complex64, complex128])  # noqa: F821
number_domain = integer_domain | real_domain | complex_domain
signed_domain = frozenset([int8, int16, int32, int64])  # noqa: F821
unsigned_domain = frozenset([uint8, uint16, uint32, uint64])  # noqa: F821


def signature(return_type, *args):
    """``signature(void, float32[:], int32)``: the same as ``void(float32[:], int32)``."""
    return Signature(return_type, args)


def typeof(value):
    """The Numba type of a kernel argument: a scalar type for numbers, an
    array type (dtype, dimensions, layout) for arrays."""
    if isinstance(value, bool):
        return boolean  # noqa: F821
    if isinstance(value, int):
        return int64  # noqa: F821
    if isinstance(value, float):
        return float64  # noqa: F821
    if isinstance(value, complex):
        return complex128  # noqa: F821
    if isinstance(value, tuple):
        return Tuple([typeof(item) for item in value])
    shape = getattr(value, "shape", None)
    if shape is None or not hasattr(value, "dtype"):
        raise TypeError(f"typeof: no Numba type for a {type(value).__name__}")
    import numpy as np

    if isinstance(value, np.generic):  # a NumPy scalar (which has a shape and strides too)
        return from_dtype(value.dtype)
    flags = getattr(value, "flags", None)
    layout = "C" if flags is not None and flags.c_contiguous else \
        "F" if flags is not None and flags.f_contiguous else "A"
    return Array(from_dtype(value.dtype), len(shape), layout)


def as_dtype(numba_type):
    """The NumPy dtype of a Numba scalar type (``as_dtype(float32)``)."""
    import numpy

    if isinstance(numba_type, Record):
        return numba_type.dtype
    if isinstance(numba_type, numpy.dtype) or (isinstance(numba_type, type) and issubclass(numba_type, numpy.generic)):
        return numpy.dtype(numba_type)  # already NumPy's (a kiln scalar type's .dtype is)
    if not isinstance(numba_type, Number):
        raise TypeError(f"as_dtype: {numba_type!r} is not a scalar type")
    return numpy.dtype(numba_type.dtype.name)


def from_dtype(dtype):
    """The Numba type of a dtype-like: a scalar type (``from_dtype(np.float32)``
    is float32), or a Record for a NumPy structured dtype."""
    if getattr(dtype, "fields", None) is not None:
        return Record(dtype)
    if getattr(dtype, "kind", None) in ("M", "m"):
        import numpy as np

        unit = np.datetime_data(dtype)[0]
        return NPDatetime(unit) if dtype.kind == "M" else NPTimedelta(unit)
    d = normalize(dtype)
    return globals()["boolean" if d.name == "bool" else d.name]


__all__ = ["Type", "Number", "Boolean", "Integer", "Float", "Complex", "Array", "BaseTuple", "Tuple", "UniTuple", "Record", "NPDatetime", "NPTimedelta", "CPointer", "Dummy", "NoneType", "ellipsis", "slice2_type", "slice3_type", "voidptr", "unicode_type", "string", "Signature", "from_dtype", "as_dtype", "signature", "typeof", "void", "none", *_NUMBERS,
           "bool_", "b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "byte",
           "intc", "uintc", "longlong", "ulonglong", "intp", "uintp", "float_", "double", "complex_"]
