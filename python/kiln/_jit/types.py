"""The types of kiln.cuda.jit's kernel language: NumPy scalar dtypes, arrays
of 0 to 8 dimensions, records of structured dtypes, tuples, and Numba's
signature strings ("void(float32[:], int32)").

Arithmetic follows NumPy's promotion between concrete types, as Numba does:
an int64 literal times a float32 is float64, int32 + float32 is float64.
"""
import enum
import re

import numpy as np

from .._numba_cuda.time_arrays import is_time_dtype as is_time  # datetime64 and timedelta64, any unit

C_NAMES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
    "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int", "int64": "long long",
    "uint64": "unsigned long long", "float16": "float16", "float32": "float", "float64": "double",
    "complex64": "complex<float>", "complex128": "complex<double>",
    "bfloat16": "kiln_bfloat16",  # ml_dtypes' NumPy dtype (kiln/cuda/bf16.py)
}
BOOL, INT32, INT64, UINT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX128 = (
    np.dtype(n) for n in ("bool", "int32", "int64", "uint64", "float16", "float32", "float64", "complex128"))


class ArrayType:
    """An array argument or a shared/local array: element dtype and dimensions."""

    __slots__ = ("dtype", "ndim")

    def __init__(self, dtype, ndim):
        self.dtype, self.ndim = _plain(np.dtype(dtype)), ndim

    def __eq__(self, other):
        return isinstance(other, ArrayType) and (_key(self.dtype), self.ndim) == (_key(other.dtype), other.ndim)

    def __hash__(self):
        return hash((_key(self.dtype), self.ndim))

    def __repr__(self):
        return f"{self.dtype.name}[{', '.join(':' * self.ndim)}]"

    @property
    def c_name(self):
        return f"kiln_view<{c_name(self.dtype)}, {self.ndim}>"


class RecordType:
    """One record of a NumPy structured dtype, by reference as Numba holds
    records: ``ary[i]`` of a record array, a record argument (a NumPy
    record scalar, whose memory the kernel writes). In C++ a pointer to a
    kiln_record (include/kiln/device/jit_records.cuh); fields are read and
    written at their byte offsets."""

    __slots__ = ("dtype",)
    char = "p"  # passed as its address

    def __init__(self, dtype):
        self.dtype = _plain(np.dtype(dtype))

    def __eq__(self, other):
        return isinstance(other, RecordType) and _key(self.dtype) == _key(other.dtype)

    def __hash__(self):
        return hash(("record", _key(self.dtype)))

    def __repr__(self):
        return f"Record({self.dtype})"

    @property
    def c_name(self):
        return c_name(self.dtype) + "*"


class GridGroupType:
    """Numba's ``cuda.cg.this_grid()``: the grid as a group, whose one
    method, ``sync()``, is a barrier across all its threads. In C++ an empty
    struct (kiln/device/grid_sync.cuh)."""

    __slots__ = ()
    c_name = "kiln_grid_group"

    def __eq__(self, other):
        return isinstance(other, GridGroupType)

    def __hash__(self):
        return hash("grid group")

    def __repr__(self):
        return "GridGroup"


GRID_GROUP = GridGroupType()


class PointerType:
    """A raw pointer to elements of `dtype` (Numba's ``CPointer(int32)``): a
    kernel argument given as an address, indexed ``p[i]`` without bounds,
    viewed as an array by ``carray(p, shape)``. In C++ a T*, passed as the
    64 bits of the address."""

    __slots__ = ("dtype",)
    char = "Q"

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)

    def __eq__(self, other):
        return isinstance(other, PointerType) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("pointer", self.dtype))

    def __repr__(self):
        return f"CPointer({self.dtype.name})"

    @property
    def c_name(self):
        return c_name(self.dtype) + "*"


class EnumMemberType:
    """A member of a Python Enum or IntEnum class `cls`, as Numba types one:
    compared with ``==``, ``!=``, ``is`` and ``is not``. In C++ a long long,
    the member's code: its value in an IntEnum, its position in `cls`
    otherwise (so members of different classes are told apart when typing)."""

    __slots__ = ("cls",)
    char = "q"

    def __init__(self, cls):
        self.cls = cls

    def __eq__(self, other):
        return isinstance(other, EnumMemberType) and self.cls is other.cls

    def __hash__(self):
        return hash(("enum", self.cls))

    def __repr__(self):
        return f"EnumMember({self.cls.__name__})"

    @property
    def is_int(self):
        return issubclass(self.cls, enum.IntEnum)

    c_name = "long long"

    @staticmethod
    def code(member):
        """The C++ value of `member`."""
        return int(member) if isinstance(member, enum.IntEnum) else list(type(member)).index(member)


def is_record(dtype):
    """Whether a NumPy dtype is structured (has named fields)."""
    return isinstance(dtype, np.dtype) and dtype.fields is not None


def record_alignment(dtype):
    """The alignment of a structured dtype's records: its widest field's if
    made with align=True, else 1 (NumPy's own figure is 1 for a recarray's
    dtype whatever it was made with)."""
    if not dtype.isalignedstruct:
        return 1
    bases = (dtype.fields[n][0] for n in dtype.names)
    bases = [b.subdtype[0] if b.subdtype else b for b in bases]
    return max([record_alignment(b) if is_record(b) else b.alignment for b in bases], default=1)


def _plain(dtype):
    """A recarray's dtype (numpy.record) as the plain structured dtype it
    equals, so that both spell and compare alike."""
    return np.dtype((np.void, dtype)) if is_record(dtype) and dtype.type is not np.void else dtype


def _key(dtype):
    """What tells types of `dtype` apart: structured dtypes NumPy calls equal
    (the same fields and offsets, one made with align=True) differ by alignment."""
    return (dtype, record_alignment(dtype)) if is_record(dtype) else dtype


def element_type(dtype):
    """The type of one element of an array of `dtype`: a record reference
    for a structured dtype, else the dtype."""
    return RecordType(dtype) if is_record(dtype) else dtype


class ConstantArg:
    """A device function's argument known when the kernel is compiled: a
    literal, a module-level object (``cuda.atomic.add``, a Numba type, another
    device function). The callee is specialised on its value, which it sees
    as a constant (Numba's literal and first-class-function arguments)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def _key(self):
        try:
            hash(self.value)
            return type(self.value), self.value
        except TypeError:
            return id(self.value)

    def __eq__(self, other):
        return isinstance(other, ConstantArg) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Literal({self.value!r})"


class TupleType:
    """A tuple of numbers (or of tuples): a kernel's tuple argument, a tuple
    local (``gid = cuda.grid(2)``), a device function's tuple result. In C++
    a kiln_tuple (include/kiln/device/jit_support.cuh)."""

    __slots__ = ("items", "names")
    char = "V"  # passed by value as packed bytes

    def __init__(self, items, names=None):
        self.items = tuple(items)
        self.names = tuple(names) if names is not None else None  # a namedtuple's fields

    def __eq__(self, other):
        return isinstance(other, TupleType) and self.items == other.items and self.names == other.names

    def __hash__(self):
        return hash((self.items, self.names))

    def __repr__(self):
        if self.names:
            return f"NamedTuple({', '.join(f'{n}: {t}' for n, t in zip(self.names, self.items))})"
        return f"Tuple({', '.join(map(str, self.items))})"

    def field(self, name):
        """The position of a namedtuple's field `name`, or None."""
        return self.names.index(name) if self.names and name in self.names else None

    @property
    def c_name(self):
        return f"kiln_tuple<{', '.join(c_name(t) for t in self.items)}>"

    def layout(self):
        """(size, alignment, [(offset, dtype)] of every number in it) of the
        C++ kiln_tuple: a head, then the rest as a struct of its own."""
        return _layout(self.items)

    def pack(self, value):
        """`value` (a tuple, its arrays given as the numbers of their views:
        data address, shape, byte strides) as the bytes of this kiln_tuple,
        for a kernel argument."""
        size, _, fields = self.layout()
        data = bytearray(size)
        for (offset, dtype), number in zip(fields, leaves(value)):
            data[offset:offset + dtype.itemsize] = np.array(number, dtype=dtype).tobytes()
        return bytes(data)


def leaves(values):
    """The items of a tuple with nested tuples opened, to any depth."""
    for v in values:
        if isinstance(v, tuple):
            yield from leaves(v)
        else:
            yield v


def map_leaves(value, fn):
    """`value` with every item that is not a tuple replaced by fn(item), at
    any depth; tuples rebuilt as they were (namedtuples as namedtuples)."""
    if isinstance(value, tuple):
        items = [map_leaves(v, fn) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return fn(value)


def _layout(items):
    def of(t):
        if isinstance(t, TupleType):
            return _layout(t.items)
        if isinstance(t, ArrayType):  # a kiln_view: the data address, then int64 shape and byte strides
            return 8 + 16 * t.ndim, 8, [(0, np.dtype(np.uint64))] + [(8 + 8 * k, INT64) for k in range(2 * t.ndim)]
        return t.itemsize, t.itemsize, [(0, t)]

    def round_up(n, a):
        return -(-n // a) * a

    if not items:
        return 1, 1, []  # an empty C++ struct
    head_size, head_align, head_fields = of(items[0])
    if len(items) == 1:
        return round_up(head_size, head_align), head_align, head_fields
    rest_size, rest_align, rest_fields = _layout(items[1:])
    rest_offset = round_up(head_size, rest_align)
    align = max(head_align, rest_align)
    return (round_up(rest_offset + rest_size, align), align,
            head_fields + [(rest_offset + o, d) for o, d in rest_fields])


def c_name(t):
    if isinstance(t, (ArrayType, TupleType, RecordType, EnumMemberType, PointerType, GridGroupType)):
        return t.c_name
    if t is None:
        return "void"
    if is_record(t):
        return f"kiln_record<{t.itemsize}, {record_alignment(t)}>"
    if is_time(t):
        return "long long"  # a count of the type's unit (constructs/datetimes.py)
    try:
        return C_NAMES[t.name]
    except KeyError:
        raise TypeError(f"{t.name} is not supported in kiln.cuda.jit kernels yet "
                        "(bool, integers, floats and complex numbers are)") from None


def is_scalar(t):
    return isinstance(t, np.dtype)


def is_int(t):
    return is_scalar(t) and t.kind in "iu"


def is_float(t):
    return is_scalar(t) and t.kind == "f"


def is_complex(t):
    return is_scalar(t) and t.kind == "c"


def real_part(t):
    """The type of a complex type's parts (float32 of complex64); a real type itself."""
    return np.dtype(f"float{t.itemsize * 4}") if is_complex(t) else t


def as_complex(t):
    """The complex type holding `t` (complex64 for float32 and complex64, else complex128)."""
    return np.dtype("complex64") if t in (np.dtype("float32"), np.dtype("complex64"), np.dtype("float16")) \
        else COMPLEX128


def promote(a, b):
    """The type of `a op b` for arithmetic (bools count as integers)."""
    if a.kind == "b" and b.kind == "b":
        return INT64
    return np.promote_types(INT64 if a.kind == "b" else a, INT64 if b.kind == "b" else b)


def numba_integer(*operands):
    """The type of integer arithmetic in Numba (its integer-typing NBEP):
    64 bits whatever the operands' widths, signed unless every operand is
    unsigned, so that ``blockIdx.x * blockDim.x`` (int32s) does not wrap at
    2**31 as C's int would. Bools count as int64."""
    return UINT64 if all(t.kind == "u" for t in operands) else INT64


def unify(a, b):
    """The type a variable assigned both `a` and `b` gets."""
    # (A dtype compares equal to anything with its .dtype, an ArrayType too.)
    if a is None or (type(a) is type(b) and a == b):
        return b
    if is_scalar(a) and is_scalar(b):
        return np.promote_types(a, b)
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.items) == len(b.items):
        return TupleType(unify(x, y) for x, y in zip(a.items, b.items))
    raise TypeError(f"a variable cannot be both {a} and {b}")


def of_value(value):
    """The type of a Python or NumPy scalar passed to a kernel or folded in."""
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, np.void) and is_record(value.dtype):
        return RecordType(value.dtype)
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, int):
        return INT64
    if isinstance(value, float):
        return FLOAT64
    if isinstance(value, complex):
        return COMPLEX128
    if isinstance(value, tuple):
        return TupleType((of_value(v) for v in value), getattr(value, "_fields", None))
    raise TypeError(f"unsupported scalar {value!r}")


_ARRAY_SPEC = re.compile(r"^(\w+)\[([:,\s\d]*)\]$")


def parse_type(text):
    """A type from a signature: Numba's spelling ("float32[:]") or its type
    objects (kiln.cuda.types: float32[:], int32, void)."""
    if not isinstance(text, str):
        return _from_type_object(text)
    text = text.strip()
    m = _ARRAY_SPEC.match(text)
    if m:
        return ArrayType(_dtype_named(m.group(1)), m.group(2).count(",") + 1)
    if text in ("void", "none"):
        return None
    return _dtype_named(text)


def _dtype_named(name):
    aliases = {"float": "float32", "double": "float64", "int": "int64", "intp": "int64", "boolean": "bool",
               "b1": "bool", "f4": "float32", "f8": "float64", "i4": "int32", "i8": "int64"}
    try:
        return np.dtype(aliases.get(name, name))
    except TypeError:
        raise ValueError(f"unknown type '{name}' in a signature") from None


def _from_type_object(t):
    from .._numba_cuda import types as numba_types

    if t is None or isinstance(t, numba_types.NoneType):
        return None
    if isinstance(t, numba_types.Array):
        plain = isinstance(t.element, (numba_types.Record, numba_types.NPDatetime))
        return ArrayType(t.dtype if plain else t.dtype.name, t.ndim)
    if isinstance(t, numba_types.NPDatetime):  # NPTimedelta too
        return t.dtype
    if isinstance(t, numba_types.Record):
        return RecordType(t.dtype)
    if isinstance(t, numba_types.CPointer):
        return PointerType(_from_type_object(t.dtype))
    if isinstance(t, numba_types.BaseTuple):
        return TupleType([_from_type_object(item) for item in t.types])
    if isinstance(t, numba_types.Number):
        return np.dtype(t.dtype.name)
    raise TypeError(f"{t!r} is not a type a kernel signature takes")


def parse_signature(sig):
    """'void(float32[:], int32)' or ``void(float32[:], int32)`` (Numba's type
    objects), or a tuple of argument types -> (return type or None, [argument types])."""
    if isinstance(sig, (tuple, list)):
        return None, [parse_type(t) for t in sig]
    if not isinstance(sig, str):
        return parse_type(sig.return_type), [parse_type(t) for t in sig.args]
    m = re.match(r"^\s*(\w+(?:\[[^\]]*\])?)?\s*\((.*)\)\s*$", sig)  # "(float32[:], int32)": no return type
    if not m:
        raise ValueError(f"cannot read the signature {sig!r} (expected e.g. 'void(float32[:], int32)')")
    args, depth, start = [], 0, 0
    text = m.group(2)
    for i, ch in enumerate(text + ","):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            if text[start:i].strip():
                args.append(parse_type(text[start:i]))
            start = i + 1
    return (parse_type(m.group(1)) if m.group(1) else None), args
